"""A seeded scene generator: the Cube Shaker's 3 x 3 pattern on a table, seen by a camera on a stand.

For the tests (the project stands alone: its users have no labelled photos) and for the demo's
simulated camera. Not photoreal, but it has what makes reading hard: cubes of about 10 mm with
shaded sides, bevel highlights and hard shadows; perspective and camera tilt; the grid turned and
jittered; light, dark, wood, cloth and printed tables; warm and cool light with a falloff; stray
cubes at least two pitches away, a box edge, a card, a hand (clear of the grid unless it covers it on purpose);
sensor noise and JPEG.

Public API::

    render_shake(pattern, rng, *, width=1024, height=768, knocked_out=False, fill_light=False) -> (frame_bgr, truth)
    render_covered(rng, *, width=1024, height=768) -> (frame_bgr, truth)   # a hand or the box over it
    random_pattern(rng, *, wilds=0) -> list[list[str]]                      # drawn from the bag

``pattern`` lists rows top to bottom as they will appear in the image; ``None`` entries are missing
cubes; ``pattern=None`` renders no pattern at all. ``truth`` is ``{"valid", "pattern", ...}`` in the
labelled-folder format (``valid`` only for a complete pattern with no cube knocked out), plus
``"grid_px"`` (the grid's four corners) and ``"scene"`` (what was drawn).
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from typing import Any

import cv2
import numpy as np

from .colour import lab_to_bgr

# The cubes' colours in CIELAB (the default palette's values, measured on the game's pieces)
CUBE_LAB = {
    "red": (48.0, 58.0, 40.0),
    "blue": (36.0, 23.0, -58.0),
    "black": (19.0, 0.0, 0.0),
    "green": (51.0, -45.0, 35.0),
    "gray": (57.0, -1.0, 1.0),
    "white": (91.0, -1.0, 4.0),
}
BAG = {"red": 8, "blue": 7, "black": 6, "green": 6, "gray": 5}
TABLES = ("plain_light", "plain_dark", "wood", "cloth", "gingham", "printed")

Pattern = list[list[str | None]]


def random_pattern(rng: random.Random, *, wilds: int = 0) -> list[list[str]]:
    """Nine cubes drawn from the shaker's bag (plus ``wilds`` white cubes in it)."""
    bag = [c for c, n in BAG.items() for _ in range(n)] + ["white"] * wilds
    cubes = rng.sample(bag, 9)
    return [cubes[0:3], cubes[3:6], cubes[6:9]]


def _kelvin_gains(kelvin: float) -> np.ndarray:
    """Rough BGR multipliers of a light of this colour temperature after a partial white balance."""
    t = (kelvin - 4500.0) / 2000.0  # -0.9 (warm) .. +1 (cool)
    return np.array([1.0 + 0.16 * t, 1.0, 1.0 - 0.16 * t], dtype=np.float32)


def tinted_shade(shaded: np.ndarray, strength: float, tint: np.ndarray) -> np.ndarray:
    """What a cast shadow leaves of the light, per channel (h, w, 3): 1 where ``shaded`` (0..1, the shadow's cover)
    is 0; in full shadow (1) the fill light alone, ``(1 - strength)`` times its ``tint`` (BGR, the fill's colour
    against the key light's)."""
    return cv2.merge([1.0 - shaded * np.float32(1.0 - (1.0 - strength) * float(t)) for t in tint])


