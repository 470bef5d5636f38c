"""The round flow of Shake That City as state plus actions.

``apply(state, action)`` returns the next state; every action is checked in :func:`check`, the one
place legality lives, and an illegal one raises :class:`~scoring.errors.IllegalAction` naming what
is legal instead. :class:`Game` keeps the action log, which gives undo, history and replay.

The flow of a round: ``Shake`` (the pattern read from the table), then for every player a ``Place``
(which makes that player's colour choice if ``Choose`` did not already), then ``NextRound``. Players
who can place no colour at all place nothing; ``NextRound`` records that for them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..errors import BoardFormatError, IllegalAction, RulesError
from ..grid import Cell, neighbour_table, to_rows
from ..ranking import rank
from . import readings
from .board import (
    CONSTRUCTION_VARIANT,
    SOLO,
    WILD_NIGHTS,
    Board,
    BonusTile,
    bonus_layout,
    parse_bonus_tile,
    parse_cell,
    parse_side,
    parse_variants,
)
from .catalogue import BUILDING_TILES, CONSTRUCTION, EMPTY, board_side, components, construction_catalogue
from .pattern import Pattern, check_against_shaker
from .placement import Anchor, cells_for, legal_anchors, why_not
from .scorer import Score, score_board

# --------------------------------------------------------------------------------------------- set-up


@dataclass(frozen=True)
class ConstructionTile:
    """A construction tile on a board: it leaves as soon as its two building types are adjacent."""

    name: str
    cell: Cell
    types: tuple[str, str]

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "cell": list(self.cell), "types": list(self.types)}


def default_construction_tiles() -> tuple[ConstructionTile, ...]:
    """The provisional default: the catalogue's four tiles in order on its diagonal cells."""
    cat = construction_catalogue()
    return tuple(
        ConstructionTile(t["name"], (cell[0], cell[1]), (t["types"][0], t["types"][1]))
        for cell, t in zip(cat["cells"], cat["tiles"], strict=True)
    )


def parse_construction_tiles(raw: Any, size: int) -> tuple[ConstructionTile, ...]:
    if isinstance(raw, str) or not isinstance(raw, Sequence) or not raw:
        raise BoardFormatError("construction: expected a non-empty list of {cell, types} objects")
    tiles = []
    for i, t in enumerate(raw):
        where = f"construction[{i}]"
        if not isinstance(t, Mapping):
            raise BoardFormatError(f"{where}: expected an object with cell and types")
        cell = parse_cell(t.get("cell"), size, f"{where}.cell")
        types = t.get("types")
        if (
            isinstance(types, str)
            or not isinstance(types, Sequence)
            or len(types) != 2
            or not all(x in BUILDING_TILES for x in types)
        ):
            raise BoardFormatError(f"{where}.types: expected two of {' '.join(BUILDING_TILES)}, got {types!r}")
        tiles.append(ConstructionTile(str(t.get("name", f"construction-{i + 1}")), cell, (types[0], types[1])))
    cells = [t.cell for t in tiles]
    if len(set(cells)) != len(cells):
        raise BoardFormatError("construction: two tiles on the same cell")
    expected = len(construction_catalogue()["tiles"])
    if len(tiles) != expected:
        raise BoardFormatError(f"construction: {expected} tiles are laid, got {len(tiles)}")
    on_one_diagonal = len({r - c for r, c in cells}) == 1 or len({r + c for r, c in cells}) == 1
    if not on_one_diagonal:
        raise BoardFormatError(f"construction: the tiles must lie on one diagonal, got cells {cells}")
    return tuple(tiles)


