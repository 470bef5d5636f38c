"""Board reader misreads besides parks: washed-out tiles under glare, unclear boards (issue 4).

Never reads ``../shared``: every print, calibration pair and photo is generated from a seed here.
"""

from __future__ import annotations

import random
from dataclasses import replace
from functools import cache

import numpy as np

from vision import board_reader as br
from vision.board_reader import BoardCalibration, calibrate_board, read_board
from vision.board_scene import random_scene, render_board_photo, render_calibration_pair

from .board_sets import set_photo

W, H = 800, 600


@cache
def calibration(seed: int, side: str) -> BoardCalibration:
    rng = random.Random(seed)
    scene = random_scene(rng, side=side)
    empty_bgr, known_bgr, known = render_calibration_pair(rng, scene=scene, width=W, height=H)
    return calibrate_board(empty_bgr, known_bgr, known["grid"], known["side"])


def test_a_cell_washed_towards_white_is_measured_against_each_look() -> None:
    cal = calibration(11, "inland")
    looks, c, m = cal.looks, cal.cell_px, cal.margin
    board_bgr = cal.known_bgr.copy()
    letters = "".join(cal.known_grid)
    i = letters.index("F")
    ys, xs = br._cell_slice(i // 6, i % 6, c, m)
    board_bgr[ys, xs] = (0.45 * board_bgr[ys, xs] + 0.55 * 255).astype(np.uint8)  # a lamp's reflection
    washed = br.glare_alpha(br.cell_means(board_bgr, c, m), looks)
    assert washed["F"][i] >= br.SETTINGS.glare_min
    assert all(washed[t][j] < br.SETTINGS.glare_min for j, t in enumerate(letters) if t != "." and j != i)


def _doubt_of_a_road_read_in_a_washed_cell(settings: br.ReaderSettings, **cell: float) -> float:
    """The confidence left to a cell read as a road on its colour, its road picture weak (dev photo 025:
    a factory under glare, washed to a road's gray, its own picture still matching a little better)."""
    ncc = {"R": cell.get("road_picture", 0.35), "F": cell.get("factory_picture", 0.41), "P": 0.12, ".": 0.14}
    dist = {"R": 1.4, "F": 4.5, "P": 4.3, ".": 6.5}
    washed = {t: np.array([cell.get("factory_washed", 0.3) if t == "F" else 0.0]) for t in ("R", "F", "P", ".")}
    structured = np.array([0.5])
    confidence = [0.7]
    return br._doubt(confidence, ["R"], ["R"], [dist], [ncc], structured, settings, None, washed)[0]


def test_a_tile_washed_out_by_glare_and_read_by_its_colour_is_asked_to_be_confirmed() -> None:
    """A reading of a weak picture in a cell washed towards white from a tile whose picture matches better
    loses ``glare_doubt``: dev photo 025's factory read as a road with confidence 0.70 is now flagged (fails
    with ``glare_doubt`` 0). Not where the cell is not washed from the better picture's tile, nor where the
    reading's own picture is clear, nor where the other picture is no better."""
    s = br.SETTINGS
    assert _doubt_of_a_road_read_in_a_washed_cell(s) < s.low_confidence
    assert _doubt_of_a_road_read_in_a_washed_cell(replace(s, glare_doubt=0.0)) >= s.low_confidence
    assert _doubt_of_a_road_read_in_a_washed_cell(s, factory_washed=0.0) >= s.low_confidence
    assert _doubt_of_a_road_read_in_a_washed_cell(s, road_picture=0.6, factory_picture=0.7) >= s.low_confidence
    assert _doubt_of_a_road_read_in_a_washed_cell(s, factory_picture=0.37) >= s.low_confidence


def test_a_reading_with_most_cells_unsure_is_refused_as_no_board() -> None:
    """Print 5222 (waterfront), photo 24 of its generated set: a table without the board, but a fragment
    of a board print shows at the frame's corner; its border matched well enough (0.53) and 23 of the 36
    cells it read were unsure. A reading with more than ``max_unsure_fraction`` of its cells unsure is
    refused (fails with ``max_unsure_fraction`` 1)."""
    seed, side, width, height = 5222, "waterfront", 1600, 1200
    rng = random.Random(seed)
    scene = random_scene(rng, side=side)
    empty_bgr, known_bgr, known = render_calibration_pair(rng, scene=scene, width=width, height=height)
    cal = calibrate_board(empty_bgr, known_bgr, known["grid"], known["side"])
    frame_bgr, truth = render_board_photo(
        None, random.Random(seed * 1000 + 24), scene=scene, width=width, height=height, board=False
    )
    assert truth["grid"] is None
    no_grid_check = replace(br.SETTINGS, min_grid_ratio=0.0)  # (which refuses this fragment too)
    off = read_board(frame_bgr, cal, replace(no_grid_check, max_unsure_fraction=1.0))
    assert off.found and len(off.low_confidence_cells) > 18
    on = read_board(frame_bgr, cal, no_grid_check)
    assert not on.found and "unsure" in (on.reason or "")
    assert not read_board(frame_bgr, cal).found


def _hard_photo_19(seed: int, side: str) -> tuple[BoardCalibration, np.ndarray, dict]:
    """Print ``seed``'s calibration (JPEG, as a phone gives it) and photo 19 of its generated set, at 1600 x
    1200 in hard light with north to the left (as ``make-board-set`` makes it)."""
    return set_photo(seed, side, 19)


def test_a_cell_area_off_the_cells_is_refused_not_misread() -> None:
    """Print 5222 (waterfront), photo 19 of its generated set (tilted, hard light): the border matched
    clearly (0.74) on a cell area whose north-east corner lay more than a cell off, and ten cells were
    read from the wrong places, five of them surely. The rectified cells' own grid is then weak against
    the known layout's: refused (fails with ``min_grid_ratio`` 0)."""
    cal, frame_bgr, truth = _hard_photo_19(5222, "waterfront")
    off = read_board(frame_bgr, cal, replace(br.SETTINGS, min_grid_ratio=0.0))
    assert off.found and off.grid != truth["grid"]
    on = read_board(frame_bgr, cal)
    assert not on.found and "lined up" in (on.reason or "")


def test_a_board_in_deep_shadow_found_only_by_climbing_is_read() -> None:
    """Print 803 (inland), photo 19 of its generated set (hard light): the board lies in a deep shadow; its cell area
    is found but the border matches only 0.41 there (below ``min_border_match``), 0.58 once its corners
    are climbed. A climb from below the threshold had to reach ``sure_border_match`` (0.65): the board was
    refused as "no board found". Tables without a board climbed to at most 0.48 in the dev set and the
    generated sets measured, so a climb to ``climb_to`` (0.55) now counts (fails with ``climb_to`` 0.65)."""
    cal, frame_bgr, truth = _hard_photo_19(803, "inland")
    assert not read_board(frame_bgr, cal, replace(br.SETTINGS, climb_to=0.65)).found
    reading = read_board(frame_bgr, cal)
    assert reading.found and reading.north == truth["north"] == "left"
    assert reading.grid == truth["grid"]
