"""The HTTP API (JSON in, JSON out). Thin views: check the input, call the store and the engine.

Writes need the table PIN: the header ``X-Table-Pin``, or a page session that joined with it plus the
session's CSRF token in ``X-CSRF-Token``. Any write may carry ``"seq"`` (the step the client saw; also
the ``X-Game-Seq`` header or a form field): if the game has moved on it is refused with 409.

Reads
    GET  /api/game                         the current game (404 before the first set-up)
    GET  /api/games                        past games, newest first: {"games": [summary, ...]}
    GET  /api/games/<id>                   one game, as /api/game
    GET  /api/games/<id>/log               every log row, undone ones marked with undone_at
    GET  /api/games/<id>/export.json|.csv  the game to download
    GET  /api/events                       Server-Sent Events: "game" (id = version) and "device"
    GET  /api/device                       camera, virtual LEDs (tracker snapshot), device note
    GET  /api/camera.jpg                   the camera's latest picture
    GET  /api/calibration                  {"board": bool, "colours": bool}
    GET  /api/photos/<name>                a kept photo (only names this server made)
Writes
    POST /api/games                        {"players", "side"?, "variants"?, "bonus_order"?, "bonus"?, "construction"?}
    POST /api/shake                        {"pattern"} | {"simulate": true} | {"camera": true} | multipart photo
    POST /api/choose                       {"player", "colour", "wilds"?}
    POST /api/place                        {"player", "colour", "wilds"?, "row", "col"}
    POST /api/next-round, /api/undo
    PUT  /api/boards/<player>              {"grid", "source"?: "photo" | "correction", "photo"?}
    POST /api/boards/<player>/photo        multipart photo: the reading, to confirm with PUT /api/boards
    POST /api/boards/<player>/camera       the same, from the table camera
    PUT  /api/bonus/<player>               {"tile", "flipped": true | false | null}
    POST /api/calibration/board            multipart empty, known, known_board (JSON rows), side
    POST /api/calibration/colours          multipart pattern (JSON 3 x 3), photo (else the camera)
    POST /api/tracker/<button>             next_round | rescan | undo, {"hold": true} to hold

Refusals: 400 with ``{"error": reason, "legal_now": ...}`` for anything the engine or a reader refuses
(it names what is legal; an illegal placement also lists the legal spots), 403 without the PIN
(nothing changes), 404 for no game, 409 for a stale double submit, 413 for an oversized upload, 429
after too many wrong PINs from one address, 503 when every event-stream slot is taken.
"""

from __future__ import annotations

import json
import os
import re
import uuid
from typing import Any

from flask import Blueprint, Response, abort, jsonify, request, send_from_directory

from scoring.errors import IllegalAction
from scoring.shake_that_city.game import (
    Choose,
    NextRound,
    Place,
    Setup,
    Shake,
    describe_legal,
    legal_choices,
    placements,
    waiting_for_active,
)
from scoring.shake_that_city.pattern import Pattern

from . import convert
from .app import get_table
from .devices import read_shaker_photo
from .events import TooManyStreams, format_event
from .security import needs_pin
from .store import NoGame, StaleRequest

bp = Blueprint("api", __name__, url_prefix="/api")

PHOTO_NAME = re.compile(r"^[0-9]{1,9}-[0-9a-f]{32}\.(jpg|png)$")
IMAGE_TYPES = {b"\xff\xd8\xff": "jpg", b"\x89PNG\r\n\x1a\n": "png"}
SETUP_KEYS = {"players", "side", "variants", "bonus_order", "bonus", "construction"}


# ----------------------------------------------------------------------------------------- helpers


@bp.after_request
def refresh_devices(response: Response) -> Response:
    """After a change made from a page, show it on the round tracker (outside the store's lock)."""
    if request.method in ("POST", "PUT") and response.status_code < 400 and request.endpoint != "api.press":
        get_table().refresh_devices()
    return response


@bp.errorhandler(StaleRequest)
def stale(e: StaleRequest) -> Any:
    return jsonify(error=str(e)), 409


