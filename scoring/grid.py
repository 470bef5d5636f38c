"""Square grids of cells shared by every game: addressing, orthogonal adjacency, groups.

A grid is addressed ``(row, col)``; row 0 is north, col 0 is west. Cells are also numbered
``index = row * size + col`` for the fast paths (scoring thousands of boards a second).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import cache

Cell = tuple[int, int]

EDGES = ("north", "east", "south", "west")


@cache
def neighbour_table(size: int) -> tuple[tuple[int, ...], ...]:
    """For each cell index of a ``size`` x ``size`` grid, the indices of its orthogonal neighbours."""
    table = []
    for r in range(size):
        for c in range(size):
            around = []
            for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1)):
                rr, cc = r + dr, c + dc
                if 0 <= rr < size and 0 <= cc < size:
                    around.append(rr * size + cc)
            table.append(tuple(around))
    return tuple(table)


@cache
def edge_cells(size: int, edge: str) -> frozenset[int]:
    """Indices of the cells that touch ``edge`` (the row or column along it)."""
    last = size - 1
    if edge == "north":
        return frozenset(c for c in range(size))
    if edge == "south":
        return frozenset(last * size + c for c in range(size))
    if edge == "west":
        return frozenset(r * size for r in range(size))
    if edge == "east":
        return frozenset(r * size + last for r in range(size))
    raise ValueError(f"unknown edge {edge!r}; edges are {', '.join(EDGES)}")


def ring_distance(size: int, row: int, col: int) -> int:
    """How many rings in from the border a cell lies: 0 on the outer ring."""
    return min(row, col, size - 1 - row, size - 1 - col)


def groups(cells: Iterable[int], size: int) -> list[frozenset[int]]:
    """Maximal sets of orthogonally connected cells among ``cells`` (a lone cell is a group)."""
    todo = set(cells)
    table = neighbour_table(size)
    found: list[frozenset[int]] = []
    while todo:
        start = todo.pop()
        group = {start}
        frontier = [start]
        while frontier:
            here = frontier.pop()
            for there in table[here]:
                if there in todo:
                    todo.remove(there)
                    group.add(there)
                    frontier.append(there)
        found.append(frozenset(group))
    return found


def reachable(starts: Iterable[int], passable: Callable[[int], bool], size: int) -> set[int]:
    """Every cell reachable from ``starts`` through orthogonal steps onto ``passable`` cells.

    The starts themselves are included (they must be passable to be kept).
    """
    table = neighbour_table(size)
    seen = {s for s in starts if passable(s)}
    frontier = list(seen)
    while frontier:
        here = frontier.pop()
        for there in table[here]:
            if there not in seen and passable(there):
                seen.add(there)
                frontier.append(there)
    return seen


def parse_rows(rows: Sequence[str], size: int, letters: str, what: str = "grid") -> str:
    """Check ``rows`` is ``size`` strings of ``size`` known letters; return them joined, row-major."""
    if isinstance(rows, str) or not isinstance(rows, Sequence):
        raise ValueError(f"{what}: expected a list of {size} strings, got {type(rows).__name__}")
    if len(rows) != size:
        raise ValueError(f"{what}: expected {size} rows, got {len(rows)}")
    for r, row in enumerate(rows):
        if not isinstance(row, str):
            raise ValueError(f"{what} row {r}: expected a string, got {type(row).__name__}")
        if len(row) != size:
            raise ValueError(f"{what} row {r}: expected {size} letters, got {len(row)} ({row!r})")
        for c, letter in enumerate(row):
            if letter not in letters:
                raise ValueError(f"{what} row {r} col {c}: unknown letter {letter!r}; letters are {' '.join(letters)}")
    return "".join(rows)


def to_rows(flat: str, size: int) -> list[str]:
    """The inverse of :func:`parse_rows`: a row-major string back to ``size`` row strings."""
    return [flat[r * size : (r + 1) * size] for r in range(size)]
