"""A made lattice's cubes of the table's colour on a plain table (``made_plain_table_cells``), and a made lattice
elsewhere in the frame than the refused one (``made_elsewhere_gap``).

A refused reading read again on a lattice made at about the refused pitch was dropped when more than
``made_same_pitch_table_cells`` (1) of its cubes were of the table's colour: a limit chosen on a gingham, whose checks
in empty cells read as gray cubes. On a plain table (the frame's edges do not lift the finder's threshold) black cubes
on a dark table and gray ones on a light table are common, and the made lattice reads such patterns right. A made
lattice at about the refused pitch is kept only as a re-lattice move is (no plainly seen cube of the refused reading
left behind); one far from the refused lattice re-reads none of its cubes and is read as any made lattice."""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace

import cv2
import numpy as np

from vision.shaker import (
    DEFAULT_SETTINGS,
    Grid,
    ShakerReading,
    made_elsewhere,
    made_table_cells,
    read_shaker,
    table_is_plain,
)

from .shaker_sets import set_scene

_FRAMES = {41014: 333}  # (the frames of seed 41014 the tests below read, made once)


def _work_with_edges(strength: float) -> SimpleNamespace:
    """A frame's work whose edge map is ``strength`` everywhere (only its integral is asked)."""
    return SimpleNamespace(g_sum=cv2.integral(np.full((60, 80), strength, np.float32)))


def test_a_plain_table_allows_cubes_of_its_colour_at_the_refused_pitch() -> None:
    plain, busy = _work_with_edges(1.0), _work_with_edges(8.0)  # (busy: 1.2 x 8 lifts the threshold above 6)
    assert table_is_plain(plain) and not table_is_plain(busy)
    assert made_table_cells(plain, True) == DEFAULT_SETTINGS.made_plain_table_cells == 3
    assert made_table_cells(busy, True) == DEFAULT_SETTINGS.made_same_pitch_table_cells == 1
    # (at another pitch than the refused one: made_max_table_cells, whatever the table)
    assert made_table_cells(plain, False) == made_table_cells(busy, False) == DEFAULT_SETTINGS.made_max_table_cells
    off = dataclasses.replace(DEFAULT_SETTINGS, made_plain_table_cells=0)
    assert made_table_cells(plain, True, off) == DEFAULT_SETTINGS.made_same_pitch_table_cells


def _refused_off_read_on(frame_no: int, **off: float) -> ShakerReading:
    """Seed 41014's frame ``frame_no``: refused with the setting ``off``, read right on a made lattice with it on."""
    frame, truth = set_scene(41014, frame_no, _FRAMES)
    # (no square-steps read: it reads these frames right too)
    before = read_shaker(frame, settings=dataclasses.replace(DEFAULT_SETTINGS, square_retry=False, **off))
    assert not before.valid
    after = read_shaker(frame)
    assert after.valid, after.reason
    assert [list(row) for row in after.pattern] == truth["pattern"]
    assert "made_lattice" in after.debug
    return after


def test_black_cubes_on_a_dark_table_read_on_a_made_lattice() -> None:
    # s41014 0096: a complete pattern on a plain dark table, three black cubes; the first lattice lay a cell off
    # ("a cube is out of line"), a made lattice at about its pitch reads the pattern with its black cubes
    after = _refused_off_read_on(96, made_plain_table_cells=0)
    limit = DEFAULT_SETTINGS.made_table_d
    table_coloured = [t for t in after.debug["cell_tests"] if t["cube"] and t["d_table"] < limit]
    assert 1 < len(table_coloured) <= DEFAULT_SETTINGS.made_plain_table_cells


def _grid(x: float, y: float, pitch: float) -> Grid:
    return Grid(np.array([x, y]), np.array([pitch, 0.0]), np.array([0.0, pitch]), ((-1,) * 3,) * 3, 0, 0)


def test_a_made_lattice_elsewhere_is_no_re_lattice_move() -> None:
    refused = _grid(100.0, 100.0, 40.0)
    assert not made_elsewhere(refused, _grid(120.0, 100.0, 40.0))  # (half a pitch over: a re-lattice move)
    assert not made_elsewhere(refused, _grid(100.0, 220.0, 40.0))  # (its first row next to the refused last one)
    assert made_elsewhere(refused, _grid(100.0, 260.0, 40.0))  # (two pitches clear of it)
    off = dataclasses.replace(DEFAULT_SETTINGS, made_elsewhere_gap=0.0)
    assert not made_elsewhere(refused, _grid(900.0, 700.0, 40.0), off)


def test_a_pattern_far_from_the_refused_lattice_is_read() -> None:
    # s41014 0332: a complete pattern on a gingham; the first lattice lay on a box and stray cubes 10-12 pitches
    # away ("5 cubes in the grid"), and the made lattice on the pattern left those behind
    _refused_off_read_on(332, made_elsewhere_gap=0.0)
