"""Re-lattice (vision.shaker_lattice, read_shaker's relattice): a refused reading read again on lattices near its own.

A lattice fitted to the cubes that gave candidates can lie a line off over nine cubes a player sees plainly (cubes
of about the table's colour give none): the reading is refused. Read again from a lattice a row or column over
(or half a pitch over, or of another pitch, or through the cubes' top faces), every check after settling running
again, the pattern is read. An incomplete pattern stays refused: a lattice a line over onto a knocked-out cube and
the table's cells beside it leaves the pattern's plainly seen cubes behind, and the same lattice read twice is no
new evidence.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from vision.shaker import DEFAULT_SETTINGS, Candidates, Grid, read_shaker
from vision.shaker_lattice import divides_plain_cubes, lattice_moves, left_behind, moved_by, on_lattice

from .shaker_sets import set_scene

# (made_plain_table_cells off too: with it a made lattice reads u62029 0044 right without the re-lattice, its three
# gray cubes on a light table)
_OFF = replace(DEFAULT_SETTINGS, relattice=False, made_plain_table_cells=0)


_FRAMES = {62029: 45, 24680: 101}  # (the frames made per seed: its sets' frames up to the last one used)


def _scene(seed: int, index: int) -> tuple[np.ndarray, dict]:
    return set_scene(seed, index, _FRAMES)


def _grid(origin=(100.0, 100.0), step=40.0) -> Grid:
    return Grid(np.array(origin), np.array([step, 0.0]), np.array([0.0, step]), ((-1,) * 3,) * 3, 0, 0)


def test_a_lattice_a_line_off_is_read_again():
    """u62029 0044: gray cubes on a light table; the lattice settled a row off (a row of the table in the cubes'
    shadow read as cubes, the real row beyond it): refused without the re-lattice, read right with it, the lattice
    moved by about a row."""
    frame_bgr, truth = _scene(62029, 44)
    assert truth["valid"]
    without = read_shaker(frame_bgr, settings=_OFF)
    assert not without.valid and "a line of the table in shadow" in without.reason
    reading = read_shaker(frame_bgr)
    assert reading.valid and reading.pattern == truth["pattern"]
    assert "relattice" in reading.debug
    assert moved_by(without.debug["grid"], reading.debug["grid"]) > 0.9


def test_a_knocked_out_cube_stays_refused():
    """u24680 0041: a cube knocked out of line (the pattern incomplete). A lattice a column over reads nine 'cubes'
    (the cubes' pale sides and the table) and passes every check, but leaves two plainly seen cubes of the
    refused lattice behind (d_table 71-73, outlined): refused. Without that guard it was accepted."""
    frame_bgr, truth = _scene(24680, 41)
    assert not truth["valid"]
    assert not read_shaker(frame_bgr, settings=_OFF).valid
    reading = read_shaker(frame_bgr)
    assert not reading.valid
    loose = read_shaker(frame_bgr, settings=replace(DEFAULT_SETTINGS, relattice_kept_table=1e9))
    assert loose.valid  # (the guard, not the checks after settling, refuses it)


def test_the_same_lattice_asked_twice_is_no_reading():
    """u24680 0100: an incomplete pattern refused (a cube's colour unclear); a lattice of another pitch settles back
    onto about the refused one (cells moved under 0.3 pitch) and reads it whole: not taken (relattice_min_shift)."""
    frame_bgr, truth = _scene(24680, 100)
    assert not truth["valid"]
    assert not read_shaker(frame_bgr, settings=_OFF).valid
    assert not read_shaker(frame_bgr).valid
    assert read_shaker(frame_bgr, settings=replace(DEFAULT_SETTINGS, relattice_min_shift=0.0)).valid


def test_lattice_moves_and_guards():
    grid = _grid()
    faces = [(r, c, np.array([102.0 + 40 * c, 101.0 + 40 * r])) for r in range(3) for c in range(3)]
    moves = lattice_moves(grid, faces, (0.9,), (0.5,))
    assert len(moves) == 1 + 4 + 8 + 1
    assert np.allclose(moves[0].origin, (102.0, 101.0))  # the fit through the faces first
    assert moved_by(grid, moves[1]) == pytest.approx(1.0)  # then the window a row over
    assert moved_by(grid, moves[-1]) == pytest.approx(0.1 * np.sqrt(2))  # the pitch scaled about the centre cell
    assert np.allclose(moves[-1].centre(1, 1), grid.centre(1, 1))
    tests = [
        {"row": r, "col": c, "cube": True, "outline": True, "d_table": 50.0 if (r, c) == (0, 0) else 10.0}
        for r in range(3)
        for c in range(3)
    ]
    assert left_behind(grid, moves[4], tests, 30.0)  # a column right: the plain cube at (0, 0) left behind
    assert not left_behind(grid, moves[3], tests, 30.0)  # a column left keeps it
    assert not left_behind(grid, moves[4], tests, 60.0)  # (not so far from the table: no plain cube)


def test_a_lattice_finer_than_a_plain_cube_divides_it():
    grid = _grid()  # cells 40 px apart, (0, 0) at (100, 100)
    tests = [
        {"row": r, "col": c, "cube": True, "outline": True, "d_table": 50.0 if (r, c) == (1, 1) else 10.0}
        for r in range(3)
        for c in range(3)
    ]
    old = {(r, c): "blue" if (r, c) == (1, 1) else "red" for r in range(3) for c in range(3)}
    # half the pitch over the grid's middle: four of its cells inside the plain cube's (1, 1) (at 140, 140), the
    # top left four (120-140 px) read blue: the blue cube's parts
    half = _grid(origin=(120.0, 120.0), step=20.0)
    parts = {(r, c): "blue" if r < 2 and c < 2 else "green" for r in range(3) for c in range(3)}
    assert divides_plain_cubes(grid, half, tests, 30.0, old, parts)
    assert not divides_plain_cubes(grid, half, tests, 60.0, old, parts)  # (no plain cube: nothing to divide)
    # other colours there: other cubes (the old lattice on checks coarser than the cubes), one blue is no division
    one = {**parts, (0, 0): "red", (0, 1): "gray", (1, 0): "white"}
    assert not divides_plain_cubes(grid, half, tests, 30.0, old, one)
    assert not divides_plain_cubes(grid, _grid(origin=(104.0, 98.0)), tests, 30.0, old, old)  # the same pitch
    # half the pitch, off the plain cube: its cells on the others (not plainly seen: not asked)
    assert not divides_plain_cubes(grid, _grid(origin=(80.0, 80.0), step=20.0), tests, 30.0, old, old)


def test_on_lattice_takes_the_nearest_candidate_within_tolerance():
    grid = _grid()
    cands = Candidates(np.array([[101.0, 99.0], [150.0, 150.0], [180.0, 141.0]]), np.ones(3), np.ones(3), 1.0)
    placed = on_lattice(grid, cands, 0.28)
    assert placed.cell_candidate[0][0] == 0 and placed.cell_candidate[1][2] == 2 and placed.support == 2


@pytest.mark.parametrize(("seed", "index"), [(62029, 44), (24680, 41)])
def test_moves_leaving_a_cube_behind_are_not_screened(seed, index, monkeypatch):
    """relattice_screen_left: a move that itself leaves a plainly seen cube behind is neither screened nor read
    (u62029 0044 read right on a lattice a row over, u24680 0041 refused): the same reading, fewer cells checked."""
    import vision.shaker as shaker

    frame_bgr, _ = _scene(seed, index)
    calls = []
    real = shaker.verify_cells
    monkeypatch.setattr(shaker, "verify_cells", lambda *a, **k: calls.append(1) or real(*a, **k))
    readings = []
    for on in (True, False):
        calls.clear()
        r = read_shaker(frame_bgr, settings=replace(DEFAULT_SETTINGS, relattice_screen_left=on))
        readings.append((r.valid, r.pattern, r.reason, len(calls)))
    (valid, pattern, reason, fewer), (valid0, pattern0, reason0, every) = readings
    assert (valid, pattern, reason) == (valid0, pattern0, reason0)
    assert fewer < every
