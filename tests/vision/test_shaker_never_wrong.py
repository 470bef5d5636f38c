"""Never a wrong pattern: a reading that would show the players a pattern the table does not hold is refused.

t41003 0048 (seed 41003): a gingham, the bottom left cell left empty; a check's edge through its point was read as a
white cube (no top face at the point, the colour the table's: d_table 20.4) and the incomplete pattern accepted.
``spotless_table_cells`` takes such a cell for the table."""

from __future__ import annotations

from dataclasses import replace

from vision.shaker import DEFAULT_SETTINGS, read_shaker
from vision.shaker_checks import spotless_table_cells

from .shaker_sets import set_scene

SPOTTED = replace(DEFAULT_SETTINGS, spotless_table_delta_e=0.0)


def test_an_empty_cell_with_a_checks_edge_is_no_cube() -> None:
    frame, truth = set_scene(41003, 48)
    assert not truth["valid"] and truth["cells"][2][0] is None
    before = read_shaker(frame, settings=replace(SPOTTED, repeat_cells=False))  # (the table's repeat refuses it too)
    assert before.valid  # the incomplete pattern accepted without the rule
    reading = read_shaker(frame)
    assert not reading.valid and reading.reason == "8 cubes in the grid"


def test_spotless_cells_are_those_of_the_tables_colour() -> None:
    def cell(extent: float, d_table: float, cube: bool = True) -> dict:
        return {"row": 1, "col": 2, "cube": cube, "extent": extent, "d_table": d_table}

    assert spotless_table_cells([cell(0.0, 20.4)], DEFAULT_SETTINGS) == [(1, 2)]
    # a cube whose face went unfound keeps its own colour, far from the table's (a blue cube: d_table 57.7)
    assert spotless_table_cells([cell(0.0, 57.7)], DEFAULT_SETTINGS) == []
    # a face found; no cube; no face measured (a cell the reading did not ask); off
    assert spotless_table_cells([cell(0.8, 20.4)], DEFAULT_SETTINGS) == []
    assert spotless_table_cells([cell(0.0, 20.4, cube=False)], DEFAULT_SETTINGS) == []
    assert spotless_table_cells([{"row": 0, "col": 0, "cube": True, "d_table": 3.0}], DEFAULT_SETTINGS) == []
    assert spotless_table_cells([cell(0.0, 20.4)], SPOTTED) == []
