"""A line of cubes beyond the grid found by its top faces, off the lattice's points (``beyond_face_offset``,
:func:`faces_beyond`, ``beyond_face_gain``).

On a gingham seen from a tilted camera the lattice can be fitted a column beside the cubes: its far column on a
dark check and the cubes' lit sides, read as black and gray cubes, the pattern's first column left outside. That
column lies a third of a pitch off the lattice's points, two of its cubes with no candidate, so best_window's look
sees no full line there and the line-beyond checks never ask. Found by the cubes' faces, the line is there, and
the grid's far line is much farther from the palette than it: the lattice is doubted, and the frame read again."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision.colour import default_palette
from vision.shaker import DEFAULT_SETTINGS, best_window, faces_beyond, read_shaker, table_difference
from vision.shaker_checks import full_lines_beyond

from .shaker_sets import set_scene, spied

OFF = replace(DEFAULT_SETTINGS, beyond_face_offset=0.0)
LEFT = (0, -1)  # (the move onto the line beyond the grid's left side)


def _wrong_lattice() -> tuple[np.ndarray, dict, object]:
    """s65001 0041 (gingham, 5564 K, camera tilted 10.8 degrees) and its reading without the look."""
    frame_bgr, truth = set_scene(65001, 41)
    return frame_bgr, truth, read_shaker(frame_bgr, settings=OFF)


def test_a_lattice_a_column_off_its_cubes_faces_is_read_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the look the pattern is accepted a column off: each row's first two colours read are the truth's
    last two. With it a full line beyond the left side is found by its faces alone, and the pattern is read right."""
    frame_bgr, truth, before = _wrong_lattice()
    assert truth["valid"] and truth["scene"]["table"] == "gingham"
    assert before.valid and before.pattern != truth["pattern"]
    assert all(before.pattern[r][:2] == truth["pattern"][r][1:] for r in range(3))
    answers = spied(monkeypatch, "faces_beyond")
    reading = read_shaker(frame_bgr)
    assert any(LEFT in [m for m, _, _ in full_lines_beyond(a)] for a in answers)
    assert reading.valid and reading.pattern == truth["pattern"]


def test_faces_beyond_fills_the_line_the_lattice_points_miss() -> None:
    """On 0041's wrong lattice best_window's look sees the left side's top point only; faces_beyond fills that
    side from the red and black cubes' faces (a quarter of a pitch off their points) and no other side. Asking the
    faces to lie nearer their points, or to be wider, or turning the look off, or not asking beyond that side, leaves
    it as it was."""
    frame_bgr, _, wrong = _wrong_lattice()
    grid, cands = wrong.debug["grid"], wrong.debug["candidates"]
    s = DEFAULT_SETTINGS
    _, scale, lab, table_lab8 = table_difference(frame_bgr, s)
    lab_sum = cv2.integral(lab, sdepth=cv2.CV_32S)
    look: dict = {}
    best_window(frame_bgr, grid, cands, table_lab8, scale, default_palette(), s, lab_sum=lab_sum, out=look)
    cube = look["cube"]
    assert cube[1, 0] and not cube[2, 0] and not cube[3, 0]
    assert LEFT not in [m for m, _, _ in full_lines_beyond(cube)]
    filled = faces_beyond(frame_bgr, grid, cube, lab, scale, s)
    assert filled[1:4, 0].all()
    changed = np.argwhere(filled != cube).tolist()
    assert changed == [[2, 0], [3, 0]]
    for tighter in (replace(s, beyond_face_offset=0.15), replace(s, beyond_face_min_extent=1.0), OFF):
        assert (faces_beyond(frame_bgr, grid, cube, lab, scale, tighter) == cube).all()
    # ``ask`` is given the grid's line opposite each side: the left side is looked beyond only when it says so
    right_column = [(0, 2), (1, 2), (2, 2)]
    assert (faces_beyond(frame_bgr, grid, cube, lab, scale, s, lambda far: far != right_column) == cube).all()
    assert (faces_beyond(frame_bgr, grid, cube, lab, scale, s, lambda far: far == right_column) == filled).all()