@dataclass(frozen=True)
class Setup:
    """Everything fixed before round 1: players in seating order (clockwise), side, variants, tiles."""

    players: tuple[str, ...]
    side: str = "inland"
    variants: frozenset[str] = frozenset()
    bonus: tuple[BonusTile, ...] = ()
    construction: tuple[ConstructionTile, ...] = ()

    @classmethod
    def create(
        cls,
        players: Sequence[str],
        side: str = "inland",
        variants: Iterable[str] = (),
        *,
        bonus_order: Sequence[str] | None = None,
        bonus: Sequence[Mapping[str, Any]] | None = None,
        construction: Sequence[Mapping[str, Any]] | None = None,
    ) -> Setup:
        """Check a set-up and fill in the provisional defaults (bonus layout, construction tiles)."""
        comp = components()
        if isinstance(players, str) or not isinstance(players, Sequence):
            raise BoardFormatError("players: expected a list of names")
        names = tuple(players)
        if not 1 <= len(names) <= comp.max_players:
            raise BoardFormatError(f"players: 1 to {comp.max_players} players, got {len(names)}")
        for i, name in enumerate(names):
            if not isinstance(name, str) or not name.strip():
                raise BoardFormatError(f"players[{i}]: a name must be a non-empty string")
            if len(name) > 40:
                raise BoardFormatError(f"players[{i}]: a name is at most 40 characters")
        if len({n.strip().casefold() for n in names}) != len(names):
            raise BoardFormatError("players: two players have the same name")
        names = tuple(n.strip() for n in names)
        side = parse_side(side)
        size = board_side(side).size
        chosen = parse_variants(list(variants))
        if SOLO in chosen and len(names) != 1:
            raise BoardFormatError(f"variants: solo is for 1 player, got {len(names)}")
        if bonus is not None:
            tiles = tuple(parse_bonus_tile(b, size, f"bonus[{i}]") for i, b in enumerate(bonus))
        else:
            tiles = bonus_layout(bonus_order, size)
        laid: tuple[ConstructionTile, ...] = ()
        if CONSTRUCTION_VARIANT in chosen or SOLO in chosen:
            laid = (
                parse_construction_tiles(construction, size)
                if construction is not None
                else default_construction_tiles()
            )
        elif construction:
            raise BoardFormatError("construction: tiles given but neither construction nor solo is in play")
        return cls(names, side, chosen, tiles, laid)

    def to_json(self) -> dict[str, Any]:
        return {
            "players": list(self.players),
            "side": self.side,
            "variants": sorted(self.variants),
            "bonus": [b.to_json() for b in self.bonus],
            "construction": [t.to_json() for t in self.construction],
        }

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Setup:
        return cls.create(
            raw["players"],
            raw.get("side", "inland"),
            raw.get("variants", ()),
            bonus=raw.get("bonus"),
            construction=raw.get("construction") or None,
        )


# -------------------------------------------------------------------------------------------- actions


@dataclass(frozen=True)
class Choice:
    """A colour taken from the pattern, with or without every white wild cube."""

    colour: str
    wilds: bool = False

    def __str__(self) -> str:
        return f"{self.colour}+wilds" if self.wilds else self.colour


@dataclass(frozen=True)
class Shake:
    """The pattern the shaker left on the table this round."""

    pattern: Pattern


@dataclass(frozen=True)
class Choose:
    """A player takes a colour (the active player first, in the rounds where that matters)."""

    player: str
    colour: str
    wilds: bool = False


@dataclass(frozen=True)
class Place:
    """A player places the chosen colour's shape with the pattern's top-left cell on (row, col)."""

    player: str
    colour: str
    wilds: bool
    row: int
    col: int


@dataclass(frozen=True)
class NextRound:
    """Advance the round marker (after round 15: the game ends)."""


Action = Shake | Choose | Place | NextRound


def action_to_json(action: Action) -> dict[str, Any]:
    if isinstance(action, Shake):
        return {"type": "shake", "pattern": action.pattern.to_json()}
    if isinstance(action, Choose):
        return {"type": "choose", "player": action.player, "colour": action.colour, "wilds": action.wilds}
    if isinstance(action, Place):
        return {
            "type": "place",
            "player": action.player,
            "colour": action.colour,
            "wilds": action.wilds,
            "row": action.row,
            "col": action.col,
        }
    return {"type": "next_round"}


def action_from_json(raw: Mapping[str, Any]) -> Action:
    """Build an action from its JSON form, refusing malformed ones with a one-line reason."""
    if not isinstance(raw, Mapping):
        raise BoardFormatError("action: expected an object with a type")
    kind = raw.get("type")
    try:
        if kind == "shake":
            return Shake(Pattern.parse(raw["pattern"]))
        if kind == "choose":
            return Choose(_text(raw, "player"), _text(raw, "colour"), _flag(raw, "wilds"))
        if kind == "place":
            return Place(
                _text(raw, "player"), _text(raw, "colour"), _flag(raw, "wilds"), _whole(raw, "row"), _whole(raw, "col")
            )
        if kind == "next_round":
            return NextRound()
    except KeyError as e:
        raise BoardFormatError(f"action {kind}: missing {e.args[0]}") from None
    raise BoardFormatError(f"action: unknown type {kind!r}; types are shake, choose, place, next_round")


