"""Every API route through Flask's test client, with its refusals: no PIN, bad input, illegal moves."""

from __future__ import annotations

import csv
import io
import json
from typing import Any
from urllib.parse import quote

import cv2
import numpy as np
from flask.testing import FlaskClient

from web.app import close_app

from .conftest import AUTH, PATTERN, make_app


def png(width: int = 64, height: int = 48, value: int = 128) -> bytes:
    ok, data = cv2.imencode(".png", np.full((height, width, 3), value, np.uint8))
    assert ok
    return data.tobytes()


def shake(client: FlaskClient, pattern: Any = PATTERN, **extra: Any) -> Any:
    return client.post("/api/shake", json={"pattern": pattern, **extra}, headers=AUTH)


def place(client: FlaskClient, player: str, colour: str, row: int, col: int, **extra: Any) -> Any:
    body = {"player": player, "colour": colour, "wilds": False, "row": row, "col": col, **extra}
    return client.post("/api/place", json=body, headers=AUTH)


# ------------------------------------------------------------------------------------------ games


def test_no_game_yet_is_404(client: FlaskClient) -> None:
    r = client.get("/api/game")
    assert r.status_code == 404
    assert "no game" in r.json["error"]


def test_create_game_needs_the_pin_and_changes_nothing_without_it(client: FlaskClient) -> None:
    body = {"players": ["Ann", "Bo"], "side": "inland", "variants": []}
    r = client.post("/api/games", json=body)
    assert r.status_code == 403
    assert "PIN" in r.json["error"]
    r = client.post("/api/games", json=body, headers={"X-Table-Pin": "0000"})
    assert r.status_code == 403
    assert r.json["error"] == "wrong table PIN"
    assert client.get("/api/game").status_code == 404


def test_create_game_returns_the_minimum_game(client: FlaskClient) -> None:
    r = client.post("/api/games", json={"players": ["Ann", "Bo"], "side": "inland", "variants": []}, headers=AUTH)
    assert r.status_code == 201
    g = r.json
    assert g["round"] == 1
    assert g["active_player"] == "Ann"
    assert g["finished"] is False
    assert g["pattern"] is None
    assert [p["name"] for p in g["players"]] == ["Ann", "Bo"]
    for p in g["players"]:
        assert p["board"] == ["......"] * 6
        assert set(p["score"]) >= {"total", "breakdown", "bonus_flipped", "empty_cells", "construction_left"}
        assert set(p["score"]["breakdown"]) == {"road", "park", "factory", "shop", "home", "bonus"}
    assert client.get("/api/game").json == g


def test_create_game_with_variants_bonus_order_and_construction(client: FlaskClient) -> None:
    order = ["roads", "parks", "full-line", "homes", "shops", "factories"]
    r = client.post(
        "/api/games",
        json={"players": ["Solo"], "side": "waterfront", "variants": ["solo", "wild_nights"], "bonus_order": order},
        headers=AUTH,
    )
    assert r.status_code == 201, r.json
    g = r.json
    assert g["side"] == "waterfront"
    assert g["variants"] == ["solo", "wild_nights"]
    assert g["bonus"][1]["name"] == "north-1:roads"
    assert g["players"][0]["board"][1][1] == "C"  # construction tiles laid for solo
    assert g["whites_in_shaker"] == 1
    assert "solo_win" in g["players"][0]["score"]


def test_create_game_refusals_name_the_problem(client: FlaskClient) -> None:
    cases = [
        ({"players": ["A", "B", "C", "D", "E"]}, "1 to 4 players"),
        ({"players": ["Ann"], "variants": ["chaos"]}, "unknown variant"),
        ({"players": ["Ann"], "side": "moon"}, "unknown side"),
        ({"players": ["Ann", "ann"]}, "same name"),
        ({"players": ["Ann"], "colour": "red"}, "unknown set-up keys"),
        ({"side": "inland"}, "players: missing"),
        ({"players": ["Ann", "Bo"], "variants": ["solo"]}, "solo is for 1 player"),
    ]
    for body, reason in cases:
        r = client.post("/api/games", json=body, headers=AUTH)
        assert r.status_code == 400, body
        assert reason in r.json["error"], r.json
    r = client.post("/api/games", data="not json", headers=AUTH)
    assert r.status_code == 400
    assert "JSON object" in r.json["error"]
    assert client.get("/api/game").status_code == 404