@bp.errorhandler(NoGame)
def no_game(e: NoGame) -> Any:
    return jsonify(error=str(e.args[0] if e.args else e)), 404


@bp.errorhandler(ValueError)
def refused(e: ValueError) -> Any:
    """Every engine and reader error subclasses ValueError: one refusal with the reason."""
    body: dict[str, Any] = {"error": str(e)}
    record = get_table().store.current_or_none()
    if record is not None:
        body["legal_now"] = describe_legal(record.game.state)
    return jsonify(body), 400


def body() -> dict[str, Any]:
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise IllegalAction("expected a JSON object as the request body (Content-Type: application/json)")
    return data


def expect_seq(data: dict[str, Any]) -> int | None:
    """The optional ``seq`` a page sends: the step it saw, so a double submit is refused (409)."""
    seq = data.get("seq")
    if seq is None:
        seq = request.headers.get("X-Game-Seq") or request.form.get("seq")
    if seq is None or seq == "":
        return None
    try:
        return int(seq)
    except (TypeError, ValueError):
        raise IllegalAction(f"seq: expected a whole number, got {seq!r}") from None


def game_response(status: int = 200) -> Any:
    store = get_table().store
    with store.lock:
        body = convert.game_view_bytes(store.current())
    return Response(body, status=status, mimetype="application/json", headers={"Cache-Control": "no-store"})


def upload(field: str) -> tuple[bytes, str]:
    """An uploaded image's bytes and type, checked (present, size, JPEG or PNG) before any decoding."""
    f = request.files.get(field)
    if f is None:
        raise IllegalAction(f"{field}: expected a multipart file field {field!r} with a JPEG or PNG photo")
    data = f.read(upload_limit() + 1)
    if len(data) > upload_limit():
        abort(413)
    if not data:
        raise IllegalAction(f"{field}: the file is empty")
    for magic, kind in IMAGE_TYPES.items():
        if data.startswith(magic):
            return data, kind
    raise IllegalAction(f"{field}: not a JPEG or PNG image")


def upload_limit() -> int:
    from flask import current_app

    return int(current_app.config["MAX_CONTENT_LENGTH"])


def decode(data: bytes, what: str) -> Any:
    from vision.image_io import decode_image_bytes

    return decode_image_bytes(data, what)


# ------------------------------------------------------------------------------------------- games


@bp.get("/game")
def game() -> Any:
    return game_response()


@bp.post("/games")
@needs_pin
def create_game() -> Any:
    data = body()
    unknown = set(data) - SETUP_KEYS - {"seq"}
    if unknown:
        raise IllegalAction(
            f"unknown set-up keys: {', '.join(sorted(unknown))}; keys are {', '.join(sorted(SETUP_KEYS))}"
        )
    if "players" not in data:
        raise IllegalAction("players: missing (a list of 1 to 4 names in seating order)")
    setup = Setup.create(
        data["players"],
        data.get("side", "inland"),
        data.get("variants") or (),
        bonus_order=data.get("bonus_order"),
        bonus=data.get("bonus"),
        construction=data.get("construction"),
    )
    get_table().store.create_game(setup)
    return game_response(201)


@bp.get("/games")
def games() -> Any:
    store = get_table().store
    with store.lock:
        return jsonify(games=[convert.game_summary(store.load(gid)) for gid, _, _ in store.games()])


@bp.get("/games/<int:game_id>")
def game_by_id(game_id: int) -> Any:
    store = get_table().store
    with store.lock:
        return jsonify(convert.game_view(store.load(game_id)))


@bp.get("/games/<int:game_id>/export.json")
def export_json(game_id: int) -> Any:
    store = get_table().store
    with store.lock:
        text = json.dumps(convert.game_export(store.load(game_id), store.full_log(game_id)), indent=2)
    return Response(
        text,
        mimetype="application/json",
        headers={"Content-Disposition": f'attachment; filename="shakecity-game-{game_id}.json"'},
    )


@bp.get("/games/<int:game_id>/export.csv")
def export_csv(game_id: int) -> Any:
    store = get_table().store
    with store.lock:
        text = convert.game_csv(store.load(game_id))
    return Response(
        text,
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="shakecity-game-{game_id}.csv"'},
    )


