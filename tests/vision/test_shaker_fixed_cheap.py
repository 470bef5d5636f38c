"""The fixed stages cheaper. find_cubes on the edge map in whole units (find_integer_edges): its boxes summed in
integers by OpenCV's integer box filter, cheaper than the float32 filter's double sums; its median table difference
partitioned within one bucket (_ranked). These fail when a cheaper path finds other candidates or numbers than the
earlier one, or when it is not taken."""

from __future__ import annotations

import random
from dataclasses import replace

import cv2
import numpy as np
import pytest

import vision.shaker as shaker
from vision.shaker import DEFAULT_SETTINGS, _edge_unit, _ranked, edge_strength, find_cubes, table_difference
from vision.shaker_scene import render_scene_set

ON = replace(DEFAULT_SETTINGS, find_integer_edges=True)
OFF = replace(DEFAULT_SETTINGS, find_integer_edges=False)


@pytest.fixture(scope="module")
def frames() -> list[np.ndarray]:
    return [frame for frame, _ in render_scene_set(random.Random(182031), 4)]


def test_edge_unit():
    """The default weights (0.6 / 8 for L, 1 / 8 for a and b) make every edge value a multiple of 1/40; weights
    with no such unit (or one too fine for 16 bits) give 0.0: find_cubes then keeps the float32 map."""
    assert _edge_unit(0.6) == 1 / 40
    assert _edge_unit(1.0) == 1 / 8
    assert _edge_unit(0.5) == 1 / 16
    assert _edge_unit(0.6173) == 0.0
    assert _edge_unit(40.0) == 0.0  # (1/8: a pixel up to 10710, but a halved pixel up to 42840)


def test_unit_map_is_the_magnitudes_weighted_sum(frames):
    """edge_strength's float map in units is 3 L + 5 (a + b) of the channels' 8-bit Sobel magnitudes, exactly."""
    for frame in frames:
        lab = table_difference(frame, DEFAULT_SETTINGS)[2]
        g = edge_strength(lab, DEFAULT_SETTINGS)
        mags = []
        for channel in cv2.split(lab):
            gx, gy = cv2.spatialGradient(channel)
            mags.append(cv2.add(cv2.convertScaleAbs(gx), cv2.convertScaleAbs(gy)).astype(np.int32))
        units = cv2.addWeighted(g, 40.0, g, 0.0, 0.0, dtype=cv2.CV_16S)
        assert np.array_equal(units, 3 * mags[0] + 5 * (mags[1] + mags[2]))


def _run(frame: np.ndarray, settings, monkeypatch) -> tuple[list, list]:
    depths: list = []
    box = cv2.boxFilter

    def spy(src, *args, **kwargs):
        depths.append(src.dtype)
        return box(src, *args, **kwargs)

    with monkeypatch.context() as m:
        m.setattr(shaker.cv2, "boxFilter", spy)
        return find_cubes(frame, settings), depths


@pytest.mark.parametrize(
    "changes",
    [{}, {"half_from": 100}, {"half_from": 0, "max_candidates": 5}],
    ids=["default", "working-copy", "halved-copy"],
)
def test_integer_edges_find_the_same_candidates(frames, monkeypatch, changes):
    """On: every box summed from a 16-bit map, and every size's candidates (positions, radii, contrasts) as off's,
    their strengths the same up to the float sums' rounding; off: the float32 map's boxes. Every size on the
    working copy, on the halved one, and as the defaults split them."""
    for frame in frames:
        on, on_depths = _run(frame, replace(ON, **changes), monkeypatch)
        off, off_depths = _run(frame, replace(OFF, **changes), monkeypatch)
        assert on_depths and set(on_depths) == {np.dtype(np.int16)}
        assert set(off_depths) == {np.dtype(np.float32)}
        assert len(on) == len(off)
        for a, b in zip(on, off, strict=True):
            assert np.array_equal(a.xy, b.xy) and np.array_equal(a.radius, b.radius)
            assert np.array_equal(a.contrast, b.contrast)
            if b.strength is None or not len(b.strength):
                continue
            assert np.allclose(a.strength, b.strength, rtol=1e-5, atol=0.0)


def test_integer_edges_on_synthetic_squares():
    """Squares of several sizes and colours on a flat table: each size finds the same points either way."""
    rng = np.random.default_rng(3)
    frame = np.full((384, 512, 3), (90, 120, 140), np.uint8)
    for side in (8, 12, 18, 26, 36):
        for _ in range(3):
            x, y = int(rng.integers(0, 512 - side)), int(rng.integers(0, 384 - side))
            colour = tuple(int(v) for v in rng.integers(0, 256, 3))
            cv2.rectangle(frame, (x, y), (x + side, y + side), colour, -1)
            cv2.rectangle(frame, (x, y), (x + side, y + side), (20, 20, 20), 1)
    on, off = find_cubes(frame, ON), find_cubes(frame, OFF)
    assert sum(len(c.xy) for c in off) > 0
    for a, b in zip(on, off, strict=True):
        assert np.array_equal(a.xy, b.xy) and np.array_equal(a.contrast, b.contrast)


def test_ranked_is_partitions_value():
    """_ranked (find_cubes' median table difference) gives np.partition's value at every rank: random floats of
    several spreads, few distinct values (ties across a bucket), all zeros, float32 and float64, and values too
    large or negative for its buckets (np.partition's own)."""
    rng = np.random.default_rng(11)
    for t in range(600):
        n = int(rng.integers(1, 2000))
        kind = t % 5
        if kind == 0:
            v = rng.random(n) * rng.choice([1.0, 50.0, 400.0, 3000.0])
        elif kind == 1:
            v = np.round(rng.random(n) * 40) / rng.choice([1.0, 4.0, 20.0, 7.0])
        elif kind == 2:
            v = np.zeros(n)
        elif kind == 3:
            v = rng.exponential(5.0, n)
        else:
            v = rng.normal(0.0, 1e4, n)
        v = v.astype(np.float32 if t % 2 else np.float64)
        rank = int(rng.integers(0, n))
        assert _ranked(v, rank) == float(np.partition(v, rank)[rank])
