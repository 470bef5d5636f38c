"""The stray check's doubt gate (``stray_doubt_ring``, ``stray_doubt_offset``, ``stray_doubt_reach``): a cube-like
shape beside the grid refuses the pattern as a cube out of line only near a cell in doubt.

A cube knocked out of the grid leaves its cell empty. The pattern then reads as nine cubes only when that empty
cell is taken for one (the table, with no outline of its own) or the lattice sits off its cubes: a cell in doubt
beside the cube outside. Beside nine solid cubes (each outlined, its top face on its cell's centre) a shape out of
line is another cube on the table, its shadow or side, or a check of the cloth: the pattern is complete.
"""

from __future__ import annotations

import math
import random
from dataclasses import replace

import pytest

from vision.shaker import DEFAULT_SETTINGS, read_shaker
from vision.shaker_scene import render_scene_set

from .shaker_sets import set_scene

_BEFORE = replace(DEFAULT_SETTINGS, stray_doubt_ring=math.inf)


def _cells_beside(reading, point: tuple[float, float]) -> list[dict]:
    """The reading's cell tests within ``stray_doubt_reach`` pitches of ``point``."""
    grid = reading.debug["grid"]
    reach = DEFAULT_SETTINGS.stray_doubt_reach * grid.pitch
    return [t for t in reading.debug["cell_tests"] if math.dist(grid.centre(t["row"], t["col"]), point) <= reach]


def _in_doubt(t: dict) -> bool:
    ring = float(t["ring"]) if t["outline"] else -math.inf
    return (
        not t["cube"]
        or float(t["offset"]) >= DEFAULT_SETTINGS.stray_doubt_offset
        or ring < DEFAULT_SETTINGS.stray_doubt_ring
        or float(t["d_palette"]) >= DEFAULT_SETTINGS.stray_doubt_palette
    )


@pytest.mark.parametrize(
    "seed, index",
    [
        (41023, 77),  # printed table: the gray cast shadow of a red cube lying off the grid's corner
        (41024, 11),  # printed table: a blue cube's shadow off the corner, beside a gray cube of ring 0.54
    ],
)
def test_a_shape_beside_nine_solid_cubes_is_no_cube_out_of_line(seed, index):
    frame_bgr, truth = set_scene(seed, index)
    assert truth["valid"]
    before = read_shaker(frame_bgr, settings=_BEFORE)
    assert not before.valid and before.reason == "a cube is out of line"
    (stray,) = before.debug["strays"]
    beside = _cells_beside(before, stray)
    assert beside and not any(_in_doubt(t) for t in beside)
    reading = read_shaker(frame_bgr)
    assert reading.valid and reading.pattern == truth["pattern"]


def test_a_knocked_out_cube_beside_a_cell_in_doubt_is_out_of_line():
    """s41028 0058: on a light table the top right cube is knocked out 1.5 pitches off its cell, which is read as
    a white cube of about the table's colour with a weak outline (ring 0.43): in doubt, so the cube outside counts.
    Were no cell ever in doubt, the incomplete pattern would be read."""
    frame_bgr, truth = set_scene(41028, 58)
    assert not truth["valid"] and list(truth["knocked_out"]) == [0, 2]
    reading = read_shaker(frame_bgr)
    assert not reading.valid and reading.reason == "a cube is out of line"
    (stray,) = reading.debug["strays"]
    doubted = [(t["row"], t["col"]) for t in _cells_beside(reading, stray) if _in_doubt(t)]
    assert doubted == [(0, 2)]
    trusting = replace(
        DEFAULT_SETTINGS, stray_doubt_ring=-math.inf, stray_doubt_offset=math.inf, stray_doubt_palette=math.inf
    )
    assert read_shaker(frame_bgr, settings=trusting).valid


def test_a_knocked_out_cube_beside_a_cell_far_from_the_palette_is_out_of_line():
    """Incomplete-only set i88202 (render_scene_set at incomplete_share 1.0), frame 117: on a printed table the top
    right cube is knocked out; the print in its cell is outlined and centred, read as a gray cube 12.4 from every
    palette colour: in doubt for that, so the cube outside counts."""
    frame_bgr, truth = render_scene_set(random.Random(88202), 118, incomplete_share=1.0)[117]
    assert not truth["valid"] and list(truth["knocked_out"]) == [0, 2]
    reading = read_shaker(frame_bgr)
    assert not reading.valid and reading.reason == "a cube is out of line"
    (stray,) = reading.debug["strays"]
    (cell,) = [t for t in _cells_beside(reading, stray) if _in_doubt(t)]
    assert (cell["row"], cell["col"]) == (0, 2) and cell["ring"] >= DEFAULT_SETTINGS.stray_doubt_ring
    assert cell["d_palette"] >= DEFAULT_SETTINGS.stray_doubt_palette
    near_palette = replace(DEFAULT_SETTINGS, stray_doubt_palette=math.inf)
    assert read_shaker(frame_bgr, settings=near_palette).valid
