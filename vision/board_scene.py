"""A seeded generator of photos of Shake That City player boards, for the board reader's tests.

Everything is drawn from a ``random.Random`` passed in, so a seed gives the same photo every time.
A *print* (:class:`PrintStyle`: zone hues and textures, border width, grid lines, bonus tile shape,
tile illustrations) is drawn first and can be shared by several photos, as one physical board is
photographed many times; a *scene* then adds the camera (tilt up to 35 degrees, any rotation), the
table (wood, cloth, laminate, stone), clutter (cubes, spare tiles, a phone) and the light (colour,
gradient, glare, a shadow), and ends with sensor noise and JPEG.

The board follows ``shared/rules/shake-that-city.md``: 6 x 6 cells, zones by ring (green, brown,
gray), a black city border (on the waterfront side the south and east borders are beach), bonus tiles
in notches on the north and west edges and a distinct corner tile at the north-west.

    frame_bgr, truth = render_board_photo(grid, random.Random(7), side="waterfront", north="left")
    empty_bgr, known_bgr, known_board = render_calibration_pair(random.Random(7), side="inland")
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field, replace
from typing import Any

import cv2
import numpy as np

SIZE = 6
NORTHS = ("up", "right", "down", "left")
LETTERS = "HSFPRC"
KNOWN_LAYOUT = ("RP...C", ".S...S", ".C.S.H", ".H.RRF", ".P..F.", "HP...F")


@dataclass(frozen=True)
class PrintStyle:
    """One board print: what differs between editions, sides and art styles (colours are BGR)."""

    zone_bgr: tuple[tuple[int, int, int], ...]  # outer ring, middle ring, centre
    zone_texture: float  # amplitude of the print's mottled texture
    texture_scale: float  # size of the mottling, in cells
    border_cells: float  # border width, in cells
    border_bgr: tuple[int, int, int]
    beach_bgr: tuple[int, int, int]
    line_bgr: tuple[int, int, int]  # grid lines between cells
    line_px: float  # grid line width, in cells
    frame_line: bool  # a light line framing the cell area
    dollar: bool  # a coin sign printed on the centre cells
    bonus_shape: str  # "semicircle", "square", "hexagon"
    bonus_bgr: tuple[int, int, int]
    corner_bgr: tuple[int, int, int]
    corner_shape: str  # "quarter", "square", "triangle"
    tile_bgr: dict[str, tuple[int, int, int]] = field(default_factory=dict)
    tile_size: float = 0.93  # tile side, in cells
    edge_bgr: tuple[int, int, int] = (150, 190, 215)  # cardboard edges of tiles
    seed: int = 0  # the print's own texture (the same on every photo of this board)
    bonus_lines: tuple[int, ...] = (1, 3, 5)  # columns (north edge) and rows (west edge) with a notch


def _jitter(rng: random.Random, bgr: tuple[int, int, int], amount: int) -> tuple[int, int, int]:
    return tuple(int(np.clip(v + rng.randint(-amount, amount), 0, 255)) for v in bgr)  # type: ignore[return-value]


def _hsv_bgr(h: float, s: float, v: float) -> tuple[int, int, int]:
    px = np.uint8([[[int(h) % 180, int(np.clip(s, 0, 255)), int(np.clip(v, 0, 255))]]])
    b, g, r = cv2.cvtColor(px, cv2.COLOR_HSV2BGR)[0, 0]
    return int(b), int(g), int(r)


def random_print_style(rng: random.Random) -> PrintStyle:
    """A plausible board print: every hue, texture, width and shape varies with the seed."""
    green = _hsv_bgr(rng.uniform(40, 75), rng.uniform(120, 220), rng.uniform(120, 200))
    brown = _hsv_bgr(rng.uniform(8, 22), rng.uniform(110, 200), rng.uniform(90, 170))
    gray_v = rng.uniform(130, 200)
    gray = _hsv_bgr(rng.uniform(90, 130), rng.uniform(5, 40), gray_v)
    tiles = {
        "H": _hsv_bgr(rng.uniform(-6, 8), rng.uniform(150, 230), rng.uniform(150, 220)),
        "S": _hsv_bgr(rng.uniform(100, 118), rng.uniform(140, 230), rng.uniform(150, 230)),
        "F": _jitter(rng, (35, 33, 35), 10),
        "P": _hsv_bgr(rng.uniform(45, 70), rng.uniform(130, 210), rng.uniform(110, 190)),
        "R": _hsv_bgr(rng.uniform(90, 130), rng.uniform(0, 25), rng.uniform(95, 145)),
        "C": _hsv_bgr(rng.uniform(20, 30), rng.uniform(180, 240), rng.uniform(200, 245)),
    }
    return PrintStyle(
        zone_bgr=(green, brown, gray),
        zone_texture=rng.uniform(4, 22),
        texture_scale=rng.uniform(0.2, 0.8),
        border_cells=rng.uniform(0.45, 0.95),
        border_bgr=_jitter(rng, (38, 34, 34), 12),
        beach_bgr=_hsv_bgr(rng.uniform(15, 28), rng.uniform(60, 120), rng.uniform(180, 230)),
        line_bgr=_jitter(rng, (40, 40, 40), 25),
        line_px=rng.uniform(0.02, 0.05),
        frame_line=rng.random() < 0.6,
        dollar=rng.random() < 0.6,
        bonus_shape=rng.choice(["semicircle", "square", "hexagon"]),
        bonus_bgr=_jitter(rng, (200, 225, 235), 20),
        corner_bgr=_hsv_bgr(rng.uniform(18, 32), rng.uniform(170, 240), rng.uniform(200, 250)),
        corner_shape=rng.choice(["quarter", "square", "triangle"]),
        tile_bgr=tiles,
        tile_size=rng.uniform(0.9, 0.95),
        seed=rng.getrandbits(32),
        bonus_lines=tuple(sorted(rng.sample([0, 1, 2, 3, 4, 5], 3))),
    )


# ---------------------------------------------------------------------------------------- the board


def _mottle(rng: random.Random, size: int, cells_across: float, scale_cells: float) -> np.ndarray:
    """Smooth random texture in [-1, 1] of ``size`` pixels, blobs about ``scale_cells`` cells wide."""
    n = max(2, int(cells_across / max(scale_cells, 0.05)))
    nprng = np.random.default_rng(rng.getrandbits(32))
    small = nprng.uniform(-1, 1, (n, n)).astype(np.float32)
    return cv2.resize(small, (size, size), interpolation=cv2.INTER_CUBIC)


def _draw_bonus(img: np.ndarray, centre: tuple[float, float], r: float, shape: str, bgr, outward: tuple) -> None:
    cx, cy = centre
    if shape == "semicircle":
        angle = math.degrees(math.atan2(outward[1], outward[0]))
        cv2.ellipse(img, (int(cx), int(cy)), (int(r), int(r)), angle, -90, 90, bgr, -1, cv2.LINE_AA)
    elif shape == "square":
        cv2.rectangle(img, (int(cx - r), int(cy - r)), (int(cx + r), int(cy + r)), bgr, -1, cv2.LINE_AA)
    else:
        pts = [(cx + r * math.cos(a), cy + r * math.sin(a)) for a in np.linspace(0, 2 * math.pi, 7)[:-1] + math.pi / 6]
        cv2.fillPoly(img, [np.int32(pts)], bgr, cv2.LINE_AA)
    dot = max(1, int(r * 0.12))
    for k in (-1, 0, 1):
        cv2.circle(img, (int(cx + k * r * 0.35), int(cy)), dot, (60, 60, 120), -1, cv2.LINE_AA)


def render_board_print(style: PrintStyle, side: str, px: int) -> tuple[np.ndarray, np.ndarray]:
    """The empty board, north up: (board_bgr, alpha) with the cell area at ``border`` from each edge.

    Bonus tiles stick out of the outer edge a little, as in their notches on the real board. The
    print's texture comes from ``style.seed``: every photo of one board shows the same print.
    """
    rng = random.Random(style.seed)
    b = int(round(style.border_cells * px))
    bulge = int(round(0.18 * px))
    size = SIZE * px + 2 * b
    canvas = size + 2 * bulge
    img = np.zeros((canvas, canvas, 3), np.uint8)
    alpha = np.zeros((canvas, canvas), np.uint8)
    o = bulge
    img[o : o + size, o : o + size] = style.border_bgr
    alpha[o : o + size, o : o + size] = 255
    # border texture: faint city blocks
    for _ in range(int(40 * style.border_cells)):
        x, y = rng.randint(o, o + size - 6), rng.randint(o, o + size - 6)
        w = rng.randint(3, max(4, px // 4))
        shade = tuple(int(min(255, v + rng.randint(4, 14))) for v in style.border_bgr)
        cv2.rectangle(img, (x, y), (x + w, y + w), shade, -1)
    if side == "waterfront":  # south and east borders are beach
        sand = np.array(style.beach_bgr, np.float32)
        tex = _mottle(rng, size, 8, 0.3)[..., None] * 10
        region = np.zeros((size, size), bool)
        region[b + SIZE * px :, :] = True
        region[:, b + SIZE * px :] = True
        region[:b, :] = False
        region[:, :b] = False
        patch = img[o : o + size, o : o + size].astype(np.float32)
        patch[region] = (sand + tex)[region]
        img[o : o + size, o : o + size] = np.clip(patch, 0, 255).astype(np.uint8)
        wave = (np.array(style.beach_bgr) * 0.8).astype(int).tolist()
        y = o + b + SIZE * px + int(0.55 * b)
        cv2.line(img, (o + b, y), (o + size, y), wave, max(1, px // 30), cv2.LINE_AA)
        x = o + b + SIZE * px + int(0.55 * b)
        cv2.line(img, (x, o + b), (x, o + size), wave, max(1, px // 30), cv2.LINE_AA)
    # zones
    cells = np.zeros((SIZE * px, SIZE * px, 3), np.float32)
    tex = _mottle(rng, SIZE * px, SIZE, style.texture_scale) * style.zone_texture
    for r in range(SIZE):
        for c in range(SIZE):
            ring = min(r, c, SIZE - 1 - r, SIZE - 1 - c)
            cells[r * px : (r + 1) * px, c * px : (c + 1) * px] = style.zone_bgr[min(ring, 2)]
    cells = np.clip(cells + tex[..., None], 0, 255).astype(np.uint8)
    if style.dollar:
        for r in (2, 3):
            for c in (2, 3):
                centre = (int((c + 0.5) * px), int((r + 0.5) * px))
                ink = tuple(int(v * 0.8) for v in style.zone_bgr[2])
                cv2.circle(cells, centre, int(px * 0.22), ink, max(1, px // 25), cv2.LINE_AA)
                cv2.putText(cells, "$", (centre[0] - px // 9, centre[1] + px // 9), 0, px / 110, ink, max(1, px // 25))
    lw = max(1, int(round(style.line_px * px)))
    for i in range(SIZE + 1):
        cv2.line(cells, (i * px, 0), (i * px, SIZE * px), style.line_bgr, lw)
        cv2.line(cells, (0, i * px), (SIZE * px, i * px), style.line_bgr, lw)
    img[o + b : o + b + SIZE * px, o + b : o + b + SIZE * px] = cells
    if style.frame_line:
        f = max(2, int(0.06 * px))
        cv2.rectangle(img, (o + b - f, o + b - f), (o + b + SIZE * px + f, o + b + SIZE * px + f), (225, 225, 225), 1)
    # bonus tiles in the notches of the north and west edges, the corner tile at the north-west
    r = 0.36 * px
    edge = o + max(0.35 * b, r - 0.12 * px)  # in a notch: mostly on the border, a little beyond its edge
    for line in style.bonus_lines:
        along = o + b + (line + 0.5) * px
        _draw_bonus(img, (along, edge), r, style.bonus_shape, style.bonus_bgr, (0, -1))
        _draw_bonus(img, (edge, along), r, style.bonus_shape, style.bonus_bgr, (-1, 0))
        cv2.circle(alpha, (int(along), int(edge)), int(r), 255, -1)
        cv2.circle(alpha, (int(edge), int(along)), int(r), 255, -1)
    k = int(max(b, 0.5 * px) * 0.95)
    if style.corner_shape == "quarter":
        cv2.ellipse(img, (o, o), (k, k), 0, 0, 90, style.corner_bgr, -1, cv2.LINE_AA)
    elif style.corner_shape == "square":
        cv2.rectangle(img, (o, o), (o + int(k * 0.85), o + int(k * 0.85)), style.corner_bgr, -1)
    else:
        cv2.fillPoly(img, [np.int32([(o, o), (o + k, o), (o, o + k)])], style.corner_bgr, cv2.LINE_AA)
    cv2.arrowedLine(img, (o + k // 5, o + k // 5), (o + k // 2, o + k // 2), (40, 40, 40), max(1, px // 30))
    # name of the game on the south border (a decoy for orientation)
    if b > 0.4 * px:
        cv2.putText(img, "SHAKE THAT CITY", (o + b + 2 * px, o + size - int(b * 0.35)), 0, px / 90, (120, 120, 120), 1)
    return img, alpha


def draw_tile(letter: str, variant: int, style: PrintStyle, px: int) -> np.ndarray:
    """One tile's printed face, ``px`` square, illustration ``variant`` (0-2) of its type."""
    t = np.zeros((px, px, 3), np.uint8)
    t[:] = style.tile_bgr[letter]
    s = px / 40.0
    white = (235, 240, 240)

    def p(x: float, y: float) -> tuple[int, int]:
        return int(x * s), int(y * s)

    if letter == "H":
        for k in range(1 if variant == 0 else 2):
            dx = 0 if variant == 0 else (-8 + 16 * k)
            w = 9 if variant else 12
            cv2.fillPoly(t, [np.int32([p(20 + dx - w, 20), p(20 + dx, 10), p(20 + dx + w, 20)])], (60, 50, 170))
            cv2.rectangle(t, p(20 + dx - w * 0.8, 20), p(20 + dx + w * 0.8, 31), white, -1)
            cv2.rectangle(t, p(18 + dx, 24), p(22 + dx, 31), (40, 60, 120), -1)
        if variant == 2:
            for x in range(24, 38, 3):
                cv2.line(t, p(x, 28), p(x, 34), white, max(1, int(s)))
    elif letter == "S":
        cv2.rectangle(t, p(8, 16), p(32, 32), white, -1)
        for k in range(6):
            colour = (40, 40, 200) if (k + variant) % 2 else white
            cv2.rectangle(t, p(8 + 4 * k, 10), p(12 + 4 * k, 16), colour, -1)
        cv2.rectangle(t, p(12, 20), p(28, 27), (200, 170, 120), -1)
        cv2.rectangle(t, p(14, 33), p(26, 36), (60, 210, 240), -1)
    elif letter == "F":
        cv2.rectangle(t, p(6, 18), p(34, 34), (75, 75, 80), -1)
        cv2.rectangle(t, p(8 + 6 * variant, 6), p(13 + 6 * variant, 18), (75, 75, 80), -1)
        for row in range(2):
            for k in range(5):
                cv2.rectangle(t, p(9 + 5 * k, 22 + 6 * row), p(11 + 5 * k, 25 + 6 * row), (60, 210, 240), -1)
        cv2.circle(t, p(12 + 6 * variant, 4), max(1, int(2 * s)), (170, 170, 175), -1)
    elif letter == "P":
        if variant != 1:
            cv2.ellipse(t, p(20, 44), p(30, 26), 0, 200, 330, (150, 200, 225), max(1, int(3 * s)))
        for k, (x, y) in enumerate([(10, 10), (28, 12), (14, 27), (30, 30), (21, 19)][: 3 + variant]):
            cv2.circle(t, p(x, y), max(2, int(5 * s)), (40, 110, 30), -1)
            cv2.circle(t, p(x - 1, y - 1), max(1, int(2 * s)), (90, 180, 70), -1)
            if k == 1 and variant == 2:
                cv2.circle(t, p(x + 6, y + 6), max(1, int(2 * s)), (200, 120, 40), -1)
    elif letter == "R":
        lw = max(1, int(1.2 * s))
        if variant == 0:
            cv2.line(t, p(0, 20), p(40, 20), (60, 210, 240), lw)
            for x in range(2, 40, 8):
                cv2.line(t, p(x, 6), p(x + 4, 6), white, lw)
                cv2.line(t, p(x, 34), p(x + 4, 34), white, lw)
        elif variant == 1:
            cv2.ellipse(t, p(0, 40), p(20, 20), 0, 270, 360, (60, 210, 240), lw)
            cv2.ellipse(t, p(0, 40), p(34, 34), 0, 270, 360, white, lw)
        else:
            cv2.line(t, p(20, 0), p(20, 40), (60, 210, 240), lw)
            cv2.line(t, p(0, 20), p(40, 20), (60, 210, 240), lw)
            for k in range(4):
                cv2.rectangle(t, p(6 + 7 * k, 3), p(9 + 7 * k, 6), white, -1)
    elif letter == "C":
        for k in range(-40, 40, 8):
            cv2.line(t, p(k, 0), p(k + 8, 40), (20, 20, 20), max(1, int(2 * s)))
        cv2.rectangle(t, p(8, 4), p(32, 36), style.tile_bgr["C"], -1)
        cv2.fillPoly(t, [np.int32([p(20, 8 + variant), p(13, 31), p(27, 31)])], (30, 110, 245))
        cv2.line(t, p(16, 22), p(24, 22), white, max(1, int(2 * s)))
    return t


