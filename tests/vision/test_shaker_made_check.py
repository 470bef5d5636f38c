"""A re-lattice's reading asked of the made lattices too (``relattice_made_check``, :func:`vision.shaker.made_check`).

A refused reading's re-lattice moves its lattice and keeps the first move read whole; such a move can settle
stretched, a cell on a cube's cast shadow. The made lattices (fitted afresh at a cube's pitch) are read as well: of
two patterns, the one whose cubes' top faces lie nearer their cells is kept, a tie refused."""

from __future__ import annotations

from dataclasses import replace

from vision.shaker import DEFAULT_SETTINGS, ShakerReading, made_check, read_shaker

from .shaker_sets import set_scene


def _reading(pattern: list[list[str]], offsets: list[float]) -> ShakerReading:
    """A valid reading of ``pattern`` whose nine cubes' faces lie ``offsets`` pitches off their cells."""
    tests = [{"row": i // 3, "col": i % 3, "cube": True, "offset": off} for i, off in enumerate(offsets)]
    return ShakerReading(True, pattern, debug={"cell_tests": tests})


GRAY = [["gray"] * 3 for _ in range(3)]
BLACK_CORNER = [["gray"] * 3, ["gray"] * 3, ["black", "gray", "gray"]]


def test_the_same_pattern_or_no_made_reading_keeps_the_moved_one() -> None:
    moved = _reading(GRAY, [0.2] * 9)
    assert made_check(moved, None) is moved
    assert made_check(moved, _reading(GRAY, [0.01] * 9)) is moved
    assert made_check(moved, ShakerReading(False, None, "7 cubes in the grid")) is moved


def test_the_pattern_whose_faces_sit_on_their_cells_is_kept() -> None:
    moved = _reading(GRAY, [0.12] * 5 + [0.3] * 4)
    made = _reading(BLACK_CORNER, [0.05] * 5 + [0.0] * 4)
    kept = made_check(moved, made)
    assert kept.valid and kept.pattern == BLACK_CORNER
    assert kept.debug["made_check"] == {"moved": 0.12, "made": 0.05}
    # (and the other way round: the moved lattice's faces nearer)
    kept = made_check(made, moved)
    assert kept.pattern == BLACK_CORNER


def test_two_patterns_as_well_placed_are_refused() -> None:
    margin = DEFAULT_SETTINGS.relattice_made_margin
    moved = _reading(GRAY, [0.10] * 9)
    made = _reading(BLACK_CORNER, [0.10 - margin / 2] * 9)
    kept = made_check(moved, made)
    assert not kept.valid and kept.pattern is None
    assert kept.reason == "no pattern: two lattices read two patterns"


def test_a_stretched_re_lattice_on_a_shadow_gives_way_to_the_made_lattice() -> None:
    """s57003 0015 (plain light, a low warm lamp, long shadows below the rows): the first lattice lies on the
    shadows; the re-lattice moves it half a step up and stretches it, its bottom left cell on the black cube's
    shadow, read gray. The made lattice sits on the cubes and reads the pattern right."""
    frame_bgr, truth = set_scene(57003, 15)
    assert truth["valid"] and truth["scene"]["table"] == "plain_light"
    before = read_shaker(frame_bgr, settings=replace(DEFAULT_SETTINGS, relattice_made_check=False))
    assert before.valid and "relattice" in before.debug
    assert before.pattern != truth["cells"] and before.pattern[2][0] == "gray" and truth["cells"][2][0] == "black"
    now = read_shaker(frame_bgr)
    assert now.valid and now.pattern == truth["cells"]
    looks = now.debug["made_check"]
    assert looks["made"] + DEFAULT_SETTINGS.relattice_made_margin <= looks["moved"]