# ----------------------------------------------------------------------------------------- shakes


def test_shake_sets_the_pattern(client: FlaskClient, game: dict[str, Any]) -> None:
    r = shake(client)
    assert r.status_code == 200
    assert r.json["pattern"] == PATTERN
    assert r.json["phase"] == "choose"
    assert client.get("/api/game").json["pattern"] == PATTERN


def test_shake_without_pin_is_403_and_changes_nothing(client: FlaskClient, game: dict[str, Any]) -> None:
    r = client.post("/api/shake", json={"pattern": PATTERN})
    assert r.status_code == 403
    assert client.get("/api/game").json["pattern"] is None


def test_shake_refuses_incomplete_and_impossible_patterns(client: FlaskClient, game: dict[str, Any]) -> None:
    r = shake(client, [["red", "red", "red"], ["red", "red", "red"]])
    assert r.status_code == 400
    assert "3 rows" in r.json["error"]
    r = shake(client, [["red"] * 3, ["red"] * 3, ["red"] * 3])
    assert r.status_code == 400
    assert "shaker holds only 8" in r.json["error"]
    r = shake(client, [["red", "red", "pink"], ["red"] * 3, ["red"] * 3])
    assert r.status_code == 400
    assert "unknown colour 'pink'" in r.json["error"]
    r = shake(client, [["white", "red", "red"], ["blue"] * 3, ["green"] * 3])
    assert r.status_code == 400
    assert "no white" in r.json["error"]
    r = client.post("/api/shake", json={}, headers=AUTH)
    assert r.status_code == 400
    assert client.get("/api/game").json["pattern"] is None


def test_simulated_shake_draws_a_possible_pattern(client: FlaskClient, game: dict[str, Any]) -> None:
    r = client.post("/api/shake", json={"simulate": True}, headers=AUTH)
    assert r.status_code == 200
    pattern = r.json["pattern"]
    flat = [c for row in pattern for c in row]
    assert len(flat) == 9
    assert flat.count("red") <= 8 and flat.count("gray") <= 5 and "white" not in flat


def test_shake_photo_refusals(client: FlaskClient, game: dict[str, Any]) -> None:
    r = client.post("/api/shake", data={"photo": (io.BytesIO(b"GIF89a..."), "x.gif")}, headers=AUTH)
    assert r.status_code == 400
    assert "not a JPEG or PNG" in r.json["error"]
    corrupt = png()[:40]
    r = client.post("/api/shake", data={"photo": (io.BytesIO(corrupt), "x.png")}, headers=AUTH)
    assert r.status_code == 400
    assert "not a readable image" in r.json["error"]
    r = client.post("/api/shake", data={"photo": (io.BytesIO(png(320, 240)), "x.png")}, headers=AUTH)
    assert r.status_code == 400
    assert r.json["error"].startswith("shake again") or "not installed" in r.json["error"]
    assert client.get("/api/game").json["pattern"] is None


def test_reshake_before_anyone_chose_replaces_the_pattern(client: FlaskClient, game: dict[str, Any]) -> None:
    shake(client)
    other = [["blue", "red", "blue"], ["green", "gray", "black"], ["red", "blue", "red"]]
    assert shake(client, other).json["pattern"] == other
    place(client, "Ann", "red", 0, 0)
    r = shake(client)
    assert r.status_code == 400
    assert "already has its pattern" in r.json["error"]


# ----------------------------------------------------------------------------------- choose, place


