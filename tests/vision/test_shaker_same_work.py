"""The reader's per-frame memo (``_FrameWork.memo``): a frame's reads (the first, the re-lattice's re-reads) verify a
lattice's cells and find a cube's top face once, not once per asking, and read the same as without the memo.

The frame: tuning set t41007's frame 8 (seed 41007), a complete pattern refused for "8 cubes in the grid" whose
re-lattice reads three moves again: its re-reads land on lattices and faces the first read looked at already.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any
from unittest import mock

import numpy as np
import pytest

import vision.shaker as shaker
from tests.vision.shaker_sets import set_scene

SEED, INDEX = 41007, 8
_VERIFIED = shaker._verified  # (the function itself: the no-memo reading patches the module's name)
# (one working copy's reads: the close-up read of a refused frame works on a copy of its own, with a memo of its own,
# and the read without highlights on a frame of its own, the refused one grey-opened)
_ONE_COPY = replace(shaker.DEFAULT_SETTINGS, close_up_long_side=0, glare_retry=False)


@pytest.fixture(scope="module")
def frame() -> np.ndarray:
    return set_scene(SEED, INDEX)[0]


def _no_memo_verified(work: Any, frame_bgr: np.ndarray, grid: Any, cands: Any, palette: Any, settings: Any, **kw: Any):
    """:func:`vision.shaker._verified` without its memo: verify_cells asked every time (an empty memo each call)."""
    return _VERIFIED(work._replace(memo={}), frame_bgr, grid, cands, palette, settings, **kw)


def _no_memo_face(work: Any, cell_xy: np.ndarray, cube_xy: np.ndarray, pitch: float, settings: Any):
    return shaker.top_face(work.lab, cell_xy, cube_xy, pitch, work.scale, settings)


def _no_memo_region(work: Any, cell_xy: np.ndarray, cube_xy: np.ndarray, pitch: float, settings: Any):
    return shaker._face_region(work.lab, cell_xy, cube_xy, pitch, work.scale, settings)


def _no_memo_tops(work: Any, frame_bgr: np.ndarray, points: np.ndarray, rad: float) -> np.ndarray:
    return shaker.sample_top_faces(frame_bgr, points, rad)


def _verify_key(call: Any) -> tuple:
    frame_bgr, grid, cands = call.args[:3]
    return (
        grid.origin.tobytes(),
        grid.col_step.tobytes(),
        grid.row_step.tobytes(),
        grid.cell_candidate,
        np.asarray(cands.xy).tobytes(),
        np.asarray(cands.radius).tobytes(),
        call.kwargs.get("stand_out", False),
        call.kwargs.get("faces", False),
    )


def _face_key(call: Any) -> tuple:
    _, cell_xy, cube_xy, pitch = call.args[:4]
    return (*np.asarray(cell_xy, float).tolist(), *np.asarray(cube_xy, float).tolist(), float(pitch))


def _read(frame: np.ndarray, memo: bool, settings: Any = _ONE_COPY) -> tuple[Any, dict[str, Any]]:
    """The reading, and the calls made (their mocks): verify_cells, _face_region (a top face's), lattice_hypotheses,
    _read's (the first read's and its re-reads')."""
    patches = {
        "verify_cells": mock.patch.object(shaker, "verify_cells", wraps=shaker.verify_cells),
        "_face_region": mock.patch.object(shaker, "_face_region", wraps=shaker._face_region),
        "lattice_hypotheses": mock.patch.object(shaker, "lattice_hypotheses", wraps=shaker.lattice_hypotheses),
        "_read": mock.patch.object(shaker, "_read", wraps=shaker._read),
        "sample_top_faces": mock.patch.object(shaker, "sample_top_faces", wraps=shaker.sample_top_faces),
        "made_lattices": mock.patch.object(shaker, "made_lattices", wraps=shaker.made_lattices),
    }
    if not memo:
        patches["_verified"] = mock.patch.object(shaker, "_verified", side_effect=_no_memo_verified)
        patches["_top_face_once"] = mock.patch.object(shaker, "_top_face_once", side_effect=_no_memo_face)
        patches["_face_region_once"] = mock.patch.object(shaker, "_face_region_once", side_effect=_no_memo_region)
        patches["_tops_once"] = mock.patch.object(shaker, "_tops_once", side_effect=_no_memo_tops)
    mocks = {name: p.start() for name, p in patches.items()}
    try:
        reading = shaker.read_shaker(frame, settings=settings)
    finally:
        for p in patches.values():
            p.stop()
    return reading, mocks


def _summary(reading: Any) -> tuple:
    tests = [{k: v for k, v in t.items() if k != "xy"} for t in reading.debug["cell_tests"]]
    return (
        reading.valid,
        reading.reason,
        reading.pattern,
        reading.confidence,
        reading.grid_corners,
        reading.cubes,
        tests,
    )


def test_the_frame_is_read_again_on_other_lattices(frame: np.ndarray) -> None:
    reading, mocks = _read(frame, memo=True)
    assert not reading.valid and reading.reason == "8 cubes in the grid"
    assert mocks["_read"].call_count >= 3  # (the first read and the re-lattice's re-reads)


def test_same_reading_with_and_without_the_memo(frame: np.ndarray) -> None:
    with_memo, _ = _read(frame, memo=True)
    without, _ = _read(frame, memo=False)
    assert _summary(with_memo) == _summary(without)


def test_each_lattice_verified_once(frame: np.ndarray) -> None:
    _, memo = _read(frame, memo=True)
    _, plain = _read(frame, memo=False)
    keys = [_verify_key(c) for c in memo["verify_cells"].call_args_list]
    assert len(keys) == len(set(keys))  # no lattice's cells verified twice...
    plain_keys = [_verify_key(c) for c in plain["verify_cells"].call_args_list]
    assert len(plain_keys) > len(set(plain_keys))  # ...where the reads without the memo verify some again
    assert set(keys) == set(plain_keys)  # (the same lattices looked at)


def test_each_top_face_found_once(frame: np.ndarray) -> None:
    _, memo = _read(frame, memo=True)
    _, plain = _read(frame, memo=False)
    # (the offsets', the refit's and the stretched-lattice check's faces: each region found once)
    keys = [_face_key(c) for c in memo["_face_region"].call_args_list]
    assert len(keys) == len(set(keys))
    plain_keys = [_face_key(c) for c in plain["_face_region"].call_args_list]
    assert len(plain_keys) > len(set(plain_keys))
    assert set(keys) == set(plain_keys)


def test_each_face_sample_taken_once(frame: np.ndarray) -> None:
    # (the last check's and sample_cubes' samples of the nine cubes at one radius: the usual case; the square-steps
    # read of the refused frame, off here, takes a doubted cube's samples again: they are not kept)
    def key(call: Any) -> tuple:
        return (np.asarray(call.args[1], float).tobytes(), float(call.args[2]))

    first_only = replace(_ONE_COPY, square_retry=False)
    _, memo = _read(frame, memo=True, settings=first_only)
    _, plain = _read(frame, memo=False, settings=first_only)
    keys = [key(c) for c in memo["sample_top_faces"].call_args_list]
    plain_keys = [key(c) for c in plain["sample_top_faces"].call_args_list]
    assert len(keys) == len(set(keys))
    assert len(plain_keys) > len(set(plain_keys))
    assert set(keys) == set(plain_keys)


def test_lattice_hypotheses_made_once_per_frame(frame: np.ndarray) -> None:
    # (the re-lattice's reads leave every size out: no lattice search, no hypotheses; the made lattice, asked once
    # when the frame is still refused, makes hypotheses of its own for the sizes' pooled candidates; the square-steps
    # read of a frame still refused makes its own, square steps among them, and its made lattice too)
    reading, mocks = _read(frame, memo=True)
    assert mocks["_read"].call_count > 1 and not reading.valid
    squared = [c for c in mocks["lattice_hypotheses"].call_args_list if c.args[1].square_steps]
    assert len(squared) >= 1 and mocks["made_lattices"].call_count == 2
    assert mocks["lattice_hypotheses"].call_count == 2 + mocks["made_lattices"].call_count


def test_memo_copies_the_cell_tests(frame: np.ndarray) -> None:
    """A memo hit gives cell tests of its own (the checks mark them) and a grid of its own (the reader tells settled
    lattices apart by identity), with the same numbers."""
    work = shaker._FrameWork(*_work_of(frame), {})
    cands = max(work.all_cands, key=lambda c: len(c.xy))
    grid = next(shaker.lattices(cands))
    palette = shaker.default_palette()
    a = shaker._verified(work, frame, grid, cands, palette, shaker.DEFAULT_SETTINGS)
    a[2][0]["cube"] = "marked"
    b = shaker._verified(work, frame, grid, cands, palette, shaker.DEFAULT_SETTINGS)
    assert b[2][0]["cube"] != "marked"
    assert b[0] is not a[0] and _same_grid(a[0], b[0])
    assert b[1] is a[1]


def _same_grid(a: Any, b: Any) -> bool:
    return (
        a.cell_candidate == b.cell_candidate
        and np.array_equal(a.origin, b.origin)
        and np.array_equal(a.col_step, b.col_step)
        and np.array_equal(a.row_step, b.row_step)
    )


def _work_of(frame: np.ndarray) -> tuple:
    import cv2

    settings = shaker.DEFAULT_SETTINGS
    d, scale, lab, table_lab8 = shaker.table_difference(frame, settings)
    g = shaker.edge_strength(lab, settings)
    cands = shaker.find_cubes(frame, settings, work=(d, scale, lab), edges=g)
    return scale, lab, table_lab8, cv2.integral(g), cv2.integral(lab, sdepth=cv2.CV_32S), cands
