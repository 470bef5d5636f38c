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
    """The reading and how many cell screens (``_verified``) and re-reads (``_read_from``) it made."""
    with (
        mock.patch.object(shaker, "_verified", wraps=shaker._verified) as verified,
        mock.patch.object(shaker, "_read_from", wraps=shaker._read_from) as reads,
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
