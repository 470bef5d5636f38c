"""The table page over device/: virtual round-tracker buttons and LEDs on mock pins, and the simulated
camera's shakes read by the live reader and taken by the game through the store."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from web.app import close_app
from web.table import StoreTableActions

from .conftest import AUTH, PATTERN, make_app


@pytest.fixture
def tracked_app(tmp_path: Path) -> Iterator[Flask]:
    app = make_app(tmp_path / "data", PINS="mock")
    yield app
    close_app(app)


def test_store_actions_satisfy_the_device_protocol(tracked_app: Flask) -> None:
    from device.table import TableActions

    actions = tracked_app.extensions["table"].actions
    assert isinstance(actions, StoreTableActions)
    assert isinstance(actions, TableActions)
    assert actions.state() is None


def test_virtual_buttons_drive_the_game_and_the_leds(tracked_app: Flask) -> None:
    client = tracked_app.test_client()
    device = client.get("/api/device").json
    assert device["tracker"]["pins"] == "mock pins"
    assert not any(device["tracker"]["rounds"])
    client.post("/api/games", json={"players": ["Ann", "Bo"]}, headers=AUTH)
    leds = client.get("/api/device").json["tracker"]
    assert leds["rounds"][:2] == [True, False] and leds["seats"][:2] == [True, False]
    client.post("/api/shake", json={"pattern": PATTERN}, headers=AUTH)
    client.post("/api/place", json={"player": "Ann", "colour": "red", "row": 0, "col": 0}, headers=AUTH)
    # next round pressed too early: the game refuses, nothing moves
    r = client.post("/api/tracker/next_round", headers=AUTH)
    assert r.status_code == 200
    assert client.get("/api/game").json["round"] == 1
    client.post("/api/place", json={"player": "Bo", "colour": "blue", "row": 0, "col": 0}, headers=AUTH)
    time.sleep(tracked_app.extensions["table"].tracker.pins.bounce_time or 0)  # a second press, not a bounce
    r = client.post("/api/tracker/next_round", headers=AUTH)
    assert r.json["tracker"]["rounds"][:2] == [False, True]
    assert r.json["tracker"]["seats"][:2] == [False, True]
    assert client.get("/api/game").json["round"] == 2
    # a short press of undo does nothing; a hold takes the last action back
    client.post("/api/tracker/undo", headers=AUTH)
    assert client.get("/api/game").json["round"] == 2
    r = client.post("/api/tracker/undo", json={"hold": True}, headers=AUTH)
    assert r.json["tracker"]["rounds"][:2] == [True, False]
    game = client.get("/api/game").json
    assert game["round"] == 1 and game["phase"] == "next_round"
    r = client.post("/api/tracker/launch", headers=AUTH)
    assert r.status_code == 400
    assert "unknown button" in r.json["error"]


def test_device_events_reach_the_event_stream(tracked_app: Flask) -> None:
    client: FlaskClient = tracked_app.test_client()
    client.post("/api/games", json={"players": ["Ann"]}, headers=AUTH)
    stream = client.get("/api/events", buffered=False)
    chunks = (c.decode() for c in stream.response)
    assert next(chunks).startswith("retry:")
    next(chunks)  # hello
    client.post("/api/shake", json={"pattern": PATTERN}, headers=AUTH)
    seen = [next(chunks) for _ in range(2)]
    kinds = [c.split("\n", 1)[0] for c in seen]
    assert kinds == ["event: game", "event: device"]
    leds = json.loads(seen[1].split("data: ", 1)[1])
    assert leds["type"] == "leds" and leds["status"]["mode"] == "pattern"
    stream.close()


def wait_for(condition: Any, seconds: float) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    return condition()


def test_the_simulated_camera_shakes_and_the_game_takes_the_pattern(tmp_path: Path) -> None:
    options = {"covered_s": 0.4, "lifted_s": 60.0, "fps": 20.0, "seed": 3, "width": 640, "height": 480}
    app = make_app(tmp_path / "data", CAMERA="simulated", PINS="mock", CAMERA_OPTIONS=options)
    try:
        table = app.extensions["table"]
        assert table.camera is not None and table.loop is not None, table.device_note
        client = app.test_client()
        client.post("/api/games", json={"players": ["Ann", "Bo"], "variants": ["wild_nights"]}, headers=AUTH)
        game = wait_for(lambda: client.get("/api/game").json["pattern"] and client.get("/api/game").json, 30)
        assert game, "the camera's shake never reached the game"
        shake = table.store.current().log[0]
        assert shake.payload["type"] == "shake"
        assert game["pattern"] == shake.payload["pattern"]
        r = client.get("/api/camera.jpg")
        assert r.status_code == 200 and r.mimetype == "image/jpeg"
        assert r.data[:3] == b"\xff\xd8\xff"
        assert client.get("/api/device").json["camera"] == "simulated"
    finally:
        close_app(app)
