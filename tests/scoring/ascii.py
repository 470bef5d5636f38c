"""Helpers for drawing small boards as ASCII in tests."""

from __future__ import annotations

import textwrap

from scoring.shake_that_city.board import parse_board
from scoring.shake_that_city.scorer import Score, score_board


def rows(drawing: str) -> list[str]:
    """Six rows from an indented ASCII drawing (spaces between letters allowed)."""
    lines = [line.replace(" ", "") for line in textwrap.dedent(drawing).strip().splitlines()]
    assert len(lines) == 6, lines
    return lines


def score(drawing: str, side: str = "inland", variants: tuple[str, ...] = (), bonus: list | None = None) -> Score:
    return score_board(parse_board({"side": side, "grid": rows(drawing), "variants": list(variants), "bonus": bonus}))
