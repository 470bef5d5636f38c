"""Every JSON (and CSV) shape the table page speaks, built in one place from the engine's objects.

The views ask the engine for everything (legal choices, spots, scores, standings); nothing here
decides a rule.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from scoring.grid import to_rows
from scoring.shake_that_city.board import Board
from scoring.shake_that_city.catalogue import TILE_NAMES, board_side, components
from scoring.shake_that_city.game import (
    Choice,
    GameState,
    allowed_choices,
    describe_legal,
    free_choice,
    legal_choices,
    placements,
    standings,
    waiting_for_active,
)
from scoring.shake_that_city.pattern import Pattern
from scoring.shake_that_city.scorer import CATEGORIES, Score, score_board

from .store import GameRecord, LogEntry

# Every colour on screen also carries a letter, so colour-blind players read patterns and boards too: a
# cube shows the letter of the building its colour makes (red H, blue S, black F, green P, gray R) and a
# wild white cube a star; ``letter`` is a one-letter name of the colour itself, for compact lists.
COLOUR_LETTERS = {"red": "R", "blue": "B", "black": "K", "green": "G", "gray": "Y", "white": "W"}


def choice_json(choice: Choice) -> dict[str, Any]:
    return {"colour": choice.colour, "wilds": choice.wilds}


def pattern_json(pattern: Pattern | None) -> list[list[str]] | None:
    return pattern.to_json() if pattern is not None else None


def phase(state: GameState) -> str:
    """Where the round stands: ``shake``, ``choose`` (someone still to place), ``next_round``, ``finished``."""
    if state.finished:
        return "finished"
    if state.pattern is None:
        return "shake"
    if any(p.placed is None and legal_choices(state, p.name) for p in state.players):
        return "choose"
    return "next_round"


def shown_board(record: GameRecord, player: str) -> tuple[list[str], str]:
    """The board to show and score: a photo reading or correction if one was set, else the tracked one."""
    set_board = record.boards.get(player)
    if set_board is not None:
        return list(set_board["grid"]), set_board["source"]
    state = record.game.state
    size = board_side(state.setup.side).size
    return to_rows(state.player(player).grid, size), "tracked"


def board_score(record: GameRecord, rows: list[str], player: str | None = None) -> Score:
    """The engine's score of a board, with the bonus verdicts the player gave by hand."""
    setup = record.game.setup
    overrides = record.bonus.get(player, {}) if player is not None else {}
    return score_board(Board(setup.side, "".join(rows), setup.variants, setup.bonus), overrides or None)


def bonus_json(record: GameRecord, rows: list[str], player: str) -> list[dict[str, Any]]:
    """Each bonus tile in play: the engine's verdict (a suggestion while provisional) and any by hand."""
    engine = set(board_score(record, rows).bonus_flipped)
    mine = record.bonus.get(player, {})
    return [{"name": b.name, "engine": b.name in engine, "by_hand": mine.get(b.name)} for b in record.game.setup.bonus]


def differences(tracked: list[str], shown: list[str]) -> list[dict[str, Any]]:
    """Cells where a photo reading differs from the board tracked move by move."""
    return [
        {"row": r, "col": c, "tracked": tracked[r][c], "photo": shown[r][c]}
        for r in range(len(tracked))
        for c in range(len(tracked[r]))
        if tracked[r][c] != shown[r][c]
    ]


def player_json(record: GameRecord, seat: int) -> dict[str, Any]:
    state = record.game.state
    me = state.players[seat]
    size = board_side(state.setup.side).size
    tracked = to_rows(me.grid, size)
    rows, source = shown_board(record, me.name)
    score = board_score(record, rows, me.name)
    waiting = waiting_for_active(state, me.name) if state.pattern is not None else False
    legal = [] if waiting else legal_choices(state, me.name)
    out: dict[str, Any] = {
        "name": me.name,
        "seat": seat,
        "board": rows,
        "board_source": source,
        "tracked_board": tracked,
        "score": score.to_json(),
        "bonus": bonus_json(record, rows, me.name),
        "choice": choice_json(me.choice) if me.choice else None,
        "placed": [list(c) for c in me.placed] if me.placed is not None else None,
        "done": me.placed is not None or (state.pattern is not None and not waiting and not legal),
        "waiting_for_active": waiting,
        "allowed": [choice_json(c) for c in allowed_choices(state, me.name)],
        "legal": [
            {
                **choice_json(c),
                "shape": [list(o) for o in state.pattern.shape(c.colour, c.wilds)] if state.pattern else [],
                "spots": [list(a) for a in placements(state, me.name, c)],
            }
            for c in legal
        ],
        "construction": [t.to_json() for t in me.construction],
        "construction_removed": [tile for who, tile in state.removed if who == me.name],
    }
    if source != "tracked" and record.tracked:
        out["differences"] = differences(tracked, rows)
    if record.boards.get(me.name, {}).get("photo"):
        out["photo"] = record.boards[me.name]["photo"]
    return out


