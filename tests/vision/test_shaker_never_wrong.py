"""Never a wrong pattern: a reading that would show the players a pattern the table does not hold is refused.

t41027 0207 (generated, seed 41027): a plain light table, the lamp high; the settled lattice was stretched (1.19 of
the cubes' pitch) so its bottom row lay on the cubes' cast shadows and the real bottom row between its lines, and
the shadows were read as three gray cubes (the pattern wrong). ``gapped_shadow_lines`` knows such a line: table in
shadow whose gaps hold something else than the table.

t41003 0048 (seed 41003): a gingham, the bottom left cell left empty; a check's edge through its point was read as a
white cube (no top face at the point, the colour the table's: d_table 20.4) and the incomplete pattern accepted.
``spotless_table_cells`` takes such a cell for the table."""

from __future__ import annotations

from dataclasses import replace

from vision.shaker import DEFAULT_SETTINGS, read_shaker
from vision.shaker_checks import gapped_shadow_lines, spotless_table_cells

from .shaker_sets import set_scene

OFF = replace(DEFAULT_SETTINGS, gapped_shadow_delta_e=0.0)
SPOTTED = replace(DEFAULT_SETTINGS, spotless_table_delta_e=0.0)


def _cells(**rows: tuple[float, float]) -> list[dict]:
    """Nine cube cells' tests (coloured cubes apart from the table); ``rows``: ``r0``..``r2`` -> (d_shadow, d_gap)
    for that whole row."""
    out = []
    for r in range(3):
        d_shadow, d_gap = rows.get(f"r{r}", (60.0, 50.0))
        for c in range(3):
            out.append({"row": r, "col": c, "cube": True, "d_shadow": d_shadow, "d_gap": d_gap})
    return out


def test_stretched_lattice_on_the_shadows_is_not_read_wrong() -> None:
    frame, truth = set_scene(41027, 207)
    assert truth["valid"]
    before = read_shaker(frame, settings=OFF)
    assert before.valid and before.pattern != truth["pattern"]  # the wrong reading the rule is for
    assert before.pattern[2] == ["gray", "gray", "gray"]
    reading = read_shaker(frame)
    assert not reading.valid or reading.pattern == truth["pattern"]
    assert reading.valid  # (read again on another lattice: right)


def test_a_line_of_shadow_with_cubes_in_its_gaps() -> None:
    # the bottom row: the table in shadow (d_shadow 1-2) whose gaps all differ from it by 33 (cubes there)
    assert gapped_shadow_lines(_cells(r2=(1.5, 33.0)), DEFAULT_SETTINGS) == [((2, 0), (2, 1), (2, 2))]
    # gray cubes on a table of their gray: the gaps are the table, a few units off
    assert gapped_shadow_lines(_cells(r2=(1.5, 3.0)), DEFAULT_SETTINGS) == []
    # the middle row is no outer line; a cell that is no cube does not count
    assert gapped_shadow_lines(_cells(r1=(1.5, 33.0)), DEFAULT_SETTINGS) == []
    cells = _cells(r0=(1.5, 33.0))
    cells[1]["cube"] = False
    assert gapped_shadow_lines(cells, DEFAULT_SETTINGS) == []
    # off
    assert gapped_shadow_lines(_cells(r2=(1.5, 33.0)), OFF) == []


def test_the_lookalike_read_right_stays_read() -> None:
    # t41001 0272: a row of gray cubes on a gray table, their gaps the table (d_gap about 1.7): read right, as before
    frame, truth = set_scene(41001, 272)
    reading = read_shaker(frame)
    assert reading.valid and reading.pattern == truth["pattern"]


def test_an_empty_cell_with_a_checks_edge_is_no_cube() -> None:
    frame, truth = set_scene(41003, 48)
    assert not truth["valid"] and truth["cells"][2][0] is None
    before = read_shaker(frame, settings=SPOTTED)
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
