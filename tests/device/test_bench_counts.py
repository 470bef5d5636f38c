"""bench-device's count of shakes shown and missed (device.bench.shakes_shown), and its slowed reader."""

from __future__ import annotations

import time
from typing import Any

import numpy as np
import pytest

from device.bench import TimedReader, shakes_shown
from vision.shaker_live import LiveShakerReader


def test_a_shake_reported_in_the_runs_last_unfinished_cycle_counts_as_shown() -> None:
    # cycles of 3 s from t = 10; the run ends at 17.5, in shake 2's cycle, which was reported: 3 shown, none missed
    assert shakes_shown(10.0, 17.5, 3.0, {0, 1, 2}) == (3, 0)


def test_an_unreported_shake_counts_as_missed_only_once_its_cycle_ended() -> None:
    # shake 1 never reported (missed); shake 2's cycle unfinished and unreported: neither shown nor missed
    assert shakes_shown(10.0, 17.5, 3.0, {0}) == (2, 1)
    assert shakes_shown(None, 17.5, 3.0, set()) == (0, 0)


def test_a_slowed_reader_waits_after_each_frame_what_a_slower_machine_would_take() -> None:
    frame_bgr = np.full((480, 640, 3), 128, np.uint8)
    reader = TimedReader(LiveShakerReader(), slowdown=3.0)
    for i in range(3):
        start = time.perf_counter()
        reader.feed(frame_bgr, float(i))
        wall = time.perf_counter() - start
        # (the frame's own work, then twice as long again: three times it as played, all of it spent in feed)
        assert reader.seconds[-1] >= 2.999 * reader.work_seconds[-1] > 0
        assert wall >= reader.seconds[-1]
    assert len(reader.seconds) == len(reader.work_seconds) == 3
    with pytest.raises(ValueError):
        TimedReader(LiveShakerReader(), slowdown=0.5)


def test_a_slowed_reader_that_asks_for_the_newest_frame_mid_read_asks_as_late_as_a_slower_machine_would() -> None:
    # a reader that works 50 ms, asks for the camera's newest frame (as the live reader does between the looks of a
    # long read), then works 50 ms more: three times slower, it asks 150 ms in, and the feed takes 300 ms
    class Reader:
        def __init__(self) -> None:
            self.newest: Any = None
            self.asked_at: list[float] = []

        def watch(self, newest: Any) -> None:
            self.newest = newest

        def feed(self, frame_bgr: np.ndarray, t: float) -> list[Any]:
            time.sleep(0.05)
            assert self.newest() == "newest"
            self.asked_at.append(time.perf_counter())  # (when the answer came)
            time.sleep(0.05)
            return []

    inner = Reader()
    reader = TimedReader(inner, slowdown=3.0)
    reader.watch(lambda: "newest")
    start = time.perf_counter()
    reader.feed(np.zeros((4, 4, 3), np.uint8), 0.0)
    assert inner.asked_at[0] - start >= 0.15 - 1e-3  # (a wait never ends early)
    assert reader.seconds[0] >= 0.3 - 1e-3
    assert 0.1 - 1e-3 <= reader.work_seconds[0] < reader.seconds[0] / 2  # (the waits are not the reader's work)


def test_a_slowed_reader_without_watch_is_given_no_newest_frame() -> None:
    class Plain:
        def feed(self, frame_bgr: np.ndarray, t: float) -> list[Any]:
            return []

    reader = TimedReader(Plain(), slowdown=2.0)
    reader.watch(lambda: None)  # (the loop offers it; a reader that cannot stop a read has nothing to take it)
    assert reader.feed(np.zeros((4, 4, 3), np.uint8), 0.0) == [] and len(reader.seconds) == 1
