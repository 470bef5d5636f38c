"""The shaker reader's lattice one row or column off (issue 3): a full line of cube-like lattice points just
beyond the settled grid makes twelve in a 4 x 3 block, and the outlines decide which line is no line of cubes.

Frames are generated (vision.shaker_scene); each frame test also shows the reading with the setting at its old
value (``beyond_line_ring`` 0.0: off), so the change is the setting's."""

import random
from dataclasses import replace

import numpy as np

from vision.shaker import DEFAULT_SETTINGS, read_shaker
from vision.shaker_checks import incoming_line, lines_beyond, outlined_line
from vision.shaker_scene import render_scene_set

from .shaker_old_finder import OLD_FINDER

OFF = replace(DEFAULT_SETTINGS, beyond_line_ring=0.0)


def _tests(rings: dict[tuple[int, int], float]) -> list[dict]:
    return [
        {"row": r, "col": c, "cube": True, "outline": True, "ring": rings.get((r, c), 0.8)}
        for r in range(3)
        for c in range(3)
    ]


def test_lines_beyond_needs_a_full_line_beyond_and_a_far_line_not_outlined():
    weak_top = _tests({(0, 0): 0.1, (0, 1): 0.02, (0, 2): 0.01})
    around = np.zeros((5, 5), bool)
    around[1:4, 1:4] = True
    assert lines_beyond(weak_top, around, DEFAULT_SETTINGS) == []  # nothing beyond
    around[4, 1:3] = True  # two points beyond the bottom: no full line
    assert lines_beyond(weak_top, around, DEFAULT_SETTINGS) == []
    around[4, 3] = True  # a full line beyond the bottom, the top row weakly outlined: the grid may be a row off
    assert lines_beyond(weak_top, around, DEFAULT_SETTINGS) == [((1, 0), ((0, 0), (0, 1), (0, 2)))]
    assert incoming_line((1, 0)) == ((2, 0), (2, 1), (2, 2))  # (moved down, the line beyond is the bottom row)
    # the far line crisply outlined (right readings had rings >= 0.44 there): a line of cubes, kept
    assert lines_beyond(_tests({}), around, DEFAULT_SETTINGS) == []
    # on the mean: a black cube on a dark table in a line of cubes (s6464 0042: 0.27, 0.66, 1.34) is a line of cubes
    top = ((0, 0), (0, 1), (0, 2))
    dark = _tests({(0, 0): 0.27, (0, 1): 0.66, (0, 2): 1.34})
    assert outlined_line(dark, top, DEFAULT_SETTINGS)
    assert lines_beyond(dark, around, DEFAULT_SETTINGS) == []
    # ...and a line to move onto needs most cells outlined: one crisp cube between two gingham checks with no
    # outline found is not (s9494 0316), two crisp cubes beside a black one with none are (s3737 0493)
    assert outlined_line(dark, top, DEFAULT_SETTINGS, most=True)
    checks = _tests({(0, 1): 0.98})
    checks[0]["outline"] = checks[2]["outline"] = False
    assert outlined_line(checks, top, DEFAULT_SETTINGS) and not outlined_line(checks, top, DEFAULT_SETTINGS, most=True)
    black = _tests({(0, 0): 0.91, (0, 1): 0.74})
    black[2]["outline"] = False
    assert outlined_line(black, top, DEFAULT_SETTINGS, most=True)
    # a cell with no outline found counts 0 whatever its ring
    tests = _tests({(0, 0): 0.2, (0, 2): 0.2})
    assert outlined_line(tests, top, DEFAULT_SETTINGS)
    tests[1]["outline"] = False
    assert not outlined_line(tests, top, DEFAULT_SETTINGS)
    assert lines_beyond(tests, around, DEFAULT_SETTINGS) == [((1, 0), top)]
    assert lines_beyond(weak_top, around, OFF) == []  # off: as before
    # beyond the left side, the right column weak
    around = np.zeros((5, 5), bool)
    around[1:4, 0:4] = True
    weak_right = _tests({(0, 2): 0.22, (1, 2): 0.17, (2, 2): 0.19})
    assert lines_beyond(weak_right, around, DEFAULT_SETTINGS) == [((0, -1), ((0, 2), (1, 2), (2, 2)))]


