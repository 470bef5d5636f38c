"""A lamp's highlights on glossy pieces: found, and taken off a frame for the shaker reader's last second look.

Glossy stickers (a puzzle cube's face, enamelled tiles) show a lamp's highlight in each piece: a bright spot,
washed towards white, smaller than the piece. There the top face's sample is no palette colour, and the finder
may take a piece's lit and unlit halves for two shapes, so the frame is refused. A grey opening of the frame
(each channel eroded, then dilated, by a square smaller than a piece: :func:`without_highlights`) takes off
every bright detail narrower than the square and leaves larger faces as they were: a piece's colour shows where
its highlight was.

:func:`glare_cells` tells where that happened: cells whose disk the opening darkened (CIELAB L*) *and* made more
colourful (chroma) by at least ``lift``, each on the disk's mean. A highlight does both; a cube's top face (about
0.7 of a pitch) is wider than the square (0.35 of the lattice's pitch) and is left as it was. A white piece shows
nothing to take off, and a light one (yellow) too little on the disk's mean: the lattice's other cells decide.
:func:`vision.shaker.glare_reading` reads a refused frame again without highlights (in full where the refused
lattice shows glare, else with a first look) and keeps that reading only where its own lattice shows glare in
several cells: a game frame read again so has shown none at the lattice it was read on. A refused lattice far off
the pieces' pitch sizes the square wrongly: the frame is then opened at fixed shares of its size too
(``glare_ladder``), each opened frame read and tested the same way.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from .colour import bgr_to_lab


def without_highlights(frame_bgr: np.ndarray, side: int) -> np.ndarray:
    """The frame (BGR) grey-opened by a ``side`` x ``side`` square: bright details narrower than it taken off."""
    side = max(3, int(side))
    return cv2.morphologyEx(frame_bgr, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (side, side)))


def glare_cells(
    frame_bgr: np.ndarray,
    opened_bgr: np.ndarray,
    centres: np.ndarray,
    radius: float | tuple[float, ...],
    lift: float,
) -> int:
    """How many of the disks (``centres`` (n, 2), frame pixels, ``radius``) the opening (``opened_bgr``, of
    ``frame_bgr``) darkened by at least ``lift`` in L* and made at least ``lift`` more colourful (CIELAB chroma),
    on each disk's mean: the highlights it took off. With several radii a centre counts when a disk of any of them
    shows it (a highlight off the piece's middle falls outside a small disk, and a large one dilutes a small
    highlight). A disk partly outside the frame counts its pixels inside; one wholly outside, none."""
    radii = (radius,) if isinstance(radius, (int, float)) else radius
    h, w = frame_bgr.shape[:2]
    count = 0
    for x, y in np.asarray(centres, dtype=np.float64).reshape(-1, 2).tolist():
        count += any(_disk_shows_glare(frame_bgr, opened_bgr, x, y, r, lift, h, w) for r in radii)
    return count


def _disk_shows_glare(
    frame_bgr: np.ndarray, opened_bgr: np.ndarray, x: float, y: float, radius: float, lift: float, h: int, w: int
) -> bool:
    """Whether the opening darkened the disk by ``lift`` in L* and made it ``lift`` more colourful, on its mean."""
    x0, x1 = max(0, math.floor(x - radius)), min(w, math.ceil(x + radius) + 1)
    y0, y1 = max(0, math.floor(y - radius)), min(h, math.ceil(y + radius) + 1)
    if x1 <= x0 or y1 <= y0:
        return False
    yy, xx = np.mgrid[y0:y1, x0:x1]
    disk = (xx - x) ** 2 + (yy - y) ** 2 <= radius * radius
    if not disk.any():
        return False
    before = bgr_to_lab(frame_bgr[y0:y1, x0:x1][disk])
    after = bgr_to_lab(opened_bgr[y0:y1, x0:x1][disk])
    darker = float((before[:, 0] - after[:, 0]).mean())
    chroma_gain = float((np.hypot(after[:, 1], after[:, 2]) - np.hypot(before[:, 1], before[:, 2])).mean())
    return darker >= lift and chroma_gain >= lift


def glare_spots(frame_bgr: np.ndarray, side: float, pitch: float, lift: float) -> int:
    """How many separate spots a grey opening by a ``side`` square (frame pixels) darkens by at least ``lift`` in L*
    and makes at least ``lift`` more colourful (CIELAB chroma), each on a box 0.45 of ``pitch`` around each point,
    each spot no larger than a square 1.2 pitches wide: a lamp's highlight in several pieces, where no lattice says
    where the pieces are. Measured on a copy at most ``_SPOTS_LONG_SIDE`` long, opened there by the square so scaled,
    in OpenCV's 8-bit CIELAB: a few milliseconds, against the whole frame's opening's six. A printed or checked table
    the opening changes all over makes one wide region, not separate spots."""
    h, w = frame_bgr.shape[:2]
    scale = min(1.0, _SPOTS_LONG_SIDE / max(h, w))
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    small_bgr = cv2.resize(frame_bgr, size, interpolation=cv2.INTER_AREA)
    before, after = _lab(small_bgr), _lab(without_highlights(small_bgr, round(side * scale)))
    darker = before[..., 0] - after[..., 0]
    chroma_gain = np.hypot(after[..., 1], after[..., 2]) - np.hypot(before[..., 1], before[..., 2])
    box = max(3, round(0.45 * pitch * scale))
    darker, chroma_gain = cv2.blur(darker, (box, box)), cv2.blur(chroma_gain, (box, box))
    mask = ((darker >= lift) & (chroma_gain >= lift)).astype(np.uint8)
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask)
    return int((stats[1:n, cv2.CC_STAT_AREA] <= (1.2 * pitch * scale) ** 2).sum())


_SPOTS_LONG_SIDE = 256


def _lab(image_bgr: np.ndarray) -> np.ndarray:
    """CIELAB (float32) of an 8-bit BGR image by OpenCV's 8-bit conversion (the reader's working Lab, its L* in steps
    of 100/255 and a*, b* in whole units): about 25 times cheaper than :func:`vision.colour.bgr_to_lab`, for a
    measure blurred over boxes of many pixels."""
    lab = cv2.cvtColor(image_bgr, cv2.COLOR_BGR2Lab).astype(np.float32)
    lab[..., 0] *= 100.0 / 255.0
    lab[..., 1:] -= 128.0
    return lab
