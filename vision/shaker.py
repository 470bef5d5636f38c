"""Read the Cube Shaker's 3 x 3 pattern from one frame: find -> lattice -> sample -> classify -> check.

Each stage is a public function taking its settings explicitly:

- :func:`find_cubes`: cube-like blobs (compact regions that stand out from the table by colour or
  lightness) as candidate centres with a size, on a reduced copy of the frame. The table is modelled
  by a wide median of the frame, so any table colour or print works and no cube size is assumed.
- :func:`fit_grid`: the 3 x 3 lattice that the candidates support best, found from pairs of
  neighbouring candidates and refined by least squares; isolated from other candidates around it.
- :func:`sample_cubes`: each cube's top-face colour from the full-resolution frame.
- :func:`classify_cubes`: per-frame lighting normalisation (gains fitted to the palette) and nearest
  palette colour in CIELAB, with a confidence.
- :func:`check_grid`: a refusal with a reason unless exactly one complete, aligned 3 x 3 pattern shows.

:func:`read_shaker` chains them and returns a :class:`ShakerReading`. Run alone:
``python -m vision.shaker photo.jpg [--palette FILE] [--rotate 90] [--debug out.png]``.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import cv2
import numpy as np

from .colour import Palette, classify, default_palette, fit_gains, srgb_to_linear
from .errors import VisionError

SETTINGS_VERSION = 1


@dataclass(frozen=True)
class ShakerSettings:
    """Every tunable of the reader, in one versioned place (chosen from eval-shaker's measurements)."""

    version: int = SETTINGS_VERSION
    work_long_side: int = 512  # the finder works on a copy this long (pixels)
    background_shrink: int = 4  # the table model is a median at 1/4 of the working size...
    background_window: float = 0.36  # ...over a window this fraction of its longer side
    lightness_weight: float = 0.45  # weight of L (0..255 scale) against a and b in the table difference
    box_sizes: tuple[int, ...] = (6, 8, 11, 15, 20, 27, 36, 48)  # blob sizes tried (working pixels)
    response_min: float = 8.0  # minimum centre-surround difference for a cube
    response_noise_factor: float = 1.5  # ...or this many times the table's median difference
    max_candidates: int = 80
    nms_radius: float = 1.0  # one candidate per blob: others within this many box sizes are dropped
    recheck_factor: float = 0.45  # an empty cell is rechecked at this fraction of the response threshold
    pitch_min: float = 1.9  # lattice pitch / inscribed radius of a cube blob
    pitch_max: float = 5.0
    lattice_tolerance: float = 0.28  # a cube sits on a lattice point when this close (fraction of pitch)
    out_of_line_reach: float = 1.15  # cubes this many pitches around the grid count as knocked out
    size_ratio_min: float = 0.55  # a grid cube's blob size against the grid's median
    stray_min_distance: float = 0.75  # ...and its distance from every grid cube (pitches)
    stray_size_ratio: float = 0.72  # a cube off the grid: its size against the grid's median...
    stray_contrast_ratio: float = 0.5  # ...and its contrast with the table
    sample_radius: float = 0.16  # top-face sampling disk, fraction of the pitch
    min_confidence: float = 0.0  # refuse when a cube's colour confidence is below this


DEFAULT_SETTINGS = ShakerSettings()

ROTATIONS = (0, 90, 180, 270)


class GridNotFound(VisionError):
    """No 3 x 3 grid of cubes could be found in the frame."""


@dataclass(frozen=True)
class Candidates:
    """Cube-like blobs: centres (x, y) in frame pixels, inscribed radius in frame pixels, contrast."""

    xy: np.ndarray
    radius: np.ndarray
    contrast: np.ndarray
    scale: float  # frame pixels per working pixel


@dataclass(frozen=True)
class Grid:
    """A fitted 3 x 3 lattice: centre of cell (r, c) = origin + c * col_step + r * row_step (frame px)."""

    origin: np.ndarray  # cell (0, 0), the top-left as seen in the image
    col_step: np.ndarray
    row_step: np.ndarray
    cell_candidate: tuple[tuple[int, ...], ...]  # index into candidates, -1 when empty
    support: int
    stray_near: int  # candidates near the grid that sit on no grid cell
    score: float = 0.0

    @property
    def pitch(self) -> float:
        return float((np.linalg.norm(self.col_step) + np.linalg.norm(self.row_step)) / 2)

    def centre(self, r: int, c: int) -> np.ndarray:
        return self.origin + c * self.col_step + r * self.row_step

    def corners(self) -> np.ndarray:
        o = self.origin - 0.5 * (self.col_step + self.row_step)
        return np.array([o, o + 3 * self.col_step, o + 3 * (self.col_step + self.row_step), o + 3 * self.row_step])


@dataclass(frozen=True)
class CubeReading:
    row: int
    col: int
    colour: str | None
    confidence: float
    xy: tuple[float, float]
    lab: tuple[float, float, float] | None = None


@dataclass(frozen=True)
class ShakerReading:
    """The reader's answer: a complete pattern, or a refusal with a reason.

    ``pattern`` rows run top to bottom (after ``rotation``), each left to right; ``confidence`` is
    the per-cube colour confidence in the same layout (0.5 = a tie, 1 = certain).
    """

    valid: bool
    pattern: list[list[str]] | None
    reason: str | None = None
    confidence: list[list[float]] | None = None
    cubes: tuple[CubeReading, ...] = ()
    grid_corners: list[list[float]] | None = None
    rotation: int = 0
    debug: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"valid": self.valid, "pattern": self.pattern}
        if self.reason:
            out["reason"] = self.reason
        if self.confidence is not None:
            out["confidence"] = self.confidence
        return out


