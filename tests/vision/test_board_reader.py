"""The board reader on photos made by the project's own generator (``vision.board_scene``).

Never reads ``../shared``: every print, calibration pair and photo is generated from a seed here.
The accuracy test measures a set across prints, both sides, every north, tilts up to 35 degrees,
glare, shadows and clutter, and asserts the figures the reader reaches today (see the docstring).
"""

from __future__ import annotations

import json
import random
import time
from dataclasses import replace
from functools import cache

import cv2
import numpy as np
import pytest

from vision import board_reader as br
from vision.board_reader import BoardCalibration, BoardReading, calibrate_board, read_board
from vision.board_scene import (
    KNOWN_LAYOUT,
    NORTHS,
    random_grid,
    random_print_style,
    random_scene,
    render_board_photo,
    render_calibration_pair,
)
from vision.errors import CalibrationError, ImageReadError

W, H = 800, 600


@cache
def scene_and_calibration(seed: int, side: str) -> tuple[object, BoardCalibration]:
    """One board print under one set-up, and its calibration (cached for the whole session)."""
    rng = random.Random(seed)
    scene = random_scene(rng, side=side)
    empty_bgr, known_bgr, known = render_calibration_pair(rng, scene=scene, width=W, height=H)
    return scene, calibrate_board(empty_bgr, known_bgr, known["grid"], known["side"])


@cache
def board_photo(seed: int, side: str, photo_seed: int, north: str, hard: bool = False) -> tuple[np.ndarray, dict]:
    scene, _ = scene_and_calibration(seed, side)
    return render_board_photo(None, random.Random(photo_seed), scene=scene, north=north, width=W, height=H, hard=hard)


# ----------------------------------------------------------------------------------- generator


def test_generator_is_seeded_and_varies_the_print() -> None:
    a, truth_a = render_board_photo(None, random.Random(3), width=320, height=240)
    b, truth_b = render_board_photo(None, random.Random(3), width=320, height=240)
    c, _ = render_board_photo(None, random.Random(4), width=320, height=240)
    assert np.array_equal(a, b) and truth_a == truth_b
    assert not np.array_equal(a, c)
    styles = [random_print_style(random.Random(s)) for s in range(6)]
    assert len({s.zone_bgr for s in styles}) == 6
    assert len({round(s.border_cells, 2) for s in styles}) == 6
    assert {s.bonus_shape for s in styles} > {"semicircle"} or len({s.bonus_shape for s in styles}) > 1


def test_generator_truth_names_the_grid_north_and_cell_corners() -> None:
    grid = random_grid(random.Random(1), construction=2)
    frame_bgr, truth = render_board_photo(
        grid, random.Random(2), north="left", side="waterfront", width=640, height=480
    )
    assert frame_bgr.shape == (480, 640, 3) and frame_bgr.dtype == np.uint8
    assert truth["grid"] == grid and truth["north"] == "left" and truth["side"] == "waterfront"
    corners = np.array(truth["corners"])
    assert corners.shape == (4, 2)
    assert (corners[:, 0] > 0).all() and (corners[:, 0] < 640).all() and (corners[:, 1] < 480).all()
    assert sum(row.count("C") for row in grid) == 2


# ----------------------------------------------------------------------------------- calibration


def test_calibration_round_trips_through_json() -> None:
    _, cal = scene_and_calibration(11, "inland")
    raw = json.loads(json.dumps(cal.to_json()))
    again = BoardCalibration.from_json(raw)
    assert again.side == "inland" and again.known_grid == list(KNOWN_LAYOUT)
    assert np.array_equal(again.empty_bgr, cal.empty_bgr) and np.array_equal(again.known_bgr, cal.known_bgr)
    frame_bgr, truth = board_photo(11, "inland", 5, "right")
    assert read_board(frame_bgr, again).grid == read_board(frame_bgr, cal).grid


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        ([], "JSON object"),
        ({"format": "something-else"}, "not a board calibration"),
        ({"format": "shakecity-board-calibration", "version": 99}, "version"),
    ],
)
def test_wrong_calibration_objects_are_one_clear_error(raw: object, words: str) -> None:
    with pytest.raises(CalibrationError, match=words):
        BoardCalibration.from_json(raw)


def test_damaged_calibration_images_are_refused() -> None:
    _, cal = scene_and_calibration(11, "inland")
    raw = cal.to_json()
    raw["empty_png"] = raw["empty_png"][:200]
    with pytest.raises(CalibrationError, match="empty_png"):
        BoardCalibration.from_json(raw)
    raw = cal.to_json()
    raw["known_grid"] = ["HHHHHH"] * 5
    with pytest.raises(CalibrationError, match="known_grid"):
        BoardCalibration.from_json(raw)


