"""The round flow: choices, placement, construction tiles, the shaker's contents, undo and replay."""

from __future__ import annotations

import pytest

from scoring.errors import BoardFormatError, IllegalAction
from scoring.shake_that_city.game import (
    Choice,
    Choose,
    Game,
    NextRound,
    Place,
    Setup,
    Shake,
    allowed_choices,
    legal_choices,
    placements,
    standings,
    still_to_place,
)
from scoring.shake_that_city.scorer import Score
from tests.scoring.play import pat

TWO = ["Ann", "Bo"]


def game(players=TWO, variants=(), **kw) -> Game:
    return Game(Setup.create(players, "inland", variants, **kw))


# ---------------------------------------------------------------------------------------------- set-up


@pytest.mark.parametrize(
    ("players", "variants", "message"),
    [
        ([], (), "1 to 4 players, got 0"),
        (["A", "B", "C", "D", "E"], (), "1 to 4 players, got 5"),
        (["Ann", "ann"], (), "same name"),
        (["Ann", ""], (), "non-empty"),
        (["Ann", "Bo"], ("solo",), "solo is for 1 player"),
        (["Ann"], ("speed",), "unknown variant"),
    ],
)
def test_bad_setups_are_refused(players, variants, message) -> None:
    with pytest.raises(BoardFormatError, match=message):
        Setup.create(players, "inland", variants)


def test_construction_tiles_are_laid_on_every_board_the_same_way() -> None:
    g = game(["Ann", "Bo", "Cy"], ("construction",))
    cells = [t.cell for t in g.setup.construction]
    assert len(cells) == 4
    assert all(r == c for r, c in cells)  # the default layout lies on the main diagonal
    for p in g.state.players:
        assert [p.grid[r * 6 + c] for r, c in cells] == ["C"] * 4
        assert p.grid.count("C") == 4


def test_solo_sets_up_as_construction() -> None:
    g = game(["Ann"], ("solo",))
    assert g.state.players[0].grid.count("C") == 4


# --------------------------------------------------------------------------------------------- choices


def test_active_player_chooses_first_and_others_may_not_take_that_colour() -> None:
    g = game(["Ann", "Bo", "Cy"])
    g.apply(Shake(pat("rrb/kgy/rbg")))
    assert g.state.active_player == "Ann"
    with pytest.raises(IllegalAction, match="waits for the active player Ann"):
        g.apply(Choose("Bo", "blue"))
    g.apply(Choose("Ann", "red"))
    assert {c.colour for c in legal_choices(g.state, "Bo")} == {"blue", "black", "green", "gray"}
    with pytest.raises(IllegalAction, match="red is the active player Ann's colour.*Bo may take blue"):
        g.apply(Place("Bo", "red", False, 0, 0))
    # others may share a colour among themselves
    g.apply(Place("Bo", "blue", False, 0, 0))
    g.apply(Place("Cy", "blue", False, 0, 0))
    assert still_to_place(g.state) == ["Ann"]


def test_next_round_waits_for_players_who_can_still_place() -> None:
    g = game()
    g.apply(Shake(pat("rrb/kgy/rbg")))
    g.apply(Place("Ann", "gray", False, 0, 0))
    with pytest.raises(IllegalAction, match="still to place: Bo"):
        g.apply(NextRound())


def test_choice_is_free_from_round_13() -> None:
    g = game()
    for round_no in range(1, 16):
        assert g.state.round_no == round_no
        g.apply(Shake(pat("ybk/gbr/grk")))
        active = g.state.active_player
        other = "Bo" if active == "Ann" else "Ann"
        g.apply(Place(active, "gray", False, *placements(g.state, active, Choice("gray"))[0]))
        others = {c.colour for c in allowed_choices(g.state, other)}
        assert ("gray" in others) == (round_no >= 13)
        assert others >= {"blue", "black", "green", "red"}
        choice = Choice("gray") if round_no >= 13 else Choice("red")
        g.apply(Place(other, choice.colour, False, *placements(g.state, other, choice)[0]))
        g.apply(NextRound())
    assert g.state.finished


