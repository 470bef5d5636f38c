"""The table's own repeat (vision/shaker_repeat.py): a cell a checked cloth explains is no cube.

The tables here are drawn with numpy (a gingham's two crossing stripes, turned), the cubes as shaded squares with a
side face and a cast shadow; one generated frame (vision.shaker_scene) shows the check in the whole reader."""

from __future__ import annotations

import math
from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision.colour import default_palette
from vision.shaker import DEFAULT_SETTINGS, Grid, read_shaker
from vision.shaker_repeat import repeat_distances, repeated_cells, table_periods

from .shaker_sets import set_scene

PERIOD = 26.0  # the gingham's period, working px
TURN = math.radians(12.0)
PITCH = 22.0  # the cubes' pitch, working px


def _gingham(h: int = 384, w: int = 512) -> np.ndarray:
    """A blue-and-white gingham (BGR), its stripes PERIOD px apart and turned by TURN."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float64)
    u = xx * math.cos(TURN) + yy * math.sin(TURN)
    v = -xx * math.sin(TURN) + yy * math.cos(TURN)
    su = (np.mod(u, PERIOD) < PERIOD / 2).astype(np.float64)
    sv = (np.mod(v, PERIOD) < PERIOD / 2).astype(np.float64)
    dark = 0.45 * su + 0.45 * sv  # (0, 0.45 or 0.9 of the way to the stripes' blue)
    white = np.array([235.0, 238.0, 240.0])
    blue = np.array([150.0, 60.0, 20.0])
    img = white[None, None] * (1 - dark[..., None]) + blue[None, None] * dark[..., None]
    return cv2.GaussianBlur(img.astype(np.uint8), (3, 3), 0.8)


def _plain(h: int = 384, w: int = 512) -> np.ndarray:
    rng = np.random.default_rng(5)
    img = np.full((h, w, 3), (150, 160, 170), np.float64) + rng.normal(0, 2.0, (h, w, 3))
    return np.clip(img, 0, 255).astype(np.uint8)


def _grid(origin: tuple[float, float]) -> Grid:
    col = np.array([PITCH * math.cos(0.1), PITCH * math.sin(0.1)])
    row = np.array([-col[1], col[0]])
    return Grid(np.array(origin, dtype=np.float64), col, row, ((0, 1, 2), (3, 4, 5), (6, 7, 8)), 9, 0)


def _draw_cube(img: np.ndarray, centre: np.ndarray, colour: tuple[int, int, int]) -> None:
    """A cube seen from above: its top face (0.8 of the pitch), a darker side face below it, a shadow to the lower
    right: both within the gap to the next cell."""
    s = 0.4 * PITCH
    cx, cy = float(centre[0]), float(centre[1])
    shadow = np.array(
        [[cx - s + 2, cy - s + 2], [cx + s + 3, cy - s + 2], [cx + s + 3, cy + s + 4], [cx - s + 2, cy + s + 4]]
    )
    cv2.fillConvexPoly(img, shadow.round().astype(np.int32), (60, 60, 60))
    side = np.array([[cx - s, cy + s], [cx + s, cy + s], [cx + s, cy + s + 2], [cx - s, cy + s + 2]])
    cv2.fillConvexPoly(img, side.round().astype(np.int32), tuple(int(0.6 * c) for c in colour))
    top = np.array([[cx - s, cy - s], [cx + s, cy - s], [cx + s, cy + s], [cx - s, cy + s]])
    cv2.fillConvexPoly(img, top.round().astype(np.int32), colour)


def _scene(table: np.ndarray, empty: set[int]) -> tuple[np.ndarray, Grid]:
    """The table with the grid's cubes drawn (white ones: a gingham's white check is the hard case), but in
    ``empty`` cells; the grid at the working copy's scale 1."""
    img = table.copy()
    grid = _grid((230.0, 160.0))
    colours = [(240, 240, 240), (40, 40, 200), (240, 240, 240), (200, 80, 30), (240, 240, 240), (40, 160, 40)]
    for i in range(9):
        if i not in empty:
            _draw_cube(img, grid.centre(i // 3, i % 3), colours[i % len(colours)])
    return img, grid


def _tests(cubes: int = 9) -> list[dict]:
    return [{"row": i // 3, "col": i % 3, "cube": i < cubes} for i in range(9)]


def test_a_gingham_s_periods_are_found_and_a_plain_table_has_none() -> None:
    lab8 = cv2.cvtColor(_gingham(), cv2.COLOR_BGR2Lab)
    periods = table_periods(lab8, 8.0, 0.6)
    assert periods is not None
    # each found period is a whole number of the drawn periods along the stripes' two directions
    basis = PERIOD * np.array([[math.cos(TURN), math.sin(TURN)], [-math.sin(TURN), math.cos(TURN)]])
    coords = periods @ np.linalg.inv(basis)
    assert np.abs(coords - np.rint(coords)).max() < 0.15, coords
    assert abs(np.linalg.det(np.rint(coords))) >= 1  # two independent periods
    assert table_periods(cv2.cvtColor(_plain(), cv2.COLOR_BGR2Lab), 8.0, 0.6) is None


def test_a_cell_of_bare_gingham_is_near_its_repeats_and_a_cube_is_far() -> None:
    img, grid = _scene(_gingham(), empty={5})
    lab8 = cv2.cvtColor(img, cv2.COLOR_BGR2Lab)
    periods = table_periods(lab8, 8.0, 0.6)
    assert periods is not None
    centres = np.array([grid.centre(r, c) for r in range(3) for c in range(3)])
    d = repeat_distances(lab8, periods, centres, PITCH, DEFAULT_SETTINGS)
    assert d[5] < DEFAULT_SETTINGS.repeat_same_max
    assert np.delete(d, 5).min() > 2 * DEFAULT_SETTINGS.repeat_same_max  # white cubes on the white checks too


@pytest.mark.parametrize("empty", [set(), {5}, {0, 8}])
def test_the_repeated_cells_are_the_empty_ones_read_as_cubes(empty: set[int]) -> None:
    img, grid = _scene(_gingham(), empty)
    lab8 = cv2.cvtColor(img, cv2.COLOR_BGR2Lab)
    tests = _tests()
    assert sorted(repeated_cells(tests, lab8, 1.0, grid, True, DEFAULT_SETTINGS, {})) == sorted(
        (i // 3, i % 3) for i in empty
    )
    assert all("repeat" in t for t in tests)  # each asked cell's distance, for the debug output


def test_no_cell_is_asked_on_a_plain_table_nor_when_off() -> None:
    img, grid = _scene(_gingham(), {5})
    lab8 = cv2.cvtColor(img, cv2.COLOR_BGR2Lab)
    assert repeated_cells(_tests(), lab8, 1.0, grid, False, DEFAULT_SETTINGS, {}) == []  # (a plain table)
    off = replace(DEFAULT_SETTINGS, repeat_cells=False)
    assert repeated_cells(_tests(), lab8, 1.0, grid, True, off, {}) == []
    plain, grid = _scene(_plain(), {5})
    assert repeated_cells(_tests(), cv2.cvtColor(plain, cv2.COLOR_BGR2Lab), 1.0, grid, True, DEFAULT_SETTINGS, {}) == []


def test_the_periods_are_found_once_a_frame() -> None:
    img, grid = _scene(_gingham(), {5})
    lab8 = cv2.cvtColor(img, cv2.COLOR_BGR2Lab)
    memo: dict = {}
    first = repeated_cells(_tests(), lab8, 1.0, grid, True, DEFAULT_SETTINGS, memo)
    memo[("table_periods",)] = None  # (a memo saying "no repeat" is believed: nothing asked)
    assert first == [(1, 2)]
    assert repeated_cells(_tests(), lab8, 1.0, grid, True, DEFAULT_SETTINGS, memo) == []


def test_a_gingham_check_read_as_a_cube_is_refused() -> None:
    """Generated set 41023, frame 0234 (``shakecity make-shaker-set D --seed 41023``): a cube knocked out of the
    grid, the gingham's check in its cell read as a cube, the pattern accepted; the table's repeat refuses it."""
    frame_bgr, truth = set_scene(41023, 234)
    assert not truth["valid"]
    palette = default_palette()
    before = read_shaker(frame_bgr, palette, settings=replace(DEFAULT_SETTINGS, repeat_cells=False))
    assert before.valid  # (the incomplete pattern read as complete)
    now = read_shaker(frame_bgr, palette)
    assert not now.valid
    repeats = [t["repeat"] for t in now.debug["cell_tests"] if "repeat" in t]
    assert repeats and min(repeats) < DEFAULT_SETTINGS.repeat_same_max


def test_the_repeat_patches_lab_is_lab8_to_labs_to_the_bit() -> None:
    """repeat_distances looks the working copy's 8-bit Lab up in a table (cv2.LUT) rather than converting it: every
    value of every channel gives ``lab8_to_lab``'s own float32, so the distances are the conversion's."""
    from vision.colour import lab8_to_lab
    from vision.shaker_repeat import _lab8_table

    rng = np.random.default_rng(5)
    lab8 = rng.integers(0, 256, (40, 60, 3), dtype=np.uint8)
    lab8[0, :3] = [[0, 0, 0], [255, 255, 255], [128, 128, 128]]
    looked_up = cv2.LUT(lab8, _lab8_table())
    assert looked_up.dtype == np.float32
    assert np.array_equal(looked_up, lab8_to_lab(lab8, single=True))


def test_a_lattice_a_row_over_on_a_faint_gingham_the_edge_test_calls_plain_is_refused_for_its_repeat() -> None:
    """Generated set 55004, frame 0204 (generated after ``10fec9a``): a pale blue gingham whose checks, as large as
    the cubes and turned with the grid, do not lift the finder's threshold (``table_is_plain``); a lattice a row over
    took white, gray and white checks for the top row, its cells in the table's own tones, and left the cubes' bottom
    row out: read wrong. Asked on such a table too (``repeat_toned_plain``), the repeat refuses that lattice, and the
    cubes' own is read."""
    frame_bgr, truth = set_scene(55004, 204)
    assert truth["valid"] and truth["scene"]["table"] == "gingham"
    before = read_shaker(frame_bgr, settings=replace(DEFAULT_SETTINGS, repeat_toned_plain=False))
    assert before.valid and before.pattern != truth["cells"]
    assert before.pattern[1] == truth["cells"][0]  # (the cubes' top row read as the lattice's middle one)
    top = [t for t in before.debug["cell_tests"] if t["row"] == 0]
    assert all(t.get("tone", 0.0) >= DEFAULT_SETTINGS.faceless_share for t in top)
    assert not any("repeat" in t for t in before.debug["cell_tests"])  # (not asked: a plain table by its edges)
    now = read_shaker(frame_bgr)
    assert now.valid and now.pattern == truth["cells"]


def test_a_gray_cube_of_about_a_plain_table_s_colour_is_not_refused_for_a_repeat() -> None:
    """Generated set 51006, frame 0008: a plain light table to which the cubes' own lattice gives periods; a gray
    cube of about the table's colour (d_table 2.6) lies within 1.8 of the plain table the periods carry it to, as an
    empty cell would. Asked on such a table only for a cell far from its colour (``repeat_plain_min_table``): read."""
    frame_bgr, truth = set_scene(51006, 8)
    assert truth["valid"] and truth["scene"]["table"] == "plain_light"
    every = read_shaker(frame_bgr, settings=replace(DEFAULT_SETTINGS, repeat_plain_min_table=0.0))
    assert not every.valid and every.reason == "8 cubes in the grid"
    now = read_shaker(frame_bgr)
    assert now.valid and now.pattern == truth["cells"]
    (near,) = [t for t in now.debug["cell_tests"] if t.get("repeat", math.inf) < DEFAULT_SETTINGS.repeat_same_max]
    assert near["d_table"] < DEFAULT_SETTINGS.repeat_plain_min_table
