"""Invariants of the rules, and agreement with an independent implementation on random boards."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.grid import parse_rows
from scoring.shake_that_city.board import VARIANTS, parse_board
from scoring.shake_that_city.catalogue import GRID_LETTERS
from scoring.shake_that_city.scorer import score_board
from tests.scoring.oracle import oracle_score

letters = st.sampled_from(GRID_LETTERS)
grids = st.lists(st.text(letters, min_size=6, max_size=6), min_size=6, max_size=6)
cells = st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5)), min_size=1, max_size=8, unique=True)
bonus_tiles = st.one_of(
    st.builds(lambda c: {"condition": "full", "cells": [list(x) for x in c]}, cells),
    st.builds(
        lambda c, t, n: {"condition": "count", "type": t, "n": n, "cells": [list(x) for x in c]},
        cells,
        st.sampled_from("HSFPR"),
        st.integers(1, 4),
    ),
)


def board_json(side: str, grid: list[str], variants: list[str], bonus: list[dict]) -> dict:
    return {
        "side": side,
        "grid": grid,
        "variants": variants,
        "bonus": [{**b, "name": f"b{i}"} for i, b in enumerate(bonus)],
    }


@settings(max_examples=1500, deadline=None)
@given(
    side=st.sampled_from(["inland", "waterfront"]),
    grid=grids,
    variants=st.lists(st.sampled_from(VARIANTS), unique=True, max_size=4),
    bonus=st.lists(bonus_tiles, max_size=7),
)
def test_engine_agrees_with_the_independent_oracle(
    side: str, grid: list[str], variants: list[str], bonus: list
) -> None:
    raw = board_json(side, grid, variants, bonus)
    engine = score_board(parse_board(raw)).to_json()
    engine.pop("notes", None)
    assert engine == oracle_score(side, grid, variants, raw["bonus"])


def test_engine_agrees_with_the_oracle_on_thousands_of_realistic_boards() -> None:
    """Boards filled like real end-of-game boards (mostly buildings, few gaps), not uniform noise."""
    rng = random.Random(20261129)
    for _ in range(3000):
        side = rng.choice(["inland", "waterfront"])
        weights = [rng.random() for _ in "HSFPR"] + [0.05, rng.random() * 0.5]
        grid = ["".join(rng.choices(GRID_LETTERS, weights=weights, k=6)) for _ in range(6)]
        variants = [v for v in VARIANTS if rng.random() < 0.25]
        bonus = [
            {
                "condition": "count",
                "type": rng.choice("HSFPR"),
                "n": rng.randint(1, 4),
                "cells": [[r, 2] for r in range(6)],
            },
            {"condition": "full", "cells": [[3, c] for c in range(6)]},
        ]
        raw = board_json(side, grid, variants, bonus)
        engine = score_board(parse_board(raw)).to_json()
        engine.pop("notes", None)
        assert engine == oracle_score(side, grid, variants, raw["bonus"]), raw


@given(grid=grids, side=st.sampled_from(["inland", "waterfront"]))
def test_per_tile_caps_hold(grid: list[str], side: str) -> None:
    s = score_board(parse_board({"side": side, "grid": grid}))
    flat = parse_rows(grid, 6, GRID_LETTERS)
    assert 0 <= s.breakdown["park"] <= 2 * flat.count("P")
    assert 0 <= s.breakdown["factory"] <= 2 * flat.count("F")
    assert 0 <= s.breakdown["road"] <= flat.count("R")
    assert 0 <= s.breakdown["shop"] <= 3 * flat.count("S")
    assert s.breakdown["home"] <= 3 * flat.count("H")
    assert s.total == sum(s.breakdown.values())


@given(grid=grids)
def test_adding_a_road_never_disconnects_roads(grid: list[str]) -> None:
    """Connectivity is monotone: turning an empty cell into a road keeps every connected road connected."""
    before = score_board(parse_board({"side": "inland", "grid": grid})).breakdown["road"]
    for r in range(6):
        for c in range(6):
            if grid[r][c] == ".":
                grown = [row if i != r else row[:c] + "R" + row[c + 1 :] for i, row in enumerate(grid)]
                after = score_board(parse_board({"side": "inland", "grid": grown})).breakdown["road"]
                assert after >= before
                return


@given(grid=grids, side=st.sampled_from(["inland", "waterfront"]))
def test_family_total_is_bonus_only(grid: list[str], side: str) -> None:
    bonus = [{"name": "c", "condition": "count", "type": "H", "n": 1, "cells": [[0, 0], [0, 1]]}]
    s = score_board(parse_board({"side": side, "grid": grid, "variants": ["family"], "bonus": bonus}))
    assert s.total == s.breakdown["bonus"] or (s.total == 0 and s.construction_left)


colours = st.sampled_from(["red", "blue", "black", "green", "gray", "white"])
patterns = st.lists(colours, min_size=9, max_size=9)


@given(grid=st.lists(st.text(st.sampled_from("H.C"), min_size=6, max_size=6), min_size=6, max_size=6), cubes=patterns)
def test_legal_anchors_are_exactly_the_translations_onto_empty_cells(grid: list[str], cubes: list[str]) -> None:
    from scoring.shake_that_city.pattern import Pattern
    from scoring.shake_that_city.placement import legal_anchors

    pattern = Pattern.parse([cubes[0:3], cubes[3:6], cubes[6:9]])
    flat = "".join(grid)
    for colour in pattern.colours_present():
        for wilds in (False, True):
            shape = pattern.shape(colour, wilds)
            anchors = set(legal_anchors(flat, 6, shape))
            for r in range(-3, 7):
                for c in range(-3, 7):
                    cells = [(r + dr, c + dc) for dr, dc in shape]
                    fits = all(0 <= x < 6 and 0 <= y < 6 and grid[x][y] == "." for x, y in cells)
                    assert ((r, c) in anchors) == fits
