"""Refusal recall of the shaker reader: incomplete patterns that slipped past the other checks are refused."""

from __future__ import annotations

import math
import random
from dataclasses import replace

import numpy as np
import pytest

from vision.shaker import DEFAULT_SETTINGS, Grid, read_shaker
from vision.shaker_checks import open_table_cells, shadow_fit_cells, toned_open_cells
from vision.shaker_scene import render_scene_set

from .shaker_sets import set_scene


@pytest.fixture(scope="module")
def white_check_in_an_empty_cell() -> tuple[np.ndarray, dict]:
    """Fresh set s8104's frame 84 (85 renders, some seconds): one cell empty on a gingham cloth; its white check
    shows through with no outline (ring < 0) and is read as a white cube, eight cubes around it."""
    return render_scene_set(random.Random(8104), 85)[84]


def test_one_cloth_check_with_no_outline_is_an_empty_cell(white_check_in_an_empty_cell):
    frame_bgr, truth = white_check_in_an_empty_cell
    assert not truth["valid"] and truth["scene"]["table"] == "gingham"
    assert sum(c is None for row in truth["cells"] for c in row) == 1
    without = read_shaker(
        frame_bgr, settings=replace(DEFAULT_SETTINGS, toned_share=2.0, faceless_share=2.0, repeat_cells=False)
    )
    assert without.valid  # the check is what refuses it
    reading = read_shaker(frame_bgr)
    assert not reading.valid and reading.reason == "8 cubes in the grid"
    empty = [(t["row"], t["col"]) for t in reading.debug["cell_tests"] if not t["cube"]]
    assert len(empty) == 1 and truth["cells"][empty[0][0]][empty[0][1]] is None
    (cell,) = [t for t in reading.debug["cell_tests"] if not t["cube"]]
    assert cell["ring"] < DEFAULT_SETTINGS.toned_ring and cell["tone"] >= DEFAULT_SETTINGS.toned_share


def _striped_table(grid: Grid) -> np.ndarray:
    """8-bit Lab (the working copy's) of a table in two tones, light and dark stripes a pitch wide, cubes of
    other colours on the grid's cells; the cell (1, 1) shows the light stripe's colour."""
    lab8 = np.zeros((240, 240, 3), dtype=np.uint8)
    light, dark, cube = (220, 128, 134), (60, 120, 110), (120, 190, 170)
    lab8[:] = dark
    for x0 in range(0, 240, 60):
        lab8[:, x0 : x0 + 30] = light
    for r in range(3):
        for c in range(3):
            x, y = (int(v) for v in grid.centre(r, c))
            lab8[y - 10 : y + 11, x - 10 : x + 11] = light if (r, c) == (1, 1) else cube
    return lab8


def test_a_cell_in_the_tables_tone_with_no_outline_is_named_and_only_that_one():
    grid = Grid(np.array([90.0, 90.0]), np.array([30.0, 0.0]), np.array([0.0, 30.0]), ((0, 0, 0),) * 3, 9, 0)
    lab8 = _striped_table(grid)

    def tests(ring_11: float) -> list[dict]:
        return [
            {"row": r, "col": c, "cube": True, "ring": ring_11 if (r, c) == (1, 1) else -0.5}
            for r in range(3)
            for c in range(3)
        ]

    no_outline, outlined = DEFAULT_SETTINGS.toned_ring - 0.1, DEFAULT_SETTINGS.toned_ring + 0.1
    assert toned_open_cells(tests(no_outline), grid, lab8, 1.0, DEFAULT_SETTINGS) == [(1, 1)]
    # its outline found (ring above toned_ring): a white cube on the cloth, not the cloth
    assert toned_open_cells(tests(outlined), grid, lab8, 1.0, DEFAULT_SETTINGS) == []
    # a share of the table's tones below toned_share: not the table's
    assert toned_open_cells(tests(no_outline), grid, lab8, 1.0, replace(DEFAULT_SETTINGS, toned_share=0.9)) == []


