"""Wiring the table to ``device/`` (cameras, round tracker, table loop) and ``vision/``, imported lazily.

The web layer runs without them (patterns entered on the page); each missing part is reported in
``table.device_note`` and shown on the page, never a crash.
"""

from __future__ import annotations

import logging
from typing import Any

from .table import Table

log = logging.getLogger(__name__)


def attach(table: Table, camera: str = "none", pins: str = "none") -> None:
    """Open the configured camera and pins and start the table loop over the store's actions."""
    notes = []
    if camera != "none":
        try:
            from device.cameras import open_camera

            table.camera = open_camera(camera)
            table.camera_kind = camera
            notes.append(f"camera: {camera}")
        except Exception as e:  # missing package, no such camera: serve without it, and say so
            log.warning("camera %s not available: %s", camera, e)
            notes.append(f"camera {camera} not available ({e})")
    if pins != "none":
        try:
            from device.tracker import RoundTracker

            table.tracker = RoundTracker(pins=pins) if pins else RoundTracker()
            notes.append(f"round tracker on {pins} pins")
        except Exception as e:
            log.warning("round tracker (%s pins) not available: %s", pins, e)
            notes.append(f"round tracker not available ({e})")
    if table.camera is not None or table.tracker is not None:
        try:
            from device.table import TableLoop

            table.loop = TableLoop(table.actions, camera=table.camera, tracker=table.tracker)
            table.loop.add_listener(table.device_event)
            table.loop.start()
            notes.append("table loop running")
        except Exception as e:
            log.warning("table loop not available: %s", e)
            notes.append(f"table loop not available ({e})")
    if notes:
        table.device_note = "; ".join(notes)


def read_shaker_photo(frame_bgr: Any) -> Any:
    """The shaker reader on one frame (``vision.shaker.read_shaker``)."""
    try:
        from vision.shaker import read_shaker
    except ImportError as e:
        raise ReaderMissing(f"the shaker reader is not installed ({e}): enter the pattern on the page") from None
    return read_shaker(frame_bgr)


class ReaderMissing(ValueError):
    """A vision reader the request needs is not installed."""