def test_solo_may_not_take_the_most_numerous_colour_unless_tied() -> None:
    g = game(["Ann"], ("solo",))
    g.apply(Shake(pat("rrr/rbb/kgy")))
    assert {c.colour for c in legal_choices(g.state, "Ann")} == {"blue", "black", "green", "gray"}
    with pytest.raises(IllegalAction, match="most numerous colour"):
        g.apply(Place("Ann", "red", False, 0, 0))
    g.undo()
    g.apply(Shake(pat("rrb/bbr/kgy")))  # red 3, blue 3: tied, so nothing is barred
    assert {c.colour for c in legal_choices(g.state, "Ann")} == {"red", "blue", "black", "green", "gray"}


def test_solo_limit_is_lifted_in_the_last_three_rounds() -> None:
    g = game(["Ann"], ("solo",))
    for round_no in range(1, 16):
        g.apply(Shake(pat("rrr/rbb/kgy")))
        colours = {c.colour for c in allowed_choices(g.state, "Ann")}
        assert ("red" in colours) == (round_no >= 13)
        if legal_choices(g.state, "Ann"):
            choice = next(c for c in legal_choices(g.state, "Ann") if c.colour in ("gray", "green", "black", "red"))
            g.apply(Place("Ann", choice.colour, choice.wilds, *placements(g.state, "Ann", choice)[0]))
        g.apply(NextRound())
    assert g.state.finished


def test_wilds_are_taken_all_or_none_and_join_the_shape() -> None:
    g = game(["Ann"], ("wild_nights",))
    g.apply(Shake(pat("rwb/kgy/gbb")))
    choices = legal_choices(g.state, "Ann")
    assert Choice("red", True) in choices and Choice("red", False) in choices
    assert Choice("blue", True) in choices
    g.apply(Place("Ann", "red", True, 0, 0))
    # red at (0,0) and the white at (0,1) both become homes
    assert g.state.players[0].grid[:6] == "HH...."
    assert g.state.players[0].grid.count("H") == 2


def test_wilds_cannot_be_taken_when_the_pattern_has_none() -> None:
    g = game(["Ann"], ("wild_nights",))
    g.apply(Shake(pat("rrb/kgy/gbb")))
    with pytest.raises(IllegalAction, match="no white wild cube"):
        g.apply(Place("Ann", "red", True, 0, 0))


# ------------------------------------------------------------------------------------------- placement


def test_shapes_are_never_rotated_or_mirrored() -> None:
    """An L of three reds fits only where the same L, translated, fits; its rotations and mirror do not."""
    g = game(["Ann"])
    # Board: everything full except an L rotated 90 degrees (cells (0,0),(0,1),(1,0) are free:
    # "rr./r.." shape is r at (0,0),(0,1),(1,0)); the pattern's L is r at (0,0),(1,0),(1,1).
    state = g.state
    rotated_hole = ["..HHHH", ".HHHHH"] + ["HHHHHH"] * 4
    player = state.players[0]
    from dataclasses import replace

    g._states[-1] = replace(state, players=(replace(player, grid="".join(rotated_hole)),))
    g.apply(Shake(pat("rkb/rrg/ybk")))  # red L: (0,0),(1,0),(1,1)
    shape = g.state.pattern.shape("red")
    assert shape == ((0, 0), (1, 0), (1, 1))
    assert placements(g.state, "Ann", Choice("red")) == []
    for hole in (["..HHHH", "H.HHHH"], [".HHHHH", "..HHHH"], ["H.HHHH", "..HHHH"]):
        grid = "".join(hole + ["HHHHHH"] * 4)
        spots = placements(replace(g.state, players=(replace(g.state.players[0], grid=grid),)), "Ann", Choice("red"))
        # only the hole with exactly the pattern's L (".HHHHH" / "..HHHH") takes it
        assert (spots == [(0, 0)]) == (hole == [".HHHHH", "..HHHH"])


