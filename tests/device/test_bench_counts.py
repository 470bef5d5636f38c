"""bench-device's count of shakes shown and missed (device.bench.shakes_shown)."""

from __future__ import annotations

from device.bench import shakes_shown


def test_a_shake_reported_in_the_runs_last_unfinished_cycle_counts_as_shown() -> None:
    # cycles of 3 s from t = 10; the run ends at 17.5, in shake 2's cycle, which was reported: 3 shown, none missed
    assert shakes_shown(10.0, 17.5, 3.0, {0, 1, 2}) == (3, 0)


def test_an_unreported_shake_counts_as_missed_only_once_its_cycle_ended() -> None:
    # shake 1 never reported (missed); shake 2's cycle unfinished and unreported: neither shown nor missed
    assert shakes_shown(10.0, 17.5, 3.0, {0}) == (2, 1)
    assert shakes_shown(None, 17.5, 3.0, set()) == (0, 0)
