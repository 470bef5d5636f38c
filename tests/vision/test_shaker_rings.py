"""The cells' rings (verify_cells' outlines against the lattice's typical cell's) stay in a cube's units.

Where fewer than three of a lattice's cells show an outline, the typical (seventh smallest) outline is 0 or below;
the rings were divided by 1e-6 there and came out at +-1e6, which the ring thresholds read as the crispest outline
or none. ``ring_floor`` (find_cubes' response_min) is the least they are taken against."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from vision.grid_scene import grid_scene, sticker_palette
from vision.shaker import DEFAULT_SETTINGS, outline_rings, read_shaker


def test_rings_are_taken_against_the_typical_cells_outline():
    outline = np.array([9.0, 12.0, 15.0, 10.0, -2.0, 11.0, 14.0, 8.0, 13.0])
    rings = outline_rings(outline, DEFAULT_SETTINGS.ring_floor)
    assert np.allclose(rings, outline / 13.0)  # (the seventh smallest of the nine)
    assert rings[2] > 1.0 > rings[0] and rings[4] < 0.0


def test_rings_of_a_lattice_with_no_typical_outline_keep_a_cubes_units():
    outline = np.array([3.3, -8.9, -19.9, -48.8, -11.9, -35.0, -60.7, -39.8, -42.5])  # one cell outlined at most
    rings = outline_rings(outline, DEFAULT_SETTINGS.ring_floor)
    assert np.allclose(rings, outline / DEFAULT_SETTINGS.ring_floor)
    assert np.array_equal(np.sign(rings), np.sign(outline))
    assert np.abs(rings).max() < 20.0
    assert np.abs(outline_rings(outline, 1e-6)).max() > 1e6  # (the divisor before)


def test_a_glossy_grid_read_with_its_rings_in_range():
    # make-grid-set --kind glossy --seed 116, frame 14: a lattice squashed across the stickers (the sticker set's one
    # misread, read the same either way); its chosen lattice's typical outline is below 0, the rings were 546030 and
    # -1.5e6. Every reading of the game's and the sticker sets' 15380 frames measured is the same with the floor.
    # (Since relattice_glare_check the frame is read right by the read without highlights; the lattice is the
    # re-lattice's reading, read with that check off.)
    rng = np.random.default_rng(116)
    for _ in range(14):
        grid_scene("glossy", rng)
    frame_bgr, _ = grid_scene("glossy", rng)
    palette = sticker_palette()
    moved = replace(DEFAULT_SETTINGS, relattice_glare_check=False)
    reading = read_shaker(frame_bgr, palette, settings=moved)
    before = read_shaker(frame_bgr, palette, settings=replace(moved, ring_floor=1e-6))
    assert reading.pattern == before.pattern and reading.reason == before.reason
    rings = [float(t["ring"]) for t in reading.debug["cell_tests"]]
    assert max(abs(r) for r in rings) < 20.0, rings
    assert max(abs(float(t["ring"])) for t in before.debug["cell_tests"]) > 1e4
