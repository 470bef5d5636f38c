"""Faint cubes (vision.shaker_checks.faint_cubes): a cube of about the table's colour that the cell test refused.

A black cube on a dark table shows no colour of its own, but it shows the edges every cube of the frame shows (its
top face's outline against its sides, its bevel, its cast shadow's edge, the gaps): when its cell's edge map in
the lattice's frame matches the eight verified cubes' and its colour is a palette colour, the pattern is read
(with the rule off it was refused, "8 cubes in the grid"). An empty cell of a table near a palette colour (a light
table near white) is asked the same and stays refused: its edges are not a cube's.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision.shaker import DEFAULT_SETTINGS, Grid, read_shaker
from vision.shaker_checks import faint_cubes, faint_cubes_kept, lattice_edge_maps

from .shaker_sets import set_scene

_OFF = replace(DEFAULT_SETTINGS, faint_cubes=False)
_NOT_KEPT = replace(DEFAULT_SETTINGS, faint_cubes_kept=False)
# the rule with no edge-map guard at all: any cell of a palette colour and about the table's is a cube
_LOOSE = replace(DEFAULT_SETTINGS, faint_min_similarity=-1.0, faint_median_similarity=-1.0)


_FRAMES = {9191: 48, 8383: 101, 2929: 231}  # (the frames made per seed: its sets' frames up to the last one used)


def _scene(seed: int, index: int) -> tuple[np.ndarray, dict]:
    return set_scene(seed, index, _FRAMES)


def _refused_cell(reading) -> dict:
    cells = [t for t in reading.debug["cell_tests"] if not t["cube"]]
    assert len(cells) == 1
    return cells[0]


@pytest.mark.parametrize(
    ("seed", "index", "table", "colour"), [(9191, 47, "plain_dark", "black"), (9191, 39, "plain_light", "white")]
)
def test_a_faint_cube_of_the_tables_colour_is_read(seed, index, table, colour):
    """s9191 0047, a black cube on a dark table, and 0039, a white one on a light table: the cell test refused
    their cells (d_table 1.4 and 2.9, no outline); their edges match the eight cubes' (lowest 0.68 and 0.57,
    median 0.74 and 0.67) and their colours are the palette's (d_palette 2.3 and 5.5)."""
    frame_bgr, truth = _scene(seed, index)
    assert truth["valid"] and truth["scene"]["table"] == table
    without = read_shaker(frame_bgr, settings=_OFF)
    assert not without.valid and without.reason == "8 cubes in the grid"
    cell = _refused_cell(without)
    assert cell["d_table"] < DEFAULT_SETTINGS.faint_max_d_table  # its top face is about the table's colour
    reading = read_shaker(frame_bgr)
    assert reading.valid and reading.pattern == truth["pattern"]
    assert reading.pattern[cell["row"]][cell["col"]] == colour
    faint = [t for t in reading.debug["cell_tests"] if t.get("faint")]
    assert [(t["row"], t["col"]) for t in faint] == [(cell["row"], cell["col"])]


@pytest.mark.parametrize(("seed", "index"), [(8383, 100), (2929, 206)])
def test_an_empty_cell_of_a_palette_colour_stays_refused(seed, index):
    """The guard. s8383 0100 and s2929 0206, incomplete patterns: the empty cell passes the colour tests the rule
    asks (about the table's colour, near a palette colour: d_palette 4.3 and 5.1), so without the edge maps it is
    read as a cube (the incomplete pattern accepted); its edges are not the cubes' (median 0.31 and 0.48)."""
    frame_bgr, truth = _scene(seed, index)
    assert not truth["valid"]
    without = read_shaker(frame_bgr, settings=_OFF)
    assert without.reason == "8 cubes in the grid"
    cell = _refused_cell(without)
    assert cell["d_table"] < DEFAULT_SETTINGS.faint_max_d_table
    assert cell["d_palette"] <= DEFAULT_SETTINGS.faint_max_d_palette
    assert read_shaker(frame_bgr, settings=_LOOSE).valid  # what the rule would do without its guard
    reading = read_shaker(frame_bgr)
    assert not reading.valid and reading.reason == "8 cubes in the grid"
    asked = [t for t in reading.debug["cell_tests"] if "faint_similarity" in t]
    assert [(t["row"], t["col"]) for t in asked] == [(cell["row"], cell["col"])]  # (asked, and refused)


