"""Complete patterns the last checks refused as the table's print or its shade (vision.shaker, vision.shaker_checks).

Each case is a generated scene read right with the setting as it is and refused with its old value.
"""

from __future__ import annotations

import math
import random
from dataclasses import replace

import numpy as np
import pytest

from vision.shaker import DEFAULT_SETTINGS, read_shaker
from vision.shaker_scene import random_pattern, render_scene_set, render_shake


def _complete(seed: int) -> tuple[np.ndarray, dict]:
    """A generated scene of a complete pattern (the search that found these seeds drew it so)."""
    rng = random.Random(seed)
    return render_shake(random_pattern(rng), rng)


@pytest.fixture(scope="module")
def set_6161() -> list[tuple[np.ndarray, dict]]:
    """Generated set s6161's first 406 frames (a few seconds): the frames below are refused by the old values."""
    return render_scene_set(random.Random(6161), 406)


def _read_right_only_with_the_setting(frame_bgr: np.ndarray, truth: dict, old: dict) -> None:
    assert truth["valid"]
    reading = read_shaker(frame_bgr)
    assert reading.valid, reading.reason
    assert reading.pattern == truth["pattern"]
    # (no square-steps read: it reads some of these frames right too)
    before = read_shaker(frame_bgr, settings=replace(DEFAULT_SETTINGS, square_retry=False, **old))
    assert not before.valid  # the old value refused it


def test_cubes_wider_than_a_cell_on_the_median_are_still_a_grid_up_to_grid_max_extent():
    # plain light table, 15.8 degrees of tilt: the faces' median extent is above 1.05 pitches (cubes touching
    # their neighbours' colour), yet the nine are separate cubes
    frame_bgr, truth = _complete(656)
    assert truth["scene"]["table"] == "plain_light"
    _read_right_only_with_the_setting(frame_bgr, truth, {"grid_max_extent": 1.05})
    assert read_shaker(frame_bgr, settings=replace(DEFAULT_SETTINGS, grid_max_extent=1.05)).reason == (
        "no pattern: no grid of separate cubes"
    )


def test_the_refit_keeps_its_own_face_limit():
    # grid_max_extent is the last check's alone: max_extent (the refit's limit on one face) is not changed by it
    assert DEFAULT_SETTINGS.max_extent == 1.05
    assert DEFAULT_SETTINGS.grid_max_extent > DEFAULT_SETTINGS.max_extent


def test_a_gray_cube_on_gingham_is_not_the_lit_table():
    # s7676 0169: a gray cube on a gingham cloth fits the table under it darkened to 0.91 within 1.3 dE, a gap
    # beside it of about its colour: table_cells' lit rule took it for the table in full light (0.85 and up)
    frame_bgr, truth = render_scene_set(random.Random(7676), 170)[169]
    assert truth["scene"]["table"] == "gingham"
    # (faint_cubes_kept, off: it keeps this gray cube too, its edges like the other eight's)
    _read_right_only_with_the_setting(frame_bgr, truth, {"table_lit_shade": 0.85, "faint_cubes_kept": False})
    shades = [t.get("shade", 0.0) for t in read_shaker(frame_bgr).debug["cell_tests"] if t["cube"]]
    assert any(0.85 <= s < DEFAULT_SETTINGS.table_lit_shade for s in shades)


def test_a_gray_cube_on_a_light_table_is_not_an_empty_cell_in_shadow(set_6161):
    # s6161 0405: a gray cube with no outline found, a cube only by the stand-out exception, is the light table
    # darkened to about a third: no cube's cast shadow is that dark
    frame_bgr, truth = set_6161[405]
    assert truth["scene"]["table"] == "plain_light"
    _read_right_only_with_the_setting(frame_bgr, truth, {"table_shadow_min_shade": 0.0})


@pytest.mark.parametrize("seed", [113, 99])
def test_empty_cells_are_still_refused(seed):
    # test_shaker_checks' empty cells (the table lit like its gaps; a cube's cast shadow) stay refused
    rng = random.Random(seed)
    pattern = random_pattern(rng)
    pattern[rng.randrange(3)][rng.randrange(3)] = None
    frame_bgr, truth = render_shake(pattern, rng)
    assert not truth["valid"]
    assert not read_shaker(frame_bgr).valid


def test_a_gray_cube_on_gingham_running_into_its_gap_is_not_the_print():
    # s2929 0074: an outlined gray cube whose colour runs 1.18 pitches into a gap of its colour (the
    # second rule of table_patch) is no tone of the cloth's around the grid: a cube, not a check
    frame_bgr, truth = render_scene_set(random.Random(2929), 75)[74]
    assert truth["scene"]["table"] == "gingham"
    # (faint_bevel_kept_looks off too: its colour, edges and bevel keep the cube table_patch removes)
    _read_right_only_with_the_setting(frame_bgr, truth, {"patch_gap_tone": False, "faint_bevel_kept_looks": False})


def test_a_check_beyond_the_grid_is_no_cube_out_of_line_beside_outlined_cubes_of_its_tone():
    # s6464 0431: gingham, 18 degrees of tilt; a white check beyond the grid's corner was counted a cube out of
    # line because the grid's (well outlined) white and gray cubes share the cloth's tones
    frame_bgr, truth = render_scene_set(random.Random(6464), 432)[431]
    assert truth["scene"]["table"] == "gingham"
    # (stray_doubt_ring inf too: beside the corner's outlined cube the check is no cube out of line by that gate either)
    old = {"stray_tone_weak_ring": math.inf, "stray_doubt_ring": math.inf}
    _read_right_only_with_the_setting(frame_bgr, truth, old)
    before = read_shaker(frame_bgr, settings=replace(DEFAULT_SETTINGS, square_retry=False, **old))
    assert before.reason == "a cube is out of line"


def test_an_empty_cell_with_no_outline_still_vouches_for_a_knocked_cube_of_its_tone():
    # incomplete-only set i7171 (render_scene_set at incomplete_share 1.0), frame 462: on a light table the
    # knocked-out cube's cell, read as a gray cube of the table's tone, has no outline found (ring 0.3): it may
    # be the table, so the shape of that tone beyond the grid is still counted a cube out of line
    frame_bgr, truth = render_scene_set(random.Random(7171), 463, incomplete_share=1.0)[462]
    assert not truth["valid"] and truth["knocked_out"] is not None
    reading = read_shaker(frame_bgr)
    assert not reading.valid
    assert reading.reason == "a cube is out of line"


def test_weakly_outlined_cells_like_their_gaps_stay_the_print_whatever_their_tone():
    # incomplete-only set i7272, frame 250: a column of a printed table's patches (rings 0.0, like their gaps,
    # in no tone sampled around the grid) read as cubes; patch_gap_tone_ring keeps them the print
    frame_bgr, truth = render_scene_set(random.Random(7272), 251, incomplete_share=1.0)[250]
    assert not truth["valid"] and truth["scene"]["table"] == "printed"
    # (knocked_beside_table_cells refuses it too: a cube beside a patch)
    without = replace(DEFAULT_SETTINGS, patch_gap_tone_ring=-math.inf, knocked_near_table=0.0)
    assert read_shaker(frame_bgr, settings=without).valid
    assert not read_shaker(frame_bgr).valid
