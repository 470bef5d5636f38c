"""Board reader: naming tiles whose light differs from the known photo's (issue 4, boards exactly right).

Never reads ``../shared``: the print, its calibration pair and photos are generated here as
``make-board-set --seed 2201 --side inland`` draws them. Its known layout shows only crossroads; photos 011
and 023 have a curved road (an illustration the calibration never showed, so its picture matches no look
clearly) in a cast shadow, darker than the smooth fitted light undoes: read by its colour as a factory, and
in photo 023 surely enough not to be flagged.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache

import numpy as np

from vision import board_reader as br
from vision.board_reader import read_board

from .board_sets import set_calibration, set_photo

SEED, SIDE = 2201, "inland"
SHADE_OFF = replace(br.SETTINGS, shade_max=1.0)


@cache
def _photo(photo: int) -> tuple[np.ndarray, dict]:
    """Photo ``photo`` of ``make-board-set --seed SEED --side SIDE`` and its truth."""
    return set_photo(SEED, SIDE, photo)[1:]


def _wrong(reading: br.BoardReading, truth: dict) -> list[tuple[int, int, str, str, float]]:
    assert reading.found and reading.grid is not None and reading.confidence is not None
    return [
        (r, c, truth["grid"][r][c], reading.grid[r][c], reading.confidence[r][c])
        for r in range(br.SIZE)
        for c in range(br.SIZE)
        if reading.grid[r][c] != truth["grid"][r][c]
    ]


def test_a_road_in_a_cast_shadow_is_read_a_road_not_a_factory() -> None:
    """Brightened back by its common darkening (``shade_distances``), the shaded road's colour statistics are
    a road's again. Fails with ``shade_max`` 1: photo 023's road reads as a factory, unflagged."""
    cal, _ = set_calibration(SEED, SIDE)
    frame, truth = _photo(23)
    reading = read_board(frame, cal)
    assert _wrong(reading, truth) == []

    off = _wrong(read_board(frame, cal, SHADE_OFF), truth)
    assert [(r, c, t, g) for r, c, t, g, _ in off] == [(3, 4, "R", "F")]
    # the colour gate measuring it unshaded (shade_gates off) takes its picture's evidence away: a factory again
    ungated = _wrong(read_board(frame, cal, replace(br.SETTINGS, shade_gates=False)), truth)
    assert [(r, c, t, g) for r, c, t, g, _ in ungated] == [(3, 4, "R", "F")]
    # with the colour gap of before (10), and the shade retry off, it was not even flagged
    before = _wrong(read_board(frame, cal, replace(SHADE_OFF, colour_gap=10.0)), truth)
    assert [(r, c, t, g) for r, c, t, g, _ in before] == [(3, 4, "R", "F")]
    assert before[0][4] >= br.SETTINGS.low_confidence


def test_a_second_shaded_road_of_the_same_print_is_read_right() -> None:
    """Photo 011: another curved road in a shadow. Fails with ``shade_max`` 1 (read as a factory)."""
    cal, _ = set_calibration(SEED, SIDE)
    frame, truth = _photo(11)
    assert _wrong(read_board(frame, cal), truth) == []
    off = _wrong(read_board(frame, cal, SHADE_OFF), truth)
    assert [(t, g) for _, _, t, g, _ in off] == [("R", "F")]


def test_shade_distances_bring_a_darkened_tile_back_to_its_own_look() -> None:
    """The known photo's own road, darkened to half, is far from the road look by colour; compared again
    brightened back it is near it (plus the penalty for the shade), and no reading gets further."""
    cal, _ = set_calibration(SEED, SIDE)
    looks, c, m = cal.looks, cal.cell_px, cal.margin
    road = "".join(cal.known_grid).index("R")
    dark = (cal.known_bgr.astype(np.float32) * 0.5).astype(np.uint8)
    energy = br.detail_energy(dark, c, m, c - 2 * int(round(br.SETTINGS.patch_inset * c)))
    dist = br.feature_distances(br.cell_features(dark, c, m, energy=energy), looks)
    again = br.shade_distances(dark, energy, dist, looks, c, m)
    assert all(again[i][k] <= dist[i][k] for i in range(br.SIZE * br.SIZE) for k in dist[i])
    assert again[road]["R"] < dist[road]["R"] - 3.0
    assert again[road]["R"] < again[road]["F"]
    assert min(dist[road], key=lambda k: dist[road][k]) != "R"  # without it, the darkened road is not a road
    # off (shade_max 1): nothing is compared again
    assert br.shade_distances(dark, energy, dist, looks, c, m, SHADE_OFF) == dist


def test_a_factory_under_glare_whose_picture_the_photo_taught_is_read_a_factory() -> None:
    """Seed 1706 (waterfront) photo 023: a factory washed out by glare matches the known layout's factories
    too weakly for the glare retry (``glare_min_correlation``), but the photo's own surely read factories
    match it clearly (``photo_examples_confidence``): with the retry run again after them
    (``glare_after_examples``) it is read a factory. Fails with ``glare_after_examples`` off (read a road)."""
    cal, frame, truth = set_photo(1706, "waterfront", 23)
    assert _wrong(read_board(frame, cal), truth) == []
    off = _wrong(read_board(frame, cal, replace(br.SETTINGS, glare_after_examples=False)), truth)
    assert [(r, c, t, g) for r, c, t, g, _ in off] == [(1, 0, "F", "R")]


def test_a_road_of_unseen_art_that_weakly_matches_a_shops_picture_is_read_by_its_colour() -> None:
    """Seed 2213 (inland): the known layout shows only curved roads; a crossroads matches the shops' picture
    (white building on blue) a little better than the roads' and its gray is 8.7 (CIE76) further from the
    shops' mean colour than from the roads': within the old ``colour_gap`` (10) the weak match counted in full
    and the road read as a shop. Fails with ``colour_gap`` 10."""
    for photo in (4, 10):
        cal, frame, truth = set_photo(2213, "inland", photo)
        assert _wrong(read_board(frame, cal), truth) == []
        off = _wrong(read_board(frame, cal, replace(br.SETTINGS, colour_gap=10.0)), truth)
        assert [(t, g) for _, _, t, g, _ in off] == [("R", "S")]
