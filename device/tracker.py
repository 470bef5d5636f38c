"""The round tracker: LEDs and buttons beside the board, built from gpiozero parts.

- ``leds``: one :class:`gpiozero.LEDBoard` of named parts: ``rounds`` (a nested board of 15 LEDs),
  ``seats`` (a nested board, one LED per seat, lit for the active player), ``free_choice`` (rounds 13-15),
  ``wild_nights`` (this round adds a white cube: rounds 2-8 with Wild Nights) and ``status``
  (reading: a short flash every 1.5 s; pattern read: steady; error: fast blink).
- buttons (:class:`gpiozero.Button`, wired to ground, internal pull-up): ``next_round`` and ``rescan``
  act when pressed; ``undo`` acts only when held for ``hold_time`` seconds, so a brush does nothing.

Pins come from the pin map (``device/pins.json``, overridable in the device config). The pin factory
is gpiozero's: ``GPIOZERO_PIN_FACTORY`` or ``--pins`` chooses it; off a Raspberry Pi it is
:class:`gpiozero.pins.mock.MockFactory`, and :meth:`RoundTracker.press` / :meth:`RoundTracker.hold`
(the page's virtual buttons) drive the mock pins so the very same gpiozero callbacks fire.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from gpiozero import Button, Device, LEDBoard
from gpiozero.pins.mock import MockFactory

from scoring.shake_that_city.board import WILD_NIGHTS
from scoring.shake_that_city.catalogue import components
from scoring.shake_that_city.game import GameState, free_choice

from .config import BUTTON_NAMES, PinMap, default_pin_map, load_config

PIN_FACTORY_ENV = "GPIOZERO_PIN_FACTORY"
PI_MODEL_FILE = Path("/proc/device-tree/model")
# status LED modes: None = off, () = steady on, (on_time, off_time) = blinking
STATUS_MODES: dict[str, tuple[float, float] | tuple[()] | None] = {
    "off": None,
    "reading": (0.1, 1.4),
    "pattern": (),
    "error": (0.1, 0.1),
}
Handler = Callable[[], object]
Clock = Callable[[], float]


def on_raspberry_pi(model_file: Path | None = None) -> bool:
    """Whether this machine is a Raspberry Pi (from the device tree's model string)."""
    try:
        return "raspberry pi" in (model_file or PI_MODEL_FILE).read_text(encoding="utf-8", errors="replace").lower()
    except OSError:
        return False


def make_pin_factory(kind: str | None = None) -> Any:
    """The pin factory for ``kind`` (``auto``, ``mock`` or a gpiozero factory name like ``lgpio``).

    ``None`` or ``auto``: ``$GPIOZERO_PIN_FACTORY`` if set, else gpiozero's own default on a Pi, else
    :class:`MockFactory` (off the Pi gpiozero has no pins to drive). Returns ``None`` where gpiozero's
    default should be left to choose.
    """
    if kind in (None, "", "auto"):
        env = os.environ.get(PIN_FACTORY_ENV)
        if env:
            kind = env
        elif on_raspberry_pi():
            return None
        else:
            return MockFactory()
    assert kind is not None
    if kind.lower() == "mock":
        return MockFactory()
    for ep in entry_points(group="gpiozero_pin_factories"):
        if ep.name == kind.lower():
            return ep.load()()
    names = sorted({ep.name for ep in entry_points(group="gpiozero_pin_factories")} | {"auto"})
    raise ValueError(f"unknown pin factory {kind!r}; factories are {', '.join(names)}")


def is_mock(factory: Any) -> bool:
    return isinstance(factory, MockFactory)


class RoundTracker:
    """The round tracker's LEDs and buttons; :meth:`show` sets the LEDs from a game state.

    ``clock`` measures the software debounce: a press of the same button within ``bounce_time`` of
    the last one it acted on is a bounce and is ignored. (On the Pi, gpiozero also passes
    ``bounce_time`` to the pin driver; gpiozero's mock pins store it but do not filter.)
    """

    def __init__(
        self,
        pins: PinMap | None = None,
        *,
        pin_factory: Any = None,
        clock: Clock = time.monotonic,
        owns_factory: bool = False,
    ) -> None:
        self.pins = pins or default_pin_map()
        self._clock = clock
        self._owns_factory = owns_factory
        kw: dict[str, Any] = {"active_high": self.pins.active_high, "pin_factory": pin_factory}
        self.leds = LEDBoard(
            rounds=LEDBoard(*self.pins.rounds, **kw),
            seats=LEDBoard(*self.pins.seats, **kw),
            free_choice=self.pins.free_choice,
            wild_nights=self.pins.wild_nights,
            status=self.pins.status,
            _order=("rounds", "seats", "free_choice", "wild_nights", "status"),
            **kw,
        )
        self.buttons: dict[str, Button] = {}
        try:
            for name in BUTTON_NAMES:
                self.buttons[name] = Button(
                    getattr(self.pins, name),
                    pull_up=self.pins.pull_up,
                    bounce_time=self.pins.bounce_time,
                    hold_time=self.pins.hold_time,
                    pin_factory=pin_factory,
                )
        except Exception:
            self.close()
            raise
        self.factory = self.leds.pin_factory
        self._handlers: dict[str, Handler | None] = dict.fromkeys(BUTTON_NAMES)
        self._last_press: dict[str, float] = {}
        self._held = threading.Event()
        self._lock = threading.RLock()
        self._status_mode = "off"
        self._state_summary: dict[str, Any] = {"round": None, "active": None, "finished": False}
        self.presses: dict[str, int] = dict.fromkeys(BUTTON_NAMES, 0)  # actions taken, per button
        self.buttons["next_round"].when_pressed = lambda: self._pressed("next_round")
        self.buttons["rescan"].when_pressed = lambda: self._pressed("rescan")
        self.buttons["undo"].when_held = self._undo_held

    @classmethod
    def from_kind(
        cls, kind: str | None = None, pins: PinMap | None = None, *, clock: Clock = time.monotonic
    ) -> RoundTracker:
        """A tracker on the pin factory ``kind`` (see :func:`make_pin_factory`), owning that factory.

        ``pins`` defaults to the device config's pin map (``$SHAKECITY_CONFIG``, the system config, or
        the defaults of ``device/pins.json``).
        """
        if pins is None:
            pins = load_config().pins
        factory = make_pin_factory(kind)
        return cls(pins, pin_factory=factory, clock=clock, owns_factory=factory is not None)

    # ------------------------------------------------------------------------------------ buttons
    def bind(
        self, *, next_round: Handler | None = None, rescan: Handler | None = None, undo: Handler | None = None
    ) -> None:
        """Set what each button does (the table loop binds its own methods here)."""
        self._handlers.update({"next_round": next_round, "rescan": rescan, "undo": undo})

    def _pressed(self, name: str) -> None:
        now = self._clock()
        bounce = self.pins.bounce_time or 0.0
        with self._lock:
            last = self._last_press.get(name)
            if last is not None and now - last < bounce:
                return  # a bounce of the press we already acted on
            self._last_press[name] = now
            self.presses[name] += 1
        handler = self._handlers.get(name)
        if handler is not None:
            handler()

    def _undo_held(self) -> None:
        with self._lock:
            self.presses["undo"] += 1
        try:
            handler = self._handlers.get("undo")
            if handler is not None:
                handler()
        finally:
            self._held.set()

    @property
    def mock_pins(self) -> bool:
        return is_mock(self.factory)

    def _drive(self, name: str, active: bool) -> None:
        pin = self.buttons[name].pin
        # wired to ground with a pull-up: pressed is low
        if active == self.pins.pull_up:
            pin.drive_low()
        else:
            pin.drive_high()

    def press(self, name: str) -> None:
        """A short press of button ``name`` (the page's virtual button).

        On mock pins the pin is driven down and up, so gpiozero fires the same callbacks a finger
        would; on real pins (a virtual button on the Pi's page) the button's action is called directly.
        """
        if name not in self.buttons:
            raise ValueError(f"no button {name!r}; buttons are {', '.join(BUTTON_NAMES)}")
        if not self.mock_pins:
            if name == "undo":
                return  # a short press of undo does nothing, by design
            self._pressed(name)
            return
        self._drive(name, True)
        self._drive(name, False)

    def hold(self, name: str = "undo", timeout: float | None = None) -> bool:
        """Hold button ``name`` down until gpiozero reports it held (``hold_time``), then release.

        Returns whether the held action ran. Buttons other than undo act on the press itself.
        """
        if name not in self.buttons:
            raise ValueError(f"no button {name!r}; buttons are {', '.join(BUTTON_NAMES)}")
        if name != "undo":
            self.press(name)
            return True
        if not self.mock_pins:
            self._undo_held()
            return True
        self._held.clear()
        self._drive(name, True)
        try:
            fired = self._held.wait(timeout if timeout is not None else self.pins.hold_time + 2.0)
        finally:
            self._drive(name, False)
        return fired

    # --------------------------------------------------------------------------------------- LEDs
    def show(self, state: GameState | None) -> None:
        """Light the LEDs for ``state``: the round, the active seat, free choice, Wild Nights."""
        n_rounds = len(self.leds.rounds)
        if state is None:
            rounds = [False] * n_rounds
            seats = [False] * len(self.leds.seats)
            free = wild = False
            summary: dict[str, Any] = {"round": None, "active": None, "finished": False}
        elif state.finished:
            rounds = [True] * n_rounds
            seats = [False] * len(self.leds.seats)
            free = wild = False
            summary = {"round": state.round_no, "active": None, "finished": True}
        else:
            r = state.round_no
            if self.pins.round_display == "progress":
                rounds = [i < r for i in range(n_rounds)]
            else:
                rounds = [i == r - 1 for i in range(n_rounds)]
            seats = [i == state.active for i in range(len(self.leds.seats))]
            free = free_choice(state)
            wild = WILD_NIGHTS in state.setup.variants and r in components().white_join_rounds
            summary = {"round": r, "active": state.active_player, "finished": False}
        with self._lock:
            for led, lit in zip(self.leds.rounds, rounds, strict=True):
                led.value = lit
            for led, lit in zip(self.leds.seats, seats, strict=True):
                led.value = lit
            self.leds.free_choice.value = free
            self.leds.wild_nights.value = wild
            self._state_summary = summary

    def set_status(self, mode: str) -> None:
        """Set the status LED: ``off``, ``reading``, ``pattern`` (read) or ``error``."""
        if mode not in STATUS_MODES:
            raise ValueError(f"unknown status {mode!r}; statuses are {', '.join(STATUS_MODES)}")
        with self._lock:
            if mode == self._status_mode:
                return
            self._status_mode = mode
            how = STATUS_MODES[mode]
            led = self.leds.status
            if how is None:
                led.off()
            elif how == ():
                led.on()
            else:
                on_time, off_time = how  # type: ignore[misc]
                led.blink(on_time=on_time, off_time=off_time, background=True)

    @property
    def status_mode(self) -> str:
        return self._status_mode

    def snapshot(self) -> dict[str, Any]:
        """Every LED and button as JSON for the page's virtual tracker (and what pins drive them)."""
        with self._lock:
            how = STATUS_MODES[self._status_mode]
            return {
                "pins": "mock pins" if self.mock_pins else "real pins",
                "pin_factory": type(self.factory).__name__,
                "round_display": self.pins.round_display,
                "rounds": [bool(led.value) for led in self.leds.rounds],
                "seats": [bool(led.value) for led in self.leds.seats],
                "free_choice": bool(self.leds.free_choice.value),
                "wild_nights": bool(self.leds.wild_nights.value),
                "status": {
                    "mode": self._status_mode,
                    "lit": bool(self.leds.status.value),
                    "blink": list(how) if how else None,
                },
                "buttons": {
                    name: {
                        "pin": getattr(self.pins, name),
                        "pressed": bool(button.is_pressed),
                        "needs_hold": name == "undo",
                        "hold_time": self.pins.hold_time if name == "undo" else None,
                    }
                    for name, button in self.buttons.items()
                },
                "game": dict(self._state_summary),
            }

    # ---------------------------------------------------------------------------------- lifetime
    def close(self) -> None:
        """Release every pin (and the pin factory, if this tracker made it)."""
        for button in self.buttons.values():
            button.close()
        if getattr(self, "leds", None) is not None:
            self.leds.close()
        if self._owns_factory and getattr(self, "factory", None) is not None:
            factory, self.factory = self.factory, None
            if factory is not Device.pin_factory:
                factory.close()
            self._owns_factory = False

    def __enter__(self) -> RoundTracker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
