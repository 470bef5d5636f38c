"""Wrong readings the shaker reader accepted (issue 3: never misread a cube), each now refused.

Frames are generated (vision.shaker_scene); each test also shows the check failing with its setting at the
old value (off), so the refusal is the change's."""

import math
import random
from dataclasses import replace

import numpy as np

from vision.colour import default_palette
from vision.shaker import DEFAULT_SETTINGS, read_shaker
from vision.shaker_checks import box_contents, cells_on_an_edge, foreign_cells, shadow_lines
from vision.shaker_scene import render_scene_set

from .shaker_old_finder import OLD_FINDER
from .shaker_sets import set_scene, without_margin


def _tests(d_shadow: dict[tuple[int, int], float]) -> list[dict]:
    return [
        {"row": r, "col": c, "cube": True, "d_shadow": d_shadow.get((r, c), 40.0)} for r in range(3) for c in range(3)
    ]


def test_shadow_lines_needs_a_whole_outer_line_and_cubes_beyond_it():
    left = {(0, 0): 1.3, (1, 0): 1.4, (2, 0): 1.4}
    tests = _tests(left)
    assert shadow_lines(tests, DEFAULT_SETTINGS) == [((0, 0), (1, 0), (2, 0))]
    around = np.zeros((5, 5), bool)
    assert shadow_lines(tests, DEFAULT_SETTINGS, around) == []  # nothing beyond the right side: a gray line
    around[2, 4] = True  # a cube just beyond the grid's right side: the line the lattice left out
    assert shadow_lines(tests, DEFAULT_SETTINGS, around) == [((0, 0), (1, 0), (2, 0))]
    around_left = np.zeros((5, 5), bool)
    around_left[2, 0] = True  # (beyond the left side, the shadow line's own: no)
    assert shadow_lines(tests, DEFAULT_SETTINGS, around_left) == []
    # two cells of the line, or the middle column, are not a line off
    assert shadow_lines(_tests({(0, 0): 1.3, (1, 0): 1.4}), DEFAULT_SETTINGS) == []
    assert shadow_lines(_tests({(0, 1): 1.3, (1, 1): 1.4, (2, 1): 1.4}), DEFAULT_SETTINGS) == []
    # a line of cells farther from the table in any shade (gray cubes on a gray table, 3.2 and up measured)
    assert shadow_lines(_tests({(0, 0): 3.2, (1, 0): 1.7, (2, 0): 2.3}), DEFAULT_SETTINGS) == []
    # a cell not taken for a cube is no part of such a line
    tests = _tests(left)
    tests[3]["cube"] = False
    assert shadow_lines(tests, DEFAULT_SETTINGS) == []
    assert shadow_lines(_tests(left), replace(DEFAULT_SETTINGS, shadow_line_delta_e=0.0)) == []


def test_a_lattice_a_column_off_on_the_cubes_cast_shadows_is_refused():
    # generated set s6464 0115: light from the side casts the cubes' crisp shadows a pitch beside them; the
    # lattice settled one column off, holding the shadows as a column of gray cubes (d_shadow 0.66-2.05) and
    # leaving the pattern's last column outside (its gray cube not counted by best_window, so no tie to see).
    # With the check off (shadow_line_delta_e 0.0, as before) the wrong pattern is accepted.
    frame_bgr, truth = render_scene_set(random.Random(6464), 116)[115]
    assert truth["valid"]
    off = read_shaker(frame_bgr, settings=replace(DEFAULT_SETTINGS, shadow_line_delta_e=0.0))
    assert off.valid and off.pattern != truth["pattern"]
    assert [row[0] for row in off.pattern] == ["gray", "gray", "gray"]
    # (made_plain_table_cells off: the refusal as the check gave it)
    reading = read_shaker(frame_bgr, settings=replace(DEFAULT_SETTINGS, made_plain_table_cells=0))
    assert not reading.valid
    assert reading.reason.startswith("no pattern: a line of the table in shadow read as cubes")
    # with it the refused reading is read again on a made lattice at about its pitch, which holds the pattern and its
    # gray cubes on the light table: the pattern read right
    again = read_shaker(frame_bgr)
    assert again.valid and again.pattern == truth["pattern"]
    assert again.debug["made_lattice"]["refused"].startswith("no pattern: a line of the table in shadow read as cubes")


