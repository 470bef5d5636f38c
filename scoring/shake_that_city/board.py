"""A player's board as data: side, 6 x 6 grid, variants in play and bonus tiles.

This is the ``board.json`` of ``data-formats.md``; :func:`parse_board` checks it and names what is
wrong and where.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import BoardFormatError
from ..grid import Cell, parse_rows, to_rows
from .catalogue import BUILDING_TILES, GRID_LETTERS, SIDES, board_side, bonus_catalogue

FAMILY = "family"
CONSTRUCTION_VARIANT = "construction"
SOLO = "solo"
WILD_NIGHTS = "wild_nights"
VARIANTS = (FAMILY, CONSTRUCTION_VARIANT, SOLO, WILD_NIGHTS)
CONDITIONS = ("full", "count")


@dataclass(frozen=True)
class BonusTile:
    """A bonus tile in play: the cells it looks at and the condition that flips it."""

    name: str
    condition: str
    cells: tuple[Cell, ...]
    tile: str | None = None  # for "count": the building letter counted
    n: int = 0  # for "count": how many are needed

    def is_met(self, grid: str, size: int) -> bool:
        """Whether the condition holds on a row-major ``grid`` string."""
        letters = [grid[r * size + c] for r, c in self.cells]
        if self.condition == "full":
            return all(letter in BUILDING_TILES for letter in letters)
        return sum(letter == self.tile for letter in letters) >= self.n

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "condition": self.condition}
        if self.condition == "count":
            out["type"] = self.tile
            out["n"] = self.n
        out["cells"] = [list(c) for c in self.cells]
        return out


@dataclass(frozen=True)
class Board:
    """One board to score: ``grid`` is row-major, ``size * size`` letters of ``H S F P R C .``."""

    side: str
    grid: str
    variants: frozenset[str] = frozenset()
    bonus: tuple[BonusTile, ...] = field(default=())

    @property
    def rows(self) -> list[str]:
        return to_rows(self.grid, board_side(self.side).size)

    def to_json(self) -> dict[str, Any]:
        return {
            "side": self.side,
            "grid": self.rows,
            "variants": [v for v in VARIANTS if v in self.variants],
            "bonus": [b.to_json() for b in self.bonus],
        }


def parse_variants(variants: Any, where: str = "variants") -> frozenset[str]:
    if variants is None:
        return frozenset()
    if isinstance(variants, str) or not isinstance(variants, Iterable):
        raise BoardFormatError(f"{where}: expected a list of variant names")
    out = set()
    for i, v in enumerate(variants):
        if v not in VARIANTS:
            raise BoardFormatError(f"{where}[{i}]: unknown variant {v!r}; variants are {', '.join(VARIANTS)}")
        out.add(v)
    return frozenset(out)


def parse_side(side: Any, where: str = "side") -> str:
    if side not in SIDES:
        raise BoardFormatError(f"{where}: unknown side {side!r}; sides are {', '.join(SIDES)}")
    return side


def parse_cell(value: Any, size: int, where: str) -> Cell:
    if (
        not isinstance(value, Sequence)
        or isinstance(value, str)
        or len(value) != 2
        or not all(isinstance(x, int) and not isinstance(x, bool) for x in value)
    ):
        raise BoardFormatError(f"{where}: expected a [row, col] pair of whole numbers, got {value!r}")
    r, c = value
    if not (0 <= r < size and 0 <= c < size):
        raise BoardFormatError(f"{where}: cell [{r}, {c}] is outside the {size} x {size} grid")
    return (r, c)


def parse_bonus_tile(raw: Any, size: int, where: str) -> BonusTile:
    if not isinstance(raw, Mapping):
        raise BoardFormatError(f"{where}: expected an object with name, condition and cells")
    name = raw.get("name", where)
    if not isinstance(name, str):
        raise BoardFormatError(f"{where}.name: expected a string")
    condition = raw.get("condition")
    if condition not in CONDITIONS:
        raise BoardFormatError(f"{where}.condition: unknown condition {condition!r}; conditions are full, count")
    cells_raw = raw.get("cells")
    if not isinstance(cells_raw, Sequence) or isinstance(cells_raw, str) or not cells_raw:
        raise BoardFormatError(f"{where}.cells: expected a non-empty list of [row, col] pairs")
    cells = tuple(parse_cell(c, size, f"{where}.cells[{i}]") for i, c in enumerate(cells_raw))
    if condition == "full":
        return BonusTile(name, condition, cells)
    tile = raw.get("type")
    if tile not in BUILDING_TILES:
        raise BoardFormatError(f"{where}.type: expected one of {' '.join(BUILDING_TILES)}, got {tile!r}")
    n = raw.get("n")
    if not isinstance(n, int) or isinstance(n, bool) or n < 1:
        raise BoardFormatError(f"{where}.n: expected a whole number of at least 1, got {n!r}")
    return BonusTile(name, condition, cells, tile, n)


def parse_board(raw: Any) -> Board:
    """Check a ``board.json`` object and build the :class:`Board` it describes."""
    if not isinstance(raw, Mapping):
        raise BoardFormatError("board: expected a JSON object with side and grid")
    side = parse_side(raw.get("side"))
    size = board_side(side).size
    if "grid" not in raw:
        raise BoardFormatError("grid: missing")
    try:
        grid = parse_rows(raw["grid"], size, GRID_LETTERS)
    except ValueError as e:
        raise BoardFormatError(str(e)) from None
    variants = parse_variants(raw.get("variants"))
    bonus_raw = raw.get("bonus") or []
    if isinstance(bonus_raw, str) or not isinstance(bonus_raw, Sequence):
        raise BoardFormatError("bonus: expected a list of bonus tiles")
    bonus = tuple(parse_bonus_tile(b, size, f"bonus[{i}]") for i, b in enumerate(bonus_raw))
    return Board(side=side, grid=grid, variants=variants, bonus=bonus)


def bonus_layout(order: Sequence[str] | None = None, size: int = 6) -> tuple[BonusTile, ...]:
    """The bonus tiles for a game: the corner tile plus the six others laid in ``order``.

    ``order`` names the six catalogue tiles as laid: the first three in the north notches (west to
    east), the last three in the west notches (north to south). ``None`` lays them in catalogue order.
    North tiles look at their column, west tiles at their row; the corner tile at the diagonal.
    Which line each notch designates is provisional data (``data/bonus_tiles.json``).
    """
    cat = bonus_catalogue()
    tiles = {t["name"]: t for t in cat["tiles"]}
    names = list(order) if order is not None else [t["name"] for t in cat["tiles"]]
    if sorted(names) != sorted(tiles):
        raise BoardFormatError(
            f"bonus layout: expected each of {', '.join(sorted(tiles))} once, got {', '.join(names) or 'none'}"
        )
    corner = cat["corner"]
    laid = [
        parse_bonus_tile({**corner, "cells": [[i, i] for i in range(size)]}, size, "corner"),
    ]
    notches = [("north", col) for col in cat["notches"]["north"]] + [("west", row) for row in cat["notches"]["west"]]
    for (edge, line), name in zip(notches, names, strict=True):
        cells = [[r, line] for r in range(size)] if edge == "north" else [[line, c] for c in range(size)]
        laid.append(parse_bonus_tile({**tiles[name], "name": f"{edge}-{line}:{name}", "cells": cells}, size, name))
    return tuple(laid)
