"""Photos of a generated board set, exactly as ``shakecity make-board-set`` makes them (1600 x 1200, the
calibration pair as JPEG quality 90, the photos 92), for tests that pin a case measured on such a set."""

from __future__ import annotations

import random
from functools import cache

import cv2
import numpy as np

from vision.board_reader import BoardCalibration, calibrate_board
from vision.board_scene import Scene, random_scene, render_board_photo, render_calibration_pair

NORTHS = ("up", "right", "down", "left")  # photo i faces NORTHS[i % 4]; every fifth (i % 5 == 4) is hard
WIDTH, HEIGHT = 1600, 1200


def jpeg(image_bgr: np.ndarray, quality: int) -> np.ndarray:
    return cv2.imdecode(cv2.imencode(".jpg", image_bgr, [cv2.IMWRITE_JPEG_QUALITY, quality])[1], cv2.IMREAD_COLOR)


@cache
def set_calibration(seed: int, side: str) -> tuple[BoardCalibration, Scene]:
    """Print ``seed``'s calibration (from its JPEG pair) and its scene (print, table, light)."""
    rng = random.Random(seed)
    scene = random_scene(rng, side=side)
    empty_bgr, known_bgr, known = render_calibration_pair(rng, scene=scene, width=WIDTH, height=HEIGHT)
    return calibrate_board(jpeg(empty_bgr, 90), jpeg(known_bgr, 90), known["grid"], known["side"]), scene


def set_photo(seed: int, side: str, i: int) -> tuple[BoardCalibration, np.ndarray, dict]:
    """Print ``seed``'s calibration and photo ``i`` of its generated set, with the photo's truth."""
    cal, scene = set_calibration(seed, side)
    frame_bgr, truth = render_board_photo(
        None,
        random.Random(seed * 1000 + i),
        scene=scene,
        north=NORTHS[i % 4],
        width=WIDTH,
        height=HEIGHT,
        hard=i % 5 == 4,
    )
    return cal, jpeg(frame_bgr, 92), truth
