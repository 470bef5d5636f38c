"""Shaker fixtures: scenes made by the project's own generator (the tests never read ../shared)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from vision.shaker_scene import random_pattern, render_scene_set, render_shake


@pytest.fixture(scope="session")
def shaker_scene_set() -> list[tuple[np.ndarray, dict]]:
    """A seeded set across every table, light and distractor: complete and incomplete patterns."""
    return render_scene_set(random.Random(20261129), 160)


@pytest.fixture(scope="session")
def shaker_plain_scene() -> tuple[np.ndarray, dict]:
    """One complete pattern on a plain table that the reader reads right (for the contract tests;
    accuracy is measured on the whole set in test_shaker_accuracy)."""
    from vision.shaker import read_shaker

    rng = random.Random(5)
    for _ in range(40):
        frame_bgr, truth = render_shake(random_pattern(rng, wilds=1), rng)
        if truth["scene"]["table"].startswith("plain") and read_shaker(frame_bgr).pattern == truth["pattern"]:
            return frame_bgr, truth
    raise AssertionError("no plain-table scene read right in 40 tries")
