"""A lattice made at the cubes' own pitch (``made_lattice``): where the fit chose a lattice at another pitch (a
gingham's checks, the cubes' shadows, a lattice over two cubes a cell) and neither the retry without its size nor the
re-lattice near it read the pattern, lattices fitted afresh to a size's candidates pooled with its neighbour sizes',
at a cube's pitch for that size, are read; the first read whole wins."""

from __future__ import annotations

import dataclasses

import numpy as np

from vision.shaker import DEFAULT_SETTINGS, Candidates, read_shaker
from vision.shaker_lattice import pooled_candidates

from .shaker_sets import set_scene


def test_refused_on_a_wrong_pitch_is_read_on_a_made_lattice() -> None:
    frame, truth = set_scene(41015, 28)  # a complete pattern; the fit's lattice is 1.2x the cubes' pitch
    off = read_shaker(frame, settings=dataclasses.replace(DEFAULT_SETTINGS, made_lattice=False))
    assert not off.valid
    on = read_shaker(frame, settings=DEFAULT_SETTINGS)
    assert on.valid, on.reason
    assert [list(row) for row in on.pattern] == truth["pattern"]
    assert "made_lattice" in on.debug
    # read on a finer lattice than the refused one (settled: about the cubes' pitch, 0.83 of the refused one's)
    assert on.debug["grid"].pitch < 0.9 * off.debug["grid"].pitch


def test_pooled_candidates_keep_one_point_per_shape() -> None:
    def cands(xy: list[tuple[float, float]], radius: float, contrast: list[float]) -> Candidates:
        return Candidates(np.array(xy, float), np.full(len(xy), radius), np.array(contrast), 1.0)

    sizes = [
        cands([(10.0, 10.0), (50.0, 10.0)], 4.0, [1.0, 3.0]),
        cands([(11.0, 10.0), (90.0, 10.0)], 6.0, [2.0, 1.0]),
        cands([(50.5, 10.0)], 8.0, [1.5]),
        cands([(200.0, 200.0)], 10.0, [9.0]),  # not a neighbour of size 1: left out
    ]
    pool = pooled_candidates(sizes, 1, 0.35)
    # (10, 10) and (11, 10) are one shape (1 px apart, under 0.35 x 6): the stronger kept; likewise (50, 10)
    assert sorted(map(tuple, pool.xy.tolist())) == [(11.0, 10.0), (50.0, 10.0), (90.0, 10.0)]
    assert np.all(pool.radius == 6.0)
