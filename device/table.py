"""The table loop: camera -> live shaker reader -> game -> round tracker LEDs and page events.

Free of Flask: the game and its persistence come in as a :class:`TableActions` (the web layer's
implementation keeps the game in SQLite; :class:`MemoryTable` keeps it in memory for tests and the
``doctor``), and every change goes out as a plain dict to the listeners (the web layer forwards them
as Server-Sent Events). Events:

- ``{"type": "pattern", "pattern": [[...]], "round": 3, "active_player": "Bo", "free_choice": false,
  "wild_nights": true, "frame_seq": 120, "latency_s": 0.04}``: the round's pattern was read and taken;
- ``{"type": "shake_again", "reason": "..."}``: the table shows no complete pattern the shaker can
  make (a cube knocked out, too few cubes, an impossible colour count): shake again;
- ``{"type": "refused", "action": "shake" | "next_round" | "undo", "reason": "..."}``: the game said no;
- ``{"type": "round", "round": 4, "active_player": "Cy", "finished": false, "action": "next_round"}``;
- ``{"type": "rescan"}``: the rescan button was pressed; the next reading is taken afresh;
- ``{"type": "reader_error", "reason": "..."}``: the reader raised on a frame (once per kind in a row);
- ``{"type": "camera", "status": {"ok": false, "message": "camera disconnected ..., retrying", ...}}``;
- ``{"type": "leds", ...RoundTracker.snapshot()...}`` after every change of the LEDs.

The reader is injected too: any object with ``feed(frame_bgr, t) -> iterable of events``, where an
event with a ``pattern`` attribute is a reading (``PatternRead``) and one with a ``reason`` is a
refusal (``NoPattern``); ``vision.shaker_live.LiveShakerReader`` is the real one.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np

from scoring.errors import RulesError
from scoring.shake_that_city.board import WILD_NIGHTS
from scoring.shake_that_city.catalogue import components
from scoring.shake_that_city.game import Game, GameState, NextRound, Shake, free_choice
from scoring.shake_that_city.pattern import Pattern, check_against_shaker

from .cameras import Camera, CameraStatus, Frame
from .tracker import RoundTracker

log = logging.getLogger(__name__)

Event = dict[str, Any]
Listener = Callable[[Event], None]
RawPattern = Sequence[Sequence[str | None]]


@runtime_checkable
class TableActions(Protocol):
    """The game as the table loop sees it. Refusals raise ``ValueError`` (subclasses) with a reason."""

    def state(self) -> GameState | None:
        """The current game's state, or None when no game is running."""
        ...

    def shake(self, pattern: list[list[str]]) -> GameState:
        """Record the round's pattern (3 rows of 3 colour names, as ``Pattern.to_json()``)."""
        ...

    def next_round(self) -> GameState: ...

    def undo(self) -> GameState: ...


@runtime_checkable
class ShakerReader(Protocol):
    def feed(self, frame_bgr: np.ndarray, t: float) -> Iterable[Any]: ...


class MemoryTable:
    """:class:`TableActions` over a :class:`Game` held in memory (tests, ``doctor``, benchmarks)."""

    def __init__(self, game: Game | None) -> None:
        self.game = game
        self.lock = threading.RLock()  # held by every action; hold it to play moves from outside too

    def _game(self) -> Game:
        if self.game is None:
            raise LookupError("no game is running")
        return self.game

    def state(self) -> GameState | None:
        with self.lock:
            return self.game.state if self.game is not None else None

    def shake(self, pattern: list[list[str]]) -> GameState:
        with self.lock:
            return self._game().apply(Shake(Pattern.parse(pattern)))

    def next_round(self) -> GameState:
        with self.lock:
            return self._game().apply(NextRound())

    def undo(self) -> GameState:
        with self.lock:
            game = self._game()
            game.undo()
            return game.state


def round_facts(state: GameState) -> dict[str, Any]:
    """What the page shows about the round: number, active player, free choice, Wild Nights."""
    return {
        "round": state.round_no,
        "active_player": None if state.finished else state.active_player,
        "finished": state.finished,
        "free_choice": (not state.finished) and free_choice(state),
        "wild_nights": (not state.finished)
        and WILD_NIGHTS in state.setup.variants
        and state.round_no in components().white_join_rounds,
        "whites_in_shaker": state.whites_in_shaker,
    }


def _complete(raw: Any) -> list[list[str]] | None:
    """The pattern as 3 lists of 3 strings, or None if it has holes or the wrong shape."""
    try:
        rows = [list(row) for row in raw]
    except TypeError:
        return None
    if len(rows) != 3 or any(len(row) != 3 or not all(isinstance(c, str) for c in row) for row in rows):
        return None
    return rows


