"""The lattice against its cubes' faces (``face_spread_mismatch``): a lattice whose ratio of steps (columns over rows)
is far from its cubes' top faces' is stretched off its cubes, and refused.

A square top face is seen as the grid is: tilted, both shrink along the same axis. A lattice stretched along one
axis onto the cubes' side faces or the table beside them reads cells off their cubes; two complete patterns were so
read wrong, one incomplete pattern accepted. The made lattice, asked after the refusal, reads the two right.
"""

from __future__ import annotations

import math
from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision.shaker import (
    DEFAULT_SETTINGS,
    Grid,
    face_spread_ratio,
    lattice_face_mismatch,
    lattice_face_shear,
    read_shaker,
)

from .shaker_sets import set_scene

_OFF = replace(DEFAULT_SETTINGS, face_spread_mismatch=math.inf)
_FRAMES = {41027: 208}


def _faces(col_step: tuple[float, float], row_step: tuple[float, float], face: tuple[float, float], yaw_deg: float):
    """A Lab working image of nine faces (``face``: width along the columns, height along the rows, pixels) on a
    lattice, turned by ``yaw_deg``, and the lattice itself."""
    lab = np.zeros((260, 260, 3), np.uint8)
    lab[:] = (70, 128, 128)
    grid = Grid(np.array([80.0, 80.0]), np.array(col_step, float), np.array(row_step, float), ((0, 1, 2),) * 3, 9, 0)
    for r in range(3):
        for c in range(3):
            rect = (tuple(grid.centre(r, c)), face, yaw_deg)
            cv2.fillConvexPoly(lab, np.round(cv2.boxPoints(rect)).astype(np.int32), (170, 160, 150))
    return lab, grid


def _mismatch(lab: np.ndarray, grid: Grid) -> float | None:
    tests = [{"row": r, "col": c, "cube": True} for r in range(3) for c in range(3)]
    points = {(r, c): grid.centre(r, c) for r in range(3) for c in range(3)}
    return lattice_face_mismatch(lab, 1.0, grid, tests, points)


@pytest.mark.parametrize("yaw_deg", [0.0, 7.0])
def test_a_face_spreads_as_the_lattice_it_sits_on(yaw_deg):
    # seen overhead: square faces on a square lattice; tilted: both shorter along the rows by a quarter
    for col_step, row_step, face in (((40, 0), (0, 40), (24, 24)), ((40, 0), (0, 32), (24, 19.2))):
        lab, grid = _faces(col_step, row_step, face, yaw_deg)
        ratio = face_spread_ratio(lab, grid.centre(1, 1), grid.centre(1, 1), grid, 1.0)
        assert ratio == pytest.approx(face[0] / face[1], rel=0.08)
        assert abs(_mismatch(lab, grid)) < 0.08


def test_a_lattice_stretched_against_square_faces_is_past_the_limit():
    # square faces, a lattice whose columns step a third further than its rows (as s41027 0207's)
    lab, grid = _faces((40, 0), (0, 30), (22, 22), 0.0)
    assert _mismatch(lab, grid) > DEFAULT_SETTINGS.face_spread_mismatch
    lab, grid = _faces((30, 0), (0, 40), (22, 22), 0.0)
    assert _mismatch(lab, grid) < -DEFAULT_SETTINGS.face_spread_mismatch


@pytest.mark.parametrize("yaw_deg", [0.0, 11.0])
def test_a_faces_spread_is_its_pixels_standard_deviations(yaw_deg):
    # the spread comes from the region's moments: the same ratio as the face's pixels' own standard deviations along
    # the lattice's unit steps, on a lattice turned and sheared (its steps not at right angles)
    lab, grid = _faces((38, 6), (-9, 31), (23, 17), yaw_deg)
    # (the middle cell's face drawn alone too: its pixels are the region's)
    centre = grid.centre(1, 1)
    lab_one = np.zeros_like(lab)
    lab_one[:] = (70, 128, 128)
    rect = (tuple(centre), (23, 17), yaw_deg)
    cv2.fillConvexPoly(lab_one, np.round(cv2.boxPoints(rect)).astype(np.int32), (170, 160, 150))
    ys, xs = np.nonzero(np.all(lab_one == (170, 160, 150), axis=2))
    pts = np.stack([xs - xs.mean(), ys - ys.mean()], 1)
    u, v = grid.col_step / np.linalg.norm(grid.col_step), grid.row_step / np.linalg.norm(grid.row_step)
    expected = float((pts @ u).std() / (pts @ v).std())
    assert face_spread_ratio(lab_one, centre, centre, grid, 1.0) == pytest.approx(expected, rel=1e-9)
    assert face_spread_ratio(lab, centre, centre, grid, 1.0) == pytest.approx(expected, rel=1e-9)


def test_the_regions_the_reader_keeps_measure_as_found_afresh():
    # the reader passes the regions its offsets found (region_of): the same mismatch as regions found afresh
    from vision.shaker import _face_region

    lab, grid = _faces((40, 0), (0, 30), (22, 22), 5.0)
    tests = [{"row": r, "col": c, "cube": True} for r in range(3) for c in range(3)]
    points = {(r, c): grid.centre(r, c) for r in range(3) for c in range(3)}
    asked = []

    def region_of(cell, cube, pitch):
        asked.append(pitch)
        return _face_region(lab, cell, cube, pitch, 1.0, DEFAULT_SETTINGS)

    kept = lattice_face_mismatch(lab, 1.0, grid, tests, points, region_of=region_of)
    assert len(asked) == 9 and kept == lattice_face_mismatch(lab, 1.0, grid, tests, points)


