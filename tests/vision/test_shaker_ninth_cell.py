"""The ninth cell: a faint cube that faint_cubes read and a print look then took for the table again.

faint_cubes reads a cell the cell test refused as a cube when the frame's own eight cubes vouch for it (its colour
near the palette, its edge map the cubes'). A print look after it (table_patch, faceless_toned_cells) may then take
that very cell for the table's print: its colour is the table's, which is why it was faint. The look's three-cue
keeping (faint_cubes_kept_by_two_cues) refused it for being faint already, counting the cell itself as the
pattern's one faint cube, where the last looks' keeping (faint_cubes_kept) asks its bevel lines instead. With
``faint_kept_looks_self`` the print looks ask the same: the faint cube stays when its bevel is the cubes'.

s41013 0105 (a black cube on a dark table) was refused "8 cubes in the grid" and is read; s41029 0011 (an
incomplete pattern whose empty cell faint_cubes took for a cube and the print look removed) stays refused: its bevel
lines are not the cubes' (with the bevel test asking nothing it would be kept as a cube).
"""

from __future__ import annotations

from dataclasses import replace

from vision.shaker import DEFAULT_SETTINGS, read_shaker

from .shaker_sets import faint_cells, set_scene

# (and no cast-shadow look: s41013 0105's black cube casts its shadow and it reads it right too)
_OFF = replace(DEFAULT_SETTINGS, faint_kept_looks_self=False, solid_cubes=False)
# the bevel test asking nothing: any faint cell a print look removes stays a cube
_LOOSE = replace(
    DEFAULT_SETTINGS, faint_bevel_min_cosine=-1.0, faint_bevel_min_projection=0.0, faint_bevel_foreign=99.0
)


def test_a_faint_cube_a_print_look_removes_is_kept_by_its_bevel():
    """s41013 0105: faint_cubes reads the black cube at (0, 0) on a dark table; faceless_toned_cells then takes it
    for the table. Off, the pattern is refused with that cell removed; on, its bevel lines (cosine 0.99, projection
    0.66 along the cubes') keep it and the pattern is read right."""
    frame_bgr, truth = set_scene(41013, 105)
    assert truth["valid"] and truth["scene"]["table"] == "plain_dark"
    without = read_shaker(frame_bgr, settings=_OFF)
    assert not without.valid and without.reason == "8 cubes in the grid"
    refused = [(t["row"], t["col"]) for t in without.debug["cell_tests"] if not t["cube"]]
    assert refused == [(0, 0)] and without.debug["cell_tests"][0].get("faint")
    reading = read_shaker(frame_bgr)
    assert reading.valid and reading.pattern == truth["pattern"]
    assert faint_cells(reading) == [(0, 0)]
    cosine, projection = reading.debug["cell_tests"][0]["faint_bevel"]
    assert cosine >= DEFAULT_SETTINGS.faint_bevel_min_cosine
    assert projection >= DEFAULT_SETTINGS.faint_bevel_min_projection


def test_an_empty_cell_a_print_look_removes_stays_refused():
    """s41029 0011, an incomplete pattern: faint_cubes took its empty cell (2, 1) for a faint cube and table_patch
    removed it again. Its bevel lines are not the cubes' (cosine 0.43, projection 0.03): refused, on as off. With the
    bevel test asking nothing the cell is kept as a cube (only a later check, its colour unclear, refuses it)."""
    frame_bgr, truth = set_scene(41029, 11)
    assert not truth["valid"] and truth["cells"][2][1] is None
    for settings in (_OFF, DEFAULT_SETTINGS):
        reading = read_shaker(frame_bgr, settings=settings)
        assert not reading.valid and reading.reason == "8 cubes in the grid"
        assert [(t["row"], t["col"]) for t in reading.debug["cell_tests"] if not t["cube"]] == [(2, 1)]
    loose = read_shaker(frame_bgr, settings=_LOOSE)
    assert loose.reason != "8 cubes in the grid"
    assert loose.debug["cell_tests"][7]["cube"] and loose.debug["cell_tests"][7].get("faint")