def test_a_cube_knocked_out_beside_a_cell_of_the_tables_colour_is_refused():
    # generated incomplete-only set (incomplete_share 1.0) seed 7171, scene 0099: printed table, the cube of cell
    # (0, 1) knocked a pitch out; its empty cell, outlined by the print (ring 0.03, d_table 9.8), was read as a gray
    # cube and the knocked cube, nearer its old cell than any other, went unseen (knocked_beside_weak_cells asks
    # for no outline at all). With the check off (knocked_near_table 0.0, as before) the pattern is accepted.
    frame_bgr, truth = render_scene_set(random.Random(7171), 100, incomplete_share=1.0)[99]
    assert not truth["valid"] and truth["knocked_out"] == [0, 1]
    off = read_shaker(frame_bgr, settings=replace(DEFAULT_SETTINGS, knocked_near_table=0.0))
    assert off.valid
    reading = read_shaker(frame_bgr)
    assert not reading.valid and reading.reason == "a cube is out of line (beside a cell of about the table's colour)"


def test_foreign_cells_are_far_from_the_palette_and_like_a_gap():
    tests = [{"row": r, "col": c, "cube": True, "d_palette": 3.0, "d_gap": 30.0} for r in range(3) for c in range(3)]
    assert foreign_cells(tests, DEFAULT_SETTINGS) == []
    tests[4].update(d_palette=20.8, d_gap=0.6)
    assert foreign_cells(tests, DEFAULT_SETTINGS) == [(1, 1)]
    tests[4].update(d_gap=40.0)  # far from the palette yet apart from its gaps: a cube in odd light, kept
    assert foreign_cells(tests, DEFAULT_SETTINGS) == []
    tests[4].update(d_palette=12.8, d_gap=0.6)  # a real cube like its gap (a gray on gray): kept
    assert foreign_cells(tests, DEFAULT_SETTINGS) == []
    tests[4].update(d_palette=20.8, d_gap=0.6)
    assert foreign_cells(tests, replace(DEFAULT_SETTINGS, foreign_delta_e=0.0)) == []


def test_foreign_cells_ask_only_where_the_grids_gaps_show():
    # stickers with tight gaps: every cell is like its gaps, so one like its gap and off the palette is no hand
    tests = [{"row": r, "col": c, "cube": True, "d_palette": 3.0, "d_gap": 2.0} for r in range(3) for c in range(3)]
    tests[2].update(d_palette=22.0, d_gap=1.8)
    assert foreign_cells(tests, DEFAULT_SETTINGS) == []
    assert foreign_cells(tests, replace(DEFAULT_SETTINGS, foreign_needs_gaps=False)) == [(0, 2)]
    # the other cubes apart from their gaps (their median at foreign_gap): the grid's gaps show, the cell is taken
    for t in tests[3:8]:
        t["d_gap"] = DEFAULT_SETTINGS.foreign_gap
    assert foreign_cells(tests, DEFAULT_SETTINGS) == [(0, 2)]
    # every cell off the palette and like its gaps: nothing to tell a hand by
    for t in tests:
        t.update(d_palette=20.0, d_gap=1.0)
    assert foreign_cells(tests, DEFAULT_SETTINGS) == []


def test_a_hand_over_the_grid_is_not_read_as_gray_cubes():
    # generated set s6363 0099: a hand lies across the grid's bottom left; three cells of skin (20.8 from every
    # palette colour, 0.3-3.9 from a gap beside them) were read as gray cubes (confidence 0.66) and the wrong
    # pattern accepted before foreign_cells. How many of the three the cell test already refuses differs between
    # machines (the same code and packages; OpenCV picks its SIMD paths by the CPU): none on the machine the case
    # was found on, where the reading with the check off was that wrong pattern; one, its outline the weakest, on
    # an AVX2 machine on 2026-12-02. The check takes each one the cell test passes, and the pattern is refused on
    # both. (The generator keeps hands clear of the grid now: clear_of_cubes=False draws the hand where it fell,
    # across the cubes.)
    frame_bgr, truth = render_scene_set(random.Random(6363), 100, clear_of_cubes=False)[99]
    assert truth["valid"]
    off = read_shaker(frame_bgr, settings=replace(DEFAULT_SETTINGS, foreign_delta_e=0.0, faceless_share=2.0))
    skin = [(t["row"], t["col"]) for t in off.debug["cell_tests"] if t["d_palette"] >= 20.0]
    assert skin == [(1, 0), (2, 0), (2, 1)]
    passed = [(t["row"], t["col"]) for t in off.debug["cell_tests"] if t["cube"] and t["d_palette"] >= 20.0]
    assert len(passed) >= 2 and foreign_cells(off.debug["cell_tests"], DEFAULT_SETTINGS) == passed
    # (the skin's cells sit at 0.66 confidence: under the game palette's min_confidence, 0.667, they are unclear
    # first; at the reader's own 0.6, foreign_cells refuses them)
    game = default_palette()
    reading = read_shaker(frame_bgr, without_margin(game))
    assert not reading.valid and reading.reason.endswith("cubes in the grid")
    assert not read_shaker(frame_bgr, game).valid


