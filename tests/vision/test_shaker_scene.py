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


def test_a_fill_light_makes_the_cast_shadows_darker_and_tinted_and_leaves_the_rest_of_the_scene() -> None:
    # fill_light: the shadows lit by a second light of another colour (as the dev set's photoreal renders show them:
    # about as dark as a black cube, tinted). The scene's table, camera and cubes are drawn as without it.
    from vision.shaker_scene import random_pattern, render_shake, tinted_shade

    for seed in range(80001, 80005):
        (old_bgr, old), (new_bgr, new) = (
            render_shake(random_pattern(rng), rng, fill_light=fill)
            for fill, rng in ((False, random.Random(seed)), (True, random.Random(seed)))
        )
        assert new["scene"]["table"] == old["scene"]["table"] and new["grid_px"] == old["grid_px"]
        assert new["cells"] == old["cells"] and "fill_kelvin" not in old["scene"]
        assert 0.35 <= new["scene"]["shadow_strength"] <= 0.75 and 2700 <= new["scene"]["fill_kelvin"] <= 6500
        assert not np.array_equal(old_bgr, new_bgr)
    shaded = np.array([[0.0, 0.5, 1.0]], np.float32)
    tint = np.array([0.8, 1.0, 1.25], np.float32)  # (a warmer fill: less blue, more red)
    shade = tinted_shade(shaded, 0.7, tint)
    assert shade.shape == (1, 3, 3)
    assert np.allclose(shade[0, 0], 1.0)  # lit: untouched
    assert np.allclose(shade[0, 2], 0.3 * tint)  # full shadow: the fill alone, its colour
    assert np.allclose(shade[0, 1], 0.5 + 0.5 * 0.3 * tint)  # the penumbra between