def _text(raw: Mapping[str, Any], key: str) -> str:
    value = raw[key]
    if not isinstance(value, str):
        raise BoardFormatError(f"{key}: expected a string, got {value!r}")
    return value


def _flag(raw: Mapping[str, Any], key: str) -> bool:
    value = raw.get(key, False)
    if not isinstance(value, bool):
        raise BoardFormatError(f"{key}: expected true or false, got {value!r}")
    return value


def _whole(raw: Mapping[str, Any], key: str) -> int:
    value = raw[key]
    if not isinstance(value, int) or isinstance(value, bool):
        raise BoardFormatError(f"{key}: expected a whole number, got {value!r}")
    return value


# ---------------------------------------------------------------------------------------------- state


@dataclass(frozen=True)
class PlayerState:
    """One player's board and this round's progress."""

    name: str
    grid: str
    construction: tuple[ConstructionTile, ...]  # still on the board
    choice: Choice | None = None
    placed: tuple[Cell, ...] | None = None  # None: still to place this round; (): places nothing

    @property
    def rows(self) -> list[str]:
        return to_rows(self.grid, int(len(self.grid) ** 0.5))


@dataclass(frozen=True)
class GameState:
    setup: Setup
    round_no: int
    active: int  # index into setup.players
    pattern: Pattern | None
    players: tuple[PlayerState, ...]
    whites_in_shaker: int
    finished: bool = False
    removed: tuple[tuple[str, str], ...] = field(default=())  # (player, construction tile) in order of removal

    @property
    def active_player(self) -> str:
        return self.setup.players[self.active]

    def player(self, name: str) -> PlayerState:
        for p in self.players:
            if p.name == name:
                return p
        raise IllegalAction(f"no player called {name!r}; players are {', '.join(self.setup.players)}")

    def shaker(self) -> dict[str, int]:
        """The cubes in the shaker this round: the 32 building cubes and the white ones that joined."""
        return {**components().cubes, components().wild_colour: self.whites_in_shaker}

    def board(self, name: str) -> Board:
        setup = self.setup
        return Board(setup.side, self.player(name).grid, setup.variants, setup.bonus)


def new_game(setup: Setup) -> GameState:
    """The state before the first shake: empty boards (construction tiles laid), marker on round 1."""
    size = board_side(setup.side).size
    grid = [EMPTY] * (size * size)
    for t in setup.construction:
        grid[t.cell[0] * size + t.cell[1]] = CONSTRUCTION
    comp = components()
    whites = comp.whites_at_start if WILD_NIGHTS in setup.variants else 0
    players = tuple(PlayerState(name, "".join(grid), setup.construction) for name in setup.players)
    return GameState(setup, 1, 0, None, players, whites)


# -------------------------------------------------------------------------------------------- queries


def free_choice(state: GameState) -> bool:
    """Rounds 13-15: everyone picks any colour present."""
    return state.round_no >= components().free_choice_from_round


def _solo_barred(state: GameState) -> str | None:
    """The colour the solo limit bars this round, if any."""
    if SOLO not in state.setup.variants or state.pattern is None:
        return None
    if state.round_no >= components().solo_limit_lifted_from_round:
        return None
    counts = state.pattern.counts()
    colours = list(components().cubes)
    if readings.SOLO_LIMIT_COUNTS_WILDS:
        colours.append(components().wild_colour)
    most = max(counts[c] for c in colours)
    leaders = [c for c in colours if counts[c] == most]
    return leaders[0] if len(leaders) == 1 else None


def _active_colour(state: GameState) -> str | None:
    """The colour the active player took this round, or None if not yet chosen / nothing placeable."""
    return state.players[state.active].choice.colour if state.players[state.active].choice else None


def _active_places_nothing(state: GameState) -> bool:
    active = state.players[state.active]
    return active.placed == () or (active.choice is None and not legal_choices(state, active.name))


def allowed_choices(state: GameState, player: str) -> list[Choice]:
    """The choices the colour rules allow ``player`` now, before asking whether the shape fits."""
    if state.pattern is None or state.finished:
        return []
    me = state.player(player)
    present = list(state.pattern.colours_present())
    barred = _solo_barred(state)
    if barred:
        present.remove(barred)
    if not free_choice(state) and player != state.active_player:
        active_colour = _active_colour(state)
        if active_colour is not None:
            present = [c for c in present if c != active_colour]
    if me.choice is not None:
        present = [c for c in present if c == me.choice.colour]
    wild_options = [False, True] if state.pattern.wilds else [False]
    out = [Choice(c, w) for c in present for w in wild_options]
    if me.choice is not None:
        out = [c for c in out if c == me.choice]
    return out


