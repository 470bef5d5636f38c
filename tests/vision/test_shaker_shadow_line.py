"""The shaker reader's lattice a line off onto the cubes' cast shadows on a patterned table: an outer line of the
settled grid whose three cells are far from every palette colour yet near the table, with cube-like points beyond
the opposite side (vision.shaker_checks.off_palette_lines, ``palette_line_delta_e``): refused, so the re-reads
find the real window. A gingham's checks in shadow fit no darkened table, so ``shadow_line_delta_e`` missed them.
Under a second lamp of another colour the shadows are tinted and lighter (``palette_line_delta_e`` 7.2), and one
point beyond looks like a cube (``palette_line_beyond`` 1): the lattice squashed a line off, the left-out line lies
off its points.

Frame tests use generated tuning frames (tests/vision/shaker_sets) and show the reading with the setting off
(inf) too."""

import math
from dataclasses import replace

import numpy as np

from vision.shaker import DEFAULT_SETTINGS, read_shaker
from vision.shaker_checks import off_palette_lines

from .shaker_sets import set_scene

OFF = replace(DEFAULT_SETTINGS, palette_line_delta_e=math.inf)
# (the check as it was before the fill-light frames: farther from the palette, cube-like points asked beyond)
BEYOND = replace(DEFAULT_SETTINGS, palette_line_delta_e=8.0, palette_line_beyond=2)
# (and the later face-found line beyond, beyond_face_offset, which reads t41013 0434 right on its own too)
BOTH_OFF = replace(OFF, beyond_face_offset=0.0)

LEFT = ((0, 0), (1, 0), (2, 0))
RIGHT = ((0, 2), (1, 2), (2, 2))


def _tests(cells: dict[tuple[int, int], tuple[float, float]]) -> list[dict]:
    """Cell tests of nine cubes; ``cells``: (d_palette, d_table) where not a plain cube's (2.0, 60.0)."""
    return [
        {"row": r, "col": c, "cube": True, "d_palette": cells.get((r, c), (2.0, 60.0))[0],
         "d_table": cells.get((r, c), (2.0, 60.0))[1]}
        for r in range(3)
        for c in range(3)
    ]  # fmt: skip


def test_off_palette_lines_needs_a_whole_outer_line_far_from_the_palette_and_near_the_table():
    # t41013 0434's right column: the cubes' shadows on a gingham read black, gray, black
    shadows = _tests({RIGHT[0]: (18.3, 15.8), RIGHT[1]: (10.9, 10.4), RIGHT[2]: (17.5, 15.0)})
    assert off_palette_lines(shadows, DEFAULT_SETTINGS) == [RIGHT]
    assert off_palette_lines(shadows, OFF) == []
    # one cell of the line near a palette colour: a line of cubes (a right reading's line near the table went up to
    # 6.8: t59003 0366, black cubes on a dark cloth)
    one = _tests({RIGHT[0]: (18.3, 15.8), RIGHT[1]: (6.8, 10.4), RIGHT[2]: (17.5, 15.0)})
    assert off_palette_lines(one, DEFAULT_SETTINGS) == []
    # a fill light's shadows, lighter (80006 0055: 7.6, 8.8, 8.7 from the palette, 8.4 ... 9.2 from the table)
    tinted = _tests({(2, 0): (7.6, 9.1), (2, 1): (8.8, 9.2), (2, 2): (8.7, 8.4)})
    assert off_palette_lines(tinted, DEFAULT_SETTINGS) == [((2, 0), (2, 1), (2, 2))]
    assert off_palette_lines(tinted, BEYOND) == []  # (farther from the palette, as before)
    # far from the palette but far from the table too: odd cubes, not shadows (left to the other checks)
    odd = _tests({LEFT[0]: (9.0, 70.0), LEFT[1]: (9.5, 64.0), LEFT[2]: (12.0, 66.0)})
    assert off_palette_lines(odd, DEFAULT_SETTINGS) == []
    # an inner line so is no line a window off
    inner = _tests({(0, 1): (18.3, 15.8), (1, 1): (10.9, 10.4), (2, 1): (17.5, 15.0)})
    assert off_palette_lines(inner, DEFAULT_SETTINGS) == []