def test_choices_follow_the_engine(client: FlaskClient, game: dict[str, Any]) -> None:
    g = shake(client).json
    ann, bo = g["players"]
    assert {c["colour"] for c in ann["legal"]} == {"red", "blue", "black", "green", "gray"}
    assert bo["waiting_for_active"] is True and bo["legal"] == []
    r = client.post("/api/choose", json={"player": "Bo", "colour": "blue"}, headers=AUTH)
    assert r.status_code == 400
    assert "waits for the active player Ann" in r.json["error"]
    r = client.post("/api/choose", json={"player": "Ann", "colour": "blue"}, headers=AUTH)
    assert r.status_code == 200
    bo = r.json["players"][1]
    assert "blue" not in {c["colour"] for c in bo["legal"]}
    r = client.post("/api/choose", json={"player": "Bo", "colour": "blue"}, headers=AUTH)
    assert r.status_code == 400
    assert "active player Ann's colour" in r.json["error"]
    r = client.post("/api/choose", json={"player": "Zed", "colour": "red"}, headers=AUTH)
    assert r.status_code == 400
    assert "no player called 'Zed'" in r.json["error"]
    r = client.post("/api/choose", json={"player": "Bo", "colour": 3}, headers=AUTH)
    assert r.status_code == 400


def test_place_puts_the_shape_on_the_board(client: FlaskClient, game: dict[str, Any]) -> None:
    shake(client)
    r = place(client, "Ann", "red", 0, 0)
    assert r.status_code == 200
    ann = r.json["players"][0]
    assert ann["board"][:3] == ["HH....", "......", "H....."]
    assert ann["placed"] == [[0, 0], [0, 1], [2, 0]]
    assert ann["done"] is True


def test_illegal_placement_is_400_with_the_legal_options(client: FlaskClient, game: dict[str, Any]) -> None:
    shake(client)
    r = place(client, "Ann", "red", 4, 5)
    assert r.status_code == 400
    assert "outside the board" in r.json["error"]
    assert "legal spots for red" in r.json["error"]
    legal = {c["colour"]: c["spots"] for c in r.json["legal"]}
    assert [0, 0] in legal["red"] and [4, 5] not in legal["red"]
    assert "Ann may take" in r.json["legal_now"]
    assert client.get("/api/game").json["players"][0]["board"] == ["......"] * 6
    r = place(client, "Ann", "red", "0", 0)
    assert r.status_code == 400
    assert "row: expected a whole number" in r.json["error"]


def test_place_without_pin_is_403(client: FlaskClient, game: dict[str, Any]) -> None:
    shake(client)
    r = client.post("/api/place", json={"player": "Ann", "colour": "red", "wilds": False, "row": 0, "col": 0})
    assert r.status_code == 403
    assert client.get("/api/game").json["players"][0]["board"] == ["......"] * 6


def test_double_submit_is_refused(client: FlaskClient, game: dict[str, Any]) -> None:
    seq = shake(client).json["seq"]
    assert place(client, "Ann", "red", 0, 0, seq=seq).status_code == 200
    again = place(client, "Ann", "red", 0, 0, seq=seq)
    assert again.status_code == 409
    assert "moved on" in again.json["error"]
    again = place(client, "Ann", "red", 3, 3)  # without seq: the engine refuses a second placement
    assert again.status_code == 400
    assert "already placed" in again.json["error"]
    assert client.get("/api/game").json["players"][0]["board"][3] == "......"


def test_a_round_and_next_round(client: FlaskClient, game: dict[str, Any]) -> None:
    shake(client)
    r = client.post("/api/next-round", headers=AUTH)
    assert r.status_code == 400
    assert "still to place: Ann, Bo" in r.json["error"]
    place(client, "Ann", "red", 0, 0)
    place(client, "Bo", "blue", 0, 0)
    g = client.get("/api/game").json
    assert g["phase"] == "next_round"
    r = client.post("/api/next-round", headers=AUTH)
    assert r.status_code == 200
    assert r.json["round"] == 2
    assert r.json["active_player"] == "Bo"
    assert r.json["pattern"] is None
    assert client.post("/api/next-round", headers=AUTH).status_code == 400
    assert client.post("/api/next-round").status_code == 403


