"""bench-device's count of shakes shown and missed (device.bench.shakes_shown), and its slowed reader."""

from __future__ import annotations

import time

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
