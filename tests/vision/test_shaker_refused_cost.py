"""What a refused frame costs: a reading still refused is read again on lattices made afresh at the cubes' pitch
(``made_lattice``); those at about the refused pitch are kept only as a re-lattice move is (no plainly seen cube of
the refused reading left behind), so one that leaves such a cube behind as it starts is neither screened nor read
(``made_screen_left``), and the made lattice that reads the pattern still wins."""

from __future__ import annotations

import dataclasses
from unittest import mock

import vision.shaker as shaker
from vision.shaker import DEFAULT_SETTINGS, read_shaker

from .shaker_sets import set_scene


def _read_counting(frame, settings):
    """The reading and how many cell screens (``_verified``) and re-reads (``_ReadAgain.read_from``) it made."""
    with (
        mock.patch.object(shaker, "_verified", wraps=shaker._verified) as verified,
        mock.patch.object(
            shaker._ReadAgain, "read_from", autospec=True, side_effect=shaker._ReadAgain.read_from
        ) as reads,
    ):
        reading = read_shaker(frame, settings=settings)
    return reading, verified.call_count, reads.call_count


def test_made_lattices_leaving_a_cube_behind_are_not_screened() -> None:
    frame, truth = set_scene(41027, 0)  # a complete pattern refused "8 cubes in the grid", read on a made lattice
    off = dataclasses.replace(DEFAULT_SETTINGS, made_screen_left=False)
    before, screens_before, reads_before = _read_counting(frame, off)
    after, screens_after, reads_after = _read_counting(frame, DEFAULT_SETTINGS)
    for reading in (before, after):
        assert reading.valid, reading.reason
        assert [list(row) for row in reading.pattern] == truth["pattern"]
        assert reading.debug["made_lattice"]["size"] == 4
    # the same lattice wins, with fewer lattices screened on the way (three at the refused pitch leave a cube behind)
    assert after.debug["made_lattice"]["lattice"] == before.debug["made_lattice"]["lattice"]
    assert screens_after < screens_before
    assert reads_after <= reads_before


def _made_counting(frame, settings):
    """The reading and how many lattices each call of ``made_lattices`` gave."""
    made: list[int] = []
    make = shaker.made_lattices

    def counted(*args, **kwargs):
        out = make(*args, **kwargs)
        made.append(len(out))
        return out

    with mock.patch.object(shaker, "made_lattices", side_effect=counted):
        reading = read_shaker(frame, settings=settings)
    return reading, made


def test_a_size_whose_best_made_lattice_lies_apart_makes_no_next() -> None:
    frame, truth = set_scene(41027, 0)  # the made lattice that reads it is its size's best, at 1.2x the refused pitch
    # (made_next_if_near is off by default: it lost three readings elsewhere for its time; asked here on and off)
    on = dataclasses.replace(DEFAULT_SETTINGS, made_next_if_near=True)
    before, made_before = _made_counting(frame, DEFAULT_SETTINGS)
    after, made_after = _made_counting(frame, on)
    for reading in (before, after):
        assert reading.valid, reading.reason
        assert [list(row) for row in reading.pattern] == truth["pattern"]
        assert reading.debug["made_lattice"]["size"] == 4
    assert len(made_before) == len(made_after) == 1
    assert made_after[0] < made_before[0]  # (12 lattices made before, 7 now: a second only where the best is near)


def test_relattice_moves_starting_on_the_refused_lattice_are_not_screened() -> None:
    frame, truth = set_scene(41001, 0)  # an incomplete pattern, refused "7 cubes in the grid" either way
    off = dataclasses.replace(DEFAULT_SETTINGS, relattice_min_start=0.0)
    before, screens_before, _ = _read_counting(frame, off)
    after, screens_after, _ = _read_counting(frame, DEFAULT_SETTINGS)
    assert not truth["valid"]
    assert not before.valid and not after.valid
    assert after.reason == before.reason
    # (the lattice through the cubes' top faces lies on the refused one: the move is not screened)
    assert screens_after < screens_before
