"""One whole game written out by hand, round by round, with the final board and score worked by hand."""

from __future__ import annotations

from scoring.shake_that_city.game import Game, NextRound, Place, Setup, Shake, scores, standings
from tests.scoring.ascii import rows
from tests.scoring.play import pat

P = "yyk/bgr/rbk"  # gray (0,0)(0,1); black (0,2)(2,2); blue (1,0)(2,1); green (1,1); red (1,2)(2,0)
Q = "rrk/rgk/byb"  # red (0,0)(0,1)(1,0); black (0,2)(1,2); green (1,1); blue (2,0)(2,2); gray (2,1)

SCRIPT = [  # pattern, colour, anchor (the pattern's top-left cell on the board)
    (P, "gray", (0, 0)),  # R (0,0) (0,1)
    (P, "gray", (0, 2)),  # R (0,2) (0,3)
    (P, "gray", (0, 4)),  # R (0,4) (0,5)
    (Q, "red", (1, 0)),  # H (1,0) (1,1) (2,0)
    (Q, "green", (0, 1)),  # P (1,2)
    (Q, "black", (1, 1)),  # F (1,3) (2,3)
    (P, "black", (1, 2)),  # F (1,4) (3,4)
    (P, "blue", (3, 0)),  # S (4,0) (5,1)
    (Q, "blue", (3, 3)),  # S (5,3) (5,5)
    (Q, "gray", (2, 1)),  # R (4,2)
    (P, "red", (2, 1)),  # H (3,3) (4,1)
    (P, "green", (2, 0)),  # P (3,1)
    (Q, "red", (4, 4)),  # H (4,4) (4,5) (5,4)
    (P, "gray", (2, 1)),  # R (2,1) (2,2)
    (Q, "black", (1, 3)),  # F (1,5) (2,5)
]

BONUS = [
    {"name": "corner", "condition": "full", "cells": [[i, i] for i in range(6)]},
    {"name": "col-1-full", "condition": "full", "cells": [[r, 1] for r in range(6)]},
    {"name": "col-3-homes", "condition": "count", "type": "H", "n": 3, "cells": [[r, 3] for r in range(6)]},
    {"name": "col-5-shops", "condition": "count", "type": "S", "n": 2, "cells": [[r, 5] for r in range(6)]},
    {"name": "row-1-factories", "condition": "count", "type": "F", "n": 2, "cells": [[1, c] for c in range(6)]},
    {"name": "row-3-parks", "condition": "count", "type": "P", "n": 3, "cells": [[3, c] for c in range(6)]},
    {"name": "row-5-roads", "condition": "count", "type": "R", "n": 4, "cells": [[5, c] for c in range(6)]},
]


def test_a_hand_scripted_one_player_game() -> None:
    g = Game(Setup.create(["Sam"], "inland", [], bonus=BONUS))
    for round_no, (pattern, colour, (row, col)) in enumerate(SCRIPT, start=1):
        assert g.state.round_no == round_no
        g.apply(Shake(pat(pattern)))
        g.apply(Place("Sam", colour, False, row, col))
        g.apply(NextRound())
    assert g.state.finished
    assert g.state.players[0].rows == rows("""
        R R R R R R
        H H P F F F
        H R R F . F
        . P . H F .
        S H R . H H
        . S . S H S
    """)
    score = scores(g.state)["Sam"]
    # roads: row 0 on the north edge: 6; (2,1)-(2,2) and (4,2) reach no edge: 0.
    # parks: (1,2) home + factory: 2; (3,1) home: 1.
    # factories: (1,3) F+R 2, (1,4) F+R 2, (1,5) F+R 2, (2,3) F+R 2, (2,5) F 1, (3,4) 0: 9.
    # shops: (4,0), (5,1), (5,3), (5,5) on edges, green: 4.
    # homes: {(1,0),(1,1),(2,0)} 2; {(3,3)} next to (2,3) F: 0; {(4,1)} 2; {(4,4),(4,5),(5,4)} next to (3,4) F: 0.
    # bonus: diagonal R H R H H S full; column 1 R H R P H S full; row 1 has three factories: 3 x 3 = 9.
    assert score.breakdown == {"road": 6, "park": 3, "factory": 9, "shop": 4, "home": 4, "bonus": 9}
    assert score.total == 35
    assert score.bonus_flipped == ("corner", "col-1-full", "row-1-factories")
    assert score.empty_cells == 7
    assert standings(scores(g.state)).winners == ("Sam",)
