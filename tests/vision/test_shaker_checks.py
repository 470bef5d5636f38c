"""The last checks on a settled lattice (vision.shaker_checks): cells of the table taken for cubes."""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
import pytest

from vision.shaker import DEFAULT_SETTINGS, read_shaker
from vision.shaker_checks import faceless_line, ring_points, shadow_fit
from vision.shaker_scene import random_pattern, render_scene_set, render_shake

from .shaker_old_finder import OLD_FINDER


def _one_missing(seed: int) -> tuple[np.ndarray, dict]:
    """A generated scene with one cell left empty (the search that found these seeds drew it so)."""
    rng = random.Random(seed)
    pattern = random_pattern(rng)
    pattern[rng.randrange(3)][rng.randrange(3)] = None
    return render_shake(pattern, rng)


def test_shadow_fit_finds_the_table_darkened_by_any_factor():
    table = np.array([[0.6, 0.55, 0.5], [0.2, 0.3, 0.4]])
    cells = table * np.array([[0.47], [1.0]])
    shades = np.arange(0.15, 1.15 + 1e-9, 0.02)
    d, shade = shadow_fit(cells, table, np.ones(3), shades)
    assert d[0] < 0.5 and shade[0] == pytest.approx(0.47, abs=0.011)
    assert d[1] < 0.5 and shade[1] == pytest.approx(1.0, abs=0.011)


@pytest.mark.parametrize(
    ("seed", "off", "table"),
    [
        # plain light table: the empty cell is the table in full light, like its gaps, read as a white cube
        (113, {"table_lit_delta_e": -1.0}, "plain_light"),
        # the empty cell lies in the cubes' cast shadow, lit gaps around it: only the stand-out exception
        # took it for a cube
        (99, {"table_shadow_delta_e": -1.0, "open_table_delta_e": -1.0}, "gingham"),  # (open_table_cells too)
    ],
)
def test_an_empty_cell_of_the_table_is_not_read_as_a_cube(seed, off, table):
    frame_bgr, truth = _one_missing(seed)
    assert not truth["valid"] and truth["scene"]["table"] == table
    without = read_shaker(frame_bgr, settings=replace(DEFAULT_SETTINGS, **off))
    assert without.valid  # the check is what refuses it
    reading = read_shaker(frame_bgr)
    assert not reading.valid
    assert reading.reason == "8 cubes in the grid"
    empty = [(t["row"], t["col"]) for t in reading.debug["cell_tests"] if not t["cube"]]
    assert len(empty) == 1 and truth["cells"][empty[0][0]][empty[0][1]] is None


@pytest.fixture(scope="module")
def lattice_on_gingham() -> tuple[np.ndarray, dict]:
    """Fresh set s6060's frame 124 (125 renders, a few seconds): two cells empty on a gingham cloth; the lattice
    slides a column over onto the cloth's white checks, read as four white cubes."""
    return render_scene_set(random.Random(6060), 125)[124]


def test_a_lattice_on_a_checked_cloth_is_no_pattern(lattice_on_gingham):
    frame_bgr, truth = lattice_on_gingham
    assert not truth["valid"] and truth["scene"]["table"] == "gingham"
    # (toned_open_cells: one of its cells; print_beyond_cells: the checks go on beyond the grid, refused too;
    # faceless_toned_cells: the checks' faces do not show)
    assert not read_shaker(frame_bgr).valid
    # (the frame was chosen at the old finder's threshold)
    without = replace(
        OLD_FINDER, cloth_share=2.0, toned_share=2.0, print_cells=0, faceless_share=2.0, repeat_cells=False
    )
    assert read_shaker(frame_bgr, settings=without).valid  # without the check
    reading = read_shaker(frame_bgr, settings=OLD_FINDER)
    assert not reading.valid
    assert reading.reason.startswith("no pattern: ") and "checked cloth" in reading.reason
    toned = [t for t in reading.debug["cell_tests"] if t.get("tone", 0.0) >= DEFAULT_SETTINGS.cloth_share]
    assert len(toned) >= DEFAULT_SETTINGS.cloth_cells


def test_ring_points_lie_around_the_grid_not_on_it(shaker_plain_scene):
    frame_bgr, _ = shaker_plain_scene
    grid = read_shaker(frame_bgr).debug["grid"]
    pts = ring_points(grid, 0.6, 2.0, 0.25)
    cc = (pts - grid.origin) @ np.linalg.inv(np.column_stack([grid.col_step, grid.row_step])).T
    beyond = np.maximum(np.maximum(-cc, cc - 2), 0).max(1)
    assert len(pts) > 100 and beyond.min() >= 0.6 - 1e-6 and beyond.max() <= 2.0 + 1e-6