def _grid(pitch: float = 40.0, angle_deg: float = 10.0) -> Grid:
    a = np.radians(angle_deg)
    u = pitch * np.array([np.cos(a), np.sin(a)])
    v = pitch * np.array([-np.sin(a), np.cos(a)])
    return Grid(np.array([110.0, 90.0]), u, v, ((0, 1, 2), (3, 4, 5), (6, 7, 8)), 9, 0)


def _square(grid: Grid, r: int, c: int, h: float) -> np.ndarray:
    """The corners of a square on cell (r, c), ``h`` pitches each way, at the lattice's angle (1/16 px, shift 4)."""
    centre = grid.centre(r, c)
    corners = [
        centre + sx * h * grid.col_step + sy * h * grid.row_step for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))
    ]
    return np.round(np.array(corners) * 16).astype(np.int32)


def _squares(grid: Grid) -> np.ndarray:
    """Nine light squares drawn on the lattice's cells, at its angle, the middle one faint (about the table's gray)."""
    img = np.full((300, 300, 3), 60, np.uint8)
    for r in range(3):
        for c in range(3):
            colour = (200, 200, 200) if (r, c) != (1, 1) else (75, 75, 75)
            cv2.fillConvexPoly(img, _square(grid, r, c, 0.33), colour, cv2.LINE_AA, 4)
    return img


def _cells(refused: int) -> list[dict]:
    return [{"row": i // 3, "col": i % 3, "cube": i != refused, "d_table": 2.0, "d_palette": 2.0} for i in range(9)]


def test_the_edge_maps_are_the_lattices_own():
    """Nine drawn squares at the lattice's angle: each cell's map is alike (near 1), a blank cell's is not; the
    rule takes a cell that shows the squares' edges and leaves a blank one, and is off with its flag."""
    grid = _grid()
    img = _squares(grid)
    maps = lattice_edge_maps(img, grid, DEFAULT_SETTINGS)
    sims = maps @ maps.T
    assert sims[0, 1:].min() > 0.9  # (the squares' edges at the same places in every cell)
    assert faint_cubes(img, grid, _cells(4), DEFAULT_SETTINGS) == [4]
    assert faint_cubes(img, grid, _cells(4), _OFF) == []
    blank = img.copy()
    cv2.fillConvexPoly(blank, _square(grid, 1, 1, 0.4), (60, 60, 60), cv2.LINE_AA, 4)
    assert faint_cubes(blank, grid, _cells(4), DEFAULT_SETTINGS) == []


def test_a_faint_cube_a_last_look_takes_for_the_table_is_kept():
    """s2929 0230, a complete pattern on gingham: the cell test passed the cube at row 1, column 3, but table_cells
    then took it for the table (d_table 1.0: the table in some shade explains its colour) and the pattern was
    refused. It is the only such cell, its colour is the palette's (d_palette 1.7) and its edges match the eight
    cubes' (lowest 0.88, median 0.89): kept (faint_cubes_kept), the pattern is read."""
    frame_bgr, truth = _scene(2929, 230)
    assert truth["valid"]
    without = read_shaker(frame_bgr, settings=_NOT_KEPT)
    assert not without.valid and without.reason == "8 cubes in the grid"
    reading = read_shaker(frame_bgr)
    assert reading.valid and reading.pattern == truth["pattern"]
    kept = [t for t in reading.debug["cell_tests"] if t.get("faint")]
    assert [(t["row"], t["col"]) for t in kept] == [(0, 2)]


def test_one_faint_cube_a_pattern_is_kept():
    """faint_cubes_kept keeps one cell at most: not of two cells a look takes for the table, and not when another
    cell of the pattern is already faint (a gingham's lattice a column off kept a white check so, s9494 0151)."""
    grid = _grid()
    img = _squares(grid)
    tests = _cells(-1)  # (every cell passed the cell test)
    assert faint_cubes_kept(img, grid, tests, [(1, 1)], DEFAULT_SETTINGS) == []
    assert tests[4]["faint"]
    assert faint_cubes_kept(img, grid, tests, [(1, 1)], _NOT_KEPT) == [(1, 1)]
    assert faint_cubes_kept(img, grid, _cells(-1), [(1, 1), (0, 0)], DEFAULT_SETTINGS) == [(1, 1), (0, 0)]
    tests = _cells(-1)
    tests[0]["faint"] = True
    assert faint_cubes_kept(img, grid, tests, [(1, 1)], DEFAULT_SETTINGS) == [(1, 1)]
