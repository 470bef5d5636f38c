"""Measured accuracy of the shaker reader on a seeded generated set (targets of issue 3)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.shaker import read_shaker


def _measure(scene_set: list[tuple[np.ndarray, dict]]) -> dict[str, float]:
    cubes = cubes_ok = complete = exact = false_refusals = incomplete = refused = 0
    for frame_bgr, truth in scene_set:
        reading = read_shaker(frame_bgr)
        if truth["valid"]:
            complete += 1
            if not reading.valid:
                false_refusals += 1
                continue
            right = sum(reading.pattern[r][c] == truth["pattern"][r][c] for r in range(3) for c in range(3))
            cubes += 9
            cubes_ok += right
            exact += right == 9
        else:
            incomplete += 1
            refused += not reading.valid
    return {
        "cube_accuracy": cubes_ok / cubes,
        "exact_rate": exact / complete,
        "refusal_recall": refused / incomplete,
        "false_refusal_rate": false_refusals / complete,
        "complete": complete,
        "incomplete": incomplete,
    }


def test_the_set_covers_complete_and_incomplete_scenes(shaker_scene_set):
    valid = sum(t["valid"] for _, t in shaker_scene_set)
    assert 100 <= valid <= 140
    tables = {t["scene"]["table"] for _, t in shaker_scene_set}
    assert tables == {"plain_light", "plain_dark", "wood", "cloth", "gingham", "printed"}


@pytest.fixture(scope="module")
def shaker_measured(shaker_scene_set) -> dict[str, float]:
    m = _measure(shaker_scene_set)
    print(m)
    return m


# Issue 3's targets. Only the first is met on this set; see the floors below for the others.
CUBE_TARGET = 0.9995
REFUSAL_TARGET = 0.97
EXACT_TARGET = 0.995
FALSE_REFUSAL_LIMIT = 0.01

# What the reader reaches today on this set (measured: refusal recall 0.952 (40/42), exact 0.932 (110/118),
# false refusals 0.068 (8/118), cubes 1.0; with ShakerSettings.lattices_per_size=6 it is 112/118 and 6/118,
# but that setting accepts more incomplete patterns elsewhere, so it is off): guards against regressions
# while the reader is below those targets, a scene or so of margin. Raise them as it improves.
REFUSAL_FLOOR = 0.92
EXACT_FLOOR = 0.92
FALSE_REFUSAL_CEILING = 0.07


def test_never_misreads_a_cube_in_a_pattern_it_accepts(shaker_measured):
    assert shaker_measured["cube_accuracy"] >= CUBE_TARGET, shaker_measured


def test_refuses_incomplete_patterns_floor(shaker_measured):
    """Below issue 3's 97 %: an empty cell on a checked cloth can pass for a white or gray cube."""
    assert shaker_measured["refusal_recall"] >= REFUSAL_FLOOR, shaker_measured


def test_complete_patterns_read_exactly_floor(shaker_measured):
    """Below issue 3's target (99.5 % exact, 1 % false refusals): the reader refuses too many complete
    patterns (black on a dark table, gray or white on a light one). This pins today's level."""
    assert shaker_measured["exact_rate"] >= EXACT_FLOOR, shaker_measured
    assert shaker_measured["false_refusal_rate"] <= FALSE_REFUSAL_CEILING, shaker_measured