def _place_tiles(
    board: np.ndarray, grid: list[str], style: PrintStyle, px: int, origin: int, rng: random.Random
) -> None:
    """Tiles on the cells, each displaced by a few mm and turned a few degrees, with a thin shadow."""
    tpx = int(round(style.tile_size * px))
    for r in range(SIZE):
        for c in range(SIZE):
            letter = grid[r][c]
            if letter not in LETTERS:
                continue
            face = np.rot90(draw_tile(letter, rng.randrange(3), style, tpx), rng.randrange(4))
            face = np.ascontiguousarray(face)
            cv2.rectangle(face, (0, 0), (tpx - 1, tpx - 1), style.edge_bgr, max(1, px // 40))
            dx = float(np.clip(rng.gauss(0, 0.04), -0.1, 0.1)) * px
            dy = float(np.clip(rng.gauss(0, 0.04), -0.1, 0.1)) * px
            ang = float(np.clip(rng.gauss(0, 1.5), -4, 4))
            cx = origin + (c + 0.5) * px + dx
            cy = origin + (r + 0.5) * px + dy
            m = cv2.getRotationMatrix2D((tpx / 2, tpx / 2), ang, 1.0)
            m[:, 2] += (cx - tpx / 2, cy - tpx / 2)
            h, w = board.shape[:2]
            warped = cv2.warpAffine(face, m, (w, h), flags=cv2.INTER_LINEAR, borderValue=(0, 0, 0))
            mask = cv2.warpAffine(np.full((tpx, tpx), 255, np.uint8), m, (w, h))
            shadow = cv2.warpAffine(
                np.full((tpx, tpx), 255, np.uint8), m + [[0, 0, px * 0.03], [0, 0, px * 0.04]], (w, h)
            )
            sh = (shadow > 0) & (mask == 0)
            board[sh] = (board[sh] * 0.55).astype(np.uint8)
            sel = mask > 127
            board[sel] = warped[sel]


# ---------------------------------------------------------------------------------------- the scene


@dataclass(frozen=True)
class Camera:
    """Where the board lies in the photo: board fill, in-plane angle of north, tilt, lens, centre."""

    fill: float  # sqrt(board's projected area) / image height
    angle_deg: float  # direction of the board's north, clockwise from up
    tilt_deg: float
    tilt_dir_deg: float
    focal: float  # in image heights
    centre: tuple[float, float]  # board centre in the frame, fractions of width and height


@dataclass(frozen=True)
class Light:
    gain_bgr: tuple[float, float, float]
    brightness: float
    gradient: tuple[float, float, float]  # strength, direction (deg), unused
    glare: tuple[float, float, float, float] | None  # x, y (fractions), radius (fraction of height), strength
    shadow: tuple[float, float, float, float] | None  # x, y, radius, depth
    noise: float
    jpeg_quality: int


def random_camera(rng: random.Random, north: str, *, max_tilt: float = 35.0, spin: float = 15.0) -> Camera:
    base = NORTHS.index(north) * 90.0
    return Camera(
        fill=rng.uniform(0.4, 0.72),
        angle_deg=base + rng.uniform(-spin, spin),
        tilt_deg=rng.uniform(0, max_tilt),
        tilt_dir_deg=rng.uniform(0, 360),
        focal=rng.uniform(0.9, 1.4),
        centre=(rng.uniform(0.42, 0.58), rng.uniform(0.42, 0.58)),
    )


def random_light(rng: random.Random, base: Light | None = None, *, hard: bool = False) -> Light:
    """A light near ``base`` (the calibration's), or a fresh one; ``hard`` allows strong casts and glare."""
    spread = 0.25 if hard else 0.1
    if base is None:
        warm = rng.uniform(-0.15, 0.15)
        gain = (1.0 - warm, 1.0, 1.0 + warm)
        brightness = rng.uniform(0.85, 1.1)
    else:
        gain = tuple(g * rng.uniform(1 - spread, 1 + spread) for g in base.gain_bgr)
        brightness = base.brightness * rng.uniform(1 - 1.5 * spread, 1 + spread)
    glare = None
    if rng.random() < (0.5 if hard else 0.3):
        glare = (rng.uniform(0.3, 0.7), rng.uniform(0.3, 0.7), rng.uniform(0.08, 0.25), rng.uniform(40, 110))
    shadow = None
    if rng.random() < (0.3 if hard else 0.15):
        shadow = (rng.uniform(0.0, 1.0), rng.uniform(0.0, 1.0), rng.uniform(0.2, 0.45), rng.uniform(0.35, 0.6))
    return Light(
        gain_bgr=gain,  # type: ignore[arg-type]
        brightness=brightness,
        gradient=(rng.uniform(0, 0.35), rng.uniform(0, 360), 0.0),
        glare=glare,
        shadow=shadow,
        noise=rng.uniform(1.0, 4.0),
        jpeg_quality=rng.randint(78, 92),
    )


def _table(rng: random.Random, width: int, height: int) -> np.ndarray:
    kind = rng.choice(["wood", "cloth", "laminate", "stone"])
    nprng = np.random.default_rng(rng.getrandbits(32))
    base = np.array(_hsv_bgr(rng.uniform(0, 179), rng.uniform(10, 120), rng.uniform(90, 230)), np.float32)
    if kind == "wood":
        base = np.array(_hsv_bgr(rng.uniform(8, 22), rng.uniform(60, 150), rng.uniform(120, 220)), np.float32)
        ys = np.arange(height, dtype=np.float32)[:, None]
        xs = np.arange(width, dtype=np.float32)[None, :]
        a = rng.uniform(0, math.pi)
        u = xs * math.cos(a) + ys * math.sin(a)
        grain = np.sin(u / rng.uniform(3, 9) + 3 * np.sin(u / 97.0)) * 0.5 + cv2.resize(
            nprng.uniform(-1, 1, (8, 64)).astype(np.float32), (width, height)
        )
        tex = grain * rng.uniform(8, 22)
    elif kind == "cloth":
        tex = nprng.normal(0, rng.uniform(4, 10), (height, width)).astype(np.float32)
    elif kind == "stone":
        tex = cv2.resize(nprng.uniform(-1, 1, (40, 53)).astype(np.float32), (width, height)) * 20
        tex += nprng.normal(0, 5, (height, width)).astype(np.float32)
    else:
        tex = np.zeros((height, width), np.float32)
    return np.clip(base[None, None, :] + tex[..., None], 0, 255).astype(np.uint8)


def _clutter(img: np.ndarray, rng: random.Random, avoid: np.ndarray | None, style: PrintStyle | None) -> None:
    """Cubes, spare tiles and sometimes a phone, kept off the board (``avoid`` is its outline)."""
    h, w = img.shape[:2]
    unit = h / 40.0
    items = []
    for _ in range(rng.randint(2, 9)):
        items.append(("cube", rng.choice([(40, 40, 200), (200, 90, 30), (30, 30, 30), (50, 160, 50), (150, 150, 150)])))
    for _ in range(rng.randint(0, 3)):
        items.append(("tile", rng.choice(LETTERS[:5])))
    if rng.random() < 0.4:
        items.append(("phone", None))
    reach = {"cube": 1.5 * unit, "tile": 2.5 * unit, "phone": 8.5 * unit}
    for kind, what in items:
        for _ in range(30):
            x, y = rng.uniform(0, w), rng.uniform(0, h)
            if avoid is None or cv2.pointPolygonTest(avoid.astype(np.float32), (x, y), True) < -reach[kind]:
                break
        else:
            continue
        ang = rng.uniform(0, 180)
        if kind == "cube":
            box = cv2.boxPoints(((x, y), (unit, unit), ang))
            cv2.fillPoly(img, [np.int32(box + 0.3 * unit)], (20, 20, 20), cv2.LINE_AA)
            cv2.fillPoly(img, [np.int32(box)], what, cv2.LINE_AA)
        elif kind == "tile" and style is not None:
            size = int(2.5 * unit)
            face = draw_tile(what, rng.randrange(3), style, max(8, size))
            m = cv2.getRotationMatrix2D((size / 2, size / 2), ang, 1.0)
            m[:, 2] += (x - size / 2, y - size / 2)
            warped = cv2.warpAffine(face, m, (w, h))
            mask = cv2.warpAffine(np.full((size, size), 255, np.uint8), m, (w, h)) > 127
            img[mask] = warped[mask]
        else:
            box = cv2.boxPoints(((x, y), (7 * unit, 14 * unit), ang))
            cv2.fillPoly(img, [np.int32(box)], (25, 25, 28), cv2.LINE_AA)
            inner = cv2.boxPoints(((x, y), (6 * unit, 12.5 * unit), ang))
            cv2.fillPoly(img, [np.int32(inner)], (45, 40, 40), cv2.LINE_AA)


def _camera_homography(cam: Camera, board_size: float, width: int, height: int) -> np.ndarray:
    """Homography from the board print (pixels, north up) to the photo for this camera."""
    half = board_size / 2.0
    a = math.radians(cam.angle_deg)
    t = math.radians(cam.tilt_deg)
    d = math.radians(cam.tilt_dir_deg)
    corners = np.array([[-half, -half], [half, -half], [half, half], [-half, half]], np.float64)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    pts = corners @ rot.T
    # tilt: a plane turned by t about the axis at angle d, seen by a pinhole camera at distance f
    axis = np.array([math.cos(d), math.sin(d)])
    along = pts @ axis
    across = pts @ np.array([-axis[1], axis[0]])
    z = across * math.sin(t)
    across = across * math.cos(t)
    flat = np.outer(along, axis) + np.outer(across, [-axis[1], axis[0]])
    f = cam.focal * board_size * 2.2
    proj = flat * (f / (f + z))[:, None]
    area = cv2.contourArea(proj.astype(np.float32))
    scale = cam.fill * height / math.sqrt(max(area, 1e-6))
    proj = proj * scale + np.array([cam.centre[0] * width, cam.centre[1] * height])
    src = np.array([[0, 0], [board_size, 0], [board_size, board_size], [0, board_size]], np.float64)
    return cv2.getPerspectiveTransform(src.astype(np.float32), proj.astype(np.float32)).astype(np.float64)


def _apply_light(img: np.ndarray, light: Light, rng: random.Random, board_mask: np.ndarray | None) -> np.ndarray:
    h, w = img.shape[:2]
    out = img.astype(np.float32)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    xs /= h
    ys /= h
    g, gd, _ = light.gradient
    u = xs * math.cos(math.radians(gd)) + ys * math.sin(math.radians(gd))
    shade = (1.0 + g * (u - u.mean()) / max(float(np.ptp(u)), 1e-6)) * light.brightness
    if light.shadow is not None:
        sx, sy, sr, depth = light.shadow
        dist = np.hypot(xs - sx * w / h, ys - sy)
        soft = np.clip((dist - sr) / (0.06 + 0.0 * sr), 0, 1)
        shade = shade * (1 - depth + depth * soft)
    out *= shade[..., None]
    out *= np.array(light.gain_bgr, np.float32)[None, None, :]
    if light.glare is not None:
        gx, gy, gr, strength = light.glare
        blob = np.exp(-(((xs - gx * w / h) ** 2 + (ys - gy) ** 2) / (2 * gr * gr)))
        if board_mask is not None:  # tiles and print are glossier than the table
            blob = blob * (0.4 + 0.6 * board_mask)
        out += (strength * blob)[..., None] * np.array(light.gain_bgr, np.float32)[None, None, :]
    out = 255.0 * (1 - np.exp(-out / 255.0 * 1.2)) / (1 - math.exp(-1.2))  # highlight shoulder
    nprng = np.random.default_rng(rng.getrandbits(32))
    out += nprng.normal(0, light.noise, out.shape).astype(np.float32)
    return np.clip(out, 0, 255).astype(np.uint8)


def _jpeg(img: np.ndarray, quality: int) -> np.ndarray:
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else img


def random_grid(rng: random.Random, *, min_tiles: int = 20, max_tiles: int = 36, construction: int = 0) -> list[str]:
    """An end-of-game looking grid: ``min_tiles`` to ``max_tiles`` tiles, ``construction`` C tiles."""
    cells = ["."] * (SIZE * SIZE)
    order = list(range(SIZE * SIZE))
    rng.shuffle(order)
    n = rng.randint(min_tiles, max_tiles)
    for k, i in enumerate(order[:n]):
        cells[i] = "C" if k < construction else rng.choice("HSFPR")
    return ["".join(cells[r * SIZE : (r + 1) * SIZE]) for r in range(SIZE)]


@dataclass(frozen=True)
class Scene:
    """Everything shared by photos of one board print under one set-up (the calibration's)."""

    style: PrintStyle
    side: str
    light: Light
    camera: Camera


def random_scene(rng: random.Random, *, side: str = "inland", print_style: PrintStyle | None = None) -> Scene:
    """A print and its set-up: the calibration's camera (north up, mild tilt) and base light.

    The base light is even (no glare spot, no shadow), as the set-up instructions ask for the two
    calibration photos; photos read later vary around it and may have glare and shadows.
    """
    style = print_style or random_print_style(rng)
    camera = replace(random_camera(rng, "up", max_tilt=15, spin=5), fill=rng.uniform(0.55, 0.7))
    light = replace(random_light(rng), glare=None, shadow=None)
    return Scene(style, side, light, camera)


def render_board_photo(
    grid: list[str] | None,
    rng: random.Random,
    *,
    side: str = "inland",
    north: str = "up",
    width: int = 1600,
    height: int = 1200,
    print_style: PrintStyle | None = None,
    scene: Scene | None = None,
    camera: Camera | None = None,
    light: Light | None = None,
    hard: bool = False,
    cut_off: bool = False,
    board: bool = True,
) -> tuple[np.ndarray, dict[str, Any]]:
    """A photo of a board with ``grid`` (None: random) lying with its north ``north`` in the photo.

    ``scene`` fixes the print, side and base light (from :func:`random_scene`, shared with the
    calibration pair); otherwise a random print is drawn (or ``print_style`` is used). ``cut_off``
    pushes the board partly out of the frame; ``board=False`` gives a table without a board.
    Returns ``(frame_bgr, truth)``; truth has ``grid``, ``north``, ``side`` and the cell area's
    ``corners`` in the photo (north-west, north-east, south-east, south-west), or ``grid`` None.
    """
    if north not in NORTHS:
        raise ValueError(f"north must be one of {', '.join(NORTHS)}")
    if scene is not None:
        style, side = scene.style, scene.side
        light = light or random_light(rng, scene.light, hard=hard)
    else:
        style = print_style or random_print_style(rng)
        light = light or random_light(rng, hard=hard)
    if grid is None and board:
        grid = random_grid(rng, construction=rng.choice([0, 0, 1, 2]))
    frame = _table(rng, width, height)
    truth: dict[str, Any] = {"grid": None, "north": None, "side": side}
    mask = None
    outline = None
    if board:
        cam = camera or random_camera(rng, north, max_tilt=35 if not hard else 35)
        if cut_off:
            cx = rng.choice([-0.05, 1.05, 0.5])
            cy = rng.choice([-0.05, 1.05]) if cx == 0.5 else rng.uniform(0.2, 0.8)
            cam = replace(cam, centre=(cx, cy))
        px = int(np.clip(cam.fill * height / (SIZE + 2 * style.border_cells) * 1.3, 24, 140))
        board_bgr, alpha = render_board_print(style, side, px)
        bulge = int(round(0.18 * px))
        b = int(round(style.border_cells * px))
        _place_tiles(board_bgr, grid, style, px, bulge + b, rng)
        size = SIZE * px + 2 * b
        h_img = _camera_homography(cam, size, width, height) @ np.array(
            [[1, 0, -bulge], [0, 1, -bulge], [0, 0, 1]], np.float64
        )
        warped = cv2.warpPerspective(board_bgr, h_img, (width, height), flags=cv2.INTER_AREA)
        a = cv2.warpPerspective(alpha, h_img, (width, height), flags=cv2.INTER_LINEAR).astype(np.float32) / 255
        # the board's thickness: a soft shadow on the table
        drop = cv2.GaussianBlur(a, (0, 0), max(1.0, height / 300)) * 0.35
        frame = (frame * (1 - np.roll(drop, (int(height / 200), int(height / 250)), (0, 1)))[..., None]).astype(
            np.uint8
        )
        frame = (warped * a[..., None] + frame * (1 - a[..., None])).astype(np.uint8)
        mask = a
        corners_board = np.array(
            [
                [bulge + b, bulge + b],
                [bulge + b + SIZE * px, bulge + b],
                [bulge + b + SIZE * px] * 2,
                [bulge + b, bulge + b + SIZE * px],
            ],
            np.float64,
        )
        pts = np.hstack([corners_board, np.ones((4, 1))]) @ h_img.T
        corners = pts[:, :2] / pts[:, 2:3]
        outline = cv2.perspectiveTransform(
            np.array(
                [[[bulge, bulge], [bulge + size, bulge], [bulge + size, bulge + size], [bulge, bulge + size]]],
                np.float32,
            ),
            h_img,
        )[0]
        truth.update(
            grid=list(grid) if not cut_off else None,
            north=north if not cut_off else None,
            corners=[[round(float(x), 1), round(float(y), 1)] for x, y in corners],
            tilt_deg=round(cam.tilt_deg, 1),
            north_angle_deg=round(cam.angle_deg, 1),
            cut_off=cut_off,
        )
    _clutter(frame, rng, outline, style)
    frame = _apply_light(frame, light, rng, mask)
    frame = _jpeg(frame, light.jpeg_quality)
    return frame, truth


def render_calibration_pair(
    rng: random.Random,
    *,
    scene: Scene | None = None,
    side: str = "inland",
    width: int = 1600,
    height: int = 1200,
    known_grid: list[str] | None = None,
) -> tuple[np.ndarray, np.ndarray, dict[str, Any]]:
    """The set-up photos for one print: the empty board and the known layout, same camera and light.

    Returns ``(empty_bgr, known_bgr, known_board)`` where ``known_board`` is a ``board.json`` object.
    """
    scene = scene or random_scene(rng, side=side)
    grid = list(known_grid or KNOWN_LAYOUT)
    seed = rng.getrandbits(32)
    empty_bgr, _ = render_board_photo(
        ["." * SIZE] * SIZE,
        random.Random(seed),
        scene=scene,
        camera=scene.camera,
        light=scene.light,
        width=width,
        height=height,
    )
    known_bgr, _ = render_board_photo(
        grid, random.Random(seed), scene=scene, camera=scene.camera, light=scene.light, width=width, height=height
    )
    return empty_bgr, known_bgr, {"side": scene.side, "grid": grid}
