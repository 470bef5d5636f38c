"""The cast-shadow test's cheaper path (vision.shaker_cube_look) gives the plain path's numbers bit for bit.

cast_shadow_cells learns the lamp's shadow by trying 64 offsets, each once read as two medians of boolean-masked
lightness. The faster path sorts the table once and picks each offset's medians by rank, lays all offsets'
shadows at once from cached, bit-packed kernels, asks the swept squares of other shapes only in their windows and
looks the linear light up per 8-bit value. Each is checked here against the plain computation it replaces.
"""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import numpy as np
import pytest

import vision.shaker_cube_look as look
from vision.shaker import DEFAULT_SETTINGS

from .shaker_sets import set_scene

_CELLS = [(i % 3, i // 3) for i in range(9)]


def _plain_shadow(lum, table, cubes, settings, n):
    """The learnt shadow as first written: per offset, the swept kernel made, laid at each cube and the two
    medians taken by np.median of the masked values."""
    step = settings.solid_step
    min_points = settings.solid_min_area / step**2
    reach = settings.solid_half + max(settings.solid_lengths)
    k = int(np.ceil(reach / step))
    ka, kb = np.meshgrid(np.arange(-k, k + 1) * step, np.arange(-k, k + 1) * step)
    at = [
        (round((_CELLS[i][0] + settings.solid_margin) / step), round((_CELLS[i][1] + settings.solid_margin) / step))
        for i in cubes
    ]
    best = None
    for ang in look._DIRECTIONS:
        for length in settings.solid_lengths:
            d = (float(np.cos(ang) * length), float(np.sin(ang) * length))
            kernel = look._swept_square(ka, kb, d, settings.solid_half)
            shadow = np.zeros((n, n), bool)
            for x, y in at:
                x0, y0 = max(0, x - k), max(0, y - k)
                x1, y1 = min(n, x + k + 1), min(n, y + k + 1)
                shadow[y0:y1, x0:x1] |= kernel[y0 - y + k : y1 - y + k, x0 - x + k : x1 - x + k]
            dark, lit = table & shadow, table & ~shadow
            if dark.sum() < min_points or lit.sum() < min_points:
                continue
            f = float(np.median(lum[lit]) - np.median(lum[dark]))
            if best is None or f > best[0]:
                best = (f, d, shadow)
    return best


def _axis(settings):
    return np.arange(-settings.solid_margin, 2.0 + settings.solid_margin + 1e-9, settings.solid_step)


def _same(plain, fast) -> bool:
    if plain is None or fast is None:
        return plain is None and fast is None
    return plain[0] == fast[0] and plain[1] == fast[1] and np.array_equal(plain[2], fast[2])


def _frame_and_grid():
    """A generated frame (seed 3, frame 0) and a lattice over its middle (90 px pitch, a little turned)."""
    frame_bgr, _ = set_scene(3, 0)
    h, w = frame_bgr.shape[:2]
    grid = SimpleNamespace(origin=(w / 2 - 95.0, h / 2 - 80.0), col_step=(88.0, 9.0), row_step=(-9.0, 88.0))
    return frame_bgr, grid


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_learnt_shadow_as_the_plain_medians_on_synthetic_lightness(seed):
    """Random lightness, continuous (every rank's value its own: a rank off by one shows) and with many ties (a
    few levels: equal medians), a dark patch beside the cubes, tables with holes (even and odd counts): the same
    darkness (==, not close), offset and mask as the plain loop."""
    rng = np.random.default_rng(seed)
    settings = DEFAULT_SETTINGS
    n = len(_axis(settings))
    compared = 0
    for trial in range(12):
        if trial % 2:
            levels = rng.integers(2, 40)
            lum = (rng.integers(0, levels, (n, n)) / levels * -2.0).astype(np.float32)
        else:
            lum = rng.normal(-1.0, 0.5, (n, n)).astype(np.float32)
        lum[rng.integers(0, n - 20) :, : rng.integers(20, n)] -= np.float32(0.7)  # a shadow-like dark part
        table = rng.random((n, n)) < 0.6 + 0.4 * trial / 12
        cubes = sorted(rng.choice(9, size=rng.integers(1, 9), replace=False).tolist())
        plain = _plain_shadow(lum, table, cubes, settings, n)
        fast = look._learnt_shadow(lum, table, cubes, _CELLS, settings, n)
        assert _same(plain, fast), (trial, plain and plain[:2], fast and fast[:2])
        compared += plain is not None
    assert compared >= 8  # (most trials learn a shadow: the check is not of Nones)


def test_learnt_shadow_as_the_plain_medians_on_a_generated_frame():
    """A generated frame's lattice lightness, tables as cast_shadow_cells makes them (asked cells' neighbourhoods
    left out) and other lengths: the same learnt shadow as the plain loop."""
    frame_bgr, grid = _frame_and_grid()
    for settings in (DEFAULT_SETTINGS, replace(DEFAULT_SETTINGS, solid_lengths=(0.5, 1.0), solid_half=0.3)):
        axis = _axis(settings)
        lum, inside = look._lattice_lightness(frame_bgr, grid, axis)
        a, b = np.meshgrid(axis, axis)
        for asked in ([4], [0, 8], [2]):
            near = np.zeros(a.shape, bool)
            for i in asked:
                near |= (np.abs(a - _CELLS[i][0]) <= 1.0) & (np.abs(b - _CELLS[i][1]) <= 1.0)
            cubes = [i for i in range(9) if i not in asked]
            plain = _plain_shadow(lum, inside & ~near, cubes, settings, len(axis))
            assert plain is not None
            assert _same(plain, look._learnt_shadow(lum, inside & ~near, cubes, _CELLS, settings, len(axis)))


def test_lightness_lookup_as_the_power(monkeypatch):
    """The linear light looked up per value (cv2.LUT) gives the power's lattice lightness bit for bit (a generated
    frame, a lattice partly off it)."""
    frame_bgr, grid = _frame_and_grid()
    axis = _axis(DEFAULT_SETTINGS)
    off = SimpleNamespace(origin=(-40.0, 30.0), col_step=grid.col_step, row_step=grid.row_step)
    for g in (grid, off):
        lum, inside = look._lattice_lightness(frame_bgr, g, axis)
        with monkeypatch.context() as m:
            m.setattr(look, "_LINEAR_LUT", False)
            lum0, inside0 = look._lattice_lightness(frame_bgr, g, axis)
        assert lum.dtype == lum0.dtype == np.float32
        assert np.array_equal(lum.view(np.uint32), lum0.view(np.uint32)) and np.array_equal(inside, inside0)
    values = np.arange(256, dtype=np.uint8).reshape(16, 16, 1).repeat(3, 2)
    assert np.array_equal(look._linear(values)[..., 0], look._LINEAR.reshape(16, 16))


def test_windowed_squares_as_the_whole_grid():
    """_swept_at and _square_at, asked only in their windows, as the swept square and square on every point
    (centres on and off the points, offsets along the axes and slanted, near the edges)."""
    rng = np.random.default_rng(5)
    axis = _axis(DEFAULT_SETTINGS)
    a, b = np.meshgrid(axis, axis)
    for _ in range(60):
        c, r = rng.uniform(-2.0, 4.0, 2)
        if rng.random() < 0.3:
            c, r = float(rng.integers(0, 3)), float(rng.integers(0, 3))
        ang, length = rng.uniform(0, 2 * np.pi), rng.uniform(0.0, 1.2)
        d = (float(np.cos(ang) * length), float(np.sin(ang) * length))
        if rng.random() < 0.2:
            d = (0.0, length)
        half = rng.uniform(0.2, 0.6)
        assert np.array_equal(look._swept_at(a, b, c, r, d, half), look._swept_square(a - c, b - r, d, half))
        square = (np.abs(a - c) <= half) & (np.abs(b - r) <= half)
        assert np.array_equal(look._square_at(a, b, c, r, half), square)
