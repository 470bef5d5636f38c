"""Scoring of one board: every rule on both sides, hand-worked on small ASCII boards."""

from __future__ import annotations

import pytest

from scoring.errors import BoardFormatError
from scoring.shake_that_city.board import parse_board
from tests.scoring.ascii import score

# ----------------------------------------------------------------------------------------------- roads


def test_road_touching_a_black_edge_scores_and_an_inner_road_does_not() -> None:
    s = score("""
        R.....
        R.....
        ......
        ..RR..
        ......
        .....R
    """)
    # (0,0) and (1,0) touch the west edge, (5,5) the south and east edges; (3,2)-(3,3) reach no edge.
    assert s.breakdown["road"] == 3


def test_a_chain_of_roads_is_connected_through_its_one_edge_road() -> None:
    s = score("""
        ......
        .RRRRR
        .R....
        ......
        ......
        ......
    """)
    # (1,5) touches the east edge, so all six roads chained to it score.
    assert s.breakdown["road"] == 6


def test_diagonal_roads_are_not_linked() -> None:
    s = score("""
        R.....
        .R....
        ..R...
        ......
        ......
        ......
    """)
    assert s.breakdown["road"] == 1


def test_waterfront_beach_edges_do_not_connect_roads() -> None:
    s = score(
        """
        .....R
        ......
        .....R
        ......
        ......
        R..R..
        """,
        side="waterfront",
    )
    # Black: north and west. (0,5) north: 1. (5,0) west: 1. (2,5) east beach: 0. (5,3) south beach: 0.
    assert s.breakdown["road"] == 2


# ----------------------------------------------------------------------------------------------- parks


def test_inland_park_scores_one_for_a_home_and_one_for_a_factory() -> None:
    s = score("""
        ......
        .HPF..
        ......
        ...PH.
        ......
        .P.PP.
    """)
    # (1,2): home and factory, 2. (3,3): home, 1. (5,1) alone, 0. (5,3)/(5,4) next to parks only, 0.
    assert s.breakdown["park"] == 3


def test_inland_park_counts_a_neighbour_type_once() -> None:
    s = score("""
        ......
        ..H...
        .HPH..
        ..H...
        ......
        ......
    """)
    assert s.breakdown["park"] == 1


def test_waterfront_park_scores_for_a_home_and_for_the_beach_not_for_a_factory() -> None:
    s = score(
        """
        ......
        .HPF..
        ......
        .....P
        ......
        .FPH..
        """,
        side="waterfront",
    )
    # (1,2): home 1 (factory gives nothing on Waterfront). (3,5): east beach 1.
    # (5,2): home 1 + south beach 1 = 2.
    assert s.breakdown["park"] == 4


# ------------------------------------------------------------------------------------------- factories


def test_factory_scores_for_another_factory_and_for_a_road() -> None:
    s = score("""
        ......
        .FF...
        ......
        ...FR.
        ......
        .F....
    """)
    # (1,1),(1,2): each next to a factory, 1 + 1. (3,3): road, 1 (the road need not be connected). (5,1): 0.
    assert s.breakdown["factory"] == 3


def test_factory_scores_at_most_two() -> None:
    s = score("""
        ......
        ..F...
        .RFR..
        ..F...
        ......
        ......
    """)
    # (2,2): factory + road = 2. (1,2): factory = 1. (3,2): factory = 1.
    assert s.breakdown["factory"] == 4


# ----------------------------------------------------------------------------------------------- shops


def test_shop_on_the_black_edge_scores_its_green_zone() -> None:
    s = score("""
        ..S...
        ......
        ......
        ......
        ......
        ......
    """)
    assert s.breakdown["shop"] == 1


def test_inner_shop_needs_a_connected_road_and_scores_its_zone() -> None:
    s = score("""
        ......
        RS....
        ......
        ..S...
        ......
        ......
    """)
    # (1,1) brown, next to (1,0), a road on the west edge: 2. (3,2) gray, no road: 0.
    assert s.breakdown["shop"] == 2


def test_gray_zone_shop_next_to_a_road_chain_scores_three() -> None:
    s = score("""
        ..R...
        ..R...
        ..RS..
        ......
        ......
        ......
    """)
    # (2,3): gray zone (ring 2), next to (2,2), linked to (0,2) on the north edge.
    assert s.breakdown["shop"] == 3


def test_shop_next_to_an_unconnected_road_scores_nothing() -> None:
    s = score("""
        ......
        ......
        ..RS..
        ......
        ......
        ......
    """)
    assert s.breakdown["shop"] == 0


def test_waterfront_shop_on_a_beach_edge_is_not_on_a_black_edge() -> None:
    s = score(
        """
        ..S...
        ......
        .....S
        ......
        ......
        ..S..S
        """,
        side="waterfront",
    )
    # Only (0,2) touches a black edge (north). (2,5) east, (5,2) south, (5,5) south-east are beach.
    assert s.breakdown["shop"] == 1


# ----------------------------------------------------------------------------------------------- homes


