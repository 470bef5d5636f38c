"""Benchmark: boards scored per second on one core.  Run ``python -m scoring.bench [--boards N]``.

Boards are random end-of-game boards (both sides, every variant, seven bonus tiles each), made
before the clock starts; the figure is the best of three timed passes over them.
"""

from __future__ import annotations

import argparse
import random
import time

from .shake_that_city.board import VARIANTS, Board, bonus_layout
from .shake_that_city.catalogue import GRID_LETTERS
from .shake_that_city.scorer import score_board


def random_boards(n: int, rng: random.Random) -> list[Board]:
    bonus = bonus_layout()
    boards = []
    for _ in range(n):
        weights = [rng.random() for _ in "HSFPR"] + [0.03, rng.random() * 0.4]
        grid = "".join(rng.choices(GRID_LETTERS, weights=weights, k=36))
        variants = frozenset(v for v in VARIANTS if rng.random() < 0.2)
        boards.append(Board(rng.choice(("inland", "waterfront")), grid, variants, bonus))
    return boards


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scoring.bench", description=__doc__)
    parser.add_argument("--boards", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    boards = random_boards(args.boards, random.Random(args.seed))
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for board in boards:
            score_board(board)
        best = min(best, time.perf_counter() - start)
    print(f"scored {len(boards)} boards in {best:.3f} s: {len(boards) / best:,.0f} boards/s on one core")
    print(f"{best / len(boards) * 1e6:.1f} microseconds per board (goal: at least 20,000 boards/s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