def test_undo_takes_back_the_last_action(client: FlaskClient, game: dict[str, Any]) -> None:
    r = client.post("/api/undo", headers=AUTH)
    assert r.status_code == 400
    assert "nothing to undo" in r.json["error"]
    shake(client)
    place(client, "Ann", "red", 0, 0)
    assert client.post("/api/undo").status_code == 403
    r = client.post("/api/undo", headers=AUTH)
    assert r.status_code == 200
    assert r.json["undone"]["type"] == "place"
    assert r.json["players"][0]["board"] == ["......"] * 6
    assert r.json["pattern"] == PATTERN
    log = client.get(f"/api/games/{game['id']}/log").json["log"]
    assert [e["type"] for e in log] == ["shake", "place"]
    assert "undone_at" in log[1] and "undone_at" not in log[0]


# ------------------------------------------------------------------------------------------ boards

FULL = ["HHSSRR", "PPFFRR", "HSRRPF", "......", "RRRRRR", "SS..HH"]


def test_put_board_sets_and_scores_it(client: FlaskClient, game: dict[str, Any]) -> None:
    r = client.put("/api/boards/Bo", json={"grid": FULL})
    assert r.status_code == 403
    r = client.put("/api/boards/Bo", json={"grid": FULL}, headers=AUTH)
    assert r.status_code == 200
    bo = r.json["players"][1]
    assert bo["board"] == FULL
    assert bo["board_source"] == "correction"
    assert bo["score"]["total"] > 0
    assert bo["score"]["empty_cells"] == 8
    assert "differences" not in bo  # the game was not tracked move by move


def test_put_board_refusals(client: FlaskClient, game: dict[str, Any]) -> None:
    for grid, reason in [
        (["HH"], "expected 6 rows"),
        (["HHSSRX"] + FULL[1:], "unknown letter 'X'"),
        ("HHSSRR", "expected a list"),
    ]:
        r = client.put("/api/boards/Bo", json={"grid": grid}, headers=AUTH)
        assert r.status_code == 400
        assert reason in r.json["error"]
    r = client.put("/api/boards/Nobody", json={"grid": FULL}, headers=AUTH)
    assert r.status_code == 400
    assert "no player called" in r.json["error"]
    r = client.put("/api/boards/Bo", json={"grid": FULL, "photo": "../shakecity.sqlite3"}, headers=AUTH)
    assert r.status_code == 400


def test_board_cross_checked_against_the_tracked_board(client: FlaskClient, game: dict[str, Any]) -> None:
    shake(client)
    place(client, "Ann", "red", 0, 0)
    photo = ["HH....", "......", "P.....", "......", "......", "......"]
    r = client.put("/api/boards/Ann", json={"grid": photo, "source": "photo"}, headers=AUTH)
    ann = r.json["players"][0]
    assert ann["board_source"] == "photo"
    assert ann["differences"] == [{"row": 2, "col": 0, "tracked": "H", "photo": "P"}]
    r = client.post("/api/undo", headers=AUTH)
    assert r.json["players"][0]["board_source"] == "tracked"
    assert r.json["players"][0]["board"][2] == "H....."


def test_board_photo_upload_and_refusals(client: FlaskClient, game: dict[str, Any], app: Any) -> None:
    url = "/api/boards/Ann/photo"
    assert client.post(url, data={"photo": (io.BytesIO(png()), "b.png")}).status_code == 403
    r = client.post(url, data={}, headers=AUTH)
    assert r.status_code == 400
    assert "multipart file field 'photo'" in r.json["error"]
    r = client.post(url, data={"photo": (io.BytesIO(b""), "b.png")}, headers=AUTH)
    assert r.status_code == 400
    r = client.post(url, data={"photo": (io.BytesIO(b"hello world"), "b.png")}, headers=AUTH)
    assert r.status_code == 400
    assert "not a JPEG or PNG" in r.json["error"]
    r = client.post(url, data={"photo": (io.BytesIO(b"\xff\xd8\xff\xe0" + b"\0" * 100), "b.jpg")}, headers=AUTH)
    assert r.status_code == 400
    assert "not a readable image" in r.json["error"]
    r = client.post("/api/boards/Zed/photo", data={"photo": (io.BytesIO(png()), "b.png")}, headers=AUTH)
    assert r.status_code == 400
    r = client.post(url, data={"photo": (io.BytesIO(png()), "b.png")}, headers=AUTH)
    assert r.status_code == 200
    reading = r.json
    assert reading["found"] is False and reading["grid"] is None
    assert "reason" in reading
    assert reading["width"] == 64 and reading["height"] == 48
    with client.get(reading["photo_url"]) as got:
        assert got.status_code == 200
        assert got.data == png()
    assert len(list((app.extensions["table"].photos_dir).iterdir())) == 1


