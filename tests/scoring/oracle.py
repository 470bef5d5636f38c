"""A second, deliberately naive implementation of the scoring rules, for cross-checking the engine.

Written straight from the rules page with (row, col) loops and flood fills over sets, sharing no code
with ``scoring`` except the raw JSON data files (read here directly), so that a bug in one is
unlikely to hide in the other.
"""

from __future__ import annotations

import json
from pathlib import Path

DATA = Path(__file__).resolve().parents[2] / "scoring" / "shake_that_city" / "data"
N = 6


def side_facts(side: str) -> tuple[set[str], set[str], list[list[int]]]:
    raw = json.loads((DATA / f"{side}.json").read_text())
    black = {e for e, kind in raw["edges"].items() if kind == "black"}
    beach = {e for e, kind in raw["edges"].items() if kind == "beach"}
    values = raw["shop_value"]
    zones = [[values[ch] for ch in row] for row in raw["zones"]]
    return black, beach, zones


def edges_of(r: int, c: int) -> set[str]:
    out = set()
    if r == 0:
        out.add("north")
    if r == N - 1:
        out.add("south")
    if c == 0:
        out.add("west")
    if c == N - 1:
        out.add("east")
    return out


def around(r: int, c: int) -> list[tuple[int, int]]:
    return [(r + dr, c + dc) for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)) if 0 <= r + dr < N and 0 <= c + dc < N]


def oracle_score(side: str, grid: list[str], variants: list[str], bonus: list[dict]) -> dict:
    black, beach, zones = side_facts(side)
    at = {(r, c): grid[r][c] for r in range(N) for c in range(N)}

    def near(r: int, c: int, letter: str) -> bool:
        return any(at[x] == letter for x in around(r, c))

    # Roads: repeat until stable: a road is connected if on a black edge or next to a connected road.
    connected: set[tuple[int, int]] = set()
    changed = True
    while changed:
        changed = False
        for (r, c), letter in at.items():
            if letter != "R" or (r, c) in connected:
                continue
            if edges_of(r, c) & black or any(x in connected for x in around(r, c)):
                connected.add((r, c))
                changed = True
    pts = {"road": len(connected), "park": 0, "factory": 0, "shop": 0, "home": 0}
    for (r, c), letter in at.items():
        if letter == "P":
            pts["park"] += 1 if near(r, c, "H") else 0
            if side == "inland":
                pts["park"] += 1 if near(r, c, "F") else 0
            else:
                pts["park"] += 1 if edges_of(r, c) & beach else 0
        if letter == "F":
            pts["factory"] += (1 if near(r, c, "F") else 0) + (1 if near(r, c, "R") else 0)
        if letter == "S" and (edges_of(r, c) & black or any(x in connected for x in around(r, c))):
            pts["shop"] += zones[r][c]
    seen: set[tuple[int, int]] = set()
    for start, letter in at.items():
        if letter != "H" or start in seen:
            continue
        group = {start}
        stack = [start]
        while stack:
            x = stack.pop()
            for y in around(*x):
                if at[y] == "H" and y not in group:
                    group.add(y)
                    stack.append(y)
        seen |= group
        if any(near(r, c, "F") for r, c in group):
            continue
        pts["home"] += 2
        if any(edges_of(r, c) & beach for r, c in group):
            pts["home"] += 1
    flipped = []
    for b in bonus:
        letters = [at[tuple(x)] for x in b["cells"]]
        ok = all(ch in "HSFPR" for ch in letters) if b["condition"] == "full" else letters.count(b["type"]) >= b["n"]
        if ok:
            flipped.append(b["name"])
    if "family" in variants:
        pts = dict.fromkeys(pts, 0)
    pts["bonus"] = 3 * len(flipped)
    total = sum(pts.values())
    left = sum(row.count("C") for row in grid)
    if left and ("construction" in variants or "solo" in variants):
        total = 0
    out = {
        "total": total,
        "breakdown": pts,
        "bonus_flipped": flipped,
        "empty_cells": sum(row.count(".") for row in grid),
        "construction_left": left,
    }
    if "solo" in variants:
        out["solo_win"] = left == 0 and total >= (60 if "wild_nights" in variants else 55)
    return out