def test_gingham_checks_read_as_cubes_with_a_line_of_cubes_beyond_are_refused():
    # generated set s9494 0316 (gingham, white checks): the lattice sits on the cloth, eight white checks read as
    # white cubes (the box holds eight: box_limits cannot tell), every point around the window cube-like; its right
    # column's rings 0.22, 0.17, 0.19 (no line of cubes) with a full line beyond the left side. With the check off
    # (beyond_line_ring 0.0, as before) the wrong pattern is accepted; with it, refused (the line beyond, one crisp
    # cube among checks, is no line to move onto either).
    # (print_beyond_cells, off here, refuses it too: the checks go on beyond the grid in the cells' colour)
    frame_bgr, truth = render_scene_set(random.Random(9494), 317)[316]
    assert truth["valid"]
    off = read_shaker(frame_bgr, settings=replace(OFF, print_cells=0, faceless_share=2.0, repeat_cells=False))
    assert off.valid and off.pattern != truth["pattern"]
    # (no square-steps read either: on a lattice of its own it reads the pattern right)
    reading = read_shaker(
        frame_bgr, settings=replace(DEFAULT_SETTINGS, print_cells=0, made_lattice=False, square_retry=False)
    )
    assert not reading.valid
    assert reading.reason.startswith("no pattern: a line of cubes beyond the grid")
    assert not read_shaker(frame_bgr, settings=replace(DEFAULT_SETTINGS, made_lattice=False, square_retry=False)).valid
    # that refusal stands on the checks' lattice; a lattice made at the cubes' pitch then reads the pattern
    made = read_shaker(frame_bgr)
    assert made.valid and made.pattern == truth["pattern"] and "made_lattice" in made.debug


def test_a_lattice_a_column_off_on_gingham_moves_onto_the_line_of_cubes_beyond():
    # generated set s3737 0493 (gingham, stray cubes about): the lattice settled a column off, its right column
    # three light checks read as white cubes (rings 0.09, 0.37, -0.21), the pattern's left column (blue, white,
    # black: rings 0.91, 0.74 and no outline on the black cube's dark check) just beyond. With the check off
    # (beyond_line_ring 0.0, as before) the wrong pattern is accepted; with it the grid moves onto the line of
    # cubes and reads the pattern.
    # (print_beyond_cells, off here, refuses the wrong reading too: white checks go on beyond the grid)
    frame_bgr, truth = render_scene_set(random.Random(3737), 494)[493]
    assert truth["valid"]
    now = read_shaker(frame_bgr)
    assert now.valid and now.pattern == truth["pattern"]
    # (the frame was chosen at the old finder's threshold; spotless_table_cells, off here, refuses the wrong reading
    # too: the right column's bottom check has no face at its point, d_table 21.9, and the re-read reads the pattern)
    off = read_shaker(
        frame_bgr,
        settings=replace(
            OLD_FINDER,
            beyond_line_ring=0.0,
            print_cells=0,
            faceless_share=2.0,
            spotless_table_delta_e=0.0,
            repeat_cells=False,
        ),
    )
    assert off.valid and off.pattern != truth["pattern"]
    reading = read_shaker(frame_bgr, settings=OLD_FINDER)
    assert reading.valid and reading.pattern == truth["pattern"]


def test_an_eight_cube_grid_is_not_moved_onto_a_line_beyond():
    # generated set s3131 0005 (gingham, a cube missing): the grid holds eight cubes, a line of light checks and
    # cubes' shadows just beyond its right side; moved onto it, nine "cubes" (an incomplete pattern accepted).
    # The grid moves only from nine cubes: the refusal stays.
    frame_bgr, truth = render_scene_set(random.Random(3131), 6)[5]
    assert not truth["valid"]
    assert not read_shaker(frame_bgr).valid
