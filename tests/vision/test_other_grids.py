"""The shaker reader on other 3 x 3 coloured grids, read with a custom palette of other colours.

Issue 3 is accepted also on photos of other grids: a puzzle-cube face (stickers on a black body), painted tiles
with shadows, glossy stickers with tight gaps and a whole puzzle cube seen at a slant, its side faces in view. These
scenes are drawn by vision.grid_scene, seeded, with a palette of six colours the game does not use (yellow and
orange beside red: the close calls under a warm lamp).
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from vision.grid_scene import STICKERS_BGR, grid_scene, sticker_palette
from vision.shaker import (
    DEFAULT_SETTINGS,
    CubeReading,
    ShakerReading,
    between_pieces,
    edge_alignment,
    one_face_pairs,
    read_shaker,
)

FRAMES = 20
FLOOR = 19  # of 20 read exactly; measured 20/20 (puzzle face) and 20/20 (tiles) on 2026-12-02
CLOSE_UP_FLOOR = 19  # of 20 close-ups read exactly; measured 20/20 and 20/20 (close_up_long_side 0: 12 and 20)


@pytest.mark.parametrize("kind", ["puzzle", "tiles"])
def test_other_grids_read_with_a_custom_palette(kind: str) -> None:
    rng = np.random.default_rng({"puzzle": 31, "tiles": 32}[kind])
    palette = sticker_palette()
    exact, misread = 0, []
    for i in range(FRAMES):
        frame_bgr, pattern = grid_scene(kind, rng)
        reading = read_shaker(frame_bgr, palette)
        if reading.pattern == pattern:
            exact += 1
        else:
            misread.append((i, reading.to_json()))
    assert exact >= FLOOR, misread


@pytest.mark.parametrize("close_up", [False, True])
def test_a_whole_puzzle_cube_is_read_from_its_top_face(close_up: bool) -> None:
    # a puzzle cube lying on the table, the camera slanted 5-35 degrees: one or two side faces in view beside the
    # grid, their stickers a line of pieces beyond it, squashed by the slant. The top face is the pattern; a
    # lattice a line off onto a side face must be refused, never read
    rng = np.random.default_rng(33 if close_up else 34)
    palette = sticker_palette()
    exact, misread = 0, []
    for i in range(FRAMES):
        frame_bgr, pattern = grid_scene("cube", rng, close_up=close_up)
        reading = read_shaker(frame_bgr, palette)
        exact += reading.pattern == pattern
        if reading.pattern != pattern:
            misread.append((i, reading.to_json()))
        assert not reading.valid or reading.pattern == pattern, (i, reading.to_json())
    assert exact >= FLOOR, misread


def test_the_custom_palette_names_come_back() -> None:
    frame_bgr, pattern = grid_scene("puzzle", np.random.default_rng(7))
    reading = read_shaker(frame_bgr, sticker_palette())
    assert reading.pattern is not None
    assert {c for row in reading.pattern for c in row} <= set(STICKERS_BGR)
    assert reading.pattern == pattern


def test_the_games_box_limits_apply_to_the_games_palette_only() -> None:
    # eight blue stickers: more than the game's box holds (seven blue cubes), a refusal with the game's palette
    # (vision.shaker_checks.box_contents), yet a plain puzzle face with another palette that also names "blue"
    pattern = [["blue", "blue", "blue"], ["blue", "red", "blue"], ["blue", "blue", "blue"]]
    frame_bgr, _ = grid_scene("puzzle", np.random.default_rng(11), pattern)
    reading = read_shaker(frame_bgr, sticker_palette())
    assert reading.valid and reading.pattern == pattern, reading.to_json()
    game = read_shaker(frame_bgr)
    assert not game.valid


@pytest.mark.parametrize("kind", ["puzzle", "tiles"])
def test_close_ups_are_read_on_a_smaller_working_copy(kind: str) -> None:
    # a photo of a grid filling most of the frame: its cubes larger than the finder's largest size. A refused frame
    # is read again as a close-up (close_up_long_side); without that read fewer are read (measured: 12 and 20 of 20)
    rng = np.random.default_rng({"puzzle": 41, "tiles": 42}[kind])
    palette = sticker_palette()
    off = replace(DEFAULT_SETTINGS, close_up_long_side=0)
    exact = exact_off = 0
    misread = []
    for i in range(FRAMES):
        frame_bgr, pattern = grid_scene(kind, rng, close_up=True)
        reading = read_shaker(frame_bgr, palette)
        exact += reading.pattern == pattern
        exact_off += read_shaker(frame_bgr, palette, settings=off).pattern == pattern
        if reading.pattern != pattern:
            misread.append((i, reading.to_json()))
        assert not reading.valid or reading.pattern == pattern, (i, reading.to_json())  # refused, never misread
    assert exact >= CLOSE_UP_FLOOR, misread
    assert exact >= exact_off


def test_a_close_up_read_says_so_and_where_its_cubes_are() -> None:
    rng = np.random.default_rng(43)
    for _ in range(20):  # (the first close-up the first read refuses)
        frame_bgr, pattern = grid_scene("puzzle", rng, close_up=True)
        off = read_shaker(frame_bgr, sticker_palette(), settings=replace(DEFAULT_SETTINGS, close_up_long_side=0))
        if not off.valid:
            break
    else:
        pytest.fail("every close-up read on the first read: nothing to show")
    reading = read_shaker(frame_bgr, sticker_palette())
    assert reading.valid and reading.pattern == pattern
    assert reading.debug["close_up"] == {"long_side": DEFAULT_SETTINGS.close_up_long_side, "first": off.reason}
    # the cubes' positions in the frame's own pixels: the middle cube near the grid's corners' centre
    corners = np.array(reading.grid_corners)
    middle = next(c for c in reading.cubes if (c.row, c.col) == (1, 1))
    assert np.hypot(*(np.array(middle.xy) - corners.mean(0))) < 0.1 * np.ptp(corners[:, 0])


# frames of grid_scene("glossy", seed 63) that the reader misreads without the edge-alignment check (measured: 10, 11
# and 16, each on a lattice finer than the stickers' turned about 45 degrees against them; seed 52's 12, 14 and 17
# until the separate-cubes check looked for the gaps around its lattice, gap_shift_search: 14 and 17 read right since)
GLOSSY_SEED, TURNED_FRAMES = 63, (10, 11, 16)


def test_a_lattice_turned_against_the_glossy_stickers_is_refused_not_misread() -> None:
    # rounded glossy stickers with tight gaps: each sticker's highlight splits it, the finder's shapes are its parts,
    # and they fit a lattice at about 3/4 of the stickers' pitch (or 1/sqrt(2)), turned 45 degrees against them, that
    # passes every other check. The edges inside that grid (the stickers' outlines) run diagonal to its steps:
    # vision.shaker.edge_alignment says so, and the reading is refused; without the check these frames are read wrong
    rng = np.random.default_rng(GLOSSY_SEED)
    scenes = [grid_scene("glossy", rng) for _ in range(max(TURNED_FRAMES) + 1)]
    palette = sticker_palette()
    off = replace(DEFAULT_SETTINGS, min_edge_alignment=-math.inf)
    # (frame 11's turned lattice is a made lattice dividing the refused reading's plain stickers: made_whole_cubes
    # refuses it too, and the glare read then reads the frame right; 10 and 16 are misread with the check off alone)
    bare = replace(off, made_whole_cubes=False)
    for i in TURNED_FRAMES:
        frame_bgr, pattern = scenes[i]
        without = read_shaker(frame_bgr, palette, settings=bare)
        assert without.valid and without.pattern != pattern, (i, without.to_json())
        alone = read_shaker(frame_bgr, palette, settings=off)
        assert (alone.pattern == pattern) == (i == 11), (i, alone.to_json())
        assert edge_alignment(frame_bgr, without.debug["grid"]) < DEFAULT_SETTINGS.min_edge_alignment, i
        # refused, or read right on another lattice (the refused reading's re-reads: 10 is)
        reading = read_shaker(frame_bgr, palette)
        assert not reading.valid or reading.pattern == pattern, (i, reading.to_json())
    # the frames read right read right still, on lattices along their stickers; the others read as without the check
    right = 0
    for i, (frame_bgr, pattern) in enumerate(scenes):
        if i in TURNED_FRAMES:
            continue
        reading = read_shaker(frame_bgr, palette)
        assert reading.pattern == read_shaker(frame_bgr, palette, settings=off).pattern, i
        if reading.pattern == pattern:
            right += 1
            assert edge_alignment(frame_bgr, reading.debug["grid"]) > 0.4, i
    assert right >= 8  # (measured: 11 of the 14)


# frames of grid_scene("glossy") read wrong on lattices across the stickers, some cubes sampled on the gaps between
# two stickers (measured): seed 86 frame 13, two such cubes on a lattice squashed to 0.68; seed 91 frame 17, five such
# cubes (its steps of one length). Seed 59's frame 6 and 62's frame 6 until the separate-cubes check looked for the
# gaps around its lattice (gap_shift_search): read right since, on the stickers' lattice
SQUASHED = ((86, 13), (91, 17))


def _between_pieces(reading: ShakerReading) -> int:
    return between_pieces(reading.debug["grid"], [t["extent"] for t in reading.debug["cell_tests"] if t["cube"]])


def test_a_lattice_between_the_glossy_stickers_is_refused_not_misread() -> None:
    # a cube's colour is sampled inside its top face, a region of that colour; a sample across two stickers and the
    # gap between them is a mix no region around it shares. Four or more such cubes (faceless_cubes: no face found
    # at the cell, or one under faceless_extent of a pitch wide) refuse the grid, and two or more on a lattice
    # squashed past faceless_squash (faceless_squashed_cubes); without the checks these frames are read wrong (and
    # without faceless_line, an outer line of three faceless cubes, which refuses 91/17's lattice too)
    palette = sticker_palette()
    # (and without relattice_glare_check, which now reads 86/13's moved lattice right by the read without highlights)
    off = replace(
        DEFAULT_SETTINGS,
        faceless_cubes=10,
        faceless_squashed_cubes=10,
        faceless_line=False,
        relattice_glare_check=False,
    )
    for seed, frame in SQUASHED:
        rng = np.random.default_rng(seed)
        scenes = [grid_scene("glossy", rng) for _ in range(frame + 1)]
        frame_bgr, pattern = scenes[frame]
        without = read_shaker(frame_bgr, palette, settings=off)
        assert without.valid and without.pattern != pattern, (seed, without.to_json())
        assert _between_pieces(without), seed
        # refused, or read right on another lattice (the refused reading's re-reads: 91/17 is)
        reading = read_shaker(frame_bgr, palette)
        assert not reading.valid or reading.pattern == pattern, (seed, reading.to_json())
        if seed == SQUASHED[0][0]:
            # the frames before it read as without the checks, the right ones on lattices the checks pass
            right = 0
            for i, (frame_bgr, pattern) in enumerate(scenes[:frame]):
                reading = read_shaker(frame_bgr, palette)
                assert reading.pattern == read_shaker(frame_bgr, palette, settings=off).pattern, i
                if reading.pattern == pattern:
                    right += 1
                    assert not _between_pieces(reading), i
            assert right >= 9  # (measured: 12 of the 13)


# glossy close-ups refused as a hand over the grid before foreign_needs_gaps (measured: frames 0, 2, 6 and 16 of 20)
GLOSSY_CLOSE_SEED = 407


def test_a_glossy_sticker_off_the_palette_is_no_hand_where_the_gaps_do_not_show() -> None:
    # foreign_cells takes a cell far from every palette colour and like a gap beside it for a hand across the grid.
    # Glossy stickers' gaps are 4 % of the pitch: the gap disks straddle both stickers, every cell is like its gaps,
    # and a sample holding part of the lamp's highlight is off the palette. The check asks only where the other
    # cubes stand apart from their gaps (foreign_needs_gaps); with it on any grid these close-ups were refused
    rng = np.random.default_rng(GLOSSY_CLOSE_SEED)
    palette = sticker_palette()
    off = replace(DEFAULT_SETTINGS, foreign_needs_gaps=False)
    right, refused_before = 0, 0
    for i in range(FRAMES):
        frame_bgr, pattern = grid_scene("glossy", rng, close_up=True)
        reading = read_shaker(frame_bgr, palette)
        before = read_shaker(frame_bgr, palette, settings=off)
        assert not reading.valid or reading.pattern == pattern, (i, reading.to_json())  # never misread
        assert not before.valid or before.pattern == pattern, (i, before.to_json())
        right += reading.valid
        if not before.valid and reading.valid:
            refused_before += 1
            gaps = sorted(float(t["d_gap"]) for t in reading.debug["cell_tests"])
            assert gaps[4] < DEFAULT_SETTINGS.foreign_gap, (i, gaps)  # (no gaps show there: the check abstains)
    assert right >= CLOSE_UP_FLOOR  # (measured: 20 of 20)
    # (measured: 2, frames 0 and 16; frame 6 was a third until the close-up's smaller copy, close_up_again_long_side,
    # read it with the check asked on any grid too)
    assert refused_before >= 2


# a glossy close-up whose first read's lattice is already a close-up's, refused (measured: frame 4 of seed 410, "no
# grid of separate cubes"; seeds 400-419: 401/2, 404/15, 410/4 and 411/3 so, each read right since)
SAME_PITCH_SEED, SAME_PITCH_FRAME = 410, 4


def test_a_close_ups_reading_stands_where_the_first_lattice_was_a_close_ups_too() -> None:
    # The first read works on a copy whose finder's sizes do not reach a close-up's stickers: its lattice, when it has
    # a close-up's pitch, is fitted to parts of them (a highlight splits each), its cells sampled off their middles.
    # The close-up read (close_up_long_side) sees them whole; its reading was taken only at a coarser pitch than the
    # first lattice's (close_up_pitch_gain), now also at about the same (close_up_same_pitch)
    rng = np.random.default_rng(SAME_PITCH_SEED)
    palette = sticker_palette()
    before = replace(DEFAULT_SETTINGS, close_up_same_pitch=False)
    right = 0
    for i in range(FRAMES):
        frame_bgr, pattern = grid_scene("glossy", rng, close_up=True)
        reading = read_shaker(frame_bgr, palette)
        assert not reading.valid or reading.pattern == pattern, (i, reading.to_json())  # never misread
        right += reading.valid
        if i == SAME_PITCH_FRAME:
            first = read_shaker(frame_bgr, palette, settings=before)
            assert not first.valid, first.to_json()
            first_pitch = first.debug["grid"].pitch
            assert first_pitch >= DEFAULT_SETTINGS.close_up_min_pitch * max(frame_bgr.shape[:2])
            assert reading.valid and reading.debug["close_up"]["first"] == first.reason
            # (the close-up's lattice no coarser than the first's by close_up_pitch_gain: refused before)
            assert reading.debug["grid"].pitch < DEFAULT_SETTINGS.close_up_pitch_gain * first_pitch
    assert right >= CLOSE_UP_FLOOR  # (measured: 20 of 20)


def test_a_made_lattice_dividing_the_stickers_is_not_read(monkeypatch: pytest.MonkeyPatch) -> None:
    # A glossy close-up with one sticker missing (the body's black in its place, no palette colour: an incomplete
    # pattern). Its lattice, on the stickers, is refused ("8 cubes in the grid"); the made lattices read next
    # (read_made_lattices) held one at half the stickers' pitch, two to four of its cells on each of four stickers
    # (a highlight splits each), read as a complete pattern. A made lattice that puts two cells on one plainly seen
    # cube of the refused reading (made_whole_cubes) is not read. Seed 900, frame 4 of the throwaway set that found it
    # (600 such grids, glossy and puzzle, half of them close-ups: this one accepted, the other 599 refused either way)
    import vision.grid_scene as scene

    palette = sticker_palette()
    monkeypatch.setitem(scene.STICKERS_BGR, "none", (20, 20, 20))
    names = [n for n in scene.STICKERS_BGR if n != "none"]
    rng = np.random.default_rng(900)
    for _ in range(5):
        pattern = [[names[int(rng.integers(6))] for _ in range(3)] for _ in range(3)]
        pattern[int(rng.integers(3))][int(rng.integers(3))] = "none"
        frame_bgr, _ = grid_scene("glossy", rng, pattern, close_up=True)
    before = read_shaker(frame_bgr, palette, settings=replace(DEFAULT_SETTINGS, made_whole_cubes=False))
    assert before.valid and before.debug["made_lattice"]["refused"] == "8 cubes in the grid"
    refused_pitch = read_shaker(frame_bgr, palette, settings=replace(DEFAULT_SETTINGS, made_lattice=False))
    assert not refused_pitch.valid and before.debug["grid"].pitch < 0.7 * refused_pitch.debug["grid"].pitch
    reading = read_shaker(frame_bgr, palette)
    assert not reading.valid and reading.reason == "8 cubes in the grid"


def test_a_lattice_a_line_off_onto_a_puzzle_cubes_side_face_is_refused() -> None:
    # A whole puzzle cube at a slant (make-grid-set --kind cube, seed 504, frame 8): its lattice two of the top
    # face's rows and the first row of the side face below them, the top face's first row a full line beyond. The
    # side's stickers are as wide as the top's but thinner across (squashed_far_line, far_line_squash): refused
    palette = sticker_palette()
    rng = np.random.default_rng(504)
    for _ in range(9):
        frame_bgr, pattern = grid_scene("cube", rng)
    off = read_shaker(frame_bgr, palette, settings=replace(DEFAULT_SETTINGS, far_line_squash=math.inf))
    assert off.valid and off.pattern != pattern and off.pattern[:2] == pattern[1:], off.to_json()  # a row down
    reading = read_shaker(frame_bgr, palette)
    assert not reading.valid and "far line squashed" in str(reading.reason), reading.to_json()
    assert reading.debug["far_line_squash"] > DEFAULT_SETTINGS.far_line_squash


def test_a_puzzle_cubes_side_face_beyond_the_grid_leaves_the_reading_standing() -> None:
    # seed 500, frame 3: the lattice on the top face, the side face's first row a full line beyond it. The grid's
    # far line (the top face's first row) is as square as its middle one: read
    palette = sticker_palette()
    rng = np.random.default_rng(500)
    for _ in range(4):
        frame_bgr, pattern = grid_scene("cube", rng)
    reading = read_shaker(frame_bgr, palette)
    assert reading.valid and reading.pattern == pattern, reading.to_json()
    assert abs(reading.debug["far_line_squash"]) < DEFAULT_SETTINGS.far_line_squash / 3


# glossy close-ups the close-up's read (close_up_long_side) still refused, read on a smaller copy
# (close_up_again_long_side). Measured: seeds 400-419 (make-grid-set --kind glossy --close-up) 392 -> 398 of 400 read,
# none misread; seed 413's frames 1 and 9 are two of the six
AGAIN_SEED, AGAIN_FRAMES = 413, (1, 9)


def test_a_glossy_close_up_the_close_ups_read_refuses_is_read_on_a_smaller_copy() -> None:
    rng = np.random.default_rng(AGAIN_SEED)
    palette = sticker_palette()
    once = replace(DEFAULT_SETTINGS, close_up_again_long_side=0)
    for i in range(max(AGAIN_FRAMES) + 1):
        frame_bgr, pattern = grid_scene("glossy", rng, close_up=True)
        if i not in AGAIN_FRAMES:
            continue
        before = read_shaker(frame_bgr, palette, settings=once)
        assert not before.valid, (i, before.to_json())
        reading = read_shaker(frame_bgr, palette)
        assert reading.pattern == pattern, (i, reading.to_json())
        assert reading.debug["close_up"]["long_side"] == DEFAULT_SETTINGS.close_up_again_long_side


def test_a_lattice_a_row_down_onto_a_puzzle_cubes_side_face_with_no_face_in_its_last_row_is_refused() -> None:
    # make-grid-set --kind cube --close-up, seed 806 frame 4: the lattice two of the top face's rows and a row of the
    # side face below them, whose squashed stickers put their gaps across the cells' points (no top face at any of
    # the three: faceless_line); the top face's first row, a full line beyond, was no candidate of the read's look
    palette = sticker_palette()
    rng = np.random.default_rng(806)
    for _ in range(5):
        frame_bgr, pattern = grid_scene("cube", rng, close_up=True)
    off = read_shaker(frame_bgr, palette, settings=replace(DEFAULT_SETTINGS, faceless_line=False))
    assert off.valid and off.pattern[:2] == pattern[1:], off.to_json()  # (a row down)
    assert [t["extent"] for t in off.debug["cell_tests"][6:]] == [0.0, 0.0, 0.0]
    reading = read_shaker(frame_bgr, palette)
    assert not reading.valid and "no piece's top face" in str(reading.reason), reading.to_json()


def test_a_made_lattice_with_two_cells_on_one_sticker_is_not_read() -> None:
    # A puzzle close-up turned about 12 degrees (make-grid-set --kind puzzle --close-up, seed 314, frame 10): refused
    # on a turned lattice, it was read on a made lattice at 0.6 of the stickers' pitch, two of its cells on one sticker
    # in places with no gap between them, six cells wrong. Such a made lattice is not read (made_one_face_delta_e,
    # one_face_pairs); the next made lattice reads the face right
    rng = np.random.default_rng(314)
    for _ in range(11):
        frame_bgr, pattern = grid_scene("puzzle", rng, close_up=True)
    palette = sticker_palette()
    before = read_shaker(frame_bgr, palette, settings=replace(DEFAULT_SETTINGS, made_one_face_delta_e=0.0))
    assert before.valid and "made_lattice" in before.debug and before.pattern != pattern, before.to_json()
    assert one_face_pairs(frame_bgr, before.cubes, DEFAULT_SETTINGS.made_one_face_delta_e)
    reading = read_shaker(frame_bgr, palette)
    assert reading.valid and reading.pattern == pattern, reading.to_json()
    assert not one_face_pairs(frame_bgr, reading.cubes, DEFAULT_SETTINGS.made_one_face_delta_e)


def test_one_face_pairs_needs_a_gap_between_neighbours_of_one_colour() -> None:
    # two red squares side by side: apart (a dark gap between them) or one long red bar
    apart = np.full((60, 120, 3), 200, np.uint8)
    apart[20:40, 10:50] = apart[20:40, 60:100] = (30, 30, 200)
    apart[20:40, 50:60] = (20, 20, 20)
    bar = apart.copy()
    bar[20:40, 50:60] = (30, 30, 200)
    cubes = [CubeReading(0, 0, "red", 0.9, (30.0, 30.0)), CubeReading(0, 1, "red", 0.9, (80.0, 30.0))]
    assert one_face_pairs(bar, cubes, 1.0) == [((0, 0), (0, 1))]
    assert one_face_pairs(apart, cubes, 1.0) == []
    assert one_face_pairs(bar, cubes, 0.0) == []  # (off)
    other = [cubes[0], CubeReading(0, 1, "blue", 0.9, (80.0, 30.0))]
    assert one_face_pairs(bar, other, 1.0) == []  # (only neighbours of one colour are asked)


def test_a_moved_lattice_between_the_glossy_stickers_gives_way_to_the_read_without_highlights() -> None:
    # Glossy stickers (make-grid-set --kind glossy, seed 116, frame 14): the first lattice refused (8 cubes), the
    # re-lattice's move put one half a step across, its disks straddling two stickers each: three read as a
    # neighbour's colour, the faces 0.11 pitches off their cells on the median. The read without highlights reads
    # the grid on the stickers, 0.03 off; asked too (relattice_glare_check), its reading wins made_check's rule
    rng = np.random.default_rng(116)
    for _ in range(15):
        frame_bgr, pattern = grid_scene("glossy", rng)
    palette = sticker_palette()
    before = read_shaker(frame_bgr, palette, settings=replace(DEFAULT_SETTINGS, relattice_glare_check=False))
    assert before.valid and "relattice" in before.debug and before.pattern != pattern, before.to_json()
    reading = read_shaker(frame_bgr, palette)
    assert reading.valid and reading.pattern == pattern, reading.to_json()
    looks = reading.debug["glare_check"]
    assert looks["made"] + DEFAULT_SETTINGS.relattice_made_margin <= looks["moved"], looks
    assert "glare" in reading.debug  # (the reading is the read without highlights')