def placements(state: GameState, player: str, choice: Choice) -> list[Anchor]:
    """Every anchor where ``choice``'s shape fits on ``player``'s board (ignores whose turn it is)."""
    if state.pattern is None:
        return []
    size = board_side(state.setup.side).size
    return legal_anchors(state.player(player).grid, size, state.pattern.shape(choice.colour, choice.wilds))


def legal_choices(state: GameState, player: str) -> list[Choice]:
    """The allowed choices whose shape fits somewhere on the player's board."""
    return [c for c in allowed_choices(state, player) if placements(state, player, c)]


def waiting_for_active(state: GameState, player: str) -> bool:
    """Whether ``player`` must wait for the active player's choice before choosing."""
    if not readings.OTHERS_WAIT_FOR_ACTIVE_CHOICE or free_choice(state) or player == state.active_player:
        return False
    if _active_colour(state) is not None:
        return False
    return not (readings.OTHERS_FREE_WHEN_ACTIVE_PLACES_NOTHING and _active_places_nothing(state))


def still_to_place(state: GameState) -> list[str]:
    """Players who have a legal choice and have not placed yet this round."""
    if state.pattern is None:
        return []
    return [p.name for p in state.players if p.placed is None and legal_choices(state, p.name)]


def _describe(choices: Sequence[Choice]) -> str:
    return ", ".join(str(c) for c in choices) or "none"


def describe_legal(state: GameState) -> str:
    """What may happen now, in words, for error messages."""
    if state.finished:
        return "the game is over; nothing more can be played (undo takes back the last action)"
    if state.pattern is None:
        return f"round {state.round_no} waits for a shake ({state.active_player} shakes)"
    parts = []
    for p in state.players:
        if p.placed is not None:
            continue
        if waiting_for_active(state, p.name):
            parts.append(f"{p.name} waits for {state.active_player} to choose")
            continue
        choices = legal_choices(state, p.name)
        if choices:
            parts.append(f"{p.name} may take {_describe(choices)}")
    if not parts:
        return f"every player is done with round {state.round_no}: next round"
    return "; ".join(parts)


# ------------------------------------------------------------------------------------------ legality


def check(state: GameState, action: Action) -> None:
    """Raise IllegalAction, naming what is legal, unless ``action`` may be applied to ``state``."""
    if state.finished:
        raise IllegalAction(describe_legal(state))
    if isinstance(action, Shake):
        _check_shake(state, action)
    elif isinstance(action, Choose | Place):
        _check_choice(state, action.player, Choice(action.colour, action.wilds))
        if isinstance(action, Place):
            _check_place(state, action)
    elif isinstance(action, NextRound):
        if state.pattern is None:
            raise IllegalAction(f"round {state.round_no} has no pattern yet: {describe_legal(state)}")
        waiting = still_to_place(state)
        if waiting:
            raise IllegalAction(f"still to place: {', '.join(waiting)} ({describe_legal(state)})")
    else:
        raise IllegalAction(f"unknown action {action!r}")


def _check_shake(state: GameState, action: Shake) -> None:
    if state.pattern is not None:
        started = [p.name for p in state.players if p.choice is not None or p.placed is not None]
        if started or not readings.RESHAKE_ALLOWED_UNTIL_FIRST_CHOICE:
            raise IllegalAction(
                f"round {state.round_no} already has its pattern and {', '.join(started)} chose; "
                f"legal now: {describe_legal(state)}"
            )
    try:
        check_against_shaker(action.pattern, state.shaker())
    except RulesError as e:
        raise IllegalAction(f"impossible pattern: {e}; shake again") from None


