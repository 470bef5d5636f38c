"""The table loop with the real parts: the simulated camera (the scene generator's frames), the live
shaker reader, a game in memory and the round tracker on mock pins, running on their own threads."""

from __future__ import annotations

import time
from typing import Any

import numpy as np
import pytest
from gpiozero.pins.mock import MockFactory

from device.cameras import Frame, SimulatedCamera
from device.table import MemoryTable, TableActions, TableLoop
from device.tracker import RoundTracker
from scoring.shake_that_city.game import Game, Setup

from .conftest import wait_until

live = pytest.importorskip("vision.shaker_live")

# a seed whose first simulated shake the reader reads right (the reader's accuracy is vision's to test)
SEED = 1


def first(events: list[dict[str, Any]], kind: str) -> dict[str, Any]:
    return next(e for e in events if e["type"] == kind)


def test_memory_table_is_table_actions() -> None:
    assert isinstance(MemoryTable(Game(Setup.create(["Ann"]))), TableActions)


def test_live_loop_reads_a_shake_tells_the_page_and_lights_the_leds(tracker: RoundTracker) -> None:
    camera = SimulatedCamera(seed=SEED, width=640, height=480, fps=20, covered_s=0.5, lifted_s=60)
    game = Game(Setup.create(["Ann", "Bo"], "inland", ["wild_nights"]))
    events: list[dict[str, Any]] = []
    loop = TableLoop(camera, live.LiveShakerReader(), MemoryTable(game), tracker, listeners=[events.append])
    with loop:
        wait_until(lambda: any(e["type"] == "pattern" for e in events), timeout=30, what="a pattern event")
        wait_until(lambda: loop.frames_seen >= 5, what="a few more frames")
    truth = camera.shake(0)[0]
    pattern = first(events, "pattern")
    assert pattern["pattern"] == truth and pattern["round"] == 1 and pattern["active_player"] == "Ann"
    assert pattern["latency_s"] >= 0
    assert game.state.pattern is not None and game.state.pattern.to_json() == truth
    assert [e["type"] for e in events].count("pattern") == 1  # a pattern left on the table is one shake
    assert first(events, "camera")["status"]["ok"] is True
    assert tracker.status_mode == "pattern"
    assert events[-1]["type"] in ("leds", "camera")
    assert camera.status().message == "stopped"


def test_rescan_reads_the_table_again_after_an_undo(tracker: RoundTracker) -> None:
    camera = SimulatedCamera(seed=SEED, width=640, height=480, fps=20, covered_s=0.5, lifted_s=60)
    game = Game(Setup.create(["Ann", "Bo"]))
    events: list[dict[str, Any]] = []
    loop = TableLoop(camera, live.LiveShakerReader(), MemoryTable(game), tracker, listeners=[events.append])
    with loop:
        wait_until(lambda: game.state.pattern is not None, timeout=30, what="the first reading")
        assert tracker.hold("undo")
        assert game.state.pattern is None
        # the live reader reports a shake once; the pattern still lies there, so rescan reads it again
        assert tracker.status_mode == "reading"
        tracker.press("rescan")
        assert game.state.pattern is not None and game.state.pattern.to_json() == camera.shake(0)[0]
    kinds = [e["type"] for e in events]
    assert kinds.count("pattern") == 2 and "rescan" in kinds
    assert kinds.index("rescan") < len(kinds) - 1 - kinds[::-1].index("pattern")


def test_a_camera_that_vanishes_turns_the_status_led_to_error_and_back(mock_factory: MockFactory, pin_map) -> None:
    now = time.monotonic()
    camera = SimulatedCamera(
        seed=SEED, width=320, height=240, fps=30, covered_s=60, lifted_s=60, outages=[(now + 0.3, now + 0.8)]
    )
    events: list[dict[str, Any]] = []
    with RoundTracker(pin_map, pin_factory=mock_factory) as tracker:
        game = Game(Setup.create(["Ann"]))
        loop = TableLoop(camera, live.LiveShakerReader(), MemoryTable(game), tracker, listeners=[events.append])
        with loop:

            def back_and_shown() -> bool:
                cameras = [e["status"]["ok"] for e in list(events) if e["type"] == "camera"]
                leds = [e["status"]["mode"] for e in list(events) if e["type"] == "leds"]
                return cameras[-2:] == [False, True] and leds[-1:] == ["reading"]

            # the camera event and the LEDs' event come one after the other from the loop's thread
            wait_until(back_and_shown, timeout=20, what="the camera to vanish and return, and the LEDs to say so")
        # status LED: error while the camera was away, reading (waiting for a shake) once it is back
        leds = [e["status"]["mode"] for e in events if e["type"] == "leds"]
        assert "error" in leds[:-1] and leds[-1] == "reading"
    lost = [e["status"] for e in events if e["type"] == "camera" and not e["status"]["ok"]]
    assert any("camera disconnected (simulated camera unplugged)" in s["message"] for s in lost)
    assert camera.status().reconnects == 1


def test_step_feeds_each_frame_once_and_the_reader_gets_its_time(tracker: RoundTracker) -> None:
    seen: list[float] = []

    class Recorder:
        def feed(self, frame_bgr: np.ndarray, t: float) -> list[Any]:
            seen.append(t)
            return []

    loop = TableLoop(None, Recorder(), MemoryTable(Game(Setup.create(["Ann"]))), tracker)
    image = np.zeros((4, 4, 3), np.uint8)
    loop.step(Frame(image, 5.0, 1))
    loop.step(Frame(image, 5.0, 1))  # the same frame again: not fed twice
    loop.step(Frame(image, 5.5, 2))
    assert seen == [5.0, 5.5] and loop.frames_seen == 2


def test_the_loop_gives_a_reader_that_watches_the_cameras_newest_frame(tracker: RoundTracker) -> None:
    # the live reader stops a long read of a still view when the view changes under it: it asks for the camera's
    # newest frame while it reads (vision's tests show the stop; here: the loop hands it the camera's frames)
    camera = SimulatedCamera(seed=SEED, width=640, height=480, fps=20, covered_s=0.5, lifted_s=60)
    reader = live.LiveShakerReader()
    loop = TableLoop(camera, reader, MemoryTable(Game(Setup.create(["Ann"]))), tracker)
    assert reader.newest_frame is not None and reader.newest_frame() is None  # (the camera not started)
    with loop:
        wait_until(lambda: loop.frames_seen >= 3, timeout=30, what="a few frames")
        newest = reader.newest_frame()
        latest = camera.latest()
        assert latest is not None and newest is not None
        assert newest.shape == (480, 640, 3) and (newest is latest.frame_bgr or latest.seq > 1)
    assert TableLoop(None, live.LiveShakerReader(), MemoryTable(None), tracker)._newest_frame() is None
