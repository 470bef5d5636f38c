"""The lattice choice: a refusal on a lattice finer than the cubes is read again without its size."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from vision import shaker
from vision.shaker import DEFAULT_SETTINGS, read_shaker
from vision.shaker_scene import render_scene_set

from .shaker_old_finder import OLD_FINDER


def test_retry_without_size_reads_a_pattern_on_gingham() -> None:
    # gingham: the checks' size wins the fit (pitch under half the cubes'), verifies cells inside the cubes
    # and the last checks knock three out; read again without that size, the cubes' own lattice is found
    frame_bgr, truth = render_scene_set(random.Random(5317), 91)[90]
    assert truth["valid"]
    # (made_lattice off: a lattice made at the cubes' pitch reads it too when the retry does not)
    off = read_shaker(frame_bgr, settings=replace(DEFAULT_SETTINGS, retry_without_size=False, made_lattice=False))
    assert not off.valid
    reading = read_shaker(frame_bgr)
    assert reading.valid, reading.reason
    assert reading.pattern == truth["pattern"]
    assert reading.debug["grid"].pitch >= DEFAULT_SETTINGS.retry_pitch_ratio * off.debug["grid"].pitch


def test_retry_at_about_the_same_pitch_is_not_taken() -> None:
    # gingham, one cell empty: refused with eight cubes; another size at about the same pitch reads the
    # white check in the empty cell as a white cube, and that reading must not win
    frame_bgr, truth = render_scene_set(random.Random(8093), 340)[339]
    assert not truth["valid"]
    # (its faces fit their cells: retry_min_extent alone spares it the second read, so that is off here)
    every_refusal = replace(DEFAULT_SETTINGS, retry_min_extent=0.0)
    # (at the old finder's threshold: at today's the other size's lattice is not the retry's)
    any_pitch = read_shaker(
        frame_bgr, settings=replace(OLD_FINDER, retry_min_extent=0.0, retry_pitch_ratio=0.0, repeat_cells=False)
    )
    assert any_pitch.valid
    reading = read_shaker(frame_bgr, settings=every_refusal)
    assert not reading.valid
    assert reading.reason == "8 cubes in the grid"


def test_no_retry_when_the_faces_fit_their_cells(monkeypatch: pytest.MonkeyPatch) -> None:
    # one cell empty, refused with eight cubes whose faces fit their cells (the lattice is not finer than
    # the cubes): no second read (a coarser size's lattice was fitted, so only the extent spares it)
    frame_bgr, truth = render_scene_set(random.Random(8093), 30)[29]
    assert not truth["valid"]
    calls = []
    original = shaker._read

    def counting(*args: Any, **kwargs: Any) -> shaker.ShakerReading:
        # (the re-lattice's reads of other lattices are no retry, nor lazy_size_margin's read again with every size,
        # nor the close-up read on a smaller working copy, nor the busy table's read with a lower finder threshold)
        close_up = kwargs["settings"].work_long_side != DEFAULT_SETTINGS.work_long_side
        busy = kwargs["settings"].response_noise_factor != DEFAULT_SETTINGS.response_noise_factor
        square = kwargs["settings"].square_steps  # (nor the square-steps read of a frame still refused)
        glare = not kwargs["settings"].glare_retry  # (nor the read of a frame still refused without highlights)
        if kwargs.get("_start") is None and not kwargs.get("_all_sizes") and not (close_up or busy or square or glare):
            calls.append(kwargs.get("_without"))
        return original(*args, **kwargs)

    monkeypatch.setattr(shaker, "_read", counting)
    assert shaker.read_shaker(frame_bgr).reason == "8 cubes in the grid"
    assert len(calls) == 1
    calls.clear()
    always = replace(DEFAULT_SETTINGS, retry_min_extent=0.0)
    assert shaker.read_shaker(frame_bgr, settings=always).reason == "8 cubes in the grid"
    assert len(calls) == 2