@bp.get("/games/<int:game_id>/log")
def game_log(game_id: int) -> Any:
    store = get_table().store
    store.load(game_id)
    return jsonify(log=[convert.log_entry_json(e) for e in store.full_log(game_id)])


# ----------------------------------------------------------------------------------------- actions


@bp.post("/shake")
@needs_pin
def shake() -> Any:
    table = get_table()
    if request.files:
        data, _ = upload("photo")
        frame_bgr = decode(data, "photo")
        record = table.store.current()
        reading = read_shaker_photo(frame_bgr, table.palette(), record.game.state.shaker())
        if not reading.valid:
            raise IllegalAction(f"shake again: {reading.reason or 'no complete 3 x 3 pattern in the photo'}")
        table.store.apply(Shake(Pattern.parse(reading.pattern)), expect_seq(request.form.to_dict()))
        return game_response()
    data = body()
    seq = expect_seq(data)
    if data.get("camera") is True:
        record = table.store.current()
        reading = read_shaker_photo(camera_frame(), table.palette(), record.game.state.shaker())
        if not reading.valid:
            raise IllegalAction(f"shake again: {reading.reason or 'no complete 3 x 3 pattern under the camera'}")
        pattern = Pattern.parse(reading.pattern)
    elif data.get("simulate") is True:
        record = table.store.current()
        pattern = simulated_pattern(record.game.state.shaker())
    elif "pattern" in data:
        pattern = Pattern.parse(data["pattern"])
    else:
        raise IllegalAction(
            'expected {"pattern": [[3 colours], [3 colours], [3 colours]]}, {"camera": true}, {"simulate": true} '
            "or a multipart photo"
        )
    table.store.apply(Shake(pattern), seq)
    return game_response()


def simulated_pattern(shaker: dict[str, int]) -> Pattern:
    """The demo's shake: nine cubes drawn from what the shaker holds, with the table's seeded random."""
    table = get_table()
    cubes = [colour for colour, n in shaker.items() for _ in range(n)]
    with table.rng_lock:
        drawn = table.rng.sample(cubes, 9)
    return Pattern.parse([drawn[0:3], drawn[3:6], drawn[6:9]])


def _player_choice(data: dict[str, Any]) -> tuple[str, str, bool]:
    player, colour, wilds = data.get("player"), data.get("colour"), data.get("wilds", False)
    if not isinstance(player, str):
        raise IllegalAction("player: expected a player's name")
    if not isinstance(colour, str):
        raise IllegalAction("colour: expected a colour name")
    if not isinstance(wilds, bool):
        raise IllegalAction("wilds: expected true or false")
    return player, colour, wilds


@bp.post("/choose")
@needs_pin
def choose() -> Any:
    data = body()
    player, colour, wilds = _player_choice(data)
    get_table().store.apply(Choose(player, colour, wilds), expect_seq(data))
    return game_response()


@bp.post("/place")
@needs_pin
def place() -> Any:
    data = body()
    player, colour, wilds = _player_choice(data)
    row, col = data.get("row"), data.get("col")
    for name, value in (("row", row), ("col", col)):
        if not isinstance(value, int) or isinstance(value, bool):
            raise IllegalAction(f"{name}: expected a whole number, got {value!r}")
    store = get_table().store
    try:
        store.apply(Place(player, colour, wilds, row, col), expect_seq(data))
    except StaleRequest:
        raise
    except IllegalAction as e:
        state = store.current().game.state
        legal: list[dict[str, Any]] = []
        try:
            if not waiting_for_active(state, player):
                legal = [
                    {**convert.choice_json(c), "spots": [list(a) for a in placements(state, player, c)]}
                    for c in legal_choices(state, player)
                ]
        except IllegalAction:
            pass
        return jsonify(error=str(e), legal_now=describe_legal(state), legal=legal), 400
    return game_response()


@bp.post("/next-round")
@needs_pin
def next_round() -> Any:
    data = request.get_json(silent=True) or {}
    get_table().store.apply(NextRound(), expect_seq(data if isinstance(data, dict) else {}))
    return game_response()