def test_calibration_needs_a_board_and_every_type_twice() -> None:
    rng = random.Random(4)
    table_bgr, _ = render_board_photo(None, rng, board=False, width=W, height=H)
    scene, _ = scene_and_calibration(11, "inland")
    empty_bgr, known_bgr, known = render_calibration_pair(random.Random(1), scene=scene, width=W, height=H)
    with pytest.raises(CalibrationError, match="empty photo"):
        calibrate_board(table_bgr, known_bgr, known["grid"], "inland")
    with pytest.raises(CalibrationError, match="known photo"):
        calibrate_board(empty_bgr, table_bgr, known["grid"], "inland")
    with pytest.raises(CalibrationError, match="at least twice"):
        calibrate_board(empty_bgr, known_bgr, ["H....."] + ["......"] * 5, "inland")
    with pytest.raises(CalibrationError, match="side"):
        calibrate_board(empty_bgr, known_bgr, known["grid"], "seaside")


# ----------------------------------------------------------------------------------- reading


def test_reads_one_board_in_board_coordinates_with_north() -> None:
    _, cal = scene_and_calibration(11, "inland")
    frame_bgr, truth = board_photo(11, "inland", 5, "right")
    reading = read_board(frame_bgr, cal)
    assert isinstance(reading, BoardReading) and reading.found
    assert reading.north == "right"
    assert reading.grid == truth["grid"]
    assert len(reading.confidence) == 6 and all(len(r) == 6 for r in reading.confidence)
    assert all(0.0 <= c <= 1.0 for r in reading.confidence for c in r)
    # the found cell area lies on the true one (outline in board order NW, NE, SE, SW)
    assert np.abs(np.array(reading.outline) - np.array(truth["corners"])).max() < 8
    out = reading.to_json()
    assert set(out) >= {"found", "grid", "confidence", "north"}


def test_accuracy_on_a_generated_set_across_prints_sides_norths_and_light() -> None:
    """Measured on 4 prints x 8 photos (inland and waterfront, every north, tilt to 35 degrees, glare,
    shadows, clutter), 800 x 600. Issue 4's targets are 99.9 % of cells and 98 % of boards exactly
    right; here the reader reads every board, north right on all, 99.9 % of cells and 31 of 32 boards
    exactly (1151 / 1152 cells; the figures on larger sets, 1600 x 1200, are in the report). The floors
    below guard against regressions (one cell and one board of margin).
    """
    found = north_right = cells = cells_right = boards = boards_right = 0
    for seed, side in ((21, "inland"), (22, "waterfront"), (23, "inland"), (24, "waterfront")):
        _, cal = scene_and_calibration(seed, side)
        for j in range(8):
            north = NORTHS[j % 4]
            frame_bgr, truth = board_photo(seed, side, 100 * seed + j, north, hard=j % 4 == 3)
            reading = read_board(frame_bgr, cal)
            boards += 1
            if not reading.found:
                continue
            found += 1
            north_right += reading.north == north
            right = sum(
                a == b for t, g in zip(truth["grid"], reading.grid, strict=True) for a, b in zip(t, g, strict=True)
            )
            cells += 36
            cells_right += right
            boards_right += right == 36
    assert found == boards
    assert north_right == found
    assert cells_right / cells >= 0.998
    assert boards_right / boards >= 0.93


def _cell_area_error(h_board: np.ndarray, corners: np.ndarray, cell_px: int, margin_cells: float) -> float:
    """How far (cells) a homography puts the true cell-area corners from where they belong."""
    mapped = br._apply(h_board, corners)
    return float(np.abs(mapped - br._square(6 * cell_px, margin_cells * cell_px)).max() / cell_px)


@pytest.mark.parametrize("seed,side,north", [(22, "waterfront", "up"), (23, "inland", "left")])
def test_the_cells_own_grid_lines_straighten_a_skewed_border_fit(seed: int, side: str, north: str) -> None:
    _, cal = scene_and_calibration(seed, side)
    frame_bgr, truth = board_photo(seed, side, 100 * seed + 7, north)
    gray = cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2GRAY)
    corners = np.array(truth["corners"], dtype=np.float64)  # NW, NE, SE, SW of the cell area in the photo
    c, mc = 24, cal.margin_cells
    right = cv2.getPerspectiveTransform(
        corners.astype(np.float32), br._square(6 * c, mc * c).astype(np.float32)
    ).astype(np.float64)
    # a border fit that left the board skewed: the north-east corner a third of a cell off, the rest a little
    square = br._square(6 * c, mc * c)
    skew = cv2.getPerspectiveTransform(
        square.astype(np.float32),
        (square + np.array([[0.1, -0.1], [0.33, 0.25], [-0.1, 0.1], [0.0, 0.15]]) * c).astype(np.float32),
    ).astype(np.float64)
    skewed = skew @ right
    assert _cell_area_error(skewed, corners, c, mc) > 0.3
    refined, before, after = br.refine_grid(gray, skewed, mc, c)
    assert after > before
    # tiles lie a few hundredths of a cell off their cells (turned a little too), so not to the pixel
    assert _cell_area_error(refined, corners, c, mc) < 0.15
    # and a right fit stays right
    kept, _, _ = br.refine_grid(gray, right, mc, c)
    assert _cell_area_error(kept, corners, c, mc) < 0.1


