"""A busy table read again (vision.shaker.busy_table_reading): a gingham's checks lift the finder's threshold.

find_cubes keeps the points whose ring response passes ``response_noise_factor`` times the frame's mean edge
strength; a checked cloth's edges lift that above ``response_min``, and there the cubes' own size may go unfound:
the lattice is fitted to what was found (the checks, a few cubes) and the frame refused. Such a refused frame is
read again with a lower factor, and that reading stands when it is valid and its lattice is of another size than
the refused one's (the same lattice read again with more candidates could fill a knocked-out cube's cell).
"""

from __future__ import annotations

import random
from dataclasses import replace

import cv2
import pytest

from vision.colour import default_palette
from vision.shaker import DEFAULT_SETTINGS, busy_table_reading, edge_strength, read_shaker, table_difference
from vision.shaker_scene import random_pattern, render_shake

_OFF = replace(DEFAULT_SETTINGS, busy_retry_factor=0.0)
_SEED = 346  # (render_shake's seed of a complete pattern on gingham that the finder's first threshold misses)


@pytest.fixture(scope="module")
def gingham_shake():
    rng = random.Random(_SEED)
    frame_bgr, truth = render_shake(random_pattern(rng), rng)
    assert truth["valid"] and truth["scene"]["table"] == "gingham"
    return frame_bgr, truth


def _edge_mean(frame_bgr) -> float:
    lab = table_difference(frame_bgr, DEFAULT_SETTINGS)[2]
    return float(cv2.mean(edge_strength(lab, DEFAULT_SETTINGS))[0])


def test_a_busy_tables_cubes_missed_at_first_are_read_on_a_second_look(gingham_shake):
    frame_bgr, truth = gingham_shake
    # the checks lift the threshold: this is the frame the second look is for
    assert DEFAULT_SETTINGS.response_noise_factor * _edge_mean(frame_bgr) > DEFAULT_SETTINGS.response_min
    # (no square-steps read: it reads this frame right too)
    off = read_shaker(frame_bgr, default_palette(), settings=replace(_OFF, square_retry=False))
    assert not off.valid  # (the reader before: the lattice fitted to what the first threshold found)
    reading = read_shaker(frame_bgr, default_palette())
    assert reading.valid and reading.pattern == truth["pattern"]
    assert reading.debug["busy_retry"] == {"factor": DEFAULT_SETTINGS.busy_retry_factor, "first": off.reason}
    first_pitch, pitch = off.debug["grid"].pitch, reading.debug["grid"].pitch
    assert max(pitch / first_pitch, first_pitch / pitch) >= DEFAULT_SETTINGS.busy_retry_pitch_change


def test_the_second_look_does_not_overrule_a_refusal_of_the_same_lattice(gingham_shake):
    frame_bgr, _ = gingham_shake
    palette = default_palette()
    again = read_shaker(frame_bgr, palette)
    # a refusal on the lattice the second look reads (as a knocked-out cube's cell refused at first and filled by
    # the second look's candidates): the first reading stands
    first = replace(again, valid=False, pattern=None, reason="8 cubes in the grid", debug={"grid": again.debug["grid"]})
    assert busy_table_reading(frame_bgr, first, False, palette) is first
    # with no pitch test the second look's reading is taken
    anyway = replace(DEFAULT_SETTINGS, busy_retry_pitch_change=1.0)
    taken = busy_table_reading(frame_bgr, first, False, palette, settings=anyway)
    assert taken.valid and taken.pattern == again.pattern


def test_no_second_look_where_the_threshold_was_not_lifted(gingham_shake):
    frame_bgr, _ = gingham_shake
    palette = default_palette()
    off = read_shaker(frame_bgr, palette, settings=_OFF)
    assert busy_table_reading(frame_bgr, off, True, palette) is off  # (a plain table: the threshold response_min)
    assert busy_table_reading(frame_bgr, off, False, palette, settings=_OFF) is off
    assert busy_table_reading(frame_bgr, off, False, palette).valid