def test_photos_are_served_only_by_their_generated_names(client: FlaskClient, game: dict[str, Any]) -> None:
    for path in [
        "/api/photos/shakecity.sqlite3",
        "/api/photos/..%2Fshakecity.sqlite3",
        "/api/photos/../secret_key",
        "/api/photos/1-" + "0" * 32 + ".jpg",
    ]:
        assert client.get(path).status_code == 404, path


def test_oversized_upload_is_413_before_decoding(tmp_path: Any) -> None:
    app = make_app(tmp_path / "small", MAX_CONTENT_LENGTH=2048)
    try:
        client = app.test_client()
        client.post("/api/games", json={"players": ["Ann"]}, headers=AUTH)
        big = png(400, 400, 0) + b"\0" * 4096
        r = client.post("/api/boards/Ann/photo", data={"photo": (io.BytesIO(big), "b.png")}, headers=AUTH)
        assert r.status_code == 413
        assert "2 KB" in r.json["error"] or "limit" in r.json["error"]
        assert list(app.extensions["table"].photos_dir.iterdir()) == []
    finally:
        close_app(app)


def test_calibration_refusals(client: FlaskClient, game: dict[str, Any]) -> None:
    assert client.get("/api/calibration").json == {"board": False, "colours": False}
    r = client.post("/api/calibration/board", data={"empty": (io.BytesIO(png()), "e.png")}, headers=AUTH)
    assert r.status_code == 400
    assert "known" in r.json["error"]
    r = client.post(
        "/api/calibration/board",
        data={"empty": (io.BytesIO(png()), "e.png"), "known": (io.BytesIO(png()), "k.png"), "known_board": "[]"},
        headers=AUTH,
    )
    assert r.status_code == 400
    assert client.get("/api/calibration").json == {"board": False, "colours": False}


# ------------------------------------------------------------------------------- history, exports


def test_history_and_exports(client: FlaskClient, game: dict[str, Any]) -> None:
    shake(client)
    place(client, "Ann", "red", 0, 0)
    client.post("/api/games", json={"players": ["Cy"], "side": "waterfront"}, headers=AUTH)
    games = client.get("/api/games").json["games"]
    assert [g["players"] for g in games] == [["Cy"], ["Ann", "Bo"]]
    assert client.get("/api/game").json["players"][0]["name"] == "Cy"
    old = client.get(f"/api/games/{game['id']}").json
    assert old["players"][0]["board"][0] == "HH...."
    r = client.get(f"/api/games/{game['id']}/export.json")
    assert r.status_code == 200
    assert "attachment" in r.headers["Content-Disposition"]
    exported = json.loads(r.data)
    assert exported["setup"]["players"] == ["Ann", "Bo"]
    assert [e["type"] for e in exported["log"]] == ["shake", "place"]
    assert exported["game"]["actions"][1] == {
        "type": "place",
        "player": "Ann",
        "colour": "red",
        "wilds": False,
        "row": 0,
        "col": 0,
    }
    r = client.get(f"/api/games/{game['id']}/export.csv")
    assert r.mimetype == "text/csv"
    rows = list(csv.DictReader(io.StringIO(r.data.decode())))
    assert [row["player"] for row in rows] == ["Ann", "Bo"]
    assert rows[0]["home"] == "4" and rows[0]["total"] == "4"  # two home groups
    assert rows[0]["board"].startswith("HH..../")
    assert client.get("/api/games/999").status_code == 404
    assert client.get("/api/games/999/export.csv").status_code == 404


