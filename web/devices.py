"""Wiring the table to ``device/`` (camera, round tracker, table loop) and ``vision/``, imported lazily.

The web layer runs without them (patterns entered on the page); each missing part is reported in
``table.device_note`` and shown on the page, never a crash.

Lock order: the table loop holds its own lock while it calls the store; so the web layer never calls
the loop while holding the store's lock (:meth:`Table.refresh_devices` runs after the store returns).
"""

from __future__ import annotations

import logging
from typing import Any

from .table import Table

log = logging.getLogger(__name__)


class ReaderMissing(ValueError):
    """A vision reader the request needs is not installed."""


def _one_line(e: BaseException) -> str:
    return str(e).splitlines()[0] if str(e) else type(e).__name__


def attach(
    table: Table, camera: str = "none", pins: str = "none", camera_options: dict[str, Any] | None = None
) -> None:
    """Open the configured camera and pins and run the table loop over the store's actions."""
    notes = []
    if pins != "none":
        try:
            from device.tracker import RoundTracker

            table.tracker = RoundTracker.from_kind(None if pins == "auto" else pins)
            notes.append(f"round tracker on {table.tracker.snapshot()['pins']}")
        except Exception as e:  # missing package, no such pin factory: serve without it, and say so
            log.warning("round tracker (%s pins) not available: %s", pins, e)
            notes.append(f"round tracker not available ({_one_line(e)})")
    if camera != "none":
        try:
            from device.cameras import open_camera

            options = {"contents": table.shaker_contents, **(camera_options or {})}
            table.camera = open_camera(None if camera == "auto" else camera, **options)
            table.camera_kind = getattr(table.camera, "kind", camera)
            notes.append(f"camera: {table.camera.describe()}")
        except Exception as e:
            log.warning("camera %s not available: %s", camera, e)
            notes.append(f"camera {camera} not available ({_one_line(e)})")
    reader = None
    if table.camera is not None:
        try:
            from vision.shaker_live import LiveShakerReader

            reader = LiveShakerReader(palette=table.palette())
        except Exception as e:
            log.warning("live shaker reader not available: %s", e)
            notes.append(f"live shaker reader not available ({_one_line(e)}): enter patterns on the page")
    if table.camera is not None or table.tracker is not None:
        try:
            from device.table import TableLoop

            table.loop = TableLoop(table.camera, reader, table.actions, table.tracker, listeners=[table.device_event])
            table.loop.start()
            notes.append("table loop running")
        except Exception as e:
            log.warning("table loop not available: %s", e)
            notes.append(f"table loop not available ({_one_line(e)})")
    if notes:
        table.device_note = "; ".join(notes)


def read_shaker_photo(frame_bgr: Any, palette: Any = None, shaker: dict[str, int] | None = None) -> Any:
    """The shaker reader on one frame (``vision.shaker.read_shaker``), checked against the shaker."""
    try:
        from vision.shaker import read_shaker
    except ImportError as e:
        raise ReaderMissing(f"the shaker reader is not installed ({e}): enter the pattern on the page") from None
    return read_shaker(frame_bgr, palette, shaker=shaker)


class ColourCalibrationRefused(ValueError):
    """The calibration photo does not show one complete 3 x 3 pattern to learn the colours from."""


def calibrate_colours(table: Table, frame_bgr: Any, pattern: list[list[str]]) -> Any:
    """Adapt the shaker reader's palette to this camera and light from one named pattern, and keep it."""
    import os
    import tempfile

    import cv2

    from vision.colour import default_palette
    from vision.shaker_cli import InputError, calibrate

    fd, name = tempfile.mkstemp(suffix=".png", dir=table.data_dir)  # the calibrator reads a file
    os.close(fd)
    try:
        if not cv2.imwrite(name, frame_bgr):
            raise ColourCalibrationRefused("could not keep the calibration photo")
        try:
            palette = calibrate(name, pattern, default_palette())
        except InputError as e:
            raise ColourCalibrationRefused(str(e).replace(name, "the photo")) from None
    finally:
        os.unlink(name)
    table.save_palette(palette)
    return palette