@pytest.mark.parametrize("corner", [0, 1, 2, 3])
def test_a_corner_the_border_fit_put_far_off_is_found_again(corner: int) -> None:
    """One corner of the cell area most of a cell off (as when a beach border blends into the table)."""
    _, cal = scene_and_calibration(23, "inland")
    frame_bgr, truth = board_photo(23, "inland", 2307, "left")
    gray = cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2GRAY)
    corners = np.array(truth["corners"], dtype=np.float64)
    c, mc = 24, cal.margin_cells
    square = br._square(6 * c, mc * c)
    right = cv2.getPerspectiveTransform(corners.astype(np.float32), square.astype(np.float32)).astype(np.float64)
    moved = square.copy()
    moved[corner] += np.array([0.7, 0.5] if corner % 2 else [-0.5, 0.7]) * c
    off = cv2.getPerspectiveTransform(square.astype(np.float32), moved.astype(np.float32)).astype(np.float64) @ right
    assert _cell_area_error(off, corners, c, mc) > 0.65
    refined, _, _ = br.refine_grid(gray, off, mc, c)
    assert _cell_area_error(refined, corners, c, mc) < 0.15


@pytest.mark.parametrize("shift", [(1, -1), (-1, 0)])
def test_a_lattice_one_cell_off_and_skewed_is_brought_onto_the_cells(monkeypatch, shift: tuple[int, int]) -> None:
    """The outline missed (a beach border on a table of its colour, a heavy shadow): every lattice found
    sits one cell over on the border's lines, one corner skewed most of a cell. The board is still found,
    its north right and its cells read, instead of a refusal (fails without the shifted lattices and the
    border climb)."""
    _, cal = scene_and_calibration(306, "waterfront")
    frame_bgr, truth = board_photo(306, "waterfront", 30611, "left")
    true = br._order_corners(np.array(truth["corners"], dtype=np.float64))
    back = np.linalg.inv(br._canonical_h(true, 1.0, 0.0))
    wrong = br._apply(back, br._square(6) + np.array(shift, dtype=np.float64))
    wrong[1] += 0.6 * (wrong[2] - wrong[1]) / 6  # one corner most of a cell down its side
    f = br.SETTINGS.detect_long_side / max(frame_bgr.shape[:2])
    monkeypatch.setattr(br, "fit_cell_lattice", lambda gray, quad, top=3: [wrong * f])
    off = replace(br.SETTINGS, shifted_lattices=0, climb_steps=())
    assert br._locate(frame_bgr, cal, off)["score"] < br.SETTINGS.min_border_match
    found = br._locate(frame_bgr, cal, br.SETTINGS)
    assert found["score"] >= br.SETTINGS.min_border_match and NORTHS[found["k"]] == "left"
    error = np.abs(br._apply(br._canonical_h(found["cells"], 1.0, 0.0), true) - br._square(6)).max()
    assert error < 0.25
    reading = read_board(frame_bgr, cal)
    assert reading.found and reading.north == "left"
    right = sum(a == b for r, t in zip(reading.grid, truth["grid"], strict=True) for a, b in zip(r, t, strict=True))
    assert right >= 34


def test_a_board_nearly_matched_is_climbed_to_a_clear_match_and_a_table_is_not(monkeypatch) -> None:
    """Two corners of the only lattice found a cell off (heavy shadow over the border): its border matches
    below the board threshold, yet climbing its corners finds the board, north right (fails with
    ``climb_from`` 1). A photo without a board climbs too, but never to the clear match asked for."""
    _, cal = scene_and_calibration(306, "waterfront")
    frame_bgr, truth = board_photo(306, "waterfront", 30611, "left")
    true = br._order_corners(np.array(truth["corners"], dtype=np.float64))
    moves = np.zeros((4, 2))
    moves[1], moves[3] = [1.1, 0.66], [-0.55, -0.33]
    wrong = br._apply(np.linalg.inv(br._canonical_h(true, 1.0, 0.0)), br._square(6) + moves)
    f = br.SETTINGS.detect_long_side / max(frame_bgr.shape[:2])
    real = br.fit_cell_lattice
    monkeypatch.setattr(br, "fit_cell_lattice", lambda gray, quad, top=3: [wrong * f])
    off = br._locate(frame_bgr, cal, replace(br.SETTINGS, climb_from=1.0))
    assert br.SETTINGS.climb_from <= off["score"] < br.SETTINGS.min_border_match
    found = br._locate(frame_bgr, cal, br.SETTINGS)
    assert found["score"] >= br.SETTINGS.sure_border_match and NORTHS[found["k"]] == "left"
    assert np.abs(br._apply(br._canonical_h(found["cells"], 1.0, 0.0), true) - br._square(6)).max() < 0.25
    monkeypatch.setattr(br, "fit_cell_lattice", real)
    table_bgr, _ = render_board_photo(None, random.Random(7), scene=None, board=False, width=W, height=H)
    assert not read_board(table_bgr, cal, replace(br.SETTINGS, climb_from=0.0)).found


