"""The table's own repeat (the shaker reader's ``repeat`` settings): a cell a checked cloth explains is no cube.

A gingham or any regularly printed table repeats: its picture shifted by one of its periods lands on itself. A
cell of such a table that a lattice took for a cube (a white check read as a white cube) looks like the table one,
two or more periods away, well clear of the pattern; a cube does not, whatever its colour, for its outline, its side
faces and its shadow are not the print's. :func:`table_periods` finds the table's two periods from the working
copy's autocorrelation; :func:`repeat_distances` says, for each cell, how far its patch lies from the patches the
periods carry it to (the second nearest: one coincidence, such as a stray cube, is not enough), in CIE76.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import Any

import cv2
import numpy as np

from .colour import lab8_to_lab


def table_periods(lab8: np.ndarray, min_period: float, min_peak: float) -> np.ndarray | None:
    """The table's two periods (2, 2) as (dx, dy) in working pixels, or None when the picture does not repeat.

    ``lab8``: the working copy's 8-bit Lab. The lightness' autocorrelation (windowed, normalised to 1 at no shift)
    is searched for local maxima between ``min_period`` and a third of the shorter side; the highest is the first
    period, the highest not within about 30 degrees of its line the second. Both must reach ``min_peak``: a plain
    table, a wood's grain or an irregular print does not repeat that strongly.
    """
    lightness = lab8[..., 0].astype(np.float32)
    h, w = lightness.shape
    if h < 8 or w < 8:
        return None
    lightness -= float(lightness.mean())
    spectrum = cv2.dft(lightness * _window(h, w))  # (packed: a real picture's spectrum, half of it)
    auto = cv2.idft(cv2.mulSpectrums(spectrum, spectrum, 0, conjB=True), flags=cv2.DFT_REAL_OUTPUT)
    reach_max = min(h, w) / 3
    r = min(int(reach_max) + 3, (min(h, w) - 1) // 2)  # (the shifts searched, and the neighbours the search reads)
    auto = np.roll(auto, (r, r), axis=(0, 1))[: 2 * r + 1, : 2 * r + 1]  # (no shift at (r, r))
    if auto[r, r] <= 0:
        return None
    auto = auto / auto[r, r]
    allowed = _shifts_searched(r, float(min_period), reach_max)
    peaks = (auto >= cv2.dilate(auto, np.ones((5, 5), np.uint8))) & allowed & (auto >= min_peak)
    ys, xs = np.nonzero(peaks)
    if len(ys) < 2:
        return None
    order = np.argsort(-auto[ys, xs], kind="stable")
    first = _subpixel(auto, ys[order[0]], xs[order[0]]) - r
    for k in order[1:]:
        other = _subpixel(auto, ys[k], xs[k]) - r
        if abs(other @ first) < 0.85 * np.linalg.norm(other) * np.linalg.norm(first):
            return np.array([first, other])
    return None


@functools.lru_cache(maxsize=4)
def _shifts_searched(r: int, min_period: float, reach_max: float) -> np.ndarray:
    """Which shifts of the (2r + 1) square, no shift at its centre, are searched for a period: at least
    ``min_period`` and at most ``reach_max`` long, in one half plane (the autocorrelation is symmetric)."""
    yy, xx = np.mgrid[-r : r + 1, -r : r + 1]
    reach = np.hypot(xx, yy)
    return (reach >= min_period) & (reach <= reach_max) & ((yy > 0) | ((yy == 0) & (xx > 0)))


@functools.lru_cache(maxsize=4)
def _window(h: int, w: int) -> np.ndarray:
    """A 2-d Hann window (float32), against the frame's edges' own spectrum."""
    return np.outer(np.hanning(h), np.hanning(w)).astype(np.float32)


def _subpixel(auto: np.ndarray, y: int, x: int) -> np.ndarray:
    """The (x, y) of a local maximum of ``auto`` at pixel (y, x), refined by a parabola through it and its two
    neighbours on each axis (a shift of many periods multiplies a whole pixel's error)."""
    h, w = auto.shape
    out = np.array([float(x), float(y)])
    for axis, (lo, mid, hi) in enumerate(
        (
            (auto[y, max(0, x - 1)], auto[y, x], auto[y, min(w - 1, x + 1)]),
            (auto[max(0, y - 1), x], auto[y, x], auto[min(h - 1, y + 1), x]),
        )
    ):
        curve = float(lo) - 2.0 * float(mid) + float(hi)
        if curve < 0:
            out[axis] += float(np.clip(0.5 * (float(lo) - float(hi)) / curve, -0.5, 0.5))
    return out


def repeat_distances(
    lab8: np.ndarray,
    periods: np.ndarray,
    centres_w: np.ndarray,
    pitch_w: float,
    settings: Any,
    *,
    middle_w: np.ndarray | None = None,
    half_pitches: float | None = None,
) -> np.ndarray:
    """Each cell's distance (CIE76, the mean of the nearest ``repeat_kept_share`` of a square patch's pixels,
    ``repeat_half`` pitches each way) to the table the periods carry it to: the second smallest over the shifts by
    up to ``repeat_span`` of each period that land at least ``repeat_clear`` pitches from the grid's centre cell,
    within ``repeat_reach`` pitches of the cell and inside the frame. ``lab8``: the working copy's 8-bit Lab (uint8,
    as :func:`table_periods`'). ``centres_w``: the nine cells' centres in
    working pixels, row by row. inf for a cell with fewer than two such shifts. Other points: ``centres_w`` any
    points, ``middle_w`` the grid's centre cell, ``half_pitches`` the patch's half side (else ``repeat_half``)."""
    h, w = lab8.shape[:2]
    half_share = settings.repeat_half if half_pitches is None else half_pitches
    half = max(2, round(half_share * pitch_w))
    span = np.arange(-settings.repeat_span, settings.repeat_span + 1)
    k1, k2 = (a.ravel() for a in np.meshgrid(span, span))
    shifts = k1[:, None] * periods[0] + k2[:, None] * periods[1]
    shifts = shifts[(k1 != 0) | (k2 != 0)]
    middle = centres_w[4] if middle_w is None else middle_w
    offsets = np.arange(-half, half + 1, dtype=np.float32)
    ox, oy = np.meshgrid(offsets, offsets)
    out = np.full(len(centres_w), np.inf)
    # (only the region the patches can reach is converted: the same numbers pixel by pixel, and the patches' sample
    # points shifted by its corner)
    far = settings.repeat_reach * pitch_w + half + 2
    x0, y0 = (max(0, int(np.floor(v - far))) for v in centres_w.min(0))
    x1, y1 = (int(np.ceil(v + far)) + 1 for v in centres_w.max(0))
    # (the region's 8-bit Lab looked up per channel: lab8_to_lab's float32s, in one OpenCV pass)
    lab = cv2.LUT(lab8[y0:y1, x0:x1], _lab8_table())
    corner = np.array([x0, y0], dtype=np.float64)
    for i, centre in enumerate(centres_w):
        there = centre + shifts
        ok = (np.hypot(*(there - middle).T) >= settings.repeat_clear * pitch_w) & (
            np.hypot(*(there - centre).T) <= settings.repeat_reach * pitch_w
        )
        ok &= (there[:, 0] > half) & (there[:, 0] < w - 1 - half) & (there[:, 1] > half) & (there[:, 1] < h - 1 - half)
        there = there[ok]
        if len(there) < 2:
            continue
        points = np.concatenate([centre[None], there]) - corner  # (n, 2): the cell first
        map_x = (points[:, 0, None, None] + ox[None]).astype(np.float32).reshape(-1, ox.shape[1])
        map_y = (points[:, 1, None, None] + oy[None]).astype(np.float32).reshape(-1, ox.shape[1])
        patches = cv2.remap(lab, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        patches = patches.reshape(len(points), -1, 3)
        # (the squared differences summed channel by channel, in the order a sum over the last axis of three takes:
        # the same float32s, without a reduction's overhead)
        diff = patches[1:] - patches[0][None]
        diff *= diff
        per_pixel = diff[..., 0] + diff[..., 1]
        per_pixel += diff[..., 2]
        np.sqrt(per_pixel, out=per_pixel)
        kept = max(1, round(settings.repeat_kept_share * per_pixel.shape[1]))
        # (the nearest pixels' mean: a neighbour's shadow or side face over a sliver of an empty cell is left out)
        distances = np.partition(per_pixel, kept - 1, axis=1)[:, :kept].mean(1)
        out[i] = float(np.partition(distances, 1)[1])
    return out


def frame_periods(lab8: np.ndarray, settings: Any, memo: dict[Any, Any] | None = None) -> np.ndarray | None:
    """:func:`table_periods` of the working copy's 8-bit Lab with ``repeat_min_period`` and ``repeat_min_peak``,
    found once a frame: ``memo`` (the frame's) keeps them for the next asker."""
    key = ("table_periods",)
    if memo is not None and key in memo:
        return memo[key]
    periods = table_periods(lab8, settings.repeat_min_period, settings.repeat_min_peak)
    if memo is not None:
        memo[key] = periods
    return periods


@functools.lru_cache(maxsize=1)
def _lab8_table() -> np.ndarray:
    """``lab8_to_lab``'s float32 CIELAB of each 8-bit value per channel, as a (256, 1, 3) table for cv2.LUT."""
    values = np.repeat(np.arange(256, dtype=np.uint8)[:, None, None], 3, axis=2)
    table = lab8_to_lab(values, single=True)
    table.flags.writeable = False
    return table


def repeated_cells(
    cell_tests: Sequence[dict[str, Any]],
    lab8: np.ndarray,
    scale: float,
    grid: Any,
    busy: bool,
    settings: Any,
    memo: dict[Any, Any] | None = None,
    min_table: float = 0.0,
) -> list[tuple[int, int]]:
    """The cells (row, col) taken for cubes that the table's repeat explains: ``repeat_distances`` under
    ``repeat_same_max``, for a cell at least ``min_table`` (``d_table``) from the table's colour. Asked only when
    ``busy`` (the frame's edges lift the finder's threshold, or the caller has another reason to ask) on a picture that
    repeats (:func:`table_periods`, found once a frame: ``memo`` keeps them). Each asked cell's test gets its
    ``repeat`` distance, for the debug output."""
    if not settings.repeat_cells or not busy:
        return []
    periods = frame_periods(lab8, settings, memo)
    if periods is None:
        return []
    distances = cell_repeat_distances(
        lab8, periods, scale, grid, [(r, c) for r in range(3) for c in range(3)], settings
    )
    out = []
    for t in cell_tests:
        i = int(t["row"]) * 3 + int(t["col"])
        if np.isfinite(distances[i]):
            t["repeat"] = round(float(distances[i]), 1)
        if t["cube"] and distances[i] < settings.repeat_same_max and float(t.get("d_table", math.inf)) >= min_table:
            out.append((int(t["row"]), int(t["col"])))
    return out


def repeated_line(
    lab8: np.ndarray,
    scale: float,
    grid: Any,
    line: Sequence[tuple[int, int]],
    settings: Any,
    memo: dict[Any, Any] | None = None,
) -> bool:
    """Whether any cell (row, col) of ``grid``'s ``line`` lies under ``repeat_same_max`` from the table's repeats
    (:func:`repeat_distances`, ``repeat_half`` pitches each way, clear of the grid's centre cell): the table's print
    there, not a cube. False on a picture that does not repeat (:func:`frame_periods`, ``memo`` the frame's)."""
    periods = frame_periods(lab8, settings, memo)
    if periods is None or not line:
        return False
    return bool(np.any(cell_repeat_distances(lab8, periods, scale, grid, line, settings) < settings.repeat_same_max))


def cell_repeat_distances(
    lab8: np.ndarray,
    periods: np.ndarray,
    scale: float,
    grid: Any,
    cells: Sequence[tuple[int, int]],
    settings: Any,
) -> np.ndarray:
    """:func:`repeat_distances` of ``grid``'s cells (row, col), its centres and pitch in frame pixels taken to the
    working copy (``scale`` frame pixels per working pixel), clear of the grid's centre cell."""
    centres = np.array([grid.centre(r, c) for r, c in cells], dtype=np.float64)
    middle = np.asarray(grid.centre(1, 1), dtype=np.float64)
    return repeat_distances(
        lab8,
        periods,
        (centres + 0.5) / scale - 0.5,
        float(grid.pitch) / scale,
        settings,
        middle_w=(middle + 0.5) / scale - 0.5,
    )