@bp.post("/undo")
@needs_pin
def undo() -> Any:
    data = request.get_json(silent=True) or {}
    record, entry = get_table().store.undo(expect_seq(data if isinstance(data, dict) else {}))
    with get_table().store.lock:
        view = dict(convert.game_view(record))
    view["undone"] = convert.log_entry_json(entry)
    return jsonify(view)


# ------------------------------------------------------------------------------------------ boards


@bp.put("/boards/<path:player>")
@needs_pin
def set_board(player: str) -> Any:
    data = body()
    source = data.get("source", "correction")
    if source not in ("photo", "correction"):
        raise IllegalAction("source: expected photo or correction")
    photo = data.get("photo")
    if photo is not None and (not isinstance(photo, str) or not PHOTO_NAME.match(photo)):
        raise IllegalAction("photo: expected the name of a photo uploaded to this table")
    get_table().store.set_board(player, data.get("grid"), source, photo, expect_seq(data))
    return game_response()


@bp.put("/bonus/<path:player>")
@needs_pin
def set_bonus(player: str) -> Any:
    """Confirm or deny a bonus tile's flip by hand: ``{"tile": name, "flipped": true | false | null}``."""
    data = body()
    if "flipped" not in data:
        raise IllegalAction("flipped: missing (true, false, or null to let the engine decide)")
    get_table().store.set_bonus(player, data.get("tile"), data["flipped"], expect_seq(data))
    return game_response()


@bp.post("/boards/<path:player>/photo")
@needs_pin
def board_photo(player: str) -> Any:
    """Read a board photo; the reading comes back to confirm and correct (``PUT /api/boards/<player>``)."""
    record = get_table().store.current()
    record.game.state.player(player)  # 400 naming the players if unknown
    data, kind = upload("photo")
    return jsonify(board_reading(record, player, data, kind, decode(data, "photo")))


@bp.post("/boards/<path:player>/camera")
@needs_pin
def board_from_camera(player: str) -> Any:
    """Read a board laid under the table's camera (its latest picture)."""
    table = get_table()
    record = table.store.current()
    record.game.state.player(player)
    frame_bgr = camera_frame()
    import cv2

    ok, jpeg = cv2.imencode(".jpg", frame_bgr, [cv2.IMWRITE_JPEG_QUALITY, 92])
    if not ok:
        raise IllegalAction("could not encode the camera picture")
    return jsonify(board_reading(record, player, jpeg.tobytes(), "jpg", frame_bgr))


def camera_frame() -> Any:
    """The camera's latest picture as a BGR array, or a refusal saying why there is none."""
    table = get_table()
    if table.camera is None:
        raise IllegalAction(f"there is no camera: {table.device_note}")
    frame = table.camera.latest()
    if frame is None:
        raise IllegalAction("the camera has no picture yet; try again in a moment")
    return getattr(frame, "frame_bgr", frame)


def board_reading(record: Any, player: str, data: bytes, kind: str, photo_bgr: Any) -> dict[str, Any]:
    """Keep the photo (under a name made here) and read it; differences against the tracked board."""
    table = get_table()
    name = f"{record.id}-{uuid.uuid4().hex}.{kind}"
    with open(table.photos_dir / name, "wb") as f:  # kept before the reading is answered, even if the plug goes
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    reading = read_board_photo(photo_bgr)
    reading["photo"] = name
    reading["photo_url"] = f"/api/photos/{name}"
    reading["height"], reading["width"] = int(photo_bgr.shape[0]), int(photo_bgr.shape[1])
    if reading.get("found") and record.tracked:
        with table.store.lock:
            view = convert.game_view(record)
        tracked = next(p["tracked_board"] for p in view["players"] if p["name"] == player)
        reading["differences"] = convert.differences(tracked, reading["grid"])
    return reading


