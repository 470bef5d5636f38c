"""Each reading of ambiguous rule text in scoring/shake_that_city/readings.py, pinned down."""

from __future__ import annotations

import pytest

from scoring.errors import IllegalAction
from scoring.shake_that_city import readings
from scoring.shake_that_city.board import parse_board
from scoring.shake_that_city.game import Choice, Choose, Game, Place, Setup, Shake, allowed_choices, legal_choices
from scoring.shake_that_city.scorer import score_board
from tests.scoring.play import pat


def test_solo_limit_counts_building_colours_only() -> None:
    assert readings.SOLO_LIMIT_COUNTS_WILDS is False
    from dataclasses import replace

    g = Game(Setup.create(["Ann"], "inland", ["solo", "wild_nights"]))
    g._states[-1] = replace(g.state, whites_in_shaker=3)
    # three whites and two reds: counting building colours only, red is the most numerous and is barred
    g.apply(Shake(pat("wwr/wrb/kgy")))
    assert "red" not in {c.colour for c in allowed_choices(g.state, "Ann")}


def test_others_are_free_when_the_active_player_places_nothing() -> None:
    assert readings.OTHERS_FREE_WHEN_ACTIVE_PLACES_NOTHING is True
    from dataclasses import replace

    g = Game(Setup.create(["Ann", "Bo"], "inland"))
    s = g.state
    g._states[-1] = replace(s, players=(replace(s.players[0], grid="H" * 36), s.players[1]))
    g.apply(Shake(pat("rrb/kgy/gbb")))
    assert {c.colour for c in legal_choices(g.state, "Bo")} == {"red", "blue", "black", "green", "gray"}


def test_others_wait_for_the_active_choice() -> None:
    assert readings.OTHERS_WAIT_FOR_ACTIVE_CHOICE is True
    g = Game(Setup.create(["Ann", "Bo"], "inland"))
    g.apply(Shake(pat("rrb/kgy/gbb")))
    with pytest.raises(IllegalAction, match="waits for the active player Ann"):
        g.apply(Place("Bo", "blue", False, 0, 0))
    g.apply(Choose("Ann", "red"))
    assert Choice("blue") in legal_choices(g.state, "Bo")


def test_reshake_allowed_only_before_the_first_choice() -> None:
    assert readings.RESHAKE_ALLOWED_UNTIL_FIRST_CHOICE is True
    g = Game(Setup.create(["Ann"], "inland"))
    g.apply(Shake(pat("rrb/kgy/gbb")))
    g.apply(Shake(pat("rrr/kgy/gbb")))
    g.apply(Choose("Ann", "red"))
    with pytest.raises(IllegalAction):
        g.apply(Shake(pat("rrb/kgy/gbb")))


def test_bonus_tiles_are_listed_when_construction_left_zeroes_the_board() -> None:
    assert readings.BONUS_LISTED_WHEN_CONSTRUCTION_LEFT is True
    grid = ["HHHHHH", "C.....", "......", "......", "......", "......"]
    bonus = [{"name": "row0", "condition": "full", "cells": [[0, c] for c in range(6)]}]
    s = score_board(parse_board({"side": "inland", "grid": grid, "variants": ["construction"], "bonus": bonus}))
    assert s.total == 0
    assert s.bonus_flipped == ("row0",)
    assert s.breakdown["bonus"] == 3
