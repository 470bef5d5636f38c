"""The patch rule's colour gate (``patch_near_table``, ``patch_min_table``, ``patch_min_palette``): a cube whose face
runs wider than its cell with no outline found is not taken for the table's print when its colour is near the
palette's and of about the table's, yet apart from it.

A white, gray or black cube of about the table's colour (white on a light table, black on a dark one) often shows
no outline and runs into the table: the patch rule refused those complete patterns, while the checks of the
table's colour after it (its gaps, its shadows, its edges) keep them as cubes. A gingham check far from the
table's colour, an empty cell far from every palette colour, or one the table's colour explains (an empty centre
on a dark table) is still the print.
"""

from __future__ import annotations

from dataclasses import replace

from vision.shaker import DEFAULT_SETTINGS, read_shaker, table_patch

from .shaker_sets import set_scene

_BEFORE = replace(DEFAULT_SETTINGS, patch_min_table=0.0, patch_min_palette=0.0)


def _no_outline(d_table: float, d_palette: float) -> dict:
    return {"extent": 1.08, "ring": -0.01, "outline": False, "d_gap": 2.5, "d_table": d_table, "d_palette": d_palette}


def test_a_patch_near_the_table_and_the_palette_is_no_print():
    # measured on s41001-s41030: the rule's refused cubes (d_table, d_palette) and the empty cells only it refused
    # (and s9494 0104's empty centre, 1.5 from a dark table)
    for cube in ((10.3, 4.6), (17.3, 1.4), (2.9, 4.5), (6.2, 5.1), (11.5, 2.9)):
        assert not table_patch(_no_outline(*cube))
        assert table_patch(_no_outline(*cube), _BEFORE)
    for empty in ((33.4, 4.9), (29.8, 9.5), (0.3, 10.2), (1.5, 4.5)):
        assert table_patch(_no_outline(*empty))
    # an outlined cell in its gap's colour is the other rule's, not gated: an empty cell on a light table
    # (s2222 0194) measures as a gray cube on gingham does (s41013 0005)
    assert table_patch({"extent": 1.11, "ring": 0.51, "outline": True, "d_gap": 0.5, "d_table": 2.2, "d_palette": 4.1})


def test_a_gray_cube_running_into_a_light_table_is_read():
    """s41012 0054: a gray cube on a light table, no outline found, its colour running past its cell (2.9 from the
    table, 4.5 from the palette). The patch rule alone refused the complete pattern; it is read right."""
    frame_bgr, truth = set_scene(41012, 54)
    assert truth["valid"] and truth["scene"]["table"] == "plain_light"
    before = read_shaker(frame_bgr, settings=_BEFORE)
    assert not before.valid and before.reason == "8 cubes in the grid"
    reading = read_shaker(frame_bgr)
    assert reading.valid and reading.pattern == truth["pattern"]


def test_an_empty_centre_on_a_dark_table_stays_the_table():
    """s41030 0046: an incomplete pattern, its centre's cube knocked out; the empty centre, the dark table between
    four cubes, runs wider than a cell 10.2 from every palette colour: the print, refused as before."""
    frame_bgr, truth = set_scene(41030, 46)
    assert not truth["valid"] and list(truth["knocked_out"]) == [1, 1]
    reading = read_shaker(frame_bgr)
    assert not reading.valid and reading.reason == "8 cubes in the grid"
    assert [(t["row"], t["col"]) for t in reading.debug["cell_tests"] if not t["cube"]] == [(1, 1)]
