"""A cube the cell test missed, seen by what a solid does to the table around it: its cast shadow.

:func:`vision.shaker.verify_cells` asks whether a cell is *not the table*: its colour, outline, gaps and top
face's edges. A cube of about the table's colour (white on a light table, black on a dark one, gray on gray)
fails those looks, and so, alike, does an empty cell. What tells them apart is that a cube is a solid standing on
the table: under the one lamp every cube casts a shadow the same way, and the frame's verified cubes show which
way and how dark. An empty cell casts none.

:func:`cast_shadow_cells` learns the shadow from the verified cubes (the direction and length in the lattice's
frame that best splits the table around the grid into the cubes' predicted shadow and lit table) and asks, for each
refused cell, whether the table where only that cell's cube would throw its shadow (not under another cube or its
predicted shadow) is as dark as the cubes' shadows are. Everything is read on the frame's log linear lightness
resampled in the lattice's frame (so turn and tilt are undone, and the lamp's colour does not matter).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import cv2
import numpy as np

from .shaker_checks import cubes_made_at, faint_like_the_cubes, other_cubes_none_faint

_DIRECTIONS = np.radians(np.arange(0.0, 360.0, 22.5))


def _linear(crop: np.ndarray) -> np.ndarray:
    """Linear light of 8-bit values, as float32 (``(v / 255) ** 2.2``)."""
    return (crop.astype(np.float32) * np.float32(1 / 255)) ** 2.2


# the same per value, looked up (cv2.LUT) instead of raised to 2.2 pixel by pixel; only where a probe of every value
# at every place of a vector's lanes gives _linear's numbers bit for bit (else _linear serves)
_LINEAR = _linear(np.arange(256, dtype=np.uint8))
_PROBE = np.arange(256 * 67 * 3, dtype=np.int64).reshape(256, 67, 3) * 7 % 256
_LINEAR_LUT = np.array_equal(
    _linear(_PROBE.astype(np.uint8)).view(np.uint32), cv2.LUT(_PROBE.astype(np.uint8), _LINEAR).view(np.uint32)
)


def _lattice_crop(
    frame_bgr: np.ndarray, grid: Any, axis: np.ndarray
) -> tuple[np.ndarray | None, np.ndarray, np.ndarray, np.ndarray]:
    """The frame's linear light (float32) on the crop around the lattice points (columns ``axis`` x rows ``axis``, in
    pitches from cell (0, 0)), the points in the crop's pixels (float32 maps for cv2.remap) and which of them lie
    inside the frame; the crop None (and no point inside) when it would be under two pixels wide."""
    a, b = np.meshgrid(axis, axis)  # a: column coordinate, b: row coordinate
    u, v = np.asarray(grid.col_step, np.float64), np.asarray(grid.row_step, np.float64)
    o = np.asarray(grid.origin, np.float64)
    xs = o[0] + a * u[0] + b * v[0]
    ys = o[1] + a * u[1] + b * v[1]
    h, w = frame_bgr.shape[:2]
    pad = 2.0
    x0, y0 = int(max(0, np.floor(xs.min() - pad))), int(max(0, np.floor(ys.min() - pad)))
    x1, y1 = int(min(w, np.ceil(xs.max() + pad) + 1)), int(min(h, np.ceil(ys.max() + pad) + 1))
    map_x, map_y = (xs - x0).astype(np.float32), (ys - y0).astype(np.float32)
    if x1 - x0 < 2 or y1 - y0 < 2:
        return None, map_x, map_y, np.zeros(a.shape, bool)
    inside = (xs >= 0) & (ys >= 0) & (xs <= w - 1) & (ys <= h - 1)
    crop = frame_bgr[y0:y1, x0:x1]
    lin = cv2.LUT(crop, _LINEAR) if _LINEAR_LUT and crop.dtype == np.uint8 and crop.ndim == 3 else _linear(crop)
    return lin, map_x, map_y, inside


def _log_lightness(lin: np.ndarray | None, map_x: np.ndarray, map_y: np.ndarray) -> np.ndarray:
    """:func:`_lattice_crop`'s log linear lightness at its points (zeros without a crop)."""
    if lin is None:
        return np.zeros(map_x.shape, np.float32)
    lum = lin[..., 0] * 0.0722 + lin[..., 1] * 0.7152 + lin[..., 2] * 0.2126
    sampled = cv2.remap(lum, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return np.log(np.maximum(sampled, 1e-3))


def _lattice_lightness(frame_bgr: np.ndarray, grid: Any, axis: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The frame's log linear lightness at lattice points (columns ``axis`` x rows ``axis``, in pitches from cell
    (0, 0)) and which of them lie inside the frame."""
    lin, map_x, map_y, inside = _lattice_crop(frame_bgr, grid, axis)
    return _log_lightness(lin, map_x, map_y), inside


def _solid_window(settings: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[tuple[int, int]], np.ndarray]:
    """The lattice frame the cubes' cast shadow is learnt on: its axis (``solid_step`` pitches, ``solid_margin``
    around the grid), the points' column and row coordinates, the cells (column, row) and their squares (half side
    ``solid_exclude``: a cube, its bevel and near sides)."""
    axis = np.arange(-settings.solid_margin, 2.0 + settings.solid_margin + 1e-9, settings.solid_step)
    a, b = np.meshgrid(axis, axis)
    cells = [(i % 3, i // 3) for i in range(9)]  # (column, row)
    squares = np.zeros(a.shape, bool)
    for c, r in cells:
        squares |= (np.abs(a - c) <= settings.solid_exclude) & (np.abs(b - r) <= settings.solid_exclude)
    return axis, a, b, cells, squares


def _swept_square(da: np.ndarray, db: np.ndarray, d: tuple[float, float], half: float) -> np.ndarray:
    """Points (offsets ``da``, ``db`` from a cube's centre, pitches) inside the square of half side ``half`` swept
    from the centre to ``d``: a cube's top face and its cast shadow, as the lamp throws it along ``d``."""
    lo, hi = np.zeros(da.shape), np.ones(da.shape)
    for p, s in ((da, d[0]), (db, d[1])):
        if abs(s) < 1e-9:
            ok = np.abs(p) <= half
            lo, hi = np.where(ok, lo, 2.0), np.where(ok, hi, -1.0)
        else:
            t0, t1 = (p - half) / s, (p + half) / s
            lo, hi = np.maximum(lo, np.minimum(t0, t1)), np.minimum(hi, np.maximum(t0, t1))
    return lo <= hi


def _near(
    a: np.ndarray, b: np.ndarray, c: float, r: float, lo: tuple[float, float], hi: tuple[float, float]
) -> tuple[slice, slice]:
    """The rows and columns of the lattice points ``a``, ``b`` (a meshgrid: columns along ``a``'s rows) whose
    offsets from (``c``, ``r``) may lie within ``lo`` .. ``hi`` (each (column, row)), with a margin of a quarter
    pitch: a window outside which a shape there has no point (its test needs asking only inside)."""
    cols = np.flatnonzero((a[0] - c >= lo[0] - 0.25) & (a[0] - c <= hi[0] + 0.25))
    rows = np.flatnonzero((b[:, 0] - r >= lo[1] - 0.25) & (b[:, 0] - r <= hi[1] + 0.25))
    if not len(cols) or not len(rows):
        return slice(0, 0), slice(0, 0)
    return slice(rows[0], rows[-1] + 1), slice(cols[0], cols[-1] + 1)


def _swept_at(a: np.ndarray, b: np.ndarray, c: float, r: float, d: tuple[float, float], half: float) -> np.ndarray:
    """``_swept_square(a - c, b - r, d, half)`` on the lattice points ``a``, ``b`` (a meshgrid), asked only in the
    window the swept square can reach (the same test on the same differences there; False outside)."""
    out = np.zeros(a.shape, bool)
    ys, xs = _near(
        a, b, c, r, (min(0.0, d[0]) - half, min(0.0, d[1]) - half), (max(0.0, d[0]) + half, max(0.0, d[1]) + half)
    )
    out[ys, xs] = _swept_square(a[ys, xs] - c, b[ys, xs] - r, d, half)
    return out


def _square_at(a: np.ndarray, b: np.ndarray, c: float, r: float, half: float) -> np.ndarray:
    """``(|a - c| <= half) & (|b - r| <= half)`` on the lattice points ``a``, ``b`` (a meshgrid), asked only in its
    window (False outside)."""
    out = np.zeros(a.shape, bool)
    ys, xs = _near(a, b, c, r, (-half, -half), (half, half))
    out[ys, xs] = (np.abs(a[ys, xs] - c) <= half) & (np.abs(b[ys, xs] - r) <= half)
    return out


def _others_shadows(
    grid: Any, others: np.ndarray, a: np.ndarray, b: np.ndarray, d: tuple[float, float], settings: Any
) -> np.ndarray:
    """The squares (half side ``solid_other_half``: a knocked-out cube is turned) and predicted shadows (swept along
    ``d``) of cube-like shapes off the grid's cells (frame px), on the lattice points ``a``, ``b``: the table their
    shapes and shadows cover."""
    u, v = np.asarray(grid.col_step, np.float64), np.asarray(grid.row_step, np.float64)
    ab = np.linalg.solve(np.stack([u, v], 1), (others - np.asarray(grid.origin, np.float64)).T).T  # (column, row)
    lo, hi = float(a.min()) - 1.0, float(a.max()) + 1.0
    on_cell = np.abs(ab - np.rint(np.clip(ab, 0, 2))).max(1) < settings.solid_off_cell
    near = (ab >= lo).all(1) & (ab <= hi).all(1) & ~on_cell
    out = np.zeros(a.shape, bool)
    for c, r in ab[near]:
        out |= _swept_at(a, b, c, r, d, settings.solid_half)
        out |= _square_at(a, b, c, r, settings.solid_other_half)
    return out


@functools.lru_cache(maxsize=8)
def _offset_kernels(
    step: float, half: float, lengths: tuple[float, ...]
) -> tuple[int, tuple[tuple[float, float], ...], np.ndarray]:
    """The learnt shadow's offsets (directions 22.5 degrees apart, outer, by ``lengths``, inner: the order they are
    tried in) and each one's swept square on a window of ``2k + 1`` sample points (``step`` pitches) around a cube's
    centre, packed eight offsets to a byte ((window, window, bytes), offset ``o`` at bit ``o % 8`` of byte ``o // 8``),
    read only. The same for every frame: made once, not 64 times a call; packed, the shadows of all offsets are laid
    and gathered a byte for eight."""
    reach = half + max(lengths)
    k = int(np.ceil(reach / step))
    ka, kb = np.meshgrid(np.arange(-k, k + 1) * step, np.arange(-k, k + 1) * step)
    offsets, kernels = [], []
    for ang in _DIRECTIONS:
        for length in lengths:
            d = (float(np.cos(ang) * length), float(np.sin(ang) * length))
            offsets.append(d)
            kernels.append(_swept_square(ka, kb, d, half))
    packed = np.ascontiguousarray(np.packbits(np.stack(kernels), axis=0, bitorder="little").transpose(1, 2, 0))
    packed.flags.writeable = False
    return k, tuple(offsets), packed


def _mean2(x: Any, y: Any) -> Any:
    """``np.median``'s mean of its middle two values (or of its one, (x + x) / 2 == x), elementwise: their sum halved
    in their own type, as np.mean of two values of that type gives it."""
    return (x + y) / x.dtype.type(2)


def _learnt_shadow(
    lum: np.ndarray, table: np.ndarray, cubes: Sequence[int], cells: Sequence[tuple[int, int]], settings: Any, n: int
) -> tuple[float, tuple[float, float], np.ndarray] | None:
    """The offset whose predicted shadows of the verified ``cubes`` are darkest against the lit ``table`` (medians of
    ``lum``): (darkness, offset, its shadow mask), the first best in the offsets' order, or None when no offset leaves
    ``solid_min_area`` of both. The table's values are sorted once and each offset's two medians picked by rank (the
    same numbers as np.median of the masked values, without 128 selections a call)."""
    step = settings.solid_step
    min_points = settings.solid_min_area / step**2
    k, offsets, kernels = _offset_kernels(step, settings.solid_half, tuple(settings.solid_lengths))
    shadows = np.zeros((n, n, kernels.shape[2]), np.uint8)  # all offsets' shadows, packed as the kernels
    for i in cubes:
        x = round((cells[i][0] + settings.solid_margin) / step)
        y = round((cells[i][1] + settings.solid_margin) / step)
        x0, y0 = max(0, x - k), max(0, y - k)
        x1, y1 = min(n, x + k + 1), min(n, y + k + 1)
        shadows[y0:y1, x0:x1] |= kernels[y0 - y + k : y1 - y + k, x0 - x + k : x1 - x + k]
    where = np.flatnonzero(table)
    values = lum.ravel()[where]
    order = np.argsort(values, kind="stable")
    values, where = values[order], where[order]
    size = len(where)
    counted = np.arange(size)
    best: tuple[float, tuple[float, float], np.ndarray] | None = None
    on_table = np.ascontiguousarray(shadows.reshape(n * n, -1)[where].T)
    by_rank = np.unpackbits(on_table, axis=0, count=len(offsets), bitorder="little").view(bool)
    for o, row in enumerate(by_rank):  # each offset's shadow on the table's points by lightness
        at = np.flatnonzero(row)  # the shadow's ranks
        n_dark = len(at)
        n_lit = size - n_dark
        if n_dark < min_points or n_lit < min_points:
            continue
        # the medians: the middle one or two ranks; the k-th lit rank is k + the shadow's ranks with at most k lit
        # ranks before them
        dark_level = _mean2(values[at[(n_dark - 1) // 2]], values[at[n_dark // 2]])
        ks = np.array([(n_lit - 1) // 2, n_lit // 2])
        lit = ks + np.searchsorted(at - counted[:n_dark], ks, side="right")
        f = float(_mean2(values[lit[0]], values[lit[1]]) - dark_level)
        if best is None or f > best[0]:
            best = (f, offsets[o], o)
    if best is None:
        return None
    o = best[2]
    return best[0], best[1], (shadows[..., o // 8] >> (o % 8) & 1).astype(bool)


def shadow_tint(
    frame_bgr: np.ndarray, grid: Any, cell_tests: Sequence[Mapping[str, Any]], settings: Any
) -> np.ndarray | None:
    """The frame's cast shadows' colour against the lit table (linear RGB, per channel): the medians of the table's
    linear colours under the plainly seen cubes' learnt shadow (the cube cells at least ``knocked_tint_plain`` from
    the table in any shade, ``d_table``; at least three; :func:`_learnt_shadow`'s offset, its darkness not asked)
    over those of the lit table around the grid, each cell's square (half side ``solid_exclude``) left out. A second
    lamp of another colour lights the shadows: they are the table darkened and tinted, one tint for the frame. None
    when too few cubes are plainly seen or no offset leaves ``solid_min_area`` of shadow and of lit table."""
    least = settings.knocked_tint_plain
    plain = [i for i, t in enumerate(cell_tests) if t.get("cube") and float(t["d_table"]) >= least]
    if len(plain) < 3:
        return None
    axis, _, _, cells, squares = _solid_window(settings)
    lin, map_x, map_y, inside = _lattice_crop(frame_bgr, grid, axis)
    if lin is None:
        return None
    table = inside & ~squares
    best = _learnt_shadow(_log_lightness(lin, map_x, map_y), table, plain, cells, settings, len(axis))
    if best is None:
        return None
    shadow = table & best[2]
    lit = table & ~best[2]
    rgb = cv2.remap(lin, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)[..., ::-1]
    return np.median(rgb[shadow], axis=0) / np.maximum(np.median(rgb[lit], axis=0), 1e-6)


def cast_shadow_cells(
    frame_bgr: np.ndarray,
    grid: Any,
    cell_tests: Sequence[Mapping[str, Any]],
    asked: Sequence[int],
    settings: Any,
    others: np.ndarray | None = None,
) -> list[int]:
    """The cells among ``asked`` (indices row by row, refused by the cell test) that cast a cube's shadow.

    The verified cubes (the other cells taken for cubes, at least ``solid_min_cubes``) give the shadow: each cube's
    top face (a square of half side ``solid_half`` pitches at its cell's centre) swept along an offset ``d`` (the
    directions 22.5 degrees apart, ``solid_lengths`` pitches long); the offset whose predicted shadows are darkest
    against the lit table around the grid (within ``solid_margin`` pitches; cube squares of half side
    ``solid_exclude`` and the asked cells' neighbourhoods left out; medians of log linear lightness) wins, and its
    darkness ``f`` must reach ``solid_min_shadow``. A cell then casts a shadow when the part of its own predicted
    shadow under no cube and no verified cube's shadow (at least ``solid_min_area`` square pitches) is darker than the
    lit table within ``solid_local`` pitches by at least ``solid_min_dark`` and by ``solid_rel`` (low, high) times
    ``f``, the lit table's spread (interquartile range) there at most ``solid_max_noise`` (a checked cloth's or
    print's own dark squares read as a shadow) and the region's own spread at most ``solid_max_spread`` (a shadow
    darkens the table evenly; a cube's dark sides across it do not). ``others`` (frame px, (n, 2)): cube-like shapes
    off the grid's cells (a cube knocked out of its cell, a stray): their squares and predicted shadows are left out
    of the cell's region and its lit table too (a knocked-out cube's shadow falls where its empty cell's would). Each
    asked cell's
    test gets ``solid`` (darkness, relative, spread of the lit table, spread of the region) for the debug output.
    """
    cubes = [i for i, t in enumerate(cell_tests) if t["cube"] and i not in asked]
    if len(cubes) < settings.solid_min_cubes or not len(asked):
        return []
    min_points = settings.solid_min_area / settings.solid_step**2
    axis, a, b, cells, squares = _solid_window(settings)
    lum, inside = _lattice_lightness(frame_bgr, grid, axis)
    near_asked = np.zeros(a.shape, bool)
    for i in asked:
        c, r = cells[i]
        near_asked |= (np.abs(a - c) <= 1.0) & (np.abs(b - r) <= 1.0)
    table = inside & ~squares & ~near_asked
    best = _learnt_shadow(lum, table, cubes, cells, settings, len(axis))
    if best is None or best[0] < settings.solid_min_shadow:
        return []
    f, d, shadow = best
    if others is not None and len(others):
        shadow = shadow | _others_shadows(grid, np.asarray(others, np.float64), a, b, d, settings)
    owns = [_swept_at(a, b, cells[i][0], cells[i][1], d, settings.solid_half) for i in asked]
    any_own = np.logical_or.reduce(owns)
    out = []
    for i, own in zip(asked, owns, strict=True):
        c, r = cells[i]
        region = own & ~squares & ~shadow & inside
        local = (np.abs(a - c) <= settings.solid_local) & (np.abs(b - r) <= settings.solid_local) & inside & ~squares
        lit = local & ~shadow & ~any_own  # (nor any asked cell's own: two cubes missed side by side)
        if region.sum() < min_points or lit.sum() < min_points:
            continue
        q1, lit_level, q3 = np.percentile(lum[lit], [25, 50, 75])
        r1, level, r3 = np.percentile(lum[region], [25, 50, 75])
        dark = float(lit_level - level)
        rel, noise = dark / f, float(q3 - q1)
        if isinstance(cell_tests[i], dict):
            cell_tests[i]["solid"] = [round(dark, 2), round(rel, 2), round(noise, 2), round(float(r3 - r1), 2)]
        low, high = settings.solid_rel
        even = float(r3 - r1) <= settings.solid_max_spread
        if dark >= settings.solid_min_dark and low <= rel <= high and noise <= settings.solid_max_noise and even:
            out.append(i)
    return out


def with_solid_cubes(
    frame_bgr: np.ndarray,
    grid: Any,
    cands: Any,
    cell_tests: Sequence[dict[str, Any]],
    settings: Any,
    others: np.ndarray | None = None,
) -> tuple[Any, Any]:
    """The grid and candidates with the refused cells that cast a cube's shadow (:func:`cast_shadow_cells`) made
    cubes, as :func:`vision.shaker_checks.with_faint_cubes` makes its faint ones (marked ``solid_cube``; their
    colour is then read and checked as any cube's). Asked only when at most ``solid_max_cells`` cells are refused,
    each within ``solid_max_d_palette`` of a palette colour (a cube of about the table's colour, not a hand or a
    knocked cube's empty cell of another colour); ``others``: as :func:`cast_shadow_cells` takes them. Unchanged
    when there are none."""
    refused = [i for i, t in enumerate(cell_tests) if not t["cube"]]
    if not refused or len(refused) > settings.solid_max_cells or len(cell_tests) != 9:
        return grid, cands
    if any(float(cell_tests[i]["d_palette"]) > settings.solid_max_d_palette for i in refused):
        return grid, cands
    solid = cast_shadow_cells(frame_bgr, grid, cell_tests, refused, settings, others)
    if not solid:
        return grid, cands
    for i in solid:
        cell_tests[i]["solid_cube"] = True
    return cubes_made_at(grid, cands, cell_tests, solid, "solid_cube")


def solid_cubes_kept(
    frame_bgr: np.ndarray,
    grid: Any,
    cell_tests: Sequence[dict[str, Any]],
    cells: Sequence[tuple[int, int]],
    settings: Any,
    others: np.ndarray | None = None,
    plain: Callable[[], bool] | None = None,
) -> list[tuple[int, int]]:
    """``cells`` (row, col) that a last look takes for the table, less those that cast a cube's shadow: read so
    already (``solid_cube``: :func:`with_solid_cubes`) or now (:func:`cast_shadow_cells`, asked as it asks: at most
    ``solid_max_cells`` cells, each within ``solid_max_d_palette`` of a palette colour). A look's colour and
    outline tell a cube of the table's colour from the table no better than the cell test did; its shadow does.
    Kept cells are marked ``solid_cube``; ``others``: as :func:`cast_shadow_cells` takes them. With ``plain`` (whether
    the frame's table shows no busy print, asked only then), the pattern's faint cube whose shadow agrees is kept too
    (:func:`faint_cube_kept_by_its_shadow`). Unchanged with ``solid_cubes`` off."""
    if not settings.solid_cubes or not cells or len(cell_tests) != 9:
        return list(cells)
    index = [r * 3 + c for r, c in cells]
    ask = [i for i in index if not cell_tests[i].get("solid_cube")]
    solid = set(index) - set(ask)
    palette_like = all(float(cell_tests[i]["d_palette"]) <= settings.solid_max_d_palette for i in ask)
    if ask and len(ask) <= settings.solid_max_cells and palette_like:
        solid |= set(cast_shadow_cells(frame_bgr, grid, cell_tests, ask, settings, others))
        if plain is not None:
            left = [i for i in ask if i not in solid]
            solid |= set(faint_cube_kept_by_its_shadow(frame_bgr, grid, cell_tests, left, settings, plain))
    for i in solid:
        cell_tests[i]["solid_cube"] = True
    return [(r, c) for (r, c), i in zip(cells, index, strict=True) if i not in solid]


def faint_cube_kept_by_its_shadow(
    frame_bgr: np.ndarray,
    grid: Any,
    cell_tests: Sequence[dict[str, Any]],
    ask: Sequence[int],
    settings: Any,
    plain: Callable[[], bool],
) -> list[int]:
    """Of ``ask`` (cells :func:`cast_shadow_cells` just measured and did not take), the pattern's faint cube whose
    shadow agrees: the only cell asked, the other eight cubes and none faint; the cell read by
    :func:`vision.shaker_checks.faint_cubes` (marked ``faint``) or, nearer the table than ``faint_max_d_table``, as
    it reads one (its colour within ``faint_max_d_palette`` of the palette, its edge map the cubes'); its measured
    ``solid`` at least ``faint_shadow_min_dark`` dark, the lit table's spread at most ``faint_shadow_max_noise`` and
    the region's at most ``solid_max_spread``; the table of no busy print (``plain()``, asked last: a gingham's dark
    checks darken an empty cell's shadow region as a cube's shadow would). Two cues agree where the shadow alone is
    asked more (``solid_rel``, ``solid_max_noise``). The kept cell is marked ``faint``."""
    if len(ask) != 1 or len(cell_tests) != 9 or settings.faint_shadow_min_dark == math.inf:
        return []
    i = ask[0]
    test = cell_tests[i]
    solid = test.get("solid")
    if solid is None:
        return []
    dark, _, noise, spread = (float(v) for v in solid)
    if dark < settings.faint_shadow_min_dark or noise > settings.faint_shadow_max_noise:
        return []
    if spread > settings.solid_max_spread:
        return []
    if other_cubes_none_faint(cell_tests, i) is None:
        return []
    if not test.get("faint"):
        if float(test["d_table"]) >= settings.faint_max_d_table:
            return []
        if faint_like_the_cubes(frame_bgr, grid, cell_tests, i, settings) is None:
            return []
    if not plain():
        return []
    test["faint"] = True
    return [i]
