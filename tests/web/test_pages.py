"""The pages and their forms: join with the PIN, CSRF, the set-up form (sent twice), the QR code, assets."""

from __future__ import annotations

import re
from typing import Any

from flask.testing import FlaskClient

from .conftest import AUTH, PATTERN, PIN

PHONE = {"REMOTE_ADDR": "192.168.1.23"}


def csrf_of(html: str) -> str:
    match = re.search(r'name="csrf-token" content="([^"]+)"', html)
    assert match, "no CSRF token on the page"
    return match.group(1)


def nonce_of(html: str) -> str:
    match = re.search(r'name="nonce" value="([^"]+)"', html)
    assert match
    return match.group(1)


def join(client: FlaskClient) -> str:
    page = client.get("/join", environ_base=PHONE).get_data(as_text=True)
    token = csrf_of(page)
    r = client.post("/join", data={"pin": PIN, "csrf_token": token}, environ_base=PHONE)
    assert r.status_code == 302
    return token


def test_every_page_renders(client: FlaskClient, game: dict[str, Any]) -> None:
    for path in ["/", "/join", "/setup", "/table", "/boards", "/scores", "/history", f"/history/{game['id']}"]:
        r = client.get(path, environ_base=PHONE)
        assert r.status_code == 200, path
        assert b"<main>" in r.data
    assert client.get("/history/999").status_code == 404


def test_pages_use_only_local_assets(client: FlaskClient) -> None:
    for path in ["/", "/table", "/setup", "/boards"]:
        html = client.get(path).get_data(as_text=True)
        assert not re.search(r'(src|href)="(https?:)?//', html), path
    for asset in ["/static/table.js", "/static/style.css", "/static/icon.svg"]:
        with client.get(asset) as r:
            assert r.status_code == 200, asset
            fetched = re.findall(rb"(?:url\(|fetch\(|src=|href=|EventSource\()\s*[\"']?(https?:)?//", r.data)
            assert fetched == [], asset


def test_the_pin_is_shown_on_the_table_machine_but_not_to_a_phone_before_joining(client: FlaskClient) -> None:
    local = client.get("/").get_data(as_text=True)
    assert f'id="table-pin">{PIN}<' in local
    phone = client.get("/", environ_base=PHONE).get_data(as_text=True)
    assert PIN not in phone
    assert client.get("/join-qr.svg", environ_base=PHONE).status_code == 403


def test_join_with_the_pin_then_write_through_the_session_with_csrf(client: FlaskClient, game: dict[str, Any]) -> None:
    page = client.get("/join", environ_base=PHONE).get_data(as_text=True)
    r = client.post("/join", data={"pin": "9999", "csrf_token": csrf_of(page)}, environ_base=PHONE)
    assert r.status_code == 403
    assert client.post("/api/shake", json={"pattern": PATTERN}, environ_base=PHONE).status_code == 403
    token = join(client)
    # joined, but no CSRF token: refused, nothing changes
    r = client.post("/api/shake", json={"pattern": PATTERN}, environ_base=PHONE)
    assert r.status_code == 403
    assert "CSRF" in r.json["error"]
    r = client.post("/api/shake", json={"pattern": PATTERN}, headers={"X-CSRF-Token": "forged"}, environ_base=PHONE)
    assert r.status_code == 403
    assert client.get("/api/game").json["pattern"] is None
    r = client.post("/api/shake", json={"pattern": PATTERN}, headers={"X-CSRF-Token": token}, environ_base=PHONE)
    assert r.status_code == 200
    assert r.json["pattern"] == PATTERN
    with client.get("/join-qr.svg", environ_base=PHONE) as qr:
        assert qr.status_code == 200
        assert qr.mimetype == "image/svg+xml"
        assert b"<svg" in qr.data and b"xmlns" in qr.data


def test_join_form_without_csrf_is_refused(client: FlaskClient) -> None:
    r = client.post("/join", data={"pin": PIN}, environ_base=PHONE)
    assert r.status_code == 400
    assert client.post("/api/games", json={"players": ["Ann"]}, environ_base=PHONE).status_code == 403


def test_leaving_ends_the_session(client: FlaskClient, game: dict[str, Any]) -> None:
    token = join(client)
    client.post("/leave", data={"csrf_token": token}, environ_base=PHONE)
    r = client.post("/api/shake", json={"pattern": PATTERN}, headers={"X-CSRF-Token": token}, environ_base=PHONE)
    assert r.status_code == 403


def setup_form(token: str, nonce: str, **fields: str) -> dict[str, str]:
    form = {"csrf_token": token, "nonce": nonce, "player0": "Ann", "player1": "Bo", "side": "inland"}
    for i, name in enumerate(["full-line", "homes", "shops", "factories", "parks", "roads"]):
        form[f"bonus{i}"] = name
    for i, name in enumerate(["home-shop", "factory-road", "park-home", "shop-road"]):
        form[f"construction{i}"] = name
    form.update(fields)
    return form


