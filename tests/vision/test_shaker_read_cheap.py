"""The read path of an accepted frame, cheaper.

``lazy_size_margin``: a frame's first read builds and judges the first lattice only of the sizes whose best lattice
hypothesis scores near the best size's; a reading so made that is short of nine cubes or refused is read again with
every size, so only accepted readings can change. ``refit_reuse_below``: a lattice of nine cubes whose refit keeps
every cell's candidate and barely moves keeps its cell tests (no second verify_cells; the gaps beside its cells
measured anew) and its cubes' samples."""

from __future__ import annotations

import dataclasses
import math
from unittest import mock

import numpy as np

import vision.shaker as shaker
from vision.shaker import DEFAULT_SETTINGS, Candidates, GridNotFound, Hypotheses, read_shaker

from .shaker_sets import same_reading, set_scene

_FRAMES = {41001: 6}
_OFF = dataclasses.replace(DEFAULT_SETTINGS, lazy_size_margin=math.inf, refit_reuse_below=0.0)
_LAZY = dataclasses.replace(_OFF, lazy_size_margin=2.0)
_REFIT = dataclasses.replace(_OFF, refit_reuse_below=0.15)


def _read_counting(frame, settings):
    """The reading, and the calls of lattices (one a size searched), verify_cells and top_face."""
    with (
        mock.patch.object(shaker, "lattices", wraps=shaker.lattices) as searched,
        mock.patch.object(shaker, "verify_cells", wraps=shaker.verify_cells) as verified,
        mock.patch.object(shaker, "top_face", wraps=shaker.top_face) as faces,
    ):
        reading = read_shaker(frame, settings=settings)
    return reading, searched.call_count, verified.call_count, faces.call_count


def test_an_accepted_frame_searches_only_the_sizes_near_the_best_hypothesis() -> None:
    # seed 41001 frame 2: a complete pattern; its sizes' best hypotheses score 5.0, 9.0, 9.0, 9.0, 5.3: the first and
    # last lie more than 2 below the best and are not searched
    frame, truth = set_scene(41001, 2, _FRAMES)
    before, searched_before, _, _ = _read_counting(frame, _OFF)
    after, searched_after, _, _ = _read_counting(frame, _LAZY)
    assert same_reading(after, before) and after.valid
    assert [list(row) for row in after.pattern] == truth["pattern"]
    assert searched_before == 5 and searched_after == 3


def test_a_lazy_read_refused_is_read_again_with_every_size() -> None:
    # seed 41001 frame 5: an incomplete pattern refused; a size scoring 2.3 against the best's 7.0 is left out at
    # first, then the read with every size gives the reading as without the margin (each size's search begun once:
    # the lazy read's continued)
    frame, truth = set_scene(41001, 5, _FRAMES)
    assert not truth["valid"]
    before, searched_before, _, _ = _read_counting(frame, _OFF)
    with mock.patch.object(shaker, "_read", wraps=shaker._read) as reads:
        after, searched_after, _, _ = _read_counting(frame, _LAZY)
    assert same_reading(after, before) and not after.valid
    assert any(call.kwargs.get("_all_sizes") for call in reads.call_args_list)  # (read again with every size)
    assert searched_after == searched_before


def _hypotheses(best: float) -> Hypotheses:
    scores = np.array([[best - 1.0] * 8 + [best]])
    return Hypotheses(
        np.zeros(1, int),
        np.eye(2)[None],
        np.ones(1),
        np.zeros((1, 5, 2)),
        np.ones((1, 5), bool),
        scores,
        np.zeros(1, bool),
    )


def _cands(n: int) -> Candidates:
    return Candidates(np.zeros((n, 2)), np.ones(n), np.ones(n), 1.0)


def test_lazy_sizes_leaves_out_the_sizes_scoring_far_below_the_best() -> None:
    hyps = [_hypotheses(9.0), _hypotheses(6.5), _hypotheses(7.5), GridNotFound("none"), _hypotheses(1.0)]
    tried = [_cands(8), _cands(8), _cands(8), _cands(8), _cands(2)]  # (the last: too few candidates, not searched)
    assert shaker._lazy_sizes(hyps, tried, _LAZY) == {1}
    assert shaker._lazy_sizes(hyps, tried, _OFF) == set()
    assert shaker._lazy_sizes(hyps[:1] + hyps[3:], tried[:1] + tried[3:], _LAZY) == set()  # (one size: none)


def test_a_barely_moved_refit_of_nine_cubes_keeps_its_cell_tests() -> None:
    # seed 41001 frame 2: nine cubes, the refit moves no cell by 0.15 pitch and keeps each candidate
    frame, _ = set_scene(41001, 2, _FRAMES)
    before, _, verified_before, faces_before = _read_counting(frame, _OFF)
    after, _, verified_after, faces_after = _read_counting(frame, _REFIT)
    assert same_reading(after, before) and after.valid
    assert verified_after == verified_before - 1  # (the refitted lattice not verified again)
    assert faces_after == faces_before  # (the top faces on the refitted lattice: its offsets and extents as before)
    # the refitted lattice is read: the same lattice as before
    assert np.allclose(after.debug["grid"].origin, before.debug["grid"].origin)
    kept = ("offset", "extent", "d_gap", "cube", "outline")  # (d_gap measured anew on the refitted lattice)
    assert [[t[k] for k in kept] for t in after.debug["cell_tests"]] == [
        [t[k] for k in kept] for t in before.debug["cell_tests"]
    ]


def test_a_refit_moving_a_cell_farther_is_verified_again() -> None:
    # the same frame with the limit under its refit's move: verified again as before
    frame, _ = set_scene(41001, 2, _FRAMES)
    before, _, verified_before, faces_before = _read_counting(frame, _OFF)
    after, _, verified_after, faces_after = _read_counting(frame, dataclasses.replace(_OFF, refit_reuse_below=0.001))
    assert same_reading(after, before)
    assert (verified_after, faces_after) == (verified_before, faces_before)
