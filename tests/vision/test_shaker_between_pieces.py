"""vision.shaker.between_pieces: cubes with no face of their colour at their cells refuse a lattice."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from vision.shaker import DEFAULT_SETTINGS, Grid, between_pieces


def _lattice(columns_over_rows: float) -> Grid:
    """A 3 x 3 lattice, 60 px between rows, its columns' step ``columns_over_rows`` of that, turned 10 degrees."""
    a = math.radians(10.0)
    col = 60.0 * columns_over_rows * np.array([math.cos(a), math.sin(a)])
    row = 60.0 * np.array([-math.sin(a), math.cos(a)])
    return Grid(np.array([200.0, 150.0]) - col - row, col, row, ((-1, -1, -1),) * 3, 9, 0)


def _extents(faceless: int) -> list[float]:
    """Nine cubes' top faces (pitches): ``faceless`` of them none found (0.0) or a speck (0.05), the rest 0.8."""
    return [0.05 if i % 2 else 0.0 for i in range(faceless)] + [0.8] * (9 - faceless)


def test_four_cubes_with_no_face_refuse_any_lattice_fewer_do_not() -> None:
    settings = DEFAULT_SETTINGS
    for ratio in (1.0, 0.9):
        assert between_pieces(_lattice(ratio), _extents(settings.faceless_cubes)) == settings.faceless_cubes
        assert between_pieces(_lattice(ratio), _extents(9)) == 9
        assert between_pieces(_lattice(ratio), _extents(settings.faceless_cubes - 1)) == 0
    # a face a little wider than faceless_extent is a face
    widths = [settings.faceless_extent + 0.01] * settings.faceless_cubes + [0.8] * (9 - settings.faceless_cubes)
    assert between_pieces(_lattice(1.0), widths) == 0


def test_two_cubes_with_no_face_refuse_a_squashed_lattice_only() -> None:
    settings = DEFAULT_SETTINGS
    two = _extents(settings.faceless_squashed_cubes)
    past = math.exp(-settings.faceless_squash) * 0.95  # columns a little shorter than the squash allows
    within = math.exp(-settings.faceless_squash) * 1.05
    assert between_pieces(_lattice(past), two) == settings.faceless_squashed_cubes
    assert between_pieces(_lattice(1 / past), two) == settings.faceless_squashed_cubes  # squashed the other way
    assert between_pieces(_lattice(within), two) == 0
    assert between_pieces(_lattice(1.0), two) == 0
    assert between_pieces(_lattice(past), _extents(settings.faceless_squashed_cubes - 1)) == 0


def test_the_checks_are_off_at_ten() -> None:
    off = replace(DEFAULT_SETTINGS, faceless_cubes=10, faceless_squashed_cubes=10)
    assert between_pieces(_lattice(0.5), _extents(9), off) == 0
