"""The read path's cheaper looks give the numbers the plainer code gave.

tone_shares' ring of table points and disk_colours' disk offsets are made once (cached), disk_colours' medians are
taken on the 8-bit values, sample_top_faces marks the left-out values in one pass, top_face's centre is made in
Python floats, table_colours_at rounds x and y in one pass, and _build inverts the steps from the fit's rows. The
looks with more than float arithmetic moved are checked here against the code they replaced (written out below), on
random and generated frames; every look was also replayed against main's on the tuning frames (see the commits)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from vision import shaker_checks
from vision.colour import lab8_to_lab, lab_to_linear_rgb
from vision.shaker import (
    _LAB8_OFFSET,
    DEFAULT_SETTINGS,
    Grid,
    sample_top_face,
    sample_top_faces,
    table_colours_at,
    table_difference,
)

from .shaker_sets import set_scene


def _grid(origin: tuple[float, float], pitch: float, angle_deg: float = 7.0) -> Grid:
    a = math.radians(angle_deg)
    col = np.array([math.cos(a), math.sin(a)]) * pitch
    row = np.array([-math.sin(a), math.cos(a)]) * pitch
    return Grid(np.array(origin, dtype=np.float64), col, row, ((0, 1, 2), (3, 4, 5), (6, 7, 8)), 9, 0)


def _old_ring_points(grid: Grid, inner: float, outer: float, step: float) -> np.ndarray:
    coords = np.arange(-outer, 2 + outer + 1e-9, step)
    u, v = np.meshgrid(coords, coords)
    u, v = u.ravel(), v.ravel()
    beyond = np.maximum(np.maximum(-u, u - 2), np.maximum(-v, v - 2))
    u, v = u[beyond >= inner], v[beyond >= inner]
    return np.asarray(grid.origin) + u[:, None] * np.asarray(grid.col_step) + v[:, None] * np.asarray(grid.row_step)


def _old_disk_colours(work_lab8: np.ndarray, scale: float, grid: Grid, points: np.ndarray) -> np.ndarray:
    h, w = work_lab8.shape[:2]
    points = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    rad = max(1.0, DEFAULT_SETTINGS.sample_radius * grid.pitch / scale)
    r_i = int(np.ceil(rad))
    oy, ox = np.mgrid[-r_i : r_i + 1, -r_i : r_i + 1]
    disk = oy * oy + ox * ox <= rad * rad
    c = np.rint((points + 0.5) / scale - 0.5).astype(int)
    ys = np.clip(c[:, 1:2] + oy[disk], 0, h - 1)
    xs = np.clip(c[:, 0:1] + ox[disk], 0, w - 1)
    return lab8_to_lab(np.median(work_lab8[ys, xs].astype(np.float64), axis=1))


@pytest.mark.parametrize("pitch", [9.0, 23.7, 41.3, 66.0])
def test_tone_shares_and_disk_colours_as_before(pitch: float) -> None:
    rng = np.random.default_rng(int(pitch * 10))
    # a table of few tones (shares between 0 and 1) with noise, 8-bit Lab like the reader's working copy
    tones = rng.integers(0, 256, (4, 3))
    which = rng.choice(4, (240, 320), p=[0.7, 0.1, 0.1, 0.1])
    lab8 = (tones[which] + rng.integers(-1, 2, (240, 320, 3))).clip(0, 255).astype(np.uint8)
    scale = 1.3
    grid = _grid((70.0, 60.0), pitch)
    points = np.vstack([grid.centre(r, c) for r in range(3) for c in range(3)] + [[-5.0, 3.0], [410.0, 300.0]])
    got = shaker_checks.disk_colours(lab8, scale, grid, points, DEFAULT_SETTINGS)
    want = _old_disk_colours(lab8, scale, grid, points)
    assert got.dtype == want.dtype and got.tobytes() == want.tobytes()
    ring = shaker_checks.ring_points(grid, *DEFAULT_SETTINGS.cloth_ring_points)
    assert ring.tobytes() == _old_ring_points(grid, *DEFAULT_SETTINGS.cloth_ring_points).tobytes()
    # tone_shares as the old ring and disks make it
    h, w = lab8.shape[:2]
    p = np.rint((_old_ring_points(grid, *DEFAULT_SETTINGS.cloth_ring_points) + 0.5) / scale - 0.5).astype(int)
    p = p[(p[:, 0] >= 0) & (p[:, 0] < w) & (p[:, 1] >= 0) & (p[:, 1] < h)]
    around = lab8_to_lab(lab8[p[:, 1], p[:, 0]])
    near = np.linalg.norm(around[None, :, :] - want[:, None, :], axis=2) <= DEFAULT_SETTINGS.cloth_delta_e
    shares = shaker_checks.tone_shares(lab8, scale, grid, points, DEFAULT_SETTINGS)
    assert shares.tobytes() == near.mean(axis=1).tobytes()
    assert shares.max() > 0  # (the test sees shares at all)


def test_ring_and_disk_offsets_made_once() -> None:
    grid = _grid((50.0, 40.0), 30.0)
    lab8 = np.zeros((120, 160, 3), np.uint8)
    shaker_checks.tone_shares(lab8, 1.0, grid, np.array([[60.0, 50.0]]), DEFAULT_SETTINGS)
    ring_hits = shaker_checks._ring_coords.cache_info().hits
    square_hits = shaker_checks._square_offsets.cache_info().hits
    shaker_checks.tone_shares(lab8, 1.0, _grid((52.0, 41.0), 30.5), np.array([[61.0, 50.0]]), DEFAULT_SETTINGS)
    assert shaker_checks._ring_coords.cache_info().hits == ring_hits + 1
    assert shaker_checks._square_offsets.cache_info().hits == square_hits + 1
    u, v = shaker_checks._ring_coords(*map(float, DEFAULT_SETTINGS.cloth_ring_points))
    assert not u.flags.writeable and not v.flags.writeable  # (the cache's own: no caller may change them)


def test_sample_top_faces_as_one_by_one() -> None:
    rng = np.random.default_rng(7)
    frame = rng.integers(0, 256, (200, 260, 3), dtype=np.uint8)
    for rad in (1.5, 4.2, 9.3, 14.0):
        pts = rng.uniform(20, 180, (9, 2))
        got = sample_top_faces(frame, pts, rad)
        want = np.array([sample_top_face(frame, p, rad) for p in pts])
        assert got.tobytes() == want.tobytes()


def test_table_colours_as_before() -> None:
    frame, _ = set_scene(41001, 0)
    _, scale, _, table_lab8 = table_difference(frame, DEFAULT_SETTINGS)
    # inside, on the edges and beyond them (clamped)
    xy = np.vstack([np.random.default_rng(3).uniform(-40, 1100, (40, 2)), [[0.0, 0.0], [1023.4, 767.6]]])
    f = scale * DEFAULT_SETTINGS.background_shrink
    h, w = table_lab8.shape[:2]
    xs = np.minimum(np.maximum(np.rint((xy[:, 0] + 0.5) / f - 0.5), 0), w - 1).astype(int)
    ys = np.minimum(np.maximum(np.rint((xy[:, 1] + 0.5) / f - 0.5), 0), h - 1).astype(int)
    under = table_lab8[ys, xs]
    lab_old = under - _LAB8_OFFSET
    lab_old[:, 0] = under[:, 0] * 100.0 / 255
    want = np.maximum(lab_to_linear_rgb(lab_old), 1e-4)
    assert table_colours_at(table_lab8, xy, scale, DEFAULT_SETTINGS).tobytes() == want.tobytes()
