"""The Cube Shaker's 3 x 3 pattern: colours, the shapes it offers, and what the shaker can produce."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import ImpossiblePattern
from .catalogue import components

PATTERN_SIZE = 3
Offset = tuple[int, int]


@dataclass(frozen=True)
class Pattern:
    """Nine cube colours, rows top to bottom (table north first), each row west to east."""

    cells: tuple[tuple[str, str, str], tuple[str, str, str], tuple[str, str, str]]

    @classmethod
    def parse(cls, raw: Any) -> Pattern:
        """Check a 3 x 3 list of colour names (or a compact ``"red,blue,black/..."`` string)."""
        if isinstance(raw, str):
            raw = [row.split(",") for row in raw.strip().split("/")]
        colours = components().colours
        if not isinstance(raw, Sequence) or len(raw) != PATTERN_SIZE:
            raise ImpossiblePattern(f"pattern: expected {PATTERN_SIZE} rows of {PATTERN_SIZE} colours")
        rows = []
        for r, row in enumerate(raw):
            if isinstance(row, str) or not isinstance(row, Sequence) or len(row) != PATTERN_SIZE:
                raise ImpossiblePattern(f"pattern row {r}: expected {PATTERN_SIZE} colours, got {row!r}")
            for c, colour in enumerate(row):
                if colour not in colours:
                    raise ImpossiblePattern(
                        f"pattern row {r} col {c}: unknown colour {colour!r}; colours are {', '.join(colours)}"
                    )
            rows.append(tuple(row))
        return cls(tuple(rows))  # type: ignore[arg-type]

    def to_json(self) -> list[list[str]]:
        return [list(row) for row in self.cells]

    def counts(self) -> Counter[str]:
        return Counter(colour for row in self.cells for colour in row)

    @property
    def wilds(self) -> int:
        return self.counts()[components().wild_colour]

    def colours_present(self) -> tuple[str, ...]:
        """The building colours in the pattern (never the wild colour), in the catalogue's order."""
        counts = self.counts()
        return tuple(c for c in components().cubes if counts[c])

    def shape(self, colour: str, wilds: bool = False) -> tuple[Offset, ...]:
        """Offsets (row, col) from the pattern's top-left of ``colour``'s cubes, plus every wild if asked.

        Shapes are taken exactly as they lie: never rotated, never mirrored.
        """
        wild = components().wild_colour
        return tuple(
            (r, c)
            for r, row in enumerate(self.cells)
            for c, cube in enumerate(row)
            if cube == colour or (wilds and cube == wild)
        )


def check_against_shaker(pattern: Pattern, shaker: Mapping[str, int]) -> None:
    """Refuse a pattern that needs more cubes of a colour than the shaker holds."""
    counts = pattern.counts()
    for colour, n in counts.items():
        held = shaker.get(colour, 0)
        if n > held:
            if held == 0:
                raise ImpossiblePattern(f"the pattern shows {n} {colour} but the shaker holds no {colour} cube")
            raise ImpossiblePattern(f"the pattern shows {n} {colour} but the shaker holds only {held}")
