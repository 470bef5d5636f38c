"""The fixed stages every frame pays (edge_strength, find_cubes) made cheaper with the same numbers: each against a
plain reference of the earlier way, bit for bit, on generated frames and synthetic arrays. No timings: these fail
when a cheaper path computes anything differently."""

from __future__ import annotations

import random
from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision.shaker import (
    DEFAULT_SETTINGS,
    Candidates,
    ShakerSettings,
    _box_means,
    _box_means_at,
    _peaks,
    edge_strength,
    find_cubes,
    table_difference,
)
from vision.shaker_scene import render_scene_set


def _table_difference_as_before(
    frame_bgr: np.ndarray, settings: ShakerSettings
) -> tuple[np.ndarray, float, np.ndarray, np.ndarray]:
    """table_difference as main had it: every working map a new array."""
    h, w = frame_bgr.shape[:2]
    scale = max(h, w) / settings.work_long_side
    if scale > 1.0:
        ww, wh = max(1, round(w / scale)), max(1, round(h / scale))
        work = cv2.resize(frame_bgr, (ww, wh), interpolation=cv2.INTER_AREA)
    else:
        scale = 1.0
        work = frame_bgr
    lab = cv2.cvtColor(work, cv2.COLOR_BGR2Lab)
    wh, ww = lab.shape[:2]
    s = settings.background_shrink
    tiny = cv2.resize(lab, (max(1, ww // s), max(1, wh // s)), interpolation=cv2.INTER_AREA)
    k = min(255, max(3, int(round(settings.background_window * max(tiny.shape[:2])))) | 1)
    bg_tiny = cv2.medianBlur(tiny, k)
    bg = cv2.resize(bg_tiny, (ww, wh), interpolation=cv2.INTER_LINEAR)
    dl, da, db = cv2.split(cv2.absdiff(lab, bg))
    d = cv2.addWeighted(dl, settings.lightness_weight, cv2.add(da, db), 1.0, 0.0, dtype=cv2.CV_32F)
    return d, scale, lab, bg_tiny


def _edge_strength_as_before(lab: np.ndarray, settings: ShakerSettings) -> np.ndarray:
    """edge_strength as main had it: two 3-channel Sobels, their magnitudes split, weighted and summed."""
    g = np.zeros(lab.shape[:2], np.float32)
    gx = cv2.Sobel(lab, cv2.CV_16S, 1, 0, ksize=3)
    gy = cv2.Sobel(lab, cv2.CV_16S, 0, 1, ksize=3)
    mags = cv2.split(cv2.add(cv2.convertScaleAbs(gx), cv2.convertScaleAbs(gy)))
    for mag, weight in zip(mags, (settings.edge_lightness_weight, 1.0, 1.0), strict=True):
        g = cv2.scaleAdd(mag.astype(np.float32), weight / 8.0, g)
    return g


def _find_cubes_as_before(
    d: np.ndarray, scale: float, g: np.ndarray, settings: ShakerSettings = DEFAULT_SETTINGS
) -> list[Candidates]:
    """find_cubes as main had it: each size's candidates made from its own points, one size after another."""
    g_half = cv2.resize(g, (max(1, g.shape[1] // 2), max(1, g.shape[0] // 2)), interpolation=cv2.INTER_AREA)
    d_half = cv2.resize(d, (g_half.shape[1], g_half.shape[0]), interpolation=cv2.INTER_AREA)
    thr = max(settings.response_min, settings.response_noise_factor * float(np.mean(g)))
    sub = d[::4, ::4].ravel()
    d_thr = max(4.0, float(np.partition(sub, sub.size // 2)[sub.size // 2]))
    d_half_sum = cv2.integral(d_half)
    sizes = settings.box_sizes
    out = []
    for j in range(len(sizes) - 2):
        top = sizes[j + 1]
        level = 0 if top < settings.half_from else 1
        f = 2**level
        img = g if level == 0 else g_half
        b_in = max(2, int(round(sizes[j] / f)))
        b_out = max(b_in + 2, int(round(sizes[j + 2] / f)))
        s_in = cv2.boxFilter(img, -1, (b_in, b_in), normalize=False, borderType=cv2.BORDER_REPLICATE)
        s_out = cv2.boxFilter(img, -1, (b_out, b_out), normalize=False, borderType=cv2.BORDER_REPLICATE)
        a_ring = float(b_out * b_out - b_in * b_in)
        resp = cv2.addWeighted(s_out, 1.0 / a_ring, s_in, -(1.0 / a_ring + 1.0 / (b_in * b_in)), 0.0)
        k = max(3, int(settings.nms_radius * top / f) | 1)
        xs, ys = _peaks(resp, thr, k)
        if len(xs) == 0:
            out.append(Candidates(np.zeros((0, 2)), np.zeros(0), np.zeros(0), scale))
            continue
        strength = resp[ys, xs].astype(np.float64)
        order = np.argsort(-strength, kind="stable")[: settings.max_candidates]
        xs, ys, strength = xs[order], ys[order], strength[order]
        pts = np.stack([xs, ys], 1).astype(np.float64)
        half_in = max(1, b_in // 2)
        contrast = (
            _box_means_at(d, xs, ys, half_in) if level == 0 else _box_means(d_half_sum, xs, ys, half_in)
        ) / d_thr
        xy = (pts + 0.5) * (scale * f) - 0.5
        out.append(Candidates(xy, np.full(len(xy), top * scale / 2.0), contrast.astype(np.float64), scale, strength))
    return out


def _same_array(a: np.ndarray | None, b: np.ndarray | None) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def _same_candidates(a: list[Candidates], b: list[Candidates]) -> bool:
    return len(a) == len(b) and all(
        x.scale == y.scale
        and all(_same_array(getattr(x, k), getattr(y, k)) for k in ("xy", "radius", "contrast", "strength"))
        for x, y in zip(a, b, strict=True)
    )


@pytest.fixture(scope="module")
def frames() -> list[np.ndarray]:
    return [frame for frame, _ in render_scene_set(random.Random(41017), 4)]


def test_table_difference_writes_over_its_own_maps_only(frames):
    """table_difference's difference written over the upscaled table model's memory (and a + b over a's) gives
    main's numbers bit for bit, and leaves the frame as it was: on generated frames, a frame smaller than the working
    size (the frame itself is the working copy) and a saturated one."""
    rng = np.random.default_rng(11)
    small = rng.integers(0, 256, (300, 400, 3), dtype=np.uint8)
    saturated = rng.integers(0, 2, (768, 1024, 3), dtype=np.uint8) * np.uint8(255)
    for frame in [*frames, small, saturated]:
        kept = frame.copy()
        new, old = table_difference(frame, DEFAULT_SETTINGS), _table_difference_as_before(frame, DEFAULT_SETTINGS)
        assert np.array_equal(frame, kept)
        assert new[1] == old[1]
        for a, b in zip((new[0], new[2], new[3]), (old[0], old[2], old[3]), strict=True):
            assert _same_array(a, b)


def test_edge_strength_is_the_sobel_formula(frames):
    """cv2.spatialGradient per channel gives the 3-channel Sobels' map bit for bit: on generated frames, on random
    and saturated arrays (magnitudes clipped at 255) and on images a few pixels small (the reflected border)."""
    for settings in (DEFAULT_SETTINGS, replace(DEFAULT_SETTINGS, edge_lightness_weight=0.37)):
        for frame in frames:
            lab = table_difference(frame, settings)[2]
            assert edge_strength(lab, settings).tobytes() == _edge_strength_as_before(lab, settings).tobytes()
    rng = np.random.default_rng(3)
    for shape in ((1, 1), (2, 3), (3, 2), (1, 9), (7, 1), (5, 8), (33, 65), (384, 512)):
        for lab in (
            rng.integers(0, 256, (*shape, 3), dtype=np.uint8),
            rng.integers(0, 2, (*shape, 3), dtype=np.uint8) * np.uint8(255),
        ):
            new, old = edge_strength(lab, DEFAULT_SETTINGS), _edge_strength_as_before(lab, DEFAULT_SETTINGS)
            assert new.dtype == old.dtype and new.shape == old.shape and new.tobytes() == old.tobytes()


def test_find_cubes_candidates_are_each_sizes_own(frames):
    """The candidates of all sizes made at once are the numbers each size's own made (positions, radii, contrasts,
    responses, dtypes and shapes), on the working copy and the halved one, with few and many kept, and with no
    point found at any size. (The float32 edge map's boxes, as the reference sums them: find_integer_edges' integer
    sums give the responses up to the float sums' rounding, test_shaker_fixed_cheap.)"""
    float_boxes = replace(DEFAULT_SETTINGS, find_integer_edges=False)
    settings_tried = (
        float_boxes,
        replace(float_boxes, half_from=100),  # every size on the working copy
        replace(float_boxes, half_from=0, max_candidates=5),  # every size on the halved copy, few kept
    )
    found = 0
    for settings in settings_tried:
        for frame in frames:
            d, scale, lab, _ = table_difference(frame, settings)
            g = edge_strength(lab, settings)
            new = find_cubes(frame, settings, work=(d, scale, lab), edges=g)
            assert _same_candidates(new, _find_cubes_as_before(d, scale, g, settings))
            found += sum(len(c.xy) for c in new)
    assert found >= 100
    flat = np.full((384, 512, 3), 128, np.uint8)  # nothing like a cube: every size empty
    d, scale, lab, _ = table_difference(flat, DEFAULT_SETTINGS)
    g = edge_strength(lab, DEFAULT_SETTINGS)
    new = find_cubes(flat, work=(d, scale, lab), edges=g)
    assert all(len(c.xy) == 0 and c.strength is None for c in new)
    assert _same_candidates(new, _find_cubes_as_before(d, scale, g))


def test_a_sizes_candidates_own_their_rows(frames):
    """Each size's candidates are rows of their own (C-contiguous, one size's points only): a size's positions
    changed in place leave every other size's as they were."""
    d, scale, lab, _ = table_difference(frames[0], DEFAULT_SETTINGS)
    sizes = find_cubes(frames[0], work=(d, scale, lab), edges=edge_strength(lab, DEFAULT_SETTINGS))
    filled = [c for c in sizes if len(c.xy)]
    assert len(filled) >= 2
    before = [c.xy.copy() for c in filled]
    filled[0].xy[:] = -1.0
    assert all(np.array_equal(c.xy, b) for c, b in zip(filled[1:], before[1:], strict=True))
    assert all(c.xy.flags.c_contiguous and c.xy.shape == (len(c.radius), 2) for c in filled)
