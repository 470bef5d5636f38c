"""Seeded scenes of other 3 x 3 coloured grids, for reading with a custom palette (issue 3's "real photos of other
3 x 3 grids"): a puzzle-cube face (stickers on a black body), painted tiles with shadows, glossy stickers with
tight gaps and a lamp's highlight in each, and a whole puzzle cube lying on the table, seen from above at a slant:
its top face the grid, one or two of its side faces in view beside it, their stickers squashed by the slant. Six
sticker colours the game does not use (yellow and orange beside red: the close calls under a warm lamp),
:func:`sticker_palette`. For the tests and ``shakecity make-grid-set``.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from .colour import Palette, bgr_to_lab, palette_from_json

STICKERS_BGR = {
    "white": (235, 235, 235),
    "yellow": (30, 215, 245),
    "red": (40, 30, 200),
    "orange": (20, 110, 250),
    "blue": (180, 80, 20),
    "green": (60, 170, 30),
}


def sticker_palette_json() -> dict[str, Any]:
    """The six sticker colours as a palette file's JSON (``--palette FILE``): CIELAB of their BGR values."""
    colours = []
    for name, bgr in STICKERS_BGR.items():
        lab = bgr_to_lab(np.array([[bgr]], np.uint8))[0, 0]
        colours.append({"name": name, "lab": [float(v) for v in lab]})
    return {"name": "stickers", "colours": colours}


def sticker_palette() -> Palette:
    """The six sticker colours as a palette."""
    return palette_from_json(sticker_palette_json())


def grid_scene_jpeg(
    kind: str, rng: np.random.Generator, pattern: list[list[str]] | None = None, *, close_up: bool = False
) -> tuple[bytes, list[list[str]]]:
    """A 1024 x 768 JPEG (quality 85) of one 3 x 3 grid (``pattern``, else a random one): turned, tilted, lit
    from one side, tinted. ``close_up``: the grid fills 0.7-0.95 of the frame's height (as much as fits, turned),
    all of it in the frame. ``glossy``: a puzzle face of rounded glossy stickers with tight gaps (4 % of the pitch),
    a lamp's highlight in each sticker's middle, the grid 260-520 px. ``cube``: a whole puzzle cube lying on the
    table, its top face the grid (north at the top), seen through a pinhole camera tilted 5-35 degrees from
    straight down: the side faces turned to the camera show their own random stickers beside the grid, in the
    lamp's shade; the top face 180-320 px (close-ups: 0.45-0.6 of the frame's height)."""
    width, height, side = 1024, 768, 600
    table = rng.integers(60, 200, 3).astype(np.float32)
    frame = np.full((height, width, 3), table, np.float32) + rng.normal(0, 6, (height, width, 1)).astype(np.float32)
    flat = np.empty((side, side, 3), np.float32)
    flat[:] = (20, 20, 20) if kind in ("puzzle", "glossy", "cube") else table
    names = list(STICKERS_BGR)
    if pattern is None:
        pattern = [[names[int(rng.integers(len(names)))] for _ in range(3)] for _ in range(3)]
    pitch, gap = side / 3, {"puzzle": 14, "cube": 14, "glossy": 4}.get(kind, 20)
    if kind == "glossy":  # (one lamp: the highlight at the same offset in every sticker; other kinds draw no number)
        highlight = rng.uniform(-0.25, 0.25, 2) * pitch
        yy, xx = np.mgrid[0:side, 0:side].astype(np.float32)
    for r in range(3):
        for c in range(3):
            x0, y0, x1, y1 = _sticker_box(r, c, pitch, gap)
            colour = np.array(STICKERS_BGR[pattern[r][c]], np.float32) * rng.uniform(0.85, 1.05)
            if kind == "glossy":
                sticker = np.zeros((side, side), np.float32)
                cv2.rectangle(sticker, (x0 + 18, y0), (x1 - 18, y1), 1, -1)
                cv2.rectangle(sticker, (x0, y0 + 18), (x1, y1 - 18), 1, -1)
                for cx, cy in ((x0 + 18, y0 + 18), (x1 - 18, y0 + 18), (x0 + 18, y1 - 18), (x1 - 18, y1 - 18)):
                    cv2.circle(sticker, (cx, cy), 18, 1, -1, cv2.LINE_AA)
                cx, cy = (x0 + x1) / 2 + highlight[0], (y0 + y1) / 2 + highlight[1]
                shine = 0.85 * np.exp(-(((xx - cx) / (0.18 * pitch)) ** 2 + ((yy - cy) / (0.10 * pitch)) ** 2))
                lit = colour + (255 - colour) * shine[..., None]
                flat = flat * (1 - sticker[..., None]) + lit * sticker[..., None]
                continue
            if kind == "tiles":
                dx, dy = (int(v) for v in rng.integers(-8, 9, 2))
                x0, x1, y0, y1 = x0 + dx, x1 + dx, y0 + dy, y1 + dy
                cv2.rectangle(flat, (x0 + 6, y0 + 6), (x1 + 6, y1 + 6), (table * 0.5).tolist(), -1)
            cv2.rectangle(flat, (x0, y0), (x1, y1), colour.tolist(), -1, lineType=cv2.LINE_AA)
            if kind == "tiles":
                cv2.rectangle(flat, (x0, y0), (x1, y1), (colour * 0.6).tolist(), 3, lineType=cv2.LINE_AA)
    if kind == "cube":
        frame = _cube_view(frame, flat, gap, names, rng, close_up)
    else:
        if close_up:
            angle = np.deg2rad(rng.uniform(-20, 20))
            reach = abs(np.cos(angle)) + abs(np.sin(angle))  # (the turned square's width over its side)
            size = min(rng.uniform(0.7, 0.95) * height, 0.97 * height / reach)
            free = (np.array([width, height]) - size * reach) / 2 - 4  # (how far its centre may move and stay in)
            centre = np.array([width / 2, height / 2]) + rng.uniform(-1, 1, 2) * np.maximum(free, 0)
        else:
            size = rng.uniform(260, 520) if kind == "glossy" else rng.uniform(180, 320)
            angle = np.deg2rad(rng.uniform(-20, 20))
            centre = np.array([width / 2 + rng.uniform(-150, 150), height / 2 + rng.uniform(-100, 100)])
        turn = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
        corners = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * size / 2 @ turn.T + centre
        corners[:2, 0] = centre[0] + (corners[:2, 0] - centre[0]) * (1 - rng.uniform(0, 0.15))  # far edge shorter
        frame = _pasted(frame, flat, corners)
    light = 0.75 + 0.35 * rng.uniform(0.5, 1) * np.linspace(0, 1, width, dtype=np.float32)[None, :, None]
    lamp = np.array([rng.uniform(0.85, 1.0), 1.0, rng.uniform(1.0, 1.15)], np.float32)  # BGR: warm to cool
    frame_bgr = cv2.GaussianBlur(np.clip(frame * light * lamp, 0, 255).astype(np.uint8), (3, 3), 0)
    ok, jpeg = cv2.imencode(".jpg", frame_bgr, [cv2.IMWRITE_JPEG_QUALITY, 85])
    if not ok:
        raise RuntimeError("grid_scene: OpenCV could not encode the frame as JPEG")
    return jpeg.tobytes(), pattern


