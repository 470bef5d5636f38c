"""The Flask application factory: config defaults, then the instance file, then the test mapping.

``create_app()`` opens the table (store, events, optional devices) once and attaches it to the app as
``app.extensions["table"]``; :func:`close_app` closes it (tests, server shutdown).
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

from flask import Flask, current_app, jsonify, request
from werkzeug.exceptions import HTTPException

from .security import PinGuard, new_pin
from .table import Table

MAX_UPLOAD_BYTES = 12 * 1024 * 1024  # a 12 MP phone JPEG is 3-6 MB


def _secret_key(data_dir: Path) -> bytes:
    """A key kept in the data folder, so joined phones stay joined across restarts."""
    path = data_dir / "secret_key"
    try:
        key = path.read_bytes()
        if len(key) >= 32:
            return key
    except FileNotFoundError:
        pass
    key = secrets.token_bytes(32)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(key)
    return key


def _kept_pin(data_dir: Path) -> str:
    """A PIN made once and kept in the data folder, so a restart (or a pulled plug) keeps phones joined."""
    path = data_dir / "table-pin"
    try:
        pin = path.read_text(encoding="utf-8").strip()
        if pin:
            return pin
    except FileNotFoundError:
        pass
    pin = new_pin()
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(pin + "\n")
    return pin


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the table app. ``test_config`` (a mapping) overrides the instance file's settings."""
    app = Flask(__name__, instance_relative_config=True)
    app.config.from_mapping(
        DATA_DIR=None,  # default: the instance folder
        TABLE_PIN=None,  # default: a six-digit PIN made once and kept in DATA_DIR/table-pin
        SECRET_KEY=None,  # default: kept in DATA_DIR/secret_key
        MAX_CONTENT_LENGTH=MAX_UPLOAD_BYTES,
        MAX_STREAMS=64,  # open event streams; keep below the server's thread count
        PIN_TRIES=10,  # wrong PINs from one address before it must wait ...
        PIN_LOCK_SECONDS=600,  # ... this long (a 6-digit PIN is otherwise guessed in minutes)
        SHAKE_SEED=None,  # the demo's random shakes (None: unpredictable)
        CAMERA="none",  # "none", or a device camera kind ("simulated", "auto", ...)
        CAMERA_OPTIONS={},  # passed to device.cameras.open_camera (e.g. the simulated camera's timings)
        PINS="none",  # "none", or a device pin factory kind ("mock", "auto", ...)
        JOIN_URL=None,  # the address phones should use; default: from the request
        SESSION_COOKIE_SAMESITE="Strict",
        SESSION_COOKIE_HTTPONLY=True,
    )
    app.json.sort_keys = False  # type: ignore[attr-defined]  # keep the documented key order
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
    else:
        app.config.from_mapping(test_config)
    data_dir = Path(app.config["DATA_DIR"] or app.instance_path)
    data_dir.mkdir(parents=True, exist_ok=True)
    app.config["DATA_DIR"] = str(data_dir)
    if not app.config["SECRET_KEY"]:
        app.config["SECRET_KEY"] = _secret_key(data_dir)
    if not app.config["TABLE_PIN"]:
        app.config["TABLE_PIN"] = _kept_pin(data_dir)
    app.config["TABLE_PIN"] = str(app.config["TABLE_PIN"]).strip()

    table = Table(data_dir, max_streams=int(app.config["MAX_STREAMS"]), seed=app.config["SHAKE_SEED"])
    app.extensions["table"] = table
    app.extensions["pin_guard"] = PinGuard(
        limit=int(app.config["PIN_TRIES"]), window=float(app.config["PIN_LOCK_SECONDS"])
    )
    from . import devices

    camera, pins = str(app.config["CAMERA"]), str(app.config["PINS"])
    devices.attach(table, camera=camera, pins=pins, camera_options=dict(app.config["CAMERA_OPTIONS"]))

    from . import api, pages

    app.register_blueprint(api.bp)
    app.register_blueprint(pages.bp)

    @app.errorhandler(HTTPException)
    def http_error(e: HTTPException) -> Any:
        if request.path.startswith("/api/"):
            reason = e.description or e.name
            if e.code == 413:
                reason = f"the upload is larger than the {app.config['MAX_CONTENT_LENGTH'] // (1024 * 1024)} MB limit"
            return jsonify(error=reason), e.code
        return e

    return app


def get_table() -> Table:
    return current_app.extensions["table"]


def close_app(app: Flask) -> None:
    """Close the table's database, devices and event streams."""
    table = app.extensions.pop("table", None)
    if table is not None:
        table.close()
