"""Complete patterns refused as "8 cubes in the grid": verify_cells' own face look.

A real cube whose colour the table in some shadow explains (a gray cube on a light table, a black one on a dark
table) is a cube only by its top face's four crisp edges (vision.shaker.face_edges). verify_cells asks with its
own thresholds (cell_face_min_snr, cell_face_min_sharpness), also a cell of its gaps' colour
(cell_face_table_like), a colour farther from the palette only with a clearer face (cell_face_far_snr), and one
of the table's common tones with a clearer, crisper face (cell_face_toned_snr, cell_face_toned_sharpness).
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from vision.shaker import DEFAULT_SETTINGS, read_shaker
from vision.shaker_scene import render_scene_set

# the face look as it was before these settings (best_window's thresholds, no cell of its gaps' colour asked)
_OLD = replace(
    DEFAULT_SETTINGS,
    cell_face_min_snr=DEFAULT_SETTINGS.face_min_snr,
    cell_face_min_sharpness=DEFAULT_SETTINGS.face_min_sharpness,
    cell_face_far_delta_e=DEFAULT_SETTINGS.face_max_delta_e,
    cell_face_table_like=False,
    cell_face_toned_snr=float("inf"),
    cell_face_three_snr=float("inf"),  # (and no three-sided face look: tests/vision/test_shaker_bent.py)
    faint_bevel=False,  # (and no faint cube read by its edges and bevel: it reads s5252 0010's gray cube too)
)


@pytest.mark.parametrize(("seed", "index"), [(5252, 10), (6464, 9)])
def test_a_cube_whose_face_shows_a_little_softer_is_read(seed, index):
    """Generated sets s5252 0010 (a gray cube on gingham, face sharpness 0.51) and s6464 0009 (a gray cube,
    sharpness 0.549, just under the old threshold): refused as "8 cubes in the grid" with the old thresholds."""
    frame_bgr, truth = render_scene_set(random.Random(seed), index + 1)[index]
    assert truth["valid"]
    old = read_shaker(frame_bgr, settings=_OLD)
    assert not old.valid and old.reason == "8 cubes in the grid"
    looser = replace(_OLD, cell_face_min_sharpness=DEFAULT_SETTINGS.cell_face_min_sharpness)
    assert read_shaker(frame_bgr, settings=looser).valid  # (this setting alone reads it)
    reading = read_shaker(frame_bgr)
    assert reading.valid and reading.pattern == truth["pattern"]
    faces = [t for t in reading.debug["cell_tests"] if t.get("face")]
    assert len(faces) == 1 and faces[0]["face_sharpness"] >= DEFAULT_SETTINGS.cell_face_min_sharpness


def test_a_black_cube_on_a_dark_table_like_its_gaps_is_read():
    """Generated set s7575 0109: a black cube on a plain dark table, its colour the table's (1.7 dE) and its gaps'
    (1.3 dE), shared by 99 % of the table's points around the grid; its face shows clearly (snr 5.5) and crisply
    (sharpness 0.92). Refused as "8 cubes in the grid" without either setting."""
    frame_bgr, truth = render_scene_set(random.Random(7575), 110)[109]
    assert truth["valid"] and truth["scene"]["table"] == "plain_dark"
    for old in (
        replace(DEFAULT_SETTINGS, cell_face_table_like=False),
        replace(DEFAULT_SETTINGS, cell_face_toned_snr=float("inf")),
        _OLD,
    ):
        # (faint_cubes and solid_cubes, off: each reads this black cube without the face look too, right)
        reading = read_shaker(frame_bgr, settings=replace(old, faint_cubes=False, solid_cubes=False))
        assert not reading.valid and reading.reason == "8 cubes in the grid"
    reading = read_shaker(frame_bgr)
    assert reading.valid and reading.pattern == truth["pattern"]
    faces = [t for t in reading.debug["cell_tests"] if t.get("face")]
    assert len(faces) == 1 and reading.pattern[faces[0]["row"]][faces[0]["col"]] == "black"
    assert faces[0]["face_tone"] >= DEFAULT_SETTINGS.face_max_tone


def test_no_incomplete_pattern_is_accepted_by_the_looser_face_look(shaker_scene_set):
    """The seeded set's incomplete patterns (a cell empty, often in its neighbours' shadow, or a cube knocked
    out) that the reader with the old face look refuses, it still refuses."""
    for frame_bgr, truth in shaker_scene_set:
        if truth["valid"]:
            continue
        if not read_shaker(frame_bgr, settings=_OLD).valid:
            assert not read_shaker(frame_bgr).valid, truth
