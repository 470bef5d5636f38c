"""Helpers for scripting games in tests: patterns from short letters, a seeded shaker, a table policy."""

from __future__ import annotations

import random

from scoring.shake_that_city.game import GameState
from scoring.shake_that_city.pattern import Pattern

LETTER = {"r": "red", "b": "blue", "k": "black", "g": "green", "y": "gray", "w": "white"}


def pat(text: str) -> Pattern:
    """``"rrb/kgy/wrb"``: three rows of cube letters (r red, b blue, k black, g green, y gray, w white)."""
    return Pattern.parse([[LETTER[ch] for ch in row] for row in text.split("/")])


def shake_from(state: GameState, rng: random.Random) -> Pattern:
    """Nine cubes drawn from what the shaker holds this round."""
    bag = [colour for colour, n in state.shaker().items() for _ in range(n)]
    nine = rng.sample(bag, 9)
    return Pattern.parse([nine[0:3], nine[3:6], nine[6:9]])
