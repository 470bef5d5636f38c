"""A cube of about a plain table's colour that the faceless check took for the table (``faceless_plain_shadow``):
no light of the table explains its colour (``d_shadow``, the table model under the cell darkened or lit by any
factor) and its top face's edges show at least faintly, on a table of one colour around the grid. Kept as a cube.

46005 0119: a plain light table, a gray cube whose tone half the table shares, its face's edges at snr 0.69 (under
``faceless_snr``), the table in no light within 3.3 of it: refused before ("8 cubes in the grid"), read now. 43103
0126: a printed mat, an empty cell fitting the print's median model as badly (5.3) with a face as faint: the mat's
colours run wide (``table_chroma_spread``), so the model says nothing of the cell: still refused.
"""

from __future__ import annotations

import math
from dataclasses import replace

import cv2
import numpy as np

from vision.shaker import DEFAULT_SETTINGS, Grid, read_shaker, table_difference
from vision.shaker_checks import faceless_kept_on_plain, table_chroma_spread

from .shaker_sets import set_scene

_S = DEFAULT_SETTINGS
_OFF = replace(_S, faceless_plain_shadow=math.inf)


def _tests(d_shadow: float, snr: float) -> list[dict]:
    """Nine cube cells; the centre one as the faceless check leaves it (its fit to the table, its face's snr)."""
    cells = [{"row": r, "col": c, "cube": True} for r in range(3) for c in range(3)]
    cells[4].update(d_shadow=d_shadow, centre_face_snr=snr)
    return cells


def _asked(answer: bool):
    asked = []

    def plain() -> bool:
        asked.append(1)
        return answer

    return plain, asked


def test_a_cell_no_light_of_a_plain_table_explains_with_a_faint_face_is_kept():
    plain, asked = _asked(True)
    at = (_S.faceless_plain_shadow, _S.faceless_plain_snr)
    assert faceless_kept_on_plain(_tests(*at), [(1, 1)], plain, _S) == [] and asked == [1]
    # (the other cells the check took stay taken)
    assert faceless_kept_on_plain(_tests(3.5, 0.7), [(0, 0), (1, 1)], _asked(True)[0], _S) == [(0, 0)]


def test_a_cell_the_table_explains_or_faceless_or_on_a_busy_table_stays_the_tables():
    for d_shadow, snr in ((_S.faceless_plain_shadow - 0.01, 0.9), (3.5, _S.faceless_plain_snr - 0.01), (1.0, 0.1)):
        plain, asked = _asked(True)
        assert faceless_kept_on_plain(_tests(d_shadow, snr), [(1, 1)], plain, _S) == [(1, 1)]
        assert asked == []  # (the table is looked at only for a cell the fit would keep)
    assert faceless_kept_on_plain(_tests(3.5, 0.7), [(1, 1)], _asked(False)[0], _S) == [(1, 1)]
    unmeasured = [{"row": r, "col": c, "cube": True} for r in range(3) for c in range(3)]  # (no fit made)
    assert faceless_kept_on_plain(unmeasured, [(1, 1)], _asked(True)[0], _S) == [(1, 1)]
    assert faceless_kept_on_plain(_tests(3.5, 0.7), [(1, 1)], _asked(True)[0], _OFF) == [(1, 1)]


def _grid(pitch: float = 40.0) -> Grid:
    return Grid(np.array([260.0, 180.0]), np.array([pitch, 0.0]), np.array([0.0, pitch]), ((-1,) * 3,) * 3, 0, 0)


def _lab8(frame_bgr: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2Lab)


def test_a_plain_table_in_uneven_light_has_one_chroma_and_a_print_many():
    h, w = 480, 640
    light = np.linspace(0.35, 1.0, w)[None, :, None] * np.linspace(0.7, 1.0, h)[:, None, None]
    tan = np.array([150.0, 190.0, 215.0])  # (BGR: a light tan table)
    plain_bgr = np.clip(tan * light, 0, 255).astype(np.uint8)
    spread = table_chroma_spread(_lab8(plain_bgr), 1.0, _grid(), _S)
    assert spread <= _S.faceless_plain_chroma
    printed_bgr = plain_bgr.copy()
    yy, xx = np.mgrid[0:h, 0:w]
    blotch = ((xx // 37 + yy // 29) % 3 == 0)[..., None]
    printed_bgr = np.where(blotch, np.clip(np.array([200.0, 150.0, 90.0]) * light, 0, 255), printed_bgr)
    assert table_chroma_spread(_lab8(printed_bgr.astype(np.uint8)), 1.0, _grid(), _S) > _S.faceless_plain_chroma
    # (no table point in the frame: nothing to say it is plain)
    assert table_chroma_spread(_lab8(plain_bgr), 1.0, _grid(2000.0), _S) == math.inf


def test_a_gray_cube_on_a_plain_light_table_is_read():
    """Generated set 46005, frame 0119 (``shakecity make-shaker-set D --seed 46005``)."""
    frame_bgr, truth = set_scene(46005, 119)
    assert truth["valid"] and truth["scene"]["table"] == "plain_light"
    before = read_shaker(frame_bgr, settings=_OFF)
    assert not before.valid and before.reason == "8 cubes in the grid"
    (taken,) = [t for t in before.debug["cell_tests"] if not t["cube"]]
    assert taken["d_shadow"] >= _S.faceless_plain_shadow and taken["centre_face_snr"] >= _S.faceless_plain_snr
    assert taken["centre_face_snr"] < _S.faceless_snr  # (the faceless check's own threshold took it)
    reading = read_shaker(frame_bgr)
    assert reading.valid and reading.pattern == truth["cells"]


def test_an_empty_cell_on_a_printed_mat_stays_refused():
    """Generated set 43103, frame 0126: an incomplete pattern on a printed mat."""
    frame_bgr, truth = set_scene(43103, 126)
    assert not truth["valid"] and truth["scene"]["table"] == "printed"
    reading = read_shaker(frame_bgr)
    assert not reading.valid and reading.reason == "8 cubes in the grid"
    (taken,) = [t for t in reading.debug["cell_tests"] if not t["cube"]]
    # (the print's median model explains the cell no better than a cube's: the mat's own colours tell)
    assert taken["d_shadow"] >= _S.faceless_plain_shadow and taken["centre_face_snr"] >= _S.faceless_plain_snr
    grid = reading.debug["grid"]
    _, scale, work_lab8, _ = table_difference(frame_bgr, _S)
    assert table_chroma_spread(work_lab8, scale, grid, _S) > _S.faceless_plain_chroma
    assert read_shaker(frame_bgr, settings=replace(_S, faceless_plain_chroma=math.inf)).valid