def read_board_photo(photo_bgr: Any) -> dict[str, Any]:
    try:
        from vision.board_reader import read_board
    except ImportError:
        return {"found": False, "grid": None, "reason": "the board reader is not installed: enter the board by hand"}
    calibration = get_table().board_calibration()
    if calibration is None:
        return {
            "found": False,
            "grid": None,
            "reason": "the board reader is not calibrated yet (set-up: photo of an empty board and of the known "
            "layout): enter the board by hand",
        }
    return read_board(photo_bgr, calibration).to_json()


@bp.get("/photos/<name>")
def photo(name: str) -> Any:
    if not PHOTO_NAME.match(name):
        abort(404)
    return send_from_directory(get_table().photos_dir, name, max_age=3600)


@bp.post("/calibration/board")
@needs_pin
def calibrate() -> Any:
    """Teach the board reader: ``empty`` and ``known`` photos and ``known_board`` (JSON list of 6 rows)."""
    from vision.board_reader import calibrate_board

    table = get_table()
    empty, _ = upload("empty")
    known, _ = upload("known")
    try:
        known_board = json.loads(request.form.get("known_board", ""))
    except json.JSONDecodeError:
        raise IllegalAction("known_board: expected a JSON list of 6 strings of 6 letters") from None
    side = request.form.get("side") or "inland"
    cal = calibrate_board(decode(empty, "empty"), decode(known, "known"), known_board, side)
    table.save_board_calibration(cal)
    return jsonify(calibrated=True, side=side)


@bp.post("/calibration/colours")
@needs_pin
def calibrate_colours() -> Any:
    """Teach the shaker reader this camera's colours: a ``photo`` (or the camera's picture) and its ``pattern``."""
    from .devices import calibrate_colours as calibrate

    try:
        raw = json.loads(request.form.get("pattern", ""))
    except json.JSONDecodeError:
        raise IllegalAction("pattern: expected a JSON list of 3 rows of 3 colours") from None
    pattern = Pattern.parse(raw)
    if "photo" in request.files:
        data, _ = upload("photo")
        frame_bgr = decode(data, "photo")
    else:
        frame_bgr = camera_frame()
    palette = calibrate(get_table(), frame_bgr, pattern.to_json())
    return jsonify(calibrated=True, palette=palette.to_json())


@bp.get("/calibration")
def calibration() -> Any:
    table = get_table()
    return jsonify(board=table.calibration_path.is_file(), colours=table.palette_path.is_file())


# ----------------------------------------------------------------------------------- camera, leds


@bp.get("/camera.jpg")
def camera_jpg() -> Any:
    table = get_table()
    if table.camera is None:
        return jsonify(error=f"no camera: {table.device_note}"), 404
    frame = table.camera.latest()
    if frame is None:
        return jsonify(error="the camera has no picture yet"), 503
    import cv2

    frame_bgr = getattr(frame, "frame_bgr", frame)
    ok, jpeg = cv2.imencode(".jpg", frame_bgr, [cv2.IMWRITE_JPEG_QUALITY, 75])
    if not ok:
        return jsonify(error="could not encode the camera picture"), 500
    return Response(jpeg.tobytes(), mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


@bp.get("/device")
def device() -> Any:
    return jsonify(get_table().device_snapshot())


TRACKER_BUTTONS = ("next_round", "rescan", "undo")


@bp.post("/tracker/<button>")
@needs_pin
def press(button: str) -> Any:
    table = get_table()
    if table.tracker is None:
        return jsonify(error=f"no round tracker: {table.device_note}"), 404
    if button not in TRACKER_BUTTONS:
        raise IllegalAction(f"unknown button {button!r}; buttons are {', '.join(TRACKER_BUTTONS)}")
    data = request.get_json(silent=True) or {}
    if isinstance(data, dict) and data.get("hold"):
        table.tracker.hold(button)
    else:
        table.tracker.press(button)
    return jsonify(tracker=table.tracker_snapshot())


# ------------------------------------------------------------------------------------------ events


@bp.get("/events")
def events() -> Any:
    table = get_table()
    try:
        sub = table.events.subscribe()
    except TooManyStreams as e:
        return jsonify(error=str(e)), 503
    view = table.current_view()
    hello = format_event("game", {"change": "hello", "game": view}, view["version"] if view else None)
    return Response(
        table.events.stream(sub, hello),
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )
