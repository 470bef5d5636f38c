"""Frames of a generated shaker set, exactly as ``shakecity make-shaker-set DIR --seed SEED`` writes them (its
INDEX.png and truth), for tests that pin a case measured on such a set."""

from __future__ import annotations

import functools
import random
from collections.abc import Mapping
from typing import Any

import numpy as np
import pytest

import vision.shaker as shaker
from vision.colour import Palette
from vision.shaker_scene import render_scene_set


@functools.lru_cache(maxsize=2)
def _scenes(seed: int, n: int, fill_light: bool = False) -> list[tuple[np.ndarray, dict]]:
    return render_scene_set(random.Random(seed), n, fill_light=fill_light)


def set_scene(
    seed: int, index: int, frames: Mapping[int, int] | None = None, *, fill_light: bool = False
) -> tuple[np.ndarray, dict]:
    """The set's INDEX.png and its truth. ``frames`` (seed -> how many of its frames to make, past the last index a
    test file uses): several frames of one seed are then made once; without it, the first ``index + 1``.
    ``fill_light``: the set made with ``--fill-light``."""
    return _scenes(seed, frames[seed] if frames else index + 1, fill_light)[index]


def spied(monkeypatch: pytest.MonkeyPatch, name: str) -> list[Any]:
    """Every answer of the reader's ``name`` (a function :mod:`vision.shaker` imports) while the test reads."""
    answers: list[Any] = []
    real = getattr(shaker, name)

    def spy(*args: Any, **kwargs: Any) -> Any:
        answer = real(*args, **kwargs)
        answers.append(answer)
        return answer

    monkeypatch.setattr(shaker, name, spy)
    return answers


def faint_cells(reading: Any) -> list[tuple[int, int]]:
    """The cells a reading kept as faint cubes (its cell tests marked ``faint``)."""
    return [(t["row"], t["col"]) for t in reading.debug["cell_tests"] if t.get("faint")]


def same_reading(a: Any, b: Any) -> bool:
    """Whether two readings say the same: valid or not, the reason, the pattern."""
    return (a.valid, a.reason, a.pattern) == (b.valid, b.reason, b.pattern)


def without_margin(palette: Palette) -> Palette:
    """The palette without its own tie margin (``min_confidence``): read at the reader's settings' margin."""
    meta = {k: v for k, v in palette.meta.items() if k != "min_confidence"}
    return Palette(palette.names, palette.references, name=palette.name, wild=palette.wild, meta=meta)
