"""The table's memory: games and their action logs in SQLite (standard library, WAL) under ``--data``.

Every change is one row in the ``log`` table, committed before the caller is told it happened, so a
restart (even ``kill -9`` or a pulled plug) replays the log and resumes exactly. The log holds the
engine's actions (``shake``, ``choose``, ``place``, ``next_round``) and the boards set from photos or
corrections (``board``); undo marks the last live row undone, so history keeps what was taken back.

One process owns the database (waitress: one process, many threads). A single connection is shared
under a lock; the current game is also kept in memory, replayed from the log at start.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from scoring.errors import IllegalAction
from scoring.grid import parse_rows, to_rows
from scoring.shake_that_city.catalogue import GRID_LETTERS, board_side
from scoring.shake_that_city.game import Action, Game, Setup, action_from_json, action_to_json

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    created TEXT NOT NULL,
    setup TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS log (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    at TEXT NOT NULL,
    undone_at TEXT,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS form_nonces (
    nonce TEXT PRIMARY KEY,
    at TEXT NOT NULL
);
"""

PAST_GAMES_KEPT = 64
ENGINE = "engine"
BOARD = "board"
BONUS = "bonus"


class StaleRequest(IllegalAction):
    """A write made against a log position that is no longer the game's (a double submit, a race)."""


class NoGame(LookupError):
    """No game has been set up yet, or no game with that id."""


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


@dataclass
class LogEntry:
    seq: int
    kind: str  # "engine" or "board"
    payload: dict[str, Any]
    at: str
    undone_at: str | None = None


@dataclass
class GameRecord:
    """One game: its set-up, the engine replayed from the live log, and boards set from photos."""

    id: int
    created: str
    game: Game
    log: list[LogEntry] = field(default_factory=list)  # live entries only, in order
    boards: dict[str, dict[str, Any]] = field(default_factory=dict)  # player -> {"grid", "source", "photo"}
    bonus: dict[str, dict[str, bool]] = field(default_factory=dict)  # player -> bonus tile -> flipped, by hand
    next_seq: int = 1  # seq numbers are never reused, even after undo
    version: int = 0  # every write to this game's log (append or undo): only ever grows
    view_cache: tuple[int, Any] | None = None  # (seq, JSON view) kept by convert.game_view
    view_bytes: tuple[int, bytes] | None = None  # (seq, encoded JSON view) kept by convert.game_view_bytes

    @property
    def seq(self) -> int:
        """The position of the game: the seq of the last live entry (0 before any)."""
        return self.log[-1].seq if self.log else 0

    @property
    def tracked(self) -> bool:
        """Whether the game was tracked move by move (at least one tile placed through the engine)."""
        return any(e.kind == ENGINE and e.payload.get("type") == "place" for e in self.log)

    def _replay_entry(self, entry: LogEntry) -> None:
        if entry.kind == ENGINE:
            self.game.apply(action_from_json(entry.payload))
        elif entry.kind == BONUS:
            mine = self.bonus.setdefault(entry.payload["player"], {})
            if entry.payload["flipped"] is None:
                mine.pop(entry.payload["tile"], None)
            else:
                mine[entry.payload["tile"]] = bool(entry.payload["flipped"])
        else:
            self.boards[entry.payload["player"]] = {
                "grid": list(entry.payload["grid"]),
                "source": entry.payload.get("source", "correction"),
                "photo": entry.payload.get("photo"),
            }

    def rebuild_boards(self) -> None:
        """Boards and bonus verdicts set by hand, replayed from the live log (after an undo)."""
        self.boards = {}
        self.bonus = {}
        for e in self.log:
            if e.kind != ENGINE:
                self._replay_entry(e)


def check_grid(raw: Any, side: str) -> list[str]:
    """A board grid from a request: ``size`` strings of ``size`` letters of ``H S F P R C .``."""
    size = board_side(side).size
    try:
        return to_rows(parse_rows(raw, size, GRID_LETTERS), size)
    except ValueError as e:
        raise IllegalAction(str(e)) from None


