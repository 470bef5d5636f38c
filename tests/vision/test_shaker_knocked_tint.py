"""A cube's cast shadow beside the grid lit by a second lamp of another colour is no cube knocked out of the grid
(vision.shaker_checks.knocked_beside_table_cells, ``knocked_tint_delta_e``): the table under the shape tinted as the
frame's own shadows are (vision.shaker_cube_look.shadow_tint, learnt from the plainly seen cubes) explains it, where
the table darkened evenly does not. Frames from generated sets (tests/vision/shaker_sets), the setting off (0.0)
shown too."""

from dataclasses import replace

from vision.shaker import DEFAULT_SETTINGS, read_shaker
from vision.shaker_cube_look import shadow_tint

from .shaker_sets import set_scene

OFF = replace(DEFAULT_SETTINGS, knocked_tint_delta_e=0.0)
KNOCKED = "a cube is out of line (beside a cell of about the table's colour)"


def test_the_shadow_tint_is_the_fill_lamps_colour_against_the_key_lamps():
    # 81001 0061 (make-shaker-set --fill-light --seed 81001): a key lamp at 2981 K, the shadows lit by one at 5428 K
    frame, truth = set_scene(81001, 61, fill_light=True)
    assert truth["scene"]["fill_kelvin"] > truth["scene"]["kelvin"]
    reading = read_shaker(frame)
    g = shadow_tint(frame, reading.debug["grid"], reading.debug["cell_tests"], DEFAULT_SETTINGS)
    assert g is not None
    assert (g < 0.5).all()  # darker than the lit table in every channel
    assert g[2] > 1.5 * g[0]  # bluer: the fill lamp is the cooler one


def test_a_tinted_cast_shadow_beside_a_dark_cube_is_no_knocked_cube():
    # 81001 0061: a black cube on dark wood (near the table's colour), its crisp shadow a pitch beside it: 10.1 from
    # the table darkened evenly, 1.9 from it tinted. Refused as a cube knocked out before; read right now
    frame, truth = set_scene(81001, 61, fill_light=True)
    assert truth["valid"]
    before = read_shaker(frame, settings=OFF)
    assert not before.valid and before.reason == KNOCKED
    after = read_shaker(frame)
    assert after.valid and after.pattern == truth["pattern"]


def test_a_cube_knocked_out_beside_a_dark_cell_is_still_refused():
    # 45004 0004 (make-shaker-set --seed 45004): the knocked-out cube 13.5 from the table tinted as the shadows are
    frame, truth = set_scene(45004, 4)
    assert not truth["valid"] and truth.get("knocked_out")
    reading = read_shaker(frame)
    assert not reading.valid and reading.reason == KNOCKED