def test_every_placement_is_a_pure_translation_inside_the_grid() -> None:
    g = game(["Ann"])
    g.apply(Shake(pat("ryr/yrk/gbb")))
    shape = g.state.pattern.shape("red")
    for r, c in placements(g.state, "Ann", Choice("red")):
        cells = {(r + dr, c + dc) for dr, dc in shape}
        assert all(0 <= x < 6 and 0 <= y < 6 for x, y in cells)
    # the pattern's top-left is empty of red on row 1, so anchors may be negative when the shape allows it
    g2 = game(["Ann"])
    g2.apply(Shake(pat("kkb/kbr/grr")))
    anchors = placements(g2.state, "Ann", Choice("red"))
    assert (
        (-1, -1) in anchors
        and (-1, -2) not in anchors
        and (3, 3) in anchors
        and (4, 3) not in anchors
        and (3, 4) not in anchors
    )


def test_illegal_spot_is_refused_with_the_reason_and_the_legal_spots() -> None:
    g = game(["Ann"])
    g.apply(Shake(pat("rrb/kgy/gbb")))
    with pytest.raises(IllegalAction, match=r"cell \(0, 6\) is outside the board; legal spots for red: \(0, 0\)"):
        g.apply(Place("Ann", "red", False, 0, 5))
    before = g.state
    with pytest.raises(IllegalAction):
        g.apply(Place("Ann", "purple", False, 0, 0))
    assert g.state is before  # nothing changed


def test_placed_tiles_are_never_covered() -> None:
    g = game(["Ann"])
    g.apply(Shake(pat("rrb/kgy/gbb")))
    g.apply(Place("Ann", "red", False, 0, 0))
    g.apply(NextRound())
    g.apply(Shake(pat("rrb/kgy/gbb")))
    with pytest.raises(IllegalAction, match=r"cell \(0, 0\) is not empty \(it holds H\)"):
        g.apply(Place("Ann", "red", False, 0, 0))


def test_a_player_whose_colours_all_fail_places_nothing() -> None:
    g = game(["Ann", "Bo"])
    full = "H" * 36
    from dataclasses import replace

    s = g.state
    g._states[-1] = replace(s, players=(replace(s.players[0], grid=full), s.players[1]))
    g.apply(Shake(pat("rrb/kgy/gbb")))
    assert legal_choices(g.state, "Ann") == []
    with pytest.raises(IllegalAction, match="Ann can place nothing this round"):
        g.apply(Place("Ann", "red", False, 0, 0))
    # the active player can place nothing, so Bo is free to take any colour, red included
    g.apply(Place("Bo", "red", False, 0, 0))
    g.apply(NextRound())
    assert g.state.round_no == 2 and g.state.active_player == "Bo"


def test_a_colour_that_fits_nowhere_must_be_exchanged_for_one_that_fits() -> None:
    g = game(["Ann"])
    from dataclasses import replace

    s = g.state
    # one free row: a vertical pair cannot go, a horizontal trio can
    grid = "......" + "H" * 30
    g._states[-1] = replace(s, players=(replace(s.players[0], grid=grid),))
    g.apply(Shake(pat("bbb/rkg/ryg")))
    assert {c.colour for c in legal_choices(g.state, "Ann")} == {"blue", "black", "gray"}
    with pytest.raises(
        IllegalAction, match="the red shape fits nowhere on Ann's board; Ann may take blue, black, gray"
    ):
        g.apply(Choose("Ann", "red"))


# ------------------------------------------------------------------------------------ construction tiles

TILES = [
    {"name": "park-factory", "cell": [1, 1], "types": ["P", "F"]},
    {"name": "home-shop", "cell": [2, 2], "types": ["H", "S"]},
    {"name": "park-road", "cell": [3, 3], "types": ["P", "R"]},
    {"name": "park-shop", "cell": [4, 4], "types": ["P", "S"]},
]


