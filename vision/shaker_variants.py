"""Variants of labelled frames: the same scene mirrored, turned, shrunk, lit, exposed, blurred, noisier or recompressed.

A labelled folder of photos (``truth.json``, as ``eval-shaker`` reads) says how the reader does on those photos; the
same photos varied as a camera or a table would vary them say how near its bounds it read them. Each variant keeps
the truth: a mirror or a quarter turn moves the pattern's cells as it moves the picture (rows stay "top to bottom as
seen"), the others leave it as it is. A small turn is drawn on a canvas grown to hold the whole frame, and a shrunk
frame keeps its size, its edges stretched outwards, so no cube leaves the picture. Frames are BGR ``numpy`` arrays.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import cv2
import numpy as np

Pattern = list[list[str]]


def _mirror(p: Pattern) -> Pattern:
    return [row[::-1] for row in p]


def _flip(p: Pattern) -> Pattern:
    return [list(row) for row in p[::-1]]


def _clockwise(p: Pattern) -> Pattern:
    """The pattern as seen after the picture is turned a quarter clockwise: the left column becomes the top row."""
    return [[p[2 - j][i] for j in range(3)] for i in range(3)]


def _anticlockwise(p: Pattern) -> Pattern:
    return [[p[j][2 - i] for j in range(3)] for i in range(3)]


def turned_on_grown_canvas(frame_bgr: np.ndarray, degrees: float) -> np.ndarray:
    """The frame turned ``degrees`` (anticlockwise) about its centre on a canvas grown to hold all of it (the new
    corners filled with the frame's edges, stretched)."""
    h, w = frame_bgr.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2.0, h / 2.0), degrees, 1.0)
    c, s = abs(m[0, 0]), abs(m[0, 1])
    nw, nh = int(math.ceil(w * c + h * s)), int(math.ceil(w * s + h * c))
    m[0, 2] += nw / 2.0 - w / 2.0
    m[1, 2] += nh / 2.0 - h / 2.0
    return cv2.warpAffine(frame_bgr, m, (nw, nh), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def shrunk_in_place(frame_bgr: np.ndarray, factor: float) -> np.ndarray:
    """The frame shrunk by ``factor`` (< 1) about its centre on a canvas of its own size (as from a camera that
    much farther away), the margin filled with its edges, stretched."""
    h, w = frame_bgr.shape[:2]
    m = np.array([[factor, 0.0, (1 - factor) * w / 2.0], [0.0, factor, (1 - factor) * h / 2.0]])
    return cv2.warpAffine(frame_bgr, m, (w, h), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)


def exposed(frame_bgr: np.ndarray, factor: float) -> np.ndarray:
    """The frame as a camera exposing ``factor`` times as long would see it: each 8-bit value's linear light (a
    2.2 power) times ``factor``, clipped at white, and back."""
    linear = (np.arange(256) / 255.0) ** 2.2 * factor
    lut = np.clip(np.rint(255.0 * np.minimum(linear, 1.0) ** (1 / 2.2)), 0, 255).astype(np.uint8)
    return cv2.LUT(frame_bgr, lut)


def white_balanced(frame_bgr: np.ndarray, blue: float, red: float) -> np.ndarray:
    """The blue and red channels scaled (a camera's white balance set for another lamp), clipped to 8 bits."""
    out = frame_bgr.astype(np.float32) * np.array([blue, 1.0, red], np.float32)
    return np.clip(np.rint(out), 0, 255).astype(np.uint8)


def with_noise(frame_bgr: np.ndarray, sigma: float, seed: int) -> np.ndarray:
    """Gaussian sensor noise of ``sigma`` 8-bit levels (seeded: the same variant every time)."""
    noise = np.random.default_rng(seed).normal(0.0, sigma, frame_bgr.shape)
    return np.clip(np.rint(frame_bgr.astype(np.float64) + noise), 0, 255).astype(np.uint8)


def recompressed(frame_bgr: np.ndarray, quality: int) -> np.ndarray:
    """The frame saved as a JPEG of ``quality`` and decoded again."""
    ok, data = cv2.imencode(".jpg", frame_bgr, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise ValueError("the frame could not be encoded as JPEG")
    return cv2.imdecode(data, cv2.IMREAD_COLOR)


def _same(p: Pattern) -> Pattern:
    return [list(row) for row in p]


def _variants(seed: int) -> dict[str, tuple[Callable[[np.ndarray], np.ndarray], Callable[[Pattern], Pattern]]]:
    """Each variant's name -> (what the frame undergoes, what its pattern undergoes); ``seed``: the noise's."""
    return {
        "mirror": (lambda f: cv2.flip(f, 1), _mirror),
        "flip": (lambda f: cv2.flip(f, 0), _flip),
        "turn180": (lambda f: cv2.rotate(f, cv2.ROTATE_180), lambda p: _mirror(_flip(p))),
        "turn90": (lambda f: cv2.rotate(f, cv2.ROTATE_90_CLOCKWISE), _clockwise),
        "turn270": (lambda f: cv2.rotate(f, cv2.ROTATE_90_COUNTERCLOCKWISE), _anticlockwise),
        "tilt+8": (lambda f: turned_on_grown_canvas(f, 8.0), _same),
        "tilt-8": (lambda f: turned_on_grown_canvas(f, -8.0), _same),
        "shrink85": (lambda f: shrunk_in_place(f, 0.85), _same),
        "bright": (lambda f: exposed(f, 1.5), _same),
        "dark": (lambda f: exposed(f, 0.6), _same),
        "warm": (lambda f: white_balanced(f, 0.85, 1.1), _same),
        "cool": (lambda f: white_balanced(f, 1.12, 0.88), _same),
        "noise": (lambda f: with_noise(f, 5.0, seed), _same),
        "blur": (lambda f: cv2.GaussianBlur(f, (0, 0), 1.0), _same),
        "jpeg55": (lambda f: recompressed(f, 55), _same),
    }


# the variants' names, in the order they are written
VARIANT_NAMES: tuple[str, ...] = tuple(_variants(0))


def vary(
    frame_bgr: np.ndarray, pattern: Pattern | None, names: Sequence[str] = VARIANT_NAMES, seed: int = 0
) -> dict[str, tuple[np.ndarray, Pattern | None]]:
    """Each named variant of a labelled frame: (the varied frame, its pattern; None stays None, an incomplete
    pattern has none). ``seed``: the noise's."""
    table = _variants(seed)
    unknown = [n for n in names if n not in table]
    if unknown:
        raise ValueError(f"unknown variants: {', '.join(unknown)} (known: {', '.join(VARIANT_NAMES)})")
    out: dict[str, tuple[np.ndarray, Pattern | None]] = {}
    for name in names:
        frame_of, pattern_of = table[name]
        out[name] = (frame_of(frame_bgr), None if pattern is None else pattern_of(pattern))
    return out