def test_a_cube_knocked_out_beside_a_cloth_check_is_out_of_line():
    """Fresh set s8104's frame 260 (261 renders, some seconds; s8101's 401 is alike): a cube knocked out of its
    cell on a gingham cloth, where a white check shows through with a weak outline of its own edges (ring 0.2:
    above knocked_weak_ring), read as a white cube; the knocked cube lies just beyond."""
    frame_bgr, truth = render_scene_set(random.Random(8104), 261)[260]
    assert truth["scene"]["table"] == "gingham" and "knocked_out" in truth
    # (knocked_beside_table_cells' light cells refuse it too)
    no_light = float("inf")
    off = replace(
        DEFAULT_SETTINGS,
        knocked_toned_ring=DEFAULT_SETTINGS.knocked_weak_ring,
        knocked_light_shade=no_light,
        faceless_share=2.0,
    )
    assert read_shaker(frame_bgr, settings=off).valid  # without the check
    reading = read_shaker(frame_bgr)
    assert not reading.valid and reading.reason == "a cube is out of line (beside a cell of the table's own colour)"


def test_a_row_of_cast_shadows_fitted_by_the_continuous_shade_is_no_pattern():
    """Fresh set s8102's frame 97 (98 renders): a cube knocked out of the top row on a dark cloth; the lattice
    slides a row down onto the cubes' cast shadows, three black "cubes" the cell test's shadow levels fit at
    0.8-1.2 dE (on_shadows: not below 1.2), the continuous fit at 0.5-0.7."""
    frame_bgr, truth = render_scene_set(random.Random(8102), 98)[97]
    assert not truth["valid"]
    # (one cell: open_table; shadow_lines refuses it too, the three in the grid's top row)
    without = replace(DEFAULT_SETTINGS, shadow_fit_delta_e=-1.0, open_table_delta_e=-1.0, shadow_line_delta_e=0.0)
    # (the stretched-lattice check off in both: that lattice, 0.24 off its cubes' faces, is refused by it first)
    unstretched = replace(DEFAULT_SETTINGS, face_spread_mismatch=math.inf)
    assert read_shaker(frame_bgr, settings=replace(without, face_spread_mismatch=math.inf)).valid  # without it
    reading = read_shaker(frame_bgr, settings=unstretched)
    assert not reading.valid and "cubes' shadows" in reading.reason
    fitted = [t for t in reading.debug["cell_tests"] if t.get("d_shadow", 99.0) < DEFAULT_SETTINGS.shadow_fit_delta_e]
    assert len(fitted) >= DEFAULT_SETTINGS.shadow_fit_cells
    assert not read_shaker(frame_bgr).valid


