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

    def shake(self, pattern: Pattern) -> GameState:
        return self.store.apply(Shake(pattern)).game.state

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
        """Called by the store after each commit, under its lock, so events go out in log order."""
        view = convert.game_view(record)
        self.events.publish("game", {**event, "game": view}, event_id=record.seq)
        if self.tracker is not None:
            try:
                self.tracker.show(record.game.state)
            except Exception:  # a tracker fault must never lose or block a committed action
                log.exception("round tracker failed to show the state")
            else:
                self.events.publish("tracker", self.tracker_snapshot())

    def device_event(self, event: dict[str, Any]) -> None:
        """A listener for the device loop: its events go to every page."""
        self.events.publish("device", dict(event))

    def tracker_snapshot(self) -> dict[str, Any] | None:
        if self.tracker is None:
            return None
        snap = self.tracker.snapshot()
        return dict(snap) if isinstance(snap, dict) else {"leds": snap}

    def current_view(self) -> dict[str, Any] | None:
        try:
            return convert.game_view(self.store.current())
        except NoGame:
            return None

    def close(self) -> None:
        self.events.close_all()
        for part in (self.loop, self.camera, self.tracker):
            closer = getattr(part, "close", None) or getattr(part, "stop", None)
            if closer is not None:
                try:
                    closer()
                except Exception:
                    log.exception("closing %r failed", part)
        self.store.close()
