"""A faint cube kept by its shadow (``faint_shadow_min_dark``, ``faint_shadow_max_noise``, ``faint_shadow_max_edges``,
:func:`vision.shaker_cube_look.faint_cube_kept_by_its_shadow`).

A cube of about the table's colour (white on a light table, black on a dark one) that the cell test or the faint
look reads is often taken for the table again by a last look: its colour is one of the table's tones and its face's
edges hardly show. Its edge map is the cubes' and it throws a cube's shadow, yet that shadow missed
``solid_cubes_kept``'s own bounds (its darkness against the cubes' shadows, ``solid_rel``, or the lit table's
spread, ``solid_max_noise``), which a cell with no other cue must meet. Two cues agreeing, a looser shadow will do,
where the table shows no busy print (a gingham's dark checks fall where an empty cell's shadow would).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

import vision.shaker as shaker
from vision.shaker import DEFAULT_SETTINGS, read_shaker
from vision.shaker_cube_look import faint_cube_kept_by_its_shadow

from .shaker_sets import faint_cells, set_scene

OFF = replace(DEFAULT_SETTINGS, faint_shadow_min_dark=float("inf"))
PLAIN = lambda: True  # noqa: E731  (the table plain)


def _tests(solid: list[float], *, faint: bool = True, other_faint: bool = False) -> list[dict]:
    """Nine cell tests: cell 4 refused-then-asked with ``solid`` measured, the others cubes."""
    tests = [{"row": i // 3, "col": i % 3, "cube": True, "d_table": 30.0, "d_palette": 2.0} for i in range(9)]
    tests[4].update(d_table=2.0, solid=solid, faint=faint)
    if other_faint:
        tests[0]["faint"] = True
    return tests


def test_the_faint_cell_is_kept_when_its_shadow_is_dark_on_an_even_table() -> None:
    """The rule's own bounds, on a cell already read by the faint look (no frame needed): dark enough, the lit
    table even enough, the region even; not when any of these fails, nor when another cell is faint too or two
    cells are asked, nor on a busy table (a gingham's dark checks), nor with the rule off."""
    s = DEFAULT_SETTINGS
    frame = np.zeros((8, 8, 3), np.uint8)  # (not looked at: the cell is already faint)

    def kept(tests: list[dict], ask: list[int], settings: Any = s, plain: Any = PLAIN) -> list[int]:
        return faint_cube_kept_by_its_shadow(frame, None, tests, ask, settings, plain)

    dark, noise = s.faint_shadow_min_dark, s.faint_shadow_max_noise
    assert kept(_tests([dark, 0.3, noise, 0.5]), [4]) == [4]
    assert kept(_tests([dark - 0.01, 0.3, noise, 0.5]), [4]) == []
    assert kept(_tests([dark, 0.3, noise + 0.01, 0.5]), [4]) == []
    assert kept(_tests([dark, 0.3, 0.1, s.solid_max_spread + 0.01]), [4]) == []
    assert kept(_tests([1.0, 0.3, 0.1, 0.5], other_faint=True), [4]) == []
    assert kept(_tests([1.0, 0.3, 0.1, 0.5]), [4, 0]) == []
    assert kept(_tests([1.0, 0.3, 0.1, 0.5]), [4], OFF) == []
    no_measure = _tests([1.0, 0.3, 0.1, 0.5])
    del no_measure[4]["solid"]
    assert kept(no_measure, [4]) == []
    assert kept(_tests([1.0, 0.3, 0.1, 0.5]), [4], plain=lambda: False) == []


def test_a_white_cube_on_a_light_table_is_kept_by_its_shadow() -> None:
    """s47001 0000 (a white cube on a plain light table, a hand and four stray cubes about): a last look takes the
    white cube at row 3, column 2 for the table, and its shadow misses solid_cubes_kept's own bounds (2.3 times the
    cubes' shadows' darkness, beyond ``solid_rel``; the lit table's spread 0.20, beyond ``solid_max_noise``): with
    the rule off the pattern is refused, "8 cubes in the grid". Its edge map is the cubes' and its shadow is dark
    on an even table: kept, as a faint cube, and the pattern read right."""
    frame_bgr, truth = set_scene(47001, 0)
    assert truth["valid"] and truth["scene"]["table"] == "plain_light"
    before = read_shaker(frame_bgr, settings=OFF)
    assert not before.valid and before.reason == "8 cubes in the grid"
    assert (2, 1) not in faint_cells(before)  # (the cell test took it; the faint look never asked)
    reading = read_shaker(frame_bgr)
    assert reading.valid and reading.pattern == truth["pattern"]
    cell = reading.debug["cell_tests"][7]
    assert (2, 1) in faint_cells(reading) and cell["solid_cube"]
    dark, rel, noise, spread = cell["solid"]
    s = DEFAULT_SETTINGS
    assert dark >= s.faint_shadow_min_dark and noise <= s.faint_shadow_max_noise
    assert rel > s.solid_rel[1] and noise > s.solid_max_noise  # (solid_cubes_kept alone: not kept)
    # the bounds are what keeps it: just above its darkness, or just under its table's spread, it is not
    for tighter in (replace(s, faint_shadow_min_dark=dark + 0.05), replace(s, faint_shadow_max_noise=noise - 0.05)):
        assert read_shaker(frame_bgr, settings=tighter).reason == "8 cubes in the grid"


def test_an_empty_cell_whose_shadow_is_too_faint_stays_refused() -> None:
    """s59004 0059 (an incomplete pattern on a plain light table: row 3, column 2 empty): the empty cell's colour
    and edge map pass the faint look's tests, and a last look takes it for the table again. The table there is
    only 0.29 darker than around it (the complete patterns' kept cells: 0.42 and more): refused, "8 cubes in the
    grid". At a darkness bound under it the incomplete pattern would be accepted."""
    frame_bgr, truth = set_scene(59004, 59)
    assert not truth["valid"] and truth["cells"][2][1] is None
    reading = read_shaker(frame_bgr)
    assert not reading.valid and reading.reason == "8 cubes in the grid"
    dark = reading.debug["cell_tests"][7]["solid"][0]
    assert dark < DEFAULT_SETTINGS.faint_shadow_min_dark
    looser = read_shaker(frame_bgr, settings=replace(DEFAULT_SETTINGS, faint_shadow_min_dark=dark - 0.05))
    assert looser.valid


def test_an_empty_cell_on_a_gingham_is_not_kept_by_the_checks_darkness() -> None:
    """s62003 0031 (an incomplete pattern on a gingham: row 2, columns 2 and 3 empty): the empty cell at column 3
    passes the faint look's colour and edge tests and a last look takes it for the table. Where its cube's shadow
    would fall lie the gingham's dark checks, 1.11 darker than the lit table around it, which is even there (0.82):
    as a cube's shadow. The gingham's print lifts the frame's mean edge strength past ``faint_shadow_max_edges``, so
    the cell is not kept. With no bound on the table's edges it would be: the reading then counts 7 cubes, the empty
    cell read as one."""
    frame_bgr, truth = set_scene(62003, 31)
    assert not truth["valid"] and truth["scene"]["table"] == "gingham" and truth["cells"][1][2] is None
    reading = read_shaker(frame_bgr)
    assert not reading.valid and reading.reason == "8 cubes in the grid"
    cell = reading.debug["cell_tests"][5]
    dark, _, noise, _ = cell["solid"]
    s = DEFAULT_SETTINGS
    assert dark >= s.faint_shadow_min_dark and noise <= s.faint_shadow_max_noise
    assert not cell.get("solid_cube")
    edges = shaker.mean_edge_strength(shaker._frame_work(frame_bgr, DEFAULT_SETTINGS))
    assert edges > s.faint_shadow_max_edges
    taken_plain = read_shaker(frame_bgr, settings=replace(s, faint_shadow_max_edges=float("inf")))
    assert not taken_plain.valid and taken_plain.reason == "7 cubes in the grid"
    assert taken_plain.debug["cell_tests"][5].get("solid_cube")