def test_each_home_group_scores_two_whatever_its_size() -> None:
    s = score("""
        HHH...
        ......
        ....H.
        ......
        H.....
        H.....
    """)
    assert s.breakdown["home"] == 6


def test_a_factory_diagonal_to_homes_does_not_zero_them() -> None:
    s = score("""
        HHH...
        ...F..
        ..F...
        ......
        ......
        .....H
    """)
    # (0,0)-(0,2) group: (0,2) is next to... (1,2) '.', (0,3) '.'; so it scores. Check (1,2) empty.
    # Group at (0,0..2): none of its homes touches a factory orthogonally (F at (1,3) and (2,2)): 2.
    # (5,5): 2.
    assert s.breakdown["home"] == 4


def test_one_home_next_to_a_factory_zeroes_its_whole_group() -> None:
    s = score("""
        HHHF..
        ......
        ......
        ......
        ......
        .....H
    """)
    assert s.breakdown["home"] == 2


def test_waterfront_home_group_touching_the_beach_scores_three() -> None:
    s = score(
        """
        H.....
        ......
        ....HH
        ......
        ...F..
        ...H..
        """,
        side="waterfront",
    )
    # (0,0): black edges only, 2. (2,4)-(2,5): touches the east beach, 3. (5,3): beach but next to a factory, 0.
    assert s.breakdown["home"] == 5


# ----------------------------------------------------------------------------------------------- bonus

CORNER_FULL = {"name": "corner", "condition": "full", "cells": [[i, i] for i in range(6)]}
HOMES_IN_COL_1 = {"name": "north-1", "condition": "count", "type": "H", "n": 3, "cells": [[r, 1] for r in range(6)]}


def test_full_bonus_needs_a_building_on_every_listed_cell() -> None:
    diagonal = """
        H.....
        .S....
        ..P...
        ...R..
        ....F.
        .....H
    """
    assert score(diagonal, bonus=[CORNER_FULL]).bonus_flipped == ("corner",)
    with_construction = diagonal.replace("..P...", "..C...")
    assert score(with_construction, bonus=[CORNER_FULL]).bonus_flipped == ()
    with_gap = diagonal.replace("...R..", "......")
    assert score(with_gap, bonus=[CORNER_FULL]).breakdown["bonus"] == 0


def test_count_bonus_needs_n_tiles_of_its_type() -> None:
    two = """
        .H....
        .H....
        .S....
        ......
        ......
        ......
    """
    assert score(two, bonus=[HOMES_IN_COL_1]).bonus_flipped == ()
    three = two.replace(".S....", ".H....")
    s = score(three, bonus=[HOMES_IN_COL_1, CORNER_FULL])
    assert s.bonus_flipped == ("north-1",)
    assert s.breakdown["bonus"] == 3


# ------------------------------------------------------------------------------------------ whole board

BOARD = """
    H.S..R
    HPF..R
    ......
    ..SS..
    ......
    RRRR..
"""


def test_whole_inland_board_hand_worked() -> None:
    s = score(BOARD, bonus=[CORNER_FULL, {**HOMES_IN_COL_1, "cells": [[r, 0] for r in range(6)], "n": 2}])
    # roads: (0,5),(1,5) east edge; (5,0)-(5,3) south edge: 6.
    # park (1,1): home (1,0) + factory (1,2): 2.   factory (1,2): no factory, no road: 0.
    # shops: (0,2) north edge, green: 1; (3,2),(3,3) gray, no road next to them: 0.
    # homes: (0,0)-(1,0) one group, no factory next to it: 2.   bonus: two homes in column 0: 3.
    assert s.breakdown == {"road": 6, "park": 2, "factory": 0, "shop": 1, "home": 2, "bonus": 3}
    assert s.total == 14
    assert s.empty_cells == 23
    assert s.construction_left == 0
    assert s.solo_win is None


def test_whole_waterfront_board_hand_worked() -> None:
    s = score(
        """
        RRH.PS
        SFF..P
        ..R.HH
        .S.R..
        P..HF.
        HP.RRS
        """,
        side="waterfront",
    )
    # roads: (0,0),(0,1) north: 2; (2,2) inner, alone: 0; (3,3) inner alone: 0; (5,3),(5,4) south beach,
    #   linked only to each other: 0.  -> 2
    # parks: (0,4): home? (0,3)'.',(1,4)'.',(0,5)S -> 0; beach? north edge is black -> 0.
    #   (1,5): east beach 1; home? (2,5)H yes 1 -> 2. (4,0): west black, home (5,0) 1 -> 1.
    #   (5,1): home (5,0) 1, south beach 1 -> 2.  -> 5
    # factories: (1,1): factory (1,2) 1, road (0,1) 1 -> 2. (1,2): factory (1,1) 1, road (2,2) 1 -> 2.
    #   (4,4): road (5,4) 1, factory? no -> 1.  -> 5
    # shops: (0,5) north black, green 1. (1,0) west black, green 1. (3,1) brown; touches no black edge;
    #   neighbours (2,1)'.',(4,1)'.',(3,0)'.',(3,2)'.' -> 0. (5,5) beach, neighbour (5,4) road unconnected -> 0.
    #   -> 2
    # homes: (0,2): next to (1,2) F -> 0. (2,4)-(2,5): east beach, no factory (1,4)'.',(3,4)'.',(3,5)'.' -> 3.
    #   (4,3): next to (4,4) F -> 0. (5,0): south beach -> 3.  -> 6
    assert s.breakdown == {"road": 2, "park": 5, "factory": 5, "shop": 2, "home": 6, "bonus": 0}
    assert s.total == 20


