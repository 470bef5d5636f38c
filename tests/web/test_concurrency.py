"""Pages reading while the table writes: every view a reader gets is the one the writer got for that step."""

from __future__ import annotations

import threading
from typing import Any

from flask import Flask

from .conftest import AUTH

PATTERNS = [
    [["red", "red", "blue"], ["green", "gray", "black"], ["red", "blue", "blue"]],
    [["blue", "black", "blue"], ["green", "green", "gray"], ["red", "gray", "black"]],
]


def play(app: Flask, written: dict[int, Any]) -> None:
    """Three rounds for two players: every player places the first legal colour at its first spot."""
    client = app.test_client()
    view = client.post("/api/games", json={"players": ["Ann", "Bo"]}, headers=AUTH).json
    written[view["seq"]] = view
    for round_no in range(3):
        view = client.post("/api/shake", json={"pattern": PATTERNS[round_no % 2]}, headers=AUTH).json
        written[view["seq"]] = view
        while view["phase"] == "choose":
            me = next(p for p in view["players"] if p["legal"] and not p["done"])
            choice = me["legal"][0]
            row, col = choice["spots"][0]
            body = {"player": me["name"], "colour": choice["colour"], "wilds": choice["wilds"], "row": row, "col": col}
            view = client.post("/api/place", json=body, headers=AUTH).json
            written[view["seq"]] = view
        view = client.post("/api/next-round", headers=AUTH).json
        written[view["seq"]] = view


def test_readers_never_see_a_half_made_step(app: Flask) -> None:
    written: dict[int, Any] = {}
    seen: list[Any] = []
    done = threading.Event()

    def read() -> None:
        client = app.test_client()
        while not done.is_set():
            r = client.get("/api/game")
            if r.status_code == 200:
                seen.append(r.json)

    readers = [threading.Thread(target=read) for _ in range(4)]
    for t in readers:
        t.start()
    try:
        play(app, written)
    finally:
        done.set()
        for t in readers:
            t.join(30)
    assert written and seen
    assert len({v["seq"] for v in seen}) > 1
    for view in seen:
        assert view == written[view["seq"]], f"a reader saw step {view['seq']} differently"