class TableLoop:
    """Wire a camera, a live reader, the game and (optionally) the round tracker together.

    :meth:`step` does one turn (deterministic: for tests); :meth:`start` runs turns on a thread as
    frames arrive; the tracker's buttons are bound to :meth:`next_round`, :meth:`undo` and
    :meth:`rescan`, which the page may call too.
    """

    def __init__(
        self,
        camera: Camera | None,
        reader: ShakerReader | None,
        actions: TableActions,
        tracker: RoundTracker | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
        listeners: Iterable[Listener] = (),
    ) -> None:
        self.camera = camera
        self.reader = reader
        self.actions = actions
        self.tracker = tracker
        self._clock = clock
        self._listeners: list[Listener] = list(listeners)
        self._lock = threading.RLock()
        self._seq = 0
        self._camera_status: CameraStatus | None = None
        self._trouble: str | None = None  # the last shake-again or refusal, until the game moves on
        self._rescan = False
        self._last_pattern: Event | None = None
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self.frames_seen = 0
        self.reader_errors = 0  # frames the reader failed on
        self._reader_error: str | None = None
        if tracker is not None:
            tracker.bind(next_round=self.next_round, rescan=self.rescan, undo=self.undo)
        watch = getattr(reader, "watch", None)
        if callable(watch):
            # (a reader that can stop a long read when the view changes under it is given the camera's newest frame)
            watch(self._newest_frame)

    def _newest_frame(self) -> np.ndarray | None:
        """The camera's newest frame's image (None without a camera or a frame)."""
        frame = self.camera.latest() if self.camera is not None else None
        return None if frame is None else frame.frame_bgr

    # ---------------------------------------------------------------------------------- listeners
    def add_listener(self, listener: Listener) -> None:
        with self._lock:
            self._listeners.append(listener)

    def remove_listener(self, listener: Listener) -> None:
        with self._lock:
            if listener in self._listeners:
                self._listeners.remove(listener)

    def _emit(self, event: Event, out: list[Event]) -> None:
        out.append(event)
        for listener in list(self._listeners):
            try:
                listener(event)
            except Exception:  # one broken listener (a closed page) must not stop the table
                log.exception("table listener failed on %s", event.get("type"))

    # ------------------------------------------------------------------------------------ the turn
    def step(self, frame: Frame | None = None) -> list[Event]:
        """One turn: report a camera status change, feed a new frame to the reader, act on its events.

        ``frame`` defaults to the camera's latest; a frame already seen is not fed again. Returns the
        events emitted during the turn.
        """
        out: list[Event] = []
        with self._lock:
            if self.camera is not None:
                status = self.camera.status()
                before, self._camera_status = self._camera_status, status
                if before is None or (status.ok, status.message) != (before.ok, before.message):
                    self._emit({"type": "camera", "status": status.to_json()}, out)
                    self._update_leds(out)
                if frame is None:
                    frame = self.camera.latest()
            if frame is None or frame.seq <= self._seq or self.reader is None:
                return out
            self._seq = frame.seq
            self.frames_seen += 1
        try:
            events = list(self.reader.feed(frame.frame_bgr, frame.t))
        except Exception as e:  # a reader bug on one frame must not stop the table, nor flood the log
            with self._lock:
                self._reader_failed(e, out)
            return out
        with self._lock:
            self._reader_error = None
            for event in events:
                if getattr(event, "pattern", None) is not None:
                    self._on_pattern(event.pattern, frame, out)
                elif hasattr(event, "reason"):
                    self._on_no_pattern(str(event.reason), out)
        return out

    def _reader_failed(self, error: Exception, out: list[Event]) -> None:
        self.reader_errors += 1
        reason = f"{type(error).__name__}: {error}"
        if reason != self._reader_error:  # once per kind of failure in a row, not once per frame
            self._reader_error = reason
            log.error("the shaker reader failed on frame %d", self._seq, exc_info=error)
            self._emit({"type": "reader_error", "reason": reason}, out)

    def _on_pattern(self, raw: Any, frame: Frame, out: list[Event]) -> None:
        state = self.actions.state()
        pattern = _complete(raw)
        if pattern is None:
            self._shake_again("the table does not show a complete 3 x 3 pattern", out)
            return
        if state is None:
            self._emit({"type": "pattern", "pattern": pattern, "round": None, "accepted": False}, out)
            return
        if state.finished:
            return  # the game is over: cubes on the table are no longer a shake
        try:
            parsed = Pattern.parse(pattern)
            check_against_shaker(parsed, state.shaker())
        except RulesError as e:
            self._shake_again(f"impossible pattern: {e}", out)
            return
        if state.pattern == parsed and not self._rescan:
            return  # the round already has this very pattern
        try:
            after = self.actions.shake(pattern)
        except ValueError as e:
            hint = "press next round first: " if state.pattern is not None else ""
            self._refused("shake", f"{hint}{e}", out)
            return
        self._rescan = False
        self._trouble = None
        event = {
            "type": "pattern",
            "pattern": pattern,
            "accepted": True,
            **round_facts(after),
            "frame_seq": frame.seq,
            "latency_s": round(self._clock() - frame.t, 6),
        }
        self._last_pattern = event
        self._emit(event, out)
        self._update_leds(out, after)

    def _on_no_pattern(self, reason: str, out: list[Event]) -> None:
        state = self.actions.state()
        # Only a round that waits for its shake can be told to shake again: once the pattern is taken,
        # cubes leaving the table are the players clearing it.
        if state is not None and not state.finished and state.pattern is None:
            self._shake_again(reason, out)

    def _shake_again(self, reason: str, out: list[Event]) -> None:
        self._trouble = reason
        self._emit({"type": "shake_again", "reason": reason}, out)
        self._update_leds(out)

    def _refused(self, action: str, reason: str, out: list[Event]) -> None:
        self._trouble = reason
        self._emit({"type": "refused", "action": action, "reason": reason}, out)
        self._update_leds(out)

    # ------------------------------------------------------------------------------------ buttons
    def next_round(self) -> list[Event]:
        """Move the game to the next round (the next-round button)."""
        return self._act("next_round", self.actions.next_round)

    def undo(self) -> list[Event]:
        """Take back the last action (the undo button, held)."""
        return self._act("undo", self.actions.undo)

    def _act(self, name: str, action: Callable[[], GameState]) -> list[Event]:
        out: list[Event] = []
        with self._lock:
            try:
                after = action()
            except (ValueError, LookupError) as e:
                self._refused(name, str(e).strip("'\""), out)
                return out
            self._trouble = None
            self._last_pattern = None
            self._emit({"type": "round", "action": name, **round_facts(after)}, out)
            self._update_leds(out, after)
        return out

    def rescan(self) -> list[Event]:
        """Read the table afresh (the rescan button).

        The camera's latest frame is read once more (with the reader's ``read(frame_bgr)`` if it has
        one) and the result taken even if the round already has that pattern; a reader with
        ``reset()`` is reset too, and its next reading is taken afresh as well.
        """
        out: list[Event] = []
        with self._lock:
            self._rescan = True
            self._trouble = None
            reset = getattr(self.reader, "reset", None)
            if callable(reset):
                reset()
            self._emit({"type": "rescan"}, out)
            frame = self.camera.latest() if self.camera is not None else None
            read = getattr(self.reader, "read", None)
            if frame is not None and callable(read):
                reading = read(frame.frame_bgr)
                if getattr(reading, "valid", False) and getattr(reading, "pattern", None) is not None:
                    self._on_pattern(reading.pattern, frame, out)
                else:
                    self._on_no_pattern(str(getattr(reading, "reason", None) or "no complete pattern"), out)
            if out[-1]["type"] != "leds":
                self._update_leds(out)
        return out

    def refresh(self) -> list[Event]:
        """Show the game as it now stands (after the page changed it: a placement, an undo...)."""
        out: list[Event] = []
        with self._lock:
            self._trouble = None
            self._update_leds(out)
        return out

    # --------------------------------------------------------------------------------------- LEDs
    def status_mode(self, state: GameState | None) -> str:
        """The status LED's mode: error (camera lost, shake again, refused), pattern read, or reading."""
        camera_bad = self._camera_status is not None and not self._camera_status.ok
        if camera_bad or self._trouble is not None:
            return "error"
        if state is None:
            return "off"
        if state.pattern is not None or state.finished:
            return "pattern"
        return "reading"

    def _update_leds(self, out: list[Event], state: GameState | None = None) -> None:
        if self.tracker is None:
            return
        if state is None:
            state = self.actions.state()
        self.tracker.show(state)
        self.tracker.set_status(self.status_mode(state))
        self._emit({"type": "leds", **self.tracker.snapshot()}, out)

    def snapshot(self) -> dict[str, Any]:
        """The table as the page's first load needs it: camera, LEDs, the last pattern event."""
        with self._lock:
            status = self.camera.status().to_json() if self.camera is not None else None
            return {
                "camera": status,
                "leds": self.tracker.snapshot() if self.tracker is not None else None,
                "last_pattern": self._last_pattern,
                "trouble": self._trouble,
                "frames_seen": self.frames_seen,
            }

    # ------------------------------------------------------------------------------------- thread
    def start(self) -> None:
        """Start the camera (if given) and run turns on a thread as new frames arrive."""
        if self._thread is not None:
            return
        if self.camera is not None:
            self.camera.start()
        self.refresh()
        self._stopping.clear()
        self._thread = threading.Thread(target=self._run, name="table-loop", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop the loop's thread and the camera (the tracker stays: its owner closes it)."""
        thread, self._thread = self._thread, None
        if thread is not None:
            self._stopping.set()
            thread.join(timeout=10)
        if self.camera is not None:
            self.camera.stop()

    def _run(self) -> None:
        wait = getattr(self.camera, "wait_frame", None)
        while not self._stopping.is_set():
            try:
                if callable(wait):
                    frame = wait(self._seq, 0.2)
                    self.step(frame)
                else:
                    self.step()
                    self._stopping.wait(0.02)
            except Exception:  # a bad frame or reader hiccup must not end the table
                log.exception("table loop turn failed")
                self._stopping.wait(0.2)

    def __enter__(self) -> TableLoop:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