def _check_choice(state: GameState, player: str, choice: Choice) -> None:
    me = state.player(player)
    if state.pattern is None:
        raise IllegalAction(f"no pattern yet: {describe_legal(state)}")
    if me.placed is not None:
        raise IllegalAction(f"{player} has already placed this round; {describe_legal(state)}")
    if waiting_for_active(state, player):
        raise IllegalAction(f"{player} waits for the active player {state.active_player} to choose first")
    comp = components()
    if choice.colour not in comp.cubes:
        raise IllegalAction(f"{choice.colour!r} is not a building colour; colours are {', '.join(comp.cubes)}")
    if choice.wilds and not state.pattern.wilds:
        raise IllegalAction("the pattern has no white wild cube to take")
    legal = legal_choices(state, player)
    if choice in legal:
        return
    allowed = allowed_choices(state, player)
    if me.choice is not None and choice != me.choice:
        reason = f"{player} already chose {me.choice}"
    elif choice.colour not in state.pattern.colours_present():
        reason = f"the pattern has no {choice.colour} cube"
    elif choice.colour == _solo_barred(state):
        reason = f"{choice.colour} is the most numerous colour (solo limit, until round {comp.free_choice_from_round})"
    elif choice not in allowed:
        reason = f"{choice.colour} is the active player {state.active_player}'s colour this round"
    else:
        reason = f"the {choice} shape fits nowhere on {player}'s board"
    tail = f"{player} may take {_describe(legal)}" if legal else f"{player} can place nothing this round"
    raise IllegalAction(f"{reason}; {tail}")


def _check_place(state: GameState, action: Place) -> None:
    assert state.pattern is not None
    choice = Choice(action.colour, action.wilds)
    size = board_side(state.setup.side).size
    shape = state.pattern.shape(choice.colour, choice.wilds)
    problem = why_not(state.player(action.player).grid, size, shape, (action.row, action.col))
    if problem:
        spots = placements(state, action.player, choice)
        shown = ", ".join(f"({r}, {c})" for r, c in spots[:12]) + (" ..." if len(spots) > 12 else "")
        raise IllegalAction(
            f"{choice} cannot go at ({action.row}, {action.col}): {problem}; legal spots for {choice}: {shown}"
        )


# ---------------------------------------------------------------------------------------------- apply


def apply(state: GameState, action: Action) -> GameState:
    """The state after ``action``; raises IllegalAction (naming what is legal) if it is not allowed."""
    check(state, action)
    if isinstance(action, Shake):
        return replace(state, pattern=action.pattern)
    if isinstance(action, Choose):
        return _update(state, action.player, choice=Choice(action.colour, action.wilds))
    if isinstance(action, Place):
        return _place(state, action)
    return _next_round(state)


def _update(state: GameState, name: str, **changes: Any) -> GameState:
    return replace(state, players=tuple(replace(p, **changes) if p.name == name else p for p in state.players))


def _place(state: GameState, action: Place) -> GameState:
    assert state.pattern is not None
    me = state.player(action.player)
    size = board_side(state.setup.side).size
    tile = components().tile_for_colour[action.colour]
    cells = cells_for(state.pattern.shape(action.colour, action.wilds), (action.row, action.col))
    grid = list(me.grid)
    for r, c in cells:
        grid[r * size + c] = tile
    remaining, removed = _remove_construction(grid, me.construction, size)
    state = _update(
        state,
        me.name,
        grid="".join(grid),
        construction=remaining,
        choice=Choice(action.colour, action.wilds),
        placed=tuple(cells),
    )
    return replace(state, removed=state.removed + tuple((me.name, t.name) for t in removed))


def _remove_construction(
    grid: list[str], tiles: tuple[ConstructionTile, ...], size: int
) -> tuple[tuple[ConstructionTile, ...], list[ConstructionTile]]:
    """Take off every construction tile whose two types now stand orthogonally adjacent anywhere."""
    table = neighbour_table(size)
    remaining, removed = [], []
    for t in tiles:
        a, b = t.types
        met = any(grid[i] == a and any(grid[j] == b for j in table[i]) for i in range(len(grid)))
        if met:
            grid[t.cell[0] * size + t.cell[1]] = EMPTY
            removed.append(t)
        else:
            remaining.append(t)
    return tuple(remaining), removed


def _next_round(state: GameState) -> GameState:
    assert state.pattern is not None
    comp = components()
    whites = state.whites_in_shaker - state.pattern.wilds  # white cubes in the pattern leave the game
    players = tuple(replace(p, choice=None, placed=None) for p in state.players)
    if state.round_no >= comp.rounds:
        return replace(state, players=players, whites_in_shaker=whites, pattern=None, finished=True)
    round_no = state.round_no + 1
    if WILD_NIGHTS in state.setup.variants and round_no in comp.white_join_rounds:
        whites += 1
    return replace(
        state,
        round_no=round_no,
        active=(state.active + 1) % len(state.players),
        pattern=None,
        players=players,
        whites_in_shaker=whites,
    )


# -------------------------------------------------------------------------------------------- scores


@dataclass(frozen=True)
class Standing:
    place: int
    player: str
    score: Score
    eligible: bool  # False: construction tiles left under Construction/Solo, so cannot win