def _noise(rng: random.Random, h: int, w: int, cells: int, nprng: np.random.Generator) -> np.ndarray:
    """Smooth noise in 0..1 at roughly ``cells`` blobs across."""
    sh, sw = max(2, cells * h // max(h, w)), max(2, cells)
    small = nprng.random((sh, sw)).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


def _table(rng: random.Random, nprng: np.random.Generator, h: int, w: int, kind: str) -> np.ndarray:
    """A BGR float32 table surface in 0..1 (before light)."""

    def lab(L: float, a: float, b: float) -> np.ndarray:
        return (lab_to_bgr(np.array([L, a, b])) / 255.0).astype(np.float32)

    if kind == "plain_light":
        base = lab(rng.uniform(72, 92), rng.uniform(-4, 4), rng.uniform(-6, 10))
        img = np.empty((h, w, 3), np.float32)
        img[:] = base
        img *= (0.96 + 0.08 * _noise(rng, h, w, 6, nprng))[..., None]
    elif kind == "plain_dark":
        base = lab(rng.uniform(18, 38), rng.uniform(-12, 12), rng.uniform(-12, 12))
        img = np.empty((h, w, 3), np.float32)
        img[:] = base
        img *= (0.94 + 0.12 * _noise(rng, h, w, 6, nprng))[..., None]
    elif kind == "wood":
        base = lab(rng.uniform(38, 72), rng.uniform(8, 22), rng.uniform(18, 38))
        yy = np.arange(h, dtype=np.float32)[:, None]
        xx = np.arange(w, dtype=np.float32)[None, :]
        ang = rng.uniform(0, math.pi)
        along = xx * math.cos(ang) + yy * math.sin(ang)
        across = -xx * math.sin(ang) + yy * math.cos(ang)
        warp = 25 * _noise(rng, h, w, 4, nprng)
        grain = 0.5 + 0.5 * np.sin((across + warp) / rng.uniform(3, 9) + 0.0 * along)
        img = base[None, None, :] * (0.88 + 0.14 * grain)[..., None]
        plank = rng.uniform(120, 260)
        seams = np.abs(((across + rng.uniform(0, plank)) % plank) - plank / 2) > plank / 2 - 1.2
        img[seams] *= 0.6
    elif kind == "cloth":
        base = lab(rng.uniform(25, 75), rng.uniform(-30, 30), rng.uniform(-30, 30))
        img = np.empty((h, w, 3), np.float32)
        img[:] = base
        weave = nprng.random((h, w)).astype(np.float32)
        img *= (0.9 + 0.2 * cv2.blur(weave, (2, 2)))[..., None]
    elif kind == "gingham":
        c1 = lab(rng.uniform(85, 95), 0, rng.uniform(0, 6))
        c2 = lab(rng.uniform(20, 45), rng.uniform(-35, 35), rng.uniform(-35, 35))
        period = rng.uniform(10, 24)
        ang = rng.uniform(-0.4, 0.4)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        u = xx * math.cos(ang) + yy * math.sin(ang)
        v = -xx * math.sin(ang) + yy * math.cos(ang)
        a = ((u // period) % 2).astype(np.float32)
        b = ((v // period) % 2).astype(np.float32)
        mix = (a + b) / 2.0
        img = c1[None, None, :] * (1 - mix[..., None]) + c2[None, None, :] * mix[..., None]
    else:  # printed play mat: soft blobs of a few colours, some lines
        cols = [lab(rng.uniform(30, 80), rng.uniform(-40, 40), rng.uniform(-40, 40)) for _ in range(3)]
        n1 = _noise(rng, h, w, rng.randint(4, 9), nprng)
        n2 = _noise(rng, h, w, rng.randint(4, 9), nprng)
        img = cols[0][None, None, :] * (1 - n1[..., None]) + cols[1][None, None, :] * n1[..., None]
        img = img * (1 - 0.5 * n2[..., None]) + cols[2][None, None, :] * (0.5 * n2[..., None])
        for _ in range(rng.randint(0, 6)):
            p1 = (rng.randint(0, w), rng.randint(0, h))
            p2 = (rng.randint(0, w), rng.randint(0, h))
            cv2.line(img, p1, p2, tuple(float(x) * 0.4 for x in cols[0]), rng.randint(1, 4), cv2.LINE_AA)
    return np.ascontiguousarray(img, dtype=np.float32)


class _Camera:
    """Table plane (mm) -> image pixels: a pinhole camera tilted and turned above the table."""

    def __init__(self, rng: random.Random, w: int, h: int, target_xy: tuple[float, float]) -> None:
        self.w, self.h = w, h
        self.height_mm = rng.uniform(250, 500)
        hfov = math.radians(rng.uniform(45, 62))
        self.f = (w / 2) / math.tan(hfov / 2)
        self.tilt = math.radians(rng.uniform(0, 25))
        self.tilt_dir = rng.uniform(0, 2 * math.pi)
        self.roll = math.radians(rng.uniform(-4, 4))
        # the point of the table under the image centre
        self.cx_mm, self.cy_mm = target_xy

    def project(self, pts_mm: np.ndarray, z_mm: float | np.ndarray = 0.0) -> np.ndarray:
        """(n, 2) table points (x east, y south, mm) at height z -> (n, 2) image points."""
        p = np.asarray(pts_mm, dtype=np.float64)
        x = p[:, 0] - self.cx_mm
        y = p[:, 1] - self.cy_mm
        z = np.broadcast_to(np.asarray(z_mm, dtype=np.float64), x.shape)
        # camera above (0, 0) looking down, tilted by `tilt` towards `tilt_dir`
        ct, st = math.cos(self.tilt), math.sin(self.tilt)
        cd, sd = math.cos(self.tilt_dir), math.sin(self.tilt_dir)
        # rotate the table so the tilt is about the camera's x axis
        xr = x * cd + y * sd
        yr = -x * sd + y * cd
        depth_offset = self.height_mm - z
        # camera centre is displaced so that it still looks at (0,0)
        cam_y = -self.height_mm * math.tan(self.tilt)
        yc = yr - cam_y
        # camera axes after tilt
        Y = yc * ct - depth_offset * st
        Z = yc * st + depth_offset * ct
        X = xr
        # back to the image orientation
        Xi = X * cd - Y * sd
        Yi = X * sd + Y * cd
        cr, sr = math.cos(self.roll), math.sin(self.roll)
        u = self.f * (Xi * cr - Yi * sr) / Z + self.w / 2
        v = self.f * (Xi * sr + Yi * cr) / Z + self.h / 2
        return np.stack([u, v], 1)


def _cube_polys(
    cam: _Camera, centre: tuple[float, float], size: float, yaw: float
) -> tuple[np.ndarray, np.ndarray, list[np.ndarray]]:
    """Image polygons of a cube: base quad, top quad, and the visible side faces."""
    c, s = math.cos(yaw), math.sin(yaw)
    half = size / 2
    corners = np.array([[-half, -half], [half, -half], [half, half], [-half, half]])
    rot = corners @ np.array([[c, s], [-s, c]]) + np.array(centre)
    base = cam.project(rot, 0.0)
    top = cam.project(rot, size)
    sides = []
    for i in range(4):
        j = (i + 1) % 4
        quad = np.array([base[i], base[j], top[j], top[i]])
        # visible when the face turns towards the camera: the top edge lies outside the base
        e1, e2, e3 = quad[1] - quad[0], quad[2] - quad[0], quad[3] - quad[0]
        area = 0.5 * float(e1[0] * e2[1] - e1[1] * e2[0] + e2[0] * e3[1] - e2[1] * e3[0])
        if area < -0.5:
            sides.append(quad)
    return base, top, sides


def render_shake(
    pattern: Pattern | None,
    rng: random.Random,
    *,
    width: int = 1024,
    height: int = 768,
    knocked_out: bool = False,
    covered: bool = False,
    colours: Mapping[str, tuple[float, float, float]] | None = None,
    clear_of_cubes: bool = True,
    fill_light: bool = False,
) -> tuple[np.ndarray, dict[str, Any]]:
    """One frame of a shake result and its truth (see the module docstring).

    ``covered`` draws a hand or the box over the grid; ``colours`` (name -> CIELAB) paints other
    pieces than the game's cubes (the pattern then names those colours). Otherwise a hand or the box edge lies
    elsewhere in the frame, clear of the grid; ``clear_of_cubes=False`` lets them fall where they were drawn, over
    the grid too (the generator before 2026-11-30: the tests' frames of a hand across the cubes). ``fill_light``: the
    shadows lit by a second light of another colour (as under a lamp and a window, or a room's warm bulbs): darker
    (0.35 to 0.75 of the light taken away: the dev set's renders show about 0.4 on a light table, 0.65 on a dark red
    cloth), tinted towards the fill's colour and softer-edged, as in photoreal renders (a hard lamp's shadow beside a
    cube then looks like a gray or black cube's face); off, the scenes and their random draws are those of before.
    """
    cube_lab = dict(colours) if colours is not None else CUBE_LAB
    nprng = np.random.default_rng(rng.getrandbits(32))
    w, h = width, height
    kind = rng.choice(TABLES)
    # the table is made at half size (fast) and enlarged; fine grain comes with the sensor noise
    table = cv2.resize(_table(rng, nprng, h // 2, w // 2, kind), (w, h), interpolation=cv2.INTER_LINEAR)

    cube_mm = rng.uniform(9.3, 10.7)
    pitch_mm = cube_mm + rng.uniform(3.0, 6.0)
    cam = _Camera(rng, w, h, (rng.uniform(-60, 60), rng.uniform(-40, 40)))
    grid_yaw = math.radians(rng.uniform(-20, 20))
    gx, gy = 0.0, 0.0
    # keep the grid inside the frame
    for _ in range(20):
        pts = cam.project(np.array([[gx, gy]]))[0]
        if 0.15 * w < pts[0] < 0.85 * w and 0.15 * h < pts[1] < 0.85 * h:
            break
        gx, gy = gx * 0.5, gy * 0.5
        cam.cx_mm *= 0.5
        cam.cy_mm *= 0.5

    # the image's rows must be the pattern's rows: correct the grid's yaw for the camera's roll and tilt
    axis = cam.project(np.array([[gx, gy], [gx + 10, gy]]))
    img_angle = math.atan2(axis[1, 1] - axis[0, 1], axis[1, 0] - axis[0, 0])
    grid_yaw = grid_yaw - img_angle
    cy_, sy_ = math.cos(grid_yaw), math.sin(grid_yaw)

    def cell_xy(r: float, c: float) -> tuple[float, float]:
        dx, dy = (c - 1) * pitch_mm, (r - 1) * pitch_mm
        return gx + dx * cy_ - dy * sy_, gy + dx * sy_ + dy * cy_

    cubes: list[tuple[tuple[float, float], str, float]] = []  # centre mm, colour, yaw
    cells = [[pattern[r][c] if pattern is not None else None for c in range(3)] for r in range(3)]
    knocked: tuple[int, int] | None = None
    if knocked_out and pattern is not None:
        full = [(r, c) for r in range(3) for c in range(3) if cells[r][c] is not None]
        if full:
            knocked = rng.choice(full)
    for r in range(3):
        for c in range(3):
            colour = cells[r][c]
            if colour is None:
                continue
            jr, jc = rng.gauss(0, 0.05), rng.gauss(0, 0.05)
            yaw = grid_yaw + math.radians(rng.gauss(0, 5))
            if knocked == (r, c):
                # pushed well out of line: away from the grid centre, between 0.9 and 1.6 pitches
                ang = math.atan2(r - 1 + rng.uniform(-0.6, 0.6), c - 1 + rng.uniform(-0.6, 0.6))
                if (r, c) == (1, 1):
                    ang = rng.uniform(0, 2 * math.pi)
                dist = rng.uniform(0.9, 1.5)
                jr, jc = dist * math.sin(ang), dist * math.cos(ang)
                if (r, c) == (1, 1):
                    jr, jc = jr + 2.0 * math.copysign(1, jr), jc
                yaw += math.radians(rng.uniform(10, 40))
            cubes.append((cell_xy(r + jr, c + jc), colour, yaw))

    # strays: at least two pitches from every grid cell
    strays = []
    for _ in range(rng.choice([0, 0, 1, 2, 3, 4, 6])):
        for _try in range(10):
            ang, dist = rng.uniform(0, 2 * math.pi), rng.uniform(3.2, 9.0)
            r_, c_ = 1 + dist * math.sin(ang), 1 + dist * math.cos(ang)
            xy = cell_xy(r_, c_)
            p = cam.project(np.array([xy]))[0]
            if 10 < p[0] < w - 10 and 10 < p[1] < h - 10:
                strays.append((xy, rng.choice(list(cube_lab)), rng.uniform(0, math.pi / 2)))
                break

    # light
    kelvin = rng.uniform(2700, 6500)
    light_dir = rng.uniform(0, 2 * math.pi)
    light_elev = math.radians(rng.uniform(35, 75))
    shadow_len = 1.0 / math.tan(light_elev)
    shadow_strength = rng.uniform(0.25, 0.55)
    gains = _kelvin_gains(kelvin)
    tint = np.ones(3, np.float32)  # the shadow's colour against the lit table's, per channel (BGR)
    if fill_light:
        fill_kelvin = rng.uniform(2700, 6500)
        shadow_strength = rng.uniform(0.35, 0.75)
        tint = _kelvin_gains(fill_kelvin) / gains

    # shadows on a mask, blurred once
    shadow = np.zeros((h, w), np.float32)
    sdx, sdy = math.cos(light_dir), math.sin(light_dir)
    for xy, _, yaw in cubes + strays:
        base, top, _ = _cube_polys(cam, xy, cube_mm, yaw)
        off = np.array([[xy[0] + sdx * cube_mm * shadow_len, xy[1] + sdy * cube_mm * shadow_len]])
        sbase, _, _ = _cube_polys(cam, tuple(off[0]), cube_mm, yaw)
        hull = cv2.convexHull(np.concatenate([base, sbase]).astype(np.float32))
        cv2.fillConvexPoly(shadow, np.round(hull).astype(np.int32), 1.0, cv2.LINE_AA)
    blur = rng.choice([1, 3, 5]) if not fill_light else rng.choice([3, 5, 9])
    if blur > 1:
        shadow = cv2.GaussianBlur(shadow, (blur * 2 + 1, blur * 2 + 1), 0)
    cube_mask = np.zeros((h, w), np.float32)  # where cubes are drawn, no shadow applies
    img = table
    img *= gains[None, None, :]

    # clutter under the cubes' layer: a card
    grid_poly = cam.project(np.array([cell_xy(-0.5, -0.5), cell_xy(-0.5, 2.5), cell_xy(2.5, 2.5), cell_xy(2.5, -0.5)]))
    gcx, gcy = grid_poly.mean(0)
    span = float(np.linalg.norm(grid_poly[0] - grid_poly[2]))

    def far_point(min_dist: float) -> tuple[float, float]:
        for _ in range(30):
            x, y = rng.uniform(0, w), rng.uniform(0, h)
            if math.hypot(x - gcx, y - gcy) > min_dist:
                return x, y
        return (0.0, 0.0) if gcx > w / 2 else (float(w), float(h))

    # the grid and a margin around it, on a quarter-size mask: the box edge and a hand that are not meant to cover
    # the pattern are pushed clear of it ("elsewhere in the frame": a frame whose cubes a finger covers is not a
    # complete pattern in view)
    grid_mask = np.zeros((h // 4 + 1, w // 4 + 1), np.uint8)
    margin = np.array([gcx, gcy]) + (grid_poly - [gcx, gcy]) * 1.5
    cv2.fillConvexPoly(grid_mask, np.round(margin / 4).astype(np.int32), 1)

    def clear_of_grid(shapes: Any, x: float, y: float) -> tuple[float, float]:
        """(x, y) moved away from the grid's centre until the shapes drawn there miss the grid and its margin."""
        away = np.array([x - gcx, y - gcy])
        length = float(np.linalg.norm(away))
        away = away / length if length > 1e-6 else np.array([1.0, 0.0])
        for _step in range(60):
            mask = np.zeros_like(grid_mask)
            for shape in shapes(x, y):
                if isinstance(shape, np.ndarray):
                    cv2.fillConvexPoly(mask, np.round(shape / 4).astype(np.int32), 1)
                else:
                    (ex, ey), (ax, ay), turn = shape
                    cv2.ellipse(mask, (ex // 4, ey // 4), (max(1, ax // 4), max(1, ay // 4)), turn, 0, 360, 1, -1)
            if not (mask & grid_mask).any():
                break
            x, y = x + away[0] * span * 0.1, y + away[1] * span * 0.1
        return x, y

    scene: dict[str, Any] = {"table": kind, "kelvin": round(kelvin), "tilt_deg": round(math.degrees(cam.tilt), 1)}
    if fill_light:
        scene["fill_kelvin"], scene["shadow_strength"] = round(fill_kelvin), round(shadow_strength, 2)
    distractors = []
    if rng.random() < 0.4:
        x, y = far_point(span * 1.6 + 120)
        cw, ch = rng.uniform(60, 120), rng.uniform(90, 170)
        rect = cv2.boxPoints(((x, y), (cw, ch), rng.uniform(0, 90)))
        cv2.fillConvexPoly(img, np.round(rect).astype(np.int32), (0.92, 0.93, 0.95), cv2.LINE_AA)
        inner = cv2.boxPoints(((x, y), (cw * 0.85, ch * 0.85), 0))
        col = tuple(float(v) for v in nprng.random(3) * 0.8)
        cv2.fillConvexPoly(img, np.round(inner).astype(np.int32), col, cv2.LINE_AA)
        distractors.append("card")

    # cubes, back to front (by image y of the centre)
    def draw_cube(xy: tuple[float, float], colour: str, yaw: float) -> None:
        base, top, sides = _cube_polys(cam, xy, cube_mm, yaw)
        L, a, b = cube_lab[colour]
        L = L + rng.gauss(0, 1.5)
        col = lab_to_bgr(np.array([L, a + rng.gauss(0, 1.5), b + rng.gauss(0, 1.5)])) / 255.0
        col = col.astype(np.float32) * gains
        for quad in sides:
            mid = quad.mean(0) - top.mean(0)
            facing = math.cos(math.atan2(mid[1], mid[0]) - light_dir)  # faces towards the shadow are dark
            shade = 0.45 + 0.2 * (1 - facing) * 0.5 + rng.uniform(-0.03, 0.03)
            cv2.fillConvexPoly(
                img, np.round(quad * 4).astype(np.int32), tuple(float(v) * shade for v in col), cv2.LINE_AA, 2
            )
        hull = cv2.convexHull(np.concatenate([base, top]).astype(np.float32))
        cv2.fillConvexPoly(cube_mask, np.round(hull * 4).astype(np.int32), 1.0, cv2.LINE_AA, 2)
        topshade = rng.uniform(0.92, 1.05)
        cv2.fillConvexPoly(
            img, np.round(top * 4).astype(np.int32), tuple(float(v) * topshade for v in col), cv2.LINE_AA, 2
        )
        # bevel highlight on the lit edges
        hl = tuple(min(1.0, float(v) * 1.25 + 0.08) for v in col)
        pts = np.round(top * 4).astype(np.int32)
        for i in range(4):
            j = (i + 1) % 4
            mid = (top[i] + top[j]) / 2 - top.mean(0)
            if math.cos(math.atan2(mid[1], mid[0]) - light_dir) < -0.2:
                cv2.line(img, tuple(pts[i]), tuple(pts[j]), hl, 1, cv2.LINE_AA, 2)

    for xy, colour, yaw in sorted(cubes + strays, key=lambda t: cam.project(np.array([t[0]]))[0, 1]):
        draw_cube(xy, colour, yaw)

    shaded = shadow * (1.0 - cube_mask)
    if fill_light:
        img *= tinted_shade(shaded, shadow_strength, tint)
    else:  # (the old arithmetic: tinted_shade with no tint rounds otherwise; the old frames stay byte for byte)
        shade = 1.0 - shadow_strength * shaded
        img *= cv2.merge([shade, shade, shade])

    # clutter above: the box edge, a hand
    if covered or rng.random() < 0.25:
        # the shaker box: a big dark or coloured slab from the side (over the grid when covered)
        bw = rng.uniform(0.3, 0.5) * w
        if covered:
            cx, cy = gcx + rng.uniform(-0.1, 0.1) * span, gcy + rng.uniform(-0.1, 0.1) * span
            bw = max(bw, 2.5 * span)
        else:
            side = rng.choice(["l", "r", "t", "b"])
            cx = {"l": -bw * 0.3, "r": w + bw * 0.3}.get(side, rng.uniform(0, w))
            cy = {"t": -bw * 0.3, "b": h + bw * 0.3}.get(side, rng.uniform(0, h))
        box_h, box_turn = bw * rng.uniform(0.7, 1.0), rng.uniform(0, 90)

        def box_shapes(x: float, y: float) -> list[np.ndarray]:
            return [cv2.boxPoints(((x, y), (bw, box_h), box_turn))]

        if clear_of_cubes and not covered:
            cx, cy = clear_of_grid(box_shapes, cx, cy)
        rect = box_shapes(cx, cy)[0]
        col = tuple(float(v) for v in (nprng.random(3) * 0.6 + 0.2) * gains)
        cv2.fillConvexPoly(img, np.round(rect).astype(np.int32), col, cv2.LINE_AA)
        inner = cv2.boxPoints(((cx, cy), (bw * 0.9, bw * 0.9 * rng.uniform(0.7, 1.0)), 0))
        cv2.polylines(img, [np.round(inner).astype(np.int32)], True, tuple(v * 0.8 for v in col), 3, cv2.LINE_AA)
        distractors.append("box")
    if (covered and "box" not in distractors) or rng.random() < 0.3:
        skin = lab_to_bgr(np.array([rng.uniform(55, 75), rng.uniform(10, 20), rng.uniform(15, 25)])) / 255.0
        skin = tuple(float(v) for v in skin * gains)
        palm = max(80.0, span * 1.3)
        if covered:
            hx, hy = gcx, gcy
        else:
            hx, hy = far_point(span * 0.8 + palm * 2.6)
        ang = rng.uniform(0, 2 * math.pi)

        def hand_shapes(x: float, y: float) -> list[tuple[tuple[int, int], tuple[int, int], float]]:
            """The palm and four fingers: (centre, half axes, angle in degrees) of each ellipse."""
            shapes = [((int(x), int(y)), (int(palm), int(palm * 0.8)), math.degrees(ang))]
            for k in range(4):
                fa = ang + (k - 1.5) * 0.28
                fx, fy = x + math.cos(fa) * palm * 1.5, y + math.sin(fa) * palm * 1.5
                shapes.append(((int(fx), int(fy)), (int(palm * 0.6), int(palm * 0.15)), math.degrees(fa)))
            return shapes

        if clear_of_cubes and not covered:
            hx, hy = clear_of_grid(hand_shapes, hx, hy)
        for centre, axes, turn in hand_shapes(hx, hy):
            cv2.ellipse(img, centre, axes, turn, 0, 360, skin, -1, cv2.LINE_AA)
        distractors.append("hand")

    # light falloff (a lamp's pool or vignetting), made small and enlarged; shadows; exposure
    sh, sw = h // 8, w // 8
    yy, xx = np.ogrid[0:sh, 0:sw]
    lx, ly = rng.uniform(0, sw), rng.uniform(0, sh)
    rad = rng.uniform(0.6, 1.4) * max(sw, sh)
    fall = (1.0 - rng.uniform(0.1, 0.35) * np.minimum(1.0, ((xx - lx) ** 2 + (yy - ly) ** 2) / rad**2)).astype(
        np.float32
    )
    light = cv2.resize(fall, (w, h), interpolation=cv2.INTER_LINEAR) * np.float32(rng.uniform(0.75, 1.15) * 255.0)
    img *= cv2.merge([light, light, light])
    noise = np.empty((h, w, 3), np.float32)
    cv2.setRNGSeed(rng.getrandbits(31))  # OpenCV's own generator (per thread): seeded, so scenes repeat
    cv2.randn(noise, 0.0, rng.uniform(1.0, 5.0))
    img += noise
    frame = cv2.convertScaleAbs(img)
    ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, rng.randint(70, 95)])
    frame_bgr = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else frame

    complete = pattern is not None and all(cells[r][c] is not None for r in range(3) for c in range(3))
    valid = complete and knocked is None and not covered
    scene["distractors"] = distractors + ([f"stray_cubes:{len(strays)}"] if strays else [])
    truth: dict[str, Any] = {
        "valid": valid,
        "pattern": [list(row) for row in cells] if valid else None,
        "grid_px": [[round(float(x), 1), round(float(y), 1)] for x, y in grid_poly] if pattern is not None else None,
        "cells": [list(row) for row in cells],  # what was drawn on each cell (None: nothing)
        "scene": scene,
    }
    if knocked is not None:
        truth["knocked_out"] = list(knocked)
    return frame_bgr, truth


def render_covered(rng: random.Random, *, width: int = 1024, height: int = 768) -> tuple[np.ndarray, dict[str, Any]]:
    """A frame where a hand or the shaker box covers the grid (live mode must report nothing)."""
    return render_shake(random_pattern(rng), rng, width=width, height=height, covered=True)


def render_scene_set(
    rng: random.Random,
    n: int,
    *,
    incomplete_share: float = 0.25,
    clear_of_cubes: bool = True,
    fill_light: bool = False,
) -> list[tuple[np.ndarray, dict]]:
    """``n`` varied scenes: complete patterns (some with wilds), incomplete ones, knocked-out cubes, none
    (``clear_of_cubes``, ``fill_light``: :func:`render_shake`'s)."""
    out = []
    for _ in range(n):
        x = rng.random()
        pattern: Pattern | None = random_pattern(rng, wilds=rng.choice([0, 0, 1, 2, 3]))
        knocked = False
        if x < incomplete_share * 0.5:
            cells = [(r, c) for r in range(3) for c in range(3)]
            for r, c in rng.sample(cells, rng.randint(1, 3)):
                pattern[r][c] = None
        elif x < incomplete_share * 0.9:
            knocked = True
        elif x < incomplete_share:
            pattern = None
        out.append(
            render_shake(pattern, rng, knocked_out=knocked, clear_of_cubes=clear_of_cubes, fill_light=fill_light)
        )
    return out
