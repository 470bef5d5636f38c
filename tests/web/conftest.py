"""Shared fixtures for the table page: an app on a temporary data folder, its client and CLI runner."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner

from web.app import close_app, create_app

PIN = "4321"
AUTH = {"X-Table-Pin": PIN}
# A pattern every 2-player inland game can take: red x3, blue x3, green, gray, black.
PATTERN = [["red", "red", "blue"], ["green", "gray", "black"], ["red", "blue", "blue"]]


def make_app(data_dir: Path, **config: Any) -> Flask:
    return create_app({"TESTING": True, "DATA_DIR": str(data_dir), "TABLE_PIN": PIN, "SHAKE_SEED": 7, **config})


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    app = make_app(tmp_path / "data")
    yield app
    close_app(app)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    return app.test_cli_runner()


@pytest.fixture
def game(client: FlaskClient) -> dict[str, Any]:
    """A two-player inland game, set up."""
    r = client.post("/api/games", json={"players": ["Ann", "Bo"], "side": "inland", "variants": []}, headers=AUTH)
    assert r.status_code == 201, r.json
    return r.json


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """Keep each phase's report on the test item, so fixtures can tell a failed test (browser screenshots)."""
    report = yield
    setattr(item, f"report_{report.when}", report)
    return report
