"""A complete pattern refused on a lattice shifted or partly off its cubes, read again on a lattice near it.

``relattice_out_of_line``: a reading refused for a cube out of line is re-latticed too (its lattice about half a
pitch off took a grid cube for a stray or left a face off its cell)."""

from __future__ import annotations

import dataclasses

from vision.shaker import DEFAULT_SETTINGS, read_shaker

from .shaker_sets import set_scene


def test_out_of_line_refusal_is_read_again_on_the_faces_lattice() -> None:
    frame, truth = set_scene(41002, 208)  # a plain dark table: the lattice partly off, a face off its cell
    assert truth["valid"]
    # (the made lattice, asked after the re-lattice, reads this frame too: off here, to see the re-lattice's part)
    # (nor a square-steps read: it reads it too)
    plain = dataclasses.replace(DEFAULT_SETTINGS, relattice_out_of_line=False, made_lattice=False, square_retry=False)
    off = read_shaker(frame, settings=plain)
    assert not off.valid and (off.reason or "").startswith("a cube is out of line")
    on = read_shaker(frame, settings=dataclasses.replace(DEFAULT_SETTINGS, relattice_out_of_line=True))
    assert on.valid, on.reason
    assert [list(row) for row in on.pattern] == truth["pattern"]
    assert on.debug["relattice"]["refused"].startswith("a cube is out of line")
