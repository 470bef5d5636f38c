"""The API over the vision readers, on the project's own generated scenes: a shake photo read into the
round's pattern, the shaker's colours calibrated, the board reader calibrated and a board photo read."""

from __future__ import annotations

import io
import json
import random
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from flask.testing import FlaskClient

from web.app import close_app

from .conftest import AUTH, PATTERN, make_app


def jpeg(frame_bgr: np.ndarray) -> io.BytesIO:
    ok, data = cv2.imencode(".jpg", frame_bgr, [cv2.IMWRITE_JPEG_QUALITY, 92])
    assert ok
    return io.BytesIO(data.tobytes())


def shake_photo(pattern: list[list[str]], seed: int) -> np.ndarray:
    from vision.shaker_scene import render_shake

    frame_bgr, truth = render_shake(pattern, random.Random(seed))
    assert truth["valid"] is True
    return frame_bgr


def test_a_shake_photo_becomes_the_rounds_pattern(client: FlaskClient, game: dict[str, Any]) -> None:
    r = client.post("/api/shake", data={"photo": (jpeg(shake_photo(PATTERN, 5)), "shake.jpg")}, headers=AUTH)
    assert r.status_code == 200, r.json
    assert r.json["pattern"] == PATTERN


def test_a_shake_photo_of_an_incomplete_pattern_means_shake_again(client: FlaskClient, game: dict[str, Any]) -> None:
    from vision.shaker_scene import render_shake

    frame_bgr, truth = render_shake(PATTERN, random.Random(9), knocked_out=True)
    assert truth["valid"] is False
    r = client.post("/api/shake", data={"photo": (jpeg(frame_bgr), "shake.jpg")}, headers=AUTH)
    assert r.status_code == 400
    assert r.json["error"].startswith("shake again")
    assert client.get("/api/game").json["pattern"] is None


def test_colour_calibration_from_a_named_photo(client: FlaskClient, game: dict[str, Any], app: Any) -> None:
    photo = shake_photo(PATTERN, 21)
    r = client.post("/api/calibration/colours", data={"pattern": json.dumps(PATTERN)})
    assert r.status_code == 403
    r = client.post(
        "/api/calibration/colours", data={"pattern": "[[1]]", "photo": (jpeg(photo), "c.jpg")}, headers=AUTH
    )
    assert r.status_code == 400
    r = client.post("/api/calibration/colours", data={"pattern": json.dumps(PATTERN)}, headers=AUTH)
    assert r.status_code == 400
    assert "no camera" in r.json["error"]
    blank = jpeg(np.full((480, 640, 3), 90, np.uint8))
    r = client.post(
        "/api/calibration/colours", data={"pattern": json.dumps(PATTERN), "photo": (blank, "c.jpg")}, headers=AUTH
    )
    assert r.status_code == 400
    assert "no complete 3 x 3 grid" in r.json["error"]
    assert client.get("/api/calibration").json["colours"] is False
    data = {"pattern": json.dumps(PATTERN), "photo": (jpeg(photo), "c.jpg")}
    r = client.post("/api/calibration/colours", data=data, headers=AUTH)
    assert r.status_code == 200, r.json
    assert r.json["palette"]["calibrated"] is True
    assert client.get("/api/calibration").json["colours"] is True
    assert [p.name for p in Path(app.config["DATA_DIR"]).glob("*.png")] == []  # the temporary photo is gone
    # the calibrated palette reads the next shake
    other = [["blue", "black", "blue"], ["green", "green", "gray"], ["red", "gray", "black"]]
    r = client.post("/api/shake", data={"photo": (jpeg(shake_photo(other, 6)), "shake.jpg")}, headers=AUTH)
    assert r.status_code == 200, r.json
    assert r.json["pattern"] == other


@pytest.fixture(scope="module")
def board_scene() -> Any:
    from vision.board_scene import random_scene, render_calibration_pair
    from web.pages import KNOWN_LAYOUT

    rng = random.Random(77)
    scene = random_scene(rng)
    empty, known, _ = render_calibration_pair(rng, scene=scene, known_grid=list(KNOWN_LAYOUT), width=1280, height=960)
    return scene, empty, known


def test_board_reader_calibrated_then_a_photo_read(client: FlaskClient, game: dict[str, Any], board_scene: Any) -> None:
    from vision.board_scene import render_board_photo
    from web.pages import KNOWN_LAYOUT

    scene, empty, known = board_scene
    form = {"empty": (jpeg(empty), "e.jpg"), "known": (jpeg(known), "k.jpg"), "known_board": json.dumps(KNOWN_LAYOUT)}
    r = client.post("/api/calibration/board", data=form, headers=AUTH)
    assert r.status_code == 200, r.json
    assert client.get("/api/calibration").json["board"] is True
    grid = ["HHSSRR", "PPFFRR", "HSRRPF", "......", "RRRRRR", "SS..HH"]
    photo, _ = render_board_photo(grid, random.Random(1), scene=scene, camera=scene.camera, light=scene.light)
    r = client.post("/api/boards/Bo/photo", data={"photo": (jpeg(photo), "b.jpg")}, headers=AUTH)
    assert r.status_code == 200
    reading = r.json
    assert reading["found"] is True
    assert reading["grid"] == grid
    assert len(reading["confidence"]) == 6 and len(reading["outline"]) == 4
    r = client.put(
        "/api/boards/Bo", json={"grid": reading["grid"], "source": "photo", "photo": reading["photo"]}, headers=AUTH
    )
    bo = r.json["players"][1]
    assert bo["board"] == grid and bo["board_source"] == "photo" and bo["photo"] == reading["photo"]


def test_board_and_shake_from_the_table_camera(tmp_path: Path) -> None:
    options = {"covered_s": 0.0, "lifted_s": 3600.0, "fps": 10.0, "patterns": [PATTERN], "width": 1024, "height": 768}
    app = make_app(tmp_path / "data", CAMERA="simulated", CAMERA_OPTIONS=options)
    try:
        client = app.test_client()
        client.post("/api/games", json={"players": ["Ann"]}, headers=AUTH)
        table = app.extensions["table"]
        for _ in range(100):  # the camera's first frame (a bounded wait, nothing timed is asserted)
            if table.camera.latest() is not None:
                break
            time.sleep(0.05)
        r = client.post("/api/shake", json={"camera": True}, headers=AUTH)
        assert r.status_code == 200, r.json
        assert r.json["pattern"] == PATTERN
        r = client.post("/api/boards/Ann/camera", headers=AUTH)
        assert r.status_code == 200
        assert r.json["photo"].endswith(".jpg") and "found" in r.json
        with client.get(r.json["photo_url"]) as photo:
            assert photo.data[:3] == b"\xff\xd8\xff"
    finally:
        close_app(app)


def test_camera_routes_without_a_camera(client: FlaskClient, game: dict[str, Any]) -> None:
    r = client.post("/api/shake", json={"camera": True}, headers=AUTH)
    assert r.status_code == 400 and "no camera" in r.json["error"]
    r = client.post("/api/boards/Ann/camera", headers=AUTH)
    assert r.status_code == 400 and "no camera" in r.json["error"]