@pytest.mark.parametrize("amount", [80.0, 120.0])
def test_a_light_fit_that_over_corrects_the_edges_does_not_misread_them(monkeypatch, amount: float) -> None:
    """A glare spot or haze can pull the light fitted on the cells far out at the board's edges (the dev
    photos' empty green read as a factory there): each reading also keeps its distance under the border's
    light alone, so the edge cells are still read right (fails with ``border_light_penalty`` off)."""
    _, cal = scene_and_calibration(22, "waterfront")
    truth = "".join(cal.known_grid)
    curved = np.array([[1.0, 0.0, 0.0, 0.0, amount, 0.0, 0.0]] * 3)  # the x * x term: both east and west
    monkeypatch.setattr(br, "fit_light", lambda observed, expected, weight: curved)

    def wrong(settings: br.ReaderSettings) -> int:
        letters, _ = br.classify_cells(cal.known_bgr, cal, settings)
        return sum(a != b for a, b in zip(letters, truth, strict=True))

    # (plain_fine_weight off too: it reads those plain edge cells right by their lack of detail alone)
    assert wrong(replace(br.SETTINGS, border_light_penalty=np.inf, plain_fine_weight=0.0)) >= 2
    assert wrong(br.SETTINGS) == 0


def test_a_weak_picture_match_does_not_outvote_a_clear_colour_of_another_type() -> None:
    """Print 905 shows only curved roads at calibration; its photos' straight roads and crossroads match a
    park's path a little better than any road look, and were read as parks though gray. A weak picture
    match (below ``weak_correlation``) of a reading whose mean colour is far off no longer counts: measured
    9 wrong cells on these three photos without the colour gates, 2 with (fails with ``colour_gap_ramp``
    inf)."""
    _, cal = scene_and_calibration(905, "inland")

    def wrong(settings: br.ReaderSettings) -> int:
        total = 0
        for i in (10, 15, 21):
            frame_bgr, truth = board_photo(905, "inland", 905000 + i, NORTHS[i % 4], hard=i % 5 == 4)
            reading = read_board(frame_bgr, cal, settings)
            assert reading.found
            total += sum(
                a != b for t, g in zip(truth["grid"], reading.grid, strict=True) for a, b in zip(t, g, strict=True)
            )
        return total

    assert wrong(replace(br.SETTINGS, colour_gap_ramp=np.inf)) >= 6
    assert wrong(br.SETTINGS) <= 2


def test_a_park_of_unseen_art_in_another_green_than_its_cell_s_print_is_not_read_empty() -> None:
    """Print 501 shows only parks with a path at calibration; its photos' plain parks (four trees) on
    green cells were read as empty: colour statistics and picture match both near. Their ground colour
    (median a*b*) is another green than the cell's own print (shifted as the cells read surely empty in
    the same photo are), and near a park's: that keeps them from reading empty. Measured on these three
    photos: 4 wrong cells without, 1 with, and no cell read right without is wrong with it (fails with
    ``chroma_weight`` 0). (Their trees' fine structure, ``fine_weight``, now also keeps them from reading
    empty: measured here without it.)"""
    _, cal = scene_and_calibration(501, "inland")

    def wrong(settings: br.ReaderSettings) -> set[tuple[int, int, int]]:
        cells = set()
        for i in (0, 13, 17):
            frame_bgr, truth = board_photo(501, "inland", 501000 + i, NORTHS[i % 4], hard=i % 5 == 4)
            reading = read_board(frame_bgr, cal, settings)
            assert reading.found
            cells |= {(i, r, c) for r in range(6) for c in range(6) if truth["grid"][r][c] != reading.grid[r][c]}
        return cells

    no_fine = replace(br.SETTINGS, fine_weight=0.0)
    off, on = wrong(replace(no_fine, chroma_weight=0.0)), wrong(no_fine)
    assert len(off) >= 4
    assert len(on) <= 1 and on <= off
    assert len(wrong(br.SETTINGS)) <= 1