def test_a_restarted_app_resumes_the_game_exactly(tmp_path: Any) -> None:
    app = make_app(tmp_path / "d")
    client = app.test_client()
    client.post("/api/games", json={"players": ["Ann", "Bo"]}, headers=AUTH)
    shake(client)
    place(client, "Ann", "red", 0, 0)
    client.put("/api/boards/Bo", json={"grid": FULL}, headers=AUTH)
    client.post("/api/undo", headers=AUTH)
    client.put("/api/boards/Bo", json={"grid": FULL}, headers=AUTH)
    before = client.get("/api/game").json
    close_app(app)
    app = make_app(tmp_path / "d")
    try:
        after = app.test_client().get("/api/game").json
        assert after == before
    finally:
        close_app(app)


# --------------------------------------------------------------------------------- events, device


def test_events_stream_tells_every_change(client: FlaskClient, game: dict[str, Any]) -> None:
    r = client.get("/api/events", buffered=False)
    assert r.status_code == 200
    assert r.mimetype == "text/event-stream"
    chunks = (c.decode() for c in r.response)
    assert next(chunks).startswith("retry:")
    hello = next(chunks)
    assert hello.startswith("event: game\n")
    assert '"change":"hello"' in hello
    shake(client)
    event = next(chunks)
    lines = dict(line.split(": ", 1) for line in event.strip().split("\n"))
    assert lines["event"] == "game"
    data = json.loads(lines["data"])
    assert data["change"] == "shake"
    assert data["game"]["pattern"] == PATTERN
    assert int(lines["id"]) == data["game"]["seq"]
    client.post("/api/shake", json={"pattern": PATTERN})  # refused: no event
    client.post("/api/undo", headers=AUTH)
    event = next(chunks)
    assert '"change":"undo"' in event
    r.close()
    assert len(client.application.extensions["table"].events) == 0


def test_events_are_capped(tmp_path: Any) -> None:
    app = make_app(tmp_path / "d", MAX_STREAMS=1)
    try:
        client = app.test_client()
        first = client.get("/api/events", buffered=False)
        assert first.status_code == 200
        second = client.get("/api/events", buffered=False)
        assert second.status_code == 503
        assert "live pages are open" in second.json["error"]
        first.close()
        third = client.get("/api/events", buffered=False)
        assert third.status_code == 200
        third.close()
    finally:
        close_app(app)


def test_device_routes_without_devices(client: FlaskClient, game: dict[str, Any]) -> None:
    r = client.get("/api/camera.jpg")
    assert r.status_code == 404
    assert "no camera" in r.json["error"]
    d = client.get("/api/device").json
    assert d["camera"] is None and d["tracker"] is None and d["note"]
    assert client.post("/api/tracker/next_round").status_code == 403
    r = client.post("/api/tracker/next_round", headers=AUTH)
    assert r.status_code == 404


def test_bonus_flips_confirmed_or_denied_by_hand(client: FlaskClient, game: dict[str, Any]) -> None:
    full = ["HHSSRR", "PHFFRR", "HSHRPF", "...H..", "RRRRHR", "SS..HH"]  # the diagonal is built: corner flips
    client.put("/api/boards/Ann", json={"grid": full}, headers=AUTH)
    ann = client.get("/api/game").json["players"][0]
    corner = next(b for b in ann["bonus"] if b["name"] == "corner")
    assert corner == {"name": "corner", "engine": True, "by_hand": None}
    total = ann["score"]["total"]
    assert client.put("/api/bonus/Ann", json={"tile": "corner", "flipped": False}).status_code == 403
    r = client.put("/api/bonus/Ann", json={"tile": "corner", "flipped": False}, headers=AUTH)
    assert r.status_code == 200
    ann = r.json["players"][0]
    assert ann["score"]["total"] == total - 3
    assert "corner" not in ann["score"]["bonus_flipped"]
    assert any("by hand" in n for n in ann["score"]["notes"])
    assert next(b for b in ann["bonus"] if b["name"] == "corner")["by_hand"] is False
    r = client.put("/api/bonus/Ann", json={"tile": "corner", "flipped": None}, headers=AUTH)
    assert r.json["players"][0]["score"]["total"] == total
    r = client.post("/api/undo", headers=AUTH)
    assert r.json["players"][0]["score"]["total"] == total - 3
    for body, reason in [
        ({"tile": "moon", "flipped": True}, "no bonus tile 'moon'"),
        ({"tile": "corner", "flipped": "yes"}, "flipped: expected"),
        ({"tile": "corner"}, "flipped: missing"),
    ]:
        r = client.put("/api/bonus/Ann", json=body, headers=AUTH)
        assert r.status_code == 400
        assert reason in r.json["error"]
    assert client.put("/api/bonus/Zed", json={"tile": "corner", "flipped": True}, headers=AUTH).status_code == 400


