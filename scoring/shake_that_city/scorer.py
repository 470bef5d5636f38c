"""End-of-game scoring of one board: a pure function of the board, fast enough for bulk checks.

Each category follows the rules page 'End of game scoring' word for word; the variant rules
(Family, Construction, Solo, Wild Nights' solo target) are applied in :func:`score_board`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..errors import BoardFormatError
from ..grid import groups, neighbour_table, reachable
from . import readings
from .board import CONSTRUCTION_VARIANT, FAMILY, SOLO, WILD_NIGHTS, Board
from .catalogue import CONSTRUCTION, EMPTY, BoardSide, board_side, components

CATEGORIES = ("road", "park", "factory", "shop", "home", "bonus")


@dataclass(frozen=True)
class Score:
    """The score object of ``shakecity score --json``."""

    total: int
    breakdown: dict[str, int]
    bonus_flipped: tuple[str, ...]
    empty_cells: int
    construction_left: int
    solo_win: bool | None = None
    # Why the total is what it is, in words, for players ("construction tiles left: scores 0").
    notes: tuple[str, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "total": self.total,
            "breakdown": dict(self.breakdown),
            "bonus_flipped": list(self.bonus_flipped),
            "empty_cells": self.empty_cells,
            "construction_left": self.construction_left,
        }
        if self.solo_win is not None:
            out["solo_win"] = self.solo_win
        if self.notes:
            out["notes"] = list(self.notes)
        return out


def connected_roads(grid: str, side: BoardSide) -> set[int]:
    """Road cells that touch a black edge or reach one through a chain of adjacent roads."""
    return reachable((i for i in side.black if grid[i] == "R"), lambda i: grid[i] == "R", side.size)


def building_points(grid: str, side: BoardSide) -> dict[str, int]:
    """Points of the five building categories on a row-major grid, before any variant."""
    table = neighbour_table(side.size)
    beach = side.beach
    black = side.black
    inland_parks = side.name == "inland"
    roads = connected_roads(grid, side)
    park = factory = shop = 0
    homes = []
    for i, letter in enumerate(grid):
        if letter == "P":
            around = [grid[j] for j in table[i]]
            park += "H" in around
            park += ("F" in around) if inland_parks else (i in beach)
        elif letter == "F":
            around = [grid[j] for j in table[i]]
            factory += ("F" in around) + ("R" in around)
        elif letter == "S":
            if i in black or any(j in roads for j in table[i]):
                shop += side.shop_value[i]
        elif letter == "H":
            homes.append(i)
    home = 0
    for group in groups(homes, side.size):
        if any(grid[j] == "F" for i in group for j in table[i]):
            continue
        home += 2
        if beach and not group.isdisjoint(beach):
            home += 1
    return {"road": len(roads), "park": park, "factory": factory, "shop": shop, "home": home}


def score_board(board: Board, bonus_overrides: Mapping[str, bool] | None = None) -> Score:
    """Score one board with its variants and bonus tiles.

    The engine's verdict on a bonus tile is a suggestion while the tile texts are provisional: a
    player may confirm or deny a flip by hand, given as ``bonus_overrides`` (tile name -> flipped).
    """
    side = board_side(board.side)
    grid = board.grid
    comp = components()
    points = building_points(grid, side)
    overrides = bonus_overrides or {}
    unknown = set(overrides) - {b.name for b in board.bonus}
    if unknown:
        raise BoardFormatError(
            f"bonus override for {', '.join(sorted(unknown))}: no such bonus tile in play; "
            f"tiles are {', '.join(b.name for b in board.bonus) or 'none'}"
        )
    flipped = tuple(b.name for b in board.bonus if overrides.get(b.name, b.is_met(grid, side.size)))
    notes = [f"bonus tile {name} {'flipped' if v else 'not flipped'} by hand" for name, v in overrides.items()]
    points["bonus"] = comp.bonus_points * len(flipped)
    if FAMILY in board.variants:
        for k in ("road", "park", "factory", "shop", "home"):
            points[k] = 0
        notes.append("Family: only bonus tiles score")
    total = sum(points.values())
    left = grid.count(CONSTRUCTION)
    if left and (CONSTRUCTION_VARIANT in board.variants or SOLO in board.variants):
        total = 0
        notes.append(f"construction tiles left: {left}, so the board scores 0")
        if not readings.BONUS_LISTED_WHEN_CONSTRUCTION_LEFT:
            flipped = ()
            points["bonus"] = 0
    solo_win = None
    if SOLO in board.variants:
        target = comp.solo_target_wild_nights if WILD_NIGHTS in board.variants else comp.solo_target
        solo_win = left == 0 and total >= target
        notes.append(f"solo target {target}: {'won' if solo_win else 'not reached'}")
    return Score(
        total=total,
        breakdown={k: points[k] for k in CATEGORIES},
        bonus_flipped=flipped,
        empty_cells=grid.count(EMPTY),
        construction_left=left,
        solo_win=solo_win,
        notes=tuple(notes),
    )