def _top_line_at(d_shadow: float) -> list[dict]:
    """Nine cube cells' tests, the top line's three at ``d_shadow`` from the table in some shade, the rest far."""
    return [{"row": i // 3, "col": i % 3, "cube": True, "d_shadow": d_shadow if i < 3 else 30.0} for i in range(9)]


def test_four_cells_the_shadow_fit_explains_loosely_are_shadows_three_are_not():
    """shadow_fit_cells' second tier: four cube cells within shadow_fit_wide_delta_e of the table in some shade are
    cast shadows; three within it (and not within shadow_fit_delta_e) are not; three within the tight tier are."""
    s = DEFAULT_SETTINGS
    loose = (s.shadow_fit_delta_e + s.shadow_fit_wide_delta_e) / 2
    cells = _top_line_at(loose)
    assert shadow_fit_cells(cells, s) == []
    cells[4]["d_shadow"] = loose
    assert shadow_fit_cells(cells, s) == [(0, 0), (0, 1), (0, 2), (1, 1)]
    cells[4]["cube"] = False  # (only cells read as cubes count)
    assert shadow_fit_cells(cells, s) == []
    for i in range(3):
        cells[i]["d_shadow"] = s.shadow_fit_delta_e / 2
    assert shadow_fit_cells(cells, s) == [(0, 0), (0, 1), (0, 2)]
    assert shadow_fit_cells(cells, replace(s, shadow_fit_delta_e=-1.0)) == []


def test_a_lattice_stretched_onto_long_shadows_is_refused_and_the_cubes_read():
    """Generated set 33301, frame 0156 (``shakecity make-shaker-set D --seed 33301``): a plain light table under a low
    lamp, the cubes' shadows long. The reader before took a lattice stretched along the rows onto them (0.21 against
    the faces: under face_spread_mismatch), four cells at 0.85-1.37 of the table in shade, and read three shadows as
    gray cubes where red ones lie. Refused there, the frame is read on its cubes. The stretched tier (three cells
    within shadow_fit_stretched_delta_e on a lattice stretched shadow_fit_stretch or more) refuses it alone too, and
    so does cube_between_cells."""
    frame_bgr, truth = set_scene(33301, 156)
    assert truth["valid"] and truth["scene"]["table"] == "plain_light"
    off = replace(DEFAULT_SETTINGS, shadow_fit_wide_cells=10, shadow_fit_stretch=math.inf)
    before = read_shaker(frame_bgr, settings=replace(off, between_contrast=math.inf))
    assert before.valid and before.pattern != truth["cells"]
    # (the red cubes beside the shadows read gray lie between the cells too: with only the two tiers off,
    # cube_between_cells refuses the lattice and a lattice made at the cubes' pitch reads the pattern)
    between = read_shaker(frame_bgr, settings=off)
    assert between.valid and between.pattern == truth["cells"]
    assert between.debug["made_lattice"]["refused"] == "a cube is out of line (between the grid's cells)"
    wide = DEFAULT_SETTINGS.shadow_fit_wide_delta_e
    fitted = [t for t in before.debug["cell_tests"] if t["cube"] and t["d_shadow"] < wide]
    assert len(fitted) >= DEFAULT_SETTINGS.shadow_fit_wide_cells
    assert abs(before.debug["face_mismatch"]) >= DEFAULT_SETTINGS.shadow_fit_stretch
    for tiers in ({"shadow_fit_wide_cells": 10}, {"shadow_fit_stretch": math.inf}, {}):
        reading = read_shaker(frame_bgr, settings=replace(DEFAULT_SETTINGS, **tiers))
        assert reading.valid and reading.pattern == truth["cells"]


def test_three_cells_the_shadow_fit_explains_on_a_stretched_lattice_are_shadows():
    """shadow_fit_cells' third tier: three cube cells within shadow_fit_stretched_delta_e (and not within the tight
    tier) are cast shadows only on a lattice stretched shadow_fit_stretch or more against its cubes' faces, either
    way; not on one that fits them, nor when the stretch was not measured."""
    s = DEFAULT_SETTINGS
    cells = _top_line_at((s.shadow_fit_delta_e + s.shadow_fit_stretched_delta_e) / 2)
    assert shadow_fit_cells(cells, s) == []
    assert shadow_fit_cells(cells, s, None) == []
    assert shadow_fit_cells(cells, s, s.shadow_fit_stretch / 2) == []
    assert shadow_fit_cells(cells, s, s.shadow_fit_stretch) == [(0, 0), (0, 1), (0, 2)]
    assert shadow_fit_cells(cells, s, -s.shadow_fit_stretch) == [(0, 0), (0, 1), (0, 2)]
    cells[2]["d_shadow"] = s.shadow_fit_stretched_delta_e + 0.1
    assert shadow_fit_cells(cells, s, s.shadow_fit_stretch) == []
    assert shadow_fit_cells(cells, replace(s, shadow_fit_stretch=math.inf), 1.0) == []


def test_a_lattice_squashed_onto_the_shadows_between_two_lines_is_refused_and_the_cubes_read():
    """Generated set 49006, frame 0296 (``shakecity make-shaker-set D --seed 49006``): a plain light table, the
    camera 3.5 degrees off overhead. The reader before took a lattice squashed across the rows (its rows' step 0.79
    of its columns'; 0.22 against the cubes' faces, under face_spread_mismatch) whose top line fell on the shadows
    the real top line casts on the table between it and the next: three cells at 1.0-1.3 of the table in shade
    (one of them past shadow_fit_delta_e), read as gray cubes where red, green and gray ones lie. Refused there, the
    frame is read on its cubes."""
    frame_bgr, truth = set_scene(49006, 296)
    assert truth["valid"] and truth["scene"]["table"] == "plain_light"
    before = read_shaker(frame_bgr, settings=replace(DEFAULT_SETTINGS, shadow_fit_stretch=math.inf))
    assert before.valid and before.pattern != truth["cells"]
    assert abs(before.debug["face_mismatch"]) >= DEFAULT_SETTINGS.shadow_fit_stretch
    fitted = [
        t for t in before.debug["cell_tests"] if t["cube"] and t["d_shadow"] < DEFAULT_SETTINGS.shadow_fit_delta_e
    ]
    assert len(fitted) < DEFAULT_SETTINGS.shadow_fit_cells  # (the tight tier missed it)
    loose = DEFAULT_SETTINGS.shadow_fit_stretched_delta_e
    assert len([t for t in before.debug["cell_tests"] if t["cube"] and t["d_shadow"] < loose]) >= 3
    reading = read_shaker(frame_bgr)
    assert reading.valid and reading.pattern == truth["cells"]


def test_a_refused_frame_is_read_again_with_square_steps_and_only_a_valid_reading_replaces_it():
    """Generated set 41015 (``shakecity make-shaker-set D --seed 41015``). Frame 0029, a plain dark table: no cube
    found at right angles to a pair (black ones beside them unfound), the lattice was fitted off the cubes and the
    frame refused; read again with the first step turned a right angle (``square_steps``) it reads right, and says
    so in its debug. Frame 0015, an incomplete pattern: the second read refuses it too (for another reason), and
    the first reading's reason is kept."""
    once = replace(DEFAULT_SETTINGS, square_retry=False)
    frames = {41015: 30}
    frame_bgr, truth = set_scene(41015, 29, frames)
    assert truth["valid"] and truth["scene"]["table"] == "plain_dark"
    before = read_shaker(frame_bgr, settings=once)
    assert not before.valid
    reading = read_shaker(frame_bgr)
    assert reading.valid and reading.pattern == truth["cells"]
    assert reading.debug["square_steps"] == {"first": before.reason}

    frame_bgr, truth = set_scene(41015, 15, frames)
    assert not truth["valid"]
    before = read_shaker(frame_bgr, settings=once)
    squared = read_shaker(frame_bgr, settings=replace(once, square_steps=True))
    assert not before.valid and not squared.valid and squared.reason != before.reason
    reading = read_shaker(frame_bgr)
    assert not reading.valid and reading.reason == before.reason and "square_steps" not in reading.debug


def test_a_cell_with_no_outline_that_the_table_explains_is_the_table():
    """open_table_cells names a cube cell only when both its outline is next to none and the table under it, in
    some shade, explains its colour."""
    s = DEFAULT_SETTINGS
    cells = [
        {"row": 0, "col": 0, "cube": True, "ring": s.open_table_ring - 0.1, "d_shadow": s.open_table_delta_e - 0.3},
        {"row": 0, "col": 1, "cube": True, "ring": s.open_table_ring + 0.1, "d_shadow": s.open_table_delta_e - 0.3},
        {"row": 0, "col": 2, "cube": True, "ring": s.open_table_ring - 0.1, "d_shadow": s.open_table_delta_e + 0.3},
        {"row": 1, "col": 0, "cube": False, "ring": -1.0, "d_shadow": 0.0},
    ]
    assert open_table_cells(cells, s) == [(0, 0)]


def test_an_empty_cell_of_a_light_table_with_no_outline_is_not_a_gray_cube():
    """Fresh set s8103's frame 141 (142 renders): a cell left empty on a light table, read as a gray cube: the
    table in some shade explains it (d_shadow 0.84) and it has no outline (ring -0.06), but no lit gap beside it
    is like it (table_cells)."""
    frame_bgr, truth = render_scene_set(random.Random(8103), 142)[141]
    assert not truth["valid"] and truth["scene"]["table"] == "plain_light"
    assert read_shaker(frame_bgr, settings=replace(DEFAULT_SETTINGS, open_table_delta_e=-1.0)).valid  # without it
    reading = read_shaker(frame_bgr)
    assert not reading.valid and reading.reason == "8 cubes in the grid"
    empty = [(t["row"], t["col"]) for t in reading.debug["cell_tests"] if not t["cube"]]
    assert len(empty) == 1 and truth["cells"][empty[0][0]][empty[0][1]] is None
