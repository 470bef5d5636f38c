"""The read frames' lattice stage, cheaper. Most frames' pattern lies on the first lattice of
the size whose best hypothesis scores highest, its nine cells verified as outlined cubes: read there, the other sizes'
lattices are not built, measured or checked (``early_plain_nine``), and should that reading be refused the frame is
read again as before. Settling a lattice of nine verified cubes skips best_window's look, which could not move it
(``settle_nine_no_window``)."""

from __future__ import annotations

import dataclasses
from unittest import mock

import vision.shaker as shaker
from vision.shaker import DEFAULT_SETTINGS, read_shaker

from .shaker_sets import set_scene

_OFF = dataclasses.replace(DEFAULT_SETTINGS, early_plain_nine=False, settle_nine_no_window=False)
_ON = dataclasses.replace(DEFAULT_SETTINGS, early_plain_nine=True, settle_nine_no_window=True)


def _read_counting(frame, settings):
    """The reading, the sizes whose lattices were searched (lattices' calls) and best_window's calls."""
    with (
        mock.patch.object(shaker, "lattices", wraps=shaker.lattices) as searched,
        mock.patch.object(shaker, "best_window", wraps=shaker.best_window) as windows,
    ):
        reading = read_shaker(frame, settings=settings)
    return reading, searched.call_count, windows.call_count


def _read_asking_plain_nine(frame, settings):
    """:func:`_read_counting`'s reading and searches, and whether each time _plain_nine was asked it found one."""
    calls: list[bool] = []
    plain_nine = shaker._plain_nine

    def counted(*args, **kwargs):
        found = plain_nine(*args, **kwargs)
        calls.append(found is not None)
        return found

    with mock.patch.object(shaker, "_plain_nine", side_effect=counted):
        reading, searched, _ = _read_counting(frame, settings)
    return reading, searched, calls


def _same(a, b) -> bool:
    return (a.valid, a.reason, a.pattern) == (b.valid, b.reason, b.pattern)


def test_a_plain_nine_is_read_on_one_size_with_one_window_look() -> None:
    # seed 41001 frame 2: a complete pattern, nine outlined cubes on the best-scored size's first lattice
    frame, truth = set_scene(41001, 2)
    assert truth["valid"]
    before, searched_before, windows_before = _read_counting(frame, _OFF)
    after, searched_after, windows_after = _read_counting(frame, _ON)
    assert _same(after, before) and after.valid
    assert [list(row) for row in after.pattern] == truth["pattern"]
    assert searched_before >= 3 and searched_after == 1  # (the other sizes' lattices not searched)
    assert windows_after == windows_before - 1  # (settling nine cubes: no window look; the last checks' one stays)
    assert after.debug["cubes_around"] is None and before.debug["cubes_around"] is not None


def test_a_plain_nine_refused_later_is_read_again_as_before() -> None:
    # seed 41002 frame 14: an incomplete pattern whose best-scored size's first lattice verifies nine outlined cubes;
    # a later check refuses it ("8 cubes in the grid"), and the frame is read again with every size, as before
    frame, truth = set_scene(41002, 14)
    assert not truth["valid"]
    before, searched_before, _ = _read_counting(frame, _OFF)
    after, searched_after, calls = _read_asking_plain_nine(frame, _ON)
    assert calls == [True]  # (asked once, on the first read only: it found the plain nine)
    assert not after.valid and _same(after, before)
    assert searched_after == searched_before + 1  # (the read again searched every size, as before)


def test_a_frame_short_of_a_plain_nine_is_read_as_before() -> None:
    # seed 41001 frame 0: the best-scored size's first lattice is no plain nine; every size is searched as before
    # (after that lattice: one search more), the same reading
    frame, truth = set_scene(41001, 0)
    before, searched_before, _ = _read_counting(frame, _OFF)
    after, searched_after, _ = _read_counting(frame, _ON)
    assert _same(after, before)
    assert after.valid == truth["valid"]
    assert searched_after == searched_before + 1


def test_no_early_read_on_a_busy_table() -> None:
    # a table whose edges lift find_cubes' threshold above response_min (a gingham's checks) is searched size by size:
    # there another size's more plausible lattice can refuse an empty cell's outlined check that the first size's
    # lattice took for a cube (t41021 0338). Here s41001 0002's plain table made "busy" by a response_min under its
    # edges' threshold: every size is searched, as with the rule off
    frame, _ = set_scene(41001, 2)
    busy_off = dataclasses.replace(_OFF, response_min=0.0)
    busy_on = dataclasses.replace(_ON, response_min=0.0)
    before, searched_before, _ = _read_counting(frame, busy_off)
    after, searched_after, calls = _read_asking_plain_nine(frame, busy_on)
    assert calls == [False] and _same(after, before)
    assert searched_after == searched_before  # (no lattice built before the sizes' search)
