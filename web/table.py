"""The table as the web layer holds it: the store, the event broadcaster and the optional devices.

:class:`StoreTableActions` is the ``TableActions`` the device loop drives: its shakes, next rounds and
undos go through the store (checked by the engine, committed) before any page or LED is told.
"""

from __future__ import annotations

import logging
import random
import threading
from pathlib import Path
from typing import Any

from scoring.shake_that_city.game import GameState, NextRound, Shake
from scoring.shake_that_city.pattern import Pattern

from . import convert
from .events import Broadcaster
from .store import GameRecord, NoGame, Store

log = logging.getLogger(__name__)


class StoreTableActions:
    """``device.table.TableActions`` over the store: every action persisted before anyone hears of it."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def state(self) -> GameState | None:
        record = self.store.current_or_none()
        return record.game.state if record is not None else None

    def shake(self, pattern: Pattern | list[list[str]]) -> GameState:
        parsed = pattern if isinstance(pattern, Pattern) else Pattern.parse(pattern)
        return self.store.apply(Shake(parsed)).game.state

    def next_round(self) -> GameState:
        return self.store.apply(NextRound()).game.state

    def undo(self) -> GameState:
        return self.store.undo()[0].game.state


class Table:
    """Everything one running table owns; closed once, when the app goes away."""

    def __init__(self, data_dir: Path, max_streams: int, seed: int | None = None) -> None:
        self.data_dir = data_dir
        self.photos_dir = data_dir / "photos"
        self.photos_dir.mkdir(parents=True, exist_ok=True)
        self.calibration_path = data_dir / "board-calibration.json"
        self._board_calibration: Any = None
        self.palette_path = data_dir / "shaker-palette.json"
        self._palette: Any = None
        self.events = Broadcaster(max_streams=max_streams)
        self.rng = random.Random(seed)
        self.rng_lock = threading.Lock()
        self.camera: Any = None  # device camera with .latest(), when one is configured
        self.camera_kind = "none"
        self.tracker: Any = None  # device.tracker.RoundTracker, when present
        self.loop: Any = None  # device.table.TableLoop, when present
        self.device_note = "no camera or pins: patterns are entered on the page"
        self.store = Store(data_dir / "shakecity.sqlite3", on_change=self._changed)
        self.actions = StoreTableActions(self.store)

    def _changed(self, record: GameRecord, event: dict[str, Any]) -> None:
        """Called by the store after each commit, under its lock, so events go out in log order.

        Only the broadcaster is touched here (its lock is a leaf): the devices are refreshed by the
        caller after the store returns, see :meth:`refresh_devices`.
        """
        view = convert.game_view(record)
        self.events.publish("game", {**event, "game": view}, event_id=record.version)

    def refresh_devices(self) -> None:
        """Show the game as it now stands on the LEDs, after a change made from the page."""
        try:
            if self.loop is not None:
                self.loop.refresh()
            elif self.tracker is not None:
                self.tracker.show(self.actions.state())
                self.events.publish("device", {"type": "leds", **self.tracker.snapshot()})
        except Exception:  # a tracker fault must never undo or block a committed action
            log.exception("refreshing the round tracker failed")

    def shaker_contents(self) -> dict[str, int]:
        """What the shaker holds now (the simulated camera draws its patterns from it)."""
        state = self.actions.state()
        if state is None:
            from scoring.shake_that_city.catalogue import components

            return dict(components().cubes)
        return state.shaker()

    def device_event(self, event: dict[str, Any]) -> None:
        """A listener for the device loop: its events go to every page."""
        self.events.publish("device", dict(event))

    def board_calibration(self) -> Any:
        """The board reader's calibration (``vision.board_reader.BoardCalibration``), loaded once; None if not made."""
        with self.rng_lock:
            if self._board_calibration is None and self.calibration_path.is_file():
                from vision.board_reader import BoardCalibration

                self._board_calibration = BoardCalibration.load(self.calibration_path)
            return self._board_calibration

    def save_board_calibration(self, calibration: Any) -> None:
        with self.rng_lock:
            calibration.save(self.calibration_path)
            self._board_calibration = calibration

    def palette(self) -> Any:
        """The shaker reader's colour palette calibrated at this table, or None for the default one."""
        with self.rng_lock:
            if self._palette is None and self.palette_path.is_file():
                from vision.colour import load_palette

                self._palette = load_palette(self.palette_path)
            return self._palette

    def save_palette(self, palette: Any) -> None:
        with self.rng_lock:
            palette.save(self.palette_path)
            self._palette = palette
        reader = getattr(self.loop, "reader", None)
        if reader is not None and hasattr(reader, "palette"):
            reader.palette = palette  # the live reader reads with the new colours from its next frame

    def tracker_snapshot(self) -> dict[str, Any] | None:
        return dict(self.tracker.snapshot()) if self.tracker is not None else None

    def device_snapshot(self) -> dict[str, Any]:
        """Camera, LEDs and the loop's last news, for a page's first load."""
        out: dict[str, Any] = {
            "camera": self.camera_kind if self.camera is not None else None,
            "tracker": self.tracker_snapshot(),
            "note": self.device_note,
        }
        if self.loop is not None:
            snap = self.loop.snapshot()
            out["camera_status"] = snap.get("camera")
            out["trouble"] = snap.get("trouble")
        return out

    def current_view(self) -> dict[str, Any] | None:
        try:
            with self.store.lock:
                return convert.game_view(self.store.current())
        except NoGame:
            return None

    def close(self) -> None:
        self.events.close_all()
        for part in (self.loop, self.camera, self.tracker):
            closer = getattr(part, "stop", None) if part is not self.tracker else getattr(part, "close", None)
            if closer is not None:
                try:
                    closer()
                except Exception:
                    log.exception("closing %r failed", part)
        self.store.close()
