"""The retry without a refused lattice's size for any refusal (``retry_any_reason``): a lattice fitted to a
gingham's checks at about 0.43 of the cubes' pitch, whose cubes' faces span its cells, refuses with an unclear
colour, not "N cubes in the grid"; read again without that size, the cubes' own lattice reads the pattern."""

from __future__ import annotations

import dataclasses

from vision.shaker import DEFAULT_SETTINGS, read_shaker

from .shaker_sets import set_scene


def test_fine_lattice_refused_for_a_colour_is_read_again_without_its_size() -> None:
    frame, truth = set_scene(41008, 42)  # a gingham table; the checks' lattice wins the fit
    # (made_lattice off: a lattice made at the cubes' pitch reads it too)
    off = read_shaker(frame, settings=dataclasses.replace(DEFAULT_SETTINGS, retry_any_reason=False, made_lattice=False))
    assert not off.valid and "unclear" in (off.reason or "")
    on = read_shaker(frame, settings=dataclasses.replace(DEFAULT_SETTINGS, retry_any_reason=True))
    assert on.valid, on.reason
    assert [list(row) for row in on.pattern] == truth["pattern"]
    assert on.debug["grid"].pitch >= DEFAULT_SETTINGS.retry_pitch_ratio * off.debug["grid"].pitch