def test_a_weak_picture_match_of_a_coloured_type_does_not_name_a_gray_ground() -> None:
    """Print 905 again: roads of unseen art, gray, read as parks on a weak match of a park's path. The
    ground colour (median a*b*, trees and lines aside) of a gray cell is far from every park's green, so
    a weak match (below ``ground_correlation``) of that coloured type does not count. Measured on these two
    photos: 7 wrong cells without, 5 with, none new (fails with ``ground_gap_ramp`` inf)."""
    _, cal = scene_and_calibration(905, "inland")

    def wrong(settings: br.ReaderSettings) -> set[tuple[int, int, int]]:
        cells = set()
        for i in (15, 40):
            frame_bgr, truth = board_photo(905, "inland", 905000 + i, NORTHS[i % 4], hard=i % 5 == 4)
            reading = read_board(frame_bgr, cal, settings)
            assert reading.found
            cells |= {(i, r, c) for r in range(6) for c in range(6) if truth["grid"][r][c] != reading.grid[r][c]}
        return cells

    off, on = wrong(replace(br.SETTINGS, ground_gap_ramp=np.inf)), wrong(br.SETTINGS)
    assert len(off) - len(on) >= 2 and on <= off


def _jpeg(image_bgr: np.ndarray, quality: int) -> np.ndarray:
    return cv2.imdecode(cv2.imencode(".jpg", image_bgr, [cv2.IMWRITE_JPEG_QUALITY, quality])[1], cv2.IMREAD_COLOR)


def test_a_park_on_green_is_not_read_empty_even_with_no_empty_cell_of_its_print_to_compare() -> None:
    """Print 1101 as ``make-board-set`` writes it (1600 x 1200, JPEG), photo 21: a plain park on a green
    cell of the north edge, and no green cell read surely empty in the photo to show how the light moved
    that green. The light as fitted (shifted as all the surely empty cells show) still tells its ground
    from its cell's print, trusted ``chroma_unsure`` less; without that fallback it read empty (fails
    with ``chroma_unsure`` 1e9)."""
    rng = random.Random(1101)
    scene = random_scene(rng, side="inland")
    empty_bgr, known_bgr, known = render_calibration_pair(rng, scene=scene, width=1600, height=1200)
    cal = calibrate_board(_jpeg(empty_bgr, 90), _jpeg(known_bgr, 90), known["grid"], known["side"])
    frame_bgr, truth = render_board_photo(
        None, random.Random(1101 * 1000 + 21), scene=scene, north=NORTHS[21 % 4], width=1600, height=1200
    )
    frame_bgr = _jpeg(frame_bgr, 92)

    def wrong(settings: br.ReaderSettings) -> set[tuple[int, int]]:
        reading = read_board(frame_bgr, cal, settings)
        assert reading.found
        return {(r, c) for r in range(6) for c in range(6) if truth["grid"][r][c] != reading.grid[r][c]}

    off, on = wrong(replace(br.SETTINGS, chroma_unsure=1e9)), wrong(br.SETTINGS)
    assert any(truth["grid"][r][c] == "P" for r, c in off - on)
    assert on < off


def test_a_misread_the_margin_misses_is_asked_to_be_confirmed_and_readings_stay() -> None:
    """Print 1101 shows parks of an art the calibration never had, on green: one is read as empty with a
    comfortable margin (confidence 0.69), but it won on its picture against its colour, and the border's
    light alone read it otherwise, so it is now asked to be confirmed; few right cells are, and the
    readings themselves are the same (fails with ``relit_doubt`` and ``colour_doubt`` 0). (The park's
    ground colour, ``chroma_excess``, now brings it near a tie, flagged even without these doubts, and its
    trees' fine structure, ``fine_weight``, reads it right: measured here without them, both 0.)"""
    _, cal = scene_and_calibration(1101, "inland")
    frame_bgr, truth = board_photo(1101, "inland", 1101021, NORTHS[21 % 4])
    no_ground = replace(br.SETTINGS, chroma_weight=0.0, fine_weight=0.0)
    off = read_board(frame_bgr, cal, replace(no_ground, relit_doubt=0.0, colour_doubt=0.0))
    on = read_board(frame_bgr, cal, no_ground)
    assert on.found and off.found and on.grid == off.grid
    wrong = {(r, c) for r in range(6) for c in range(6) if truth["grid"][r][c] != on.grid[r][c]}
    assert wrong and not wrong & set(off.low_confidence_cells)
    assert wrong <= set(on.low_confidence_cells)
    assert len(set(on.low_confidence_cells) - wrong) <= 2


def test_correlation_against_the_empty_look_ignores_a_window_s_slope() -> None:
    """A cell's edges leave a smooth halo in its detail; against the empty look only structure counts."""
    size = 12
    ramp = np.repeat(np.linspace(-20, 20, size, dtype=np.float32)[None, :], size, axis=0)
    window = np.stack([ramp, 0.5 * ramp + 3, -ramp], axis=2).reshape(1, -1)
    assert np.abs(br._unit(window, 3.0, order=1)).max() < 1e-4  # a pure slope is nothing
    assert np.linalg.norm(br._unit(window, 3.0, order=0)) > 0.9  # level only: the slope stays
    dots = np.zeros((size, size, 3), np.float32)
    dots[3, 3], dots[8, 7] = 40, 40
    kept = br._unit(dots.reshape(1, -1) + window, 3.0, order=1)
    assert np.allclose(kept, br._unit(dots.reshape(1, -1), 3.0, order=1), atol=1e-4)  # the dots stay as they are