def test_a_lattice_whose_cells_miss_the_cubes_faces_is_no_pattern():
    """Fresh set s3030's frame 4: a complete pattern on a light table whose top row's lattice slides onto the
    cubes' cast shadows above them: red and green read as two grays (a misread) without the check."""
    frame_bgr, truth = render_scene_set(random.Random(3030), 5)[4]
    assert truth["valid"]
    off = replace(DEFAULT_SETTINGS, max_median_offset=9.0)
    without = read_shaker(frame_bgr, settings=replace(off, between_contrast=float("inf")))
    assert without.valid and without.pattern != truth["pattern"]
    # (the red and green cubes beside those cells, in colours neither gray shows, lie between the cells too: with only
    # this check off, cube_between_cells refuses the lattice and the re-lattice reads the pattern)
    between = read_shaker(frame_bgr, settings=off)
    assert between.valid and between.pattern == truth["pattern"]
    assert between.debug["relattice"]["refused"] == "a cube is out of line (between the grid's cells)"
    # (made_lattice off too: a lattice made at the cubes' pitch reads it as well)
    reading = read_shaker(frame_bgr, settings=replace(DEFAULT_SETTINGS, relattice=False, made_lattice=False))
    assert not reading.valid and reading.reason == "no pattern: the cubes' faces lie off the lattice's cells"
    # (read again on the lattice through the cubes' top faces, relattice: the pattern, right)
    again = read_shaker(frame_bgr)
    assert again.valid and again.pattern == truth["pattern"] and again.debug["relattice"]["move"] == 0


@pytest.mark.parametrize(("seed", "table"), [(21, "gingham"), (119, "plain_light")])
def test_a_cube_knocked_out_beside_a_cell_of_the_table_is_out_of_line(seed, table):
    """The knocked cube's cell shows the table (a gingham check, a shadow), read as a cube with no outline
    of its own; the knocked cube lies beyond, too near that "cube" for out_of_line_cubes to count it."""
    rng = random.Random(seed)
    frame_bgr, truth = render_shake(random_pattern(rng), rng, knocked_out=True)
    assert truth["scene"]["table"] == table and "knocked_out" in truth
    # (and the toned cells'; knocked_beside_table_cells refuses it too)
    without = replace(
        OLD_FINDER,
        knocked_weak_ring=-9.0,
        knocked_toned_ring=-9.0,
        knocked_near_table=0.0,
        faceless_share=2.0,
        repeat_cells=False,
    )
    assert read_shaker(frame_bgr, settings=without).valid  # without it
    reading = read_shaker(frame_bgr)
    assert not reading.valid and reading.reason.startswith("a cube is out of line")


def test_a_coloured_cube_with_a_weak_outline_is_no_empty_cell_beside_a_knocked_cube():
    """Fresh set s3838's frame 339 (340 renders, some seconds): a complete pattern whose blue cube's outline
    measures weak (ring < 0); a stray beyond it is no cube knocked out of that cell, the cell is far from the
    table's colour."""
    frame_bgr, truth = render_scene_set(random.Random(3838), 340)[339]
    assert truth["valid"]
    loose = read_shaker(frame_bgr, settings=replace(DEFAULT_SETTINGS, knocked_weak_table=999.0))
    assert not loose.valid and "beside a cell" in loose.reason  # without the table-colour condition
    reading = read_shaker(frame_bgr)
    assert reading.valid and reading.pattern == truth["pattern"]


def test_faceless_line_asks_a_whole_outer_line_of_cubes_with_no_face():
    def tests(faceless: set[int], cube: bool = True) -> list[dict]:
        return [{"row": i // 3, "col": i % 3, "cube": cube, "extent": 0.0 if i in faceless else 1.0} for i in range(9)]

    for line in ({0, 1, 2}, {6, 7, 8}, {0, 3, 6}, {2, 5, 8}):
        assert faceless_line(tests(line))
    assert not faceless_line(tests({3, 4, 5}))  # (the middle row: not an outer line)
    assert not faceless_line(tests({6, 7}))  # (two of three)
    assert not faceless_line(tests({6, 7, 8}, cube=False))  # (no cubes there: the cell tests refused them)
    assert not faceless_line(tests({6, 7, 8})[:8])