# -------------------------------------------------------------------------------------------- variants


def test_family_counts_only_bonus_tiles() -> None:
    s = score(BOARD, variants=("family",), bonus=[{**HOMES_IN_COL_1, "cells": [[r, 0] for r in range(6)], "n": 2}])
    assert s.breakdown == {"road": 0, "park": 0, "factory": 0, "shop": 0, "home": 0, "bonus": 3}
    assert s.total == 3


def test_construction_tile_left_scores_zero_but_shows_the_breakdown() -> None:
    with_c = BOARD.replace("......\n    ..SS..", "..C...\n    ..SS..")
    s = score(with_c, variants=("construction",))
    assert s.construction_left == 1
    assert s.total == 0
    assert sum(s.breakdown.values()) == 11
    cleared = score(BOARD, variants=("construction",))
    assert cleared.total == 11


def test_construction_letter_without_the_variant_does_not_zero_the_board() -> None:
    with_c = BOARD.replace("......\n    ..SS..", "..C...\n    ..SS..")
    s = score(with_c)
    assert s.construction_left == 1
    assert s.total == 11


SOLO_55 = """
    SSSSSS
    SHPHPS
    SPHPHS
    SHPHPS
    SPHPHS
    SSSSSS
"""


def test_solo_win_at_55_and_60_with_wild_nights() -> None:
    s = score(SOLO_55, variants=("solo",))
    # 20 edge shops, green: 20. 8 homes, each its own group (no two homes adjacent): 16.
    # 8 parks, each next to a home, no factory: 8. Total 44.
    assert s.total == 44
    assert s.solo_win is False
    bonus = [
        {"name": f"b{i}", "condition": "count", "type": "S", "n": 1, "cells": [[0, i]]} for i in range(4)
    ]  # 4 x 3 = 12 more: 56
    won = score(SOLO_55, variants=("solo",), bonus=bonus)
    assert won.total == 56
    assert won.solo_win is True
    wild = score(SOLO_55, variants=("solo", "wild_nights"), bonus=bonus)
    assert wild.total == 56
    assert wild.solo_win is False


def test_solo_with_a_construction_tile_left_is_not_won() -> None:
    s = score(SOLO_55.replace("SHPHPS\n    SPHPHS\n    SHPHPS", "SHPHPS\n    SPCPHS\n    SHPHPS"), variants=("solo",))
    assert s.total == 0
    assert s.solo_win is False


# ----------------------------------------------------------------------------------------- bad boards


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"side": "moon", "grid": ["......"] * 6}, "unknown side 'moon'"),
        ({"side": "inland", "grid": ["......"] * 5}, "expected 6 rows, got 5"),
        ({"side": "inland", "grid": ["......"] * 5 + ["....."]}, "row 5: expected 6 letters, got 5"),
        ({"side": "inland", "grid": ["......"] * 5 + ["....X."]}, "row 5 col 4: unknown letter 'X'"),
        ({"side": "inland", "grid": ["......"] * 6, "variants": ["chaos"]}, "unknown variant 'chaos'"),
        ({"side": "inland"}, "grid: missing"),
        (
            {
                "side": "inland",
                "grid": ["......"] * 6,
                "bonus": [{"condition": "count", "type": "Q", "cells": [[0, 0]]}],
            },
            "bonus[0].type",
        ),
        (
            {"side": "inland", "grid": ["......"] * 6, "bonus": [{"condition": "full", "cells": [[0, 6]]}]},
            "outside the 6 x 6 grid",
        ),
    ],
)
def test_bad_boards_are_refused_with_where(raw: dict, message: str) -> None:
    with pytest.raises(BoardFormatError, match=message.replace("[", r"\[").replace("]", r"\]")):
        parse_board(raw)


def test_a_player_may_confirm_or_deny_a_bonus_flip_by_hand() -> None:
    from scoring.shake_that_city.scorer import score_board

    raw = {
        "side": "inland",
        "grid": [r.strip() for r in BOARD.strip().splitlines()],
        "bonus": [CORNER_FULL, HOMES_IN_COL_1],
    }
    board = parse_board(raw)
    assert score_board(board).bonus_flipped == ()
    by_hand = score_board(board, {"corner": True})
    assert by_hand.bonus_flipped == ("corner",)
    assert by_hand.total == score_board(board).total + 3
    assert "bonus tile corner flipped by hand" in by_hand.notes
    with pytest.raises(BoardFormatError, match="no such bonus tile in play"):
        score_board(board, {"west-9": True})