def test_a_tile_washed_towards_white_by_glare_is_still_near_its_own_look() -> None:
    _, cal = scene_and_calibration(11, "inland")
    looks, c, m = cal.looks, cal.cell_px, cal.margin
    board_bgr = cal.known_bgr.copy()
    i = "".join(cal.known_grid).index("F")
    ys, xs = br._cell_slice(i // 6, i % 6, c, m)
    board_bgr[ys, xs] = (0.45 * board_bgr[ys, xs] + 0.55 * 255).astype(np.uint8)  # a lamp's reflection
    inset = int(round(br.SETTINGS.patch_inset * c))
    energy = br.detail_energy(board_bgr, c, m, c - 2 * inset)
    plain = br.feature_distances(br.cell_features(board_bgr, c, m, energy=energy), looks)
    again = br.glare_distances(board_bgr, energy, plain, looks, c, m)
    assert again[i]["F"] < plain[i]["F"] - 1.0
    assert again[i]["F"] <= min(again[i].values()) + 1.0  # the factory is among the nearest looks again
    assert all(again[j] == plain[j] for j in range(36) if "".join(cal.known_grid)[j] == ".")  # empties unwashed


def test_a_cell_much_busier_than_its_empty_print_is_not_read_empty() -> None:
    """A tile of a picture the calibration never showed, in the colour of its cell (a park on green):
    only its fine structure tells it from the empty print, and that must keep it from reading empty."""
    _, cal = scene_and_calibration(22, "waterfront")
    c, m = cal.cell_px, cal.margin
    board_bgr = cal.empty_bgr.copy()
    busy = [(0, 2), (2, 0)]
    for r, col in busy:
        ys, xs = br._cell_slice(r, col, c, m)
        colour = board_bgr[ys, xs].reshape(-1, 3).mean(axis=0)
        tile = np.empty_like(board_bgr[ys, xs])
        tile[:] = colour.astype(np.uint8)
        for cy, cx in ((0.3, 0.3), (0.3, 0.7), (0.7, 0.3), (0.7, 0.7)):  # four faint trees
            cv2.circle(tile, (int(cx * c), int(cy * c)), int(0.13 * c), (colour * 0.9).tolist(), -1, cv2.LINE_AA)
            cv2.circle(tile, (int(cx * c), int(cy * c)), int(0.05 * c), (colour * 0.95).tolist(), -1, cv2.LINE_AA)
        board_bgr[ys, xs] = tile
    letters, _ = br.classify_cells(board_bgr, cal)
    assert all(letters[r * 6 + col] != "." for r, col in busy)
    assert all(letters[i] == "." for i in range(36) if (i // 6, i % 6) not in busy)
    # without the busy-cell penalty these faint pictures pass for their empty print (the finer structure
    # of their trees, fine_weight, now also tells one of them: measured without it)
    plain, _ = br.classify_cells(board_bgr, cal, replace(br.SETTINGS, busy_weight=0.0, fine_weight=0.0))
    assert plain == ["."] * 36


def _grid_letters(reading: BoardReading) -> str:
    assert reading.found and reading.grid is not None
    return "".join(reading.grid)


def test_a_park_s_faint_trees_on_a_cell_of_its_own_green_keep_it_from_reading_empty() -> None:
    """Generated print 7412 (waterfront): its parks' trees are drawn in nearly the green of the print, and
    the park's outline leaves the same halo in a cell's detail as the print's grid lines, so at the scale
    of ``busy_ratio`` the park is hardly busier than its empty print. Its fine structure (``fine_energy``)
    is many times the print's: with it the park reads as a park, without it (``fine_weight`` 0) as empty."""
    _, cal = scene_and_calibration(7412, "waterfront")
    frame_bgr, truth = board_photo(7412, "waterfront", 7412016, NORTHS[16 % 4])
    want = "".join(truth["grid"])
    assert want[3] == "P"
    on = _grid_letters(read_board(frame_bgr, cal))
    off = _grid_letters(read_board(frame_bgr, cal, replace(br.SETTINGS, fine_weight=0.0)))
    assert on[3] == "P" and off[3] == "."
    assert sum(a != b for a, b in zip(want, on, strict=True)) <= sum(a != b for a, b in zip(want, off, strict=True)) - 1
    empties = [i for i in range(36) if want[i] == "."]
    assert all(on[i] == "." for i in empties)


def test_an_empty_cell_of_the_same_print_in_the_photo_does_not_excuse_a_busy_cell() -> None:
    """Cells read surely empty in a photo lend their look to cells printed alike; against that look too a
    cell's fine structure beyond its print's must count: generated print 7411, photo 0, a park of trees on
    green read empty through its empty neighbours' look without it (``examples_keep_fine`` False)."""
    _, cal = scene_and_calibration(7411, "inland")
    frame_bgr, truth = board_photo(7411, "inland", 7411000, NORTHS[0])
    want = "".join(truth["grid"])
    assert want[33] == "P"
    on = _grid_letters(read_board(frame_bgr, cal))
    off = _grid_letters(read_board(frame_bgr, cal, replace(br.SETTINGS, examples_keep_fine=False)))
    assert on[33] == "P" and off[33] == "."
    assert all(on[i] == "." for i in range(36) if want[i] == ".")


def test_a_plain_cell_busier_at_the_coarse_scale_alone_is_still_read_empty() -> None:
    """Generated print 7452 (waterfront) at 1600 x 1200: in photos 4 and 16 an empty cell of plain print
    shows more coarse structure than its empty look (a neighbouring tile's outline and shadow at its edge)
    but no more fine structure; the busy penalty read it as a road or a park. Counted only where the fine
    structure is up too, it reads empty (fails with ``busy_fine_from`` 0)."""
    rng = random.Random(7452)
    scene = random_scene(rng, side="waterfront")
    empty_bgr, known_bgr, known = render_calibration_pair(rng, scene=scene, width=1600, height=1200)
    cal = calibrate_board(empty_bgr, known_bgr, known["grid"], known["side"])
    # (plain_fine_weight off too: it reads those plain cells empty by their lack of detail alone)
    always = replace(br.SETTINGS, busy_fine_from=0.0, plain_fine_weight=0.0)
    for i, cell in ((4, 11), (16, 35)):
        photo_rng = random.Random(7452 * 1000 + i)
        frame_bgr, truth = render_board_photo(
            None, photo_rng, scene=scene, north=NORTHS[i % 4], width=1600, height=1200, hard=i % 5 == 4
        )
        want = "".join(truth["grid"])
        on, off = _grid_letters(read_board(frame_bgr, cal)), _grid_letters(read_board(frame_bgr, cal, always))
        assert want[cell] == on[cell] == "." != off[cell]
        assert sum(a != b for a, b in zip(want, on, strict=True)) < sum(a != b for a, b in zip(want, off, strict=True))


def test_fine_energy_sees_small_dots_but_not_a_cell_s_edges() -> None:
    """The fine structure of a plain cell with dark grid lines at its edges is nil; a few small dots of
    nearly its own colour in its centre make it plain to see."""
    c, m = 40, 20
    size = 2 * m + 6 * c
    board = np.full((size, size, 3), (80, 170, 90), np.uint8)
    for k in range(7):
        cv2.line(board, (m + k * c, 0), (m + k * c, size), (40, 60, 40), 2)
        cv2.line(board, (0, m + k * c), (size, m + k * c), (40, 60, 40), 2)
    plain = br.fine_energy(board, c, m)
    dotted = board.copy()
    for cy, cx in ((0.35, 0.35), (0.35, 0.65), (0.65, 0.5)):
        cv2.circle(dotted, (m + int(cx * c), m + int(cy * c)), 3, (70, 150, 80), -1, cv2.LINE_AA)
    fine = br.fine_energy(dotted, c, m)
    assert plain.max() < 0.1
    assert fine[0] > 1.0 and np.allclose(fine[1:], plain[1:])


def test_a_cell_still_showing_its_own_print_s_mottling_is_read_empty() -> None:
    """A strongly mottled print (the photoreal dev print is one): an empty cell's smoothed texture matches
    its empty look, a tile's face does not. Dev photo 023, an empty gray cell under glare, read as a road
    for its colour and a faint picture match; with the print's agreement it reads empty. Here a faint
    factory (30 %) over three empty cells is read as a factory on one without it, empty with it; the
    known layout's tiles get no such credit and all read right (fails with ``print_agree_weight`` 0)."""
    rng = random.Random(31)
    style = replace(random_print_style(rng), zone_texture=22.0, texture_scale=0.2)
    scene = random_scene(rng, side="inland", print_style=style)
    empty_bgr, known_bgr, known = render_calibration_pair(rng, scene=scene, width=W, height=H)
    cal = calibrate_board(empty_bgr, known_bgr, known["grid"], known["side"])
    c, m = cal.cell_px, cal.margin
    letters = "".join(cal.known_grid)
    agree = br.print_agreement(cal.known_bgr, cal.looks, c, m)
    assert all(agree[i] < br.SETTINGS.print_agree_from for i in range(36) if letters[i] != ".")
    known_read, _ = br.classify_cells(cal.known_bgr, cal)
    assert "".join(known_read) == letters
    src = letters.index("F")
    ghost = cal.known_bgr[br._cell_slice(src // 6, src % 6, c, m)].astype(np.float32)
    board_bgr = cal.empty_bgr.copy()
    cells = [(2, 2), (0, 3), (4, 1)]
    for r, col in cells:
        ys, xs = br._cell_slice(r, col, c, m)
        board_bgr[ys, xs] = (0.7 * board_bgr[ys, xs] + 0.3 * ghost).astype(np.uint8)
    assert all(br.print_agreement(board_bgr, cal.looks, c, m)[r * 6 + col] > 0.6 for r, col in cells)
    on, _ = br.classify_cells(board_bgr, cal)
    off, _ = br.classify_cells(board_bgr, cal, replace(br.SETTINGS, print_agree_weight=0.0))
    assert on == ["."] * 36
    assert "F" in off


def test_photos_without_a_board_are_refused() -> None:
    _, cal = scene_and_calibration(11, "inland")
    for seed in range(4):
        table_bgr, truth = render_board_photo(None, random.Random(seed), board=False, width=W, height=H)
        assert truth["grid"] is None
        reading = read_board(table_bgr, cal)
        assert not reading.found and reading.grid is None and reading.reason
    plain = np.full((H, W, 3), 128, np.uint8)
    assert not read_board(plain, cal).found


def test_a_board_of_another_print_is_not_read_as_the_calibrated_one() -> None:
    _, cal = scene_and_calibration(11, "inland")
    other_bgr, _ = render_board_photo(None, random.Random(77), north="up", width=W, height=H)
    reading = read_board(other_bgr, cal)
    # either refused, or at least not confidently read: never a silent, confident guess
    assert not reading.found or len(reading.low_confidence_cells) > 0 or reading.border_match < 0.6


def test_cut_off_boards_are_refused() -> None:
    scene, cal = scene_and_calibration(11, "inland")
    refused = 0
    for seed in range(4):
        frame_bgr, truth = render_board_photo(
            None, random.Random(seed), scene=scene, cut_off=True, north=NORTHS[seed], width=W, height=H
        )
        assert truth["grid"] is None
        reading = read_board(frame_bgr, cal)
        refused += not reading.found
        if not reading.found:
            assert reading.reason
    assert refused == 4


def test_a_blurred_board_is_refused() -> None:
    _, cal = scene_and_calibration(11, "inland")
    frame_bgr, _ = board_photo(11, "inland", 5, "right")
    blurred = cv2.GaussianBlur(frame_bgr, (0, 0), 9)
    reading = read_board(blurred, cal)
    assert not reading.found
    assert "blur" in reading.reason or "no board" in reading.reason


def test_twelve_megapixel_photo_is_read_fast() -> None:
    scene, cal = scene_and_calibration(11, "inland")
    grid = random_grid(random.Random(9))
    frame_bgr, truth = render_board_photo(grid, random.Random(9), scene=scene, north="down", width=4000, height=3000)
    ok, buf = cv2.imencode(".jpg", frame_bgr, [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    times = []
    for _ in range(3):
        t0 = time.process_time()
        photo_bgr = br.decode_photo_bytes(buf.tobytes())
        reading = read_board(photo_bgr, cal)
        times.append(time.process_time() - t0)
    assert reading.found and reading.north == "down"
    assert sum(a != b for t, g in zip(grid, reading.grid, strict=True) for a, b in zip(t, g, strict=True)) <= 1
    # the target is 150 ms on one core (bench-board); leave room for a busy test machine
    assert sorted(times)[1] < 0.4
    # the full-size array is read too (reduced inside the reader)
    assert read_board(frame_bgr, cal).north == "down"


# ----------------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"this is not an image at all",
        b"\xff\xd8\xff\xe0" + b"\x00" * 30,  # a JPEG that stops after its first bytes
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + (50000).to_bytes(4, "big") * 2 + b"\x08\x02\x00\x00\x00",
    ],
    ids=["empty", "non-image", "truncated", "enormous-header"],
)
def test_unreadable_photos_are_one_clear_error(data: bytes) -> None:
    with pytest.raises(ImageReadError):
        br.decode_photo_bytes(data)


def test_truncated_jpeg_of_a_real_photo_is_an_error(tmp_path) -> None:
    frame_bgr, _ = board_photo(11, "inland", 5, "right")
    ok, buf = cv2.imencode(".jpg", frame_bgr)
    path = tmp_path / "cut.jpg"
    path.write_bytes(buf.tobytes()[:200])
    with pytest.raises(ImageReadError):
        br.load_photo(path)


def test_wrong_arrays_are_one_clear_error() -> None:
    _, cal = scene_and_calibration(11, "inland")
    for bad in (np.zeros((10, 10, 3), np.uint8), np.zeros((100, 100, 3), np.float64), "photo.jpg"):
        with pytest.raises(ImageReadError):
            read_board(bad, cal)  # type: ignore[arg-type]
