"""Incomplete patterns the shaker reader accepted (a pattern reported when the players must reshake), now refused.

Frames are generated (vision.shaker_scene); each test also shows the frame accepted with the check's setting at
its old value (off), so the refusal is the change's."""

import random
from dataclasses import replace

import numpy as np

from vision.shaker import DEFAULT_SETTINGS, read_shaker
from vision.shaker_checks import faceless_toned_cells
from vision.shaker_scene import render_scene_set

from .shaker_old_finder import OLD_FINDER

OFF = replace(DEFAULT_SETTINGS, faceless_share=2.0)


def test_faceless_toned_cells_needs_a_table_tone_and_no_face():
    class _Grid:
        origin = np.array([100.0, 100.0])
        col_step = np.array([20.0, 0.0])
        row_step = np.array([0.0, 20.0])
        pitch = 20.0

        def centre(self, r: int, c: int) -> np.ndarray:
            return self.origin + c * self.col_step + r * self.row_step

    lab = np.zeros((160, 160, 3), np.uint8)
    lab[...] = (200, 128, 128)  # a light table all round
    lab[95:105, 95:105] = (60, 128, 128)  # one dark cube at (0, 0); every other cell the table's colour
    tests = [{"row": r, "col": c, "cube": True} for r in range(3) for c in range(3)]
    no_face = lambda xy: np.zeros(len(xy))  # noqa: E731
    faces = lambda xy: np.full(len(xy), 5.0)  # noqa: E731
    toned = faceless_toned_cells(tests, _Grid(), lab, 1.0, no_face, DEFAULT_SETTINGS)
    assert (0, 0) not in toned and len(toned) == 8  # (the dark cell's colour is no table tone)
    assert faceless_toned_cells(tests, _Grid(), lab, 1.0, faces, DEFAULT_SETTINGS) == []  # faces show: cubes
    assert faceless_toned_cells(tests, _Grid(), lab, 1.0, no_face, OFF) == []


def test_a_checked_cloths_squares_in_empty_or_knocked_out_cells_are_refused():
    # generated set s7676: 0022 a cube knocked out of cell (0, 1) on a gingham, 0069 cell (2, 1) left empty;
    # the cell's check, outlined by its own edges, was read as a cube (tone shares 0.11 and 0.2 of the table's
    # points around the grid; face_edges' snr 0.16 and 0.03: no face's four edges at the lattice's angle).
    scenes = render_scene_set(random.Random(7676), 70)
    for i in (22, 69):
        frame_bgr, truth = scenes[i]
        assert not truth["valid"]
        assert not read_shaker(frame_bgr).valid
        # (the frames were chosen at the old finder's threshold)
        assert read_shaker(
            frame_bgr, settings=replace(OLD_FINDER, faceless_share=2.0, repeat_cells=False)
        ).valid  # the checks off
        reading = read_shaker(frame_bgr, settings=OLD_FINDER)
        assert not reading.valid
        assert reading.reason == "8 cubes in the grid"
