"""A line slid along itself off its cubes (``slid_line_skew``): on a lattice sheared well off square, a row or column
held by cells with no outline of their own, in the table's colour, lies on the table beside its cubes. Refused.

44003 0408: a white cube on a gingham that the finder does not see; the lattice took its bottom row on the gaps,
shadows and side faces beside the row's cubes (a fifth of a pitch sideways, the fit taking the slide up as a skew of
0.18) and read the white cube's cell black from the shadow beside it.
"""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from vision.shaker import DEFAULT_SETTINGS, read_shaker
from vision.shaker_checks import slid_weak_line

from .shaker_sets import set_scene

_S = DEFAULT_SETTINGS


def _cells(weak: list[tuple[int, int]], d_table: float = 4.0) -> list[dict]:
    """Nine cube cells, outlined and far from the table, but ``weak``: no outline, ``d_table`` from the table."""
    return [
        {
            "row": r,
            "col": c,
            "cube": True,
            "outline": (r, c) not in weak,
            "d_table": d_table if (r, c) in weak else 40.0,
        }
        for r in range(3)
        for c in range(3)
    ]


@pytest.mark.parametrize("weak", [[(2, 1), (2, 2)], [(0, 0), (2, 0)], [(1, 0), (1, 1), (1, 2)]])
def test_two_weak_cells_in_a_line_of_a_sheared_lattice_are_a_slid_line(weak):
    assert slid_weak_line(_cells(weak), 0.18, _S)
    assert slid_weak_line(_cells(weak), _S.slid_line_skew, _S)


def test_a_square_lattice_one_weak_cell_or_weak_cells_apart_are_not():
    assert not slid_weak_line(_cells([(2, 1), (2, 2)]), _S.slid_line_skew - 0.01, _S)  # (a lattice about square)
    assert not slid_weak_line(_cells([(2, 1)]), 0.3, _S)
    assert not slid_weak_line(_cells([(0, 1), (2, 2)]), 0.3, _S)  # (no line holds both)
    assert not slid_weak_line(_cells([(2, 1), (2, 2)], d_table=_S.slid_line_max_table), 0.3, _S)  # (off the table)
    outlined = _cells([(2, 1), (2, 2)])
    outlined[7]["outline"] = True
    assert not slid_weak_line(outlined, 0.3, _S)
    empty = _cells([(2, 1), (2, 2)])
    empty[8]["cube"] = False  # (an empty cell is no cube of the line: the cell test's business)
    assert not slid_weak_line(empty, 0.3, _S)
    assert not slid_weak_line(_cells([(2, 1), (2, 2)]), 0.3, replace(_S, slid_line_skew=math.inf))


def test_a_bottom_row_slid_onto_the_shadows_beside_its_cubes_is_refused():
    """Generated set 44003, frame 0408 (``shakecity make-shaker-set D --seed 44003``): read wrong before (the white
    cube at row 3, column 1 read black), refused now."""
    frame_bgr, truth = set_scene(44003, 408)
    assert truth["valid"] and truth["scene"]["table"] == "gingham"
    before = read_shaker(frame_bgr, settings=replace(_S, slid_line_skew=math.inf))
    assert before.valid and before.pattern != truth["cells"]
    assert before.pattern[2][0] == "black" and truth["cells"][2][0] == "white"
    grid = before.debug["grid"]
    assert grid.skew >= _S.slid_line_skew
    weak = [t for t in before.debug["cell_tests"] if t["row"] == 2 and not t["outline"]]
    assert len(weak) >= _S.slid_line_cells and all(t["d_table"] < _S.slid_line_max_table for t in weak)
    reading = read_shaker(frame_bgr)
    assert not reading.valid
    assert reading.reason == "no pattern: a line of the sheared lattice lies on the table beside its cubes"