class Store:
    """Games and action logs in one SQLite file; every write committed before it returns."""

    def __init__(self, path: str | Path, on_change: Callable[[GameRecord, dict[str, Any]], None] | None = None):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()
        self._conn: sqlite3.Connection | None = sqlite3.connect(
            self.path, check_same_thread=False, isolation_level=None
        )
        self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.execute("PRAGMA synchronous=FULL")  # a pulled plug loses nothing that was acknowledged
        self._conn.execute("PRAGMA foreign_keys=ON")
        self._conn.executescript(SCHEMA)
        self.on_change = on_change
        self._current: GameRecord | None = None
        self._past: dict[int, GameRecord] = {}
        self._load_current()

    # ------------------------------------------------------------------------------------ plumbing

    @property
    def lock(self) -> threading.RLock:
        """Held while reading a game that others may be changing (a view is built from one state)."""
        return self._lock

    @property
    def conn(self) -> sqlite3.Connection:
        if self._conn is None:
            raise RuntimeError("the store is closed")
        return self._conn

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _write(self, sql_and_params: list[tuple[str, tuple[Any, ...]]]) -> None:
        conn = self.conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            for sql, params in sql_and_params:
                conn.execute(sql, params)
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    def _notify(self, record: GameRecord, event: dict[str, Any]) -> None:
        if self.on_change is not None:
            self.on_change(record, event)

    # ------------------------------------------------------------------------------------- reading

    def _load(self, game_id: int) -> GameRecord:
        row = self.conn.execute("SELECT id, created, setup FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise NoGame(f"no game {game_id}")
        record = GameRecord(row[0], row[1], Game(Setup.from_json(json.loads(row[2]))))
        rows = self.conn.execute(
            "SELECT seq, kind, payload, at, undone_at FROM log WHERE game_id = ? ORDER BY seq", (game_id,)
        ).fetchall()
        for seq, kind, payload, at, undone_at in rows:
            record.next_seq = seq + 1
            record.version += 2 if undone_at is not None else 1
            if undone_at is not None:
                continue
            entry = LogEntry(seq, kind, json.loads(payload), at)
            record._replay_entry(entry)
            record.log.append(entry)
        return record

    def _load_current(self) -> None:
        row = self.conn.execute("SELECT max(id) FROM games").fetchone()
        self._current = self._load(row[0]) if row and row[0] is not None else None

    def current(self) -> GameRecord:
        """The game being played (the latest set up); NoGame if none yet."""
        with self._lock:
            if self._current is None:
                raise NoGame("no game has been set up yet: POST /api/games")
            return self._current

    def current_or_none(self) -> GameRecord | None:
        with self._lock:
            return self._current

    def load(self, game_id: int) -> GameRecord:
        """Any game by id. Past games no longer change, so a few are kept replayed in memory."""
        with self._lock:
            if self._current is not None and self._current.id == game_id:
                return self._current
            record = self._past.pop(game_id, None) or self._load(game_id)
            self._past[game_id] = record  # most recently used last
            while len(self._past) > PAST_GAMES_KEPT:
                self._past.pop(next(iter(self._past)))
            return record

    def full_log(self, game_id: int) -> list[LogEntry]:
        """Every log row of a game, undone ones too, for history and export."""
        with self._lock:
            rows = self.conn.execute(
                "SELECT seq, kind, payload, at, undone_at FROM log WHERE game_id = ? ORDER BY seq", (game_id,)
            ).fetchall()
        return [LogEntry(s, k, json.loads(p), a, u) for s, k, p, a, u in rows]

    def games(self, limit: int = 200) -> list[tuple[int, str, dict[str, Any]]]:
        """(id, created, setup) of past games, newest first."""
        with self._lock:
            rows = self.conn.execute(
                "SELECT id, created, setup FROM games ORDER BY id DESC LIMIT ?", (limit,)
            ).fetchall()
        return [(r[0], r[1], json.loads(r[2])) for r in rows]

    # ------------------------------------------------------------------------------------- writing

    def create_game(self, setup: Setup) -> GameRecord:
        """Set up a new game; it becomes the current one (earlier games stay in history)."""
        with self._lock:
            conn = self.conn
            created = _now()
            conn.execute("BEGIN IMMEDIATE")
            try:
                cur = conn.execute(
                    "INSERT INTO games (created, setup) VALUES (?, ?)", (created, json.dumps(setup.to_json()))
                )
                game_id = int(cur.lastrowid or 0)
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
            self._current = GameRecord(game_id, created, Game(setup))
            self._notify(self._current, {"type": "game", "change": "created"})
            return self._current

    def _check_seq(self, record: GameRecord, expect_seq: int | None) -> None:
        if expect_seq is not None and expect_seq != record.seq:
            raise StaleRequest(
                f"the game has moved on (it is at step {record.seq}, the request was made at step {expect_seq}); "
                "reload and try again"
            )

    def apply(self, action: Action, expect_seq: int | None = None) -> GameRecord:
        """Check ``action`` with the engine, log it, commit, then tell listeners."""
        with self._lock:
            record = self.current()
            self._check_seq(record, expect_seq)
            record.game.apply(action)  # raises IllegalAction naming what is legal; nothing changed then
            payload = action_to_json(action)
            try:
                self._append(record, ENGINE, payload)
            except BaseException:
                record.game.undo()
                raise
            self._notify(record, {"type": "game", "change": payload["type"], "action": payload})
            return record

    def set_board(
        self,
        player: str,
        grid: Any,
        source: str = "correction",
        photo: str | None = None,
        expect_seq: int | None = None,
    ) -> GameRecord:
        """Record a player's board as read from a photo or corrected by hand."""
        with self._lock:
            record = self.current()
            self._check_seq(record, expect_seq)
            record.game.state.player(player)  # IllegalAction naming the players if unknown
            rows = check_grid(grid, record.game.setup.side)
            payload = {"player": player, "grid": rows, "source": source, "photo": photo}
            self._append(record, BOARD, payload)
            record.boards[player] = {"grid": rows, "source": source, "photo": photo}
            self._notify(record, {"type": "game", "change": "board", "player": player})
            return record

    def set_bonus(self, player: str, tile: Any, flipped: Any, expect_seq: int | None = None) -> GameRecord:
        """A player confirms (True) or denies (False) a bonus tile's flip by hand; None gives it back to the engine."""
        with self._lock:
            record = self.current()
            self._check_seq(record, expect_seq)
            record.game.state.player(player)
            names = [b.name for b in record.game.setup.bonus]
            if tile not in names:
                listed = ", ".join(names) or "none"
                raise IllegalAction(f"tile: no bonus tile {tile!r} in this game; tiles are {listed}")
            if flipped is not None and not isinstance(flipped, bool):
                raise IllegalAction("flipped: expected true, false or null (the engine decides)")
            payload = {"player": player, "tile": tile, "flipped": flipped}
            self._append(record, BONUS, payload)
            record._replay_entry(record.log[-1])
            self._notify(record, {"type": "game", "change": "bonus", "player": player})
            return record

    def _append(self, record: GameRecord, kind: str, payload: dict[str, Any]) -> None:
        entry = LogEntry(record.next_seq, kind, payload, _now())
        self._write(
            [
                (
                    "INSERT INTO log (game_id, seq, kind, payload, at) VALUES (?, ?, ?, ?, ?)",
                    (record.id, entry.seq, kind, json.dumps(payload), entry.at),
                )
            ]
        )
        record.log.append(entry)
        record.next_seq = entry.seq + 1
        record.version += 1

    def undo(self, expect_seq: int | None = None) -> tuple[GameRecord, LogEntry]:
        """Take back the last live log entry (an action or a board), and return it."""
        with self._lock:
            record = self.current()
            self._check_seq(record, expect_seq)
            if not record.log:
                raise IllegalAction("nothing to undo: no action has been played in this game")
            entry = record.log[-1]
            at = _now()
            self._write([("UPDATE log SET undone_at = ? WHERE game_id = ? AND seq = ?", (at, record.id, entry.seq))])
            record.log.pop()
            record.version += 1
            entry.undone_at = at
            if entry.kind == ENGINE:
                record.game.undo()
            else:
                record.rebuild_boards()
            self._notify(record, {"type": "game", "change": "undo", "undone": {"kind": entry.kind, **entry.payload}})
            return record, entry

    def consume_nonce(self, nonce: str) -> bool:
        """True the first time a form's nonce is seen, False after (a form sent twice)."""
        with self._lock:
            try:
                self._write([("INSERT INTO form_nonces (nonce, at) VALUES (?, ?)", (nonce, _now()))])
            except sqlite3.IntegrityError:
                return False
            return True
