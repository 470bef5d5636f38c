"""Ranking players by a chain of tie-breaks, with shared places."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Place(Generic[T]):
    """One entry's place: 1 is first; entries with equal keys share a place."""

    place: int
    entry: T
    key: tuple[Hashable, ...]


def rank(entries: Sequence[T], key: Callable[[T], tuple]) -> list[Place[T]]:
    """Order ``entries`` best first by ``key`` (larger is better), ties sharing a place.

    Places follow competition ranking: two entries sharing first are followed by third.
    The sort is stable, so shared places keep the input order.
    """
    keyed = sorted(((key(e), i, e) for i, e in enumerate(entries)), key=lambda t: (t[0], -t[1]), reverse=True)
    places: list[Place[T]] = []
    for position, (k, _, entry) in enumerate(keyed, start=1):
        if places and places[-1].key == k:
            places.append(Place(places[-1].place, entry, k))
        else:
            places.append(Place(position, entry, k))
    return places
