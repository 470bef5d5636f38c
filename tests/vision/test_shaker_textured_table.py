"""The shaker reader on a busy table: a gingham's checks raise the finder's threshold (``response_noise_factor``
times the frame's mean edge strength), which must still let most of the cubes through.

Frames are generated (vision.shaker_scene); each test also shows the reading with the setting at its old
value (1.5)."""

import random
from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision.shaker import DEFAULT_SETTINGS, find_cubes, read_shaker
from vision.shaker_scene import render_scene_set

from .shaker_old_finder import OLD_FINDER


def _cubes_found(frame_bgr: np.ndarray, truth: dict, settings) -> int:
    """The most true cube centres one size's candidates lie near (within 0.3 of a pitch)."""
    corners = np.array(truth["grid_px"], np.float32)
    to_frame = cv2.getPerspectiveTransform(np.float32([[0, 0], [3, 0], [3, 3], [0, 3]]), corners)
    unit = np.float32([[[c + 0.5, r + 0.5] for r in range(3) for c in range(3)]])
    centres = cv2.perspectiveTransform(unit, to_frame)[0]
    pitch = float(np.linalg.norm(corners[1] - corners[0])) / 3
    best = 0
    for cands in find_cubes(frame_bgr, settings):
        if len(cands.xy):
            near = np.linalg.norm(cands.xy[:, None, :] - centres[None], axis=2).min(0) / pitch < 0.3
            best = max(best, int(near.sum()))
    return best


@pytest.mark.parametrize(
    ("seed", "index", "before"),
    [
        (61616, 1, "8 cubes in the grid"),  # generated set sh61616 0001
        (61616, 11, "7 cubes in the grid"),  # sh61616 0011
        (72727, 15, "8 cubes in the grid"),  # sh72727 0015
    ],
)
def test_a_pattern_on_gingham_is_found_and_read(seed: int, index: int, before: str) -> None:
    frame_bgr, truth = render_scene_set(random.Random(seed), index + 1)[index]
    assert truth["valid"] and truth["scene"]["table"] == "gingham"
    assert _cubes_found(frame_bgr, truth, DEFAULT_SETTINGS) > _cubes_found(frame_bgr, truth, OLD_FINDER)
    # (the re-lattice, the made lattice and the square-steps read read some too)
    off = read_shaker(frame_bgr, settings=replace(OLD_FINDER, relattice=False, made_lattice=False, square_retry=False))
    assert not off.valid and off.reason == before
    reading = read_shaker(frame_bgr)
    assert reading.valid
    assert reading.pattern == truth["pattern"]
