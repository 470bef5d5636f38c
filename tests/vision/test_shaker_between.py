"""A cube pushed off its cell inside the grid (``between_contrast``, :func:`cube_between_cells`).

A cube pushed a third of a pitch along its column leaves its cell to its own cast shadow, which a hard lamp on a
light table paints in the gray cubes' colour: the cell reads a gray cube and the pattern is wrong. The pushed cube
is still there, inside the grid on no cell, standing out from the table in a colour none of the cells beside it
shows: "a cube is out of line", and the reader reads the frame again on another lattice."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from vision.colour import default_palette
from vision.shaker import (
    DEFAULT_SETTINGS,
    classify_cubes,
    read_shaker,
    sample_cubes,
    sample_top_face,
)
from vision.shaker_checks import GridSurroundings, cube_between_cells

from .shaker_sets import set_scene, spied

OFF = replace(DEFAULT_SETTINGS, between_contrast=float("inf"))


def test_a_pushed_cube_between_cells_is_out_of_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """s63004 0025 (plain light table, 3777 K lamp, hard shadows): the third column's cubes sit a third of a pitch
    below the lattice's cells. Without the check cell (0, 2) reads the red cube's cast shadow as gray and the
    pattern is accepted wrong; with it the red cube between the cells refuses that lattice and the re-read
    lattice reads the pattern."""
    frame_bgr, truth = set_scene(63004, 25)
    assert truth["valid"] and truth["scene"]["table"] == "plain_light"
    before = read_shaker(frame_bgr, settings=OFF)
    assert before.valid and before.pattern != truth["pattern"]
    assert before.pattern[0][2] == "gray" and truth["pattern"][0][2] == "red"
    answers = spied(monkeypatch, "cube_between_cells")
    reading = read_shaker(frame_bgr)
    assert any(a is not None for a in answers)
    assert reading.valid and reading.pattern == truth["pattern"]


def test_cube_between_cells_reads_its_three_bounds() -> None:
    """On 0025's wrong lattice the red cube is found (contrast 36, 0.42 pitches off its cell, 74 from the gray
    cells it lies between); asking more of any of the three bounds, or turning the check off, finds nothing."""
    frame_bgr, _ = set_scene(63004, 25)
    wrong = read_shaker(frame_bgr, settings=OFF)
    grid, cands = wrong.debug["grid"], wrong.debug["candidates"]
    cubes, gains = classify_cubes(sample_cubes(frame_bgr, grid, cands), default_palette())
    assert [c.colour for c in cubes] == [name for row in wrong.pattern for name in row]
    around = GridSurroundings(grid, [cands], frame_bgr, gains, default_palette().ref_lab, sample_top_face, None, 1.0)
    s = DEFAULT_SETTINGS
    point = cube_between_cells(cands, cubes, around, s)
    assert point is not None
    col, row = grid.lattice_coords(np.array(point))
    assert abs(col - 2) < 0.2 and 0.3 < row < 0.6  # (below cell (0, 2), towards (1, 2))
    assert cube_between_cells(cands, cubes, around, replace(s, between_contrast=40.0)) is None
    assert cube_between_cells(cands, cubes, around, replace(s, between_offset=0.5)) is None
    assert cube_between_cells(cands, cubes, around, replace(s, between_delta_e=80.0)) is None
    assert cube_between_cells(cands, cubes, around, OFF) is None
