"""The shaker reader's lattice a line off onto the cubes' cast shadows: a full line of cube-like points
beyond the settled grid while the grid's far line lies much nearer the table (vision.shaker_checks.nearer_the_table,
``beyond_table_gain``): the grid moves onto that line, or the reading is refused.

Frames are generated (vision.shaker_scene); each frame test also shows the reading with the setting at its old
value (0.0, off)."""

import random
from dataclasses import replace

import numpy as np

from vision.shaker import DEFAULT_SETTINGS, read_shaker
from vision.shaker_checks import full_lines_beyond, nearer_the_table
from vision.shaker_scene import render_scene_set

OFF = replace(DEFAULT_SETTINGS, beyond_table_gain=0.0, relattice=False)  # (the re-lattice reads these frames too)


def _tests(d_table: dict[tuple[int, int], float], default: float = 60.0) -> list[dict]:
    return [
        {"row": r, "col": c, "cube": True, "ring": 1.0, "outline": True, "d_table": d_table.get((r, c), default)}
        for r in range(3)
        for c in range(3)
    ]


LEFT = ((0, 0), (1, 0), (2, 0))
RIGHT = ((0, 2), (1, 2), (2, 2))


def test_full_lines_beyond_lists_each_side_with_three_cube_like_points_beyond():
    around = np.zeros((5, 5), bool)
    around[1:4, 1:4] = True
    assert full_lines_beyond(around) == []
    around[1:4, 4] = True  # a full column beyond the right side: the move right, leaving the left column out
    assert full_lines_beyond(around) == [((0, 1), LEFT, RIGHT)]
    around[1:4, 1] = False  # (whatever the grid's own cells)
    assert full_lines_beyond(around) == [((0, 1), LEFT, RIGHT)]
    around[1:3, 0] = True  # two points beyond the left side are no full line
    assert full_lines_beyond(around) == [((0, 1), LEFT, RIGHT)]


def test_nearer_the_table_needs_the_far_line_much_nearer_the_table_than_the_line_beyond():
    shadows = _tests({LEFT[0]: 6.5, LEFT[1]: 8.6, LEFT[2]: 6.1})  # sh50505 0366's far line (lit table, shadows)
    moved = _tests({RIGHT[0]: 64.5, RIGHT[1]: 64.1, RIGHT[2]: 58.4})  # the blue cubes beyond, the window moved
    assert nearer_the_table(shadows, LEFT, moved, RIGHT, DEFAULT_SETTINGS)
    assert not nearer_the_table(shadows, LEFT, moved, RIGHT, OFF)
    # a dark line of real cubes on a dark table beside a colourful line gains too little (sh4848 0064: 9.5, 29.4)
    dark = _tests({LEFT[0]: 9.5, LEFT[1]: 9.0, LEFT[2]: 12.0})
    beyond = _tests({RIGHT[0]: 29.4, RIGHT[1]: 31.0, RIGHT[2]: 25.0})
    assert not nearer_the_table(dark, LEFT, beyond, RIGHT, DEFAULT_SETTINGS)
    # the medians: one colourful cube in the far line, or one in the line beyond, changes nothing
    one = _tests({LEFT[0]: 70.0, LEFT[1]: 8.6, LEFT[2]: 6.1})
    assert nearer_the_table(one, LEFT, moved, RIGHT, DEFAULT_SETTINGS)
    lone = _tests({RIGHT[0]: 64.5, RIGHT[1]: 3.0, RIGHT[2]: 2.0})
    assert not nearer_the_table(shadows, LEFT, lone, RIGHT, DEFAULT_SETTINGS)
    # the usual case, a line of the cubes' shadows beyond the grid's colourful far line: no
    assert not nearer_the_table(moved, LEFT, shadows, RIGHT, DEFAULT_SETTINGS)


def test_a_lattice_a_column_off_on_the_shadows_moves_onto_the_column_beyond():
    # generated set sh50505 0366: light casts the cubes' hard shadows a pitch to the left; the lattice settled one
    # column off, holding lit table and shadow as a column of gray "cubes" with outlines (rings 0.41-0.55, above
    # lines_beyond's beyond_line_ring), the blue column left outside. Off (as before), only a shadow's corner seen
    # as a stray refused it; now the grid moves onto the blue column and the pattern is read.
    frame_bgr, truth = render_scene_set(random.Random(50505), 367)[366]
    assert truth["valid"]
    off = read_shaker(frame_bgr, settings=replace(OFF, made_lattice=False))  # (a made lattice reads it too)
    assert not off.valid
    assert [off.cubes[r * 3].colour for r in range(3)] == ["gray", "gray", "gray"]
    reading = read_shaker(frame_bgr)
    assert reading.valid
    assert reading.pattern == truth["pattern"]


def test_a_window_a_row_off_moves_with_one_cube_more_onto_an_outlined_row():
    # generated set sh9595 0368: the lattice settled a row below the pattern, its bottom row the table and the cubes'
    # shadows (one cell read empty: 8 cubes), the pattern's top row outside. best_window's look after the refit
    # moves it up, one cube more (nine) and the top row's outlines showing; with window_outlined_gain at its old
    # value (window_faces_gain: two more cubes needed) the window stays and the frame is refused.
    frame_bgr, truth = render_scene_set(random.Random(9595), 369)[368]
    assert truth["valid"]
    off = read_shaker(
        frame_bgr, settings=replace(DEFAULT_SETTINGS, window_outlined_gain=2, relattice=False, square_retry=False)
    )
    assert not off.valid
    assert off.reason == "8 cubes in the grid"
    reading = read_shaker(frame_bgr)
    assert reading.valid
    assert reading.pattern == truth["pattern"]


def test_a_row_of_the_table_left_in_the_window_moves_onto_the_row_beyond():
    # seed 7979's 15th scene (printed table): the lattice settled a row beside the pattern, its far row the table
    # (d_table near 0), a full row of cube-like points beyond. Without best_window's face look (window_faces off) the
    # move onto that row is beyond_table_gain's alone: off too, the frame is refused with 6 cubes.
    frame_bgr, truth = render_scene_set(random.Random(7979), 15)[14]
    assert truth["valid"]
    no_faces = replace(DEFAULT_SETTINGS, window_faces=False)
    # (one lattice per size: a size's second lattice, the pattern's window, reads it too)
    off = read_shaker(
        frame_bgr,
        settings=replace(
            no_faces,
            beyond_table_gain=0.0,
            lattices_per_size=1,
            relattice=False,
            made_lattice=False,
            square_retry=False,
        ),
    )
    assert not off.valid and off.reason == "6 cubes in the grid"
    reading = read_shaker(frame_bgr, settings=no_faces)
    assert reading.valid and reading.pattern == truth["pattern"]
