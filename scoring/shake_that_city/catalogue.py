"""The game's data: board sides, components, bonus and construction tiles.

Everything the rules page marks provisional is a value in ``data/*.json``; this module only loads
and checks it, so an owner of the box corrects a fact in one file and no code changes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from ..grid import EDGES, edge_cells

BUILDING_TILES = "HSFPR"
CONSTRUCTION = "C"
EMPTY = "."
GRID_LETTERS = BUILDING_TILES + CONSTRUCTION + EMPTY
TILE_NAMES = {"H": "home", "S": "shop", "F": "factory", "P": "park", "R": "road"}


def _load(name: str) -> Any:
    with resources.files(__package__).joinpath("data").joinpath(name).open(encoding="utf-8") as f:
        return json.load(f)


@dataclass(frozen=True)
class BoardSide:
    """One printed side of the player board: its size, edges and zones."""

    name: str
    size: int
    edges: dict[str, str]
    black: frozenset[int]
    beach: frozenset[int]
    zone: tuple[int, ...]
    zone_names: dict[int, str]
    shop_value: tuple[int, ...]
    source: str

    def zone_name(self, row: int, col: int) -> str:
        return self.zone_names[self.zone[row * self.size + col]]


SIDES = ("inland", "waterfront")


@cache
def board_side(name: str) -> BoardSide:
    """The board side called ``name`` (``inland`` or ``waterfront``)."""
    if name not in SIDES:
        raise ValueError(f"unknown side {name!r}; sides are {', '.join(SIDES)}")
    raw = _load(f"{name}.json")
    size = int(raw["size"])
    edges = dict(raw["edges"])
    if set(edges) != set(EDGES) or not set(edges.values()) <= {"black", "beach"}:
        raise ValueError(f"data/{name}.json: edges must give each of {EDGES} as black or beach")
    black = frozenset().union(*(edge_cells(size, e) for e, kind in edges.items() if kind == "black"))
    beach = frozenset().union(*(edge_cells(size, e) for e, kind in edges.items() if kind == "beach"))
    rows = raw["zones"]
    if len(rows) != size or any(len(r) != size for r in rows):
        raise ValueError(f"data/{name}.json: zones must be {size} rows of {size} digits")
    zone = tuple(int(ch) for row in rows for ch in row)
    values = {int(k): int(v) for k, v in raw["shop_value"].items()}
    return BoardSide(
        name=name,
        size=size,
        edges=edges,
        black=black,
        beach=beach,
        zone=zone,
        zone_names={int(k): v for k, v in raw["zone_names"].items()},
        shop_value=tuple(values[z] for z in zone),
        source=raw["source"],
    )


@dataclass(frozen=True)
class Components:
    """Cubes, rounds and variant numbers from ``data/components.json``."""

    cubes: dict[str, int]
    tile_for_colour: dict[str, str]
    wild_colour: str
    white_cubes: int
    whites_at_start: int
    white_join_rounds: frozenset[int]
    rounds: int
    free_choice_from_round: int
    solo_limit_lifted_from_round: int
    solo_target: int
    solo_target_wild_nights: int
    bonus_points: int
    max_players: int

    @property
    def colours(self) -> tuple[str, ...]:
        """Every cube colour that can appear in a pattern, wild last."""
        return (*self.cubes, self.wild_colour)


@cache
def components() -> Components:
    raw = _load("components.json")
    wn = raw["wild_nights"]
    return Components(
        cubes=dict(raw["cubes"]),
        tile_for_colour=dict(raw["tile_for_colour"]),
        wild_colour=raw["wild_colour"],
        white_cubes=int(wn["white_cubes"]),
        whites_at_start=int(wn["in_shaker_at_start"]),
        white_join_rounds=frozenset(int(r) for r in wn["join_on_rounds"]),
        rounds=int(raw["rounds"]),
        free_choice_from_round=int(raw["free_choice_from_round"]),
        solo_limit_lifted_from_round=int(raw["solo_limit_lifted_from_round"]),
        solo_target=int(raw["solo_target"]["base"]),
        solo_target_wild_nights=int(raw["solo_target"]["wild_nights"]),
        bonus_points=int(raw["bonus_points"]),
        max_players=int(raw["max_players"]),
    )


@cache
def bonus_catalogue() -> dict[str, Any]:
    """The provisional bonus tiles: the corner tile, the six others and the notches' lines."""
    return _load("bonus_tiles.json")


@cache
def construction_catalogue() -> dict[str, Any]:
    """The provisional construction tiles (type pairs) and the diagonal cells they are laid on."""
    return _load("construction_tiles.json")
