"""Errors raised by the vision stages. Each also subclasses a built-in so adapters map them simply."""

from __future__ import annotations


class VisionError(ValueError):
    """Base of every vision error."""


class ImageReadError(VisionError):
    """An image that cannot be read: missing, empty, truncated, not an image, or too large."""


class CalibrationError(VisionError):
    """A calibration that cannot be made or used (no board in a calibration photo, wrong file...)."""


class PaletteError(VisionError):
    """A palette file or value that cannot be used (unreadable, malformed, unknown colour...)."""
