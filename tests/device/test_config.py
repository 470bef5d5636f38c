"""The device config: the documented default pin map, overrides from one file, one-line refusals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from device import tracker as tracker_module
from device.config import default_pin_data, default_pin_map, load_config, parse_pin_map
from device.errors import DeviceConfigError
from device.tracker import RoundTracker, make_pin_factory


def test_default_pin_map_is_complete_and_documented() -> None:
    pins = default_pin_map()
    assert len(pins.rounds) == 15 and len(pins.seats) == 4
    every = pins.all_pins()
    assert len(every) == 25 and len({p.upper() for p in every.values()}) == 25
    assert (pins.hold_time, pins.bounce_time, pins.round_display) == (1.0, 0.05, "current")
    assert "WIRING.md" in default_pin_data()["about"]


def test_config_file_overrides_some_pins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "config.json"
    path.write_text(json.dumps({"camera": {"kind": "folder:/srv/frames"}, "pins": {"status": 11, "hold_time": 2}}))
    monkeypatch.setenv("SHAKECITY_CONFIG", str(path))
    config = load_config()
    assert config.source == str(path)
    assert config.pins.status == "GPIO11" and config.pins.hold_time == 2.0
    assert config.pins.rounds == default_pin_map().rounds
    assert config.camera_kind == "folder:/srv/frames"


@pytest.mark.parametrize(
    ("pins", "message"),
    [
        ({"status": "GPIO17"}, "status and round_1 are both on GPIO17"),
        ({"rounds": ["GPIO5"] * 3}, "rounds: expected a list of 15 pin names"),
        ({"colour": "red"}, "unknown key 'colour'"),
        ({"hold_time": -1}, "hold_time: expected a number of seconds >= 0"),
        ({"round_display": "sparkle"}, "round_display: expected one of current, progress"),
    ],
)
def test_bad_pin_maps_are_refused_in_one_line(tmp_path: Path, pins: dict, message: str) -> None:
    path = tmp_path / "config.json"
    path.write_text(json.dumps({"pins": pins}))
    with pytest.raises(DeviceConfigError) as caught:
        load_config(path)
    assert message in str(caught.value) and "\n" not in str(caught.value)


def test_unreadable_config_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "config.json"
    path.write_text("{not json")
    with pytest.raises(DeviceConfigError, match=r"config.json: not JSON \(line 1"):
        load_config(path)
    with pytest.raises(DeviceConfigError, match="cannot read"):
        load_config(tmp_path / "missing.json")


def test_parse_pin_map_needs_every_part() -> None:
    data = default_pin_data()
    del data["undo"]
    with pytest.raises(DeviceConfigError, match="missing 'undo'"):
        parse_pin_map(data)


def test_pin_factory_choice(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.setattr(tracker_module, "PI_MODEL_FILE", tmp_path / "model")  # not a Pi
    off_pi = make_pin_factory("auto")
    assert isinstance(off_pi, MockFactory)
    off_pi.close()
    (tmp_path / "model").write_text("Raspberry Pi 5 Model B Rev 1.0\x00")
    assert tracker_module.on_raspberry_pi(tmp_path / "model")
    monkeypatch.setattr(tracker_module, "PI_MODEL_FILE", tmp_path / "model")
    assert make_pin_factory(None) is None  # on a Pi, gpiozero's own default (lgpio) chooses
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    from_env = make_pin_factory(None)
    assert isinstance(from_env, MockFactory)
    from_env.close()
    with pytest.raises(ValueError, match="unknown pin factory 'wiringpi'; factories are auto, lgpio, mock"):
        make_pin_factory("wiringpi")


def test_tracker_from_kind_owns_and_closes_its_factory(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SHAKECITY_CONFIG", raising=False)
    t = RoundTracker.from_kind("mock")
    factory = t.factory
    assert t.snapshot()["pins"] == "mock pins" and t.snapshot()["pin_factory"] == "MockFactory"
    t.close()
    assert t.factory is None and not factory.pins  # every pin released


def test_unknown_button_and_status_are_refused(tracker: RoundTracker) -> None:
    with pytest.raises(ValueError, match="buttons are next_round, rescan, undo"):
        tracker.press("reset")
    with pytest.raises(ValueError, match="statuses are off, reading, pattern, error"):
        tracker.set_status("panic")
