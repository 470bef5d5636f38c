"""Shared fixtures for the device tests: gpiozero's MockFactory, a hand-advanced clock, frames."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Iterator

import pytest
from gpiozero.pins.mock import MockFactory

from device.config import PinMap, default_pin_map
from device.tracker import RoundTracker


class ManualClock:
    """Time passed in: it stands still until the test moves it."""

    def __init__(self, t: float = 1000.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


def wait_until(predicate: Callable[[], bool], timeout: float = 10.0, what: str = "condition") -> None:
    """Wait for something a background thread does; the timeout only guards against hanging."""
    end = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.01)


@pytest.fixture
def mock_factory() -> Iterator[MockFactory]:
    factory = MockFactory()
    yield factory
    factory.reset()
    factory.close()


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def pin_map() -> PinMap:
    # a short hold keeps the tests quick; the default (1 s) is tested in test_config
    return dataclasses.replace(default_pin_map(), hold_time=0.05)


@pytest.fixture
def tracker(mock_factory: MockFactory, pin_map: PinMap, clock: ManualClock) -> Iterator[RoundTracker]:
    t = RoundTracker(pin_map, pin_factory=mock_factory, clock=clock)
    yield t
    t.close()