def standings_json(record: GameRecord, scores: dict[str, Score]) -> dict[str, Any]:
    ranking = standings(scores, record.game.setup.variants)
    return {
        "places": [
            {"place": s.place, "player": s.player, "total": s.score.total, "eligible": s.eligible}
            for s in ranking.places
        ],
        "winners": list(ranking.winners),
        "explanation": list(ranking.explanation),
    }


def game_view(record: GameRecord) -> dict[str, Any]:
    """``GET /api/game``: the minimum of ``data-formats.md`` plus what the page shows. Cached per step."""
    if record.view_cache is not None and record.view_cache[0] == record.seq:
        return record.view_cache[1]
    state = record.game.state
    setup = state.setup
    players = [player_json(record, i) for i in range(len(state.players))]
    scores = {p["name"]: board_score(record, p["board"], p["name"]) for p in players}
    view: dict[str, Any] = {
        "id": record.id,
        "seq": record.seq,
        "version": record.version,
        "created": record.created,
        "round": state.round_no,
        "rounds": components().rounds,
        "active_player": state.active_player,
        "finished": state.finished,
        "pattern": pattern_json(state.pattern),
        "phase": phase(state),
        "free_choice": free_choice(state),
        "legal_now": describe_legal(state),
        "whites_in_shaker": state.whites_in_shaker,
        "side": setup.side,
        "variants": sorted(setup.variants),
        "colours": {
            colour: {"letter": COLOUR_LETTERS.get(colour, "?"), "tile": components().tile_for_colour.get(colour)}
            for colour in components().colours
        },
        "tiles": dict(TILE_NAMES),
        "bonus": [b.to_json() for b in setup.bonus],
        "tracked": record.tracked,
        "can_undo": bool(record.log),
        "players": players,
        "standings": standings_json(record, scores),
    }
    record.view_cache = (record.seq, view)
    return view


def game_view_bytes(record: GameRecord) -> bytes:
    """The JSON text of :func:`game_view`, encoded once per step (every page asks for it)."""
    cached = record.view_bytes
    if cached is not None and cached[0] == record.seq:
        return cached[1]
    text = json.dumps(game_view(record), separators=(",", ":")).encode()
    record.view_bytes = (record.seq, text)
    return text


def log_entry_json(entry: LogEntry) -> dict[str, Any]:
    out = {"seq": entry.seq, "kind": entry.kind, "at": entry.at, **entry.payload}
    if entry.undone_at:
        out["undone_at"] = entry.undone_at
    return out


def game_export(record: GameRecord, log: list[LogEntry]) -> dict[str, Any]:
    """A whole game as JSON: set-up, every log row (undone ones marked), boards, scores, standings."""
    view = game_view(record)
    return {
        "id": record.id,
        "created": record.created,
        "setup": record.game.setup.to_json(),
        "game": record.game.to_json(),
        "log": [log_entry_json(e) for e in log],
        "finished": view["finished"],
        "round": view["round"],
        "players": [
            {"name": p["name"], "board": p["board"], "board_source": p["board_source"], "score": p["score"]}
            for p in view["players"]
        ],
        "standings": view["standings"],
    }


def game_summary(record: GameRecord) -> dict[str, Any]:
    view = game_view(record)
    return {
        "id": record.id,
        "created": record.created,
        "players": [p["name"] for p in view["players"]],
        "side": view["side"],
        "variants": view["variants"],
        "round": view["round"],
        "finished": view["finished"],
        "scores": {p["name"]: p["score"]["total"] for p in view["players"]},
        "winners": view["standings"]["winners"],
    }


def game_csv(record: GameRecord) -> str:
    """One row per player: place, the six categories, total, flipped bonus tiles, empty cells, board."""
    view = game_view(record)
    places = {p["player"]: p["place"] for p in view["standings"]["places"]}
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(
        ["game", "player", "seat", "place", *CATEGORIES, "total", "bonus_flipped", "empty_cells", "construction_left"]
        + ["board"]
    )
    for p in view["players"]:
        s = p["score"]
        writer.writerow(
            [record.id, p["name"], p["seat"] + 1, places.get(p["name"], "")]
            + [s["breakdown"][c] for c in CATEGORIES]
            + [s["total"], " ".join(s["bonus_flipped"]), s["empty_cells"], s["construction_left"], "/".join(p["board"])]
        )
    return out.getvalue()
