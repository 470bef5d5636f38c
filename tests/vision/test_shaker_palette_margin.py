"""A palette's own tie margin (``"min_confidence"`` in its JSON, :attr:`vision.colour.Palette.min_confidence`).

The game's six colours lie far apart, so its palette asks that a cube's nearest colour be about twice as near as the
runner-up (0.667), where the reader's default allows 1.5 times (0.6). Measured frame by frame, the wider margin
refused 4 incomplete patterns more on the game's sets (an empty or knocked-out cell read as a gray or green cube at
0.62-0.67) and no complete one; a sticker palette (orange beside red) would lose frames read right, so a palette
that does not ask keeps 0.6.

Set 43104 (``shakecity make-shaker-set D --seed 43104``), frame 0328: a gingham, the gray cube at row 2, column 3
knocked out of line; the checks in its empty cell, in the cubes' shadow, are read as gray at 0.665."""

from __future__ import annotations

import json

import numpy as np
import pytest

from vision.colour import calibrate_palette, default_palette, palette_from_json
from vision.errors import PaletteError
from vision.shaker import DEFAULT_SETTINGS, CubeReading, check_grid, read_shaker

from .shaker_sets import set_scene, without_margin


def test_the_games_palette_asks_for_a_wider_margin_and_keeps_it() -> None:
    game = default_palette()
    assert game.min_confidence == 0.667 > DEFAULT_SETTINGS.min_confidence
    assert palette_from_json(json.loads(json.dumps(game.to_json()))).min_confidence == 0.667  # saved and loaded
    seen = [list(r[0]) for r in game.references[:2]]
    assert calibrate_palette(seen, game.names[:2], game).min_confidence == 0.667  # a calibrated palette keeps it
    assert without_margin(game).min_confidence is None  # a palette that does not ask: the reader's own


@pytest.mark.parametrize("bad", [0.4, 1.0, "0.7", True])
def test_a_palettes_margin_out_of_range_is_one_clear_error(bad: object) -> None:
    raw = default_palette().to_json() | {"min_confidence": bad}
    with pytest.raises(PaletteError, match="min_confidence must be a number from 0.5 to under 1"):
        palette_from_json(raw)


def test_a_cube_under_the_palettes_margin_is_unclear() -> None:
    cubes = [CubeReading(i // 3, i % 3, "red", 0.9, (0.0, 0.0)) for i in range(9)]
    cubes[5] = CubeReading(1, 2, "gray", 0.63, (0.0, 0.0))
    assert check_grid(cubes) is None
    assert check_grid(cubes, min_confidence=0.667) == "the colour of the cube at row 2, column 3 is unclear"
    # a palette can only ask for more than the settings: never less
    assert check_grid(cubes, min_confidence=0.55) is None
    cubes[5] = CubeReading(1, 2, "gray", 0.58, (0.0, 0.0))
    assert check_grid(cubes, min_confidence=0.55) is not None


def test_an_empty_cells_check_read_near_a_tie_is_refused() -> None:
    frame_bgr, truth = set_scene(43104, 328)
    assert not truth["valid"] and truth["knocked_out"] == [1, 2]
    game = default_palette()
    loose = read_shaker(frame_bgr, without_margin(game))
    assert loose.valid  # the incomplete pattern accepted at the reader's own margin
    low = float(np.min(loose.confidence))
    assert DEFAULT_SETTINGS.min_confidence <= low < game.min_confidence
    reading = read_shaker(frame_bgr, game)
    assert not reading.valid and reading.reason == "the colour of the cube at row 2, column 3 is unclear"