def test_setup_form_creates_one_game_even_when_sent_twice(client: FlaskClient) -> None:
    token = join(client)
    page = client.get("/setup", environ_base=PHONE).get_data(as_text=True)
    form = setup_form(token, nonce_of(page), variant_wild_nights="1", bonus0="roads", bonus5="full-line")
    r = client.post("/setup", data=form, environ_base=PHONE)
    assert r.status_code == 302 and r.headers["Location"].endswith("/table")
    g = client.get("/api/game").json
    assert [p["name"] for p in g["players"]] == ["Ann", "Bo"]
    assert g["variants"] == ["wild_nights"]
    assert g["bonus"][1]["name"] == "north-1:roads"
    again = client.post("/setup", data=form, environ_base=PHONE)
    assert again.status_code == 302
    assert len(client.get("/api/games").json["games"]) == 1


def test_setup_form_refusals(client: FlaskClient) -> None:
    token = join(client)
    page = client.get("/setup", environ_base=PHONE).get_data(as_text=True)
    r = client.post("/setup", data=setup_form(token, nonce_of(page), player1="ann"), environ_base=PHONE)
    assert r.status_code == 400
    assert b"same name" in r.data
    r = client.post("/setup", data=setup_form(token, nonce_of(page), bonus1="roads"), environ_base=PHONE)
    assert r.status_code == 400
    assert b"bonus layout" in r.data
    r = client.post(
        "/setup",
        data=setup_form(token, nonce_of(page), variant_construction="1", construction1="home-shop"),
        environ_base=PHONE,
    )
    assert r.status_code == 400
    assert b"choose each tile once" in r.data
    r = client.post("/setup", data=setup_form("forged", nonce_of(page)), environ_base=PHONE)
    assert r.status_code == 400
    assert client.get("/api/game").status_code == 404


def test_setup_form_with_construction_tiles_in_the_chosen_order(client: FlaskClient) -> None:
    token = join(client)
    page = client.get("/setup", environ_base=PHONE).get_data(as_text=True)
    order = {"construction0": "shop-road", "construction3": "home-shop"}
    r = client.post(
        "/setup", data=setup_form(token, nonce_of(page), variant_construction="1", **order), environ_base=PHONE
    )
    assert r.status_code == 302
    board = client.get("/api/game").json["players"][0]
    assert board["board"][1][1] == "C"
    assert [t["name"] for t in board["construction"]] == ["shop-road", "factory-road", "park-home", "home-shop"]


def test_setup_form_needs_the_session_pin(client: FlaskClient) -> None:
    page = client.get("/setup", environ_base=PHONE).get_data(as_text=True)
    r = client.post("/setup", data=setup_form(csrf_of(page), nonce_of(page)), environ_base=PHONE)
    assert r.status_code == 302 and "/join" in r.headers["Location"]
    assert client.get("/api/game").status_code == 404


def test_pin_header_writes_need_no_csrf(client: FlaskClient, game: dict[str, Any]) -> None:
    assert client.post("/api/shake", json={"pattern": PATTERN}, headers=AUTH, environ_base=PHONE).status_code == 200


def test_setup_form_without_a_nonce_is_refused(client: FlaskClient) -> None:
    token = join(client)
    form = setup_form(token, "")
    r = client.post("/setup", data=form, environ_base=PHONE)
    assert r.status_code == 400
    assert client.get("/api/game").status_code == 404


def test_pin_guessing_is_stopped(client: FlaskClient, game: dict[str, Any]) -> None:
    limit = client.application.config["PIN_TRIES"]
    for i in range(limit):
        r = client.post(
            "/api/shake", json={"pattern": PATTERN}, headers={"X-Table-Pin": f"{i:06d}"}, environ_base=PHONE
        )
        assert r.status_code == 403
    r = client.post("/api/shake", json={"pattern": PATTERN}, headers=AUTH, environ_base=PHONE)
    assert r.status_code == 429
    assert "too many wrong PINs" in r.json["error"]
    page = client.get("/join", environ_base=PHONE).get_data(as_text=True)
    r = client.post("/join", data={"pin": PIN, "csrf_token": csrf_of(page)}, environ_base=PHONE)
    assert r.status_code == 429
    assert client.get("/api/game").json["pattern"] is None
    # another device is not held up
    assert client.post("/api/shake", json={"pattern": PATTERN}, headers=AUTH).status_code == 200


def test_the_pin_guard_forgets_after_its_window() -> None:
    from web.security import PinGuard

    now = [0.0]
    guard = PinGuard(limit=2, window=60.0, clock=lambda: now[0])
    guard.wrong("a")
    assert not guard.blocked("a")
    guard.wrong("a")
    assert guard.blocked("a") and not guard.blocked("b")
    now[0] = 61.0
    assert not guard.blocked("a")
