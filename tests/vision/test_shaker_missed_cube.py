"""A cube the cell test missed, read by its cast shadow (vision.shaker_cube_look, ``solid_cubes``).

A gray cube on a light table fails the cell test and the last looks as the table itself does; yet it stands on the
table and, under the one lamp, throws a shadow the way the frame's verified cubes do. An empty cell throws none.

s41028 0022 (complete, a gray cube at (2, 2) on a plain light table) was refused "8 cubes in the grid" and is read
right; s41028 0059 (incomplete, its cell (2, 1) empty, the same kind of table) is asked the same and stays refused:
the table where a cube there would throw its shadow is lit.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from vision.shaker import DEFAULT_SETTINGS, read_shaker
from vision.shaker_cube_look import _swept_square

from .shaker_sets import set_scene

_ON = replace(DEFAULT_SETTINGS, solid_cubes=True)
_OFF = replace(DEFAULT_SETTINGS, solid_cubes=False)
_FRAMES = {41028: 60}


def _refused_cells(reading) -> list[tuple[int, int]]:
    return [(t["row"], t["col"]) for t in reading.debug["cell_tests"] if not t["cube"]]


def test_a_missed_cube_is_read_by_its_shadow():
    """s41028 0022: off, the gray cube at (2, 2) is refused with the other eight read; on, the table where only its
    shadow falls is about as dark as the cubes' shadows (relative darkness near 1) and the pattern is read right."""
    frame_bgr, truth = set_scene(41028, 22, _FRAMES)
    assert truth["valid"] and truth["scene"]["table"] == "plain_light" and truth["cells"][2][2] == "gray"
    without = read_shaker(frame_bgr, settings=_OFF)
    assert not without.valid and without.reason == "8 cubes in the grid"
    assert _refused_cells(without) == [(2, 2)]
    reading = read_shaker(frame_bgr, settings=_ON)
    assert reading.valid and reading.pattern == truth["pattern"]
    test = reading.debug["cell_tests"][8]
    assert test.get("solid_cube")
    dark, rel, noise = test["solid"][:3]
    assert dark >= _ON.solid_min_dark and _ON.solid_rel[0] <= rel <= _ON.solid_rel[1] and noise <= _ON.solid_max_noise


def test_an_empty_cell_casts_no_shadow():
    """s41028 0059, an incomplete pattern on a light table: its empty cell (2, 1) is asked and shows no shadow of
    its own (darkness about 0): refused "8 cubes in the grid", on as off."""
    frame_bgr, truth = set_scene(41028, 59, _FRAMES)
    assert not truth["valid"] and truth["cells"][2][1] is None and truth["scene"]["table"] == "plain_light"
    for settings in (_OFF, _ON):
        reading = read_shaker(frame_bgr, settings=settings)
        assert not reading.valid and reading.reason == "8 cubes in the grid"
        assert _refused_cells(reading) == [(2, 1)]
    test = read_shaker(frame_bgr, settings=_ON).debug["cell_tests"][7]
    assert "solid" in test and not test.get("solid_cube")
    assert test["solid"][0] < _ON.solid_min_dark


def test_a_swept_square_is_the_face_and_its_shadow():
    """_swept_square: the square at the centre, the square at the offset and the band between, nothing beside."""
    axis = np.arange(-1.0, 1.5001, 0.05)
    a, b = np.meshgrid(axis, axis)
    mask = _swept_square(a, b, (0.8, 0.0), 0.3)

    def at(x: float, y: float) -> bool:
        return bool(mask[int(round((y + 1.0) / 0.05)), int(round((x + 1.0) / 0.05))])

    assert at(0.0, 0.0) and at(0.8, 0.0) and at(0.4, 0.25) and at(1.05, -0.25)
    assert not at(-0.4, 0.0) and not at(0.4, 0.4) and not at(1.2, 0.0)