def test_a_hand_of_about_a_palette_colour_is_not_read_as_gray_cubes():
    # generated set s8383 0109: a hand over the grid's left side, three cells of skin 13.9-14.2 from every palette
    # colour and 0.0-1.5 from a gap beside them, read as gray cubes; accepted with foreign_delta_e 16, refused at 14
    frame_bgr, truth = render_scene_set(random.Random(8383), 110, clear_of_cubes=False)[109]  # (the hand across)
    assert truth["valid"]
    # (print_beyond_cells, off here, refuses it too: the skin's colour goes on beyond the grid)
    old = read_shaker(
        frame_bgr, settings=replace(DEFAULT_SETTINGS, foreign_delta_e=16.0, print_cells=0, faceless_share=2.0)
    )
    assert old.valid and old.pattern != truth["pattern"]
    reading = read_shaker(frame_bgr, settings=replace(DEFAULT_SETTINGS, print_cells=0))
    assert not reading.valid and reading.reason.endswith("cubes in the grid")
    assert not read_shaker(frame_bgr).valid


def test_box_contents_are_the_games_cubes():
    box = box_contents()
    assert box["black"] == 6 and box["red"] == 8 and box["white"] == 8
    assert set(box) == {"red", "blue", "black", "green", "gray", "white"}


def test_no_reading_shows_more_cubes_of_a_colour_than_the_box_holds():
    # generated set s5353 0194: on a gingham cloth the reader, refused at first ("8 cubes in the grid"), retried
    # without that size and took the cloth's dark checks for eight black cubes; the box holds six black. With the
    # limit off (box_limits False, as before) that reading is accepted.
    frame_bgr, truth = render_scene_set(random.Random(5353), 195)[194]
    assert truth["valid"]
    # (print_beyond_cells, off here, refuses it too: the dark checks go on beyond the grid)
    now = read_shaker(frame_bgr)
    assert not now.valid or now.pattern == truth["pattern"]
    # (the frame was chosen at the old finder's threshold)
    off = read_shaker(frame_bgr, settings=replace(OLD_FINDER, box_limits=False, print_cells=0, repeat_cells=False))
    assert off.valid and sum(row.count("black") for row in off.pattern) > 6
    reading = read_shaker(frame_bgr, settings=OLD_FINDER)
    assert not reading.valid


def test_a_cast_shadow_beyond_the_grid_is_no_knocked_cube():
    # generated set s6363 0255: light table, gray cubes of about its colour; the cubes' crisp cast shadows lie a
    # pitch beyond the grid, cube-shaped and standing out from the table (contrast 11), nearest a gray cube's
    # cell. The table under them darkened explains them (0.8), so they are no knocked cube and the pattern is
    # read; with knocked_shadow_delta_e 0.0 (no such test) it was refused as a cube out of line. (The table tinted
    # as the frame's own shadows explains them too, knocked_tint_delta_e: off with it.)
    frame_bgr, truth = render_scene_set(random.Random(6363), 256)[255]
    assert truth["valid"]
    reading = read_shaker(frame_bgr)
    assert reading.valid and reading.pattern == truth["pattern"]
    off = read_shaker(
        frame_bgr, settings=replace(DEFAULT_SETTINGS, knocked_shadow_delta_e=0.0, knocked_tint_delta_e=0.0)
    )
    assert not off.valid and off.reason == "a cube is out of line (beside a cell of about the table's colour)"


