"""Reading untrusted image files and bytes into BGR arrays, with one clear error for every failure.

Size and type are checked before decoding (``shared/PLATFORM.md``: ``cv2.imdecode`` raises on empty
input and past its pixel limit, returns ``None`` on garbage).
"""

from __future__ import annotations

import os
import struct
from pathlib import Path

import numpy as np

MAX_FILE_BYTES = 40 * 1024 * 1024
MAX_PIXELS = 50_000_000  # a 12 MP phone photo is far below; a decompression bomb is far above

from .errors import ImageReadError  # noqa: E402

os.environ.setdefault("OPENCV_IO_MAX_IMAGE_PIXELS", str(MAX_PIXELS))
import cv2  # noqa: E402


def _header_size(data: bytes) -> tuple[int, int] | None:
    """Width and height from a PNG or JPEG header, without decoding; ``None`` if not found."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        w, h = struct.unpack(">II", data[16:24])
        return w, h
    if data[:2] == b"\xff\xd8":
        i = 2
        while i + 9 < len(data):
            if data[i] != 0xFF:
                i += 1
                continue
            marker = data[i + 1]
            if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
                i += 2
                continue
            (length,) = struct.unpack(">H", data[i + 2 : i + 4])
            if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
                h, w = struct.unpack(">HH", data[i + 5 : i + 9])
                return w, h
            i += 2 + length
    return None


def decode_image_bytes(data: bytes, what: str = "image") -> np.ndarray:
    """Decode encoded image bytes (JPEG, PNG, ...) into a BGR ``uint8`` array, or raise ImageReadError."""
    if not data:
        raise ImageReadError(f"{what}: the file is empty")
    if len(data) > MAX_FILE_BYTES:
        raise ImageReadError(
            f"{what}: {len(data) // (1024 * 1024)} MB is larger than the {MAX_FILE_BYTES // (1024 * 1024)} MB limit"
        )
    size = _header_size(data)
    if size is not None:
        w, h = size
        if w == 0 or h == 0:
            raise ImageReadError(f"{what}: the image header gives a size of {w} x {h}")
        if w * h > MAX_PIXELS:
            raise ImageReadError(f"{what}: {w} x {h} pixels is more than the {MAX_PIXELS // 1_000_000} megapixel limit")
    try:
        frame_bgr = cv2.imdecode(np.frombuffer(data, dtype=np.uint8), cv2.IMREAD_COLOR)
    except cv2.error:
        frame_bgr = None
    if frame_bgr is None or frame_bgr.size == 0:
        raise ImageReadError(f"{what}: not a readable image (corrupt, truncated or not an image file)")
    return frame_bgr


def read_image_file(path: str | os.PathLike[str]) -> bytes:
    """An image file's bytes, size-checked before reading, or ImageReadError naming the file."""
    p = Path(path)
    try:
        if p.is_dir():
            raise ImageReadError(f"{p}: a folder, not an image file")
        if not p.is_file():
            raise ImageReadError(f"{p}: no such file")
        if p.stat().st_size > MAX_FILE_BYTES:
            raise ImageReadError(f"{p}: larger than the {MAX_FILE_BYTES // (1024 * 1024)} MB limit")
        return p.read_bytes()
    except OSError as e:
        raise ImageReadError(f"{p}: cannot read: {e.strerror or e}") from None


def read_image(path: str | os.PathLike[str]) -> np.ndarray:
    """Read an image file into a BGR array, or raise ImageReadError naming the file and the problem."""
    return decode_image_bytes(read_image_file(path), str(Path(path)))