def test_too_few_faces_measure_nothing():
    lab, grid = _faces((40, 0), (0, 30), (22, 22), 0.0)
    tests = [{"row": 0, "col": c, "cube": True} for c in range(3)]
    points = {(0, c): grid.centre(0, c) for c in range(3)}
    assert lattice_face_mismatch(lab, 1.0, grid, tests, points) is None


def test_a_lattice_stretched_onto_the_cubes_sides_is_read_again():
    """s41027 0207: a camera 2.7 degrees off overhead, the lattice's rows 1.33 times its columns' step, its bottom
    row on the cubes' gray side faces: a complete pattern read wrong. Refused as stretched, the made lattice reads
    it right."""
    frame_bgr, truth = set_scene(41027, 207, _FRAMES)
    assert truth["valid"]
    off = read_shaker(frame_bgr, settings=replace(_OFF, between_contrast=math.inf))
    assert off.valid and off.pattern != truth["pattern"]  # (the reading before: wrong)
    # (cube_between_cells sees a cube between the stretched lattice's cells too: with only this check off, it
    # refuses that lattice and the made lattice reads the pattern)
    between = read_shaker(frame_bgr, settings=_OFF)
    assert between.valid and between.pattern == truth["pattern"]
    assert between.debug["made_lattice"]["refused"] == "a cube is out of line (between the grid's cells)"
    reading = read_shaker(frame_bgr)
    assert reading.valid and reading.pattern == truth["pattern"]
    assert reading.debug["made_lattice"]["refused"] == "no pattern: the lattice is stretched against the cubes' faces"
    assert abs(reading.debug["face_mismatch"]) < DEFAULT_SETTINGS.face_spread_mismatch


def test_an_incomplete_pattern_on_a_stretched_lattice_is_refused():
    """s41027 0052: an incomplete pattern accepted on a lattice 0.29 (log) off its cubes' faces; refused now."""
    frame_bgr, truth = set_scene(41027, 52, _FRAMES)
    assert not truth["valid"]
    assert read_shaker(frame_bgr, settings=_OFF).valid
    reading = read_shaker(frame_bgr)
    assert not reading.valid and reading.reason == "no pattern: the lattice is stretched against the cubes' faces"
    assert reading.debug["face_mismatch"] > DEFAULT_SETTINGS.face_spread_mismatch


def _seen_faces(col_step: tuple[float, float], row_step: tuple[float, float], side: float, turn_deg: float):
    """A Lab working image of nine square faces (``side``: a share of the pitch, turned ``turn_deg`` on the table)
    seen as the lattice is: each the lattice's own map of a square, so sheared as its steps are; and the lattice."""
    lab = np.zeros((260, 260, 3), np.uint8)
    lab[:] = (70, 128, 128)
    grid = Grid(np.array([80.0, 80.0]), np.array(col_step, float), np.array(row_step, float), ((0, 1, 2),) * 3, 9, 0)
    steps = np.stack([grid.col_step, grid.row_step], 1)  # table units (one pitch) to image pixels
    t = math.radians(turn_deg)
    square = (
        0.5
        * side
        * np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], float)
        @ np.array([[math.cos(t), math.sin(t)], [-math.sin(t), math.cos(t)]])
    )
    for r in range(3):
        for c in range(3):
            corners = grid.centre(r, c) + square @ steps.T
            cv2.fillConvexPoly(lab, np.round(corners).astype(np.int32), (170, 160, 150))
    return lab, grid


def _regions(lab: np.ndarray):
    """``region_of`` for :func:`lattice_face_shear`: :func:`vision.shaker._face_region` on ``lab`` at scale 1."""
    from vision.shaker import _face_region

    def region_of(cell, cube, pitch):
        return _face_region(lab, cell, cube, pitch, 1.0, DEFAULT_SETTINGS)

    return region_of


def _shear(lab: np.ndarray, grid: Grid) -> float | None:
    tests = [{"row": r, "col": c, "cube": True} for r in range(3) for c in range(3)]
    points = {(r, c): grid.centre(r, c) for r in range(3) for c in range(3)}
    return lattice_face_shear(grid, tests, points, _regions(lab))


@pytest.mark.parametrize("turn_deg", [0.0, 8.0, 20.0])
def test_faces_seen_as_their_lattice_is_are_not_sheared_in_its_frame(turn_deg):
    # overhead; tilted (rows shorter); tilted across the grid's diagonal (the steps not at right angles): a cube's
    # face, however it is turned on the table, is the lattice's own square
    for col_step, row_step in (((40, 0), (0, 40)), ((40, 0), (0, 31)), ((38, 5), (-4, 33))):
        lab, grid = _seen_faces(col_step, row_step, 0.6, turn_deg)
        assert abs(_shear(lab, grid)) < 0.05


def test_a_lattice_sheared_off_square_faces_reads_them_sheared():
    # square faces seen overhead, a lattice whose rows step a fifth of a pitch sideways (as 44003 0408's, skew 0.18)
    lab, grid = _faces((40, 0), (0, 40), (24, 24), 4.0)
    assert abs(_shear(lab, grid)) < 0.05
    assert _shear(lab, replace(grid, row_step=np.array([7.5, 40.0]))) < -0.12
    assert _shear(lab, replace(grid, row_step=np.array([-7.5, 40.0]))) > 0.12


def test_too_few_faces_measure_no_shear():
    lab, grid = _faces((40, 0), (0, 40), (24, 24), 0.0)
    tests = [{"row": 0, "col": c, "cube": True} for c in range(3)]
    points = {(0, c): grid.centre(0, c) for c in range(3)}
    assert lattice_face_shear(grid, tests, points, lambda cell, cube, pitch: None) is None
    assert lattice_face_shear(grid, tests, points, _regions(lab)) is None  # (three faces: under face_spread_min_faces)