def test_a_cube_knocked_out_of_a_gingham_checks_cell_is_refused():
    # generated set s6363 0096: gingham; the cube of cell (2, 0) knocked a pitch out, its cell showing a white
    # check lighter than the table's blend (shadow fit factor 1.15, d_table 29: not of "about the table's colour")
    # with a weak outline (ring 0.34), read as a cube; the knocked cube beyond stands out at contrast 3.5. With
    # the light cells left out (knocked_light_shade inf, as before) the pattern is accepted.
    frame_bgr, truth = render_scene_set(random.Random(6363), 97)[96]
    assert not truth["valid"] and truth["knocked_out"] == [2, 0]
    off = read_shaker(
        frame_bgr,
        settings=replace(DEFAULT_SETTINGS, knocked_light_shade=float("inf"), faceless_share=2.0, repeat_cells=False),
    )
    assert off.valid
    reading = read_shaker(frame_bgr)
    assert not reading.valid and reading.reason == "a cube is out of line (beside a cell of about the table's colour)"


def test_a_cell_of_the_tables_colour_with_its_face_off_the_cell_is_on_an_edge():
    tests = [{"row": r, "col": c, "cube": True, "d_table": 40.0, "offset": 0.05} for r in range(3) for c in range(3)]
    assert cells_on_an_edge(tests, DEFAULT_SETTINGS) == []
    tests[2].update(d_table=1.3, offset=0.27)  # the table beside a cube, its "face" the table running off
    assert cells_on_an_edge(tests, DEFAULT_SETTINGS) == [(0, 2)]
    tests[2].update(offset=0.1)  # a white cube on a white table: its face at its cell, kept
    assert cells_on_an_edge(tests, DEFAULT_SETTINGS) == []
    tests[2].update(d_table=7.0, offset=0.27)  # its own colour, off the cell (max_offset's business): kept here
    assert cells_on_an_edge(tests, DEFAULT_SETTINGS) == []
    tests[2].update(d_table=1.3, cube=False)  # no cube taken there: nothing to doubt
    assert cells_on_an_edge(tests, DEFAULT_SETTINGS) == []
    tests[2].update(cube=True)
    assert cells_on_an_edge(tests, replace(DEFAULT_SETTINGS, table_face_max_offset=math.inf)) == []


def test_a_cell_sampled_on_the_table_beside_its_cube_is_not_named():
    # s45002 0124 (`shakecity make-shaker-set D --n 500 --seed 45002`): a pale blue plain table, the lattice off the
    # cubes at its top right corner. That cell's sample is the table beside a gray cube (d_table 1.3) and was read as
    # a white cube, outlined by the cube's edge; its "face", the table running off, lies 0.27 pitches from the cell
    frame_bgr, truth = set_scene(45002, 124)
    assert truth["valid"] and truth["pattern"][0][2] == "gray"
    before = read_shaker(frame_bgr, settings=replace(DEFAULT_SETTINGS, table_face_max_offset=math.inf))
    assert before.valid and before.pattern[0][2] == "white"  # (the misread: every other cube right)
    others = [(r, c) for r in range(3) for c in range(3) if (r, c) != (0, 2)]
    assert all(before.pattern[r][c] == truth["pattern"][r][c] for r, c in others)
    reading = read_shaker(frame_bgr)
    assert not reading.valid and reading.reason == "the colour of the cube at row 1, column 3 is unclear"


def test_a_cell_sampled_beside_a_cube_is_unclear_only_where_no_other_check_says_more():
    # s45003 0316 (`shakecity make-shaker-set D --n 500 --seed 45003`): the top right cube knocked out of its cell on
    # a plain dark table. Its empty cell, sampled on the table beside its neighbour, is on an edge (read black at a
    # tie), but the reason the players see is the knocked-out cube's: vision.shaker_checks.on_an_edge's "unclear" is
    # given only where no other check refused (before session 51 its outlined case came first: "unclear" here)
    frame_bgr, truth = set_scene(45003, 316)
    assert not truth["valid"] and truth["knocked_out"] == [0, 2]
    reading = read_shaker(frame_bgr)
    assert not reading.valid and reading.reason == "a cube is out of line (beside a cell with no outline of its own)"
    assert cells_on_an_edge(reading.debug["cell_tests"], DEFAULT_SETTINGS) == [(0, 2)]
    top_right = reading.cubes[2]
    assert (top_right.row, top_right.col) == (0, 2) and top_right.confidence < DEFAULT_SETTINGS.min_confidence
