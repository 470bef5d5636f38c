"""Complete patterns refused at the lattice level (the lattice fitted at the wrong pitch or a line off), now read.

Frames are generated (vision.shaker_scene); each test also shows the reading with its setting at the old value,
so the change is the setting's."""

import random
from dataclasses import replace

from vision.shaker import DEFAULT_SETTINGS, read_shaker
from vision.shaker_scene import render_scene_set

from .shaker_old_finder import OLD_FINDER


def test_a_sizes_second_lattice_reads_the_pattern_the_best_one_held_a_line_off():
    # generated set sh61616 0022 (gingham): the lattice chosen settles a row off the pattern (7 cubes: refused);
    # the pattern's own window is the second or third lattice of three sizes, not their best: one of them, read
    # as an alternative, settles to nine cubes (two more), wins and reads the pattern. With one lattice per size
    # (as before) the frame is refused.
    frame_bgr, truth = render_scene_set(random.Random(61616), 23)[22]
    assert truth["valid"]
    now = read_shaker(frame_bgr)
    assert now.valid and now.pattern == truth["pattern"]
    # (the frame was chosen at the old finder's threshold)
    # (made_lattice off: a lattice made at the cubes' pitch reads it too)
    # (nor a square-steps read: it reads it too)
    one = replace(OLD_FINDER, lattices_per_size=1, made_lattice=False, square_retry=False)
    before = read_shaker(frame_bgr, settings=one)
    assert not before.valid and before.reason.endswith("cubes in the grid")
    reading = read_shaker(frame_bgr, settings=OLD_FINDER)
    assert reading.valid and reading.pattern == truth["pattern"]
    assert reading.debug["lattice_choice"]["cubes"][1] == 9


def test_an_alternative_lattice_short_of_nine_cubes_does_not_replace_the_refused_one():
    # generated set s5151 0002: the best lattice (5 cubes) is refused, and read again without its size (a finer
    # lattice than the cubes: the retry) the pattern is read. An alternative lattice settling to 7 cubes would take
    # its place and, the retry asked of the alternative's coarser lattice, leave the frame refused: an
    # alternative wins only when it settles to nine cubes (alternative_settled_gain; 0, any gain: as before).
    frame_bgr, truth = render_scene_set(random.Random(5151), 3)[2]
    assert truth["valid"]
    # (made_lattice and square_retry off: a lattice made at the cubes' pitch reads it too, and a square-steps read)
    off = replace(DEFAULT_SETTINGS, alternative_settled_gain=0, made_lattice=False, square_retry=False)
    before = read_shaker(frame_bgr, settings=off)
    assert not before.valid and before.debug["lattice_choice"]["cubes"] == [5, 7]
    reading = read_shaker(frame_bgr)
    assert reading.valid and reading.pattern == truth["pattern"]
    assert "retried_without_size" in reading.debug
