"""Whole 15-round games, played action by action, with every step checked against the rules page.

The table's actions come from a seeded script (shakes drawn from the shaker's real contents, choices
and spots picked at random among the legal ones); after each action the test re-derives what the rules
say independently of the engine's own helpers and compares.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from scoring.errors import IllegalAction
from scoring.shake_that_city.game import (
    Game,
    NextRound,
    Place,
    Setup,
    Shake,
    allowed_choices,
    legal_choices,
    placements,
)
from scoring.shake_that_city.scorer import score_board
from tests.scoring.oracle import around, oracle_score
from tests.scoring.play import shake_from

TILE = {"red": "H", "blue": "S", "black": "F", "green": "P", "gray": "R"}


def expected_colours(pattern, round_no: int, me: str, active: str, active_colour: str | None, solo: bool) -> set[str]:
    counts = Counter(c for row in pattern.to_json() for c in row if c != "white")
    colours = set(counts)
    if round_no <= 12 and me != active and active_colour is not None:
        colours.discard(active_colour)
    if solo and round_no <= 12:
        most = max(counts.values())
        leaders = [c for c, n in counts.items() if n == most]
        if len(leaders) == 1:
            colours.discard(leaders[0])
    return colours


def adjacent_types(grid: str, a: str, b: str) -> bool:
    return any(
        grid[r * 6 + c] == a and any(grid[x * 6 + y] == b for x, y in around(r, c)) for r in range(6) for c in range(6)
    )


def play_whole_game(players: list[str], variants: list[str], seed: int) -> Game:
    rng = random.Random(seed)
    setup = Setup.create(players, rng.choice(["inland", "waterfront"]), variants)
    g = Game(setup)
    wild = "wild_nights" in variants
    solo = "solo" in variants
    whites = 1 if wild else 0
    whites_seen = 0
    placed_tiles = dict.fromkeys(players, 0)
    for round_no in range(1, 16):
        state = g.state
        assert (state.round_no, state.active_player) == (round_no, players[(round_no - 1) % len(players)])
        assert state.whites_in_shaker == whites
        pattern = shake_from(state, rng)
        g.apply(Shake(pattern))
        active = g.state.active_player
        active_colour = None
        for name in [active] + [p for p in players if p != active]:
            before = g.state.player(name)
            allowed = {c.colour for c in allowed_choices(g.state, name)}
            assert allowed == expected_colours(pattern, round_no, name, active, active_colour, solo)
            choices = legal_choices(g.state, name)
            if not choices:
                with pytest.raises(IllegalAction, match="can place nothing this round|fits nowhere|colour"):
                    g.apply(Place(name, "red", False, 0, 0))
                continue
            choice = rng.choice(choices)
            if choice.wilds:
                assert pattern.wilds > 0
            row, col = rng.choice(placements(g.state, name, choice))
            g.apply(Place(name, choice.colour, choice.wilds, row, col))
            if name == active:
                active_colour = choice.colour
            after = g.state.player(name)
            shape = [
                (r, c)
                for r, cubes in enumerate(pattern.to_json())
                for c, cube in enumerate(cubes)
                if cube == choice.colour or (choice.wilds and cube == "white")
            ]
            covered = {(row + r) * 6 + col + c for r, c in shape}
            for i in range(36):
                if i in covered:
                    assert before.grid[i] == "." and after.grid[i] == TILE[choice.colour]
                elif before.grid[i] == "C" and after.grid[i] == ".":
                    tile = next(t for t in before.construction if t.cell == divmod(i, 6))
                    assert adjacent_types(after.grid, *tile.types)
                else:
                    assert after.grid[i] == before.grid[i]
            for t in after.construction:
                assert not adjacent_types(after.grid, *t.types)
            placed_tiles[name] += len(shape)
        g.apply(NextRound())
        whites_seen += pattern.wilds
        whites -= pattern.wilds
        if wild and 2 <= round_no + 1 <= 8:
            whites += 1
    state = g.state
    assert state.finished and state.round_no == 15
    assert whites_seen <= (8 if wild else 0)
    for p in state.players:
        assert sum(ch in "HSFPR" for ch in p.grid) == placed_tiles[p.name]
        board = state.board(p.name)
        engine = score_board(board).to_json()
        engine.pop("notes", None)
        bonus = [b.to_json() for b in setup.bonus]
        assert engine == oracle_score(setup.side, board.rows, sorted(setup.variants), bonus)
    replayed = Game.from_json(g.to_json())
    assert replayed.state == state
    while g.actions:
        g.undo()
    assert g.state == Game(setup).state
    return replayed


@pytest.mark.parametrize("seed", range(6))
def test_one_player_solo_game(seed: int) -> None:
    play_whole_game(["Ann"], ["solo"], seed)


@pytest.mark.parametrize("seed", range(6))
def test_one_player_solo_wild_nights_game(seed: int) -> None:
    g = play_whole_game(["Ann"], ["solo", "wild_nights"], seed)
    assert g.state.setup.variants == {"solo", "wild_nights"}


@pytest.mark.parametrize("seed", range(4))
def test_four_player_game(seed: int) -> None:
    play_whole_game(["Ann", "Bo", "Cy", "Di"], [], seed)


@pytest.mark.parametrize("seed", range(4))
def test_four_player_wild_nights_construction_game(seed: int) -> None:
    play_whole_game(["Ann", "Bo", "Cy", "Di"], ["wild_nights", "construction"], seed)


@pytest.mark.parametrize("seed", range(3))
def test_two_player_family_wild_nights_game(seed: int) -> None:
    play_whole_game(["Ann", "Bo"], ["family", "wild_nights"], seed)