def test_construction_tile_leaves_as_soon_as_its_types_are_adjacent_anywhere() -> None:
    g = game(["Ann"], ("construction",), construction=TILES)
    assert g.state.players[0].grid[2 * 6 + 2] == "C"
    g.apply(Shake(pat("rbk/kkk/gyg")))
    g.apply(Place("Ann", "blue", False, 5, 4))  # S at (5,5): no home next to it yet
    assert g.state.players[0].grid.count("C") == 4
    g.apply(NextRound())
    g.apply(Shake(pat("rbk/kkk/gyg")))
    g.apply(Place("Ann", "red", False, 4, 5))  # H at (4,5), next to S (5,5), far from the tile at (2,2)
    p = g.state.players[0]
    assert p.grid[2 * 6 + 2] == "."
    assert [t.name for t in p.construction] == ["park-factory", "park-road", "park-shop"]
    assert g.state.removed == (("Ann", "home-shop"),)
    # the freed cell is usable again
    g.apply(NextRound())
    g.apply(Shake(pat("rbk/kkk/gyg")))
    assert (2, 2) in placements(g.state, "Ann", Choice("red"))


def test_construction_tile_is_not_removed_by_two_tiles_of_one_of_its_types() -> None:
    g = game(["Ann"], ("construction",), construction=TILES)
    g.apply(Shake(pat("rrk/kkk/gyg")))
    g.apply(Place("Ann", "red", False, 0, 0))
    assert g.state.players[0].grid.count("C") == 4


@pytest.mark.parametrize(
    ("tiles", "message"),
    [
        (TILES[:3], "4 tiles are laid, got 3"),
        ([*TILES[:3], {"cell": [5, 0], "types": ["H", "S"]}], "must lie on one diagonal"),
        ([*TILES[:3], {"cell": [3, 3], "types": ["H", "S"]}], "two tiles on the same cell"),
        ([*TILES[:3], {"cell": [4, 4], "types": ["H", "X"]}], "expected two of H S F P R"),
    ],
)
def test_construction_layouts_are_checked(tiles: list, message: str) -> None:
    with pytest.raises(BoardFormatError, match=message):
        Setup.create(["Ann"], "inland", ["construction"], construction=tiles)


def test_construction_tiles_on_the_other_diagonal_are_accepted() -> None:
    tiles = [{**t, "cell": [t["cell"][0], 5 - t["cell"][1]]} for t in TILES]
    g = game(["Ann"], ("construction",), construction=tiles)
    assert [g.state.players[0].grid[r * 6 + 5 - r] for r in (1, 2, 3, 4)] == ["C"] * 4


# -------------------------------------------------------------------------------------------- shaker


@pytest.mark.parametrize(
    ("pattern", "message"),
    [
        ("rrr/rrr/rrr", "shows 9 red but the shaker holds only 8"),
        ("yyy/yyy/rrr", "shows 6 gray but the shaker holds only 5"),
        ("wrr/rrr/bbb", "shows 1 white but the shaker holds no white cube"),
    ],
)
def test_patterns_the_shaker_cannot_produce_are_refused(pattern: str, message: str) -> None:
    g = game()
    with pytest.raises(IllegalAction, match=message):
        g.apply(Shake(pat(pattern)))
    assert g.state.pattern is None


def test_wild_nights_whites_join_on_rounds_2_to_8_and_leave_when_shown() -> None:
    g = game(["Ann"], ("wild_nights",))
    assert g.state.whites_in_shaker == 1
    with pytest.raises(IllegalAction, match="shows 2 white but the shaker holds only 1"):
        g.apply(Shake(pat("wwr/rbb/kgy")))
    g.apply(Shake(pat("wrr/rbb/kgy")))
    g.apply(Place("Ann", "gray", False, 0, 0))
    g.apply(NextRound())  # the white shown leaves; marker onto space 2 adds one
    assert (g.state.round_no, g.state.whites_in_shaker) == (2, 1)
    g.apply(Shake(pat("rrr/rbb/kgy")))
    g.apply(Place("Ann", "gray", False, 0, 1))
    g.apply(NextRound())
    assert (g.state.round_no, g.state.whites_in_shaker) == (3, 2)
    g.apply(Shake(pat("wwr/rbb/kgy")))
    with pytest.raises(IllegalAction, match="shows 3 white but the shaker holds only 2"):
        g.apply(Shake(pat("www/rbb/kgy")))


