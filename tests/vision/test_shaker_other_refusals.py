"""Cubes of the table's own colour are no checked cloth (cloth_cells' ``cloth_min_table``).

A lattice on a checked cloth's squares shows cells in the cloth's other tones, which the table model (one colour)
does not explain. Black cubes on a plain dark table are that table's colour: the cloth test took three of them,
weakly outlined, for checks and refused a complete pattern. Each test also shows the old reading with the setting
off (``cloth_min_table`` 0.0, as before), so the change is what the test sees."""

from dataclasses import replace

import cv2
import numpy as np

from vision.shaker import DEFAULT_SETTINGS, Grid, read_shaker
from vision.shaker_checks import cloth_cells

from .shaker_sets import set_scene

PITCH = 20.0
OFF = replace(DEFAULT_SETTINGS, cloth_min_table=0.0)


def _grid() -> Grid:
    cells = tuple(tuple(r * 3 + c for c in range(3)) for r in range(3))
    return Grid(np.array([60.0, 60.0]), np.array([PITCH, 0.0]), np.array([0.0, PITCH]), 9, 9.0, cells, 0)


def _work_lab8(table_bgr: tuple[int, int, int], cell_bgr: tuple[int, int, int]) -> np.ndarray:
    """A 200 x 200 working copy (scale 1): the table, and squares of ``cell_bgr`` on every lattice cell."""
    img = np.full((200, 200, 3), table_bgr, np.uint8)
    for r in range(3):
        for c in range(3):
            x, y = 60 + c * PITCH, 60 + r * PITCH
            img[int(y - 6) : int(y + 7), int(x - 6) : int(x + 7)] = cell_bgr
    return cv2.cvtColor(img, cv2.COLOR_BGR2Lab)


def _weak_tests(d_table: float) -> list[dict]:
    """Three weakly outlined cube cells (ring below cloth_ring) ``d_table`` from the table model, six strong."""
    weak = {(0, 0), (1, 1), (2, 2)}
    return [
        {"row": r, "col": c, "cube": True, "ring": 0.2 if (r, c) in weak else 1.0, "d_table": d_table}
        for r in range(3)
        for c in range(3)
    ]


def test_cubes_of_the_table_models_colour_are_not_counted_as_checks():
    # a dark plain table, the cells its colour too: every ring point matches them (a tone share of about one)
    dark = (25, 25, 25)
    work = _work_lab8(dark, dark)
    assert cloth_cells(_weak_tests(1.5), _grid(), work, 1.0, DEFAULT_SETTINGS) == []
    # off (as before): the three weak cells are a cloth's checks, the lattice refused
    assert sorted(cloth_cells(_weak_tests(1.5), _grid(), work, 1.0, OFF)) == [(0, 0), (1, 1), (2, 2)]


def test_checks_the_table_model_does_not_explain_still_count():
    # the cells as far from the table model as a gingham's other checks are (d_table 19-36 on the tuning sets)
    # and in a colour the table around the grid shows: still the cloth, with the setting on or off
    light = (170, 200, 215)
    work = _work_lab8(light, light)
    for settings in (DEFAULT_SETTINGS, OFF):
        found = cloth_cells(_weak_tests(25.0), _grid(), work, 1.0, settings)
        assert sorted(found) == [(0, 0), (1, 1), (2, 2)]


def test_black_cubes_on_a_plain_dark_table_are_read():
    # generated set seed 41009, frame 162: a plain dark table, three black cubes (rows 2 and 3) weakly outlined and
    # within 1.6-2.7 of the table model; refused as "3 cells show the table's own colour" with the setting off
    frame_bgr, truth = set_scene(41009, 162)
    assert truth["valid"] and truth["scene"]["table"] == "plain_dark"
    reading = read_shaker(frame_bgr)
    assert reading.valid and reading.pattern == truth["pattern"]
    old = read_shaker(frame_bgr, settings=OFF)
    assert not old.valid and "checked cloth" in (old.reason or "")
