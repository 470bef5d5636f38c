"""Board reader: roads in a cast shadow read as factories, plain empty cells read as parks (issue 4).

Never reads ``../shared``: prints, calibration pairs and photos are generated here, as ``make-board-set``
draws them: seed 7456 (waterfront) photo 022, a big cast shadow over the board's north-east corner, where
the outline found the corner about half a cell inside the cells and two roads read as factories; seed 7482
(waterfront) photo 016, a print whose plain empty cells are a park's green, two of them read as parks.
"""

from __future__ import annotations

import random
from dataclasses import replace
from functools import cache

import cv2
import numpy as np

from vision import board_reader as br
from vision.board_reader import BoardCalibration, calibrate_board, read_board
from vision.board_scene import random_scene, render_board_photo, render_calibration_pair

W, H = 1600, 1200
PLAIN_ON = 6.0  # plain_fine_weight as measured (eval-board figures in the commit message)


def _jpeg(image: np.ndarray, quality: int) -> np.ndarray:
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return cv2.imdecode(data, cv2.IMREAD_COLOR)


@cache
def _set(seed: int = 7456, side: str = "waterfront", photo: int = 22) -> tuple[BoardCalibration, np.ndarray, dict]:
    """The calibration and photo ``photo`` of ``make-board-set --seed seed --side side``."""
    rng = random.Random(seed)
    scene = random_scene(rng, side=side)
    empty_bgr, known_bgr, known = render_calibration_pair(rng, scene=scene, width=W, height=H)
    cal = calibrate_board(_jpeg(empty_bgr, 90), _jpeg(known_bgr, 90), known["grid"], known["side"])
    photo_rng = random.Random(seed * 1000 + photo)
    frame, truth = render_board_photo(
        None, photo_rng, scene=scene, north=br.NORTHS[photo % 4], width=W, height=H, hard=photo % 5 == 4
    )
    return cal, _jpeg(frame, 92), truth


def _corner_error(reading: br.BoardReading, truth: dict) -> float:
    """Largest distance (cells) of the read cell area's corners from the true ones."""
    read = np.array(reading.outline, dtype=np.float64)
    true = np.array(truth["corners"], dtype=np.float64)
    cell = float(np.linalg.norm(true[1] - true[0])) / br.SIZE
    return float(np.linalg.norm(read - true, axis=1).max()) / cell


def test_a_corner_in_a_cast_shadow_that_the_outline_missed_is_found_by_the_border() -> None:
    """ECC on the border moves the missed corner most of a cell (more than ``max_refine_move``): that
    refinement is tried as a rival, refined on the cells' own grid and kept for its clearly better grid
    support (by ``rival_grid_gain``). Fails with ``rival_refine_move`` 0: the corner stays off and two roads
    read as factories."""
    cal, frame, truth = _set()
    reading = read_board(frame, cal)
    assert reading.found and reading.north == truth["north"]
    assert reading.grid == truth["grid"]
    assert _corner_error(reading, truth) < 0.2

    off = read_board(frame, cal, replace(br.SETTINGS, rival_refine_move=0.0))
    assert off.found and off.grid != truth["grid"]
    assert _corner_error(off, truth) > 0.3
    # kept only on rival_grid_gain more grid support: demanding far more, the first refinement stands
    strict = read_board(frame, cal, replace(br.SETTINGS, rival_grid_gain=0.2))
    assert _corner_error(strict, truth) > 0.3


def test_a_plain_cell_in_a_parks_green_is_read_empty() -> None:
    """A cell with hardly any fine structure (below ``plain_fine_from``, light undone) shows no tile's
    picture: it is brought ``plain_fine_weight`` nearer empty. Fails with ``plain_fine_weight`` 0: two plain
    empty cells of this green print read as parks. (Off by default for now: ``PLAIN_ON`` is the value
    measured.)"""
    cal, frame, truth = _set(7482, "waterfront", 16)
    reading = read_board(frame, cal, replace(br.SETTINGS, plain_fine_weight=PLAIN_ON))
    assert reading.found and reading.grid == truth["grid"]

    off = read_board(frame, cal, replace(br.SETTINGS, plain_fine_weight=0.0))
    wrong = [(r, c) for r in range(6) for c in range(6) if off.grid[r][c] != truth["grid"][r][c]]
    assert wrong and all(truth["grid"][r][c] == "." and off.grid[r][c] == "P" for r, c in wrong)