def test_reshake_replaces_the_pattern_until_someone_chooses() -> None:
    g = game()
    g.apply(Shake(pat("rrb/kgy/gbb")))
    g.apply(Shake(pat("rrr/kgy/gbb")))
    assert g.state.pattern == pat("rrr/kgy/gbb")
    g.apply(Choose("Ann", "red"))
    with pytest.raises(IllegalAction, match="already has its pattern and Ann chose"):
        g.apply(Shake(pat("rrb/kgy/gbb")))


# ----------------------------------------------------------------------------------------- undo, replay


def test_undo_takes_back_actions_one_by_one_and_replay_rebuilds_the_state() -> None:
    g = game()
    g.apply(Shake(pat("rrb/kgy/gbb")))
    s1 = g.state
    g.apply(Place("Ann", "red", False, 0, 0))
    g.apply(Place("Bo", "blue", False, 0, 0))
    g.apply(NextRound())
    copy = Game.from_json(g.to_json())
    assert copy.state == g.state
    assert g.undo() == NextRound()
    g.undo()
    assert g.undo() == Place("Ann", "red", False, 0, 0)
    assert g.state == s1
    g.undo()
    with pytest.raises(IllegalAction, match="nothing to undo"):
        g.undo()


def test_game_over_refuses_everything() -> None:
    g = game(["Ann"])
    for _ in range(15):
        g.apply(Shake(pat("rrb/kgy/gbb")))
        choice = legal_choices(g.state, "Ann")
        if choice:
            g.apply(Place("Ann", choice[0].colour, choice[0].wilds, *placements(g.state, "Ann", choice[0])[0]))
        g.apply(NextRound())
    assert g.state.finished and g.state.round_no == 15
    with pytest.raises(IllegalAction, match="the game is over"):
        g.apply(Shake(pat("rrb/kgy/gbb")))


# ----------------------------------------------------------------------------------------- standings


def s(total: int, flipped: int = 0, empty: int = 0, left: int = 0) -> Score:
    return Score(total, {}, tuple(f"b{i}" for i in range(flipped)), empty, left)


def test_ties_break_on_bonus_tiles_then_empty_cells_then_share() -> None:
    table = standings({"Ann": s(30, 1, 4), "Bo": s(30, 2, 9), "Cy": s(31, 0, 9), "Di": s(12)})
    assert [(x.place, x.player) for x in table.places] == [(1, "Cy"), (2, "Bo"), (3, "Ann"), (4, "Di")]
    assert table.winners == ("Cy",)
    table = standings({"Ann": s(30, 1, 4), "Bo": s(30, 2, 9)})
    assert table.winners == ("Bo",)
    assert "Bo, Ann tie on 30 points" in table.explanation
    table = standings({"Ann": s(30, 2, 4), "Bo": s(30, 2, 9)})
    assert table.winners == ("Ann",)
    assert "empty cells: Ann 4, Bo 9" in table.explanation
    table = standings({"Ann": s(30, 2, 4), "Bo": s(30, 2, 4), "Cy": s(10)})
    assert table.winners == ("Ann", "Bo")
    assert [x.place for x in table.places] == [1, 1, 3]
    assert "Ann and Bo share the win" in table.explanation


def test_construction_left_cannot_win_and_if_nobody_cleared_nobody_wins() -> None:
    table = standings({"Ann": s(0, 3, 0, left=1), "Bo": s(5)}, ["construction"])
    assert table.winners == ("Bo",)
    table = standings({"Ann": s(0, 3, 0, left=1), "Bo": s(0, 0, 0, left=2)}, ["construction"])
    assert table.winners == ()
    assert "nobody removed all construction tiles, so nobody wins" in table.explanation
