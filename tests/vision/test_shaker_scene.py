"""The scene generator's clutter: a hand or the box edge lies elsewhere in the frame, clear of the cubes.

Issue 3's scenes have "the shaker box, cards or a hand elsewhere in the frame"; a frame whose cubes a finger covers
is not a complete pattern in view (live mode waits until nothing covers it). The generator drew the hand and the box
edge where they fell, over the grid too, and labelled such frames complete: a reader refusing them counted a false
refusal. It now pushes them clear (``clear_of_cubes``, on by default); off, the frames are the old ones.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from vision.shaker import read_shaker
from vision.shaker_scene import render_scene_set

# generated sets s6363 0099 and s8383 0109: a hand across the grid's cells (each the frame of a test in
# test_shaker_wrong_reading.py, drawn there with clear_of_cubes=False)
HANDS_OVER_THE_GRID = ((6363, 99), (8383, 109))


@pytest.mark.parametrize(("seed", "index"), HANDS_OVER_THE_GRID)
def test_a_hand_is_drawn_clear_of_the_cubes(seed: int, index: int) -> None:
    frame_bgr, truth = render_scene_set(random.Random(seed), index + 1)[index]
    old_bgr, old_truth = render_scene_set(random.Random(seed), index + 1, clear_of_cubes=False)[index]
    assert truth["valid"] and "hand" in truth["scene"]["distractors"]
    assert truth == old_truth  # the same scene, the hand moved
    assert not read_shaker(old_bgr).valid  # a finger over the cells: refused
    moved = (frame_bgr != old_bgr).any(axis=2)
    assert 0.05 < moved.mean() < 0.6  # (the hand, drawn elsewhere)
    reading = read_shaker(frame_bgr)
    assert reading.valid and reading.pattern == truth["pattern"]


def test_frames_without_a_hand_near_the_grid_are_unchanged() -> None:
    # the hand and the box are only moved when they would cover the grid: the other frames (and the generator's
    # random draws, so every later frame) stay as they were
    new = render_scene_set(random.Random(6363), 12)
    old = render_scene_set(random.Random(6363), 12, clear_of_cubes=False)
    same = [np.array_equal(a, b) for (a, _), (b, _) in zip(new, old, strict=True)]
    assert sum(same) >= 10
    assert [t for _, t in new] == [t for _, t in old]
