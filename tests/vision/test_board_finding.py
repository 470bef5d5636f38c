"""Finding the board on tables whose grain or stripes break its outline (issue 4: a board is never refused
when it is in the photo).

Never reads ``../shared``: every print, calibration pair and photo is generated from a seed here, as
``shakecity make-board-set`` makes them (1600 x 1200 JPEGs).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from vision import board_reader as br
from vision.board_reader import read_board

from .board_sets import set_photo


@pytest.mark.parametrize(("seed", "side", "i"), [(904, "waterfront", 15), (1104, "waterfront", 12)])
def test_a_board_on_a_striped_wood_is_found_where_it_is_unlike_the_table(seed: int, side: str, i: int) -> None:
    """Two generated photos of boards on a striped wood (one half in a lamp's shadow) were refused as "no
    board found": no edge, brightness or colourfulness mask closed around the board, so it was never
    among the outline candidates. Where the photo is unlike its table (``unlike_table_mask``) it is one
    shape, and the board is found and read (fails with ``table_mask`` off)."""
    cal, frame_bgr, truth = set_photo(seed, side, i)
    off = read_board(frame_bgr, cal, replace(br.SETTINGS, table_mask=False))
    assert not off.found and "no board" in (off.reason or "")
    on = read_board(frame_bgr, cal)
    assert on.found and on.north == truth["north"]
    assert on.grid == truth["grid"]


def test_the_table_mask_covers_the_board_and_leaves_the_table() -> None:
    """On a drawn scene (a striped table, a board-sized patch of other colours), the mask is the patch."""
    rng = np.random.default_rng(5)
    h, w = 420, 560
    stripes = (np.sin(np.arange(w) / 3.0) * 25 + 120).astype(np.float32)
    table = np.stack([stripes * 0.55, stripes * 0.75, stripes], axis=-1)[None].repeat(h, 0)
    frame = table + rng.normal(0, 4, (h, w, 3)).astype(np.float32)
    frame[100:320, 150:400] = (60, 160, 60)  # a green board
    frame[150:250, 200:300] = (200, 120, 40)  # a blue tile on it
    mask = br.unlike_table_mask(np.clip(frame, 0, 255).astype(np.uint8))
    assert mask[110:310, 160:390].mean() > 250  # the board, whole
    assert mask[:80].mean() < 5 and mask[340:].mean() < 5  # the table, none of it