# ---------------------------------------------------------------- stage 1: find


def _odd(n: float) -> int:
    k = max(3, int(round(n)))
    return k if k % 2 else k + 1


def table_difference(frame_bgr: np.ndarray, settings: ShakerSettings) -> tuple[np.ndarray, float, np.ndarray]:
    """How much each working pixel differs from the table (float32 map), the working scale, the Lab copy."""
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
    k = _odd(settings.background_window * max(tiny.shape[:2]))
    k = min(k, 255)
    bg_tiny = np.dstack([cv2.medianBlur(np.ascontiguousarray(tiny[:, :, c]), k) for c in range(3)])
    bg = cv2.resize(bg_tiny, (ww, wh), interpolation=cv2.INTER_LINEAR)
    diff = cv2.absdiff(lab, bg)
    dl, da, db = cv2.split(diff)
    d = cv2.addWeighted(dl, settings.lightness_weight, cv2.add(da, db), 1.0, 0.0, dtype=cv2.CV_32F)
    return d, scale, lab


def find_cubes(
    frame_bgr: np.ndarray, settings: ShakerSettings = DEFAULT_SETTINGS, *, diff: tuple[np.ndarray, float] | None = None
) -> list[Candidates]:
    """Cube-like blobs, one candidate list per blob size tried (the lattice stage picks the size).

    A blob is a place where the table difference is high over an s x s box and lower in the 2s x 2s
    box around it (a centre-surround response). No cube size in pixels is assumed: every size in
    ``settings.box_sizes`` is tried; larger sizes are found on a halved copy to keep it fast.
    """
    if diff is None:
        d, scale, _ = table_difference(frame_bgr, settings)
    else:
        d, scale = diff
    noise = float(np.median(d))
    thr = max(settings.response_min, settings.response_noise_factor * noise)
    half = cv2.resize(d, (max(1, d.shape[1] // 2), max(1, d.shape[0] // 2)), interpolation=cv2.INTER_AREA)
    out = []
    for size in settings.box_sizes:
        img, f = (d, 1.0) if size < 14 else (half, 2.0)
        sz = max(3, int(round(size / f)))
        inner = cv2.blur(img, (sz, sz))
        outer = cv2.blur(img, (2 * sz + 1, 2 * sz + 1))
        resp = inner - outer
        peaks = (resp > thr) & (resp >= cv2.dilate(resp, np.ones((3, 3), np.uint8)))
        ys, xs = np.nonzero(peaks)
        if len(xs) == 0:
            out.append(Candidates(np.zeros((0, 2)), np.zeros(0), np.zeros(0), scale))
            continue
        r = resp[ys, xs]
        order = np.argsort(-r, kind="stable")[: 4 * settings.max_candidates]
        xs, ys = xs[order], ys[order]
        pts = np.stack([xs, ys], 1).astype(np.float64)
        keep: list[int] = []
        for i in range(len(pts)):
            if keep:
                kp = pts[keep]
                if np.any(np.hypot(kp[:, 0] - pts[i, 0], kp[:, 1] - pts[i, 1]) < settings.nms_radius * sz):
                    continue
            keep.append(i)
            if len(keep) >= settings.max_candidates:
                break
        pts = pts[keep]
        contrast = inner[pts[:, 1].astype(int), pts[:, 0].astype(int)] / max(thr, 1.0)
        xy = (pts + 0.5) * (scale * f) - 0.5
        out.append(Candidates(xy, np.full(len(xy), size * scale / 2.0), contrast.astype(np.float64), scale))
    return out


# ---------------------------------------------------------------- stage 2: lattice


def fit_grid(cands: Candidates, settings: ShakerSettings = DEFAULT_SETTINGS) -> Grid:
    """The 3 x 3 lattice best supported by the candidates, or GridNotFound."""
    n = len(cands.xy)
    if n < 3:
        raise GridNotFound("no pattern: fewer than 3 cube-like shapes in view")
    P = cands.xy
    R = cands.radius
    diff = P[None, :, :] - P[:, None, :]
    dist = np.hypot(diff[..., 0], diff[..., 1])
    rr = np.maximum(R[:, None], R[None, :])
    ratio = np.minimum(R[:, None], R[None, :]) / rr
    ok = (dist >= settings.pitch_min * rr) & (dist <= settings.pitch_max * rr) & (ratio >= 0.5)
    ai, bi = np.nonzero(ok)
    if len(ai) == 0:
        raise GridNotFound("no pattern: no two cube-like shapes side by side")
    # for each pair (a, b), u = b - a; look for c near a + rot90(u)
    U = diff[ai, bi]  # (H, 2)
    Vexp = np.stack([-U[:, 1], U[:, 0]], 1)
    tgt = P[ai] + Vexp  # (H, 2)
    dc = np.hypot(tgt[:, None, 0] - P[None, :, 0], tgt[:, None, 1] - P[None, :, 1])  # (H, n)
    lenu = np.hypot(U[:, 0], U[:, 1])
    ci = dc.argmin(1)
    good = dc[np.arange(len(ai)), ci] <= 0.35 * lenu
    if not np.any(good):
        raise GridNotFound("no pattern: the cube-like shapes do not form a grid")
    ai, ci, U = ai[good], ci[good], U[good]
    V = P[ci] - P[ai]
    # dedupe near-identical hypotheses cheaply: keep a, u direction and length bins
    H = len(ai)
    B = np.stack([U, V], axis=2)  # (H, 2, 2) columns u, v
    det = B[:, 0, 0] * B[:, 1, 1] - B[:, 0, 1] * B[:, 1, 0]
    valid_det = np.abs(det) > 1e-6
    B, ai, det = B[valid_det], ai[valid_det], det[valid_det]
    H = len(ai)
    if H == 0:
        raise GridNotFound("no pattern: the cube-like shapes do not form a grid")
    inv = np.empty_like(B)
    inv[:, 0, 0] = B[:, 1, 1] / det
    inv[:, 0, 1] = -B[:, 0, 1] / det
    inv[:, 1, 0] = -B[:, 1, 0] / det
    inv[:, 1, 1] = B[:, 0, 0] / det
    rel = P[None, :, :] - P[ai][:, None, :]  # (H, n, 2)
    coords = np.einsum("hij,hnj->hni", inv, rel)  # lattice coordinates (i along u, j along v)
    rc = np.rint(coords)
    resid = coords - rc
    # residual in pixels relative to the pitch
    resid_px = np.einsum("hij,hnj->hni", B, resid)
    pitch = (np.hypot(B[:, 0, 0], B[:, 1, 0]) + np.hypot(B[:, 0, 1], B[:, 1, 1])) / 2
    err = np.hypot(resid_px[..., 0], resid_px[..., 1]) / pitch[:, None]
    # size agreement with the seed
    size_ok = (R[None, :] >= settings.size_ratio_min * R[ai][:, None]) & (
        R[None, :] <= R[ai][:, None] / settings.size_ratio_min
    )
    on = (err <= settings.lattice_tolerance) & size_ok & (np.abs(rc) <= 4).all(-1)
    # occupancy on a 9 x 9 lattice window around the seed (coords -4..4)
    occ = np.zeros((H, 9, 9), dtype=np.int32)
    hh, nn = np.nonzero(on)
    np.add.at(occ, (hh, rc[hh, nn, 1].astype(int) + 4, rc[hh, nn, 0].astype(int) + 4), 1)
    occ = np.minimum(occ, 1)
    ii = np.zeros((H, 10, 10), dtype=np.int32)
    ii[:, 1:, 1:] = occ.cumsum(1).cumsum(2)

    def box(y0: int, x0: int, size: int) -> np.ndarray:
        return ii[:, y0 + size, x0 + size] - ii[:, y0, x0 + size] - ii[:, y0 + size, x0] + ii[:, y0, x0]

    best_score = -1e9
    best: tuple[int, int, int] | None = None
    # windows that contain the seed (coord 0 -> index 4): top-left index in 2..4
    for y0 in range(2, 5):
        for x0 in range(2, 5):
            inner = box(y0, x0, 3)
            if y0 >= 1 and x0 >= 1 and y0 + 4 <= 9 and x0 + 4 <= 9:
                ring = box(y0 - 1, x0 - 1, 5) - inner
            else:
                ring = np.zeros(H, np.int32)
            score = inner - 1.0 * ring - 0.02 * np.abs(np.log(np.abs(det) / pitch**2))
            h = int(np.argmax(score))
            if score[h] > best_score:
                best_score = float(score[h])
                best = (h, y0, x0)
    assert best is not None
    h, y0, x0 = best
    # members: candidates on cells of the window
    jv = rc[h, :, 1] + 4 - y0  # row index within window (v axis)
    iu = rc[h, :, 0] + 4 - x0  # column index within window (u axis)
    member = on[h] & (jv >= 0) & (jv <= 2) & (iu >= 0) & (iu <= 2)
    idx = np.nonzero(member)[0]
    if len(idx) < 3:
        raise GridNotFound("no pattern: the cube-like shapes do not form a grid")
    # least-squares refinement: P = o + i u + j v
    A = np.column_stack([np.ones(len(idx)), iu[idx], jv[idx]])
    if np.linalg.matrix_rank(A) < 3:
        raise GridNotFound("no pattern: the cubes in view lie in one line")
    sol, *_ = np.linalg.lstsq(A, P[idx], rcond=None)
    o, u, v = sol[0], sol[1], sol[2]
    # one candidate per cell: the closest
    cells = -np.ones((3, 3), dtype=int)
    best_d = np.full((3, 3), np.inf)
    for k in idx:
        c, r = int(iu[k]), int(jv[k])
        dk = float(np.linalg.norm(P[k] - (o + c * u + r * v)))
        if dk < best_d[r, c]:
            best_d[r, c], cells[r, c] = dk, k
    # recount: unassigned candidates near the grid, not on a cell
    Binv = np.linalg.inv(np.column_stack([u, v]))
    cc = (P - o) @ Binv.T  # (n, 2): i, j
    assigned = set(int(k) for k in cells.ravel() if k >= 0)
    med_r = float(np.median(R[list(assigned)])) if assigned else float(np.median(R))
    med_c = float(np.median(cands.contrast[list(assigned)])) if assigned else 1.0
    reach = settings.out_of_line_reach
    near = (
        (cc[:, 0] >= -reach)
        & (cc[:, 0] <= 2 + reach)
        & (cc[:, 1] >= -reach)
        & (cc[:, 1] <= 2 + reach)
        & (settings.stray_size_ratio * med_r <= R)
        & (med_r / settings.stray_size_ratio >= R)
        & (settings.stray_contrast_ratio * med_c <= cands.contrast)
    )
    cube_xy = P[sorted(assigned)] if assigned else np.zeros((0, 2))
    pitch_now = (np.linalg.norm(u) + np.linalg.norm(v)) / 2
    stray_near = 0
    for k in np.nonzero(near)[0]:
        if int(k) in assigned:
            continue
        # a second blob on a cube already in the grid (its side face, its shadow) is not a cube
        if len(cube_xy) and np.min(np.hypot(*(cube_xy - P[k]).T)) < settings.stray_min_distance * pitch_now:
            continue
        stray_near += 1
    # orientation: columns along +x, rows along +y
    centres = np.array([[o + c * u + r * v for c in range(3)] for r in range(3)])  # (row, col, xy)
    grid_cells = cells
    col_step, row_step = u, v
    if abs(v[0]) > abs(u[0]):  # u runs mostly vertically: swap axes
        col_step, row_step = v, u
        grid_cells, centres = grid_cells.T, centres.transpose(1, 0, 2)
    if col_step[0] < 0:
        col_step = -col_step
        grid_cells, centres = grid_cells[:, ::-1], centres[:, ::-1]
    if row_step[1] < 0:
        row_step = -row_step
        grid_cells, centres = grid_cells[::-1, :], centres[::-1, :]
    origin = centres[0, 0]
    support = int((cells >= 0).sum())
    return Grid(
        origin=np.asarray(origin, dtype=np.float64),
        col_step=np.asarray(col_step, dtype=np.float64),
        row_step=np.asarray(row_step, dtype=np.float64),
        cell_candidate=tuple(tuple(int(x) for x in row) for row in grid_cells),
        support=support,
        stray_near=stray_near,
        score=best_score + 0.01 * float(np.mean(cands.contrast[list(assigned)])),
    )


def recheck_empty_cells(
    d: np.ndarray, scale: float, grid: Grid, cands: Candidates, settings: ShakerSettings = DEFAULT_SETTINGS
) -> tuple[Grid, Candidates]:
    """Look again, with a lower threshold, at grid cells where no cube was found (dark on dark...)."""
    noise = float(np.median(d))
    thr = max(settings.response_min, settings.response_noise_factor * noise) * settings.recheck_factor
    pitch_w = grid.pitch / scale
    size = max(3, int(round(0.6 * pitch_w)))
    h, w = d.shape
    cells = [list(row) for row in grid.cell_candidate]
    new_xy, new_r, new_c = list(cands.xy), list(cands.radius), list(cands.contrast)
    med_r = float(np.median(cands.radius[[k for row in cells for k in row if k >= 0]]))
    for r in range(3):
        for c in range(3):
            if cells[r][c] >= 0:
                continue
            x, y = (grid.centre(r, c) + 0.5) / scale - 0.5
            x0, x1 = int(round(x - size / 2)), int(round(x + size / 2)) + 1
            y0, y1 = int(round(y - size / 2)), int(round(y + size / 2)) + 1
            X0, X1 = int(round(x - size)), int(round(x + size)) + 1
            Y0, Y1 = int(round(y - size)), int(round(y + size)) + 1
            if X0 < 0 or Y0 < 0 or w < X1 or h < Y1:
                continue
            inner = float(d[y0:y1, x0:x1].mean())
            outer = float(d[Y0:Y1, X0:X1].mean())
            if inner - outer > thr and inner > 2 * thr:
                cells[r][c] = len(new_xy)
                new_xy.append(grid.centre(r, c))
                new_r.append(med_r)
                new_c.append(inner / max(thr, 1.0))
    if all(k >= 0 for row in cells for k in row) or any(
        cells[r][c] != grid.cell_candidate[r][c] for r in range(3) for c in range(3)
    ):
        support = sum(1 for row in cells for k in row if k >= 0)
        grid = replace(grid, cell_candidate=tuple(tuple(row) for row in cells), support=support)
        cands = Candidates(np.array(new_xy), np.array(new_r), np.array(new_c), cands.scale)
    return grid, cands


# ---------------------------------------------------------------- stage 3: sample


def sample_cubes(
    frame_bgr: np.ndarray, grid: Grid, cands: Candidates, settings: ShakerSettings = DEFAULT_SETTINGS
) -> list[tuple[int, int, np.ndarray, np.ndarray | None]]:
    """(row, col, centre, mean linear RGB of the top face or None when the cell is empty) per cell."""
    h, w = frame_bgr.shape[:2]
    out = []
    pitch = grid.pitch
    for r in range(3):
        for c in range(3):
            k = grid.cell_candidate[r][c]
            if k < 0:
                out.append((r, c, grid.centre(r, c), None))
                continue
            xy = cands.xy[k]
            rad = max(1.5, min(settings.sample_radius * pitch, 0.75 * float(cands.radius[k])))
            x0, x1 = int(max(0, np.floor(xy[0] - rad))), int(min(w, np.ceil(xy[0] + rad) + 1))
            y0, y1 = int(max(0, np.floor(xy[1] - rad))), int(min(h, np.ceil(xy[1] + rad) + 1))
            patch = frame_bgr[y0:y1, x0:x1].reshape(-1, 3).astype(np.float64)
            yy, xx = np.mgrid[y0:y1, x0:x1]
            inside = ((xx - xy[0]) ** 2 + (yy - xy[1]) ** 2 <= rad * rad).ravel()
            pix = patch[inside] if inside.any() else patch
            lin = srgb_to_linear(pix[:, ::-1] / 255.0)
            # the top face: drop the darkest quarter (bevels, edges, a shadow's rim)
            lum = lin @ np.array([0.2126, 0.7152, 0.0722])
            keep = lum >= np.quantile(lum, 0.25)
            out.append((r, c, xy, np.median(lin[keep], axis=0)))
    return out


# ---------------------------------------------------------------- stage 4: classify


def classify_cubes(
    samples: Sequence[tuple[int, int, np.ndarray, np.ndarray | None]], palette: Palette
) -> list[CubeReading]:
    """Normalise the light on the cubes present, then name each by its nearest palette colour."""
    present = [s for s in samples if s[3] is not None]
    readings: dict[tuple[int, int], CubeReading] = {}
    if present:
        obs = np.array([s[3] for s in present])
        _, lab = fit_gains(obs, palette)
        for s, m in zip(present, classify(lab, palette), strict=True):
            readings[(s[0], s[1])] = CubeReading(
                s[0], s[1], m.name, m.confidence, (float(s[2][0]), float(s[2][1])), m.lab
            )
    return [readings.get((r, c), CubeReading(r, c, None, 0.0, (float(xy[0]), float(xy[1])))) for r, c, xy, _ in samples]


# ---------------------------------------------------------------- stage 5: check


def _rotate(rows: list[list[Any]], rotation: int) -> list[list[Any]]:
    """Turn a 3 x 3 layout clockwise by ``rotation`` degrees (the camera's configured north)."""
    out = [list(r) for r in rows]
    for _ in range((rotation // 90) % 4):
        out = [list(r) for r in zip(*out[::-1], strict=True)]
    return out


def check_grid(grid: Grid, cubes: Sequence[CubeReading], settings: ShakerSettings = DEFAULT_SETTINGS) -> str | None:
    """The reason to refuse this grid, or None when it shows one complete, aligned pattern."""
    present = sum(1 for c in cubes if c.colour is not None)
    if present < 9:
        if grid.stray_near:
            return f"a cube is out of line ({present} cubes in the grid)"
        return f"{present} cubes in the grid"
    if grid.stray_near:
        return "a cube is out of line"
    low = [c for c in cubes if c.confidence < settings.min_confidence]
    if low:
        c = low[0]
        return f"the colour of the cube at row {c.row + 1}, column {c.col + 1} is unclear"
    return None


def check_against_shaker_contents(pattern: list[list[str]], shaker: Mapping[str, int]) -> str | None:
    """The rules engine's reason when the shaker cannot hold this pattern, else None."""
    from scoring.errors import RulesError
    from scoring.shake_that_city.pattern import Pattern, check_against_shaker

    try:
        check_against_shaker(Pattern.parse(pattern), shaker)
    except RulesError as e:
        return str(e)
    return None


# ---------------------------------------------------------------- the whole reader


def read_shaker(
    frame_bgr: np.ndarray,
    palette: Palette | None = None,
    rotation: int = 0,
    *,
    settings: ShakerSettings = DEFAULT_SETTINGS,
    shaker: Mapping[str, int] | None = None,
) -> ShakerReading:
    """Read the 3 x 3 pattern in a BGR frame, or refuse with a reason.

    ``rotation`` (0, 90, 180, 270) turns the reading clockwise to the table's configured north.
    ``shaker``: the cubes the shaker can still hold (colour -> count); a pattern it cannot produce is
    refused with the rules engine's reason.
    """
    if rotation not in ROTATIONS:
        raise ValueError(f"rotation must be one of {ROTATIONS}, not {rotation!r}")
    if not isinstance(frame_bgr, np.ndarray) or frame_bgr.ndim != 3 or frame_bgr.shape[2] != 3:
        raise VisionError("read_shaker: expected a BGR image (height x width x 3)")
    if frame_bgr.dtype != np.uint8:
        raise VisionError("read_shaker: expected an 8-bit image")
    palette = palette or default_palette()
    best: tuple[float, Grid, Candidates] | None = None
    error = GridNotFound("no pattern: nothing like a cube in view")
    d, scale, _ = table_difference(frame_bgr, settings)
    all_cands = find_cubes(frame_bgr, settings, diff=(d, scale))
    for cands in all_cands:
        try:
            grid = fit_grid(cands, settings)
        except GridNotFound as e:
            error = e
            continue
        if best is None or grid.score > best[0]:
            best = (grid.score, grid, cands)
    if best is None:
        return ShakerReading(False, None, str(error), rotation=rotation, debug={"candidates": all_cands[0]})
    _, grid, cands = best
    if grid.support < 9:
        grid, cands = recheck_empty_cells(d, scale, grid, cands, settings)
    samples = sample_cubes(frame_bgr, grid, cands, settings)
    cubes = classify_cubes(samples, palette)
    corners = [[round(float(x), 1), round(float(y), 1)] for x, y in grid.corners()]
    debug = {"candidates": cands, "grid": grid}
    reason = check_grid(grid, cubes, settings)
    names = _rotate([[cubes[r * 3 + c].colour for c in range(3)] for r in range(3)], rotation)
    confs = _rotate([[cubes[r * 3 + c].confidence for c in range(3)] for r in range(3)], rotation)
    if reason is None and shaker is not None:
        reason = check_against_shaker_contents(names, shaker)
    if reason is not None:
        return ShakerReading(False, None, reason, confs, tuple(cubes), corners, rotation, debug)
    return ShakerReading(True, names, None, confs, tuple(cubes), corners, rotation, debug)


# ---------------------------------------------------------------- debug drawing


def draw_reading(frame_bgr: np.ndarray, reading: ShakerReading) -> np.ndarray:
    """The frame annotated with the candidates, the found grid and each cube's colour and confidence."""
    out = frame_bgr.copy()
    cands = reading.debug.get("candidates")
    scale = max(1, round(max(out.shape[:2]) / 1024))
    if cands is not None:
        for (x, y), r in zip(cands.xy, cands.radius, strict=True):
            cv2.circle(out, (round(x), round(y)), max(2, round(r)), (255, 0, 255), scale)
    if reading.grid_corners is not None:
        pts = np.array(reading.grid_corners, dtype=np.int32).reshape(-1, 1, 2)
        cv2.polylines(out, [pts], True, (0, 255, 0) if reading.valid else (0, 0, 255), 2 * scale)
    for cube in reading.cubes:
        x, y = round(cube.xy[0]), round(cube.xy[1])
        label = f"{cube.colour or '-'} {cube.confidence:.2f}" if cube.colour else "empty"
        cv2.putText(out, label, (x - 20, y + 4), cv2.FONT_HERSHEY_SIMPLEX, 0.35 * scale, (0, 0, 0), 3 * scale)
        cv2.putText(out, label, (x - 20, y + 4), cv2.FONT_HERSHEY_SIMPLEX, 0.35 * scale, (255, 255, 255), scale)
    text = "pattern read" if reading.valid else f"refused: {reading.reason}"
    cv2.putText(out, text, (10, 30 * scale), cv2.FONT_HERSHEY_SIMPLEX, 0.8 * scale, (0, 0, 0), 4 * scale)
    cv2.putText(out, text, (10, 30 * scale), cv2.FONT_HERSHEY_SIMPLEX, 0.8 * scale, (255, 255, 255), 2 * scale)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m vision.shaker photo.jpg [...]``: the read-shaker command on its own."""
    import argparse

    from .shaker_cli import register

    parser = argparse.ArgumentParser(prog="python -m vision.shaker")
    sub = parser.add_subparsers(dest="command")
    register(sub)
    args = parser.parse_args(["read-shaker", *(argv if argv is not None else sys.argv[1:])])
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
