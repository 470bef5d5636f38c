"""Where a shape may go on a board: translation only, inside the grid, onto empty cells."""

from __future__ import annotations

from collections.abc import Sequence

from ..grid import Cell
from .catalogue import EMPTY
from .pattern import PATTERN_SIZE, Offset

Anchor = tuple[int, int]


def cells_for(shape: Sequence[Offset], anchor: Anchor) -> list[Cell]:
    """The board cells a shape covers when the pattern's top-left cell lies on ``anchor``."""
    row, col = anchor
    return [(row + dr, col + dc) for dr, dc in shape]


def why_not(grid: str, size: int, shape: Sequence[Offset], anchor: Anchor) -> str | None:
    """``None`` when the shape fits at ``anchor``, otherwise the first reason it does not."""
    if not shape:
        return "the shape has no cubes"
    for r, c in cells_for(shape, anchor):
        if not (0 <= r < size and 0 <= c < size):
            return f"cell ({r}, {c}) is outside the board"
        letter = grid[r * size + c]
        if letter != EMPTY:
            return f"cell ({r}, {c}) is not empty (it holds {letter})"
    return None


def legal_anchors(grid: str, size: int, shape: Sequence[Offset]) -> list[Anchor]:
    """Every anchor (pattern top-left on the board) where the whole shape fits, north-west first."""
    if not shape:
        return []
    span = range(-(PATTERN_SIZE - 1), size)
    return [(r, c) for r in span for c in span if why_not(grid, size, shape, (r, c)) is None]
