"""The route table is exactly the documented API and pages: a new route must be documented (and tested)."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskCliRunner

from .conftest import PIN

API = {
    ("GET", "/api/game"),
    ("POST", "/api/games"),
    ("GET", "/api/games"),
    ("GET", "/api/games/<int:game_id>"),
    ("GET", "/api/games/<int:game_id>/export.json"),
    ("GET", "/api/games/<int:game_id>/export.csv"),
    ("GET", "/api/games/<int:game_id>/log"),
    ("POST", "/api/shake"),
    ("POST", "/api/choose"),
    ("POST", "/api/place"),
    ("POST", "/api/next-round"),
    ("POST", "/api/undo"),
    ("PUT", "/api/boards/<path:player>"),
    ("POST", "/api/boards/<path:player>/photo"),
    ("POST", "/api/boards/<path:player>/camera"),
    ("PUT", "/api/bonus/<path:player>"),
    ("GET", "/api/photos/<name>"),
    ("POST", "/api/calibration/board"),
    ("POST", "/api/calibration/colours"),
    ("GET", "/api/calibration"),
    ("GET", "/api/camera.jpg"),
    ("GET", "/api/device"),
    ("POST", "/api/tracker/<button>"),
    ("GET", "/api/events"),
}
PAGES = {
    ("GET", "/"),
    ("GET", "/join"),
    ("POST", "/join"),
    ("POST", "/leave"),
    ("GET", "/setup"),
    ("POST", "/setup"),
    ("GET", "/join-qr.svg"),
    ("GET", "/table"),
    ("GET", "/boards"),
    ("GET", "/scores"),
    ("GET", "/history"),
    ("GET", "/history/<int:game_id>"),
    ("GET", "/static/<path:filename>"),
}
WRITES_WITHOUT_PIN = {("POST", "/join"), ("POST", "/leave"), ("POST", "/setup")}  # forms: CSRF (+ session PIN)


def routes(app: Flask) -> set[tuple[str, str]]:
    return {(m, r.rule) for r in app.url_map.iter_rules() for m in r.methods or () if m not in ("HEAD", "OPTIONS")}


def test_the_route_table_is_the_documented_one(app: Flask) -> None:
    assert routes(app) == API | PAGES


def test_every_api_write_needs_the_pin(app: Flask) -> None:
    client = app.test_client()
    for method, rule in sorted(API):
        if method == "GET":
            continue
        path = rule.replace("<path:player>", "Ann").replace("<button>", "undo")
        r = client.open(path, method=method, json={})
        assert r.status_code == 403, (method, path)
        assert "PIN" in r.json["error"]


def test_the_route_table_through_the_cli_runner(runner: FlaskCliRunner) -> None:
    from flask.cli import routes_command

    result = runner.invoke(routes_command)
    assert result.exit_code == 0
    for _, rule in API:
        assert rule in result.output
    assert PIN not in result.output
