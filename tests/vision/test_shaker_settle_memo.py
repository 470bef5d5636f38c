"""A refused frame's re-reads (the re-lattice's moves, the made lattices at about the refused pitch) mostly settle
back near the refused lattice and end "not kept". After the refit a settling lattice only moves by whole rows and
columns, so once no such window of it could be kept its read stops there (``settle_stop_not_kept``): the same
readings, fewer last looks. (A memo of where settling ends was measured first: a re-read's states and ends almost
never repeat exactly, so it was dropped.)"""

from __future__ import annotations

import dataclasses
from unittest import mock

import numpy as np
import pytest

import vision.shaker as shaker
from vision.shaker import DEFAULT_SETTINGS, Grid, read_shaker

from .shaker_sets import set_scene


def _read_counting(frame, settings):
    """The reading, each re-read's (valid, reason), the best_window calls made and how often a re-read stopped."""
    reads: list[tuple[bool, str | None]] = []
    read_from = shaker._ReadAgain.read_from

    def counted(*args, **kwargs):
        again = read_from(*args, **kwargs)
        reads.append((again.valid, again.reason))
        return again

    with (
        mock.patch.object(shaker._ReadAgain, "read_from", autospec=True, side_effect=counted),
        mock.patch.object(shaker, "best_window", wraps=shaker.best_window) as windows,
        mock.patch.object(shaker._KeptMove, "never", autospec=True, side_effect=shaker._KeptMove.never) as never,
    ):
        reading = read_shaker(frame, settings=settings)
    stops = sum(1 for call in never.call_args_list if shaker._KeptMove.never(*call.args))
    return reading, reads, windows.call_count, stops


_FRAMES = {41001: 45}  # (the seed's first 45 frames made once for both cases)


@pytest.mark.parametrize(("seed", "index"), [(41001, 22), (41001, 44)])
def test_a_reread_that_cannot_be_kept_stops_with_the_same_reading(seed: int, index: int) -> None:
    # refused either way ("8 cubes in the grid"; "a cube is out of line"), with 4 and 5 re-reads that cannot be kept
    frame, truth = set_scene(seed, index, _FRAMES)
    off = dataclasses.replace(DEFAULT_SETTINGS, settle_stop_not_kept=False)
    before, reads_before, windows_before, stops_before = _read_counting(frame, off)
    after, reads_after, windows_after, stops_after = _read_counting(frame, DEFAULT_SETTINGS)
    assert (after.valid, after.reason, after.pattern) == (before.valid, before.reason, before.pattern)
    assert after.valid == truth["valid"]
    if truth["valid"]:
        assert [list(row) for row in after.pattern] == truth["pattern"]
    # every re-read ends as before (those stopped: "not kept", as their last checks made them)
    assert reads_after == reads_before
    assert stops_before == 0 and stops_after >= 1
    assert windows_after < windows_before  # (the stopped re-reads' last windows are not looked at)


def _grid(origin, step: float = 10.0) -> Grid:
    return Grid(
        origin=np.array(origin, dtype=np.float64),
        col_step=np.array([step, 0.0]),
        row_step=np.array([0.0, step]),
        cell_candidate=((0, 1, 2), (3, 4, 5), (6, 7, 8)),
        support=9,
        stray_near=0,
    )


def _tests(plain: set[tuple[int, int]]) -> list[dict]:
    return [
        {"row": r, "col": c, "cube": True, "outline": (r, c) in plain, "d_table": 50.0}
        for r in range(3)
        for c in range(3)
    ]


def test_never_kept_asks_every_window_a_settling_lattice_can_reach() -> None:
    refused = _grid([100.0, 100.0])
    settings = DEFAULT_SETTINGS
    near = _grid([100.0 + 0.5 * settings.relattice_min_shift * 10.0, 100.0])  # under relattice_min_shift off
    # a plainly seen cube on each of the refused lattice's four sides: any move by a row or column leaves one
    sides = _KeptMoveOf(refused, {(0, 1), (2, 1), (1, 0), (1, 2)})
    assert sides.never(near)
    assert not sides(near)
    # with no plainly seen cube on the bottom row, the window a row up (onto the line above) could be kept
    three = _KeptMoveOf(refused, {(0, 1), (1, 0), (1, 2)})
    assert not three.never(near)
    assert three(shaker.window_shifted(near, list(range(25)), (-1, 0)))
    # a lattice itself far enough off could be kept as it stands
    far = _grid([100.0 + 0.4 * 10.0, 100.0])  # (0.4 pitch: past relattice_min_shift, no cube left behind)
    assert sides(far)
    assert not sides.never(far)


def _KeptMoveOf(refused: Grid, plain: set[tuple[int, int]]) -> shaker._KeptMove:
    return shaker._KeptMove(refused, _tests(plain), DEFAULT_SETTINGS)