def test_off_palette_lines_with_the_look_around_needs_cube_like_points_beyond_the_opposite_side():
    shadows = _tests({RIGHT[0]: (18.3, 15.8), RIGHT[1]: (10.9, 10.4), RIGHT[2]: (17.5, 15.0)})
    around = np.zeros((5, 5), bool)
    around[1:4, 1:4] = True
    # nothing beyond the left side (g_puzzle400c 417_06: a puzzle cube's white stickers, 13.4 from a pale white)
    assert off_palette_lines(shadows, DEFAULT_SETTINGS, around) == []
    around[1:4, 4] = True  # beyond the shadows' own side: not where a left-out line lies
    assert off_palette_lines(shadows, DEFAULT_SETTINGS, around) == []
    around[3, 0] = True  # one of three beyond the left side (80002 0120: the left-out line off the points)
    assert off_palette_lines(shadows, DEFAULT_SETTINGS, around) == [RIGHT]
    assert off_palette_lines(shadows, BEYOND, around) == []  # (two asked before)
    around[2, 0] = True  # two of three (t41013 0434: its black cube not counted)
    assert off_palette_lines(shadows, BEYOND, around) == [RIGHT]


def test_a_gingham_frame_with_the_lattice_on_the_cubes_shadows_is_read_right():
    # t41013 0434 (gingham, stray cubes): the lattice a column right, its right column the cubes' shadows, the
    # pattern's left column outside: read wrong before; refused there, the re-reads find the real window
    frame, truth = set_scene(41013, 434)
    assert truth["valid"]
    before = read_shaker(frame, settings=BOTH_OFF)
    assert before.valid and before.pattern != truth["pattern"]
    # (with only this check off, the pattern's left column is found by its faces beyond the lattice's left side, the
    # shadows' column near the table: that lattice doubted, and the re-lattice reads the pattern)
    faces = read_shaker(frame, settings=OFF)
    assert faces.valid and faces.pattern == truth["pattern"]
    assert faces.debug["relattice"]["refused"] == (
        "no pattern: a line of cubes beyond the grid, its far line near the table (the lattice a line off?)"
    )
    after = read_shaker(frame)
    assert after.valid and after.pattern == truth["pattern"]


def test_an_incomplete_gingham_pattern_on_the_cubes_shadows_is_refused():
    # t41008 0044 (gingham, a cube knocked out): accepted as nine on a lattice a column off before
    frame, truth = set_scene(41008, 44)
    assert not truth["valid"]
    assert read_shaker(frame, settings=OFF).valid
    after = read_shaker(frame)
    assert not after.valid
    assert "cubes' shadows" in after.reason


# the fill-light set 80002 (make-shaker-set --fill-light --seed 80002)
_FILL = {80002: 121}


def test_a_fill_light_frame_with_the_lattice_squashed_onto_the_cubes_shadows_is_read_right():
    # 80002 0120 (a light table, a second lamp at 4578 K, the shadows 0.67 of the light): the lattice a row down
    # and squashed, its bottom row the cubes' shadows read black (10.1 ... 10.5 from the palette), the top row left out
    # one of its three points like a cube. Read wrong before; refused now, the re-lattice reads the pattern
    frame, truth = set_scene(80002, 120, _FILL, fill_light=True)
    assert truth["valid"]
    before = read_shaker(frame, settings=BEYOND)
    assert before.valid and before.pattern != truth["pattern"]
    assert before.pattern[2] == ["black", "black", "black"]
    after = read_shaker(frame)
    assert after.valid and after.pattern == truth["pattern"]
    assert after.debug["relattice"]["refused"] == (
        "no pattern: a line of the cubes' shadows read as cubes, cubes beyond it (the lattice a line off)"
    )