def test_odd_pin_headers_are_refused_not_crashing(client: FlaskClient, game: dict[str, Any]) -> None:
    for value in ["", " ", "4321 4321", "x" * 500]:
        r = client.post("/api/shake", json={"pattern": PATTERN}, headers={"X-Table-Pin": value})
        assert r.status_code == 403, value
    r = client.post(
        "/api/shake", json={"pattern": PATTERN}, headers={"X-Table-Pin": "４３２１".encode().decode("latin-1")}
    )
    assert r.status_code == 403
    assert client.get("/api/game").json["pattern"] is None


def test_version_only_grows_even_through_undo(client: FlaskClient, game: dict[str, Any]) -> None:
    v0 = game["version"]
    v1 = shake(client).json["version"]
    undone = client.post("/api/undo", headers=AUTH).json
    assert v0 < v1 < undone["version"]
    assert undone["seq"] == game["seq"]


def test_a_made_pin_is_kept_across_restarts(tmp_path: Any) -> None:
    from web.app import create_app

    config = {"TESTING": True, "DATA_DIR": str(tmp_path / "d")}
    app = create_app(config)
    pin = app.config["TABLE_PIN"]
    close_app(app)
    assert len(pin) == 6 and pin.isdigit()
    app = create_app(config)
    try:
        assert app.config["TABLE_PIN"] == pin
        assert (tmp_path / "d" / "table-pin").stat().st_mode & 0o077 == 0
    finally:
        close_app(app)


def test_construction_tiles_left_and_cleared_are_shown(client: FlaskClient) -> None:
    client.post("/api/games", json={"players": ["Ann"], "variants": ["construction"]}, headers=AUTH)
    ann = client.get("/api/game").json["players"][0]
    assert [t["name"] for t in ann["construction"]] == ["home-shop", "factory-road", "park-home", "shop-road"]
    assert ann["construction_removed"] == []
    shake(client)
    ann = place(client, "Ann", "blue", 3, 3).json["players"][0]  # shops at (3,5), (5,4), (5,5)
    assert ann["construction_removed"] == []
    assert ann["score"]["total"] == 0 and any("construction tiles left" in n for n in ann["score"]["notes"])
    client.post("/api/next-round", headers=AUTH)
    shake(client)
    ann = place(client, "Ann", "red", 1, 4).json["players"][0]  # homes at (1,4), (1,5), (3,4): (3,4) by a shop
    assert ann["construction_removed"] == ["home-shop"]
    assert [t["name"] for t in ann["construction"]] == ["factory-road", "park-home", "shop-road"]
    assert ann["board"][1][1] == "."


def test_player_names_with_a_slash_reach_their_own_board(client: FlaskClient) -> None:
    names = ["Mum/Dad", "a/photo"]
    r = client.post("/api/games", json={"players": names, "side": "inland", "variants": []}, headers=AUTH)
    assert r.status_code == 201, r.json
    for i, name in enumerate(names):
        r = client.put(f"/api/boards/{quote(name, safe='')}", json={"grid": FULL}, headers=AUTH)
        assert r.status_code == 200, r.json
        assert r.json["players"][i]["board"] == FULL
        assert r.json["players"][1 - i]["board"] != FULL
        client.put(f"/api/boards/{quote(name, safe='')}", json={"grid": ["......"] * 6}, headers=AUTH)
    photo = {"photo": (io.BytesIO(b"not an image"), "x.png")}
    r = client.post(f"/api/boards/{quote('Mum/Dad', safe='')}/photo", data=photo, headers=AUTH)
    assert r.status_code == 400
    assert "photo" in r.json["error"] and "players" not in r.json["error"], r.json  # the photo refused, not the name
