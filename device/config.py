"""The device configuration: the round tracker's pin map and the camera choice, from one file.

Defaults live in ``device/pins.json`` (the documented pin map) and in :data:`DEFAULT_CAMERA`. A device
config file (JSON, see ``deploy/shakecity.example.json``) overrides any of them::

    {"camera": {"kind": "auto", "options": {"lens_position": 2.5}},
     "pins": {"status": "GPIO11", "hold_time": 1.5}}

The file is found from the ``path`` argument, else ``$SHAKECITY_CONFIG``, else
``/etc/shakecity/config.json`` when it exists; no file means the defaults.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from .errors import DeviceConfigError

CONFIG_ENV = "SHAKECITY_CONFIG"
SYSTEM_CONFIG = Path("/etc/shakecity/config.json")
ROUNDS = 15
MAX_SEATS = 4
ROUND_DISPLAYS = ("current", "progress")
LED_NAMES = ("free_choice", "wild_nights", "status")
BUTTON_NAMES = ("next_round", "rescan", "undo")
DEFAULT_CAMERA: dict[str, Any] = {"kind": "auto", "options": {}}


@dataclass(frozen=True)
class PinMap:
    """Where every LED and button of the round tracker is wired (gpiozero pin names) and how."""

    rounds: tuple[str, ...]
    seats: tuple[str, ...]
    free_choice: str
    wild_nights: str
    status: str
    next_round: str
    rescan: str
    undo: str
    active_high: bool = True
    pull_up: bool = True
    bounce_time: float | None = 0.05
    hold_time: float = 1.0
    round_display: str = "current"  # "current": the round's LED only; "progress": every round played so far

    def all_pins(self) -> dict[str, str]:
        """Every part's name mapped to its pin, e.g. ``{"round_1": "GPIO17", ..., "undo": "GPIO3"}``."""
        parts = {f"round_{i + 1}": pin for i, pin in enumerate(self.rounds)}
        parts.update({f"seat_{i + 1}": pin for i, pin in enumerate(self.seats)})
        parts.update({name: getattr(self, name) for name in LED_NAMES + BUTTON_NAMES})
        return parts

    def to_json(self) -> dict[str, Any]:
        return {
            "rounds": list(self.rounds),
            "seats": list(self.seats),
            **{name: getattr(self, name) for name in LED_NAMES + BUTTON_NAMES},
            "active_high": self.active_high,
            "pull_up": self.pull_up,
            "bounce_time": self.bounce_time,
            "hold_time": self.hold_time,
            "round_display": self.round_display,
        }


@dataclass(frozen=True)
class DeviceConfig:
    """The camera choice and the pin map, with where they came from."""

    camera_kind: str
    camera_options: dict[str, Any]
    pins: PinMap
    source: str  # the config file read, or "defaults"
    extra: dict[str, Any] = field(default_factory=dict)  # other sections, for other packages


def default_pin_data() -> dict[str, Any]:
    """The documented defaults of ``device/pins.json`` as a plain mapping."""
    with resources.files(__package__).joinpath("pins.json").open(encoding="utf-8") as f:
        return json.load(f)


def parse_pin_map(raw: Mapping[str, Any], where: str = "pins") -> PinMap:
    """Check a pin map (the defaults with any overrides applied) and build a :class:`PinMap`."""
    if not isinstance(raw, Mapping):
        raise DeviceConfigError(f"{where}: expected an object")
    known = {"about", "version", "rounds", "seats", *LED_NAMES, *BUTTON_NAMES}
    known |= {"active_high", "pull_up", "bounce_time", "hold_time", "round_display"}
    unknown = sorted(set(raw) - known)
    if unknown:
        raise DeviceConfigError(f"{where}: unknown key {unknown[0]!r}; keys are {', '.join(sorted(known))}")

    def pin(value: Any, key: str) -> str:
        if isinstance(value, int) and not isinstance(value, bool):
            return f"GPIO{value}"
        if not isinstance(value, str) or not value.strip():
            raise DeviceConfigError(f"{where}.{key}: expected a pin name like 'GPIO17', got {value!r}")
        return value.strip()

    def pins(key: str, lo: int, hi: int) -> tuple[str, ...]:
        value = raw.get(key)
        if isinstance(value, str) or not isinstance(value, list) or not lo <= len(value) <= hi:
            count = f"{lo}" if lo == hi else f"{lo} to {hi}"
            raise DeviceConfigError(f"{where}.{key}: expected a list of {count} pin names, got {value!r}")
        return tuple(pin(v, f"{key}[{i}]") for i, v in enumerate(value))

    def number(key: str, default: float | None, allow_none: bool = False) -> float | None:
        value = raw.get(key, default)
        if value is None and allow_none:
            return None
        if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
            raise DeviceConfigError(f"{where}.{key}: expected a number of seconds >= 0, got {value!r}")
        return float(value)

    def flag(key: str) -> bool:
        value = raw.get(key, True)
        if not isinstance(value, bool):
            raise DeviceConfigError(f"{where}.{key}: expected true or false, got {value!r}")
        return value

    for key in (*LED_NAMES, *BUTTON_NAMES):
        if key not in raw:
            raise DeviceConfigError(f"{where}: missing {key!r}")
    display = raw.get("round_display", "current")
    if display not in ROUND_DISPLAYS:
        raise DeviceConfigError(f"{where}.round_display: expected one of {', '.join(ROUND_DISPLAYS)}, got {display!r}")
    hold = number("hold_time", 1.0)
    assert hold is not None
    pin_map = PinMap(
        rounds=pins("rounds", ROUNDS, ROUNDS),
        seats=pins("seats", 1, MAX_SEATS),
        **{key: pin(raw[key], key) for key in (*LED_NAMES, *BUTTON_NAMES)},
        active_high=flag("active_high"),
        pull_up=flag("pull_up"),
        bounce_time=number("bounce_time", 0.05, allow_none=True),
        hold_time=hold,
        round_display=display,
    )
    used: dict[str, str] = {}
    for part, name in pin_map.all_pins().items():
        key = name.upper()
        if key in used:
            raise DeviceConfigError(f"{where}: {part} and {used[key]} are both on {name}")
        used[key] = part
    return pin_map


def default_pin_map() -> PinMap:
    return parse_pin_map(default_pin_data(), "device/pins.json")


def config_path(path: str | os.PathLike[str] | None = None) -> Path | None:
    """The config file to read: ``path``, else ``$SHAKECITY_CONFIG``, else the system file if present."""
    if path is not None:
        return Path(path)
    env = os.environ.get(CONFIG_ENV)
    if env:
        return Path(env)
    return SYSTEM_CONFIG if SYSTEM_CONFIG.is_file() else None


def load_config(path: str | os.PathLike[str] | None = None) -> DeviceConfig:
    """Read the device config (see the module doc); every problem is one :class:`DeviceConfigError` line."""
    found = config_path(path)
    raw: Any = {}
    if found is not None:
        try:
            raw = json.loads(found.read_text(encoding="utf-8"))
        except OSError as e:
            raise DeviceConfigError(f"{found}: cannot read ({e.strerror or e})") from None
        except json.JSONDecodeError as e:
            raise DeviceConfigError(f"{found}: not JSON (line {e.lineno}: {e.msg})") from None
        if not isinstance(raw, dict):
            raise DeviceConfigError(f"{found}: expected a JSON object")
    source = str(found) if found is not None else "defaults"
    pins_raw = raw.get("pins", {})
    if not isinstance(pins_raw, dict):
        raise DeviceConfigError(f"{source}: pins: expected an object")
    pins = parse_pin_map({**default_pin_data(), **pins_raw}, f"{source}: pins")
    camera = raw.get("camera", {})
    if not isinstance(camera, dict):
        raise DeviceConfigError(f"{source}: camera: expected an object")
    kind = camera.get("kind", DEFAULT_CAMERA["kind"])
    options = camera.get("options", {})
    if not isinstance(kind, str) or not isinstance(options, dict):
        raise DeviceConfigError(f"{source}: camera: expected a kind (string) and options (object)")
    extra = {k: v for k, v in raw.items() if k not in ("camera", "pins")}
    return DeviceConfig(kind, dict(options), pins, source, extra)