def _sticker_box(r: int, c: int, pitch: float, gap: float) -> tuple[int, int, int, int]:
    """The sticker at row r, column c of a flat face: its corners (x0, y0, x1, y1), ``gap`` inside its cell."""
    return int(c * pitch + gap), int(r * pitch + gap), int((c + 1) * pitch - gap), int((r + 1) * pitch - gap)


def _pasted(frame: np.ndarray, flat: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """``flat`` (a square face, float BGR) warped onto ``corners`` (its top-left, top-right, bottom-right and
    bottom-left corners in the frame) over ``frame``."""
    side = flat.shape[0]
    height, width = frame.shape[:2]
    to_frame = cv2.getPerspectiveTransform(
        np.float32([[0, 0], [side, 0], [side, side], [0, side]]), np.asarray(corners, np.float32)
    )
    mask = cv2.warpPerspective(np.ones((side, side), np.float32), to_frame, (width, height))[..., None]
    return frame * (1 - mask) + cv2.warpPerspective(flat, to_frame, (width, height)) * mask


def _cube_view(
    frame: np.ndarray, top: np.ndarray, gap: float, names: list[str], rng: np.random.Generator, close_up: bool
) -> np.ndarray:
    """A puzzle cube (edge 1, its top face ``top`` at z = 0, north +y, stickers ``gap`` inside their cells) seen
    through a pinhole camera tilted from straight down toward the south, the cube turned up to 20 degrees about its
    vertical axis: the faces turned to the camera drawn over ``frame``, each side face with random stickers in the
    lamp's shade (0.55-0.85)."""
    height, width = frame.shape[:2]
    side = top.shape[0]
    tilt, yaw = np.deg2rad(rng.uniform(5, 35)), np.deg2rad(rng.uniform(-20, 20))
    distance = rng.uniform(3.0, 6.0)  # (edges from the camera to the top face's middle)
    camera = distance * np.array([0.0, -np.sin(tilt), np.cos(tilt)])
    forward = -camera / distance
    right = np.array([1.0, 0.0, 0.0])
    down = np.cross(forward, right)  # (straight down: -y, so north is up in the frame)
    size = rng.uniform(0.45, 0.6) * height if close_up else rng.uniform(180, 320)
    focal = size * distance  # (the top face about ``size`` px across)
    turn = np.array([[np.cos(yaw), -np.sin(yaw), 0.0], [np.sin(yaw), np.cos(yaw), 0.0], [0.0, 0.0, 1.0]])

    def seen(point: tuple[float, float, float]) -> np.ndarray:
        """A point of the cube in the frame, the principal point at (0, 0)."""
        p = turn @ np.array(point) - camera
        return focal * np.array([p @ right, p @ down]) / float(p @ forward)

    # the principal point up to (150, 100) px off the frame's middle, the top face kept 4 px inside the frame
    # (a close-up's side faces may leave it)
    top_corners = np.array([seen((x, y, 0.0)) for x, y in ((-0.5, 0.5), (0.5, 0.5), (0.5, -0.5), (-0.5, -0.5))])
    low = np.maximum(np.array([width / 2 - 150, height / 2 - 100]), 4 - top_corners.min(axis=0))
    high = np.minimum(np.array([width / 2 + 150, height / 2 + 100]), np.array([width, height]) - 4 - top_corners.max(0))
    middle = low + rng.uniform(0, 1, 2) * np.maximum(high - low, 0)

    # each face: its corners as drawn on a flat face (top-left, top-right, bottom-right, bottom-left) and its normal
    faces = [
        (((-0.5, 0.5, 0.0), (0.5, 0.5, 0.0), (0.5, -0.5, 0.0), (-0.5, -0.5, 0.0)), (0.0, 0.0, 1.0)),
        (((-0.5, -0.5, 0.0), (0.5, -0.5, 0.0), (0.5, -0.5, -1.0), (-0.5, -0.5, -1.0)), (0.0, -1.0, 0.0)),
        (((0.5, -0.5, 0.0), (0.5, 0.5, 0.0), (0.5, 0.5, -1.0), (0.5, -0.5, -1.0)), (1.0, 0.0, 0.0)),
        (((-0.5, 0.5, 0.0), (-0.5, -0.5, 0.0), (-0.5, -0.5, -1.0), (-0.5, 0.5, -1.0)), (-1.0, 0.0, 0.0)),
        (((0.5, 0.5, 0.0), (-0.5, 0.5, 0.0), (-0.5, 0.5, -1.0), (0.5, 0.5, -1.0)), (0.0, 1.0, 0.0)),
    ]
    for i, (corners, normal) in enumerate(faces):
        facing = turn @ np.array(normal)
        if float(facing @ (camera - turn @ np.mean(corners, axis=0))) <= 0:
            continue  # (turned away from the camera)
        if i == 0:
            face = top
        else:
            face = np.full((side, side, 3), 20, np.float32)
            pitch, shade = side / 3, rng.uniform(0.55, 0.85)
            for r in range(3):
                for c in range(3):
                    colour = np.array(STICKERS_BGR[names[int(rng.integers(len(names)))]], np.float32)
                    colour *= rng.uniform(0.85, 1.05) * shade
                    x0, y0, x1, y1 = _sticker_box(r, c, pitch, gap)
                    cv2.rectangle(face, (x0, y0), (x1, y1), colour.tolist(), -1, lineType=cv2.LINE_AA)
        frame = _pasted(frame, face, middle + np.array([seen(p) for p in corners]))
    return frame


def grid_scene(
    kind: str, rng: np.random.Generator, pattern: list[list[str]] | None = None, *, close_up: bool = False
) -> tuple[np.ndarray, list[list[str]]]:
    """:func:`grid_scene_jpeg`'s frame decoded (BGR): what a camera's JPEG gives the reader."""
    jpeg, pattern = grid_scene_jpeg(kind, rng, pattern, close_up=close_up)
    return cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR), pattern
