"""A lattice of the table's print read as cubes: its colour continues beyond the grid (print_beyond_cells).

A shake's cubes end at the grid; a checked cloth's or a printed mat's lattice runs on past it. Each test also
shows the check failing with it off (``print_cells`` 0, as before), so the refusal is the change's."""

import random
from dataclasses import replace

import cv2
import numpy as np

from vision.shaker import DEFAULT_SETTINGS, Grid, read_shaker
from vision.shaker_checks import print_beyond_cells
from vision.shaker_scene import render_scene_set

from .shaker_old_finder import OLD_FINDER

PITCH = 20.0


def _grid() -> Grid:
    cells = tuple(tuple(r * 3 + c for c in range(3)) for r in range(3))
    return Grid(np.array([60.0, 60.0]), np.array([PITCH, 0.0]), np.array([0.0, PITCH]), 9, 9.0, cells, 0)


def _work_lab8(cell_bgr: dict[tuple[int, int], tuple[int, int, int]], table_bgr=(60, 70, 80)) -> np.ndarray:
    """A 200 x 200 working copy (scale 1): the table, and a square of a colour at lattice points (row, col)."""
    img = np.full((200, 200, 3), table_bgr, np.uint8)
    for (r, c), bgr in cell_bgr.items():
        x, y = 60 + c * PITCH, 60 + r * PITCH
        img[int(y - 6) : int(y + 7), int(x - 6) : int(x + 7)] = bgr
    return cv2.cvtColor(img, cv2.COLOR_BGR2Lab)


def _tests() -> list[dict]:
    return [{"row": r, "col": c, "cube": True} for r in range(3) for c in range(3)]


LIGHT = (170, 200, 215)  # a gingham's light check


def test_cells_in_the_colour_of_cube_like_points_beyond_the_grid_are_the_print():
    # the light checks on every lattice point, inside the grid and out: every cell shares its colour with them
    every = {(r, c): LIGHT for r in range(-1, 4) for c in range(-1, 4)}
    around = np.ones((5, 5), bool)
    found = print_beyond_cells(_tests(), _grid(), around, _work_lab8(every), 1.0, DEFAULT_SETTINGS)
    assert sorted(found) == [(r, c) for r in range(3) for c in range(3)]
    # the same points not cube-like (best_window's look): the table around a shake, no print
    assert print_beyond_cells(_tests(), _grid(), np.zeros((5, 5), bool), _work_lab8(every), 1.0, DEFAULT_SETTINGS) == []
    # off
    off = replace(DEFAULT_SETTINGS, print_cells=0)
    assert print_beyond_cells(_tests(), _grid(), around, _work_lab8(every), 1.0, off) == []


def test_cubes_of_other_colours_than_the_points_beyond_are_no_print():
    # white checks all around the grid, cubes of other colours in it: a shake on a checked cloth
    colours = [(40, 40, 200), (200, 60, 40), (30, 30, 30), (60, 160, 60), (128, 128, 128)]
    cells = {(r, c): LIGHT for r in range(-1, 4) for c in range(-1, 4) if not (0 <= r <= 2 and 0 <= c <= 2)}
    cells.update({(r, c): colours[(r * 3 + c) % len(colours)] for r in range(3) for c in range(3)})
    around = np.ones((5, 5), bool)
    assert print_beyond_cells(_tests(), _grid(), around, _work_lab8(cells), 1.0, DEFAULT_SETTINGS) == []
    # two cells of the print's colour are not enough (print_points beyond each, print_cells of them)
    cells[(0, 0)] = cells[(1, 1)] = LIGHT
    found = print_beyond_cells(_tests(), _grid(), around, _work_lab8(cells), 1.0, DEFAULT_SETTINGS)
    assert sorted(found) == [(0, 0), (1, 1)] and len(found) < DEFAULT_SETTINGS.print_cells


def test_an_incomplete_pattern_on_gingham_read_with_its_light_checks_is_refused():
    # generated set s61616 0184: a gingham cloth, the cube of row 1, column 2 knocked out; the lattice settled on
    # the light checks beside the pattern, three of them read as white cubes, the checks going on beyond the grid.
    # With the check off (print_cells 0, as before) the incomplete pattern is accepted.
    frame_bgr, truth = render_scene_set(random.Random(61616), 185)[184]
    assert not truth["valid"] and truth["knocked_out"] == [0, 1]
    assert not read_shaker(frame_bgr).valid
    # (the frame was chosen at the old finder's threshold)
    off = read_shaker(frame_bgr, settings=replace(OLD_FINDER, print_cells=0, faceless_share=2.0, repeat_cells=False))
    assert off.valid
    reading = read_shaker(frame_bgr, settings=OLD_FINDER)
    assert not reading.valid
    assert reading.reason.endswith("(the table's print)")