@dataclass(frozen=True)
class Standings:
    places: tuple[Standing, ...]
    winners: tuple[str, ...]
    explanation: tuple[str, ...]


def tie_break_key(score: Score, eligible: bool) -> tuple[int, int, int, int]:
    """Most points, then most flipped bonus tiles, then fewest empty cells; ineligible boards last."""
    return (int(eligible), score.total, len(score.bonus_flipped), -score.empty_cells)


def standings(scores: Mapping[str, Score], variants: Iterable[str] = ()) -> Standings:
    """Rank players by points and the tie-breaks; under Construction or Solo only boards with no
    construction tile left can win, and if none is, nobody wins."""
    chosen = set(variants)
    needs_clear = CONSTRUCTION_VARIANT in chosen or SOLO in chosen
    entries = [(name, s, not (needs_clear and s.construction_left)) for name, s in scores.items()]
    ranked = rank(entries, key=lambda e: tie_break_key(e[1], e[2]))
    places = tuple(Standing(p.place, p.entry[0], p.entry[1], p.entry[2]) for p in ranked)
    explanation = []
    eligible = [s for s in places if s.eligible]
    if not eligible:
        winners: tuple[str, ...] = ()
        explanation.append("nobody removed all construction tiles, so nobody wins")
    else:
        winners = tuple(s.player for s in eligible if s.place == 1)
        tied = [s for s in eligible if s.score.total == eligible[0].score.total]
        if len(tied) > 1:
            explanation.append(f"{', '.join(s.player for s in tied)} tie on {tied[0].score.total} points")
            flips = [len(s.score.bonus_flipped) for s in tied]
            explanation.append(
                "bonus tiles flipped: " + ", ".join(f"{s.player} {n}" for s, n in zip(tied, flips, strict=True))
            )
            still_tied = [s for s, n in zip(tied, flips, strict=True) if n == max(flips)]
            if len(still_tied) > 1:
                explanation.append("empty cells: " + ", ".join(f"{s.player} {s.score.empty_cells}" for s in still_tied))
        if len(winners) > 1:
            explanation.append(f"{' and '.join(winners)} share the win")
        elif winners:
            explanation.append(f"{winners[0]} wins")
    for s in places:
        if not s.eligible:
            explanation.append(f"{s.player} has construction tiles left and cannot win")
    return Standings(places, winners, tuple(explanation))


def scores(state: GameState) -> dict[str, Score]:
    """Every player's score on their board as it stands (live during the game, final at the end)."""
    return {p.name: score_board(state.board(p.name)) for p in state.players}


# ------------------------------------------------------------------------------------- log and undo


class Game:
    """A game as its set-up plus the log of actions; the state is the log replayed."""

    def __init__(self, setup: Setup, actions: Iterable[Action] = ()) -> None:
        self.setup = setup
        self.actions: list[Action] = []
        self._states = [new_game(setup)]
        for action in actions:
            self.apply(action)

    @property
    def state(self) -> GameState:
        return self._states[-1]

    def apply(self, action: Action) -> GameState:
        """Check and apply ``action``, logging it; the state is unchanged if it is illegal."""
        after = apply(self.state, action)
        self.actions.append(action)
        self._states.append(after)
        return after

    def undo(self) -> Action:
        """Take back the last action and return it."""
        if not self.actions:
            raise IllegalAction("nothing to undo: no action has been played")
        self._states.pop()
        return self.actions.pop()

    def to_json(self) -> dict[str, Any]:
        return {"setup": self.setup.to_json(), "actions": [action_to_json(a) for a in self.actions]}

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Game:
        """Replay a logged game; any illegal action in the log is an error."""
        return cls(Setup.from_json(raw["setup"]), [action_from_json(a) for a in raw.get("actions", [])])


def replay(setup: Setup, actions: Iterable[Action]) -> GameState:
    """The state after ``actions`` from ``setup``: the pure form of :class:`Game`."""
    state = new_game(setup)
    for action in actions:
        state = apply(state, action)
    return state


__all__ = [
    "Action",
    "Choice",
    "Choose",
    "ConstructionTile",
    "Game",
    "GameState",
    "NextRound",
    "Place",
    "PlayerState",
    "Setup",
    "Shake",
    "Standings",
    "allowed_choices",
    "apply",
    "check",
    "legal_choices",
    "new_game",
    "placements",
    "replay",
    "scores",
    "standings",
    "still_to_place",
]
