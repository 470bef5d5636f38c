"""Errors raised by the device layer. Each also subclasses a built-in so adapters map them simply."""

from __future__ import annotations


class DeviceError(RuntimeError):
    """Base of every device error that is not a bad value."""


class DeviceConfigError(ValueError):
    """A device config file or pin map that cannot be used (unknown key, pin used twice, ...)."""


class CameraError(DeviceError):
    """A camera that cannot be opened or has gone away."""


class UnknownCamera(ValueError):
    """A camera kind that does not exist (the message names the kinds that do)."""
