"""The pages: server-rendered shells whose live parts are vanilla JavaScript over the API and SSE.

Forms (join, set-up) carry the session's CSRF token; the set-up form also carries a one-time nonce,
so a form sent twice sets up one game, not two.
"""

from __future__ import annotations

import io
import ipaddress
import secrets
from typing import Any
from urllib.parse import quote

from flask import Blueprint, Response, abort, current_app, flash, redirect, render_template, request, session, url_for

from scoring.shake_that_city.catalogue import TILE_NAMES, bonus_catalogue, components, construction_catalogue
from scoring.shake_that_city.game import Setup

from . import security
from .app import get_table
from .store import NoGame

bp = Blueprint("pages", __name__)

# The layout players lay for the board reader's calibration photo: each building type at least twice.
KNOWN_LAYOUT = ("RP...C", ".S...S", ".C.S.H", ".H.RRF", ".P..F.", "HP...F")

VARIANT_LABELS = {
    "family": "Family (only bonus tiles score)",
    "construction": "Construction (construction tiles on a diagonal)",
    "solo": "Solo (1 player, construction tiles, target 55)",
    "wild_nights": "Wild Nights (white wild cubes)",
}


def from_this_machine() -> bool:
    """A request from the table machine itself (its own screen may show the PIN)."""
    try:
        return ipaddress.ip_address(request.remote_addr or "").is_loopback
    except ValueError:
        return False


def join_url() -> str:
    base = current_app.config.get("JOIN_URL") or request.host_url
    return base.rstrip("/") + "/join?pin=" + quote(current_app.config["TABLE_PIN"])


@bp.app_context_processor
def page_context() -> dict[str, Any]:
    joined = security.joined()
    return {
        "csrf_token": security.csrf_token(),
        "joined": joined,
        "show_pin": joined or from_this_machine(),
        "table_pin": current_app.config["TABLE_PIN"],
        "device_note": get_table().device_note,
    }


def check_form_csrf() -> None:
    sent = request.form.get("csrf_token", "")
    expected = session.get("csrf", "")
    if not sent or not expected or not security.same(sent, expected):
        abort(400, "the form is out of date (missing or wrong CSRF token): reload the page")


def current_view() -> dict[str, Any] | None:
    return get_table().current_view()


@bp.get("/")
def index() -> Any:
    return render_template("index.html", game=current_view(), join_url=join_url())


@bp.get("/join")
def join_form() -> Any:
    return render_template("join.html", pin=request.args.get("pin", "")[:32])


@bp.post("/join")
def join() -> Any:
    check_form_csrf()
    joined = security.join(request.form.get("pin", "")[:32])
    if joined is None:
        flash("Too many wrong PINs from this phone: wait a few minutes.")
        return render_template("join.html", pin=""), 429
    if not joined:
        flash("That is not the table's PIN.")
        return render_template("join.html", pin=""), 403
    return redirect(url_for("pages.table") if current_view() else url_for("pages.setup"))


@bp.post("/leave")
def leave() -> Any:
    check_form_csrf()
    session.pop("table", None)
    return redirect(url_for("pages.index"))


def setup_options() -> dict[str, Any]:
    bonus = bonus_catalogue()
    cons = construction_catalogue()
    return {
        "max_players": components().max_players,
        "variants": VARIANT_LABELS,
        "bonus_tiles": [t["name"] for t in bonus["tiles"]],
        "bonus_notches": [f"north edge, column {c}" for c in bonus["notches"]["north"]]
        + [f"west edge, row {r}" for r in bonus["notches"]["west"]],
        "construction_tiles": [
            {"name": t["name"], "types": " + ".join(TILE_NAMES[x] for x in t["types"])} for t in cons["tiles"]
        ],
        "construction_cells": [tuple(c) for c in cons["cells"]],
        "known_layout": list(KNOWN_LAYOUT),
    }


@bp.get("/setup")
def setup() -> Any:
    return render_template(
        "setup.html",
        page="setup",
        options=setup_options(),
        nonce=secrets.token_urlsafe(16),
        form={},
        join_url=join_url(),
    )


@bp.post("/setup")
def create_game() -> Any:
    check_form_csrf()
    options = setup_options()
    form = request.form
    if not security.joined():
        flash("Join the table with its PIN first.")
        return redirect(url_for("pages.join_form"))
    players = [form.get(f"player{i}", "").strip() for i in range(options["max_players"])]
    players = [p for p in players if p]
    variants = [v for v in options["variants"] if form.get(f"variant_{v}")]
    bonus_order = [form.get(f"bonus{i}", "") for i in range(len(options["bonus_notches"]))]
    construction = None
    if "construction" in variants or "solo" in variants:
        names = [form.get(f"construction{i}", "") for i in range(len(options["construction_cells"]))]
        tiles = {t["name"]: t for t in construction_catalogue()["tiles"]}
        if sorted(names) != sorted(tiles):
            return setup_error("construction tiles: choose each tile once", form)
        construction = [
            {"name": n, "cell": list(cell), "types": tiles[n]["types"]}
            for n, cell in zip(names, options["construction_cells"], strict=True)
        ]
    try:
        new = Setup.create(
            players, form.get("side", "inland"), variants, bonus_order=bonus_order, construction=construction
        )
    except ValueError as e:
        return setup_error(str(e), form)
    nonce = form.get("nonce", "")[:64]
    if not nonce:
        abort(400, "the form is out of date (no nonce): reload the page")
    if not get_table().store.consume_nonce(nonce):
        flash("This set-up form was already sent: the game it made is below.")
        return redirect(url_for("pages.table"))
    get_table().store.create_game(new)
    get_table().refresh_devices()
    return redirect(url_for("pages.table"))


def setup_error(message: str, form: Any) -> Any:
    return (
        render_template(
            "setup.html",
            page="setup",
            options=setup_options(),
            nonce=secrets.token_urlsafe(16),
            form=form,
            error=message,
            join_url=join_url(),
        ),
        400,
    )


@bp.get("/join-qr.svg")
def join_qr() -> Any:
    """The QR code of the join address (with the PIN), for phones to scan: only for joined pages."""
    if not (security.joined() or from_this_machine()):
        abort(403)
    import segno

    out = io.BytesIO()
    segno.make(join_url(), error="m").save(out, kind="svg", scale=5, dark="#000", light="#fff", xmldecl=False)
    return Response(out.getvalue(), mimetype="image/svg+xml", headers={"Cache-Control": "no-store"})


@bp.get("/table")
def table() -> Any:
    return render_template("table.html", page="table")


@bp.get("/boards")
def boards() -> Any:
    return render_template("boards.html", page="boards")


@bp.get("/scores")
def scores() -> Any:
    return render_template("scores.html", page="scores", game_id=None)


@bp.get("/history")
def history() -> Any:
    return render_template("history.html", page="history")


@bp.get("/history/<int:game_id>")
def history_game(game_id: int) -> Any:
    try:
        get_table().store.load(game_id)
    except NoGame:
        abort(404)
    return render_template("scores.html", page="scores", game_id=game_id)
