"""Complete patterns the shaker reader refused at the cell level (a reshake asked for nothing), each now read.

Frames are generated (vision.shaker_scene); each test also shows the refusal with its setting at the old value
(off), so the reading is the change's, and one shows the guard that keeps a wrong pattern refused."""

import math
import random
from dataclasses import replace

from vision.shaker import DEFAULT_SETTINGS, read_shaker
from vision.shaker_scene import render_scene_set


def test_a_shadow_beside_a_line_of_shadows_beyond_the_grid_is_no_stray_cube():
    # generated set sh90919 0062: the cubes' cast shadows lie side by side just beyond the grid; one of them,
    # far enough from every grid cube and near a palette colour (a dark gray), was counted as a cube out of
    # line. Its mate, the next shadow along the same line, shows about its colour: a line of shadows, no stray.
    frame_bgr, truth = render_scene_set(random.Random(90919), 63)[62]
    assert truth["valid"]
    # (stray_doubt_ring inf too: no cell beside the shadow is in doubt)
    off = read_shaker(frame_bgr, settings=replace(DEFAULT_SETTINGS, stray_line_mates=False, stray_doubt_ring=math.inf))
    assert not off.valid and off.reason == "a cube is out of line"
    reading = read_shaker(frame_bgr)
    assert reading.valid and reading.pattern == truth["pattern"]


def test_a_line_of_cast_shadows_beside_a_cell_of_the_tables_colour_is_no_knocked_out_cube():
    # generated set sh50505 0122: a cell of about the table's colour (d_table 7.1) and, a pitch beyond it, a
    # cube-like patch of the cubes' cast shadow that the shadow fit to the table's model missed: taken for the
    # cube knocked out of that cell. The shadows of the line's other cubes lie beside it in about its colour
    # (2.3-2.7 apart), and it is no cube's colour (10.7 from the palette).
    frame_bgr, truth = render_scene_set(random.Random(50505), 123)[122]
    assert truth["valid"]
    off = read_shaker(frame_bgr, settings=replace(DEFAULT_SETTINGS, knocked_line_mates=False))
    assert not off.valid
    assert off.reason == "a cube is out of line (beside a cell of about the table's colour)"
    reading = read_shaker(frame_bgr)
    assert reading.valid and reading.pattern == truth["pattern"]


def test_two_cubes_of_one_colour_beyond_a_lattice_a_column_off_are_no_line_of_shadows():
    # generated set s8282 0072: the lattice settled a column off, its last column on the table between the
    # cubes; beyond it two green cubes side by side are mates in colour, but in a palette colour: no shadows.
    # Without that guard (line_mate_min_palette 0) and the stretched-lattice check (face_spread_mismatch inf) the
    # wrong pattern is accepted; the check alone refuses that lattice and the made lattice reads it right; with the
    # guard, refused as before.
    frame_bgr, truth = render_scene_set(random.Random(8282), 73)[72]
    assert truth["valid"]
    unguarded = read_shaker(
        frame_bgr, settings=replace(DEFAULT_SETTINGS, line_mate_min_palette=0.0, face_spread_mismatch=math.inf)
    )
    assert unguarded.valid and unguarded.pattern != truth["pattern"]
    checked = read_shaker(frame_bgr, settings=replace(DEFAULT_SETTINGS, line_mate_min_palette=0.0))
    assert checked.valid and checked.pattern == truth["pattern"]
    assert checked.debug["made_lattice"]["refused"] == "no pattern: the lattice is stretched against the cubes' faces"
    # (no square-steps read: it reads this frame right too)
    unmade = replace(DEFAULT_SETTINGS, made_lattice=False, square_retry=False)
    reading = read_shaker(frame_bgr, settings=replace(unmade, face_spread_mismatch=math.inf))
    assert not reading.valid
    assert reading.reason == "a cube is out of line (beside a cell of about the table's colour)"
    stretched = read_shaker(frame_bgr, settings=unmade)
    assert stretched.reason == "no pattern: the lattice is stretched against the cubes' faces"
    # that refusal stands on the lattice a column off; a lattice made at the cubes' pitch then reads the pattern
    made = read_shaker(frame_bgr)
    assert made.valid and made.pattern == truth["pattern"] and "made_lattice" in made.debug
