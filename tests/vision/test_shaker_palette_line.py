"""The lattice a line off onto a gingham's outlined checks (``beyond_palette_gain``, :func:`nearer_the_palette`).

A gingham whose checks are about the cubes' size, each outlined by its print, can take a line of the lattice: the
checks read as cubes, the pattern's last line of real cubes left beyond the opposite side. The far line then looks
like the table and less like the pieces than the line beyond: the grid moves onto that line when it holds nine
outlined cubes there that are no repeat of the table."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from vision.shaker import DEFAULT_SETTINGS, read_shaker
from vision.shaker_checks import nearer_the_palette

from .shaker_sets import set_scene, spied

OFF = replace(DEFAULT_SETTINGS, beyond_palette_gain=0.0)


def test_a_lattice_on_a_line_of_checks_moves_onto_the_cubes_beyond(monkeypatch: pytest.MonkeyPatch) -> None:
    """s61002 0323 (gingham, checks about the cubes' size, tilted 16 degrees): without the check the lattice's first
    column sits on three checks (gray, black, gray) and the cubes' third column lies beyond; with it the grid moves
    onto that column and reads the pattern."""
    frame_bgr, truth = set_scene(61002, 323)
    assert truth["valid"] and truth["scene"]["table"] == "gingham"
    before = read_shaker(frame_bgr, settings=OFF)
    assert before.valid and before.pattern != truth["pattern"]
    assert [row[1:] for row in before.pattern] == [row[:2] for row in truth["pattern"]]  # (a column off)
    answers = spied(monkeypatch, "nearer_the_palette")
    reading = read_shaker(frame_bgr)
    assert True in answers
    assert reading.valid and reading.pattern == truth["pattern"]


def test_a_right_lattice_whose_line_beyond_is_not_outlined_stays(monkeypatch: pytest.MonkeyPatch) -> None:
    """s60001 0026 (gingham under a 2903 K lamp, no stray cubes): the grid's far line of real cubes is near the
    table and farther from the palette than the line beyond it (checks and the cubes' cast shadows), but that line
    shows no cubes' outlines: the grid stays and reads the pattern."""
    frame_bgr, truth = set_scene(60001, 26)
    assert truth["valid"] and truth["scene"]["table"] == "gingham"
    answers = spied(monkeypatch, "nearer_the_palette")
    reading = read_shaker(frame_bgr)
    assert True in answers
    assert reading.valid and reading.pattern == truth["pattern"]


def test_no_move_onto_a_line_that_repeats_the_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """s61004 0365 (an incomplete pattern on a gingham): the window moved onto the line beyond holds nine outlined
    "cubes" nearer the palette than the far line, but they are the table's checks again (repeated_line): no move,
    and the pattern is refused."""
    frame_bgr, truth = set_scene(61004, 365)
    assert not truth["valid"] and truth["scene"]["table"] == "gingham"
    palette_answers = spied(monkeypatch, "nearer_the_palette")
    repeat_answers = spied(monkeypatch, "repeated_line")
    reading = read_shaker(frame_bgr)
    assert not reading.valid and reading.pattern is None
    assert True in palette_answers and True in repeat_answers


def _line_tests(
    d_table: list[float], d_palette: list[float], line: tuple[tuple[int, int], ...]
) -> list[dict[str, Any]]:
    """Cell tests of one line's cells, with their ``d_table`` and ``d_palette``."""
    return [
        {"row": r, "col": c, "d_table": t, "d_palette": p}
        for (r, c), t, p in zip(line, d_table, d_palette, strict=True)
    ]


def test_nearer_the_palette_reads_the_medians() -> None:
    """The far line's median d_table at most beyond_palette_far_table, its median d_palette beyond_palette_gain
    above the line beyond's; off at 0."""
    far = ((0, 0), (1, 0), (2, 0))
    beyond = ((0, 2), (1, 2), (2, 2))
    tests = _line_tests
    s = DEFAULT_SETTINGS
    checks = tests([7.3, 13.1, 10.1], [6.1, 10.7, 8.8], far)  # (0323's far line)
    cubes = tests([8.0, 9.0, 30.0], [2.0, 4.0, 9.0], beyond)
    assert nearer_the_palette(checks, far, cubes, beyond, s)
    assert not nearer_the_palette(checks, far, cubes, beyond, replace(s, beyond_palette_gain=0.0))
    assert not nearer_the_palette(checks, far, cubes, beyond, replace(s, beyond_palette_gain=4.9))
    assert not nearer_the_palette(checks, far, cubes, beyond, replace(s, beyond_palette_far_table=10.0))
    far_from_table = tests([7.3, 60.0, 60.0], [6.1, 10.7, 8.8], far)  # (a real line of cubes off the palette)
    assert not nearer_the_palette(far_from_table, far, cubes, beyond, s)


def test_nearer_the_palette_takes_a_gain_of_its_own() -> None:
    """A line found by its cubes' faces (faces_beyond) is asked the same medians at beyond_face_gain: 65001 0041's far
    line 7.9 from the palette, the line beyond 3.9; met at 2.0, not at a gain over 4.0 or at 0."""
    far = ((0, 2), (1, 2), (2, 2))
    beyond = ((0, 0), (1, 0), (2, 0))
    s = DEFAULT_SETTINGS
    side_lit = _line_tests([13.0, 11.6, 9.3], [11.4, 7.9, 5.3], far)  # (0041's far line: a dark check, cubes' sides)
    cubes = _line_tests([11.0, 58.7, 10.2], [3.3, 10.3, 3.9], beyond)
    assert nearer_the_palette(side_lit, far, cubes, beyond, s, s.beyond_face_gain)
    assert not nearer_the_palette(side_lit, far, cubes, beyond, s, 4.01)
    assert not nearer_the_palette(side_lit, far, cubes, beyond, s, 0.0)
