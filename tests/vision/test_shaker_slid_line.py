"""A line slid along itself off its cubes (``slid_line_shear``): a row or column held by cells with no outline of their
own, in the table's colour, on a lattice sheared against its cubes' top faces, lies on the table beside its cubes.
Refused.

44003 0408: a white cube on a gingham that the finder does not see; the lattice took its bottom row on the gaps,
shadows and side faces beside the row's cubes (a third of a pitch sideways, the fit taking the slide up as a skew of
0.18 that the cubes' faces do not share) and read the white cube's cell black from the shadow beside it. 52002 0294:
two black cubes on a dark table in one column, unoutlined, on a lattice as sheared (0.12) by a camera 23 degrees off
overhead, the faces sheared with it: read.
"""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from vision.shaker import DEFAULT_SETTINGS, read_shaker
from vision.shaker_checks import slid_weak_line

from .shaker_sets import set_scene

_S = DEFAULT_SETTINGS
_REASON = "no pattern: a line of the sheared lattice lies on the table beside its cubes"


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


def _sheared(value: float | None):
    asked = []

    def shear_of() -> float | None:
        asked.append(1)
        return value

    return shear_of, asked


@pytest.mark.parametrize("weak", [[(2, 1), (2, 2)], [(0, 0), (2, 0)], [(1, 0), (1, 1), (1, 2)]])
@pytest.mark.parametrize("shear", [0.16, -0.16, _S.slid_line_shear])
def test_two_weak_cells_in_a_line_of_a_lattice_sheared_off_its_faces_are_a_slid_line(weak, shear):
    shear_of, asked = _sheared(shear)
    assert slid_weak_line(_cells(weak), shear_of, _S) and asked == [1]


def test_a_lattice_on_its_faces_one_weak_cell_or_weak_cells_apart_are_not():
    line = [(2, 1), (2, 2)]
    for shear in (_S.slid_line_shear - 0.01, -0.05, 0.0, None):  # (the faces sheared with the lattice, or unmeasured)
        assert not slid_weak_line(_cells(line), _sheared(shear)[0], _S)
    for cells in (
        _cells([(2, 1)]),
        _cells([(0, 1), (2, 2)]),  # (no line holds both)
        _cells(line, d_table=_S.slid_line_max_table),  # (off the table's colour)
    ):
        shear_of, asked = _sheared(0.3)
        assert not slid_weak_line(cells, shear_of, _S)
        assert asked == []  # (the faces are measured only for a weak line)
    outlined = _cells(line)
    outlined[7]["outline"] = True
    assert not slid_weak_line(outlined, _sheared(0.3)[0], _S)
    empty = _cells(line)
    empty[8]["cube"] = False  # (an empty cell is no cube of the line: the cell test's business)
    assert not slid_weak_line(empty, _sheared(0.3)[0], _S)
    assert not slid_weak_line(_cells(line), _sheared(0.3)[0], replace(_S, slid_line_shear=math.inf))


def test_a_bottom_row_slid_onto_the_shadows_beside_its_cubes_is_refused():
    """Generated set 44003, frame 0408 (``shakecity make-shaker-set D --seed 44003``): read wrong before (the white
    cube at row 3, column 1 read black), refused now."""
    frame_bgr, truth = set_scene(44003, 408)
    assert truth["valid"] and truth["scene"]["table"] == "gingham"
    before = read_shaker(frame_bgr, settings=replace(_S, slid_line_shear=math.inf))
    assert before.valid and before.pattern != truth["cells"]
    assert before.pattern[2][0] == "black" and truth["cells"][2][0] == "white"
    weak = [t for t in before.debug["cell_tests"] if t["row"] == 2 and not t["outline"]]
    assert len(weak) >= _S.slid_line_cells and all(t["d_table"] < _S.slid_line_max_table for t in weak)
    reading = read_shaker(frame_bgr)
    assert not reading.valid and reading.reason == _REASON


def test_unoutlined_black_cubes_on_a_lattice_the_view_shears_are_read():
    """Generated set 52002, frame 0294: a plain dark table, the camera 23 degrees off overhead, two black cubes in
    the first column with no outline (d_table 3.1 and 3.7) on a lattice of skew 0.12; its faces are sheared with it
    (about 0 in its frame). A rule on the lattice's skew alone refused it; read right."""
    frame_bgr, truth = set_scene(52002, 294)
    assert truth["valid"] and truth["scene"]["table"] == "plain_dark"
    reading = read_shaker(frame_bgr)
    assert reading.valid and reading.pattern == truth["cells"]
    weak = [t for t in reading.debug["cell_tests"] if t["col"] == 0 and not t["outline"]]
    assert len(weak) >= _S.slid_line_cells and all(t["d_table"] < _S.slid_line_max_table for t in weak)
    assert reading.debug["grid"].skew >= _S.slid_line_shear
