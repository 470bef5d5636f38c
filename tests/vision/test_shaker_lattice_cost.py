"""The read frames' lattice stage, cheaper: settling a lattice whose nine cells are verified cubes skips
best_window's look (``settle_nine_no_window``), which could not move it (a moved window is taken only with more cubes
than the lattice holds, and none holds more than nine). The readings are the same; only the count of cube-like
points around the grid, kept in the debug, is not made there.

(A first read on the best-scored size's lattice alone, when its nine cells verified as outlined cubes, was measured
and dropped: on the photoreal dev set it read a lattice stretched over the cubes' cast shadows, three cubes wrong,
where the full search judged the right lattice more plausible.)"""

from __future__ import annotations

import dataclasses
from unittest import mock

import vision.shaker as shaker
from vision.shaker import DEFAULT_SETTINGS, read_shaker

from .shaker_sets import same_reading, set_scene

_OFF = dataclasses.replace(DEFAULT_SETTINGS, settle_nine_no_window=False)
_ON = dataclasses.replace(DEFAULT_SETTINGS, settle_nine_no_window=True)


def _read_counting(frame, settings):
    """The reading and best_window's calls."""
    with mock.patch.object(shaker, "best_window", wraps=shaker.best_window) as windows:
        reading = read_shaker(frame, settings=settings)
    return reading, windows.call_count


def test_a_lattice_of_nine_cubes_settles_without_a_window_look() -> None:
    # seed 41001 frame 2: a complete pattern, nine verified cubes on the lattice that is settled
    frame, truth = set_scene(41001, 2)
    assert truth["valid"]
    before, windows_before = _read_counting(frame, _OFF)
    after, windows_after = _read_counting(frame, _ON)
    assert same_reading(after, before) and after.valid
    assert [list(row) for row in after.pattern] == truth["pattern"]
    assert windows_after < windows_before  # (settling nine cubes: no window look; the last checks' stays)
    assert after.debug["cubes_around"] is None and before.debug["cubes_around"] is not None


def test_a_lattice_short_of_nine_cubes_still_looks_for_a_better_window() -> None:
    # seed 41001 frame 0: a lattice settled with fewer than nine verified cubes; its window look is asked as before
    frame, truth = set_scene(41001, 0)
    before, windows_before = _read_counting(frame, _OFF)
    after, windows_after = _read_counting(frame, _ON)
    assert same_reading(after, before)
    assert after.valid == truth["valid"]
    assert windows_after == windows_before
