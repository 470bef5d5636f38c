"""Read the Cube Shaker's 3 x 3 pattern from one frame: find -> lattice -> verify -> sample -> classify -> check.

Each stage is a public function taking its settings (:class:`ShakerSettings`, one versioned place):

- :func:`table_difference`, :func:`edge_strength`: a reduced working copy (long side 512), how far each
  pixel is from the table (a wide median, so any table colour or print) and the colour edges.
- :func:`find_cubes`: cube-like shapes at several sizes: a uniform patch inside a square ring of strong
  edges (a cube's top face and its outline). No cube size in pixels is assumed.
- :func:`fit_grids`: for each size, the 3 x 3 lattices the candidates support best (pairs of neighbours
  give the steps, every size's scored in one array pass by :func:`lattice_hypotheses`; least squares refine
  them; other candidates just around it count against it): the
  best, and the next few distinct ones (not the same lattice a row over: that is :func:`best_window`'s).
  :func:`grid_plausibility` compares sizes (edge-free cells, edges in the gaps, cube size against pitch);
  lattices drawn inside one object (:func:`cell_separation`, :func:`gap_contrast`) are dropped (all sizes'
  measured at once: :func:`lattices_measures`).
- :func:`verify_cells`: each cell is a cube or the table, by its colour in the light normalised on the
  cubes (a palette colour, not the table in full light or any shadow, and an outline found or a colour
  apart from the table beside it); the few most plausible lattices are verified and the one with most
  cubes wins; :func:`best_window` moves it by a row or column when the cubes say so (never to a window
  with fewer cubes verified); :func:`refine_grid` refits it by least squares to the cubes' top faces
  (:func:`top_face`), leaving out a face far off the fit, and the cells are verified again; a last check
  (``stand_out``) takes a cell the table in some shadow explains for a cube when it is near the palette
  and far from the table in all four gaps beside it, or (``faces``, :func:`face_edges`) when its top face's
  four straight edges show crisply at the lattice's angle (a gray cube in its neighbours' shadow); still
  short of nine, :func:`best_window` looks again at the refitted lattice, counting the points around it
  whose top face shows (``window_faces``); nine cubes with a full line of cube-like points just beyond a side
  (twelve in a 4 x 3 block), it moves onto that line when the outlines say its far line is no line of cubes
  and the line beyond is (``beyond_line_ring``, :func:`vision.shaker_checks.lines_beyond`; still so after, the
  reading is refused); with the far line outlined too, it is refused when that line's faces are squashed across
  it against the middle line's (``far_line_squash``, :func:`squashed_far_line`: a puzzle cube at a slant, the
  lattice a line off onto a side face); a line of cubes beyond a side that lies off the lattice's points, found by
  their top faces (:func:`faces_beyond`), refuses it when the grid's far line looks like the table and less like
  the pieces (``beyond_face_gain``). When the lattice so settled holds fewer than nine
  cubes, the sizes' other lattices are verified too (gingham checks or a card can win the fit): one with
  two cubes more (or one more, every cube outlined) is settled the same way and wins if it still holds
  more. A cell of the table's colour and its gaps' colour is the table; a grid whose cells mostly look
  like their gaps is no pattern. A reading refused for fewer than nine cubes on a lattice finer than its
  cubes (their faces span its cells; a coarser size's lattice was fitted: a gingham's checks won) is read
  again without that size, and wins when complete on a lattice ``retry_pitch_ratio`` times as coarse.
- :func:`sample_cubes`, :func:`classify_cubes`: the top faces' colours (full resolution), light
  normalised by per-channel gains fitted to the palette (:func:`vision.colour.fit_gains`), nearest
  palette colour in CIELAB with a confidence; :func:`doubt_mixed_samples` drops to a tie the confidence of a
  cube whose disk mixed it with the table beside it (a quarter of the disk names another colour, much farther
  from the table than the whole disk), :func:`doubt_checks_beside` one whose disk lies half on the table's own
  check (its quarters name two palette colours, those of the colour read the table's repeat),
  :func:`doubt_off_centre_samples` one whose cell's centre names another colour, and
  :func:`vision.shaker_checks.on_an_edge` one sampled beside a cube, not on its face (the cube's cast shadow or side,
  or the table beside it, outlined by the cube's edge).
- :func:`check_grid`: a refusal with a reason unless nine cubes sit on the nine cells, none out of line
  (:func:`cube_offset`, :func:`out_of_line_cubes`), no cube's colour is near a tie (``min_confidence``), the
  nine are not one colour within a few dE (a table's print), three cells are not the table in shadow
  (:func:`on_shadows`: the lattice slipped onto the cubes' cast shadows), and no cube's colour region runs
  past its cell unoutlined, or outlined and in its gaps' colour (:func:`table_patch`: the table's print), nor
  do the edges inside the grid run across its lattice (:func:`edge_alignment`: a lattice turned against the cells,
  glossy stickers split by their highlights), nor do cubes show no face of their colour at their cells
  (:func:`between_pieces`: a lattice squashed across the pieces, sampling the gaps between them).
  Then :mod:`vision.shaker_checks`' last looks: a cell the table explains under a continuous shadow
  (``table_cells``), three weak cells of the table's own tones (``cloth_cells``: a lattice on a checked cloth),
  cubes off the lattice on the median (``off_the_lattice``), a lattice whose ratio of steps is far from its cubes'
  top faces' (:func:`lattice_face_mismatch`, ``face_spread_mismatch``: stretched off its cubes), a lattice sheared
  against its cubes' faces (:func:`lattice_face_shear`) with a line of two cells of the table's colour and no
  outline (``slid_weak_line``: a line slid off its cubes), a cube knocked
  out beside a weak cell or a weakly outlined cell of the table's tones, one unoutlined cell in a common table tone
  (``toned_open_cells``), three cells the shadow fit explains or four it explains loosely, or three loosely on a
  stretched lattice (``shadow_fit_cells``),
  an unoutlined cell the table in some shade explains (``open_table_cells``), a cell in one of the table's own
  tones whose top face's four edges do not show (``faceless_toned_cells``: the print in an empty cell; on a table
  of one colour around the grid, a cell no light of the table explains whose edges show faintly stays a cube:
  ``faceless_kept_on_plain``).
  :func:`out_of_line_cubes` counts no shape beside the grid in one of the table's own colours
  (``stray_not_table_tone``) unless a grid cube with a weak outline (``stray_tone_weak_ring``) shows such a
  colour, nor (``stray_line_mates``, and ``knocked_line_mates`` for a knocked-out cube's shape) one with a mate
  of its colour beside it on its line beyond the grid, in no cube's colour (:func:`vision.shaker_checks.line_mates`:
  the cubes' cast shadows), and only a shape beside a cell in doubt (``stray_doubt_ring``: a weak outline, a top
  face off its centre, a colour far from the palette; beside nine solid cubes a shape out of line is another cube
  on the table).
- :func:`relattice` (:mod:`vision.shaker_lattice`): a reading refused on its lattice (for a cube out of line only
  with ``relattice_out_of_line``) is read again on lattices near it (through its cubes' top faces, a row or
  column over, half a pitch over, of another pitch), settled and checked in full; the first read whole that
  moved at least ``relattice_min_shift`` pitches and left no plainly seen cube behind wins (a lattice a line off
  over cubes of the table's colour).
- :func:`read_made_lattices`: a reading still refused is read again on lattices made at a cube's pitch
  (:func:`made_lattices`: each size's candidates pooled with its neighbour sizes', fitted with a cube's pitch for
  that size), at another pitch than the refused one (a gingham's checks, shadows or a card won the fit), or at
  about its pitch when it moved as a re-lattice move must (``made_same_pitch``). A re-lattice's reading is read so
  too (:func:`made_check`, ``relattice_made_check``): of two patterns, the one whose cubes' faces lie nearer their
  cells is kept, a tie refused; and by the read without highlights (:func:`glare_reading`,
  ``relattice_glare_check``), weighed by the same rule.
- :func:`busy_table_reading`: a frame still refused whose table's edges (a gingham's checks) lifted the finder's
  threshold above ``response_min`` is read again with the threshold lowered (``busy_retry_factor``), and that
  reading is the frame's when its lattice is of another pitch than the refused one's (``busy_retry_pitch_change``):
  the cubes' own size went unfound at first.
- :func:`close_up_reading`: a frame still refused may be a close-up (a photo of another 3 x 3 grid filling much of
  it, its cubes larger than the finder's largest size): it is read again on a working copy ``close_up_long_side``
  long, and that reading is the frame's when its lattice is a close-up's (``close_up_min_pitch`` of the frame) and
  coarser than the first reading's by ``close_up_pitch_gain`` (unless that was a close-up's too:
  ``close_up_same_pitch``); a frame that read still refuses is read so once more on a smaller copy
  (``close_up_again_long_side``).
- :func:`square_steps_reading` (``square_retry``): a frame still refused is read again on the first read's work
  (its candidates; no busy-table or close-up read) with ``square_steps``: a pair of cubes with none found at
  right angles also seeds lattices on the first step turned a right angle (scored ``square_step_penalty`` lower),
  for a grid whose cubes beside the pair went unfound (black on a dark table, the lattice fitted off them); that
  reading is the frame's when valid.
- :func:`glare_reading` (``glare_retry``, :mod:`vision.shaker_glare`): a frame still refused is read once more with
  a lamp's highlights taken off (glossy stickers or tiles: grey-opened by a square a third of the refused lattice's
  pitch), a first look unless the refused lattice's cells show highlights taken off; that reading is the frame's
  when valid and its own lattice's cells show highlights taken off (``glare_after_cells``). Where it is not, or the
  refusal had no lattice, the frame is opened at pitches that are fixed shares of its size (``glare_ladder``) and
  given the same first look and the same test on each.

Each of those second looks runs only on a refusal and replaces it only with a valid reading: :func:`first_look`'s
settings turn them all off, for a read whose valid reading is the full read's and whose refusal is the full
read's or a pattern only a second look reads, at about an accepted frame's cost (the live reader's look at a
moving view, :mod:`vision.shaker_live`). ``read_shaker(..., should_stop=f)`` asks ``f`` as each of these reads
begins and stops with :class:`ReadStopped` when it says so (the live reader's view changed under the second looks).

:func:`read_shaker` chains them and returns a :class:`ShakerReading`; :func:`draw_reading` annotates a
frame. Run alone: ``python -m vision.shaker photo.jpg [--json] [--palette FILE] [--rotate 90]
[--debug out.png]`` (the ``read-shaker`` command).
"""

from __future__ import annotations

import collections
import contextvars
import functools
import itertools
import math
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

import cv2
import numpy as np

from .colour import (
    Palette,
    calibrate_palette,
    classify,
    default_palette,
    fit_gains,
    lab8_to_lab,
    lab_to_linear_rgb,
    linear_rgb_to_lab,
    nearest_names,
    per_colour_distances,
    srgb_to_linear,
)
from .errors import CalibrationError, VisionError
from .shaker_checks import (
    GridSurroundings,
    box_contents,
    cells_on_an_edge,
    cloth_cells,
    cube_between_cells,
    cube_sample_radius,
    faceless_kept_on_plain,
    faceless_line,
    faceless_toned_cells,
    faint_cubes_kept,
    faint_cubes_kept_by_two_cues,
    foreign_cells,
    full_lines_beyond,
    incoming_line,
    knocked_beside_table_cells,
    knocked_beside_toned_cells,
    knocked_beside_weak_cells,
    line_mates,
    lines_beyond,
    nearer_the_palette,
    nearer_the_table,
    off_palette_lines,
    off_the_lattice,
    open_table_cells,
    outlined_line,
    print_beyond_cells,
    shadow_fit_cells,
    shadow_lines,
    slid_weak_line,
    spotless_table_cells,
    table_cells,
    table_chroma_spread,
    table_like_line,
    tone_shares,
    toned_open_cells,
    with_faint_cubes,
)
from .shaker_cube_look import shadow_tint, solid_cubes_kept, with_solid_cubes
from .shaker_glare import glare_cells, glare_spots, without_highlights
from .shaker_lattice import (
    divides_plain_cubes,
    lattice_moves,
    left_behind,
    moved_by,
    on_lattice,
    plain_cube,
    pooled_candidates,
)
from .shaker_repeat import frame_periods, repeat_distances, repeated_cells, repeated_line

SETTINGS_VERSION = 1


def _median(values: np.ndarray | Sequence[float]) -> float:
    """The (upper) median of a short 1-d array: np.median's overhead dominates at these sizes."""
    a = np.asarray(values, dtype=np.float64).ravel()
    if a.size == 0:
        return float("nan")
    mid = a.size // 2
    return float(np.partition(a, mid)[mid])


_SRGB_TO_LINEAR = srgb_to_linear(np.arange(256) / 255.0)

_EPS = float(np.finfo(np.float64).eps)


def _linalg_kernels() -> Any:
    """numpy's own kernels behind np.linalg.lstsq and inv (a private module), or None where this numpy lays them
    out otherwise (numpy 1.x, the Pi's, names its least squares ``lstsq_m``/``lstsq_n``): asked once, on a probe
    that must give np.linalg's numbers bit for bit; else the public calls serve."""
    try:
        from numpy.linalg import _umath_linalg as kernels

        a = np.array([[1.0, 2.0, 0.5], [0.0, 1.0, 3.0], [2.0, 0.25, 1.0], [1.0, 1.0, 1.0]])
        b = np.array([[1.0, 0.0], [2.0, 1.0], [0.0, 3.0], [1.0, 1.0]])
        with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
            x = kernels.lstsq(a, b, _EPS * max(a.shape), signature="ddd->ddid")[0]
            inv = kernels.inv(a[:3], signature="d->d")
        same = np.array_equal(x, np.linalg.lstsq(a, b, rcond=None)[0]) and np.array_equal(inv, np.linalg.inv(a[:3]))
        return kernels if same else None
    except Exception:  # (another numpy's layout or signature: the public calls)
        return None


_LINALG_KERNELS = _linalg_kernels()


def _lstsq(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``np.linalg.lstsq(a, b, rcond=None)[0]`` of float64 (m, n) and (m, k) arrays, n, k >= 1: the same kernel
    with the same rcond, without the wrapper's checks, whose cost shows on the reader's 3-column fits (a dozen
    per frame). A fit that is not finite (the kernel failed) is asked of np.linalg, which raises."""
    if _LINALG_KERNELS is not None:
        with np.errstate(invalid="ignore", divide="ignore", over="ignore"):  # (np.linalg's, but failing quietly)
            x = _LINALG_KERNELS.lstsq(a, b, _EPS * max(a.shape), signature="ddd->ddid")[0]
        if np.isfinite(x).all():
            return x
    return np.linalg.lstsq(a, b, rcond=None)[0]


def _inv(a: np.ndarray) -> np.ndarray:
    """``np.linalg.inv`` of a float64 square matrix: the same kernel without the wrapper (see :func:`_lstsq`); a
    singular one is asked of np.linalg, which raises."""
    if _LINALG_KERNELS is not None:
        with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
            x = _LINALG_KERNELS.inv(a, signature="d->d")
        if np.isfinite(x).all():
            return x
    return np.linalg.inv(a)


@dataclass(frozen=True)
class ShakerSettings:
    """Every tunable of the reader, in one versioned place (chosen from eval-shaker's measurements)."""

    version: int = SETTINGS_VERSION
    # find: the table model and the cube finder
    work_long_side: int = 512  # the finder works on a copy this long (pixels)
    background_shrink: int = 4  # the table model is a median at 1/4 of the working size...
    background_window: float = 0.36  # ...over a window this fraction of its longer side
    lightness_weight: float = 0.45  # weight of L (0..255 scale) against a and b in the table difference
    box_sizes: tuple[int, ...] = (5, 7, 9, 12, 15, 20, 26, 34, 44, 57, 74)  # sizes tried (working px)
    half_from: int = 10  # sizes from this one up are found on a halved copy
    edge_lightness_weight: float = 0.6
    response_min: float = 6.0  # minimum ring-minus-inside edge strength for a cube
    # ...or this many times the frame's mean edge strength. Only a busy table's edges (a gingham's checks) lift the
    # threshold above response_min, and there 1.5 left 3-5 of a pattern's nine cubes found: the lattice fitted to
    # them, or a size's candidates, fell short ("N cubes in the grid"). 1.2: on the 31 tuning sets exact 10175 ->
    # 10217, false refusals 304 -> 262, incomplete accepted 51 -> 52, wrong readings 1 -> 1 (gingham frames only);
    # on 14 more sets 5084 -> 5106, 157 -> 135, 18 -> 19, 4 -> 4. (1.0: 10225, 254, 54: more incomplete accepted.)
    response_noise_factor: float = 1.2
    nms_radius: float = 1.0  # one candidate per cube: others within this many sizes are dropped
    max_candidates: int = 24  # the strongest candidates kept per size
    # lattice
    min_support: int = 5  # a size with fewer candidates than this is not tried as the grid's
    pitch_min: float = 1.9  # lattice pitch / candidate radius
    pitch_max: float = 5.0
    min_pitch: float = 0.012  # the smallest lattice pitch, as a fraction of the frame's longer side
    min_squareness: float = 0.6  # a fitted lattice's shorter step against its longer (tilt and a wide lens
    max_skew: float = 0.4  # foreshorten a grid to ~0.75)... and |cos| of the angle between its steps
    pair_neighbours: int = 6  # lattice hypotheses pair each candidate with this many nearest ones
    # ...and a pair with no candidate at right angles takes the square step itself, its hypotheses scored
    # square_step_penalty lower: always (square_steps), or in a refused frame's second read (square_retry)
    square_steps: bool = False
    square_step_penalty: float = 0.5
    square_retry: bool = True
    max_turn: float = 32.0  # degrees the grid may turn from the image axes
    # The best few distinct lattices kept per size (verification chooses)... 1 = the best only. Once off:
    # on seven generated sets of 500 (777, 4242, 8080, 31337, 60606, 12345, 2468) six per size saved 9 false
    # refusals (a reshake) but accepted 3 incomplete patterns on gingham (a wrong pattern reported), and
    # doubled the 95th percentile time of frames that read no pattern (live mode's box-down frames). Four,
    # with an alternative winning only when it settles to nine cubes (alternative_settled_gain): where the lattice
    # chosen had the wrong pitch (0.75 or 1.2-1.5 of the cubes', on their shadows or a card) or lay a line off and
    # the pattern's own is a size's second to fourth, that one is read. On the 40 tuning sets (20000 frames), three
    # per size: exact 13399 -> 13455, false refusals 459 -> 403, incomplete accepted 112 -> 114 (two knocked-out
    # cubes, i7272 0130 and i9898 0115: no stray seen about the right lattice, where the refused wrong one saw it),
    # wrong readings 3 -> 3; four: exact 13461, nothing else changed; six: 13463, one right reading lost (s9494
    # 0217). CPU median unchanged, p95 ~26 -> ~35 ms (the frames short of nine cubes). 1: the best only (before)
    lattices_per_size: int = 4
    lattice_attempts: int = 40  # ...from this many of the best-scoring hypotheses...
    lattice_alt_margin: float = 3.0  # ...scoring at most this much below the size's best
    alternatives_checked: int = 6  # when the best lattices hold fewer than 9 cubes, this many others are checked;
    alternative_min_gain: int = 2  # one wins with this many more cubes verified (or one more, all outlined)
    # a reading refused for fewer than nine cubes once settled and checked is read again without the chosen
    # lattice's size, and that reading wins when it is a complete pattern passing every check on a lattice
    # of at least retry_pitch_ratio times the refused one's pitch: the refused lattice was finer than the
    # cubes (a gingham's checks, a cube's face cut in cells). Not at about the same pitch: there another
    # size can read a white check in an empty cell as a white cube (at any pitch, seeds 5317 and 8093: 6
    # more complete patterns read, but 1 incomplete accepted). False: the refusal stands (the reader before)
    retry_without_size: bool = True
    retry_pitch_ratio: float = 1.6
    # ...tried only when the refused lattice's cubes' faces span a cell (median extent, pitches; most
    # refused incomplete patterns: 0.7-0.95) and a size's lattice that coarse was fitted (a re-read costs a
    # read: without these, seed 8093's incomplete frames took 33 ms CPU median instead of 18)
    retry_min_extent: float = 1.0
    lattice_tolerance: float = 0.28  # a cube sits on a lattice point when this close (fraction of pitch)
    size_ratio_min: float = 0.55  # a grid cube's size against the seed's
    quality_contrast: float = 3.0  # a candidate this many times the table's median difference counts fully
    quality_floor: float = 0.25
    pitch_to_size: tuple[float, float] = (1.08, 1.95)  # plausible pitch / cube size
    size_penalty: float = 8.0
    stray_penalty: float = 0.5
    uniform_box: float = 0.4  # the part of a cell (fraction of the pitch) that must be free of edges
    uniformity_penalty: float = 4.0
    separation_min: float = 2.0  # gaps between cells should hold this many times the edges inside them
    separation_penalty: float = 3.0
    separation_floor: float = 1.0  # below this the lattice is not considered at all
    gap_contrast_floor: float = 0.4  # nor when fewer of the gaps between cells than this differ from the cells
    fill_tolerance: float = 0.22  # a candidate of another size fills an empty cell this close (pitches)...
    fill_size_ratio: tuple[float, float] = (0.7, 1.45)  # ...of about the grid's cube size...
    fill_strength: float = 0.5  # ...and standing out at least this much as the grid's cubes
    filled_weight: float = 0.8  # a cell filled so counts this much in the lattice's score
    lattices_checked: int = 3  # the most plausible lattices checked cell by cell...
    lattice_check_margin: float = 4.0  # ...if within this much of the best
    verified_weight: float = 1.0  # a cell verified as a cube adds this to a lattice's score
    shift_margin: int = 1  # the window moves by a row or column when that scores this much better
    refine_passes: int = 1  # the chosen lattice is refitted to the cubes' top faces (this many times)...
    refine_min_cells: int = 5  # ...when this many are found
    refine_trim: float = 0.1  # a face this far off the first fit (pitches) is left out of the second
    refine_max_change: float = 0.4  # a refit moving a cell by more than this (pitches) is not trusted
    # cells: a cube or the table?
    cell_max_delta_e: float = 25.0  # a cube's colour is at most this far from a palette colour (CIE76)
    cell_fill_delta_e: float = 15.0  # a cell with no outline found holds a cube when this near the palette...
    cell_margin: float = 2.5  # ...and this much nearer the palette than the table in any shadow
    cell_gap_min: float = 2.5  # ...a cell this far in colour from each of the four gaps beside it holds a cube
    # each cell's ring (verify_cells' outline: the mean edge strength on a ring around the cell less the mean inside
    # it, in find_cubes' units) is taken against the lattice's typical cell's, the seventh smallest of the nine (most
    # of a pattern's cells are outlined cubes), and never against less than ring_floor. Where fewer than three cells
    # show an outline (a lattice inside one sticker, between pieces, on the table) the typical cell's is 0 or below:
    # divided by 1e-6 the rings came out at +-1e6 (glossy seed 116 frame 14: 546030 and -1.5e6), which every ring
    # threshold after reads as the crispest outline or none. 6.0: find_cubes' response_min, the least outline the
    # finder takes for a cube. Read with 1e-6 (as before), 1.0 and 6.0, every frame read the same (reading and
    # reason): the game's sets t41001-t41010, 43001-43006 and 43101-43106 (11000 frames) and make-grid-set's glossy
    # seeds 52-130 and 131-170, glossy and puzzle close-ups 400-419, puzzle and tiles 300-329 (4380); some lattice a
    # read checked had such a divisor in 13-25 % of the game's frames.
    ring_floor: float = 6.0
    # most cubes of a pattern differ from the gaps beside them this much (CIE76, median). Not lower: 3.0 read
    # complete patterns of gray and black cubes on printed tables (s3131 0490: 3.2, s6161 0232: 3.9) and no
    # incomplete one more on eight sets, but accepted two incomplete frames of the untouched seed 8787 (medians
    # 4.0 and 5.5: a knocked-out cube's cell and two empty cells read as dark cubes like their gaps)
    min_median_gap: float = 6.0
    # ...at the lattice's gaps, or at its gaps moved by up to this many pitches along each step (in steps of
    # gap_shift_step; vision.shaker.shifted_gap_median), and the share of gaps between cells that differ from them
    # (gap_contrast, gap_contrast_floor) again on the lattice moved by the move found. Pieces that nearly touch (glossy
    # stickers, gaps 2-7 % of the pitch), their faces found beside a highlight, lie on a lattice off their middles: a
    # gap point beside each cell falls on the cell itself. Glossy stickers, seeds 52-130: 680 -> 1307 (the median
    # moved) -> 1354 (the share too) of 1580 read right, wrong 1 throughout (116/14); seeds 131-170, drawn after:
    # 348 -> 675 -> 702 of 800, none wrong. The game's tuning sets 41001-41010: one complete frame more read (41005
    # 0144), nothing else changed. 0.0: at the lattice's gaps only
    gap_shift_search: float = 0.3
    gap_shift_step: float = 0.05
    # ...and only on a lattice about square (|cos| of the angle between its steps at most this: the tuning sets'
    # readings 0.20 at most). Sheared across glossy stickers, a column on their gaps, one found gaps (seed 120/5)
    gap_shift_max_skew: float = 0.2
    table_same_delta_e: float = 2.0  # a cell this near the table (in any shadow)...
    gap_same_delta_e: float = 1.5  # ...and this near one of the gaps beside it is the table
    gap_sample_radius: float = 0.06  # the gaps beside a cell are sampled in disks this wide (pitches)
    cell_table_margin: float = 3.0  # a cell this much nearer the table (in any shadow) than the palette is table
    override_gap_min: float = 10.0  # ...unless this far from each of the four gaps beside it (CIE76)...
    override_palette_max: float = 10.0  # ...and this near a palette colour
    shadow_levels: tuple[float, ...] = (0.2, 0.3, 0.42, 0.6, 0.8, 1.0)  # the table in shadow: its colour times these
    offset_window: float = 0.5  # a cube's top face is looked for this far around its cell (pitches)...
    offset_colour: int = 24  # ...as the pixels this near its colour (L1 in 8-bit Lab)
    max_offset: float = 0.3  # a cube whose top face's centre is further than this from its cell is out of line
    # ...and one of about the table's colour (d_table at most table_same_delta_e) whose face lies this far or further
    # is the table beside a cube, or in an empty cell, taken for a cube on its outline alone: its colour doubted
    # (vision.shaker_checks.on_an_edge). On the game's sets 41001-41010, 43001-43006, 43101-43106 and
    # 44001-44006 the table-coloured cells of patterns read right lie within 0.23 (45001-45006: 0.22); beyond it only
    # s45002 0124 (a gray cube's cell sampled on the pale table beside it, named white; 0.27) and s43103 0451 (an
    # incomplete pattern accepted; 0.26). inf: off (the reader before)
    table_face_max_offset: float = 0.25
    patch_extent: float = 1.0  # a cube's face wider than this (pitches)...
    patch_ring: float = 0.05  # ...with an outline weaker than this (against the grid's) is a patch of table
    # ...unless its colour is near the palette's (d_palette below patch_min_palette) and, in any shadow, apart
    # from the table's (d_table, CIE76) yet not far from it (from patch_near_table to patch_min_table): a white,
    # gray or black cube of about the table's colour (white on a light table, black on a dark one) is left to
    # the table-colour checks after it (table_cells, open_table_cells, faceless_toned_cells: its gaps, shadows
    # and edges). Nearer the table it is the table itself, farther a print's square. On the 30 tuning sets
    # s41001-s41030 the rule's 5 refused complete patterns were 2.9-17.3 from the table and within 5.1 of the
    # palette; the empty cells it alone refused 29.8 or more from the table (gingham's checks), or 0.3 and
    # 1.5 from it (empty centres on dark tables: s41030 0046, s9494 0104). patch_min_table 0.0: every patch
    patch_near_table: float = 2.5
    patch_min_table: float = 20.0
    patch_min_palette: float = 7.0
    # an outlined "cube" whose face runs wider than this (pitches) in the colour of one of the gaps beside it
    # (within patch_gap_delta_e, CIE76) is the table's print too (a gingham check): cubes stand apart
    patch_gap_extent: float = 1.1
    patch_gap_delta_e: float = 0.8
    max_extent: float = 1.05  # the cubes' top faces are narrower than this (median, pitches): else one object
    # out of line: a cube near the grid on none of its cells
    out_of_line_reach: float = 1.15  # looked for this many pitches around the grid
    stray_strict_distance: float = 1.2  # at least this far from every grid cube (pitches)
    stray_strict_delta_e: float = 12.0  # and its colour this near a palette colour
    # ...and not one of the table's own colours around the grid (vision.shaker_checks.tone_shares at least
    # cloth_share, as knocked_beside_weak_cells has it: a checked cloth's white check on the lattice's
    # continuation, a patch of a light table or the cubes' cast shadow, read as a white or gray cube), unless
    # a cube of the grid shows one of those colours too (a white check may then be in the grid, its cube the
    # one outside). False: every such shape counts (the reader before)
    stray_not_table_tone: bool = True
    # ...and only beside a cell in doubt (within stray_doubt_reach pitches of the shape): no cube found there, an
    # outline weaker than stray_doubt_ring (verify_cells' ring, or none found), a top face stray_doubt_offset
    # pitches or more off the cell's centre, or a colour stray_doubt_palette (CIE76) or more from every palette
    # colour. A cube knocked out of the grid leaves its cell empty: nine cubes are read only when that cell's
    # "cube" is the table (a weak outline, s41028 0058 ring 0.43; a printed table's square 12.4 from the palette,
    # i88202 0117, where 0.4 % of the cubes of 1513 complete patterns read are 10 or more from it) or the lattice
    # sits off (s41029 0478: 0.15 off, the knocked cube 1.35 pitches away). Beside nine solid cubes a shape out of
    # line is another cube on the table or a part of one, its cast shadow or its side (s41005 0156, s41024 0011
    # beside a cell of ring 0.54), or a check of the cloth (s41025 0168, ring 0.58): the pattern is complete.
    # stray_doubt_ring inf: every cell is in doubt (the reader before)
    stray_doubt_ring: float = 0.5
    stray_doubt_offset: float = 0.1
    stray_doubt_palette: float = 10.0
    stray_doubt_reach: float = 1.6
    # the lattice's ratio of steps (columns over rows) against its cubes' top faces' (lattice_face_mismatch, a log):
    # a lattice stretched along one axis onto the cubes' sides or the table beside them reads cells off their
    # cubes. Past this the grid is refused. On the 30 tuning sets s41001-41030 and seven more (18000 frames) the
    # 13423 complete patterns read right measured within 0.198 of 0; the two complete patterns read wrong 0.28
    # (s41027 0207: rows 1.33 times the columns' step on a camera 2.7 degrees off overhead) and 0.27 (s88401 0451:
    # its columns stretched onto the dark table beside the right column), an incomplete one accepted 0.29
    # (s41027 0052). A face's spread is measured with face_spread_min_pixels or more (working copy), the median
    # over face_spread_min_faces or more. inf: no such check (the reader before)
    face_spread_mismatch: float = 0.23
    face_spread_min_pixels: int = 12
    face_spread_min_faces: int = 5
    # a line slid along itself off its cubes (vision.shaker_checks.slid_weak_line): a row or column with
    # slid_line_cells cube cells that show no outline and lie within slid_line_max_table of the table, on a lattice
    # sheared slid_line_shear or more against its cubes' top faces (lattice_face_shear, the median face's correlation
    # in the lattice's frame; a camera's tilt shears the faces with the lattice: about 0): refused. 44003 0408 (its
    # bottom row on the gaps and shadows beside its cubes, two cells at d_table 4.5 and 3.8; faces 0.157) was read
    # wrong. Of the 43 other accepted readings with such a line on the game's 35000 frames (41001-51006), the other
    # grids' 6000 and shaker-dev, the most sheared against its faces measured 0.094 (lattice skew instead of the
    # faces' shear refused 52002 0294, black cubes on a dark table seen 23 degrees off overhead: skew 0.12, faces
    # 0.001). inf: off
    slid_line_shear: float = 0.12
    slid_line_max_table: float = 6.0
    slid_line_cells: int = 2
    # a full line of cube-like points just beyond the grid (full_lines_beyond) while the grid's own line opposite
    # shows faces squashed across itself against its middle line's (squashed_far_line: the medians' difference of the
    # lines' logs of face_spread_ratio, taken across each line): a puzzle cube lying on the table seen at a slant,
    # the lattice a line off onto one of its side faces (stickers as wide as the top's, thinner across), the top
    # face's last line left beyond. A shake's cubes all show square tops. Past this the grid is refused. Measured
    # (throwaway per-frame script): the game's sets 41001-41010 and the six batches 43001-48006 (26000 frames) and
    # the other grids' 4780 reach it on 81 frames, at most 0.07; make-grid-set --kind cube (seeds 500-519 and
    # close-ups 600-609, tuned on) lattices a line off 0.86-1.26, right ones with a side face beyond 0.03. inf: no
    # such check (the reader before)
    far_line_squash: float = 0.3
    # a close-up (a photo of a 3 x 3 grid filling much of the frame: a puzzle cube's face, tiles): its cubes larger
    # than the finder's largest size (box_sizes, working px). A refused frame is read again on a working copy
    # close_up_long_side long (its cubes then within the sizes), and that reading, when read whole, is the frame's when
    # its lattice's pitch is at least close_up_min_pitch of the frame's longer side and close_up_pitch_gain times the
    # first reading's (none found, or one inside the cubes); a refusal keeps the first reading's reason (in the
    # game's frames a close-up's lattice over a hand or the cubes' block refused another way). The game's grids are
    # smaller: on the tuning sets' 21000 frames the largest pitch is 0.081 of the longer side. Puzzle faces and tiles
    # filling 0.7-0.95 of the frame's height (tests/vision/test_other_grids.py's close-ups, 40 of each, seeds 51 and
    # 52): puzzle faces read 32 -> 40, tiles 40 -> 40, none misread. close_up_long_side 0: off (the reader before)
    close_up_long_side: int = 256
    close_up_min_pitch: float = 0.12
    close_up_pitch_gain: float = 1.3
    # ...but a first lattice that is a close-up's already (its pitch at least close_up_min_pitch of the longer side)
    # asks no gain: the first read's finder does not reach such cubes, so that lattice was fitted to parts of them (a
    # glossy sticker split by its highlight, a puzzle face's sticker corners) and its cells sampled off their middles;
    # the close-up read sees them whole. Right / wrong / refused (make-grid-set, eval-shaker --palette): glossy
    # close-ups (seeds 400-419) 388/0/12 -> 392/0/8, glossy 52-130 1566/1/13 -> 1570/1/9, 131-170 791/0/9 -> 796/0/4,
    # puzzle close-ups 396/0/4 -> 398/0/2, tiles close-ups 398/0/2 -> 400/0/0, puzzle and tiles (300-329) the same; 600
    # glossy and puzzle grids with a sticker missing, half of them close-ups: the same reasons, none read. The game's
    # sets 41001-41010, 43001-43006, 43101-43106, 44001-44006 (14000 frames) the same, reading and reason (their
    # lattices' pitch stays under 0.12). False: the gain asked of every first lattice (the reader before)
    close_up_same_pitch: bool = True
    # ...and a frame the close-up's read still refuses is read once more as one on a working copy
    # close_up_again_long_side long, the same tests asked of its reading: on the 256-px copy a glossy close-up's
    # sticker whose highlight or shade puts it 13-19 from the palette refuses the right lattice; on a 192-px copy its
    # colour is averaged over fewer, larger pixels. Right / wrong / refused (make-grid-set, eval-shaker --palette):
    # glossy close-ups (seeds 400-419) 392/0/8 -> 398/0/2, glossy 52-130 1570/1/9 -> 1571/1/8, 131-170 796/0/4 ->
    # 797/0/3, puzzle close-ups 398/0/2 -> 400/0/0. Every refused frame of the game's sets 41001-55006, the other
    # grids' and shaker-dev (11888 of 53028 frames; only a refused frame reaches this read) read again: the same,
    # reason and all, but those ten. 0: no such read (the reader before)
    close_up_again_long_side: int = 192
    # A frame still refused is read once more with a lamp's highlights taken off (glossy stickers or tiles: a bright
    # spot in each piece, no palette colour, a piece split in two; vision.shaker_glare, glare_reading): grey-opened by
    # a square glare_open of the refused lattice's pitch. A first look with the close-up's read (about 20 ms), or in
    # full where glare_before_cells of that lattice's disks (glare_disk pitches) show a highlight taken off (darker
    # and more colourful by glare_lift on the disk's mean); its reading kept only where glare_after_cells of its own
    # lattice's disks do (opened by glare_open of its own pitch). Right / wrong / refused on make-grid-set --kind
    # glossy seeds 52-130 (1580 frames, tuned on) 1354/1/225 -> 1473/1/106, seeds 131-170 (800, not tuned on)
    # 702/0/98 -> 754/0/46, --close-up seeds 400-419 322/0/78 -> 347/0/53 (327 with a plain first look: a close-up
    # needs the close-up read); with the full read always about 1510 on 52-130, but each refused game frame read
    # twice in full. Read again with no gate after, the 612 refused frames of the game's sets t41001-t41005 gave 7
    # incomplete patterns read as complete, each at 0 glare cells. The game's sets t41001-t41010, 42001-42003, 8787,
    # shaker-dev and the puzzle and tiles sets read the same, frame by frame. Cost: the bench's refused frames about
    # 20 ms more each (86-95 -> 106-111 ms mean), the accepted ones the same.
    glare_retry: bool = True
    glare_open: float = 0.35
    glare_disk: float = 0.25
    glare_lift: float = 4.0
    glare_before_cells: int = 1
    glare_after_cells: int = 3
    # the gate after measures each cell on disks of these shares of the pitch and counts it where any shows a highlight
    # taken off: a highlight off the piece's middle (the lamp's offset, up to 0.25 pitch) falls partly outside the
    # 0.25 disk, and the larger disk dilutes a small one. (0.25,) -> (0.25, 0.32), with the glare_ladder below:
    # glossy seeds 52-130 1553/1/26 -> 1562/1/17, 131-170 784/0/16 -> 789/0/11, close-ups 375/0/25 -> 376/0/24, none
    # read right before refused now; (0.32,) alone 1558 and 788, 4 and 1 of them refused that were read right. On the
    # game's refused frames of t41001-t41005 the 4 opened frames read valid show at most 1 cell on either disk; all
    # the game's sets read the same, frame by frame
    glare_after_disks: tuple[float, ...] = (0.25, 0.32)
    # A frame the glare read left refused, or refused with no lattice, is then opened at pitches that are these shares
    # of the frame's longer side (glare_open of each), each opened frame given the same first look and the same gate
    # after: the refused lattice is often far off the pieces' pitch (a highlight splits each piece, and the finder
    # fits a lattice of 20-50 px on stickers of 90-170 px), so the opening sized from it is too small. (0.137, 0.273):
    # about 140 and 280 px at 1024. Right / wrong / refused, make-grid-set --kind glossy seeds 52-130 1473/1/106 ->
    # 1553/1/26, seeds 131-170 754/0/46 -> 784/0/16, --close-up seeds 400-419 347/0/53 -> 375/0/25 (each of 0.137,
    # 0.195, 0.273 alone: 71, 74, 38 of the 106 on 52-130; all three 83). On the refused frames of the game's sets the
    # opened frames' first looks read no complete pattern that passes the gate (a few invalid or with 0 glare cells):
    # the game's sets t41001-t41010, 42001-42003, 8787, shaker-dev and the puzzle and tiles sets read the same, frame
    # by frame. Cost: about 32 ms a share per frame still refused (the opening 6 ms, the first look with the
    # close-up's read the rest): bench-shaker's 44 refused frames 157-160 -> 219-224 ms mean, the others the same.
    # (): no such read (the reader before)
    glare_ladder: tuple[float, ...] = (0.137, 0.273)
    # ... and an opened frame is read only where the opening took off a highlight in several pieces: at least
    # glare_spots separate spots it made darker and more colourful by glare_spot_lift (each on a box 0.45 of the
    # share's pitch), each no larger than a square 1.2 pitches wide, measured on a copy 256 long opened there
    # (vision.shaker_glare.glare_spots, a few ms; a printed or checked table the opening changes all over is one wide
    # region). All 138 glossy frames the ladder reads right (the three sets above) pass (3 spots or more; 4: also all
    # 138); of the 631 refused frames of t41001-t41005, 202 at 0.137 and 73 at 0.273 (275 first looks of 1262).
    # bench-shaker's 44 refused frames 213, 232 -> 188, 184 ms mean in alternate runs. 0: every opened frame read
    glare_spots: int = 3
    glare_spot_lift: float = 2.0
    # A busy table (a gingham's checks, a printed mat): its edges lift find_cubes' threshold (response_noise_factor
    # times the frame's mean edge strength) above response_min, and there the cubes' own size may go unfound (t41019
    # 0308: 3-5 candidates at the cubes' sizes, the lattice fitted to the checks at 0.38 of the cubes' pitch: "7 cubes
    # in the grid"). A refused frame whose threshold was so lifted is read again with response_noise_factor
    # busy_retry_factor (:func:`busy_table_reading`), and that reading is the frame's when valid and its lattice's
    # pitch differs from the first reading's by busy_retry_pitch_change either way (the first lattice of another size
    # than the cubes'); a refusal keeps the first reading. Without the pitch test five incomplete patterns more were
    # accepted (three on the same lattice read again, a knocked-out cube's cell filled; two a line off) and three
    # complete ones more read. On the 30
    # tuning sets (t41001-t41030, 15000 frames; every retry on gingham): false refusals 100 -> 85, incomplete accepted
    # 50 -> 53, none read wrong (0.6: 21 freed, 9 accepted without the pitch test; 1.0: 10, 8). 0: off
    busy_retry_factor: float = 0.8
    busy_retry_pitch_change: float = 1.15
    # sample and classify
    sample_radius: float = 0.16  # top-face sampling disk, fraction of the pitch
    min_confidence: float = 0.6  # refuse when a cube's colour is this near a tie (0.6: runner-up only 1.5x as far)
    # (a palette may ask for more, vision.colour.Palette.min_confidence: the game's asks for 0.667, the runner-up at
    # least about twice as far. Measured per frame against 0.6: 4 fewer incomplete patterns accepted, an empty or
    # knocked-out cell read as a gray or green cube at 0.62-0.67, and no complete pattern more refused, over the
    # tuning sets t41001-t41010, 42001-42003, 8787, shaker-dev and fresh 43001-43006, and untouched 43101-43106 (1
    # of the 4); for the sticker palettes of make-grid-set's glossy, tiles and close-up puzzle sets it would refuse 12
    # of 4380 frames read right, none read wrong, so they keep 0.6)
    # a sample half on the table: four smaller disks (this far off the centre, this wide, in sampling radii);
    # one naming another colour and this much farther (delta E) from the table than the whole sample says
    # the disk mixed the cube with the table beside it: its confidence drops to a tie (the pattern refused)
    mixed_sub_offset: float = 0.5
    mixed_sub_radius: float = 0.6
    mixed_table_margin: float = 15.0
    # a disk half on the table's own check (doubt_checks_beside): its quarters name two palette colours (one of
    # another colour within mixed_palette_delta_e of it) and every quarter of the colour read is the table's repeat
    # (a patch mixed_repeat_half pitches each way, under repeat_same_max): on a gingham, a gray cube's disk half on
    # the white check beside it, read white (59004 0004: the white quarters 0.6 and 1.2 from the check's repeats, the
    # gray ones 9.8 and 4.6); the table's model there, the checks' mean, left mixed_table_margin blind to it. The
    # quarters alone do not tell which half is the cube: right readings' cubes mix two palette colours as nearly (57006
    # 0468, black and gray quarters within 4.3). Read again frame by frame, 43001-43006, 43101-43106, 44001-47006,
    # 57001-59006 (27000 frames) and the other grids' sets: 0004 the only reading changed (four incomplete patterns
    # refused for another reason); on 59001-59006 the seven other disks of two palette colours lay 7.0-24.6 from the
    # repeats. 0: off
    mixed_palette_delta_e: float = 6.0
    mixed_repeat_half: float = 0.1
    # ...unless the same disk at the cell's centre (where the refined lattice puts the top face), at least
    # mixed_centre_min_shift sampling radii from the sample (a second look elsewhere: the disks share at most ~60 %),
    # names the reading's colour and mixes nothing: a sample off its face (a white cube's disk half on a neighbour's
    # shadow, t41001 0184). On the 30 tuning sets: 8 doubts of complete patterns' cubes cleared (their centres
    # 0.73-1.74 radii off), 7 patterns more read, none misread; a knocked-out cube's cell on a gingham check (t41023
    # 0053, 0.50 radii off) read as a gray cube is why the shift
    mixed_centre_look: bool = True
    mixed_centre_min_shift: float = 0.6
    # nine cubes whose colours all lie this close together (CIE76, largest pair) are one surface, the table's
    # print a lattice was drawn on (gingham's checks): separate cubes differ more, even of one colour
    same_colour_delta_e: float = 4.0
    # this many cells, each this near the table in some shadow (CIE76), are the cubes' cast shadows the lattice
    # slipped onto (a row of shadow-gray "cubes"), not cubes: the pattern is refused
    shadow_cells: int = 3
    shadow_cell_delta_e: float = 1.2
    # a cube with no outline found, this near the table in some shadow (CIE76), whose cell holds more edges
    # than the ring around it (ring below this) sits on an edge: a cube's cast shadow or side beside its face
    # (vision.shaker_checks.on_an_edge, with table_face_max_offset's case: its colour doubted)
    edge_cell_delta_e: float = 6.0
    edge_cell_ring: float = 0.0
    # a cube cell that the table under it, darkened by a factor from table_fit_shades (low, high, step), explains
    # (CIE76) is the table (vision.shaker_checks.table_cells): within table_shadow_delta_e when only the stand-out
    # exception took it for a cube (a cast shadow), within table_lit_delta_e when the factor is at least
    # table_lit_shade (the table in full light) and a gap beside it is within table_lit_gap of its colour
    table_fit_shades: tuple[float, float, float] = (0.15, 1.15, 0.02)
    table_shadow_delta_e: float = 1.0
    table_lit_delta_e: float = 1.5
    # (table_lit_shade: 0.85 before; real gray cubes on gingham fitted the lit table at 0.91 (s7676 0169, s2929 0230,
    # refused), the empty cells so taken at 0.97-1.15 on eight sets of 500)
    table_lit_shade: float = 0.95
    table_lit_gap: float = 5.0
    # cloth_cells cells taken for cubes, each with an outline weaker than cloth_ring and a colour that cloth_share
    # of the table's points around the grid (cloth_ring_points: from, to, step in cells beyond it) match within
    # cloth_delta_e (CIE76), are a checked cloth's squares: the lattice sits on the cloth (vision.shaker_checks)
    cloth_cells: int = 3
    cloth_ring: float = 0.6
    cloth_ring_points: tuple[float, float, float] = (0.6, 2.0, 0.25)
    cloth_delta_e: float = 3.0
    cloth_share: float = 0.06
    # the cubes' top faces lie further than this from their cells' centres on the median (pitches): the lattice
    # does not fit them (vision.shaker_checks.off_the_lattice; accepted right patterns: at most 0.12)
    max_median_offset: float = 0.135
    # a cube-like candidate beyond the grid (knocked_beyond cells past its outer cells), knocked_reach (pitches)
    # from a cube cell with no outline of its own (ring below knocked_weak_ring) and knocked_clear from every
    # other cube is the cube knocked out of that cell (vision.shaker_checks.knocked_beside_weak_cells)
    knocked_weak_ring: float = 0.0
    knocked_beyond: float = 0.6
    knocked_reach: tuple[float, float] = (0.8, 1.7)
    knocked_clear: float = 1.0
    knocked_weak_table: float = 40.0  # ...and the weak cell's colour this near the table in some shadow (CIE76)
    # one cube cell with no outline (ring below toned_ring) whose colour toned_share of the table's points around
    # the grid match (cloth_delta_e) is a checked cloth's square: an empty cell (vision.shaker_checks.toned_open_cells).
    # Empty cells so read had rings -0.44..-0.14 (one -0.05 beside one at -0.44); a real white cube on a gingham
    # white check -0.04 (test_shaker_accuracy's set, scene 102: refused at 0.0)
    toned_ring: float = -0.1
    toned_share: float = 0.1
    # a cube knocked out beside a cell with a weak outline (ring below knocked_toned_ring) in the table's own tones
    # (cloth_share) is out of line (vision.shaker_checks.knocked_beside_toned_cells); knocked_weak_ring: off
    knocked_toned_ring: float = 0.25
    # shadow_fit_cells cube cells each within shadow_fit_delta_e (CIE76) of the table darkened by some factor
    # (table_fit_shades) are the cubes' cast shadows (vision.shaker_checks.shadow_fit_cells), as on_shadows says
    shadow_fit_cells: int = 3
    shadow_fit_delta_e: float = 1.2
    # ...and so are shadow_fit_wide_cells cube cells each within shadow_fit_wide_delta_e: a lattice stretched along
    # the rows onto a low lamp's long shadows (s33301 0156, plain light: four cells at 0.85, 0.85, 1.23 and 1.37,
    # three of them read as gray cubes where red ones lie; the stretch 0.21, under face_spread_mismatch). Of the 30
    # tuning sets' 11185 complete patterns read right none had four cells within 2.4 (the nearest 2.47, 2.55).
    # shadow_fit_wide_cells 10: off (the reader before)
    shadow_fit_wide_cells: int = 4
    shadow_fit_wide_delta_e: float = 1.9
    # ...and so are shadow_fit_cells cube cells each within shadow_fit_stretched_delta_e on a lattice stretched
    # shadow_fit_stretch or more (either way) against its cubes' faces (lattice_face_mismatch): a lattice squashed
    # across the cubes, one line on the shadows between two of theirs (s49006 0296, plain light: the top line three
    # cells at 1.02-1.25 read as gray cubes where the shadow of the real top line falls, the stretch 0.22, under
    # face_spread_mismatch; read wrong before, read right now on its cubes). Measured without it on the game's
    # 29000 generated frames (41001-41010, 43001 ... 49006) and the other grids' 5980: of the 309 other patterns
    # read (right, or an incomplete one accepted) with a stretch of 0.15 or more the nearest had three cells within
    # 5.39; those with three within 2.0 were stretched 0.122 at most. With it those 34980 frames read the same,
    # reading and reason, but s49006 0296. (s33301 0156, shadow_fit_wide_cells' case, is refused by it too.)
    # shadow_fit_stretch inf: off (the reader before)
    shadow_fit_stretch: float = 0.15
    shadow_fit_stretched_delta_e: float = 2.0
    # a cube cell with next to no outline (ring below open_table_ring) that the table darkened by some factor explains
    # within open_table_delta_e (CIE76) is the table (vision.shaker_checks.open_table_cells)
    open_table_ring: float = 0.15
    open_table_delta_e: float = 0.9
    # the last check of a settled lattice: the cubes' top faces (cube_offset's extent, median, pitches) wider than
    # this are one object under the lattice, no grid of separate cubes. Apart from max_extent (the refit's limit
    # on one face): dark cubes on a dark table and cubes touching their neighbours read 1.06-1.07 on the median
    # (s3131 0433, s5353 0435, s6161 0258 refused) while no incomplete frame was accepted at 1.10 on eight sets.
    # 1.05: the check as before (max_extent's value)
    grid_max_extent: float = 1.10
    # table_cells' cast-shadow rule (the stand-out exception's cells) only for a factor at least this: a cube's cast
    # shadow darkens the table to about half at most, while a gray cube on a light table is the table at 0.31-0.41
    # (s3131 0395, s6161 0405, s6464 0323: refused as an empty cell in shadow). Empty cells so caught: 0.97-1.03,
    # and two at 0.41 in one frame (s6161 0382) that other checks refuse too. 0.0: every factor (as before)
    table_shadow_min_shade: float = 0.45
    # an outlined cell like its gap (table_patch's second rule) is the table's print only when its colour is one of
    # the table's own tones around the grid (vision.shaker_checks.tone_shares, cloth_share): cubes of the table's
    # darker or lighter colours run into a gap of their colour (s5353 0123 black on a dark table, s2929 0074 and
    # 0397 gray and white on gingham were refused). On eight sets of 500: 3 fewer false refusals, no incomplete
    # pattern more accepted. False: every such cell is the print (the reader before)
    patch_gap_tone: bool = True
    # ...and only for a cell with an outline at least this strong (ring): three cells of a printed table at rings
    # 0.0-0.01 beside the grid, in no tone of the table's sampled around it, were so read as cubes and an
    # incomplete pattern accepted (incomplete-only set i7272 0250); the cubes so saved had 0.25-0.51
    patch_gap_tone_ring: float = 0.15
    # out_of_line_cubes counts a shape of the table's own tones beside the grid when a grid cube shows such a tone
    # (that cube may be the cloth's check in the cell, its cube the shape outside): only a grid cube whose outline
    # is weaker than this (verify_cells' ring; empty cells so read: -0.44..0.2, see toned_ring and
    # knocked_toned_ring), or with no outline found at all (an empty cell on a light table, ring 0.3, no outline:
    # i7171 0462 accepted otherwise). Outlined white and gray cubes on gingham (rings 0.6-0.7, s6464 0431) made a
    # white check beyond the grid's corner a cube out of line. inf: any grid cube of those tones (the reader before)
    stray_tone_weak_ring: float = 0.25
    # the chosen lattice's last check (verify_cells' ``faces``, :func:`face_edges`): a cell judged the table yet
    # near a palette colour (face_max_delta_e, CIE76), when face_min_cubes other cells are cubes, holds a cube
    # when its top face's four straight edges show at the lattice's angle: the frame's colour, resampled along
    # the lattice's axes (face_patch pixels over two pitches), averaged along each side over face_band
    # (half-length, pitches), steps across it somewhere in face_edge_range (pitches from the cell's centre) by
    # face_min_snr times the largest step inside the face (face_inner_range) plus face_noise_floor (CIE76), on
    # all four sides; and crisply (face_min_sharpness: the median side's step over 1 frame pixel against over
    # face_broad_px): a cube's face ends at an edge, a cast shadow fades over its penumbra (a gray cube in its
    # neighbours' shadow, a black cube on a dark table: colour alone says table). False: no such look
    face_edges: bool = True
    face_max_delta_e: float = 12.0
    face_min_cubes: int = 7
    face_patch: int = 96
    face_band: float = 0.2
    face_edge_range: tuple[float, float] = (0.2, 0.5)
    face_inner_range: tuple[float, float] = (0.03, 0.15)
    face_noise_floor: float = 0.3
    face_broad_px: float = 3.0
    face_min_snr: float = 2.5
    face_min_sharpness: float = 0.55
    face_max_tone: float = 0.1  # ...and its colour shared by fewer of the table's points around the grid (tone_shares)
    # best_window counts a lattice point just around the window whose top face shows so as a cube (the grid found
    # a row or column beside the pattern, the row it left out gray on a light table). False: colour alone
    window_faces: bool = True
    # ...after the refit, and the window so moved wins with this many more cubes verified (its last look with faces)
    # and none of them in a common table tone (face_max_tone); one more cube was a gingham's texture on seed 3131
    window_faces_gain: int = 2
    # a cell whose top face verify_cells found (face_edges: four crisp straight edges at the lattice's angle) is
    # a cube for table_cells too: that the table in some shade explains its colour is what made the face look
    # needed (a gray cube in its neighbours' shadow). False: table_cells judges it by colour (as before)
    face_vouches: bool = True
    # verify_cells' own face look (its last look at a cell colour calls the table), looser than
    # best_window's (face_min_snr, face_min_sharpness stay its): on the cells of 11 generated sets of 500 refused as
    # "8 cubes in the grid", real cubes' faces at the cell's centre showed snr 2.2-17 at sharpness 0.50-0.55 where
    # the old thresholds missed them; the empty and knocked-out cells there (941) never so with a tone share below
    # face_max_tone. A colour farther from the palette than face_max_delta_e (up to cell_face_far_delta_e) needs
    # snr cell_face_far_snr (an empty cell 12.4 dE from the palette showed snr 2.65, s7676 0459; a real cube 13.5,
    # snr 8.0). A cell of the table's colour and its gaps' (same_as_table) is asked too when cell_face_table_like:
    # its four crisp edges say cube (a gray cube on a light table, 0.7 dE from its gaps: s7979 0409, s6868 0457)
    cell_face_min_snr: float = 2.2
    cell_face_min_sharpness: float = 0.5
    cell_face_far_delta_e: float = 15.0
    cell_face_far_snr: float = 4.0
    cell_face_table_like: bool = True
    # ...and a cell whose colour is one of the table's common tones (face_max_tone or more of its points around the
    # grid) when its face shows this clearly and crisply: a black cube on a dark table, a white one on a light table
    # (real cubes so on the tuning sets: snr 5.5-7.9, sharpness 0.88-0.97; empty and knocked-out cells of such a
    # tone at most snr 2.4 at sharpness 0.7 or more)
    cell_face_toned_snr: float = 4.0
    cell_face_toned_sharpness: float = 0.7
    # an outer row or column of the grid whose three cube cells the table under them darkened by some
    # factor explains within shadow_line_delta_e (d_shadow, CIE76; table_cells' fit) while shadow_line_beyond or
    # more lattice points just beyond the opposite side look like cubes (best_window's) is the cubes' cast shadows:
    # the lattice one line off, the pattern's last line left out (vision.shaker_checks.shadow_lines). Such lines
    # fit within 0.4-2.2 (s5252 0390, s6464 0115 read wrong; s6363 0405, s8484 0344 incomplete); real cubes' outer
    # lines with cubes beyond them from 6.1 up, without from 3.2 (a line of gray cubes on a gray table), in 1803
    # patterns accepted on s5252 s6363 s6464 s8181 s8484. 0.0: off (as before)
    shadow_line_delta_e: float = 3.0
    shadow_line_beyond: int = 1
    # a cube-like shape beyond the grid that stands out from the table (candidate contrast at least
    # knocked_contrast), knocked_reach from a cube cell the table in some shadow explains within knocked_near_table
    # (d_table, CIE76) however well outlined, or lighter than the table (the shadow fit's factor at least
    # knocked_light_shade: a gingham's white check) with a weak outline (ring below knocked_light_ring), nearer it
    # than any other cell, and that the table under it darkened explains no better than knocked_shadow_delta_e
    # (not a cast shadow: those fit within 0.8-2.0, the knocked cubes of i7171 from 8.8), is the cube knocked out of
    # that cell (vision.shaker_checks.knocked_beside_table_cells). Gingham's knocked cubes stood out at 2.96-4.3,
    # their light cells' rings 0.02-0.39; real light cells beside cube sides or a stray 0.48-0.76 (s3131 0306,
    # s7676 0211). knocked_near_table 0.0 and knocked_light_shade inf: off (as before)
    knocked_near_table: float = 15.0
    knocked_contrast: float = 2.9
    knocked_shadow_delta_e: float = 4.0
    # ...nor a shape the table under it tinted as the frame's own shadows are and darkened by a factor in
    # knocked_tint_shades explains within knocked_tint_delta_e (vision.shaker_cube_look.shadow_tint, learnt from the
    # cubes at least knocked_tint_plain from the table): a cube's crisp cast shadow lit by a second lamp of another
    # colour (make-shaker-set --fill-light; 81001 0061: a black cube on dark wood, its shadow a pitch beside it, 10.1
    # from the table darkened evenly, 1.9 from it tinted). Of the frames this check refused (throwaway tint.py), the
    # complete patterns' shapes fit the tint within 0.2 ... 4.3 where the even fit missed (t43001 0287, 80003 0291,
    # 81006 0045), the knocked-out cubes of incomplete ones from 10.1 (t44005 0104; t45004 0004 13.5). Read with it:
    # 80001 ... 80006 and 81001 ... 81006 refuse 7 and 9 complete patterns fewer (all read right), the game's 43001
    # ... 43106 (6895 frames read again) and all its other refused frames (13410) 7 fewer; no reading otherwise
    # changed.
    # 0.0: off (as before)
    knocked_tint_delta_e: float = 5.0
    knocked_tint_shades: tuple[float, float, float] = (0.5, 2.0, 0.02)
    knocked_tint_plain: float = 20.0
    knocked_light_shade: float = 1.13
    knocked_light_ring: float = 0.45
    # a cube cell at least foreign_delta_e (CIE76) from every palette colour and within foreign_gap of a
    # gap beside it is something across the grid, a hand (vision.shaker_checks.foreign_cells). 0.0: off (as before).
    # 14: on 33 sets of 500 the real cubes within foreign_gap of a gap came within 13.5 of the palette (s5151 0226);
    # a hand's cells at 14.2 (s8383 0109, three read gray) and an empty cell at 15.4 (s5151 0291) were accepted at 16
    foreign_delta_e: float = 14.0
    foreign_gap: float = 6.0
    # ...and only where the grid's gaps show: the other cube cells' median d_gap at least foreign_gap. A hand lies
    # across a grid whose other cubes stand apart from their gaps (s6363 0099: 17-53; s8383 0109: 16-66). Glossy
    # stickers with gaps 4 % of the pitch have none to show (the gap disks, gap_sample_radius, straddle the gap into
    # both stickers: every cell's d_gap 0-5), so there a cell like its gap says nothing, and a sticker whose sample
    # holds part of the lamp's highlight (d_palette 14-41) was refused as a hand: 18 of the 24 refused glossy
    # close-ups (make-grid-set --kind glossy --close-up, seeds 400-419). There 376 -> 388 of 400 read right, none
    # wrong, each gain's samples within 0.17-0.44 pitches of its stickers' centres (those read right before:
    # mostly 0.35-0.5); the game's sets t41001-t41010, 43001-43006, 43101-43106, 44001-44006 (14000 frames) read the
    # same, reading and reason, frame by frame. False: on any grid (as before)
    foreign_needs_gaps: bool = True
    # with no shaker contents given, a pattern of the game's colours showing more cubes of a colour than
    # the game's box holds (vision.shaker_checks.box_contents) is refused with the rules' reason. False: not
    # checked (as before)
    box_limits: bool = True
    # a full line of three cube-like lattice points just beyond one side of the settled grid (best_window's)
    # makes twelve in a 4 x 3 block: one of the grid's far line and the line beyond is no line of cubes (a
    # gingham's checks in the cubes' shadows read as gray cubes, the pattern's last line left outside). A line of
    # real cubes shows its outlines: its cells' rings (verify_cells') at least beyond_line_ring on the mean (a black
    # cube on a dark table among them: s6464 0042's far line 0.27, 0.66, 1.34). The grid moves onto the line beyond
    # when most of that line's cells are so outlined (the median: one crisp cube between two gingham checks with no
    # outline is no line of cubes, s9494 0316; two crisp cubes beside a black one on a dark check are, s3737 0493)
    # and its far line is not outlined on the mean (both windows nine cubes); a grid still with such a line
    # beyond and its far line not so outlined is refused (vision.shaker_checks.lines_beyond).
    # (an earlier survey of ~1500 accepted readings: 6 with such a line beyond, 4 right with far lines' rings >= 0.44
    # in every cell, 2 wrong below 0.15; s9494 0316's eight gingham checks read as white cubes: 0.19 on the mean.)
    # On 25 tuning sets and dev (12548 frames): 2 wrong fewer (one refused, one read right), 3 more exact, 1 false
    # refusal fewer, incomplete accepted unchanged (86). 0.0: off (as before)
    beyond_line_ring: float = 0.3

    # verify_cells' face look also takes a face with three crisp sides and a fainter fourth (a neighbour's
    # shadow over one side; three_sides_show): the second weakest side's step this many times the face's inner
    # step plus face_noise_floor (inf: off, as before). On the asked cells of 17 tuning sets (74 real cubes missed,
    # 775 empty or knocked-out cells) it took 5 cubes, no empty cell (the empty cells' highest: 3.3, sharpness 0.59)...
    cell_face_three_snr: float = 4.0
    cell_face_three_weak: float = 0.5  # ...the weakest side's still this many times...
    cell_face_three_sharpness: float = 0.55  # ...the three stronger sides crisp (median sharpness, see face_edges)...
    # ...and its colour this far from the table's in every shade (CIE76): a cell of the table's very colour is as
    # likely a check of its print (a gingham's gray check, d_table 0.2, in a knocked cube's frame, i7272 0031; the
    # cubes so found on 17 tuning sets were 2.8 to 3.5 from it)
    cell_face_three_min_table: float = 1.5
    # print_cells or more cube cells each sharing its colour (disk medians on the working copy, within
    # print_delta_e, CIE76) with print_points or more of the cube-like lattice points just around the grid
    # (best_window's look) are the table's print continuing the lattice beyond the grid, no shake: refused
    # (vision.shaker_checks.print_beyond_cells). A gingham's light checks, crisply outlined, read as six white cubes
    # beside the pattern (s50505 0302: 12-14 such points per cell). On 31 tuning sets (10132 right readings) no
    # right reading had a third cell with more than 2 such points; it also refuses two incomplete patterns
    # accepted (i9898 0499: 10 or more; s61616 0184: 3, 3, 4). 0: off (as before)
    print_cells: int = 3
    print_points: int = 3
    print_delta_e: float = 4.0
    # a cube whose cell's centre, sampled with the same disk, names another palette colour, the reading's own at
    # least this far from it (CIE76, in the cubes' light), is doubted (a tie: the pattern refused as unclear): its
    # sample was beside the top face (a gray cube's lit side read white, s61616 0108, the reading's colour 22.7
    # from the centre's). On 31 tuning sets (10132 right readings) no right reading's cell centre named another
    # colour; five incomplete patterns accepted so (a white read, gray at the centre) were 18.7-32.2 (s8383 0095,
    # s5353 0202, i7171 0139, i9898 0149, s3131 0115). inf: off (as before)
    centre_other_delta_e: float = 15.0

    # the lattice a line off onto the cubes' cast shadows, its far line outlined. A full line of three cube-like
    # lattice points just beyond a side of the settled grid (best_window's) while the grid's line opposite
    # that side lies much nearer the table (in some shadow) than the line beyond: the median of the far line's
    # d_table (verify_cells', CIE76) at least beyond_table_gain below the line beyond's (measured on the window
    # moved onto it). Shadows and lit table read as gray or black "cubes" with outlines (a cast shadow's hard
    # edges: rings 0.41-0.55, so lines_beyond's beyond_line_ring did not move them, sh50505 0366 and 0122), the
    # real line beyond a colour far from the table. The grid moves onto that line when the moved window holds nine
    # cubes and the line's outlines show (outlined_line, most); else the reading is refused. On 30 tuning sets
    # (15000 frames) the windows a line off so seen gained 51-62 (a colourful line beyond shadows or the table), the
    # right windows with a full line beyond at most 20 (sh4848 0064: a dark line of real cubes on a dark table); the
    # incomplete patterns so seen gained up to 61 and were refused (by this or the later checks), one at 30 not
    # outlined. Exact +3, no incomplete or wrong reading accepted more. 0.0 or less: off (as before)
    beyond_table_gain: float = 35.0
    # the lattice a line off onto a gingham's checks about the cubes' size, outlined by their print (61002 0323: a
    # check in each cell of the far line, the pattern's last line of cubes beyond the opposite side). A full line
    # beyond as above while the grid's far line looks like the table (median d_table at most
    # beyond_palette_far_table) and the line beyond like the pieces (its median d_palette at least
    # beyond_palette_gain below the far line's; nearer_the_palette), none of its cells a repeat of the table
    # (repeated_line): the grid moves onto that line when the moved window holds nine cubes and the line's
    # outlines show, as above; else it stays (no refusal: a right lattice's line beyond may be its cubes' cast
    # shadows on the checks, not outlined, 60001 0026, far line 10.8 from the palette, the shadows 3.3). On twelve
    # batches (36000 frames) and the other grids' sets (7580), the line-beyond look was asked on 3254 frames; of its
    # calls with a line to move onto (nine cubes, outlined) and the far line within 15 of the table, five gained 4
    # or more: 0323 (4.8), two incomplete patterns' windows onto checks that repeat (61004 0365, 47004 0443: no
    # move), and lattices the reader did not keep (46002 0233, read right; 45002 0193, refused); the nearest right
    # window gained 2.5 (43101 0471). Read with it, those 3254 frames: only 0323 changed. 0.0 or less: off (as before)
    beyond_palette_gain: float = 4.0
    beyond_palette_far_table: float = 15.0
    # the lattice a line off, the line of cubes beyond its side not on the lattice's points (65001 0041: a gingham,
    # the camera tilted 10.8 degrees, the lattice a column right of the cubes, its far column a dark check and the
    # cubes' lit sides, read black, gray, gray; the cubes' first column a third of a pitch beyond the lattice's
    # points there, two of its three cubes with no candidate: best_window's look saw no full line). faces_beyond:
    # a side of best_window's look with some points like cubes and the others each holding a cube's top face
    # (top_face: its centre within beyond_face_offset pitches of the point, beyond_face_min_extent..max_extent wide,
    # its four edges clear (face_min_snr) and its colour not the table's tone (face_max_tone); sharpness not asked:
    # a face turned off the lattice's angle, 0041's red cube 0.45) is a full line too. When the grid's far line is
    # within beyond_palette_far_table of the table and its median d_palette at least beyond_face_gain above that
    # line's (nearer_the_palette), the grid is doubted (refused: "the lattice a line off?"). 0041: 7.9 against 3.9.
    # beyond_face_offset 0.0: off (as before); beyond_face_gain 0.0 or less: never
    beyond_face_offset: float = 0.5
    beyond_face_min_extent: float = 0.6
    beyond_face_gain: float = 2.0
    # best_window's look after the refit (window_faces) moves the window by a row or column with one cube more
    # verified (not window_faces_gain) when it then holds nine and most of the line it moves onto show a cube's
    # outline (outlined_line: beyond_line_ring): the lattice a line off, its far line a shadow or the table's cell
    # read as an empty cell (8 cubes). window_faces_gain or more: off (as before)
    window_outlined_gain: int = 1
    # an alternative lattice (lattices_per_size, read when the settled lattice holds fewer than nine
    # cubes) wins only when it settles to nine cubes, at least this many more than the refused lattice's. With six
    # lattices per size and any gain, the alternatives read 35 more complete patterns on 27 tuning sets, all but
    # one gaining 2 to 10 (4 -> 9 to 7 -> 9 mostly: a lattice of the wrong pitch or a line off); one complete
    # (sh4848 0497) and one incomplete pattern (s7575 0351: a cell of the gray table outlined by the cubes beside
    # it) gained 1 (8 -> 9), and an alternative short of nine took the place of a refused lattice whose read-again
    # without its size (the retry) was right (s5151 0002). 0: any gain, nine cubes or not (as before)
    alternative_settled_gain: int = 2

    # the faceless toned cells (vision.shaker_checks.faceless_toned_cells). A cube cell whose colour
    # faceless_share or more of the table's points around the grid match (tone_shares: cloth_ring_points,
    # cloth_delta_e) and whose top face's four straight edges at the lattice's angle do not show (face_edges' snr
    # at the cell's centre below faceless_snr) is the table's print in an empty cell: refused (fewer cubes).
    # Of the 112 incomplete patterns accepted on the 40 tuning sets (20000 frames), 73 were on gingham, most an
    # empty or knocked-out cube's cell holding a check outlined by its own edges (tone share 0.05-0.94, snr
    # 0.0-0.8); the cell tests alone did not tell them from real cubes (d_gap, ring, extent: about one right
    # reading lost per incomplete pattern refused). Right readings' cells so toned with so faint a face were white
    # or gray cubes on a light gingham. 40 sets: incomplete accepted 112 -> 63, exact 13399 -> 13387 (false
    # refusals +12), wrong readings 3 -> 3. (0.03 / 0.8: 54 refused, 18 right lost; 0.05 / 1.0: 53 and 22)
    faceless_share: float = 0.05  # above 1: off (as before)
    faceless_snr: float = 0.8
    # (only cells with d_table below faceless_max_table and d_gap below faceless_max_gap are asked, for speed: every
    # cell so refused on the 40 tuning sets had d_table 1.4-37.2 and d_gap 0.1-26.1)
    faceless_max_table: float = 40.0
    faceless_max_gap: float = 30.0
    # ...but on a plain table a cell so taken stays a cube when no light of the table explains it (table_cells' fit,
    # d_shadow, at least faceless_plain_shadow CIE76) and its face's edges show at least faintly (snr at least
    # faceless_plain_snr), the table one colour around the grid (table_is_plain, and table_chroma_spread at most
    # faceless_plain_chroma): vision.shaker_checks.faceless_kept_on_plain. On the game's 41000 frames 41001 ...
    # 53006 the empty cells so taken on plain tables whose face showed at 0.35 or more fit at most 2.49 (47003 0171,
    # snr 0.55); on printed mats 4.6-11 (the print's median model: their mats' spread 6.2-39, plain tables' 95th
    # percentile 4-8); the real cubes so refused on plain tables fit 0.3-3.7. With it, five more read right (43102
    # 0314, 46005 0119, 49005 0075, 50002 0091, 50003 0388: gray or black cubes on a plain table of about their
    # colour); every other frame of those, 54001 ... 54006, the other grids' and shaker-dev read the same, reading
    # and reason. inf: off
    faceless_plain_shadow: float = 2.5
    faceless_plain_snr: float = 0.4
    faceless_plain_chroma: float = 5.0
    # a cube-like shape just beyond the grid with a mate (vision.shaker_checks.line_mates: another such
    # shape within line_mate_tolerance pitches of a lattice point beside its own on the same outer line, in about its
    # colour, line_mate_delta_e CIE76 in the grid's light; the shape itself at least line_mate_min_palette from every
    # palette colour) is one of a line of the cubes' cast shadows, no cube: knocked_beside_table_cells
    # (knocked_line_mates) and out_of_line_cubes (stray_line_mates) leave it out. Complete patterns so refused:
    # shadows beside the grid on wood, gingham or a print, whose model the shadow fit misses (sh4848 0210, sh50505
    # 0122, s8686 0204, sh90919 0062, u24680 0176, ...: mates 0.8-4.1 apart in colour); a knocked-out cube is in a
    # cube's colour and alone (the incomplete frames' shapes with a mate within 12, 16 on the 45 sets, left them all
    # refused by other checks; the nearest in colour beyond that 13.0). Without line_mate_min_palette, two green
    # cubes beyond a lattice a column off were such a line (s8282 0072: a wrong pattern accepted). False: before
    knocked_line_mates: bool = True
    stray_line_mates: bool = True
    line_mate_delta_e: float = 12.0
    line_mate_tolerance: float = 0.3
    line_mate_min_palette: float = 6.0
    line_mate_min_apart: float = 0.5  # (pitches from the shape: another shape, not its own candidate of another size)
    # a cube inside the grid on none of its cells (vision.shaker_checks.cube_between_cells): a candidate of the
    # grid's size on no cell, its contrast at least between_contrast, at least between_offset pitches from every
    # cell's centre, at least between_delta_e (CIE76, the grid's light) from every read cube of the cells it lies
    # between: "a cube is out of line". Measured on every accepted reading of 57001 ... 63006 (throwaway scripts):
    # the one such candidate of contrast 22 or more at 0.3+ pitches whose colour is over 23 from its cells' was
    # 63004 0025's pushed red cube (contrast 36.2, 73.7 from the gray cells beside it: read wrong, its cell read
    # from its cast shadow); the second candidates of cubes read in their cells lie within 23 of them, the cast
    # shadows and gaps as far in colour stand out at contrast 21.1 at most. Read again with the check, every frame of
    # 43001 ... 47006, 43101 ... 43106, 57001 ... 63006 and the other grids' sets (46580): only 0025 changed, refused
    # on its lattice and read right on the re-lattice's. inf: off
    between_contrast: float = 28.0
    between_offset: float = 0.3
    between_delta_e: float = 40.0
    # faint cubes (vision.shaker_checks.faint_cubes, with_faint_cubes). A settled lattice with one cell the
    # cell test took for the table (d_table below faint_max_d_table: a black cube on a dark table, white on a light
    # one, gray on gray) holds a cube there when the cell's colour lies within faint_max_d_palette of the palette and
    # its edge map in the lattice's frame (lattice_edge_maps: log lightness blurred faint_blur pitches, sampled
    # faint_step apart faint_half_span pitches each way, gradients capped at faint_edge_cap) matches each verified
    # cube's by faint_min_similarity (cosine) and their median by faint_median_similarity; the cell then gets a
    # candidate at its centre and is read and checked as any cube (every last look still asks it). On the 45 tuning
    # sets (40 + u61501 u61733 u61877 u62011 u62029, 22500 frames, HEAD 20599ba) the rule with no edge-map test and
    # d_palette up to 8 changed 345 frames: 57 complete patterns more read right, 8 incomplete ones accepted, whose
    # cells' median similarity was 0.31-0.68 (0.31-0.48 with d_palette within 5.5) against 0.60-0.87 for most faint
    # cubes read. 0.45 / 0.62 / 5.5: 32 more read right, none incomplete nor wrong (0.62 / 0.70 / 4.5: 19). Read in
    # full, the 40 sets: exact 13511 -> 13541, false refusals 347 -> 317, incomplete accepted 64 -> 64, wrong 3 -> 3;
    # untouched seeds 66101/66202 (1000 frames): 707 -> 710, 21 -> 18, 3 -> 3, 0 -> 0; dev 40/40. False: off.
    faint_cubes: bool = True
    faint_max_cells: int = 1
    faint_max_d_table: float = 8.0
    faint_max_d_palette: float = 5.5
    faint_min_similarity: float = 0.45
    faint_median_similarity: float = 0.62
    faint_half_span: float = 0.55
    faint_step: float = 0.05
    faint_blur: float = 0.04
    faint_edge_cap: float = 0.6
    # ...and a cell the cell test passed that table_cells or open_table_cells would then take for the table (a
    # black cube on a dark table that the table in shade explains, one with next to no outline) stays a cube when
    # it is the only one, no other cell is faint, and it passes the same colour and edge-map tests
    # (vision.shaker_checks.faint_cubes_kept). On the 45 tuning sets (22500 frames, from 15357 exact): 11 complete
    # patterns more read right, no incomplete one accepted, no wrong reading (without the one-faint-cell rule 17, but
    # a gingham's lattice a column off kept a white check and read wrong: s9494 0151); merge sets 25051/26061 the
    # same. The same look at table_patch's cells accepted 1 incomplete pattern for 5 read, at faceless_toned_cells'
    # 17 for 11 (a gingham's checks): not asked there. False: off.
    faint_cubes_kept: bool = True
    # faint cubes by their bevel (vision.shaker_checks.bevel_lines, bevel_like_the_cubes). A faint cell
    # whose colour lies beyond faint_max_d_palette but within faint_bevel_max_d_palette of the palette (a gray cube
    # on gray, its top face's colour shifted by the table's light) is a cube only when two cues agree: its edge map
    # matches the cubes' (faint_cubes' test) AND its top face shows the bevel highlight the cubes show: on each side
    # (+col, -col, +row, -row) the brightest thin line (faint_bevel_width_px wide, faint_bevel_gap_px from its flanks,
    # sampled faint_bevel_step_px apart) between faint_bevel_from and faint_bevel_to pitches out, its height over the
    # brighter flank in log linear lightness, median over lines faint_bevel_half_length pitches each way along the
    # side. The cell's four (clipped at 0) match the cubes' median by cosine faint_bevel_min_cosine and reach
    # faint_bevel_min_projection along it, and show no line (faint_bevel_foreign) on a side where the cubes show
    # none (below faint_bevel_unlit) opposite a side where they do (faint_bevel_lit): a neighbour's bevel across an
    # empty cell. Measured on the 45 tuning sets' single faint cells refused at HEAD 797c740 (86 complete, 2155
    # incomplete): bevel projection median 0.17 (complete) vs 97th percentile 0.26 (incomplete); with the edge test
    # and d_palette in (5.5, 12]: 11 complete, 2 incomplete pass (one a real faint cube of an incomplete pattern);
    # d_palette up to 16 read 2 more and accepted 2 incomplete ones. The three rules of this block read in full, the
    # 45 sets (22500 frames): exact 15368 -> 15390, false refusals 352 -> 330, incomplete accepted 71 -> 71, wrong
    # 5 -> 5; untouched seeds 67001/67002 (1000 frames): exact 733 -> 735, false refusals 26 -> 24, incomplete
    # accepted 5 -> 5, wrong 0 -> 0; dev 40/40. False: off (today's readings). faint_bevel_min_projection 0.35 ->
    # 0.28 (session 53): four faint cubes of complete patterns refused at 0.28-0.35 (t43005 0399, t47005 0207,
    # t47006 0057, t47006 0283: black or gray on a plain table, cosines 0.83-0.88) are read; over the game's 29000
    # generated frames and the other grids' 5980 nothing else changed, reading or kind (the empty cells whose bevel
    # was measured reach 0.23, those on a gingham's check 0.37 but far from the table's colour: not faint).
    faint_bevel: bool = True
    faint_bevel_max_d_palette: float = 12.0
    faint_bevel_from: float = 0.15
    faint_bevel_to: float = 0.62
    faint_bevel_half_length: float = 0.25
    faint_bevel_step_px: float = 0.5
    faint_bevel_gap_px: float = 1.0
    faint_bevel_width_px: float = 2.0
    faint_bevel_min_cosine: float = 0.7
    faint_bevel_min_projection: float = 0.28
    faint_bevel_lit: float = 0.2
    faint_bevel_unlit: float = 0.15
    faint_bevel_foreign: float = 0.3
    # ...and faint_cubes_kept (a last look's cell of the table kept as the pattern's faint cube) asks a cell whose
    # colour lies beyond faint_max_d_palette (within faint_bevel_max_d_palette) for its bevel too, as faint_cubes
    # reads one (session 53: t43001 0266, a gray cube on a plain light table 5.7 from the palette, read right; the
    # game's 32000 generated frames 41001-41010 and 43001-50006 and the other grids' 5980 read otherwise the same,
    # reading and reason). False: such a cell stays the table (the reader before)
    faint_kept_bevel: bool = True
    # ...and the faint cube so read that table_cells or open_table_cells then take for the table (its colour is
    # the table's: that is why it was faint) stays a cube when its bevel lines are the cubes' too (faint_cubes_kept,
    # faint_cube_kept_by_its_bevel). On the 45 sets 13 frames had their faint cube so removed (11 complete, 2
    # incomplete). False: off (today's readings).
    faint_bevel_kept: bool = True
    # ...and a cell table_patch or faceless_toned_cells takes for the table's print stays a cube when three cues
    # agree: its colour within faint_max_d_palette, its edge map and its bevel lines the cubes' (the one cell, the
    # other eight cubes, none faint: faint_cubes_kept_by_two_cues). On the 45 sets, of the single cells those looks
    # removed with d_table below 8 (16 complete, 49 incomplete), 6 complete passed the three, no incomplete one.
    # False: off (today's readings).
    faint_bevel_kept_looks: bool = True
    # re-lattice (vision.shaker_lattice, read_shaker's relattice). A reading refused with
    # relattice_min_cubes or more cubes on its lattice (for a cube out of line: relattice_out_of_line) is read again
    # on lattices near it: the least squares lattice through its cubes' top faces, its window a row or column over,
    # moved by relattice_shifts of a step (each axis and both), its pitch scaled by relattice_scales about its
    # centre. The relattice_reads whose cells verify most cubes (at least relattice_screen_cubes) are settled and
    # checked in full from the start of settle (every check runs), and the first read whole wins if it lies at least
    # relattice_min_shift pitches from the refused lattice (a cell's centre moved; closer is the same lattice asked
    # twice: on the 45 tuning sets such re-reads were a coin toss, 65 complete patterns read for 45 incomplete ones
    # accepted) and leaves behind no cell the refused lattice verified as a cube with its outline and at least
    # relattice_kept_table from the table (a plainly seen cube; lattices a line over onto a knocked-out cube and the
    # gingham's checks beside it left 4 of 7 such incomplete patterns' cubes of 32-73 behind, 3 of 36 complete
    # patterns' of 32-37). Read only where HEAD 797c740 refused (its readings elsewhere are unchanged), the 45 tuning
    # sets (22500 frames): exact 15368 -> 15398 (false refusals 352 -> 322: read from the window a line over 11, the
    # lattice through the top faces 11, another pitch 6, half a pitch over 2), incomplete accepted 71 -> 71, wrong
    # 5 -> 5. False: off (as before)
    relattice: bool = True
    relattice_min_cubes: int = 5
    relattice_scales: tuple[float, ...] = (0.88, 1.12)
    relattice_shifts: tuple[float, ...] = (0.5,)
    relattice_screen_cubes: int = 8
    relattice_reads: int = 3
    relattice_min_shift: float = 0.3
    relattice_kept_table: float = 30.0
    # the re-lattice's cost (bench-shaker's p95: every refused frame screens its moves and re-reads the best).
    # relattice_screen_left: a move that itself leaves behind a cube relattice_kept_table would keep (left_behind on the
    # move, before its cells are screened) is not screened nor read: its read is kept only if settling carried it
    # back over that cube. False: every move screened (as before)
    relattice_screen_left: bool = True
    # a faint cube a print look removes. A cell faint_cubes read as a faint cube (marked faint) that
    # table_patch or faceless_toned_cells then takes for the table's print is the faint cube itself: its colour is
    # the table's, which is why it was faint, so the look's finding is no news; it stays a cube when its bevel lines
    # are the other eight cubes' (faint_cube_kept_by_its_bevel, as faint_bevel_kept asks after table_cells and
    # open_table_cells). Without it faint_cubes_kept_by_two_cues refused it for being faint already (its one faint
    # cube a pattern counted the cell itself). Of the 30 tuning sets' 1454 frames refused "8 cubes in the grid",
    # 7 had their faint cube so removed (4 complete, 3 incomplete): 2 complete pass, no incomplete one.
    # False: off (as before)
    faint_kept_looks_self: bool = True
    # the checked-cloth test leaves out cubes of the table's own colour.
    # cloth_min_table: a weak cube cell whose colour the table model under it explains within this (d_table,
    # CIE76) is not counted among cloth_cells' checks. It is the table's plain colour (a black cube on a dark
    # table), which table_cells (run before) judges; a checked cloth's other squares differ from the table model.
    # On 30 tuning sets (15000 frames) the cells that made cloth_cells refuse an incomplete pattern had d_table
    # 19.2-35.6; the right patterns so refused were black cubes on plain dark tables (1.1-3.7) and gray on a
    # printed mat (4.8-6.0). 8.0: faint_max_d_table's "a black cube on a dark table". 0.0: off (as before)
    cloth_min_table: float = 8.0
    # a lattice at a wrong pitch (a gingham's checks, a print, a cube's face cut in cells).
    # retry_any_reason: the retry without the refused lattice's size (retry_without_size: faces wider than the
    # cells, a lattice retry_pitch_ratio times as coarse fitted) for any refusal, not only "N cubes in the grid":
    # a lattice at 0.35-0.85 of the cubes' pitch also refuses with "a cube is out of line" or an unclear colour
    # (of main's 194 false refusals on the 30 tuning sets, 32 were read on a lattice under 0.85 of the true
    # pitch; their faces' median extent 0.84-1.29 pitches against 0.64-1.03 on 240 exact readings). On the 30
    # tuning sets (15000 frames): exact 11073 -> 11076, false refusals 195 -> 192, incomplete accepted 55 -> 55,
    # wrong 3 -> 3 (t41003 0050, t41007 0189, t41008 0042 read; nothing else changed). False: only "cubes in
    # the grid" (as before)
    retry_any_reason: bool = True
    # A complete pattern refused on a lattice shifted or partly off.
    # relattice_out_of_line: the re-lattice also re-reads a reading refused for a cube out of line (its lattice
    # half a pitch to a line off took a grid cube for a stray, or left a top face off its cell), on the same terms
    # (relattice_min_shift, no plainly seen cube left behind). On the 30 tuning sets (15000 frames; only the 862
    # frames refused so can change): exact 11076 -> 11085, false refusals 192 -> 183, incomplete accepted 55 -> 55,
    # wrong 3 -> 3 (t41002 0208, t41005 0215, t41007 0341, t41008 0468, t41009 0349, t41011 0302 tuned on 1-15;
    # t41020 0270, t41025 0191, t41028 0470 on 16-30). Asking the same lattice again (relattice_min_shift 0 for
    # nine cubes out of line) read 14 more complete patterns but accepted 4 incomplete ones on 16-30 (a cube pushed
    # 0.32-0.33 pitch off its cell, a stray lost on a 0.02-pitch move): not done. Those frames' CPU median 19 -> 34
    # ms. False: not (as before)
    relattice_out_of_line: bool = True
    # A lattice made at the cubes' pitch. A reading still refused after the retry without its size and the
    # re-lattice is read again on lattices fitted afresh (made_lattices): each size's candidates pooled with its two
    # neighbour sizes' (a cube's shapes spread over them; one point per shape, others within made_merge of the size's
    # radius dropped), fitted with a cube's pitch for that size (made_pitch_min-made_pitch_max radii, where the fit's
    # own range pitch_min-pitch_max also takes a gingham's checks, shadows, a lattice over two cubes a cell),
    # made_per_size lattices a size. Only those at least made_pitch_apart off the refused lattice's pitch are
    # screened (the re-lattice looked near it); the made_reads verifying most cubes (at least made_screen_cubes) are
    # settled and checked in full from the start of settle, as a re-lattice move; the first read whole wins unless a
    # cube's top face is under made_min_extent pitches (a check sampled in the cell, t41006 0412 read wrong) or more
    # than made_max_table_cells cubes are of the table's colour (d_table under made_table_d, faint_max_d_table's
    # "a black cube on a dark table": empty cells of a plain table read as its colour's cubes, t41001 0059 and
    # t41022 0122/0130 incomplete patterns accepted; it also costs t41010 0274, t41018 0284, t41030 0052).
    # Oracle (the true lattice from the generator's grid, settled and checked): of main's 60 false refusals on a
    # lattice under 0.85 / over 1.15 of the true pitch, 45 read right from it (at the size nearest a cube's); 0 of
    # 100 refused incomplete frames accepted. 30 tuning sets (15000 frames, main's refused frames re-read):
    # exact 11076 -> 11104, false refusals 192 -> 164, incomplete accepted 55 -> 55, wrong 3 -> 3 (tuned on
    # t41001-t41015: +15; t41016-t41030: +13, the table-cells limit chosen after seeing its 2 incomplete accepted).
    # CPU on main's refused frames: median 33 -> 49 ms, p95 50 -> 74 ms. False: off (as before)
    made_lattice: bool = True
    # A re-lattice's reading asked of the made lattices too (relattice_made_check): a moved lattice can settle
    # stretched, one cell on a cube's cast shadow (s57003 0015, plain light, a low warm lamp: the refused lattice on
    # the shadows below the cubes' rows, moved half a step up and scaled 1.12, its bottom left cell on the black
    # cube's shadow, read gray, its cubes' faces 0.12 pitches off their cells on the median). When the made lattices
    # read another pattern, the reading whose cubes' top faces lie nearer their cells (the median offset) is kept; a
    # tie (within relattice_made_margin pitches) is refused: two lattices, two patterns. False: the re-lattice's
    # reading kept as it is (the reader before)
    relattice_made_check: bool = True
    relattice_made_margin: float = 0.02
    # A re-lattice's reading asked of the read without highlights too (relattice_glare_check, glare_retry on): on
    # glossy stickers a highlight splits each sticker, the faces are found beside it and a lattice moved half a step
    # can read nine pieces on the gaps between them, each disk straddling two (make-grid-set --kind glossy seed 116
    # frame 14: three pieces read as a neighbour's colour, faces 0.11 pitches off their cells on the median), where
    # the read without highlights (glare_reading, kept only where its own lattice's cells show highlights taken off)
    # reads them 0.03 off. A reading it keeps with another pattern is weighed as the made lattices' is (made_check's
    # rule: the faces nearer their cells, a tie refused). Read again: the 87 frames whose reading was a re-lattice's in
    # the per-frame readings kept (62 game frames of 21000, 25 of the other grids), then every frame of 43001-43006,
    # 43101-43106, 44001-47006, 57001-59006 and the other grids' sets: 116_14 the only change. False: the re-lattice's
    # reading kept as it is
    relattice_glare_check: bool = True
    made_pitch_min: float = 2.0  # a made lattice's pitch, in radii of the size fitted (the fit's: 1.9-5.0)
    made_pitch_max: float = 3.2
    made_merge: float = 0.35  # pooled points closer than this (radii) are one shape
    made_per_size: int = 2  # lattices made per size
    made_pitch_apart: float = 0.15  # only pitches this far (fraction) from the refused lattice's
    made_screen_cubes: int = 8  # cubes verified on a made lattice before it is read
    made_reads: int = 4  # made lattices read at most
    made_min_extent: float = 0.5  # a made reading's smallest top face (pitches)
    made_max_table_cells: int = 3  # a made reading's cubes of the table's colour at most...
    made_table_d: float = 8.0  # ...(d_table under this, CIE76)
    # made_same_pitch: made lattices within made_pitch_apart of the refused pitch are screened and read too, each kept
    # as a re-lattice move is (moved at least relattice_min_shift from the refused lattice, no plainly seen cube left
    # behind: a made lattice re-reading the refused one from another size accepted 23 incomplete patterns on the 30
    # tuning sets), and with at most made_same_pitch_table_cells cubes of the table's colour (d_table under
    # made_table_d). Measured on main's refused frames of the 30 tuning sets, against the other pitches only (+28):
    # with the limit 3 (made_max_table_cells') exact +57 (t41001-t41015 +34, t41016-t41030 +23) and incomplete
    # accepted +1 (t41003 0237: a lattice a row off moved onto the pattern, the gingham's checks in its two empty
    # cells read as gray cubes, d_table 1.4-1.6); with 1 (chosen on that tuning-half frame) exact 11076 -> 11121,
    # FR 192 -> 147 (t41001-t41015 +29, t41016-t41030 +16), incomplete accepted 55 -> 55, wrong 3 -> 3. CPU on the
    # refused frames median 33 -> 58 ms, p95 50 -> 87 ms (other pitches only: 49, 74). False: only other pitches
    made_same_pitch: bool = True
    made_same_pitch_table_cells: int = 1  # ...and such a reading's cubes of the table's colour at most
    # made_whole_cubes: a made lattice that puts two or more of its cell centres within half a pitch of a plainly
    # seen cube of the refused reading (outlined, relattice_kept_table or more from the table: left_behind's "plain"
    # cube; vision.shaker_lattice.divides_plain_cubes), each read as that cube's colour, divides that cube: it is not
    # read (cells of other colours there are other cubes: s9494 0316, the refused lattice on a gingham's checks
    # coarser than the cubes, is read on its made lattice). A glossy close-up with a sticker missing (its lattice on
    # the stickers refused, "8 cubes in the grid") was read as a complete pattern on a made lattice at half the
    # stickers' pitch, two to four cells a sticker (1 of 600 such grids, throwaway set). The game's sets 41001-41010
    # and 43001-47006 (23000 frames) and the other grids' (4780) read the same, reading and reason; the other 599
    # holed grids too. False: every made lattice read (as before)
    made_whole_cubes: bool = True
    # made_one_face_delta_e: a made lattice that puts two neighbouring cells of one colour on one face is not read
    # (vision.shaker.one_face_pairs: every pixel of the segment between their samples, from 20 to 80 % of the way,
    # within this of the two samples' mean colour, CIE76 on the frame lightly blurred: no gap between them). A puzzle
    # close-up turned about 12 degrees (make-grid-set --kind puzzle --close-up, seed 314 frame 10), refused on a
    # turned lattice, was read on a made lattice at 0.6 of the stickers' pitch, two cells on one sticker in places
    # (that pair's segment within 0.5), six cells wrong. Of the 806 readings made lattices gave on the game's 43001 ...
    # 43006, 44001 ... 47006, 57001 ... 58006 and the other grids' sets, the 799 right ones kept a gap on every such
    # pair, the nearest 1.8 (glossy stickers with tight gaps, seed 90 frame 2) and 2.5; an incomplete pattern accepted
    # had 2.3. 0: off
    made_one_face_delta_e: float = 1.0
    # What a refused frame costs (bench-shaker's p95: a refused reading screens and reads made lattices).
    # The four below together, CPU on one core of a shared machine, main's tree and this one alternately per set:
    # 1297 of main's refused/re-read tuning frames median 56.6 -> 46.0 ms, p95 83.1 -> 71.4 ms; bench-shaker p95 (3
    # pairs) 65.5, 68.6, 66.8 -> 50.5, 54.0, 53.9 ms. made_next_if_near's part (432 frames, in one process
    # alternately): median 49.0 -> 44.5 ms, p95 69.6 -> 62.2 ms; it lost 2 exact readings on the tuning sets and 1 on
    # 500 untouched frames (seeds 151601/151602: u151602 0003); the other three lost none.
    # made_screen_left: a made lattice within made_pitch_apart of the refused pitch (kept only as a re-lattice move
    # is) is neither screened nor read when it leaves behind a plainly seen cube of the refused reading as it starts
    # (left_behind, as relattice_screen_left for the re-lattice's moves: its keep rule refuses it unless settling
    # carries it back over that cube). 30 tuning sets, main's 3818 refused frames and the 72 its re-reads read: no
    # reading changed. Asking also that it start at least relattice_min_shift from the refused lattice lost 3 exact
    # readings (t41006 0412, t41011 0259, t41015 0407: started 0.16-0.29 pitch off, settled 0.30-0.32 off).
    # False: every made lattice screened (as before)
    made_screen_left: bool = True
    # made_next_if_near: a size's next made lattice (made_per_size) is made only when its best lies within
    # made_pitch_apart of the refused pitch (about the lattice the re-lattice looked near already: the next is where
    # another pitch lies); a size whose best lies apart gives that one only (its next is mostly the same cubes at a
    # worse fit). Of the 38 made-lattice wins on the 30 tuning sets 4 were a size's next lattice; 2 of them had a best
    # apart (t41003 0170, t41018 0332: lost). False (kept so: three readings lost for 4.5 ms on a refused frame's
    # median): made_per_size lattices a size
    made_next_if_near: bool = False
    # made_screen_min_shift: nor is a made lattice at about the refused pitch screened that starts under this many
    # pitches from the refused lattice (moved_by): the refused lattice itself, about, which settling takes back under
    # relattice_min_shift (not kept). On 292 refused tuning frames all 178 such reads were "not kept"; main's wins on
    # a made lattice near the refused one started 0.16 pitch off or more (0.3: 3 exact lost). 0.0: off (as before)
    made_screen_min_shift: float = 0.15
    # relattice_min_start: a re-lattice move that starts under this many pitches from the refused lattice (moved_by:
    # the lattice through the cubes' top faces where they sit on its cells) is neither screened nor read: the refused
    # lattice itself, which settling takes back (on 292 refused and the 72 re-read tuning frames all 165 such reads
    # were "not kept"; the moves read whole started 0.12 pitch off or more). 0.0: off (as before)
    relattice_min_start: float = 0.1
    # A cube the cell test missed, seen by its cast shadow (vision.shaker_cube_look.with_solid_cubes,
    # cast_shadow_cells): a cube of about the table's colour fails the cell test as an empty cell does, yet it is
    # a solid under the lamp and throws a shadow the way the verified cubes do. With at most solid_max_cells cells
    # refused, each within solid_max_d_palette of a palette colour, such a cell is read as a cube (and checked as
    # any cube) when the table where only its cube would throw a shadow is as dark as the cubes' shadows are; a
    # last look that takes such a cell for the table (solid_cubes_kept) keeps it so. Measured (the thresholds chosen
    # on cue dumps of all 30 tuning sets' refused frames): on the right lattice 18 of 61 missed cubes of main's false
    # refusals show their shadow, 0 of 480 empty cells of incomplete patterns do; a top face's square outline at its
    # own turn (Lab edges, -20..20 degrees) and the side faces' band did not separate them. Main's 3818 refused
    # frames of the 30 tuning sets: exact 11124 -> 11135 (t41001-t41015 +5, t41016-t41030 +6), incomplete
    # accepted 55 -> 55, wrong 3 -> 3; all 15000 frames re-read: no other frame changed kind (one empty cell of an
    # incomplete pattern on a printed table, t41027 0295, was taken for a cube: refused for its other empty cell).
    # Untouched seeds 151501/151502 (500): exact 365 -> 366, incomplete accepted 2 -> 2, wrong 0 -> 0. CPU on
    # refused frames (t41001-t41003, 403): median 58.0 -> 58.9 ms, p95 80.7 -> 101 ms. Dropped: solid_step 0.1
    # (p95 91 ms; as many read, but t41024 0286, an incomplete pattern, accepted); asking the cell where a homography
    # of the verified cubes' shapes puts it (not at its lattice centre): as many read, other frames.
    solid_cubes: bool = True  # False: as before
    solid_max_cells: int = 2
    solid_max_d_palette: float = 12.0  # CIE76, the cell test's d_palette
    solid_min_cubes: int = 7  # verified cubes that show the shadow
    solid_step: float = 0.05  # the lattice-frame sampling (pitches)
    solid_margin: float = 1.2  # pitches around the grid where the shadow is learnt
    solid_half: float = 0.36  # a top face's half side (pitches), swept into its shadow
    solid_exclude: float = 0.42  # half side of each cell's square left out (a cube, its bevel and near sides)
    solid_lengths: tuple[float, ...] = (0.35, 0.6, 0.85, 1.1)  # shadow lengths tried (pitches)
    solid_min_area: float = 0.04  # square pitches: the least region a darkness is read on
    solid_min_shadow: float = 0.3  # the cubes' shadows at least this dark (log linear lightness)
    solid_local: float = 1.6  # pitches around the cell where its lit table is read
    solid_min_dark: float = 0.4  # the cell's own shadow region at least this dark (log linear lightness)...
    solid_rel: tuple[float, float] = (0.65, 1.4)  # ...and this many times the cubes' shadows
    solid_max_noise: float = 0.15  # the lit table's interquartile range there at most (a print's dark squares)
    solid_max_spread: float = 2.0  # the cell's shadow region's own interquartile range at most (an even shadow)
    solid_off_cell: float = 0.5  # a candidate this far (pitches, either axis) from every cell's centre is off the grid
    solid_other_half: float = 0.55  # ...its square's half side left out (pitches; a knocked-out cube is turned)
    # ...and the pattern's faint cube that a last look takes for the table stays on a table of no busy print (the
    # frame's mean_edge_strength at most faint_shadow_max_edges) when its cast shadow agrees
    # (vision.shaker_cube_look.faint_cube_kept_by_its_shadow): the cell read by faint_cubes, or as it reads one
    # (d_table under faint_max_d_table, its colour within faint_max_d_palette of the palette, its edge map the
    # cubes'), the only cell the look takes, the other eight cubes and none faint, and as cast_shadow_cells measures
    # it its own shadow region at least faint_shadow_min_dark darker than the lit table (log linear lightness), the
    # lit table's spread there at most faint_shadow_max_noise, the region even (solid_max_spread). solid_rel and
    # solid_max_noise are not asked: solid_cubes_kept asks them of a cell no other cue vouches for. Measured
    # (session 62) on the final lattices of the 7012 frames of 43001-47006, 43101-43106, 57001-67006 refused "8
    # cubes in the grid" (128 complete, 6884 incomplete): of the refused cells that pass faint_cubes' test (20 of
    # complete patterns, 28 of incomplete ones) the complete patterns' were 0.42-1.61 darker in 10 (0.34 and below
    # in the rest), the incomplete ones' 0.29 and below but one on a gingham (1.19: its dark checks). Read in the
    # reader (with the shapes off the cells left out), the empty cells kept without the table's print asked were all
    # on a gingham (62003 0031: 1.11 dark, the lit table's spread 0.82; mean edge strength 5.4, 64006 0168 7.7,
    # 65005 0148 9.7); the complete patterns' kept on plain tables had spreads 0.05-0.83 and mean edge strengths
    # 0.55-1.36. 3.5: between the other tables' (up to 3.2) and the ginghams' (4.8 and more); table_is_plain is not
    # asked (a busy table's re-read lowers its factor: 62003 0031 there "plain"). faint_shadow_min_dark inf: off
    # (the reader before)
    faint_shadow_min_dark: float = 0.4
    faint_shadow_max_noise: float = 0.9
    faint_shadow_max_edges: float = 3.5
    # A re-read's settling stopped once its lattice cannot be kept. A refused frame's re-reads (the
    # re-lattice's moves, the made lattices at about the refused pitch) mostly end "not kept" (settled back under
    # relattice_min_shift from the refused lattice, or leaving a plainly seen cube of it behind). After the refit
    # the lattice only moves by whole rows and columns (best_window with faces: one step either way; a line beyond:
    # one step; a full line beyond: one more), so when none of its 7 x 7 such windows could be kept (each surely
    # under relattice_min_shift, or surely leaving such a cube behind: 1e-6 pitch to spare) the read is refused
    # there ("re-lattice: not kept", as it would be after its last checks). The same readings (the 3890 refused and
    # re-read tuning frames: kind, reason and pattern all as before); their CPU (main's tree alternately per set)
    # median 49.1 -> 47.2 ms, p95 88.7 -> 84.5 ms (on t41001 67 of 102 such checks stopped). A memo of where settling
    # ends was measured first: of 375 settle states (start, moved window, refit) on 40 frames 2 repeated, and 115
    # settles ended on 115 distinct lattices (near the refused one, not on it). False: as before
    settle_stop_not_kept: bool = True

    # the read frames' lattice stage, cheaper
    # settling a lattice whose nine cells are verified cubes skips best_window's look (no moved window can hold more
    # than nine: it was asked only for the count around, kept in debug as None). False: as before
    settle_nine_no_window: bool = True

    # a line of the cubes' shadows on a patterned table
    # an outer row or column of the settled grid whose three cube cells are each at least palette_line_delta_e
    # from every palette colour (d_palette, CIE76) and within palette_line_table of the table in some shade
    # (d_table), with palette_line_beyond or more cube-like lattice points just beyond the opposite side
    # (best_window's look), is the cubes' cast shadows on a gingham (no darkened-table fit: shadow_line_delta_e
    # misses them), the lattice a line off: refused (vision.shaker_checks.off_palette_lines). On the 30 tuning sets
    # t41013 0434 (wrong: d_palette 18.3, 10.9, 17.5; d_table <= 15.8; 2 points beyond) and t41008 0044
    # (incomplete accepted: 9.5, 9.9, 16.4; <= 13.9; 2 beyond); on the 11137 exact readings no outer line's
    # nearest-the-palette cell farther than 7.8 (d_table 60 and more), within 30 of the table 6.6. inf: off.
    # Under a second lamp of another colour (make-shaker-set --fill-light) the shadows are tinted and lighter: read
    # black 7.6 ... 12.2 from the palette, the lattice squashed a line off, the line left out a third of a pitch off
    # its points beyond, one of three like a cube (80002 0120 and 80003 0248, complete, read wrong; 80006 0055,
    # 80006 0065 and t67004 0070, incomplete, accepted). On 70548 frames (the game's 43001 ... 47006, 43101 ...
    # 43106 and 57001 ... 70006, 80001 ... 80006, the other grids' sets, the dev photos varied) the 54246 right
    # readings' outer lines within 30 of the table: nearest cell at most 6.9 from the palette (g_glossy400c 417_06;
    # t59003 0366, black cubes on a dark cloth, 6.8) but one, 13.4 with no point beyond (g_puzzle400c 417_06: a
    # puzzle cube's white stickers against a pale palette white). The reader before: 8.0 and 2
    palette_line_delta_e: float = 7.2
    palette_line_table: float = 30.0  # ...each cell this near the table (d_table, CIE76)...
    palette_line_beyond: int = 1  # ...and this many cube-like points beyond the grid's opposite side

    # a cube cell with no top face at its point (top_face found none: the colour there differs from its own small
    # spot's, so no region of one colour holds it; the reading records extent 0) whose colour the table in some
    # shade explains within spotless_table_delta_e (d_table, CIE76) is the table (a print's line, a check's edge
    # through an empty cell), unless it casts a cube's shadow (solid_cubes_kept): "N cubes in the grid"
    # (vision.shaker_checks.spotless_table_cells). On the 30 tuning sets the incomplete patterns accepted so had
    # d_table 12.2-22.0 (t41003 0048, t41010 0241, t41025 0192, t41026 0054: a check's or print's edge in a
    # cell left empty); the exact readings' faceless cubes were blue and red, d_table >= 57.7. 0: off (as before)
    spotless_table_delta_e: float = 35.0
    # ...and a whole outer line of cubes with no top face at any of its points (extent 0 on all three) is no line of
    # pieces: the lattice a line off, onto a puzzle cube's side face, whose squashed pieces put their gaps across the
    # cells' points (make-grid-set --kind cube --close-up, seed 806 frame 4, read a row down before). Refused, the
    # frame's other looks read after: vision.shaker_checks.faceless_line. On session 54's dump of 41028 readings (the
    # game's 41001-53006 and the other grids at fb49145) such a line came in three valid readings: 806_04 and two
    # glossy ones read right (their rings below 0: stickers with gaps too tight to outline them), none of the game's.
    # False: no such check (the reader before)
    faceless_line: bool = True

    # made_same_pitch_table_cells (1) was chosen on a gingham (t41003 0237: its checks in two empty cells read as
    # gray cubes). On a plain table an empty cell shows no print to be outlined, and a cube of the table's colour
    # (black on a dark table, gray or white on a light one) is common: a made lattice at about the refused pitch
    # read such patterns right and was dropped for their 2-3 cubes of the table's colour. On a table that is not
    # busy (the frame's mean edge strength does not lift find_cubes' threshold above response_min: the finder's own
    # test, table_is_plain) such a reading may have this many (made_max_table_cells' 3 for the other pitches).
    # All 15000 frames of the 30 tuning sets against main 79f5fd7 (/tmp/s17/tB), with made_elsewhere_gap: exact
    # 11136 -> 11148 (this one 10: t41007 0187, t41008 0341, t41013 0148, t41014 0096, t41016 0145, t41020 0475,
    # t41021 0149, t41027 0433, t41028 0244, t41030 0293), FR 133 -> 121, incomplete accepted 54 -> 54, wrong 2 -> 2,
    # nothing else changed; untouched seeds 171761/171762 (500): none changed. Lifting both limits (9) read 3 more
    # right and accepted 4 incomplete patterns (t41001 0059, t41022 0122/0130 at other pitches; t41003 0237 gingham).
    # 0 (or at most made_same_pitch_table_cells): as before
    made_plain_table_cells: int = 3
    # a made lattice at about the refused pitch that lies elsewhere in the frame (no cell centre of it within this many
    # refused pitches of any of the refused lattice's: made_elsewhere) re-reads none of the refused reading's cubes,
    # so it is no re-lattice move: read as a made lattice at another pitch is (no keep rule, made_max_table_cells).
    # Where the first lattice took a box, a hand or stray cubes 10-18 pitches from the pattern (t41011 0476,
    # t41014 0332) the keep rule refused every made lattice on the pattern for leaving those "plainly seen cubes"
    # behind. Main's 3891 refused/re-read tuning frames: those two FR -> exact, nothing else changed. 0.0: off
    made_elsewhere_gap: float = 2.0
    # the fixed stages cheaper
    # find_cubes sums its boxes over the edge map in whole units (edge_strength's weights 0.6 / 8 and 1 / 8 make
    # every value a multiple of 1/40: 16-bit integers), exactly, by OpenCV's integer box filter (about a third
    # cheaper than the float32 filter's double sums), and the threshold's mean edge strength by cv2.mean (double
    # sums; np.mean's float32 pairwise sum differs in its last bits). The responses are the same up to the float
    # sums' rounding. All 15000 frames of the 30 tuning sets per frame against main (/tmp/s17/tE): none changed
    # (kind, reason, pattern); nor 500 untouched frames (seeds 182001/182002), nor 1500 (t41001/11/21) on OpenCV
    # 4.11 (the Pi's). CPU in-process against main (160 frames of t41007/13/19/25, alternating, 3 rounds,
    # per-frame min, one thread, loaded machine): the fixed stages -0.46 ms, the whole read -0.48 ms (paired
    # medians). False: the float32 map's boxes and np.mean, as before
    find_integer_edges: bool = True

    # the read path of an accepted frame, cheaper (readings measured)
    # lazy_size_margin: a frame's first read builds, measures and judges the first lattice only of the sizes whose
    # best lattice hypothesis (lattice_hypotheses' window score) lies within this of the best size's; the others'
    # (few cubes alone in a window: rarely the most plausible) are left out. A reading so made that is short of nine
    # cubes once settled, or refused, is read again with every size (the frame's work and verified cells reused):
    # only accepted readings can change. 2.0: all 15000 frames of the 30 tuning sets as main's (acd2cac), frame by
    # frame (on t41001-t41002 the lattices built, measured and judged fell from 4.15 to 2.53 a frame; the sizes left
    # out never held the verified lattice at 4.0, and at 2.0 changed the lattices verified in 7 of 740 accepted
    # frames, none's reading); the photoreal dev set as before (40/40; also at 1.0). CPU, one thread, interleaved
    # (ptcmp, 200 frames of t41007/13/19/25 x 3): accepted frames -0.4 to -0.7 ms a frame (paired median), refused
    # frames +0.5 to +0.75 ms (read twice, the searches and verified cells reused).
    # inf: off (every size, as before)
    lazy_size_margin: float = 2.0
    # refit_reuse_below: a settled lattice of nine outlined cubes, each far from the table (d_table at least
    # table_same_delta_e: no gap can make it the table), whose refit (refine_grid) keeps every candidate and moves no
    # cell's centre by this many pitches keeps its cell tests: no second verify_cells, only the gaps beside the cells
    # (d_gap) measured anew on the refitted lattice, and its cubes' colours as sampled then (disks of the pitch before
    # the refit: the same samples and gains, no third fit). 0.15: all 15000 frames of the 30 tuning sets as main's
    # (acd2cac), frame by frame (with lazy_size_margin 2.0 too); dev 40/40; on 69 accepted frames of t41009/t41022
    # verify_cells calls fell from 2.09 to 1.52 a frame (0.25: 1.43; the rest not nine outlined cubes far from the
    # table). CPU, one thread, interleaved (200 frames of t41007/13/19/25 x 5, lazy_size_margin on in both): accepted
    # -0.27 ms a frame (paired median), refused +0.07. Measured and dropped: the cell tests kept whole (d_gap stale)
    # on any nine cubes lost 18 exact readings (FR 121 -> 139: a cube found by its colour, taken as outlined once
    # refitted; gaps on the cubes' sides, 'no grid of separate cubes'); the refit's top faces kept for the offsets
    # (9 top_face calls fewer, about -0.8 ms with the rest) changed no tuning frame but accepted an incomplete pattern
    # (s2222 0194, tests/vision/test_shaker.py: a table patch's region clipped by the face window about the cell
    # before the refit, extent 1.07 against 1.11). 0.0: off (as before)
    refit_reuse_below: float = 0.15

    # the table's own repeat (vision/shaker_repeat.py): on a busy table (table_is_plain false) whose picture
    # repeats (its lightness' autocorrelation peaks at two periods of at least repeat_min_period working px, each
    # reaching repeat_min_peak), a cell read as a cube is the table when its patch (repeat_half pitches each way)
    # lies under repeat_same_max (CIE76, the mean of its nearest repeat_kept_share pixels) from the second nearest
    # of the patches the periods carry it to (shifts of up to repeat_span periods each, landing repeat_clear
    # pitches or more from the grid's centre cell and at most repeat_reach from the cell): a gingham's check read
    # as a white or gray cube. All 15000 frames of the 30 tuning sets against main 6369dca: incomplete patterns
    # accepted 53 -> 44, all on gingham (t41001 0285, t41002 0432, t41004 0106/0331/0375, t41015 0111, t41017 0002,
    # t41018 0453, t41023 0234), nothing else changed; the lowest distance of a cube in the 1812 gingham patterns
    # read right is 2.35 (t41025 0417). Sets made after the choice (33301-33303): incomplete accepted 4 -> 2
    # (f33303 0222, 0337), nothing else changed. Measured and dropped: the plain mean over a patch 0.35 pitches each
    # way (a white cube's top face over a white check matches the check's repeats: the lowest cube 2.4, 6 of the 28
    # caught at no loss), 0.5 with the plain mean (lowest cube 4.4: 6 caught). Cost: the periods once a frame (a
    # packed DFT, about 3 ms) and about 15 ms of patches on a reading still accepted on a busy repeating table.
    # False: off
    repeat_cells: bool = True
    repeat_min_period: float = 8.0
    repeat_min_peak: float = 0.6
    repeat_half: float = 0.5
    repeat_kept_share: float = 0.75
    repeat_span: int = 6
    repeat_clear: float = 2.4
    repeat_reach: float = 8.0
    repeat_same_max: float = 2.0
    # ...and on a table the edge test calls plain (table_is_plain) too, when a cube cell's colour is one of the
    # table's own tones around the grid (the faceless check's tone share, at least faceless_share): a low-contrast
    # gingham whose checks, as large as the cubes and turned with the grid, the lattice took a row over (55004 0204,
    # generated after 10fec9a: the top row on white, gray and white checks, repeat distances 0.7-1.1, read wrong;
    # the cubes' bottom row left out). Most plain tables do not repeat (no periods: nothing more is asked). False: off
    repeat_toned_plain: bool = True
    # ...a cell so refused there only when its colour is no plain table's in any shade (d_table at least
    # repeat_plain_min_table): the plain table around explains a gray cube of about its colour as well as a check
    # (51006 0008: a plain light table the cubes' own lattice gives periods, a gray cube at d_table 2.6, repeat 1.8)
    repeat_plain_min_table: float = 10.0

    # the last check of an accepted lattice: a grid whose edges run across it is refused. The edges inside the grid
    # (gradients of the frame warped onto the lattice's square, each weighted by its strength) averaged as cos(4 x
    # their angle to the lattice's steps (:func:`edge_alignment`): 1 along the steps, -1 diagonal to them, about 0 in
    # every direction alike. Glossy stickers with tight gaps (a puzzle cube's face: gaps 2-5 % of the pitch, a
    # highlight in each sticker's middle) give the finder the stickers' parts, and a lattice at 3/4 or 1/sqrt(2) of
    # the stickers' pitch, turned about 45 degrees against them, passed every other check: a misread. Those lattices
    # read -0.54 and -0.55 (grid_scene("glossy") seed 52 frames 12 and 17, tests/vision/test_other_grids.py); right
    # readings: tuning sets t41001-t41006 (2252 frames) 0.22-0.79 (1 % under 0.32), shaker-dev 40 of 40 0.28 or more,
    # the glossy stickers 0.55 or more, painted tiles and puzzle faces 0.77 or more, round pieces (discs on a lattice,
    # read 40 of 40) 0.03-0.07: the floor lies well below them all. Tuning sets t41001-t41010 read the same with it
    # and without. Glossy frames, right / wrong / refused: seeds 52-57 (120) 48/0/72 with it, 48/3/69 with neither it
    # nor the check it replaced; seeds 58-64 (140, drawn after it was chosen) 60/2/78 and 60/5/75 (the two left: a red
    # read orange, a lattice squashed across the stickers, 0.64 and 0.66); grids of 80-520 px, gaps 2-5 % (160) 58/0/102
    # and 56/4/100. It replaces session 39's check of the finder's larger shapes (nine shapes wider than a cell on a
    # coarser lattice of their own over the grid): on those 420 glossy frames that check refused nothing this one
    # does not (it alone left 2 of the last 160 read wrong), and it refused 3 of 180 puzzle faces drawn smaller (grids
    # of 60-260 px in a 1024 px wide frame) that are read right without it. -inf: off
    min_edge_alignment: float = -0.25
    # ...and a grid whose cubes show no top face at their cells is refused (:func:`between_pieces`): a cube's colour
    # sampled at its cell (its face point) lies in a region of that colour (cube_offset's face), while a sample across
    # two pieces and the gap between them (a lattice that falls between the pieces) is a mix no region around it
    # shares. faceless_cubes or more cubes with no face found there, or one under faceless_extent (pitches) wide,
    # refuse the grid. Right readings of tuning sets t41001-t41010 (3748 frames): 7 with one such cube, none with
    # two. Glossy stickers split by their highlights (grid_scene("glossy"), seeds 52-90, 334 right): at most 3; the
    # lattice squashed across the stickers that read seed 59 frame 6 wrong (its first column on the gaps): 5. Fewer
    # such cubes, faceless_squashed_cubes or more, refuse a lattice squashed past faceless_squash (the log of its ratio
    # of steps, columns over rows: 0.2, a fifth shorter one way, as a square grid looks from a camera 35 degrees off
    # overhead): the lattices that read seed 62 frame 6 and seed 86 frame 13 wrong, two such cubes each, 0.35 and
    # 0.38; the 11 right readings of seeds 52-90 with two or more such cubes 0.10 or less. Seeds 91-130 (800 frames,
    # drawn after both were chosen), right / wrong / refused: 346/1/453 with them, 347/3/450 without: two lattices
    # between the stickers refused (five such cubes each; the squashed rule fired on none), one right reading refused
    # (five cubes sampled where a lamp's highlight fades into its sticker: a mix too), one left wrong (116 frame 14, a
    # lattice squashed across the stickers, one such cube). faceless_cubes and faceless_squashed_cubes 10: off
    faceless_cubes: int = 4
    faceless_extent: float = 0.1
    faceless_squashed_cubes: int = 2
    faceless_squash: float = 0.2


DEFAULT_SETTINGS = ShakerSettings()

ROTATIONS = (0, 90, 180, 270)

# While fitting, other candidates near a lattice count against it (a gentle penalty, see Grid.stray_near):
# those of about the grid's size and contrast, not on a cube of the grid.
_NEAR_SIZE_RATIO = 0.72
_NEAR_CONTRAST_RATIO = 0.5
_NEAR_MIN_DISTANCE = 0.75


class GridNotFound(VisionError):
    """No 3 x 3 grid of cubes could be found in the frame."""


@dataclass(frozen=True)
class Candidates:
    """Cube-like blobs: centres (x, y) in frame pixels, inscribed radius in frame pixels, contrast."""

    xy: np.ndarray
    radius: np.ndarray
    contrast: np.ndarray
    scale: float  # frame pixels per working pixel
    strength: np.ndarray | None = None  # the edge-ring response (None: unknown)

    def strength_or_ones(self) -> np.ndarray:
        return self.strength if self.strength is not None else np.ones(len(self.xy))


_GRID_R = np.repeat(np.arange(3.0), 3)  # (Grid._centres: cell (r, c) at row 3 * r + c)
_GRID_C = np.tile(np.arange(3.0), 3)


@dataclass(frozen=True)
class Grid:
    """A fitted 3 x 3 lattice: centre of cell (r, c) = origin + c * col_step + r * row_step (frame px)."""

    origin: np.ndarray  # cell (0, 0), the top-left as seen in the image
    col_step: np.ndarray
    row_step: np.ndarray
    cell_candidate: tuple[tuple[int, ...], ...]  # index into candidates, -1 when empty
    support: int
    stray_near: int  # candidates near the grid that sit on no grid cell
    score: float = 0.0
    strays: tuple[int, ...] = ()

    @functools.cached_property
    def pitch(self) -> float:
        return (math.hypot(*self.col_step) + math.hypot(*self.row_step)) / 2

    @functools.cached_property
    def step_ratio(self) -> float:
        """The lattice's ratio of steps: its columns' step over its rows'."""
        return float(np.linalg.norm(self.col_step) / np.linalg.norm(self.row_step))

    @functools.cached_property
    def skew(self) -> float:
        """How far the lattice's steps are from square: |cos| of the angle between them."""
        u, v = self.col_step, self.row_step
        return abs(float(u @ v)) / max(1e-9, math.hypot(*u) * math.hypot(*v))

    def centre(self, r: int, c: int) -> np.ndarray:
        if type(r) is int and type(c) is int and 0 <= r <= 2 and 0 <= c <= 2:
            return self._centres[3 * r + c].copy()  # (asked about ten times per grid: its nine made at once)
        return self.origin + c * self.col_step + r * self.row_step

    @functools.cached_property
    def _centres(self) -> np.ndarray:
        """The nine cells' centres, row by row: :meth:`centre`'s sums, the same numbers element by element."""
        return self.origin + _GRID_C[:, None] * self.col_step + _GRID_R[:, None] * self.row_step

    @functools.cached_property
    def _to_lattice(self) -> np.ndarray:
        return _inv(np.column_stack([self.col_step, self.row_step]))

    def lattice_coords(self, xy: np.ndarray | Sequence[float]) -> np.ndarray:
        """Frame points' (column, row) on the lattice: cell (r, c)'s centre is at (c, r)."""
        return (np.asarray(xy, dtype=np.float64) - self.origin) @ self._to_lattice.T

    def corners(self) -> np.ndarray:
        o = self.origin - 0.5 * (self.col_step + self.row_step)
        return np.array([o, o + 3 * self.col_step, o + 3 * (self.col_step + self.row_step), o + 3 * self.row_step])


@dataclass(frozen=True)
class CubeReading:
    row: int
    col: int
    colour: str | None
    confidence: float
    xy: tuple[float, float]
    lab: tuple[float, float, float] | None = None


@dataclass(frozen=True)
class ShakerReading:
    """The reader's answer: a complete pattern, or a refusal with a reason.

    ``pattern`` rows run top to bottom (after ``rotation``), each left to right; ``confidence`` is
    the per-cube colour confidence in the same layout (0.5 = a tie, 1 = certain).
    """

    valid: bool
    pattern: list[list[str]] | None
    reason: str | None = None
    confidence: list[list[float]] | None = None
    cubes: tuple[CubeReading, ...] = ()
    grid_corners: list[list[float]] | None = None
    rotation: int = 0
    debug: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"valid": self.valid, "pattern": self.pattern}
        if self.reason:
            out["reason"] = self.reason
        if self.confidence is not None:
            out["confidence"] = self.confidence
        return out


# ---------------------------------------------------------------- stage 1: find


def _odd(n: float) -> int:
    k = max(3, int(round(n)))
    return k if k % 2 else k + 1


def table_difference(
    frame_bgr: np.ndarray, settings: ShakerSettings
) -> tuple[np.ndarray, float, np.ndarray, np.ndarray]:
    """How much each working pixel differs from the table (float32 map), the working scale, the Lab copy
    of the working image and the table model (8-bit Lab at 1/``background_shrink`` of the working size)."""
    h, w = frame_bgr.shape[:2]
    scale = max(h, w) / settings.work_long_side
    if scale > 1.0:
        ww, wh = max(1, round(w / scale)), max(1, round(h / scale))
        work = cv2.resize(frame_bgr, (ww, wh), interpolation=cv2.INTER_AREA)
    else:
        scale = 1.0
        work = frame_bgr
    lab = cv2.cvtColor(work, cv2.COLOR_BGR2Lab)
    # (the working images dropped, or written over, once used: the next ones can take their memory, still cached)
    del work
    wh, ww = lab.shape[:2]
    s = settings.background_shrink
    tiny = cv2.resize(lab, (max(1, ww // s), max(1, wh // s)), interpolation=cv2.INTER_AREA)
    k = _odd(settings.background_window * max(tiny.shape[:2]))
    k = min(k, 255)
    bg_tiny = cv2.medianBlur(tiny, k)  # (channel by channel, as three single-channel medians)
    bg = cv2.resize(bg_tiny, (ww, wh), interpolation=cv2.INTER_LINEAR)
    diff = cv2.absdiff(lab, bg, dst=bg)
    del bg
    dl, da, db = cv2.split(diff)
    del diff
    d = cv2.addWeighted(dl, settings.lightness_weight, cv2.add(da, db, dst=da), 1.0, 0.0, dtype=cv2.CV_32F)
    return d, scale, lab, bg_tiny


def edge_strength(lab: np.ndarray, settings: ShakerSettings) -> np.ndarray:
    """Colour gradient magnitude (L1, Sobel) summed over L, a and b: cube outlines stand out."""
    g = np.zeros(lab.shape[:2], np.float32)
    # (each channel's two 3 x 3 Sobel gradients in one cv2.spatialGradient pass: the same kernels and border as
    # cv2.Sobel(ksize=3)'s, cheaper than two 3-channel Sobels and a split of their magnitudes; the same map)
    for channel, weight in zip(cv2.split(lab), (settings.edge_lightness_weight, 1.0, 1.0), strict=True):
        gx, gy = cv2.spatialGradient(channel)
        mag = cv2.add(cv2.convertScaleAbs(gx), cv2.convertScaleAbs(gy))
        del gx, gy
        g = cv2.scaleAdd(mag.astype(np.float32), weight / 8.0, g, dst=g)  # (in place: element by element)
    return g


def find_cubes(
    frame_bgr: np.ndarray,
    settings: ShakerSettings = DEFAULT_SETTINGS,
    *,
    work: tuple[np.ndarray, float, np.ndarray] | None = None,
    edges: np.ndarray | None = None,
) -> list[Candidates]:
    """Cube-like shapes, one candidate list per size tried (the lattice stage picks the size).

    A cube's top face is a uniform patch inside a ring of strong colour edges (its outline): the
    response at size s is the mean edge strength on a square ring around s minus the mean inside it.
    No cube size in pixels is assumed: every size in ``settings.box_sizes`` is tried, larger ones on
    a halved copy to keep it fast. ``work`` is :func:`table_difference`'s result, when already made.
    """
    d, scale, lab = work if work is not None else table_difference(frame_bgr, settings)[:3]
    g = edges if edges is not None else edge_strength(lab, settings)
    g_half = cv2.resize(g, (max(1, g.shape[1] // 2), max(1, g.shape[0] // 2)), interpolation=cv2.INTER_AREA)
    d_half = cv2.resize(d, (g_half.shape[1], g_half.shape[0]), interpolation=cv2.INTER_AREA)
    unit = _edge_unit(settings.edge_lightness_weight) if settings.find_integer_edges else 0.0
    if unit:
        # (the edge map in whole units, 16-bit: its boxes summed in integers, exactly, by OpenCV's integer box
        # filter, about a third cheaper than the float32 one's double sums; the halved copy's four pixels' sum)
        # (addWeighted's conversion, rounded to the nearest: about half cv2.multiply's cost)
        g = cv2.addWeighted(g, 1.0 / unit, g, 0.0, 0.0, dtype=cv2.CV_16S)
        g_half = cv2.addWeighted(g_half, 4.0 / unit, g_half, 0.0, 0.0, dtype=cv2.CV_16S)
        thr = max(settings.response_min, settings.response_noise_factor * unit * cv2.mean(g)[0])
    else:
        thr = max(settings.response_min, settings.response_noise_factor * float(np.mean(g)))
    sub = d[::4, ::4].ravel()  # (float32: its median is the same number as the float64 copy's)
    d_thr = max(4.0, _ranked(sub, sub.size // 2))
    d_half_sum = cv2.integral(d_half)
    sizes = settings.box_sizes
    sides = _all_box_sides(tuple(sizes), settings.half_from)
    sums: dict[tuple[int, int], np.ndarray] = {}
    # (each box's sums dropped after their last use, and a size's maps before the next size's are made: the next
    # ones can take the memory just freed, still cached)
    uses = collections.Counter((level, b) for level, b_in, b_out in sides for b in (b_in, b_out))

    def box_sum(level: int, b: int) -> np.ndarray:
        key = (level, b)
        if key not in sums:
            img = g if level == 0 else g_half
            sums[key] = cv2.boxFilter(img, cv2.CV_32F, (b, b), normalize=False, borderType=cv2.BORDER_REPLICATE)
        uses[key] -= 1
        return sums[key] if uses[key] else sums.pop(key)

    found: list[_Found | None] = []  # each size's strongest points
    for j in range(len(sizes) - 2):
        top = sizes[j + 1]
        level, b_in, b_out = sides[j]
        f = 2**level
        s_in, s_out = box_sum(level, b_in), box_sum(level, b_out)
        # ring mean minus inner mean, in one OpenCV pass: s_out / a_ring - s_in * (1 / a_ring + 1 / a_in)
        a_ring = float(b_out * b_out - b_in * b_in)
        # (integer sums are in edge units, of the halved copy's four pixels' sums: u takes them back to the mean's
        # scale; the float sums' u is 1.0, the same weights bit for bit)
        u = unit / 4**level if unit else 1.0
        resp = cv2.addWeighted(s_out, u / a_ring, s_in, -u * (1.0 / a_ring + 1.0 / (b_in * b_in)), 0.0)
        top_w = top / f
        k = max(3, int(settings.nms_radius * top_w) | 1)
        # the few points above the threshold that are their k x k neighbourhood's largest (in row-major order)
        xs, ys = _peaks(resp, thr, k)
        if len(xs) == 0:
            del s_in, s_out, resp
            found.append(None)
            continue
        strength = resp[ys, xs].astype(np.float64)
        del s_in, s_out, resp
        order = np.argsort(-strength, kind="stable")[: settings.max_candidates]
        found.append(_Found(top, level, max(1, b_in // 2), xs[order], ys[order], strength[order]))
    return _candidates(found, d, d_half_sum, d_thr, scale)


def _ranked(values: np.ndarray, rank: int) -> float:
    """The value of this rank in a 1-d array of non-negative floats (np.partition's), found among the values of its
    twentieth (each value's floor(20 v): ordered as the values are, so the rank lies in the bucket where the buckets'
    running count passes it) and only that bucket's values partitioned: the same number, about half
    np.partition's cost on find_cubes' 12288 table differences (numpy 2's selection slows on their few distinct
    values)."""
    if values.size == 0 or not 0.0 <= float(values.min()) <= float(values.max()) < 2**16 / 20.0:
        return float(np.partition(values, rank)[rank])  # (a short bincount only)
    key = (values * 20.0).astype(np.intp)
    counts = np.cumsum(np.bincount(key))
    bucket = int(np.searchsorted(counts, rank, side="right"))
    inside = values[key == bucket]
    at = rank - (int(counts[bucket - 1]) if bucket else 0)
    return float(np.partition(inside, at)[at])


@functools.lru_cache(maxsize=8)
def _edge_unit(edge_lightness_weight: float) -> float:
    """The unit every value of :func:`edge_strength`'s map is a whole multiple of (each channel's 8-bit Sobel
    magnitude times its weight over 8), when its weights make one of at most 1/1000 that keeps the largest value
    (255 per channel) of the halved copy's four-pixel sums within 16 bits; else 0.0. The default weights 0.6 and 1:
    1/40 (at most 3315 a pixel, 13260 a halved pixel)."""
    weights = (edge_lightness_weight / 8.0, 1.0 / 8.0)
    for den in range(1, 1001):
        nums = [w * den for w in weights]
        units = round(nums[0]) + 2 * round(nums[1])
        if all(abs(n - round(n)) < 1e-9 for n in nums) and 4 * 255 * units < 2**15:
            return 1.0 / den
    return 0.0


@functools.lru_cache(maxsize=8)
def _all_box_sides(sizes: tuple[int, ...], half_from: int) -> tuple[tuple[int, int, int], ...]:
    """find_cubes' sizes' :func:`_box_sides`, made once per settings (they were made twice a frame)."""
    return tuple(_box_sides(sizes, j, half_from) for j in range(len(sizes) - 2))


def _box_sides(sizes: Sequence[int], j: int, half_from: int) -> tuple[int, int, int]:
    """find_cubes' size j: its level (0: the working copy, 1: the halved one) and its inner and outer boxes' sides
    there."""
    level = 0 if sizes[j + 1] < half_from else 1
    b_in = max(2, int(round(sizes[j] / 2**level)))
    return level, b_in, max(b_in + 2, int(round(sizes[j + 2] / 2**level)))


class _Found(NamedTuple):
    """One size's strongest points (find_cubes): its size, level (0: the working copy, 1: the halved one), the
    half side of its inner box there, and the points (x, y on that level) with their responses, strongest first."""

    top: int
    level: int
    half_in: int
    xs: np.ndarray
    ys: np.ndarray
    strength: np.ndarray


def _candidates(
    found: list[_Found | None], d: np.ndarray, d_half_sum: np.ndarray, d_thr: float, scale: float
) -> list[Candidates]:
    """find_cubes' candidates of every size from their points: each point's frame position, radius and contrast
    (the mean table difference in its inner box over ``d_thr``; on the working copy ``d`` itself, on the halved
    one its integral image ``d_half_sum``) made for all sizes at once, element by element the numbers each size's
    own made (the sizes' few points paid a dozen numpy calls each)."""
    kept = [f for f in found if f is not None]
    if not kept:
        return [Candidates(np.zeros((0, 2)), np.zeros(0), np.zeros(0), scale) for _ in found]
    counts = [len(f.xs) for f in kept]
    xs, ys = np.concatenate([f.xs for f in kept]), np.concatenate([f.ys for f in kept])
    pts = np.empty((len(xs), 2))
    pts[:, 0], pts[:, 1] = xs, ys
    xy = (pts + 0.5) * np.repeat([scale * 2**f.level for f in kept], counts)[:, None] - 0.5
    radius = np.repeat([f.top * scale / 2.0 for f in kept], counts)
    on_half = np.repeat([f.level == 1 for f in kept], counts)
    contrast = np.empty(len(xs))
    if on_half.any():
        half_in = np.repeat([f.half_in for f in kept], counts)
        contrast[on_half] = _box_means(d_half_sum, xs[on_half], ys[on_half], half_in[on_half])
    ends = np.cumsum(counts)
    for f, end, n in zip(kept, ends, counts, strict=True):
        if f.level == 0:
            contrast[end - n : end] = _box_means_at(d, f.xs, f.ys, f.half_in)
    contrast /= d_thr
    out, at = [], 0
    for f in found:
        if f is None:
            out.append(Candidates(np.zeros((0, 2)), np.zeros(0), np.zeros(0), scale))
            continue
        n = len(f.xs)
        out.append(Candidates(xy[at : at + n], radius[at : at + n], contrast[at : at + n], scale, f.strength))
        at += n
    return out


def _peaks(resp: np.ndarray, thr: float, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The (x, y) of a response map's points above ``thr`` that are their k x k neighbourhood's largest, in
    row-major order: the k x k maxima over the points' bounding box and half a window around it only (dilate
    leaves out what lies past the image's edge: the same maxima there as on the whole map), the points above the
    threshold and at their maximum marked in one mask there and only those few looked up (a row-major order in
    the box is one in the map), not every point above the threshold."""
    above = cv2.compare(resp, thr, cv2.CMP_GT)
    ax, ay, aw, ah = cv2.boundingRect(above)
    if not aw:
        return _NO_POINTS, _NO_POINTS
    hk, (rh, rw) = k // 2, resp.shape
    bx, by = max(0, ax - hk), max(0, ay - hk)
    ex, ey = min(rw, ax + aw + hk), min(rh, ay + ah + hk)
    roi = resp[by:ey, bx:ex]
    at_max = cv2.compare(roi, cv2.dilate(roi, _square(k)), cv2.CMP_GE)
    found = cv2.findNonZero(cv2.bitwise_and(at_max, above[by:ey, bx:ex]))
    if found is None:
        return _NO_POINTS, _NO_POINTS
    found = found.reshape(-1, 2).astype(np.intp)
    return found[:, 0] + bx, found[:, 1] + by


@functools.lru_cache(maxsize=32)
def _square(k: int) -> np.ndarray:
    """A k x k structuring element of ones (read-only: made once, shared by every _peaks call)."""
    kernel = np.ones((k, k), np.uint8)
    kernel.flags.writeable = False
    return kernel


def _nonzero_points(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The (x, y) of a sparse 8-bit mask's nonzero pixels in row-major order (cv2.findNonZero's): the mask is
    read eight pixels at a time and only its nonzero words are looked into."""
    h, w = mask.shape
    if w % 8 or mask.dtype != np.uint8 or not mask.flags.c_contiguous:
        found = cv2.findNonZero(mask)
        found = np.zeros((0, 2), np.int32) if found is None else found.reshape(-1, 2)
        return found[:, 0], found[:, 1]
    flat = mask.reshape(-1)
    words = np.flatnonzero(flat.view(np.uint64))
    at = (words[:, None] * 8 + _BYTE_OFFSETS).ravel()
    at = at[flat[at] != 0]
    ys, xs = np.divmod(at, w)
    return xs, ys


_BYTE_OFFSETS = np.arange(8)
_NO_POINTS = np.zeros(0, np.intp)


# ---------------------------------------------------------------- stage 2: lattice


def fit_grid(cands: Candidates, settings: ShakerSettings = DEFAULT_SETTINGS) -> Grid:
    """The 3 x 3 lattice best supported by the candidates, or GridNotFound."""
    return fit_grids(cands, settings, 1)[0]


_LAB8_OFFSET = np.array([0.0, 128.0, 128.0])  # OpenCV's 8-bit Lab: a and b offset by 128
_BOX_END = np.array([[0], [1], [0], [1]])  # a box's far edges lie one past its last pixel
_NO_CANDIDATES = (np.zeros((0, 2)), np.zeros(0), np.zeros(0), 1.0)
_CELL_CR = np.array([(c, r) for r in range(3) for c in range(3)], dtype=np.float64)  # (col, row) of the nine cells
_AROUND_CR = np.array([(c, r) for r in range(-1, 4) for c in range(-1, 4)], dtype=np.float64)  # and the 5 x 5 around


def _same_lattice(a: Grid, b: Grid) -> bool:
    """Two fits of one lattice (perhaps windows a row or column apart: :func:`best_window`'s business):
    of about one pitch, and every cell centre of one near a lattice point of the other."""
    if not 0.8 <= a.pitch / b.pitch <= 1.25:
        return False
    ca = a.origin + _CELL_CR @ np.array([a.col_step, a.row_step])
    coords = b.lattice_coords(ca)
    return bool(np.abs(coords - np.rint(coords)).max() < 0.3)


def fit_grids(cands: Candidates, settings: ShakerSettings = DEFAULT_SETTINGS, count: int = 1) -> list[Grid]:
    """The (up to) ``count`` distinct 3 x 3 lattices best supported by the candidates, best first, or
    GridNotFound (see :func:`lattices`)."""
    return list(itertools.islice(lattices(cands, settings), max(1, count)))


@dataclass(frozen=True)
class Hypotheses:
    """One size's lattice hypotheses (see :func:`lattice_hypotheses`), one row each: the seed candidate, the
    steps (columns u, v), the pitch, each candidate's nearest lattice point and whether it sits on it, and
    the scores of the nine 3 x 3 windows holding the seed."""

    ai: np.ndarray  # (H,)
    steps: np.ndarray  # (H, 2, 2)
    pitch: np.ndarray  # (H,)
    rc: np.ndarray  # (H, n, 2) lattice coordinates (i along u, j along v), rounded
    on: np.ndarray  # (H, n)
    scores: np.ndarray  # (H, 9)
    square: np.ndarray  # (H,) the second step the first turned a right angle (no candidate there: square_steps)


_WINDOW_Y0, _WINDOW_X0 = np.repeat(np.arange(2, 5), 3), np.tile(np.arange(2, 5), 3)  # the nine windows


def lattice_hypotheses(
    sizes: Sequence[Candidates], settings: ShakerSettings = DEFAULT_SETTINGS
) -> list[Hypotheses | GridNotFound]:
    """Every size's lattice hypotheses at once (the sizes' candidates padded to one length: one pass of
    array work for all), or the reason a size has none.

    A hypothesis is a candidate, a neighbour (one of its nearest ``pair_neighbours``) and one at right
    angles: the steps; with ``square_steps``, where no candidate lies at right angles, the first step turned a
    right angle (a grid whose cubes beside the pair went unfound: black on a dark table), scored
    ``square_step_penalty`` lower. Each is scored by the candidates on a 3 x 3 window of its lattice against those
    just around it (:func:`lattices` tries them in that order).
    """
    out: list[Hypotheses | GridNotFound] = [GridNotFound("no pattern: fewer than 3 cube-like shapes in view")] * len(
        sizes
    )
    live = [s for s, c in enumerate(sizes) if len(c.xy) >= 3]
    if not live:
        return out
    counts = [len(sizes[s].xy) for s in live]
    S, N = len(live), max(counts)
    P = np.full((S, N, 2), 1e7)  # padding: far from everything, of no size (never a pair, never on a lattice)
    R = np.full((S, N), np.nan)
    contrast = np.zeros((S, N))
    min_dist = np.zeros(S)
    for i, (s, n) in enumerate(zip(live, counts, strict=True)):
        c = sizes[s]
        P[i, :n], R[i, :n], contrast[i, :n] = c.xy, c.radius, c.contrast
        min_dist[i] = settings.min_pitch * c.scale * settings.work_long_side
    # (every size's qualities in one pass; the padding's stays 0)
    quality = np.where(
        np.arange(N) < np.array(counts)[:, None],
        np.minimum(np.maximum(contrast / settings.quality_contrast, settings.quality_floor), 1.0),
        0.0,
    )
    # (x and y apart, each contiguous: the same differences as one (S, N, N, 2) array, in fewer passes)
    px, py = P[..., 0].copy(), P[..., 1].copy()
    dx, dy = px[:, None, :] - px[:, :, None], py[:, None, :] - py[:, :, None]  # dx[s, a, b] = P[s, b, 0] - P[s, a, 0]
    dist = np.hypot(dx, dy)
    rr = np.maximum(R[:, :, None], R[:, None, :])
    ratio = np.minimum(R[:, :, None], R[:, None, :]) / rr
    ok = (dist >= settings.pitch_min * rr) & (dist <= settings.pitch_max * rr) & (ratio >= 0.5)
    ok &= dist >= min_dist[:, None, None]
    # the grid is turned at most ``max_turn`` degrees from the image axes (the rotation setting does the rest)
    # (its angle asked only of the pairs still in: the same test pair by pair)
    sel = np.flatnonzero(ok)
    ang = np.degrees(np.arctan2(dy.ravel()[sel], dx.ravel()[sel]))
    ok.ravel()[sel] = np.abs((ang + 45.0) % 90.0 - 45.0) <= settings.max_turn
    # each candidate pairs with its nearest few neighbours only
    masked = np.where(ok, dist, np.inf)
    # (every size at once: a candidate's pairs are its ``pair_neighbours`` nearest partners it may pair with;
    # the partners it may not, and the padding, are infinitely far and dropped by ``ok``)
    k = min(settings.pair_neighbours, N - 1)
    keep = np.zeros((S, N, N), bool)
    if k >= 1:
        keep[
            np.arange(S)[:, None, None], np.arange(N)[None, :, None], np.argpartition(masked, k - 1, axis=2)[:, :, :k]
        ] = True
    hs, ai, bi = np.nonzero(keep & ok)
    paired = np.zeros(S, bool)
    paired[hs] = True
    no_pairs = set(np.flatnonzero(~paired).tolist())
    # for each pair (a, b), u = b - a; look for c near a + rot90(u)
    U = np.stack([dx[hs, ai, bi], dy[hs, ai, bi]], 1)  # (H, 2)
    Vexp = np.stack([-U[:, 1], U[:, 0]], 1)
    tgt = P[hs, ai] + Vexp  # (H, 2)
    # the candidate nearest the target (by squared distance: hypot's cost shows on (H, N)), then its distance
    tx, ty = tgt[:, 0:1] - px[hs], tgt[:, 1:2] - py[hs]  # (H, N) each
    ci = (tx * tx + ty * ty).argmin(1)
    at = np.arange(len(ai))
    lenu = np.hypot(U[:, 0], U[:, 1])
    good = np.hypot(tx[at, ci], ty[at, ci]) <= 0.35 * lenu
    if settings.square_steps:
        # (no candidate at right angles: the square step itself, the pair's lattice with no cell beside it taken)
        V = np.where(good[:, None], P[hs, ci] - P[hs, ai], Vexp)
        square = ~good
    else:
        hs, ai, ci, U = hs[good], ai[good], ci[good], U[good]
        V = P[hs, ci] - P[hs, ai]
        square = np.zeros(len(hs), bool)
    B = np.stack([U, V], axis=2)  # (H, 2, 2) columns u, v
    det = B[:, 0, 0] * B[:, 1, 1] - B[:, 0, 1] * B[:, 1, 0]
    valid_det = np.abs(det) > 1e-6
    B, hs, ai, det, square = B[valid_det], hs[valid_det], ai[valid_det], det[valid_det], square[valid_det]
    Ph = P[hs]  # (H, N, 2): each hypothesis's size's candidates
    H = len(ai)
    inv = np.empty_like(B)
    inv[:, 0, 0] = B[:, 1, 1] / det
    inv[:, 0, 1] = -B[:, 0, 1] / det
    inv[:, 1, 0] = -B[:, 1, 0] / det
    inv[:, 1, 1] = B[:, 0, 0] / det
    rel = Ph - P[hs, ai][:, None, :]  # (H, N, 2)
    coords = rel @ inv.transpose(0, 2, 1)  # (H, N, 2) lattice coordinates (i along u, j along v)
    rc = np.rint(coords)
    resid = coords - rc
    # residual in pixels relative to the pitch
    resid_px = resid @ B.transpose(0, 2, 1)
    pitch = (np.hypot(B[:, 0, 0], B[:, 1, 0]) + np.hypot(B[:, 0, 1], B[:, 1, 1])) / 2
    # size agreement with the seed
    Rh, Ra = R[hs], R[hs, ai][:, None]
    size_ok = (Rh >= settings.size_ratio_min * Ra) & (Rh <= Ra / settings.size_ratio_min)
    near4 = np.abs(rc) <= 4  # (both coordinates: the last axis's two, not a reduction over it)
    on = size_ok & near4[..., 0] & near4[..., 1]
    # (the residual's length asked only of the candidates still on: the same test one by one)
    sel = np.flatnonzero(on)
    at_px = resid_px.reshape(-1, 2)[sel]
    on.ravel()[sel] = np.hypot(at_px[:, 0], at_px[:, 1]) / pitch[sel // on.shape[1]] <= settings.lattice_tolerance
    # occupancy on a 9 x 9 lattice window around the seed (coords -4..4), hypotheses last (row, column, hypothesis):
    # its running sums along rows, then columns, are whole-array adds, the same sums in the same order as cumsum's
    occ = np.zeros((10, 10, H), dtype=np.float64)  # (its first row and column 0: the integral image's border)
    hh, nn = np.nonzero(on)
    q = quality[hs[hh], nn]
    order = np.argsort(q, kind="stable")  # assigned weakest first: each cell keeps its best
    hh, nn = hh[order], nn[order]
    occ[rc[hh, nn, 1].astype(int) + 5, rc[hh, nn, 0].astype(int) + 5, hh] = q[order]
    for i in range(2, 10):
        occ[i] += occ[i - 1]
    for i in range(2, 10):
        occ[:, i] += occ[:, i - 1]

    # windows that contain the seed (coord 0 -> index 4): top-left index (y0, x0) in 2..4, all nine at once;
    # score: the occupancy inside the window minus that of the ring of cells around it
    def box(y0: np.ndarray, x0: np.ndarray, size: int) -> np.ndarray:  # (9, H)
        return occ[y0 + size, x0 + size] - occ[y0, x0 + size] - occ[y0 + size, x0] + occ[y0, x0]

    inner = box(_WINDOW_Y0, _WINDOW_X0, 3)
    ring = box(_WINDOW_Y0 - 1, _WINDOW_X0 - 1, 5) - inner  # (every window's ring lies inside the 9 x 9 window)
    scores = (inner - ring - 0.02 * np.abs(np.log(np.abs(det) / pitch**2)) - settings.square_step_penalty * square).T
    bounds = np.searchsorted(hs, np.arange(S + 1))
    for i, (s, n) in enumerate(zip(live, counts, strict=True)):
        lo, hi = bounds[i], bounds[i + 1]
        if i in no_pairs:
            out[s] = GridNotFound("no pattern: no two cube-like shapes side by side")
        elif hi == lo:
            out[s] = GridNotFound("no pattern: the cube-like shapes do not form a grid")
        else:
            out[s] = Hypotheses(
                ai[lo:hi], B[lo:hi], pitch[lo:hi], rc[lo:hi, :n], on[lo:hi, :n], scores[lo:hi], square[lo:hi]
            )
    return out


def lattices(
    cands: Candidates, settings: ShakerSettings = DEFAULT_SETTINGS, hypotheses: Hypotheses | GridNotFound | None = None
) -> Iterator[Grid]:
    """The distinct 3 x 3 lattices the candidates support, best first, made as they are asked for.

    Hypotheses (:func:`lattice_hypotheses`, or ``hypotheses`` when already made for these candidates) are
    tried in the order of their scores; one that fails (too few cells, cells in one line, not square) is
    skipped; one of a lattice already given (perhaps a row over) is skipped; the search ends
    ``lattice_alt_margin`` below the best's score. Raises GridNotFound (at the first ``next``) when there
    is none.
    """
    hyp = hypotheses if hypotheses is not None else lattice_hypotheses([cands], settings)[0]
    if isinstance(hyp, GridNotFound):
        raise hyp
    P = cands.xy
    R = cands.radius
    ai, B, pitch, rc, on, scores = hyp.ai, hyp.steps, hyp.pitch, hyp.rc, hyp.on, hyp.scores
    H = len(ai)
    y0s, x0s = _WINDOW_Y0, _WINDOW_X0

    def _build(h: int, y0: int, x0: int, best_score: float) -> Grid:
        # (plain Python on the few members and cells; every number as the array version made it)
        # members: candidates on cells of the window
        jv = rc[h, :, 1] + 4 - y0  # row index within window (v axis)
        iu = rc[h, :, 0] + 4 - x0  # column index within window (u axis)
        member = on[h] & (jv >= 0) & (jv <= 2) & (iu >= 0) & (iu <= 2)
        idx = np.flatnonzero(member)
        n_m = len(idx)
        if n_m < 3:
            raise GridNotFound("no pattern: the cube-like shapes do not form a grid")
        m_u, m_v = iu[idx], jv[idx]
        m_c, m_r = m_u.astype(int).tolist(), m_v.astype(int).tolist()
        # rank < 3 (every member on one line of the lattice): the cells' coordinates are small integers, so their
        # centred 2 x 2 scatter matrix is singular exactly when n^2 times its determinant, an integer, is 0
        s_c, s_r = sum(m_c), sum(m_r)
        s_cc, s_rr = sum(c * c for c in m_c), sum(r * r for r in m_r)
        s_cr = sum(c * r for c, r in zip(m_c, m_r, strict=True))
        if (n_m * s_cc - s_c * s_c) * (n_m * s_rr - s_r * s_r) == (n_m * s_cr - s_c * s_r) ** 2:
            raise GridNotFound("no pattern: the cubes in view lie in one line")
        # least-squares refinement: P = o + i u + j v
        A = np.empty((n_m, 3))
        A[:, 0], A[:, 1], A[:, 2] = 1.0, m_u, m_v
        p_m = P[idx]
        sol = _lstsq(A, p_m)
        o, u, v = sol[0], sol[1], sol[2]
        # a square grid seen from at most ~25 degrees off vertical: steps of about one length, about square
        # (_square_enough's test)
        lu, lv = math.hypot(*u), math.hypot(*v)
        if not (
            min(lu, lv) >= settings.min_squareness * max(lu, lv) and abs(float(u @ v)) <= settings.max_skew * lu * lv
        ):
            raise GridNotFound("no pattern: the cube-like shapes do not form a square grid")
        # one candidate per cell: the closest (cells row by row, 3 * row + column)
        m_d = p_m - (o + m_u.astype(int)[:, None] * u + m_v.astype(int)[:, None] * v)
        m_dist = np.hypot(m_d[:, 0], m_d[:, 1]).tolist()
        cells = [-1] * 9
        best_d = [math.inf] * 9
        for k, c, r, dk in zip(idx.tolist(), m_c, m_r, m_dist, strict=True):
            if dk < best_d[3 * r + c]:
                best_d[3 * r + c], cells[3 * r + c] = dk, k
        # recount: unassigned candidates near the grid, not on a cell
        Binv = _inv(sol[1:3].T)  # (columns u and v: np.column_stack's numbers, the kernel copies them anyway)
        cc = (P - o) @ Binv.T  # (n, 2): i, j
        filled = [k for k in cells if k >= 0]
        assigned = set(filled)  # (made from the cells row by row, as before: the same order to list)
        med_r = _median(R[list(assigned)]) if assigned else _median(R)
        med_c = _median(cands.contrast[list(assigned)]) if assigned else 1.0
        reach = settings.out_of_line_reach
        near = (
            (cc[:, 0] >= -reach)
            & (cc[:, 0] <= 2 + reach)
            & (cc[:, 1] >= -reach)
            & (cc[:, 1] <= 2 + reach)
            & (_NEAR_SIZE_RATIO * med_r <= R)
            & (med_r / _NEAR_SIZE_RATIO >= R)
            & (_NEAR_CONTRAST_RATIO * med_c <= cands.contrast)
        )
        strays = [k for k in np.flatnonzero(near).tolist() if k not in assigned]
        if assigned and strays:
            # a second blob on a cube already in the grid (its side face, its shadow) is not a cube
            cube_xy = P[sorted(assigned)]
            near_k = np.array(strays)
            dx = cube_xy[None, :, 0] - P[near_k, None, 0]
            dy = cube_xy[None, :, 1] - P[near_k, None, 1]
            strays = near_k[np.hypot(dx, dy).min(1) >= _NEAR_MIN_DISTANCE * ((lu + lv) / 2)].tolist()
        # orientation: columns along +x, rows along +y
        centres = o + _CELL_CR[:, 0:1] * u + _CELL_CR[:, 1:2] * v  # (row, col, xy)
        centres = centres.reshape(3, 3, 2)
        grid_cells = np.array(cells).reshape(3, 3)
        col_step, row_step = u, v
        if abs(v[0]) > abs(u[0]):  # u runs mostly vertically: swap axes
            col_step, row_step = v, u
            grid_cells, centres = grid_cells.T, centres.transpose(1, 0, 2)
        if col_step[0] < 0:
            col_step = -col_step
            grid_cells, centres = grid_cells[:, ::-1], centres[:, ::-1]
        if row_step[1] < 0:
            row_step = -row_step
            grid_cells, centres = grid_cells[::-1, :], centres[::-1, :]
        origin = centres[0, 0]
        return Grid(
            origin=np.asarray(origin, dtype=np.float64),
            col_step=np.asarray(col_step, dtype=np.float64),
            row_step=np.asarray(row_step, dtype=np.float64),
            cell_candidate=tuple(map(tuple, grid_cells.tolist())),
            support=len(filled),
            stray_near=len(strays),
            strays=tuple(strays),
            # (np.mean's sum and division, without its overhead)
            score=best_score + 0.01 * float(cands.contrast[list(assigned)].sum() / len(assigned)),
        )

    # hypotheses ranked by score (ties: the first window in y0, x0 order, then the first hypothesis)
    flat = scores.T.ravel()  # index wi * H + h
    ranked = np.argsort(-flat, kind="stable")[: settings.lattice_attempts]
    known = np.zeros(len(ranked), bool)
    r_pts: np.ndarray | None = None
    kept: list[Grid] = []
    first_error: GridNotFound | None = None
    for n_i, rank_i in enumerate(ranked):
        wi, h = divmod(int(rank_i), H)
        best_score = float(flat[rank_i])
        if kept and best_score < kept[0].score - settings.lattice_alt_margin:
            break
        if known[n_i]:
            continue
        try:
            grid = _build(h, int(y0s[wi]), int(x0s[wi]), best_score)
        except GridNotFound as e:
            first_error = first_error or e
            continue
        if any(_same_lattice(grid, other) for other in kept):
            continue
        kept.append(grid)
        yield grid
        # another is asked for: each ranked hypothesis's nine cells as the hypothesis puts them (before least
        # squares); one on a lattice already given is skipped without being built
        if r_pts is None:
            r_w, r_h = np.divmod(ranked, H)
            r_u, r_v = B[r_h, :, 0], B[r_h, :, 1]
            r_o = P[ai[r_h]] + (x0s[r_w] - 4)[:, None] * r_u + (y0s[r_w] - 4)[:, None] * r_v
            r_pts = (
                r_o[:, None, :] + _CELL_CR[None, :, 0:1] * r_u[:, None, :] + _CELL_CR[None, :, 1:2] * r_v[:, None, :]
            )
            r_pitch = pitch[r_h]
        coords = grid.lattice_coords(r_pts)
        ratio = r_pitch / grid.pitch
        known |= (np.abs(coords - np.rint(coords)).max(axis=(1, 2)) < 0.3) & (ratio >= 0.8) & (ratio <= 1.25)
    if not kept:
        raise first_error or GridNotFound("no pattern: the cube-like shapes do not form a grid")


def _square_enough(grid: Grid, squareness: float, skew: float) -> bool:
    """The lattice's steps are of about one length and about square (a square grid seen from near above)."""
    lu, lv = math.hypot(*grid.col_step), math.hypot(*grid.row_step)
    return min(lu, lv) >= squareness * max(lu, lv) and abs(float(grid.col_step @ grid.row_step)) <= skew * lu * lv


def fill_from_other_sizes(
    grid: Grid, cands: Candidates, all_cands: Sequence[Candidates], settings: ShakerSettings = DEFAULT_SETTINGS
) -> tuple[Grid, Candidates]:
    """Empty cells take a candidate found at a neighbouring size, when one sits on the cell, fits the
    grid's cube size and stands out as much as the grid's cubes do."""
    cell_k = np.array(grid.cell_candidate, dtype=int).ravel()
    members = cell_k[cell_k >= 0]
    med_r = _median(cands.radius[members])
    med_s = _median(cands.strength_or_ones()[members])
    tol = settings.fill_tolerance * grid.pitch
    lo, hi = settings.fill_size_ratio
    empty = np.nonzero(cell_k < 0)[0]
    centres = grid._centres[empty]
    # each empty cell's nearest candidate of every other size of about the grid's cube size; the nearest of
    # those that sit on the cell and stand out enough (the first size on a tie)
    best_d = np.full(len(empty), np.inf)
    best: list[tuple[np.ndarray, float, float, float] | None] = [None] * len(empty)
    for other in all_cands:
        if other is cands or len(other.xy) == 0:
            continue
        rr = float(other.radius[0])
        if not (lo * med_r <= rr <= hi * med_r):
            continue
        dist = np.hypot(other.xy[None, :, 0] - centres[:, None, 0], other.xy[None, :, 1] - centres[:, None, 1])
        k = dist.argmin(1)
        d = dist[np.arange(len(empty)), k]
        st = other.strength_or_ones()[k]
        for e in np.nonzero((d <= tol) & (st >= settings.fill_strength * med_s) & (d < best_d))[0].tolist():
            best_d[e] = d[e]
            best[e] = (other.xy[k[e]], rr, float(other.contrast[k[e]]), float(st[e]))
    support = int((cell_k >= 0).sum()) + sum(b is not None for b in best)
    if support == grid.support:
        return grid, cands  # (nothing filled: the candidates' lists not made)
    xy, rad, con = list(cands.xy), list(cands.radius), list(cands.contrast)
    strength = list(cands.strength_or_ones())
    cells = [list(row) for row in grid.cell_candidate]
    for e, i in enumerate(empty.tolist()):
        if best[e] is not None:
            cells[i // 3][i % 3] = len(xy)
            xy.append(best[e][0])
            rad.append(best[e][1])
            con.append(best[e][2])
            strength.append(best[e][3])
    new = Candidates(np.array(xy), np.array(rad), np.array(con), cands.scale, np.array(strength))
    return replace(grid, cell_candidate=tuple(tuple(row) for row in cells), support=support), new


def table_colours_at(table_lab8: np.ndarray, xy: np.ndarray, scale: float, settings: ShakerSettings) -> np.ndarray:
    """The table model's colours (linear RGB, (n, 3)) under frame points (n, 2)."""
    f = scale * settings.background_shrink
    h, w = table_lab8.shape[:2]
    # (x and y in one pass each: the same numbers element by element)
    at = np.minimum(np.maximum(np.rint((xy + 0.5) / f - 0.5), 0), (w - 1, h - 1)).astype(int)
    under = table_lab8[at[:, 1], at[:, 0]]
    lab = under - _LAB8_OFFSET
    lab[:, 0] = under[:, 0] * 100.0 / 255
    return np.maximum(lab_to_linear_rgb(lab), 1e-4)


def verify_cells(
    frame_bgr: np.ndarray,
    grid: Grid,
    cands: Candidates,
    table_lab8: np.ndarray,
    scale: float,
    palette: Palette,
    settings: ShakerSettings = DEFAULT_SETTINGS,
    *,
    lab_sum: np.ndarray | None = None,
    edge_sum: np.ndarray | None = None,
    stand_out: bool = False,
    faces: bool = False,
    work_lab: np.ndarray | None = None,
    tops: Callable[[np.ndarray, float], np.ndarray] | None = None,
) -> tuple[Grid, Candidates, list[dict[str, Any]]]:
    """Decide each cell by its colour, in the light normalised on the grid's cubes.

    A cell holds a cube when its colour is a palette colour, not clearly nearer the table under it (in
    full light or in any shadow: the table's colour scaled down), and either a cube-like outline was
    found there, or its colour is clearly nearer the palette than the table, or it differs from the
    table in each of the four gaps beside it. The table in a neighbour's shadow, a hand, a shadow on a
    wooden table: no palette colour, or no better than the table. With ``stand_out`` (the chosen lattice's
    last check: never while lattices are compared, where a lattice a column over on the cubes' shadows
    would gain by it), a cell the table in some shadow explains still holds a cube when it is near a
    palette colour and far from the table in each of the four gaps beside it. With ``faces`` (the same last
    check; ``face_edges`` on), a cell still judged the table yet near a palette colour holds a cube when
    enough others do and its top face's four straight edges show (:func:`face_edges`), or three crisply with a
    fainter fourth (a side in a neighbour's shadow, :func:`three_sides_show`) in a colour apart from the table's.
    ``tops(points, radius)``: :func:`sample_top_faces` on the frame as the reader keeps it (made once per frame).
    """
    cell_k = np.array(grid.cell_candidate, dtype=int).ravel()
    have = cell_k >= 0
    members = cell_k[have]
    med_r = _median(cands.radius[members]) if len(members) else grid.pitch / 3
    radius = cube_sample_radius(grid.pitch, math.inf, settings)
    centres = grid._centres  # (9, 2)
    points = centres.copy()
    points[have] = cands.xy[members]
    tables = table_colours_at(table_lab8, points, scale, settings)
    tops_a = tops(points, radius) if tops is not None else sample_top_faces(frame_bgr, points, radius)
    gains, _ = fit_gains(tops_a[have] if have.sum() >= 3 else tops_a, palette)
    lab = linear_rgb_to_lab(tops_a * gains)
    ref = palette.ref_lab
    d_pal = np.sqrt(((lab[:, None, :] - ref[None, :, :]) ** 2).sum(-1)).min(1)
    levels = np.array(settings.shadow_levels)
    table_family = linear_rgb_to_lab(tables[:, None, :] * levels[None, :, None] * gains)
    d_tab = np.sqrt(((lab[:, None, :] - table_family) ** 2).sum(-1)).min(1)
    # the table just beside each cell (the gaps to its four neighbours): an empty cell looks like one of them
    d_gap = np.full(9, np.inf) if lab_sum is None else _gap_distances(grid, centres, points, lab_sum, scale, settings)
    outline = np.zeros(9)
    if edge_sum is not None:
        size_w = 2 * med_r / scale
        pw = (points + 0.5) / scale - 0.5
        halves = np.repeat([0.65 * size_w, 0.375 * size_w, 0.22 * size_w], 9)
        boxes = _box_mean_v(edge_sum, np.tile(pw[:, 0], 3), np.tile(pw[:, 1], 3), halves).reshape(3, 9)
        outer = boxes[0] * (1.3 * size_w) ** 2
        hole = boxes[1] * (0.75 * size_w) ** 2
        ring = (outer - hole) / max(1e-6, (1.3 * size_w) ** 2 - (0.75 * size_w) ** 2)
        outline = ring - boxes[2]
        outline = outline_rings(outline, settings.ring_floor)
    palette_like = d_pal <= settings.cell_max_delta_e
    distinct = (d_pal + settings.cell_margin <= d_tab) & (d_pal <= settings.cell_fill_delta_e)
    table_better = d_tab + settings.cell_table_margin < d_pal
    # or it stands apart from the table on all four sides (a black cube on a dark table, no outline found)
    apart = d_gap >= settings.cell_gap_min
    # a cell of the table's colour and of its gaps' is the table, whatever outline was found there
    same_as_table = (d_tab < settings.table_same_delta_e) & (d_gap < settings.gap_same_delta_e)
    # a colour the table takes in some shadow, yet far from the table in each of the four gaps beside
    # it and near a palette colour: a cube (gray or white on a light table, black on a dark one)
    stands_out = (d_gap >= settings.override_gap_min) & (d_pal <= settings.override_palette_max) & stand_out
    is_cube = palette_like & (~table_better | stands_out) & ~same_as_table & (have | distinct | apart)
    face = np.zeros(9, bool)
    face_looks: dict[int, tuple[float, float, float]] = {}  # (the debug output's: each asked cell's measures)
    if faces and settings.face_edges and 9 > is_cube.sum() >= settings.face_min_cubes:
        ask = ~is_cube & (d_pal <= max(settings.face_max_delta_e, settings.cell_face_far_delta_e))
        if not settings.cell_face_table_like:
            ask &= ~same_as_table
        if ask.any():
            looser = replace(
                settings, face_min_snr=settings.cell_face_min_snr, face_min_sharpness=settings.cell_face_min_sharpness
            )
            sides: dict[str, np.ndarray] = {}
            face[ask], snr, sharpness, tones = faces_show(frame_bgr, grid, centres[ask], work_lab, scale, looser, sides)
            # (three crisp sides and a fainter fourth: a face whose one side is in a neighbour's shadow)
            face[ask] |= (
                three_sides_show(sides, tones, settings)
                & (d_pal[ask] <= settings.face_max_delta_e)
                & (d_tab[ask] >= settings.cell_face_three_min_table)
            )
            # (a colour shared by many of the table's points: a clearer, crisper face; a black cube on a dark table)
            toned = (snr >= settings.cell_face_toned_snr) & (sharpness >= settings.cell_face_toned_sharpness)
            face[ask] |= toned & (tones >= settings.face_max_tone)
            face[ask] &= (d_pal[ask] <= settings.face_max_delta_e) | (snr >= settings.cell_face_far_snr)
            face_looks = {
                int(i): (round(float(a), 2), round(float(b), 2), round(float(c), 3))
                for i, a, b, c in zip(np.nonzero(ask)[0], snr, sharpness, tones, strict=True)
            }
            is_cube = is_cube | face
    tests: list[dict[str, Any]] = [
        {
            "row": i // 3,
            "col": i % 3,
            "d_palette": round(dp, 1),
            "d_table": round(dt, 1),
            "outline": hv,
            "ring": round(rg, 2),
            "d_gap": round(dg, 1),
            "xy": points[i],
            "cube": cb,
            **(
                {
                    "face": fc,
                    "face_snr": face_looks[i][0],
                    "face_sharpness": face_looks[i][1],
                    "face_tone": face_looks[i][2],
                }
                if i in face_looks
                else {}
            ),
        }
        for i, (dp, dt, hv, rg, dg, cb, fc) in enumerate(
            zip(
                d_pal.tolist(),
                d_tab.tolist(),
                have.tolist(),
                outline.tolist(),
                d_gap.tolist(),
                is_cube.tolist(),
                face.tolist(),
                strict=True,
            )
        )
    ]
    new_cells = np.where(is_cube, cell_k, -1)
    added = is_cube & ~have  # a cube found by its colour: a candidate made for it
    if added.any():
        start = len(cands.xy)
        new_cells[added] = np.arange(start, start + int(added.sum()))
        xy = np.concatenate([np.asarray(cands.xy, dtype=np.float64).reshape(-1, 2), points[added]])
        n_add = int(added.sum())
        new = Candidates(
            xy,
            np.concatenate([np.asarray(cands.radius, dtype=np.float64), np.full(n_add, med_r)]),
            np.concatenate([np.asarray(cands.contrast, dtype=np.float64), np.ones(n_add)]),
            cands.scale,
            np.concatenate([np.asarray(cands.strength_or_ones(), dtype=np.float64), np.zeros(n_add)]),
        )
    else:
        new = Candidates(
            np.asarray(cands.xy, dtype=np.float64).reshape(-1, 2),
            np.asarray(cands.radius, dtype=np.float64),
            np.asarray(cands.contrast, dtype=np.float64),
            cands.scale,
            np.asarray(cands.strength_or_ones(), dtype=np.float64),
        )
    cells = tuple(tuple(int(k) for k in row) for row in new_cells.reshape(3, 3).tolist())
    support = int((new_cells >= 0).sum())
    return replace(grid, cell_candidate=cells, support=support), new, tests


def outline_rings(outline: np.ndarray, floor: float) -> np.ndarray:
    """The nine cells' outlines (row by row: each cell's edge ring's mean less its inside's) as rings: each against
    the lattice's typical cell's, the seventh smallest (np.percentile's 75th of nine, without its overhead), never
    against less than ``floor`` (``ring_floor``: where most cells show no outline, the typical one is 0 or below)."""
    return outline / max(float(np.partition(outline, 6)[6]), floor)


def _gap_distances(
    grid: Grid,
    centres: np.ndarray,
    points: np.ndarray,
    lab_sum: np.ndarray,
    scale: float,
    settings: ShakerSettings,
    moves: np.ndarray | None = None,
) -> np.ndarray:
    """:func:`verify_cells`' d_gap: each cell's colour at its point (9, 2) against the gaps to its four neighbours
    (half a step from its centre), the nearest (CIE76, box means of the working Lab copy). With ``moves`` ((m, 2),
    frame px): the gaps moved by each, the colours not, (m, 9)."""
    steps = np.array([-0.5 * grid.row_step, 0.5 * grid.row_step, -0.5 * grid.col_step, 0.5 * grid.col_step])
    moved = centres[None] if moves is None else centres[None] + moves[:, None, :]  # (m, 9, 2)
    gaps = (moved[:, :, None, :] + steps[None, None, :, :]).reshape(-1, 2)
    pw = grid.pitch / scale
    # the cells' and the gaps' box means in one take (the same numbers as one call each)
    at_w = (np.concatenate([points, gaps]) + 0.5) / scale - 0.5
    halves = np.repeat([settings.sample_radius * pw, settings.gap_sample_radius * pw], [9, len(gaps)])
    cell_gap_lab = lab8_to_lab(_box_mean_v(lab_sum, at_w[:, 0], at_w[:, 1], halves))
    cell_lab, gap_lab = cell_gap_lab[:9], cell_gap_lab[9:].reshape(-1, 9, 4, 3)
    d = np.sqrt(((gap_lab - cell_lab[None, :, None, :]) ** 2).sum(-1)).min(2)
    return d[0] if moves is None else d


def shifted_gap_median(
    grid: Grid, points: np.ndarray, cubes: np.ndarray, lab_sum: np.ndarray, scale: float, settings: ShakerSettings
) -> tuple[float, np.ndarray]:
    """The largest median, over the lattice moved by up to ``gap_shift_search`` pitches along each step, of the
    cubes' colours (at ``points``, (9, 2), the cells' row by row; ``cubes`` the cells that hold one) against the
    nearest of the four gaps beside each (:func:`_gap_distances`' measure: the gaps moved, the colours not), and
    the move that gives it (frame px; the first such, from the most negative moves on)."""
    if not cubes.any():
        return 0.0, np.zeros(2)
    reach = settings.gap_shift_search
    n = int(round(reach / settings.gap_shift_step)) if settings.gap_shift_step > 0 else 0
    pitches = np.linspace(-reach, reach, 2 * n + 1) if n > 0 else np.zeros(1)  # (each step's moves, in pitches)
    a, b = (m.ravel() for m in np.meshgrid(pitches, pitches, indexing="ij"))
    shifts = a[:, None] * grid.col_step + b[:, None] * grid.row_step  # (m, 2) frame px
    # (every move's 36 gaps in one take: the numbers of one call a move)
    d = _gap_distances(grid, grid._centres, np.asarray(points, dtype=np.float64), lab_sum, scale, settings, shifts)
    k = int(cubes.sum()) // 2  # (each move's upper median, as :func:`_median`'s)
    medians = np.partition(d[:, cubes], k, axis=1)[:, k]
    best = int(np.argmax(medians))
    return float(medians[best]), shifts[best]


def cell_is_cube(d_pal: np.ndarray, d_tab: np.ndarray, outline: np.ndarray, settings: ShakerSettings) -> np.ndarray:
    """The cell rule of :func:`verify_cells`, vectorised: palette-like, not better explained by the table
    (in any shadow), and either an outline was found or the colour stands out from the table."""
    palette_like = d_pal <= settings.cell_max_delta_e
    distinct = (d_pal + settings.cell_margin <= d_tab) & (d_pal <= settings.cell_fill_delta_e)
    table_better = d_tab + settings.cell_table_margin < d_pal
    return palette_like & ~table_better & (outline | distinct)


def _outward_steps(
    profiles: np.ndarray, d: int, lo: float, hi: float, per_pitch: float
) -> tuple[np.ndarray, np.ndarray]:
    """For outward colour profiles (sides, k, 3; sample i at (i + 0.5) / per_pitch pitches from the centre): the
    largest colour step (CIE76) over +-d samples centred from lo to hi pitches on each side, and where (index)."""
    k = profiles.shape[1]
    i = np.arange(d, k - d)
    at = (i + 0.5) / per_pitch
    i = i[(at >= lo) & (at <= hi)]
    if not len(i):
        return np.zeros(len(profiles)), np.zeros(len(profiles), dtype=int)
    steps = np.sqrt(((profiles[:, i + d] - profiles[:, i - d]) ** 2).sum(-1))
    best = steps.argmax(1)
    return steps[np.arange(len(profiles)), best], i[best]


def face_edges(
    frame_bgr: np.ndarray,
    grid: Grid,
    centres: np.ndarray,
    settings: ShakerSettings = DEFAULT_SETTINGS,
    sides: dict[str, np.ndarray] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """How clearly a cube's top face shows at each of ``centres`` (frame px, (n, 2)): its four straight edges.

    The frame is resampled along the lattice's axes around the point (``face_patch`` pixels over two pitches,
    Lab); each side's colour profile outward from the centre is averaged along the side (``face_band``), so
    only a straight edge at the lattice's angle survives (noise, texture and edges at other angles average
    out). Returns per point the weakest side's largest step in ``face_edge_range`` against the largest step
    inside the face (``face_inner_range``) plus ``face_noise_floor`` (a uniform face whose four sides end in
    an edge scores high; the table in a cast shadow lacks an edge on some side), and the sides' median
    sharpness: the step over 1 frame pixel against over ``face_broad_px`` (about 1 for a face's edge, well
    below for a shadow's penumbra). With ``sides`` (a dict), its per-side measures ((n, 4): left, right, up,
    down) are put there: ``edge``, ``inner`` (the steps) and ``sharp``, ``broad``.
    """
    n = settings.face_patch
    per_pitch = n / 2
    c = (np.arange(n) + 0.5) / n * 2 - 1
    band = np.abs(c) < settings.face_band
    u, v = grid.col_step, grid.row_step
    a = 2.0 / n
    frame_px = grid.pitch / per_pitch  # frame pixels per patch pixel
    d_sharp = max(1, round(1.0 / frame_px))
    d_broad = max(d_sharp + 1, round(settings.face_broad_px / frame_px))
    pts = np.asarray(centres, dtype=np.float64).reshape(-1, 2)
    if not len(pts):
        return np.zeros(0), np.zeros(0)
    rows = np.nonzero(band)[0]  # only the bands across the centre are resampled (the same pixels as the patch's)
    b0, nb = int(rows[0]), len(rows)
    strips = []
    for x, y in pts:
        m = np.array(
            [
                [u[0] * a, v[0] * a, x - (u[0] + v[0]) * (1 - 0.5 * a)],
                [u[1] * a, v[1] * a, y - (u[1] + v[1]) * (1 - 0.5 * a)],
            ]
        )
        across = m.copy()  # patch rows b0.. (the band along x)
        across[:, 2] += m[:, 1] * b0
        down = m.copy()  # patch columns b0.. (the band along y), transposed to the same shape
        down[:, 2] += m[:, 0] * b0
        flags, border = cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, cv2.BORDER_REPLICATE
        strips.append(cv2.warpAffine(frame_bgr, across, (n, nb), flags=flags, borderMode=border))
        strips.append(cv2.warpAffine(frame_bgr, down, (nb, n), flags=flags, borderMode=border).transpose(1, 0, 2))
    lab = cv2.cvtColor(np.concatenate(strips).astype(np.float32) * np.float32(1 / 255), cv2.COLOR_BGR2Lab)
    means = lab.astype(np.float64).reshape(len(pts), 2, nb, n, 3).mean(2)  # (points, x or y, n, 3)
    h = n // 2
    profiles = np.stack(
        [means[:, 0, :h][:, ::-1], means[:, 0, h:], means[:, 1, :h][:, ::-1], means[:, 1, h:]], axis=1
    ).reshape(-1, h, 3)  # per point: left, right, up, down; outward
    edge = _outward_steps(profiles, 2, *settings.face_edge_range, per_pitch)[0].reshape(-1, 4)
    inner = _outward_steps(profiles, 2, *settings.face_inner_range, per_pitch)[0].reshape(-1, 4)
    sharp = _outward_steps(profiles, d_sharp, *settings.face_edge_range, per_pitch)[0].reshape(-1, 4)
    broad = _outward_steps(profiles, d_broad, *settings.face_edge_range, per_pitch)[0].reshape(-1, 4)
    if sides is not None:
        sides.update(edge=edge, inner=inner, sharp=sharp, broad=broad)
    snr = edge.min(1) / (inner.max(1) + settings.face_noise_floor)
    sharpness = np.median(sharp / np.maximum(broad, 1e-6), axis=1)
    return snr, sharpness


def three_sides_show(sides: Mapping[str, np.ndarray], tones: np.ndarray, settings: ShakerSettings) -> np.ndarray:
    """A top face with one side lost in a neighbour's shadow, from :func:`face_edges`' per-side measures
    (``sides``) and the tone shares: the second weakest side's step ``cell_face_three_snr`` times the largest step
    inside the face plus ``face_noise_floor``, the three stronger sides' median sharpness
    ``cell_face_three_sharpness``, the weakest side's step still ``cell_face_three_weak`` times it, and a colour
    few of the table's points share (``face_max_tone``)."""
    edge = np.asarray(sides["edge"])
    if not len(edge):
        return np.zeros(0, bool)
    noise = np.asarray(sides["inner"]).max(1) + settings.face_noise_floor
    order = np.argsort(edge, axis=1)
    ranked = np.take_along_axis(edge, order, axis=1)
    crisp = np.take_along_axis(np.asarray(sides["sharp"]) / np.maximum(np.asarray(sides["broad"]), 1e-6), order, 1)
    return (
        (ranked[:, 1] >= settings.cell_face_three_snr * noise)
        & (ranked[:, 0] >= settings.cell_face_three_weak * noise)
        & (np.median(crisp[:, 1:], axis=1) >= settings.cell_face_three_sharpness)
        & (tones < settings.face_max_tone)
    )


def faces_show(
    frame_bgr: np.ndarray,
    grid: Grid,
    points: np.ndarray,
    work_lab: np.ndarray | None,
    scale: float,
    settings: ShakerSettings = DEFAULT_SETTINGS,
    sides: dict[str, np.ndarray] | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Whether a cube's top face shows at each of ``points`` (frame px, (n, 2)): its four edges clear and crisp
    (:func:`face_edges`: ``face_min_snr``, ``face_min_sharpness``) and its colour shared by few of the table's
    points around the grid (``tone_shares`` of the working Lab copy, when given: ``face_max_tone``); with the
    three measures (snr, sharpness, tone share). ``sides``: :func:`face_edges`' per-side measures put there."""
    snr, sharpness = face_edges(frame_bgr, grid, points, settings, sides)
    tones = tone_shares(work_lab, scale, grid, points, settings) if work_lab is not None else np.zeros(len(points))
    shows = (
        (snr >= settings.face_min_snr) & (sharpness >= settings.face_min_sharpness) & (tones < settings.face_max_tone)
    )
    return shows, snr, sharpness, tones


# refine_grid's design matrix: a cell's 1, column and row, cells row by row (read-only)
_REFINE_A = np.column_stack([np.ones(9), np.tile(np.arange(3.0), 3), np.repeat(np.arange(3.0), 3)])
_REFINE_A.flags.writeable = False


def refine_grid(
    grid: Grid,
    cands: Candidates,
    work_lab: np.ndarray,
    scale: float,
    cubes: np.ndarray,
    points: np.ndarray,
    settings: ShakerSettings = DEFAULT_SETTINGS,
    *,
    face_of: Callable[[np.ndarray, np.ndarray, float], tuple[np.ndarray, float] | None] | None = None,
) -> tuple[Grid, Candidates]:
    """The lattice refitted by least squares to the centres of the cubes' top faces (``cubes``: the cells
    verified as cubes, ``points``: where each was sampled, (9, 2)); a face far off the fit (a cube pushed
    out of line) is left out. Cells whose candidate is off the new lattice lose it (their colour decides).
    ``face_of(cell_xy, cube_xy, pitch)``: :func:`top_face` on ``work_lab`` as the reader keeps it (made once per
    frame)."""
    A = _REFINE_A
    centres = np.zeros((9, 2))
    found = np.zeros(9, bool)
    for i in np.nonzero(cubes)[0]:
        r, c = divmod(int(i), 3)
        if face_of is not None:
            face = face_of(grid.centre(r, c), points[i], grid.pitch)
        else:
            face = top_face(work_lab, grid.centre(r, c), points[i], grid.pitch, scale, settings)
        if face is not None and face[1] <= settings.max_extent:
            centres[i], found[i] = face[0], True
    if found.sum() < settings.refine_min_cells:
        return grid, cands
    sol = _lstsq(A[found], centres[found])
    res = np.hypot(*(A @ sol - centres).T)
    keep = found & (res <= max(settings.refine_trim * grid.pitch, 2.0 * _median(res[found])))
    if keep.sum() < settings.refine_min_cells:
        return grid, cands
    sol = _lstsq(A[keep], centres[keep])
    o, u, v = sol
    old_centres = grid.origin + A[:, 1:2] * grid.col_step + A[:, 2:3] * grid.row_step
    if np.hypot(*(A @ sol - old_centres).T).max() > settings.refine_max_change * grid.pitch:
        return grid, cands  # the faces say another lattice: not a refinement, not trusted
    new_grid = replace(grid, origin=o, col_step=u, row_step=v)
    tol = settings.lattice_tolerance * new_grid.pitch
    cells = [list(row) for row in grid.cell_candidate]
    cell_k = [k for row in cells for k in row]
    held = [i for i in range(9) if cell_k[i] >= 0]
    if held:  # (every held cell's candidate against its new centre at once: the same differences, hypot as before)
        off = (cands.xy[[cell_k[i] for i in held]] - new_grid._centres[held]).tolist()
        for i, (dx, dy) in zip(held, off, strict=True):
            if math.hypot(dx, dy) > tol:
                cells[i // 3][i % 3] = -1  # no outline found on the new lattice: the cell's colour decides
    support = sum(1 for row in cells for k in row if k >= 0)
    return replace(new_grid, cell_candidate=tuple(tuple(row) for row in cells), support=support), cands


def best_window(
    frame_bgr: np.ndarray,
    grid: Grid,
    cands: Candidates,
    table_lab8: np.ndarray,
    scale: float,
    palette: Palette,
    settings: ShakerSettings = DEFAULT_SETTINGS,
    *,
    lab_sum: np.ndarray | None = None,
    work_lab: np.ndarray | None = None,
    out: dict[str, Any] | None = None,
) -> tuple[Grid, int]:
    """The 3 x 3 window of the grid's lattice that holds the cubes: the grid itself, or it shifted by a row
    or a column when that window holds more cubes and leaves fewer around it (a lattice found one row
    off, on the cubes' shadows, is the usual case). Also returns how many lattice points just around the
    window look like cubes (a checked or printed table continues its lattice; a shake does not)."""
    tol = settings.lattice_tolerance * grid.pitch
    radius = cube_sample_radius(grid.pitch, math.inf, settings)
    pts_a = grid.origin + _AROUND_CR[:, 0:1] * grid.col_step + _AROUND_CR[:, 1:2] * grid.row_step  # (25, 2)
    idx_a = np.full(25, -1)
    if len(cands.xy):
        dist = np.hypot(cands.xy[None, :, 0] - pts_a[:, None, 0], cands.xy[None, :, 1] - pts_a[:, None, 1])
        k0 = dist.argmin(1)
        idx_a = np.where(dist[np.arange(25), k0] <= tol, k0, -1)
        pts_a[idx_a >= 0] = cands.xy[idx_a[idx_a >= 0]]
    idx = idx_a.tolist()
    have = idx_a >= 0
    h, w = frame_bgr.shape[:2]
    inside = (pts_a[:, 0] >= 0) & (pts_a[:, 0] < w) & (pts_a[:, 1] >= 0) & (pts_a[:, 1] < h)
    if lab_sum is not None:  # box means of the working Lab copy: cheap, and enough to choose a window
        pw_pts = (pts_a + 0.5) / scale - 0.5
        box = _box_mean_v(lab_sum, pw_pts[:, 0], pw_pts[:, 1], settings.sample_radius * grid.pitch / scale)
        tops = np.maximum(lab_to_linear_rgb(lab8_to_lab(box)), 1e-4)
    else:
        tops = np.array(
            [
                sample_top_face(frame_bgr, p, radius) if ok else np.full(3, 1e-4)
                for p, ok in zip(pts_a, inside, strict=True)
            ]
        )
    have_a = have & inside
    core = np.zeros(25, bool)
    core[[6, 7, 8, 11, 12, 13, 16, 17, 18]] = True
    fit_on = have_a & core
    gains, _ = fit_gains(tops[fit_on] if fit_on.sum() >= 3 else tops[core], palette)
    lab = linear_rgb_to_lab(tops * gains)
    d_pal = np.sqrt(((lab[:, None, :] - palette.ref_lab[None, :, :]) ** 2).sum(-1)).min(1)
    tables = table_colours_at(table_lab8, pts_a, scale, settings)
    levels = np.array(settings.shadow_levels)
    family = linear_rgb_to_lab(tables[:, None, :] * levels[None, :, None] * gains)
    d_tab = np.sqrt(((lab[:, None, :] - family) ** 2).sum(-1)).min(1)
    cube = cell_is_cube(d_pal, d_tab, have_a, settings) & inside
    # with work_lab (and window_faces on): a lattice point just around the window that colour alone calls the
    # table yet near a palette colour is a cube when its top face shows (face_edges; a row of gray cubes on a
    # light table the lattice was found a row beside)
    if work_lab is not None and settings.window_faces and settings.face_edges and cube[core].sum() < 9:
        # a side's points only when the window's opposite row or column is short of cubes (else no move by a
        # row or column towards them can gain); not the corners (a move by both only follows a side's)
        ask = np.zeros(25, bool)
        for side, opposite in _WINDOW_SIDES:
            if not cube[opposite].all():
                ask[side] = True
        ask &= ~cube & inside & (d_pal <= settings.face_max_delta_e)
        if ask.any():
            cube[ask] = faces_show(frame_bgr, grid, pts_a[ask], work_lab, scale, settings)[0]
    cube = cube.reshape(5, 5)
    scores = {}
    arounds = {}
    rows = cube.tolist()  # (the nine windows' counts in plain Python: 18 array sums' overhead on a 5 x 5 grid)
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            r0, c0 = 1 + dr, 1 + dc
            win = sum(sum(row[c0 : c0 + 3]) for row in rows[r0 : r0 + 3])
            around = sum(sum(row[max(0, c0 - 1) : c0 + 4]) for row in rows[max(0, r0 - 1) : r0 + 4]) - win
            scores[(dr, dc)] = win - around
            arounds[(dr, dc)] = around
    best = max(scores, key=lambda k: (scores[k], k == (0, 0)))
    if out is not None:  # (the lattice points that look like cubes, and each window's score: for the last checks)
        out.update(cube=cube.copy(), scores=dict(scores), points=idx)
    if best == (0, 0) or scores[best] <= scores[(0, 0)] + settings.shift_margin:
        return grid, arounds[(0, 0)]
    return window_shifted(grid, idx, best), arounds[best]


def window_shifted(grid: Grid, points: Sequence[int], move: tuple[int, int]) -> Grid:
    """The grid's window moved by ``move`` (rows, columns), its cells' candidates from ``points`` (best_window's
    25 lattice points' candidates, -1 for none)."""
    dr, dc = move
    cells = tuple(tuple(int(points[(r + 1 + dr) * 5 + (c + 1 + dc)]) for c in range(3)) for r in range(3))
    return replace(
        grid,
        origin=grid.centre(dr, dc),
        cell_candidate=cells,
        support=sum(1 for row in cells for k in row if k >= 0),
    )


def faces_beyond(
    frame_bgr: np.ndarray,
    grid: Grid,
    cube: np.ndarray,
    work_lab: np.ndarray,
    scale: float,
    settings: ShakerSettings = DEFAULT_SETTINGS,
    ask: Callable[[list[tuple[int, int]]], bool] | None = None,
) -> np.ndarray:
    """best_window's 5 x 5 points that look like cubes (``cube``), with each side just around the window whose
    points look like cubes only in part filled when every other point of it holds a cube's top face: the region of
    the colour at the point (:func:`top_face`, ``work_lab`` the working Lab copy) centred within
    ``beyond_face_offset`` pitches of it, ``beyond_face_min_extent`` to ``max_extent`` pitches wide, its four edges
    clear (:func:`faces_show` at the face's centre, sharpness not asked: a cube turned off the lattice's angle). A
    line of cubes beyond the grid that lies off the lattice's points (a lattice fitted a line off, its pitch a little
    short). ``ask``: whether to look beyond a side, given the grid's line opposite it (its cells, row and column);
    every side when None. ``beyond_face_offset`` 0.0 or less: ``cube`` as given."""
    if settings.beyond_face_offset <= 0:
        return cube
    flat = np.asarray(cube, dtype=bool).ravel().copy()
    any_sharpness = None  # (the settings without face_min_sharpness: made only when a face is looked at)
    for side, opposite in _WINDOW_SIDES:
        have = flat[side]
        if have.all() or not have.any():
            continue
        if ask is not None and not ask([(k // 5 - 1, k % 5 - 1) for k in opposite]):
            continue
        for k in (k for k, h in zip(side, have.tolist(), strict=True) if not h):
            point = np.asarray(grid.centre(k // 5 - 1, k % 5 - 1), dtype=np.float64)
            face = top_face(work_lab, point, point, grid.pitch, scale, settings)
            if any_sharpness is None:
                any_sharpness = replace(settings, face_min_sharpness=0.0)
            if (
                face is None
                or math.hypot(*(face[0] - point)) > settings.beyond_face_offset * grid.pitch
                or not settings.beyond_face_min_extent <= face[1] <= settings.max_extent
                or not faces_show(frame_bgr, grid, face[0][None], work_lab, scale, any_sharpness)[0][0]
            ):
                break
        else:
            flat[side] = True
    return flat.reshape(np.shape(cube))


_ONES_3 = np.ones((1, 3), np.float32)
# best_window's 5 x 5 points: each side just around the window (top, bottom, left, right) and the window's row or
# column opposite it
_WINDOW_SIDES = (
    ([1, 2, 3], [16, 17, 18]),
    ([21, 22, 23], [6, 7, 8]),
    ([5, 10, 15], [8, 13, 18]),
    ([9, 14, 19], [6, 11, 16]),
)


FaceRegion = tuple[np.ndarray, int, list[int], list[float], int, int, float]
"""A cube's top face as :func:`_face_region` finds it: the window's labels image, the face's label, its stats and
centroid there, the window's corner (x0, y0) and the pitch in working pixels."""


def _face_region(
    work_lab: np.ndarray,
    cell_xy: np.ndarray,
    cube_xy: np.ndarray,
    pitch: float,
    scale: float,
    settings: ShakerSettings,
) -> FaceRegion | None:
    """The region of the colour found at ``cube_xy`` around the cell (working copy): its labels image, its label,
    stats and centroid, the window's corner (x0, y0) and the pitch in working pixels; None when not found."""
    h, w = work_lab.shape[:2]
    pw = pitch / scale
    # (in Python floats: the same float64 arithmetic, without numpy's overhead on two numbers)
    cx, cy = (float(cell_xy[0]) + 0.5) / scale - 0.5, (float(cell_xy[1]) + 0.5) / scale - 0.5
    half = settings.offset_window * pw
    x0, x1 = max(0, math.floor(cx - half)), min(w, math.ceil(cx + half) + 1)
    y0, y1 = max(0, math.floor(cy - half)), min(h, math.ceil(cy + half) + 1)
    if x1 - x0 < 3 or y1 - y0 < 3:
        return None
    win = work_lab[y0:y1, x0:x1]
    sx, sy = (float(cube_xy[0]) + 0.5) / scale - 0.5, (float(cube_xy[1]) + 0.5) / scale - 0.5
    sx_i = min(x1 - 1, max(x0, round(sx))) - x0
    sy_i = min(y1 - 1, max(y0, round(sy))) - y0
    r = max(1, int(0.1 * pw))
    spot = win[max(0, sy_i - r) : sy_i + r + 1, max(0, sx_i - r) : sx_i + r + 1].reshape(-1, 3)
    # the spot's per-channel median (np.median's overhead dominates on these few pixels); an even count
    # takes the mean of the middle two, truncated to an integer as before
    n_spot = len(spot)
    srt = np.sort(spot, axis=0)
    if n_spot % 2:
        ref = srt[n_spot // 2]
    else:
        ref = ((srt[n_spot // 2 - 1].astype(np.float64) + srt[n_spot // 2]) / 2).astype(np.int16)
    # the L1 distance to it in OpenCV passes (|x - ref| of 8-bit values is exact; the sum of three is too)
    diff = cv2.absdiff(win, (*map(float, ref.tolist()), 0.0))
    dist = cv2.transform(diff, _ONES_3)
    mask = cv2.compare(dist, float(settings.offset_colour), cv2.CMP_LE)
    n, labels, stats, cents = cv2.connectedComponentsWithStats(mask, connectivity=4)
    lab_id = int(labels[sy_i, sx_i])
    if lab_id == 0:
        return None
    # (in Python numbers: the same float64 arithmetic as on numpy's scalars and the two-element array)
    return labels, lab_id, stats[lab_id].tolist(), cents[lab_id].tolist(), x0, y0, pw


def top_face(
    work_lab: np.ndarray,
    cell_xy: np.ndarray,
    cube_xy: np.ndarray,
    pitch: float,
    scale: float,
    settings: ShakerSettings = DEFAULT_SETTINGS,
) -> tuple[np.ndarray, float] | None:
    """The centre (frame pixels) and larger side (pitches) of a cube's top face: the region of the colour
    found at ``cube_xy`` around it, within the cell's neighbourhood (working copy); None when not found."""
    return _face_top(_face_region(work_lab, cell_xy, cube_xy, pitch, scale, settings), scale)


def _face_top(region: FaceRegion | None, scale: float) -> tuple[np.ndarray, float] | None:
    """:func:`top_face`'s centre and extent of a face region."""
    if region is None:
        return None
    _, _, st, (mx, my), x0, y0, pw = region
    extent = max(st[cv2.CC_STAT_WIDTH], st[cv2.CC_STAT_HEIGHT]) / pw
    centre = np.array([(mx + x0 + 0.5) * scale - 0.5, (my + y0 + 0.5) * scale - 0.5])
    return centre, extent


def face_spread_ratio(
    work_lab: np.ndarray,
    cell_xy: np.ndarray,
    cube_xy: np.ndarray,
    grid: Grid,
    scale: float,
    settings: ShakerSettings = DEFAULT_SETTINGS,
) -> float | None:
    """How much wider a cube's top face (:func:`top_face`'s region) spreads along the lattice's columns step than
    along its rows step (the standard deviations of its pixels along the two, their ratio): a square face seen
    as the lattice is, so about the lattice's own ratio of steps. None when no face of a few pixels is found."""
    return _face_spread(_face_region(work_lab, cell_xy, cube_xy, grid.pitch, scale, settings), grid, settings)


def _face_moments(region: FaceRegion | None, settings: ShakerSettings) -> dict[str, float] | None:
    """A face region's pixels' moments (:func:`cv2.moments`), or None when it has fewer than
    ``face_spread_min_pixels``."""
    if region is None or region[2][cv2.CC_STAT_AREA] < settings.face_spread_min_pixels:
        return None
    labels, lab_id, st, _, _, _, _ = region
    x, y = st[cv2.CC_STAT_LEFT], st[cv2.CC_STAT_TOP]
    box = labels[y : y + st[cv2.CC_STAT_HEIGHT], x : x + st[cv2.CC_STAT_WIDTH]]
    return cv2.moments((box == lab_id).view(np.uint8), binaryImage=True)


def _face_spread(region: FaceRegion | None, grid: Grid, settings: ShakerSettings) -> float | None:
    """:func:`face_spread_ratio` of a face region: from its pixels' second central moments (the variance along a
    unit vector u is u'Mu over the pixel count, which cancels in the ratio)."""
    m = _face_moments(region, settings)
    if m is None:
        return None
    (ux, uy), (vx, vy) = (
        (grid.col_step / np.linalg.norm(grid.col_step)).tolist(),
        (grid.row_step / np.linalg.norm(grid.row_step)).tolist(),
    )
    var_u = ux * ux * m["mu20"] + 2 * ux * uy * m["mu11"] + uy * uy * m["mu02"]
    var_v = vx * vx * m["mu20"] + 2 * vx * vy * m["mu11"] + vy * vy * m["mu02"]
    return math.sqrt(max(0.0, var_u) / var_v) if var_v > 0 else None


def lattice_face_mismatch(
    work_lab: np.ndarray,
    scale: float,
    grid: Grid,
    cell_tests: Sequence[Mapping[str, Any]],
    face_points: Mapping[tuple[int, int], np.ndarray],
    settings: ShakerSettings = DEFAULT_SETTINGS,
    *,
    region_of: Callable[[np.ndarray, np.ndarray, float], FaceRegion | None] | None = None,
) -> float | None:
    """The log of the lattice's ratio of steps (columns over rows) against the median of its cubes' top faces'
    (:func:`face_spread_ratio`): about 0 where the lattice sits on its cubes, seen as they are. None with fewer
    than ``face_spread_min_faces`` faces measured. ``region_of(cell_xy, cube_xy, pitch)``: :func:`_face_region`
    on ``work_lab`` as the reader keeps it (made once per frame), when given."""
    if region_of is None:

        def region_of(cell: np.ndarray, cube: np.ndarray, pitch: float) -> FaceRegion | None:
            return _face_region(work_lab, cell, cube, pitch, scale, settings)

    measured = [r for r in _cube_faces(grid, cell_tests, face_points, region_of, _face_spread, settings) if r > 0]
    if len(measured) < settings.face_spread_min_faces:
        return None
    return math.log(grid.step_ratio / _median(measured))


def _cube_faces(
    grid: Grid,
    cell_tests: Sequence[Mapping[str, Any]],
    face_points: Mapping[tuple[int, int], np.ndarray],
    region_of: Callable[[np.ndarray, np.ndarray, float], FaceRegion | None],
    measure: Callable[[FaceRegion | None, Grid, ShakerSettings], float | None],
    settings: ShakerSettings,
) -> list[float]:
    """``measure`` (:func:`_face_spread`, :func:`_face_shear`) of each cube cell's top face that has a face point,
    in the cell tests' order; the faces it finds no measure for left out."""
    cells = [(t["row"], t["col"]) for t in cell_tests if t["cube"] and (t["row"], t["col"]) in face_points]
    values = (measure(region_of(grid.centre(*cell), face_points[cell], grid.pitch), grid, settings) for cell in cells)
    return [v for v in values if v is not None]


def _face_shear(region: FaceRegion | None, grid: Grid, settings: ShakerSettings) -> float | None:
    """How sheared a face region is in the lattice's own frame: its pixels' second central moments M taken back
    through the lattice's steps L (columns' and rows' step as columns), N = L^-1 M L^-T, and N's correlation
    N01 / sqrt(N00 N11). A square's moments are the same however it is turned, so a cube's face, seen as the
    lattice is, gives N a multiple of the identity: about 0, the cube's own small turn or not. None when no face of
    a few pixels is found."""
    m = _face_moments(region, settings)
    if m is None:
        return None
    (a, c), (b, d) = grid.col_step.tolist(), grid.row_step.tolist()
    if abs(a * d - b * c) < 1e-9:
        return None
    # L^-1 = [[d, -b], [-c, a]] / det; the det cancels in the correlation
    p, q, r = m["mu20"], m["mu11"], m["mu02"]
    n00 = d * d * p - 2 * b * d * q + b * b * r
    n11 = c * c * p - 2 * a * c * q + a * a * r
    n01 = -c * d * p + (a * d + b * c) * q - a * b * r
    return n01 / math.sqrt(n00 * n11) if n00 > 0 and n11 > 0 else None


def lattice_face_shear(
    grid: Grid,
    cell_tests: Sequence[Mapping[str, Any]],
    face_points: Mapping[tuple[int, int], np.ndarray],
    region_of: Callable[[np.ndarray, np.ndarray, float], FaceRegion | None],
    settings: ShakerSettings = DEFAULT_SETTINGS,
) -> float | None:
    """The median over the lattice's cubes of their top faces' shear in its frame (:func:`_face_shear`): about 0
    where the lattice sits on its cubes, its steps at their faces' angles, however the camera's tilt shears both; a
    lattice sheared off them (a line slid along itself onto the gaps or shadows beside its cubes) reads its faces
    sheared the other way. None with fewer than ``face_spread_min_faces`` faces measured (``region_of(cell_xy,
    cube_xy, pitch)``: :func:`_face_region`)."""
    measured = _cube_faces(grid, cell_tests, face_points, region_of, _face_shear, settings)
    return _median(measured) if len(measured) >= settings.face_spread_min_faces else None


def squashed_far_line(
    grid: Grid,
    face_points: Mapping[tuple[int, int], np.ndarray],
    moves: Sequence[tuple[int, int]],
    region_of: Callable[[np.ndarray, np.ndarray, float], FaceRegion | None],
    settings: ShakerSettings = DEFAULT_SETTINGS,
) -> float | None:
    """How much more squashed across itself the grid's far line is than its middle line, for the most squashed of
    the lines the ``moves`` would leave out (each a move onto a full line beyond, :func:`full_lines_beyond`'s: by
    a row, the grid's row opposite; by a column, its column opposite): the median over the line's faces of the log
    of their spread along the line over their spread across it (:func:`face_spread_ratio`), less the middle line's
    (the lattice's own ratio of steps cancels). About 0 where every face is a square seen alike; a puzzle cube's
    side face seen at a slant, its stickers thinner across than its top's, well above. None when no line has two
    faces measured on the middle line and one on the far line (``region_of(cell_xy, cube_xy, pitch)``:
    :func:`_face_region`)."""

    def squash(cells: list[tuple[int, int]], rows: bool, least: int) -> float | None:
        """The median log of a line's faces' spread along it over across it (``rows``: a row, squashed along the
        rows' step; face_spread_ratio is along the columns' step over along the rows'); None under ``least`` faces."""
        logs = []
        for cell in cells:
            if cell not in face_points:
                continue
            ratio = _face_spread(region_of(grid.centre(*cell), face_points[cell], grid.pitch), grid, settings)
            if ratio is not None and ratio > 0:
                logs.append(math.log(ratio) if rows else -math.log(ratio))
        return _median(logs) if len(logs) >= least else None

    def line(index: int, rows: bool) -> list[tuple[int, int]]:
        return [(index, k) if rows else (k, index) for k in range(3)]

    worst: float | None = None
    for dr, dc in moves:
        if abs(dr) + abs(dc) != 1:
            continue
        rows = dr != 0
        far = 2 if dr < 0 or dc < 0 else 0  # (moving down or right leaves the first line out)
        # (the far line's faces on a side face are often cut by the sample, which straddles two of its stickers: one
        # measured is enough there; the middle line's median of two or three)
        far_squash, middle_squash = squash(line(far, rows), rows, 1), squash(line(1, rows), rows, 2)
        if far_squash is None or middle_squash is None:
            continue
        worst = far_squash - middle_squash if worst is None else max(worst, far_squash - middle_squash)
    return worst


def cube_offset(
    work_lab: np.ndarray,
    cell_xy: np.ndarray,
    cube_xy: np.ndarray,
    pitch: float,
    scale: float,
    settings: ShakerSettings = DEFAULT_SETTINGS,
) -> tuple[float, float]:
    """How far (in pitches) the cube's top face lies from its cell's centre, and how wide it is.

    The top face is the region of the cube's colour around where it was sampled, within the cell's
    neighbourhood (working copy); its centroid against the lattice point, and its larger side (in
    pitches: a cube's top is about 0.7; a region filling the whole cell is no cube of this grid).
    """
    return face_offset(top_face(work_lab, cell_xy, cube_xy, pitch, scale, settings), cell_xy, pitch)


def face_offset(face: tuple[np.ndarray, float] | None, cell_xy: np.ndarray, pitch: float) -> tuple[float, float]:
    """:func:`cube_offset` of a top face found (:func:`top_face`'s; (0, 0) for none): the reader asks the faces once
    per frame, the re-lattice asks them again."""
    if face is None:
        return 0.0, 0.0
    centre, extent = face
    return float(math.hypot(*(centre - np.asarray(cell_xy))) / pitch), extent


def _box_means(integral: np.ndarray, xs: np.ndarray, ys: np.ndarray, half: int | np.ndarray) -> np.ndarray:
    """Box means of side 2 * half + 1 around integer points, from an integral image."""
    h, w = integral.shape[0] - 1, integral.shape[1] - 1
    # (np.minimum / np.maximum: np.clip's overhead dominates on these short arrays)
    x0, x1 = np.minimum(np.maximum(xs - half, 0), w), np.minimum(np.maximum(xs + half + 1, 0), w)
    y0, y1 = np.minimum(np.maximum(ys - half, 0), h), np.minimum(np.maximum(ys + half + 1, 0), h)
    total = integral[y1, x1] - integral[y0, x1] - integral[y1, x0] + integral[y0, x0]
    return total / np.maximum(1, (x1 - x0) * (y1 - y0))


def _box_means_at(img: np.ndarray, xs: np.ndarray, ys: np.ndarray, half: int) -> np.ndarray:
    """:func:`_box_means` of ``cv2.integral(img)``, read off the (float32) image itself: for a few small boxes
    cheaper than the integral. The same numbers: the float64 sums of float32 values as small as
    :func:`table_difference`'s (multiples of 2 ** -25 below 2 ** 27 in all) are exact in any order."""
    h, w = img.shape
    x0, x1 = np.minimum(np.maximum(xs - half, 0), w), np.minimum(np.maximum(xs + half + 1, 0), w)
    y0, y1 = np.minimum(np.maximum(ys - half, 0), h), np.minimum(np.maximum(ys + half + 1, 0), h)
    off = np.arange(-half, half + 1)
    yy, xx = ys[:, None] + off, xs[:, None] + off  # (n, side)
    inside = ((yy >= 0) & (yy < h))[:, :, None] & ((xx >= 0) & (xx < w))[:, None, :]
    vals = img[np.minimum(np.maximum(yy, 0), h - 1)[:, :, None], np.minimum(np.maximum(xx, 0), w - 1)[:, None, :]]
    total = np.where(inside, vals, 0).sum(axis=(1, 2), dtype=np.float64)
    return total / np.maximum(1, (x1 - x0) * (y1 - y0))


def _box_mean(integral: np.ndarray, x: float, y: float, half: float) -> float:
    h, w = integral.shape[0] - 1, integral.shape[1] - 1
    x0, x1 = int(max(0, round(x - half))), int(min(w, round(x + half) + 1))
    y0, y1 = int(max(0, round(y - half))), int(min(h, round(y + half) + 1))
    if x1 <= x0 or y1 <= y0:
        return 0.0
    total = integral[y1, x1] - integral[y0, x1] - integral[y1, x0] + integral[y0, x0]
    return float(total) / ((x1 - x0) * (y1 - y0))


def _box_mean_v(integral: np.ndarray, xs: np.ndarray, ys: np.ndarray, half: float) -> np.ndarray:
    """Box means of half-size ``half`` around float points (vectorised :func:`_box_mean`); an integral
    image with channels gives (n, channels)."""
    h, w = integral.shape[0] - 1, integral.shape[1] - 1
    # the four edges of every box at once, clamped to the image (np.minimum / np.maximum: np.clip's overhead
    # dominates on these short arrays), and the four corners read in one take
    edges = np.rint(np.array([xs - half, xs + half, ys - half, ys + half])).astype(int) + _BOX_END
    x0, x1, y0, y1 = np.minimum(np.maximum(edges, 0), np.array([[w], [w], [h], [h]]))
    area = (x1 - x0) * (y1 - y0)
    stride = w + 1
    corners = np.array([y1 * stride + x1, y0 * stride + x1, y1 * stride + x0, y0 * stride + x0])
    c = integral.reshape(len(integral) * stride, -1).take(corners, axis=0)
    if integral.ndim == 2:
        c = c[..., 0]
    total = c[0] - c[1] - c[2] + c[3]
    if total.ndim > 1:
        area = area[:, None]
    return np.where(area > 0, total / np.maximum(area, 1), 0.0)


_CELLS_R, _CELLS_C = np.arange(3)[:, None, None], np.arange(3)[None, :, None]  # (_cell_points_w's)


def _cell_points_w(grid: Grid, scale: float) -> np.ndarray:
    """The nine cell centres in working pixels, (3, 3, 2)."""
    pts = grid.origin[None, None, :] + _CELLS_C * grid.col_step[None, None, :] + _CELLS_R * grid.row_step[None, None, :]
    return (pts + 0.5) / scale - 0.5


def cell_uniformity(
    grid: Grid, edge_sum: np.ndarray, scale: float, settings: ShakerSettings = DEFAULT_SETTINGS
) -> float:
    """Edge strength inside the grid's cells against the whole grid's: low when the cells sit on cube tops,
    high when the lattice sits on the gaps between cubes."""
    pitch_w = grid.pitch / scale
    pts = _cell_points_w(grid, scale).reshape(-1, 2)
    inside = _box_mean_v(edge_sum, pts[:, 0], pts[:, 1], settings.uniform_box * pitch_w / 2)
    whole = _box_mean(edge_sum, pts[4, 0], pts[4, 1], 1.5 * pitch_w)
    return float(np.mean(inside)) / max(whole, 1e-6)


def cell_separation(grid: Grid, edge_sum: np.ndarray, scale: float) -> float:
    """Edge strength on the gaps between neighbouring cells against inside the cells: cubes stand apart."""
    pitch_w = grid.pitch / scale
    half = 0.12 * pitch_w
    pts = _cell_points_w(grid, scale)
    mids = np.concatenate([((pts[:, :-1] + pts[:, 1:]) / 2).reshape(-1, 2), ((pts[:-1] + pts[1:]) / 2).reshape(-1, 2)])
    cells = _box_mean_v(edge_sum, pts[..., 0].ravel(), pts[..., 1].ravel(), half)
    gaps = _box_mean_v(edge_sum, mids[:, 0], mids[:, 1], half)
    return _median(gaps) / max(float(np.mean(cells)), 1e-6)


def gap_contrast(grid: Grid, lab_sum: np.ndarray, scale: float) -> float:
    """The share of the twelve gaps between neighbouring cells whose colour differs from both cells':
    cubes stand on the table, with the table (or a shadow) between them; a lattice drawn inside one
    object (a card, the box) has the same colour in its gaps as in its cells. ``lab_sum`` is the
    integral image of the working 8-bit Lab copy."""
    pts = _cell_points_w(grid, scale)
    half = max(1.0, 0.07 * grid.pitch / scale)
    cells = _box_mean_v(lab_sum, pts[..., 0].ravel(), pts[..., 1].ravel(), half).reshape(3, 3, 3)
    pairs_a = np.concatenate([pts[:, :-1].reshape(-1, 2), pts[:-1].reshape(-1, 2)])
    pairs_b = np.concatenate([pts[:, 1:].reshape(-1, 2), pts[1:].reshape(-1, 2)])
    col_a = np.concatenate([cells[:, :-1].reshape(-1, 3), cells[:-1].reshape(-1, 3)])
    col_b = np.concatenate([cells[:, 1:].reshape(-1, 3), cells[1:].reshape(-1, 3)])
    mids = (pairs_a + pairs_b) / 2
    gaps = _box_mean_v(lab_sum, mids[:, 0], mids[:, 1], half)
    differ = np.minimum(np.abs(gaps - col_a).sum(1), np.abs(gaps - col_b).sum(1)) > 12
    return float(differ.mean())


def lattice_measures(
    grid: Grid, edge_sum: np.ndarray, lab_sum: np.ndarray, scale: float, settings: ShakerSettings = DEFAULT_SETTINGS
) -> tuple[float, float, float]:
    """:func:`cell_separation`, :func:`gap_contrast` and :func:`cell_uniformity` at once (see
    :func:`lattices_measures`)."""
    return lattices_measures([grid], edge_sum, lab_sum, scale, settings)[0]


def lattices_measures(
    grids: Sequence[Grid],
    edge_sum: np.ndarray,
    lab_sum: np.ndarray,
    scale: float,
    settings: ShakerSettings = DEFAULT_SETTINGS,
) -> list[tuple[float, float, float]]:
    """:func:`cell_separation`, :func:`gap_contrast` and :func:`cell_uniformity` of several lattices at once:
    one pass over each integral image for all (every size's lattice is measured so; the same numbers)."""
    if not grids:
        return []
    G = len(grids)
    pitch_w = np.array([grid.pitch / scale for grid in grids])
    # (every grid's :func:`_cell_points_w` at once: the same sums, element by element)
    steps = np.array([(grid.origin, grid.col_step, grid.row_step) for grid in grids])[:, :, None, None, :]
    pts = (steps[:, 0] + _CELLS_C * steps[:, 1] + _CELLS_R * steps[:, 2] + 0.5) / scale - 0.5  # (G, 3, 3, 2)
    cells = pts.reshape(G, 9, 2)
    mids = np.concatenate(
        [((pts[:, :, :-1] + pts[:, :, 1:]) / 2).reshape(G, 6, 2), ((pts[:, :-1] + pts[:, 1:]) / 2).reshape(G, 6, 2)], 1
    )
    # edges: the cells and gaps at 0.12 pitch (separation), the cells at uniform_box (uniformity), the whole grid
    sep_half, in_half = 0.12 * pitch_w, settings.uniform_box * pitch_w / 2
    at = np.concatenate([cells, mids, cells, cells[:, 4:5]], 1).reshape(-1, 2)  # (G * 31, 2)
    halves = np.concatenate(
        [np.repeat(sep_half[:, None], 21, 1), np.repeat(in_half[:, None], 9, 1), 1.5 * pitch_w[:, None]], 1
    ).ravel()
    e = _box_mean_v(edge_sum, at[:, 0], at[:, 1], halves).reshape(G, 31)
    separation = np.partition(e[:, 9:21], 6, axis=1)[:, 6] / np.maximum(np.mean(e[:, :9], axis=1), 1e-6)
    uniformity = np.mean(e[:, 21:30], axis=1) / np.maximum(e[:, 30], 1e-6)
    # colours: the cells and the gaps between neighbours
    half = np.maximum(1.0, np.array([0.07 * grid.pitch / scale for grid in grids]))
    at = np.concatenate([cells, mids], 1).reshape(-1, 2)  # (G * 21, 2)
    c = _box_mean_v(lab_sum, at[:, 0], at[:, 1], np.repeat(half, 21)).reshape(G, 21, 3)
    cols, gaps = c[:, :9].reshape(G, 3, 3, 3), c[:, 9:]
    col_a = np.concatenate([cols[:, :, :-1].reshape(G, 6, 3), cols[:, :-1].reshape(G, 6, 3)], 1)
    col_b = np.concatenate([cols[:, :, 1:].reshape(G, 6, 3), cols[:, 1:].reshape(G, 6, 3)], 1)
    differ = np.minimum(np.abs(gaps - col_a).sum(2), np.abs(gaps - col_b).sum(2)) > 12
    return list(zip(separation.tolist(), differ.mean(1).tolist(), uniformity.tolist(), strict=True))


def grid_plausibility(
    grid: Grid,
    cands: Candidates,
    settings: ShakerSettings = DEFAULT_SETTINGS,
    *,
    edge_sum: np.ndarray | None = None,
    scale: float = 1.0,
    separation: float | None = None,
    uniformity: float | None = None,
) -> float:
    """How well a fitted grid explains the scene: its support, minus strays, an implausible cube size and
    edges inside the cells (a lattice on the gaps). ``separation``, ``uniformity``: :func:`cell_separation` and
    :func:`cell_uniformity`, when made."""
    members = [k for row in grid.cell_candidate for k in row if k >= 0]
    size = 2 * _median(cands.radius[members]) if members else 1.0
    ratio = grid.pitch / max(size, 1e-6)
    lo, hi = settings.pitch_to_size
    off = max(0.0, np.log(lo / ratio), np.log(ratio / hi))
    total = grid.score - settings.stray_penalty * grid.stray_near - settings.size_penalty * off
    if edge_sum is not None:
        if uniformity is None:
            uniformity = cell_uniformity(grid, edge_sum, scale, settings)
        total -= settings.uniformity_penalty * uniformity
        sep = cell_separation(grid, edge_sum, scale) if separation is None else separation
        total -= settings.separation_penalty * max(0.0, np.log(settings.separation_min / max(sep, 1e-6)))
    return total


# ---------------------------------------------------------------- stage 3: sample


def sample_cubes(
    frame_bgr: np.ndarray,
    grid: Grid,
    cands: Candidates,
    settings: ShakerSettings = DEFAULT_SETTINGS,
    *,
    tops: Callable[[np.ndarray, float], np.ndarray] | None = None,
) -> list[tuple[int, int, np.ndarray, np.ndarray | None]]:
    """(row, col, centre, mean linear RGB of the top face or None when the cell is empty) per cell. ``tops``: as
    :func:`verify_cells`' (the last check sampled the nine cubes' faces at one radius already: the usual case)."""
    sample = tops or (lambda pts, rad: sample_top_faces(frame_bgr, pts, rad))
    pitch = grid.pitch
    cells = [(r, c, grid.cell_candidate[r][c]) for r in range(3) for c in range(3)]
    rads = {
        i: cube_sample_radius(pitch, float(cands.radius[k]), settings) for i, (_, _, k) in enumerate(cells) if k >= 0
    }
    tops: dict[int, np.ndarray] = {}
    for rad in set(rads.values()):  # the faces of one radius sampled at once
        idx = [i for i, v in rads.items() if v == rad]
        for i, top in zip(idx, sample(cands.xy[[cells[i][2] for i in idx]], rad), strict=True):
            tops[i] = top
    return [
        (r, c, cands.xy[k], tops[i]) if k >= 0 else (r, c, grid.centre(r, c), None) for i, (r, c, k) in enumerate(cells)
    ]


def sample_radii(grid: Grid, cands: Candidates, settings: ShakerSettings = DEFAULT_SETTINGS) -> list[float]:
    """The sampling disk's radius (frame pixels) per cell, row by row (0 where the cell is empty)."""
    pitch = grid.pitch
    return [
        cube_sample_radius(pitch, float(cands.radius[k]), settings) if k >= 0 else 0.0
        for row in grid.cell_candidate
        for k in row
    ]


# the sampling disk's four quarters: their centres' offsets in sampling radii, times mixed_sub_offset
# (_doubtful_disks samples them, doubt_checks_beside measures those of one colour again)
_QUARTERS = np.array([(-1.0, -1.0), (1.0, -1.0), (-1.0, 1.0), (1.0, 1.0)])


def doubt_mixed_samples(
    frame_bgr: np.ndarray,
    samples: Sequence[tuple[int, int, np.ndarray, np.ndarray | None]],
    cubes: Sequence[CubeReading],
    rads: Sequence[float],
    gains: np.ndarray,
    table_linear: np.ndarray,
    palette: Palette,
    settings: ShakerSettings = DEFAULT_SETTINGS,
    *,
    grid: Grid | None = None,
    quarters: dict[str, Any] | None = None,
) -> list[CubeReading]:
    """The readings with a tie's confidence (:func:`doubted`) for each cube whose sampling disk mixed it with the table.

    The disk of a small cube in a tilted grid can sit half on the cube and half on the table beside it:
    its median is then a colour between them, often gray. Four smaller disks in the sample's quarters
    tell: one naming another colour that is much farther from the table (``table_linear``: the table
    model's linear RGB under each sample, (9, 3)) than the whole disk was is the cube's own face, and
    the reading is not to be trusted.

    ``grid``, the refined lattice (as :func:`doubt_off_centre_samples`'): a cube so doubted keeps its reading when
    the disk at its cell's centre, at least ``mixed_centre_min_shift`` radii from the sample, names the same colour
    and mixes nothing (``mixed_centre_look``). A disk off the top face (on a neighbour's shadow beside it) is then
    told from a disk beside the cube: the face itself names the cube.

    ``quarters``, when given, gets the sampled cubes' indices ("index"), sample points ("points", (n, 2)) and their
    quarters' distances to each palette colour ("distances", (n, 4, colours)): :func:`doubt_checks_beside` asks them.
    """
    out = list(cubes)
    todo = _sampled(samples, cubes, rads)
    if not todo:
        return out

    def doubtful(
        idx: list[int], points: np.ndarray, wholes: np.ndarray | None = None, kept: list[np.ndarray] | None = None
    ) -> list[bool]:
        colours = [cubes[i].colour for i in idx]
        table = np.asarray(table_linear)[idx]
        rads_at = [rads[i] for i in idx]
        return _doubtful_disks(
            frame_bgr, points, rads_at, colours, table, gains, palette, settings, wholes=wholes, quarters_out=kept
        )

    points = np.array([samples[i][2] for i in todo], dtype=np.float64)
    kept_quarters: list[np.ndarray] = []
    mixed = doubtful(todo, points, np.array([samples[i][3] for i in todo]), kept_quarters)
    if quarters is not None:
        quarters.update(index=todo, points=points, distances=kept_quarters[0])
    doubts = [i for i, m in zip(todo, mixed, strict=True) if m]
    if doubts and grid is not None and settings.mixed_centre_look:
        # (a disk at the cell's centre that mostly overlaps the sample is no second look: those stay doubted)
        at = {i: grid.centre(samples[i][0], samples[i][1]) for i in doubts}
        looked = [i for i in doubts if np.hypot(*(at[i] - samples[i][2])) >= settings.mixed_centre_min_shift * rads[i]]
        still = doubtful(looked, np.array([at[i] for i in looked], dtype=np.float64).reshape(-1, 2))
        kept = {i for i, in_doubt in zip(looked, still, strict=True) if not in_doubt}
        doubts = [i for i in doubts if i not in kept]
    for i in doubts:
        out[i] = doubted(cubes[i])
    return out


def _doubtful_disks(
    frame_bgr: np.ndarray,
    points: np.ndarray,
    rads: Sequence[float],
    colours: Sequence[str | None],
    table_linear: np.ndarray,
    gains: np.ndarray,
    palette: Palette,
    settings: ShakerSettings,
    *,
    wholes: np.ndarray | None = None,
    quarters_out: list[np.ndarray] | None = None,
) -> list[bool]:
    """Whether each disk (``points`` (n, 2), ``rads``) is not to be trusted to show a face of its colour (``colours``):
    it mixes the table with a face of another colour, a quarter naming another colour ``mixed_table_margin`` farther
    from the table (``table_linear`` (n, 3)) than the whole disk. ``wholes``: each disk's median linear RGB, when
    sampled already; else sampled here and a disk whose whole names another colour is doubtful too (a second look
    at a face). ``quarters_out`` gets the quarters' distances to each palette colour, (n, 4, colours)."""
    if not len(points):
        return []
    offs = _QUARTERS * settings.mixed_sub_offset
    n = len(points)
    named = wholes is None
    if wholes is None:
        wholes = np.concatenate(
            [sample_top_faces(frame_bgr, xy[None], rad) for xy, rad in zip(points, rads, strict=True)]
        )
    subs = np.empty((n, 4, 3))
    for rad in set(rads):  # the quarters of one radius sampled at once
        idx = [k for k in range(n) if rads[k] == rad]
        # (every disk's four quarters in one broadcast: the same sums point by point)
        pts = (points[idx][:, None, :] + offs * rad).reshape(-1, 2)
        subs[idx] = sample_top_faces(frame_bgr, pts, settings.mixed_sub_radius * rad).reshape(len(idx), 4, 3)
    sub_lab = linear_rgb_to_lab(subs.reshape(-1, 3) * gains)
    whole_lab = linear_rgb_to_lab(np.asarray(wholes) * gains)
    table_lab = linear_rgb_to_lab(np.asarray(table_linear) * gains)
    d_whole = np.linalg.norm(whole_lab - table_lab, axis=1)
    d_subs = np.linalg.norm(sub_lab.reshape(-1, 4, 3) - table_lab[:, None, :], axis=2)
    # (nearest_names' names, from the distances it takes: argmin, the first of equal ones)
    sub_dist = per_colour_distances(sub_lab, palette)
    names = [palette.names[k] for k in sub_dist.argmin(1).tolist()]
    if quarters_out is not None:
        quarters_out.append(sub_dist.reshape(n, 4, -1))
    # (every quarter's comparison at once: the same sums and comparisons disk by disk)
    far = (d_subs > (d_whole + settings.mixed_table_margin)[:, None]).tolist()
    out = [any(far[k][q] and names[4 * k + q] != colours[k] for q in range(4)) for k in range(n)]
    if named:
        out = [
            m or name != colour for m, name, colour in zip(out, nearest_names(whole_lab, palette), colours, strict=True)
        ]
    return out


def doubt_checks_beside(
    cubes: Sequence[CubeReading],
    quarters: Mapping[str, Any],
    rads: Sequence[float],
    grid: Grid,
    palette: Palette,
    work: _FrameWork,
    settings: ShakerSettings = DEFAULT_SETTINGS,
    debug: dict[str, Any] | None = None,
) -> list[CubeReading]:
    """The readings with a tie's confidence (:func:`doubted`) for each cube whose disk lies half on the table's own
    check: its quarters (:func:`doubt_mixed_samples`' ``quarters``: the cubes' indices, sample points and quarters'
    distances to each palette colour) name two palette colours, a quarter of another colour within
    ``mixed_palette_delta_e`` of it, and every quarter naming the cube's own colour is the table's repeat
    (:func:`vision.shaker_repeat.repeat_distances` on a patch ``mixed_repeat_half`` pitches each way, under
    ``repeat_same_max``): the colour read is a check's, the cube the other colour beside it. Asked only on a table
    whose picture repeats (its periods found once a frame); ``debug`` gets each such disk's measures."""
    out = list(cubes)
    if settings.mixed_palette_delta_e <= 0 or not quarters.get("index"):
        return out
    dist = quarters["distances"]
    nearest, near = dist.argmin(2), dist.min(2)  # (n, 4)
    colour_of = {name: k for k, name in enumerate(palette.names)}
    own_colour = np.array([colour_of.get(cubes[i].colour or "", -1) for i in quarters["index"]])
    owns = nearest == own_colour[:, None]
    mixed = owns.any(1) & (~owns & (near <= settings.mixed_palette_delta_e)).any(1)
    offs = _QUARTERS * settings.mixed_sub_offset
    for k in np.flatnonzero(mixed).tolist():
        i, point, own = quarters["index"][k], quarters["points"][k], np.flatnonzero(owns[k])
        periods = frame_periods(work.lab, settings, work.memo)  # (repeated_cells' periods, found once a frame)
        if periods is None:
            continue
        at = (point[None] + offs[own] * rads[i] + 0.5) / work.scale - 0.5
        repeats = repeat_distances(
            work.lab,
            periods,
            at,
            float(grid.pitch) / work.scale,
            settings,
            middle_w=(grid.centre(1, 1) + 0.5) / work.scale - 0.5,
            half_pitches=settings.mixed_repeat_half,
        )
        check = bool(np.all(repeats < settings.repeat_same_max))
        if debug is not None:
            measures = [round(float(d), 2) for d in repeats]
            debug.setdefault("checks_beside", []).append(
                {"cell": [cubes[i].row, cubes[i].col], "repeat": measures, "doubted": check}
            )
        if check:
            out[i] = doubted(cubes[i])
    return out


def doubt_off_centre_samples(
    frame_bgr: np.ndarray,
    samples: Sequence[tuple[int, int, np.ndarray, np.ndarray | None]],
    cubes: Sequence[CubeReading],
    rads: Sequence[float],
    gains: np.ndarray,
    grid: Grid,
    palette: Palette,
    settings: ShakerSettings = DEFAULT_SETTINGS,
) -> list[CubeReading]:
    """The readings with a tie's confidence (:func:`doubted`) for each cube whose cell's centre shows another colour.

    A cube is sampled where its cube-like shape was found, which can be beside its top face: on a lit side (a
    gray cube read white, s61616 0108). The same disk at the cell's centre, where the lattice puts the top face,
    then names another palette colour, the reading's own at least ``centre_other_delta_e`` (CIE76, in the cubes'
    light) from it. On the tuning sets no right reading's cell centre named another colour at all.
    """
    out = list(cubes)
    todo = _sampled(samples, cubes, rads)
    if not todo or not math.isfinite(settings.centre_other_delta_e):
        return out
    for rad in {rads[i] for i in todo}:  # the centres of one radius sampled at once
        idx = [i for i in todo if rads[i] == rad]
        centres = np.array([grid.centre(samples[i][0], samples[i][1]) for i in idx])
        d = per_colour_distances(linear_rgb_to_lab(sample_top_faces(frame_bgr, centres, rad) * gains), palette)
        for j, i in enumerate(idx):
            own = d[j, palette.names.index(cubes[i].colour)]
            if own >= settings.centre_other_delta_e and own > d[j].min():
                out[i] = doubted(cubes[i])
    return out


def _sampled(
    samples: Sequence[tuple[int, int, np.ndarray, np.ndarray | None]],
    cubes: Sequence[CubeReading],
    rads: Sequence[float],
) -> list[int]:
    """The indices of the cubes read from a sample: a top face sampled, a colour named, a disk's radius."""
    return [
        i for i, (s, c) in enumerate(zip(samples, cubes, strict=True)) if s[3] is not None and c.colour and rads[i] > 0
    ]


DOUBTED_CONFIDENCE = 0.5  # a tie's confidence: below min_confidence, so the pattern is refused as unclear


def doubted(cube: CubeReading) -> CubeReading:
    """The reading with at most a tie's confidence: its sample is not to be trusted."""
    return replace(cube, confidence=min(cube.confidence, DOUBTED_CONFIDENCE))


def unclear(row: int, col: int) -> str:
    """The refusal for a cube whose colour cannot be trusted (0-based row and column)."""
    return f"the colour of the cube at row {row + 1}, column {col + 1} is unclear"


def sample_top_face(frame_bgr: np.ndarray, xy: np.ndarray, rad: float) -> np.ndarray:
    """Median linear RGB in a disk around ``xy``, leaving out its darkest quarter (bevels, edges, shadow)."""
    h, w = frame_bgr.shape[:2]
    x0, x1 = int(max(0, np.floor(xy[0] - rad))), int(min(w, np.ceil(xy[0] + rad) + 1))
    y0, y1 = int(max(0, np.floor(xy[1] - rad))), int(min(h, np.ceil(xy[1] + rad) + 1))
    if x1 <= x0 or y1 <= y0:
        return np.full(3, 1e-4)
    patch = frame_bgr[y0:y1, x0:x1]
    yy = (np.arange(y0, y1) - xy[1])[:, None]
    xx = (np.arange(x0, x1) - xy[0])[None, :]
    inside = yy * yy + xx * xx <= rad * rad
    pix = patch[inside] if inside.any() else patch.reshape(-1, 3)
    # per-channel medians commute with the (monotonic) sRGB curve: take them on the 8-bit values
    lum = pix @ np.array([0.0722, 0.7152, 0.2126])
    keep = pix[lum >= np.partition(lum, len(lum) // 4)[len(lum) // 4]]
    mid = len(keep) // 2
    return _SRGB_TO_LINEAR[np.partition(keep, mid, axis=0)[mid][::-1]]


def sample_top_faces(frame_bgr: np.ndarray, points: np.ndarray, rad: float) -> np.ndarray:
    """:func:`sample_top_face` at several points (n, 2) with one radius, at once: (n, 3) linear RGB."""
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    n = len(pts)
    h, w = frame_bgr.shape[:2]
    lo = np.floor(pts - rad).astype(int)  # (n, 2): each box's x0, y0...
    hi = np.ceil(pts + rad).astype(int) + 1  # ...and x1, y1 (one past)
    clipped = n == 0
    if n:  # (the boxes' extremes as Python ints: array comparisons with tuples cost more on these few points)
        (lo_x, lo_y), (hi_x, hi_y) = lo.min(0).tolist(), hi.max(0).tolist()
        clipped = lo_x < 0 or lo_y < 0 or hi_x > w or hi_y > h
    if clipped:  # a box clipped by the frame's edge: one at a time
        return np.array([sample_top_face(frame_bgr, p, rad) for p in pts]).reshape(-1, 3)
    size_x, size_y = (hi - lo).max(0).tolist()
    # each box's pixels from its x0, y0 on (a pixel past x1 or y1 lies more than rad from the centre: never in
    # the disk); dx, dy: their offsets from the centre
    dx = (lo[:, 0:1] + np.arange(size_x)) - pts[:, 0:1]  # (n, sx)
    dy = (lo[:, 1:2] + np.arange(size_y)) - pts[:, 1:2]  # (n, sy)
    m = (dy[:, :, None] ** 2 + dx[:, None, :] ** 2 <= rad * rad).reshape(n, -1)
    count = m.sum(1)
    if not count.all():
        return np.array([sample_top_face(frame_bgr, p, rad) for p in pts]).reshape(-1, 3)
    x0, y0 = lo[:, 0].tolist(), lo[:, 1].tolist()
    if max(x0) + size_x <= w and max(y0) + size_y <= h:  # every box of the largest size fits: plain slices
        patch = np.stack([frame_bgr[a : a + size_y, b : b + size_x] for a, b in zip(y0, x0, strict=True)])
    else:
        ys = np.minimum(lo[:, 1:2] + np.arange(size_y), h - 1)
        xs = np.minimum(lo[:, 0:1] + np.arange(size_x), w - 1)
        patch = frame_bgr[ys[:, :, None], xs[:, None, :]]  # (n, sy, sx, 3)
    pix = patch.reshape(n, -1, 3)
    lum = pix @ _LUMA_BGR
    lum_m = np.where(m, lum, np.inf)
    # (the order statistics from each row sorted: the same values as a partition at each row's rank, and on these
    # short rows cheaper than a partition at every row's rank at once)
    kq = count // 4
    rows = np.arange(n)
    lum_m.sort(axis=1)
    q = lum_m[rows, kq]
    keep = m & (lum >= q[:, None])
    k = keep.sum(1) // 2
    # (each channel's values in a row of their own, 256 after every kept one: sorted along the last axis)
    # (256 added to each left-out value, not set: the kept values still sort first in their own order, and k lies
    # among them; one pass instead of a masked assignment)
    vals = pix.transpose(0, 2, 1).astype(np.uint16)  # (n, 3, pixels)
    vals |= (~keep[:, None, :]).astype(np.uint16) << 8
    vals.sort(axis=2)
    med = vals[rows, :, k]  # (n, 3): the upper median of each channel
    return _SRGB_TO_LINEAR[med[:, ::-1].astype(np.intp)]


_LUMA_BGR = np.array([0.0722, 0.7152, 0.2126])


# ---------------------------------------------------------------- stage 4: classify


def classify_cubes(
    samples: Sequence[tuple[int, int, np.ndarray, np.ndarray | None]], palette: Palette
) -> tuple[list[CubeReading], np.ndarray]:
    """Normalise the light on the cubes present, then name each by its nearest palette colour.

    Returns the readings (cell by cell) and the gains that normalised the light.
    """
    present = [s for s in samples if s[3] is not None]
    readings: dict[tuple[int, int], CubeReading] = {}
    gains = np.ones(3)
    if present:
        obs = np.array([s[3] for s in present])
        gains, lab = fit_gains(obs, palette)
        for s, m in zip(present, classify(lab, palette), strict=True):
            readings[(s[0], s[1])] = CubeReading(
                s[0], s[1], m.name, m.confidence, (float(s[2][0]), float(s[2][1])), m.lab
            )
    cubes = [
        readings.get((r, c), CubeReading(r, c, None, 0.0, (float(xy[0]), float(xy[1])))) for r, c, xy, _ in samples
    ]
    return cubes, gains


def out_of_line_cubes(
    frame_bgr: np.ndarray,
    grid: Grid,
    pool: Sequence[Candidates],
    gains: np.ndarray,
    palette: Palette,
    settings: ShakerSettings = DEFAULT_SETTINGS,
    work: tuple[np.ndarray, float] | None = None,
    rings: Mapping[tuple[int, int], float] | None = None,
    mates: Callable[[np.ndarray], bool] | None = None,
    offsets: Mapping[tuple[int, int], float] | None = None,
    palette_far: Mapping[tuple[int, int], float] | None = None,
) -> list[tuple[float, float]]:
    """Cubes near the grid that sit on none of its cells: a cube-like shape well away from every grid
    cube, whose colour (in the grid's light) is near a palette colour and, given ``work`` (the working Lab
    copy and its scale) and ``stray_not_table_tone``, not one of the table's own colours around the grid.
    ``rings``: the cells' outline strengths (``verify_cells``' ``ring``, -inf where no outline was found);
    given, only a grid cube whose outline is weaker than ``stray_tone_weak_ring`` can be the table's own
    check in a cube's cell. ``mates`` (a shape's point -> bool, :func:`vision.shaker_checks.line_mates`): a shape
    with a mate on its line beyond the grid is one of a line of the cubes' cast shadows, no stray. ``offsets``
    (the cube cells' top-face offsets from their centres, pitches) with ``rings`` and ``palette_far`` (the cells'
    colours' distances from the palette, CIE76): only a shape within
    ``stray_doubt_reach`` pitches of a cell in doubt counts (see ``stray_doubt_ring``)."""
    min_dist = settings.stray_strict_distance
    max_de = settings.stray_strict_delta_e
    # (the grid's nine centres made once: Grid.centre's numbers, row by row)
    held = [3 * r + c for r in range(3) for c in range(3) if grid.cell_candidate[r][c] >= 0]
    if not held:
        return []
    centres = grid._centres
    doubted = centres
    if rings is not None and offsets is not None and settings.stray_doubt_ring < math.inf:
        in_doubt = [
            3 * r + c
            for r in range(3)
            for c in range(3)
            if (r, c) not in offsets
            or offsets[(r, c)] >= settings.stray_doubt_offset
            or rings.get((r, c), -math.inf) < settings.stray_doubt_ring
            or (palette_far or {}).get((r, c), 0.0) >= settings.stray_doubt_palette
        ]
        if not in_doubt:
            return []
        doubted = centres[in_doubt]
    cube_xy = centres[held]
    reach = settings.out_of_line_reach
    pitch = grid.pitch
    found: list[tuple[float, float]] = []
    ref = palette.ref_lab
    # a shape of the table's own colours is the table's (its print, a patch of it) unless a grid cube shows
    # such a colour too (a white cube on a gingham cloth: or a white check taken for one, its cube outside);
    # measured when a shape first needs it
    tones_apart: bool | None = None if work is not None and settings.stray_not_table_tone else False
    for cands in pool:
        if len(cands.xy) == 0:
            continue
        cc = grid.lattice_coords(cands.xy)
        near = np.nonzero((cc >= -reach).all(1) & (cc <= 2 + reach).all(1))[0]
        if len(near) == 0:
            continue
        # well away from every grid cube, and not on an empty cell (that cell's business)
        pts = cands.xy[near]
        d_cube = np.hypot(cube_xy[None, :, 0] - pts[:, None, 0], cube_xy[None, :, 1] - pts[:, None, 1]).min(1)
        d_cell = np.hypot(centres[None, :, 0] - pts[:, None, 0], centres[None, :, 1] - pts[:, None, 1]).min(1)
        apart = (d_cube >= min_dist * pitch) & (d_cell >= settings.lattice_tolerance * pitch)
        if doubted is not centres:  # (and beside a cell in doubt)
            d_doubt = np.hypot(doubted[None, :, 0] - pts[:, None, 0], doubted[None, :, 1] - pts[:, None, 1]).min(1)
            apart &= d_doubt <= settings.stray_doubt_reach * pitch
        for k in near[apart]:
            p = cands.xy[k]
            if any(np.hypot(p[0] - q[0], p[1] - q[1]) < 0.5 * pitch for q in found):
                continue
            rad = cube_sample_radius(pitch, float(cands.radius[k]), settings)
            lab = linear_rgb_to_lab(sample_top_face(frame_bgr, p, rad) * gains)
            if np.sqrt(((ref - lab) ** 2).sum(1)).min() > max_de:
                continue
            if work is not None and tones_apart is None:
                toned = tone_shares(*work, grid, cube_xy, settings) >= settings.cloth_share
                if rings is not None:  # (a cube of the table's tone with a cube's outline is no check)
                    cells = [(r, c) for r in range(3) for c in range(3) if grid.cell_candidate[r][c] >= 0]
                    weak = [rings.get(rc, -math.inf) < settings.stray_tone_weak_ring for rc in cells]
                    toned &= np.array(weak, dtype=bool)
                tones_apart = not bool(toned.any())
            if work is not None and tones_apart and tone_shares(*work, grid, p, settings)[0] >= settings.cloth_share:
                continue
            if mates is not None and mates(p):
                continue
            found.append((float(p[0]), float(p[1])))
    return found


# ---------------------------------------------------------------- stage 5: check


def _rotate(rows: list[list[Any]], rotation: int) -> list[list[Any]]:
    """Turn a 3 x 3 layout clockwise by ``rotation`` degrees (the camera's configured north)."""
    out = [list(r) for r in rows]
    for _ in range((rotation // 90) % 4):
        out = [list(r) for r in zip(*out[::-1], strict=True)]
    return out


def check_grid(
    cubes: Sequence[CubeReading],
    strays: int = 0,
    settings: ShakerSettings = DEFAULT_SETTINGS,
    offsets: Sequence[float] | None = None,
    min_confidence: float | None = None,
) -> str | None:
    """The reason to refuse a lattice's cubes, or None when they show one complete, aligned pattern. ``strays``: the
    shapes out of line beside it; ``offsets``: its cubes' top faces' distances from their cells (pitches);
    ``min_confidence``: the palette's (:attr:`vision.colour.Palette.min_confidence`), when it asks for more than the
    settings'."""
    present = sum(1 for c in cubes if c.colour is not None)
    if present < 9:
        if strays:
            return f"a cube is out of line ({present} cubes in the grid)"
        return f"{present} cubes in the grid"
    if strays:
        return "a cube is out of line"
    if offsets is not None and max(offsets, default=0.0) > settings.max_offset:
        return "a cube is out of line"
    labs = np.array([c.lab for c in cubes if c.lab is not None], dtype=np.float64).reshape(-1, 3)
    if len(labs) == 9 and np.linalg.norm(labs[:, None] - labs[None], axis=2).max() < settings.same_colour_delta_e:
        return "no pattern: the nine cells show one colour (the table's print)"
    floor = max(settings.min_confidence, min_confidence or 0.0)
    low = [c for c in cubes if c.confidence < floor]
    if low:
        return unclear(low[0].row, low[0].col)
    return None


def on_shadows(cell_tests: Sequence[Mapping[str, Any]], settings: ShakerSettings = DEFAULT_SETTINGS) -> bool:
    """Whether the lattice took the cubes' cast shadows for cubes: ``shadow_cells`` cells verified as cubes
    whose colour the table in some shadow explains (``d_table``, CIE76) within ``shadow_cell_delta_e``.

    A tilted grid's shadows fall beside it as cube-shaped, outlined patches of shadow-gray table; a lattice
    a row over holds them (s1111 0216: three within 0.6-1.0 dE read as a row of grays). Real cubes of the
    table's colour in shadow are rarer: at most two such cells in an accepted pattern on the sets measured.
    """
    near = [t for t in cell_tests if t.get("cube") and float(t.get("d_table", math.inf)) < settings.shadow_cell_delta_e]
    return len(near) >= settings.shadow_cells


def table_patch(
    cell_test: Mapping[str, Any], settings: ShakerSettings = DEFAULT_SETTINGS, tone: float | None = None
) -> bool:
    """Whether a cell taken for a cube is a patch of the table: its colour region runs wider than a cell
    (``extent``, pitches) with no outline around it (the table's print, a checked cloth's square), unless its
    colour is near the palette's and of about the table's, yet apart from it (``patch_near_table``,
    ``patch_min_table``, ``patch_min_palette``: such a cube is left to the checks of the table's colour after
    it, which ask its gaps and shadows), or an
    outline was found there (the print's own edges: a gingham check) yet its colour runs wider than
    ``patch_gap_extent`` in the colour of a gap beside it (``d_gap`` within ``patch_gap_delta_e``), given
    ``tone`` (:func:`vision.shaker_checks.tone_shares` of the cell: ``patch_gap_tone``) in one of the table's
    own tones around the grid (at least ``cloth_share``) or weakly outlined (``ring`` below
    ``patch_gap_tone_ring``): a black cube beside a black one on a dark table, a
    gray or white cube on gingham run into a dark gap or a check of about their colour yet are no tone of the
    table's (s5353 0123, s2929 0074, 0397: refused complete patterns). A
    cube's face ends at its edges, and the table shows between cubes (s2222 0194, 0403; s9001 0297;
    s1111 0200: an empty cell read as white or gray, an incomplete pattern accepted). A black cube on a
    dark table with no outline found, its colour running into the table, stays a cube (s777 0210,
    s2222 0400: the hard case is read, not refused).
    """
    extent = float(cell_test.get("extent", 0.0))
    no_outline = (
        extent > settings.patch_extent
        and cell_test["ring"] < settings.patch_ring
        and not cell_test["outline"]
        and not (
            settings.patch_near_table <= float(cell_test.get("d_table", math.inf)) < settings.patch_min_table
            and float(cell_test.get("d_palette", math.inf)) < settings.patch_min_palette
        )
    )
    like_gap = (
        bool(cell_test["outline"])
        and extent > settings.patch_gap_extent
        and float(cell_test["d_gap"]) < settings.patch_gap_delta_e
        and (tone is None or tone >= settings.cloth_share or float(cell_test["ring"]) < settings.patch_gap_tone_ring)
    )
    return bool(no_outline or like_gap)


def check_against_shaker_contents(pattern: list[list[str]], shaker: Mapping[str, int]) -> str | None:
    """The rules engine's reason when the shaker cannot hold this pattern, else None."""
    from scoring.errors import RulesError
    from scoring.shake_that_city.pattern import Pattern, check_against_shaker

    try:
        check_against_shaker(Pattern.parse(pattern), shaker)
    except RulesError as e:
        return str(e)
    return None


# ---------------------------------------------------------------- the whole reader


class _NotKept(Exception):
    """A re-read's settling stopped: no window its refitted lattice can still move to would be kept."""

    def __init__(self, grid: Grid) -> None:
        super().__init__("re-lattice: not kept")
        self.grid = grid


class _FrameWork(NamedTuple):
    """What :func:`read_shaker` makes of a frame before choosing a lattice (the working copy's scale, its Lab
    and table model, the integral images, every size's candidates): a second choice reuses it."""

    scale: float
    lab: np.ndarray
    table_lab8: np.ndarray
    g_sum: np.ndarray
    lab_sum: np.ndarray
    all_cands: list[Candidates]
    # the looks a frame's reads repeat (the re-lattice's and the retry's reads, a lattice settled twice), made once:
    # :func:`_verified` and :func:`_top_face_once` keep theirs here
    memo: dict[Any, Any]


def _frame_work(frame_bgr: np.ndarray, settings: ShakerSettings, laps: dict[str, float] | None = None) -> _FrameWork:
    """A read's first stages (:func:`table_difference`, :func:`edge_strength` and the integral images,
    :func:`find_cubes`) made into the frame's :class:`_FrameWork`; with ``laps``, each stage's seconds put in it
    ("table", "edges", "finder")."""
    t = time.perf_counter() if laps is not None else 0.0
    d, scale, lab, table_lab8 = table_difference(frame_bgr, settings)
    t = _lap(laps, "table", t)
    g = edge_strength(lab, settings)
    g_sum = cv2.integral(g)
    lab_sum = cv2.integral(lab, sdepth=cv2.CV_32S)  # exact for 8-bit sums up to 2**31 / 255 pixels
    t = _lap(laps, "edges", t)
    # (the table difference and edge maps serve the finder only: freed on return, their memory for the later looks)
    all_cands = find_cubes(frame_bgr, settings, work=(d, scale, lab), edges=g)
    _lap(laps, "finder", t)
    return _FrameWork(scale, lab, table_lab8, g_sum, lab_sum, all_cands, {})


def _lap(laps: dict[str, float] | None, stage: str, t: float) -> float:
    """With ``laps``, the seconds since ``t`` put in it as ``stage``'s and the time now; else 0.0 (no clock read)."""
    if laps is None:
        return 0.0
    now = time.perf_counter()
    laps[stage] = now - t
    return now


def _tried(all_cands: list[Candidates], settings: ShakerSettings) -> list[Candidates]:
    """Each size's candidates the lattice search tries: none for a size with fewer than ``min_support``."""
    return [cands if len(cands.xy) >= settings.min_support else Candidates(*_NO_CANDIDATES) for cands in all_cands]


def frame_stage_times(frame_bgr: np.ndarray, settings: ShakerSettings = DEFAULT_SETTINGS) -> dict[str, float]:
    """Milliseconds of a read's stages before any lattice is built, each made as :func:`read_shaker`'s first read
    makes it: "table" (the working copy, its Lab and the table model), "edges" (the edge map and the integral
    images), "finder" (:func:`find_cubes`) and "hypotheses" (:func:`lattice_hypotheses` over every size). What every
    frame costs, however it is read after (``shakecity bench-shaker``'s stage figures)."""
    laps: dict[str, float] = {}
    work = _frame_work(np.ascontiguousarray(frame_bgr), settings, laps)
    t = time.perf_counter()
    lattice_hypotheses(_tried(work.all_cands, settings), settings)
    _lap(laps, "hypotheses", t)
    return {stage: 1000.0 * seconds for stage, seconds in laps.items()}


def _verified(
    work: _FrameWork,
    frame_bgr: np.ndarray,
    grid: Grid,
    cands: Candidates,
    palette: Palette,
    settings: ShakerSettings,
    *,
    stand_out: bool = False,
    faces: bool = False,
) -> tuple[Grid, Candidates, list[dict[str, Any]]]:
    """:func:`verify_cells` on the frame's work (its integral images; ``faces``: its Lab copy too), made once per
    frame for a lattice and candidates of the same numbers (a lattice settled twice: each re-lattice read's moves
    may land on one): the same grid, candidates and (copied: the checks mark them) cell tests as a call of its
    own."""
    key = (
        "verify",
        grid.origin.tobytes(),
        grid.col_step.tobytes(),
        grid.row_step.tobytes(),
        grid.cell_candidate,
        grid.support,
        grid.stray_near,
        grid.score,
        grid.strays,
        _content(cands.xy, cands.radius, cands.contrast, cands.strength),
        cands.scale,
        id(palette),
        _looks_id(work, settings),
        stand_out,
        faces,
    )
    found = work.memo.get(key)
    if found is not None:
        # (a grid of its own, as a call of its own gives: the reader tells settled lattices apart by identity)
        return replace(found[0]), found[1], [dict(t) for t in found[2]]
    grid_v, cands_v, tests = verify_cells(
        frame_bgr,
        grid,
        cands,
        work.table_lab8,
        work.scale,
        palette,
        settings,
        lab_sum=work.lab_sum,
        edge_sum=work.g_sum,
        stand_out=stand_out,
        faces=faces,
        work_lab=work.lab if faces else None,
        tops=lambda pts, rad: _tops_once(work, frame_bgr, pts, rad),
    )
    # (the candidates, palette and settings kept alive with it: their ids in the key stay theirs)
    work.memo[key] = (grid_v, cands_v, [dict(t) for t in tests], (cands, palette, settings))
    return grid_v, cands_v, tests


def _looks_id(work: _FrameWork, settings: ShakerSettings) -> int:
    """The id a frame's memo keys give settings: a square-steps read's settings (:func:`square_steps_reading`) share
    the first read's looks (``square_steps`` changes only the lattice hypotheses, never a cell's look)."""
    return work.memo.get(("looks_as", id(settings)), id(settings))


def _content(*arrays: np.ndarray | None) -> tuple[Any, ...]:
    """Arrays' numbers as a key (dtype, shape and bytes; None as itself)."""
    out = []
    for a in arrays:
        if a is None:
            out.append(None)
        else:
            a = np.asarray(a)
            out.append((a.dtype.str, a.shape, a.tobytes()))
    return tuple(out)


def _tops_once(work: _FrameWork, frame_bgr: np.ndarray, points: np.ndarray, rad: float) -> np.ndarray:
    """:func:`sample_top_faces` made once per frame for points and a radius of the same numbers (a copy each time:
    the samples are the caller's)."""
    pts = np.asarray(points, dtype=np.float64)
    key = ("tops", pts.shape, pts.tobytes(), float(rad))
    if key not in work.memo:
        work.memo[key] = sample_top_faces(frame_bgr, pts, rad)
    return work.memo[key].copy()


def _top_face_once(
    work: _FrameWork, cell_xy: np.ndarray, cube_xy: np.ndarray, pitch: float, settings: ShakerSettings
) -> tuple[np.ndarray, float] | None:
    """:func:`top_face` on the frame's Lab copy, made once per frame for a cell and cube point: the re-lattice
    asks the refused lattice's faces that its cube offsets found already."""
    key = ("face", float(cell_xy[0]), float(cell_xy[1]), float(cube_xy[0]), float(cube_xy[1]), pitch)
    key += (_looks_id(work, settings),)
    if key not in work.memo:
        work.memo[key] = _face_top(_face_region_once(work, cell_xy, cube_xy, pitch, settings), work.scale)
    return work.memo[key]


def _face_region_once(
    work: _FrameWork, cell_xy: np.ndarray, cube_xy: np.ndarray, pitch: float, settings: ShakerSettings
) -> FaceRegion | None:
    """:func:`_face_region` on the frame's Lab copy, made once per frame for a cell and cube point: the offsets'
    faces, then the stretched-lattice check's (:func:`lattice_face_mismatch`) on the same cells."""
    key = ("region", float(cell_xy[0]), float(cell_xy[1]), float(cube_xy[0]), float(cube_xy[1]), pitch)
    key += (_looks_id(work, settings),)
    if key not in work.memo:
        work.memo[key] = _face_region(work.lab, cell_xy, cube_xy, pitch, work.scale, settings)
        work.memo[("settings", id(settings))] = settings  # (kept alive: its id in the key stays its own)
    return work.memo[key]


def _lazy_sizes(
    hypotheses: Sequence[Hypotheses | GridNotFound], tried: Sequence[Candidates], settings: ShakerSettings
) -> set[int]:
    """The sizes a first read leaves out under ``lazy_size_margin``: each searched size whose best hypothesis scores
    more than the margin below the best size's (its lattice is rarely the most plausible: its cubes fewer or less
    alone in their window). None when the margin is inf (off) or fewer than two sizes are searched."""
    if not math.isfinite(settings.lazy_size_margin):
        return set()
    best = {
        j: float(h.scores.max())
        for j, (h, c) in enumerate(zip(hypotheses, tried, strict=True))
        if isinstance(h, Hypotheses) and len(c.xy) >= settings.min_support and h.scores.size
    }
    if len(best) < 2:
        return set()
    top = max(best.values())
    return {j for j, b in best.items() if b < top - settings.lazy_size_margin}


def _not_cubes(cell_tests: list[dict[str, Any]], cells: Sequence[tuple[int, int]]) -> str:
    """Marks the cells (row, col) a check took for the table as no cubes in the cell tests, and the refusal that
    follows: how many cubes the grid then holds."""
    for t in cell_tests:
        t["cube"] = t["cube"] and (t["row"], t["col"]) not in cells
    return f"{9 - len(cells)} cubes in the grid"


@functools.lru_cache(maxsize=8)
def first_look(settings: ShakerSettings = DEFAULT_SETTINGS) -> ShakerSettings:
    """``settings`` with none of a refused frame's second looks: no read again without a size (``retry_without_size``),
    on moved lattices (``relattice``), on lattices made at the cubes' pitch (``made_lattice``), with the busy
    table's threshold (``busy_retry_factor``), as a close-up (``close_up_long_side``), with square steps
    (``square_retry``) or without highlights (``glare_retry``). Each of those runs only on a refusal and replaces it
    only with a valid reading, so a frame :func:`read_shaker` reads valid with these settings reads the same in
    full, and one it refuses reads in full either the same refusal (reason, corners) or a valid pattern. A refused
    frame costs several times an accepted one in full, about as much as one so: the live reader's look at a view
    that is still moving. (The same object for the same settings: a frame's memo keys settings by identity.)"""
    return replace(
        settings,
        retry_without_size=False,
        relattice=False,
        made_lattice=False,
        busy_retry_factor=0.0,
        close_up_long_side=0,
        square_retry=False,
        glare_retry=False,
    )


class ReadStopped(Exception):
    """:func:`read_shaker` stopped before its reading: its ``should_stop`` said so (the live reader's view changed
    under a refused frame's second looks: their reading would be of a view no longer there)."""


# (read_shaker's should_stop, asked as each read of the frame begins: its first and each second look)
_SHOULD_STOP: contextvars.ContextVar[Callable[[], bool] | None] = contextvars.ContextVar("should_stop", default=None)


def read_shaker(
    frame_bgr: np.ndarray,
    palette: Palette | None = None,
    rotation: int = 0,
    *,
    settings: ShakerSettings = DEFAULT_SETTINGS,
    shaker: Mapping[str, int] | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> ShakerReading:
    """Read the 3 x 3 pattern in a BGR frame, or refuse with a reason.

    ``rotation`` (0, 90, 180, 270) turns the reading clockwise to the table's configured north.
    ``shaker``: the cubes the shaker can still hold (colour -> count); a pattern it cannot produce is
    refused with the rules engine's reason. A refused frame may be a close-up, its cubes larger than the finder's
    sizes: it is read again on a smaller working copy (``close_up_long_side``, :func:`close_up_reading`). A frame
    still refused is read once more with square lattice steps (``square_retry``, :func:`square_steps_reading`), and
    then with a lamp's highlights taken off (``glare_retry``, :func:`glare_reading`). ``should_stop`` is asked as
    each read of the frame begins (its first look and each second look, tens of milliseconds apart); when it
    answers true the read stops with :class:`ReadStopped`.
    """
    if should_stop is not None:
        token = _SHOULD_STOP.set(should_stop)
        try:
            return read_shaker(frame_bgr, palette, rotation, settings=settings, shaker=shaker)
        finally:
            _SHOULD_STOP.reset(token)
    made: list[_FrameWork] = []
    first = _read(frame_bgr, palette, rotation, settings=settings, shaker=shaker, _made=made)
    if not first.valid and made:
        plain = table_is_plain(made[0], settings)
        first = busy_table_reading(frame_bgr, first, plain, palette, rotation, settings=settings, shaker=shaker)
    if not first.valid and 0 < settings.close_up_long_side < settings.work_long_side:
        first = close_up_reading(frame_bgr, first, palette, rotation, settings=settings, shaker=shaker)
    if not first.valid and made and settings.square_retry and not settings.square_steps:
        first = square_steps_reading(frame_bgr, first, made[0], palette, rotation, settings=settings, shaker=shaker)
    if not first.valid and settings.glare_retry:
        first = glare_reading(frame_bgr, first, palette, rotation, settings=settings, shaker=shaker)
    elif first.valid and settings.glare_retry and settings.relattice_glare_check and "relattice" in first.debug:
        glared = glare_reading(frame_bgr, first, palette, rotation, settings=settings, shaker=shaker)
        if glared is not first:  # (read without highlights and kept: weighed against the moved lattice's reading)
            first = made_check(first, glared, settings, looked="glare_check")
    return first


def glare_reading(
    frame_bgr: np.ndarray,
    first: ShakerReading,
    palette: Palette | None = None,
    rotation: int = 0,
    *,
    settings: ShakerSettings = DEFAULT_SETTINGS,
    shaker: Mapping[str, int] | None = None,
) -> ShakerReading:
    """A refused reading's frame read again with a lamp's highlights taken off (:mod:`vision.shaker_glare`):
    grey-opened by a square ``glare_open`` of the refused lattice's pitch. The read is a first look with the close-up's
    read again (:func:`_glare_first_look`), or a full read (every second look but this one) when at least
    ``glare_before_cells`` of the refused lattice's cells show a highlight taken off. That reading is the frame's
    when valid and at least ``glare_after_cells`` of its own lattice's cells show a highlight taken off (on any of
    ``glare_after_disks``), by an opening of ``glare_open`` of its own pitch. Else (or with no refused lattice) the
    frame is opened at each pitch of ``glare_ladder`` (shares of its longer side) in turn and, where that opening took
    off highlights in several spots (``glare_spots``), given the same first look and the same test; the first reading
    so kept is the frame's, else the first reading, its reason kept."""
    tried: set[int] = set()
    grid = first.debug.get("grid")
    if grid is not None:
        side = round(settings.glare_open * grid.pitch)
        opened_bgr = without_highlights(frame_bgr, side)
        again_settings = _without_glare_retry(settings)
        if _glare_count(frame_bgr, opened_bgr, grid, (settings.glare_disk,), settings) < settings.glare_before_cells:
            again_settings = _glare_first_look(again_settings)
        kept = _kept_without_glare(frame_bgr, opened_bgr, side, first, palette, rotation, again_settings, shaker)
        if kept is not None:
            return kept
        tried.add(side)
    for share in settings.glare_ladder:
        pitch = share * max(frame_bgr.shape[:2])
        side = round(settings.glare_open * pitch)
        if side in tried:
            continue
        tried.add(side)
        if glare_spots(frame_bgr, side, pitch, settings.glare_spot_lift) < settings.glare_spots:
            continue
        opened_bgr = without_highlights(frame_bgr, side)
        look = _glare_first_look(_without_glare_retry(settings))
        kept = _kept_without_glare(frame_bgr, opened_bgr, side, first, palette, rotation, look, shaker)
        if kept is not None:
            return replace(kept, debug={**kept.debug, "glare": {**kept.debug["glare"], "ladder": share}})
    return first


def _glare_count(
    frame_bgr: np.ndarray, opened_bgr: np.ndarray, grid: Grid, disks: tuple[float, ...], settings: ShakerSettings
) -> int:
    """How many of the lattice's cells show a highlight the opening took off (:func:`vision.shaker_glare.glare_cells`
    on disks of these shares of its pitch, any of them, ``glare_lift``)."""
    return glare_cells(frame_bgr, opened_bgr, grid._centres, tuple(d * grid.pitch for d in disks), settings.glare_lift)


def _kept_without_glare(
    frame_bgr: np.ndarray,
    opened_bgr: np.ndarray,
    side: int,
    first: ShakerReading,
    palette: Palette | None,
    rotation: int,
    settings: ShakerSettings,
    shaker: Mapping[str, int] | None,
) -> ShakerReading | None:
    """:func:`glare_reading`'s read of the frame opened by a ``side`` square (``opened_bgr``) with ``settings``: the
    reading when valid and at least ``glare_after_cells`` of its lattice's cells show a highlight taken off (on a disk
    of any of ``glare_after_disks``) by an opening of ``glare_open`` of its own pitch, else None."""
    again = read_shaker(opened_bgr, palette, rotation, settings=settings, shaker=shaker)
    again_grid = again.debug.get("grid")
    if not again.valid or again_grid is None:
        return None
    own_side = round(settings.glare_open * again_grid.pitch)
    own_bgr = opened_bgr if own_side == side else without_highlights(frame_bgr, own_side)
    cells = _glare_count(frame_bgr, own_bgr, again_grid, settings.glare_after_disks, settings)
    if cells < settings.glare_after_cells:
        return None
    return replace(again, debug={**again.debug, "glare": {"cells": cells, "first": first.reason}})


@functools.lru_cache(maxsize=8)
def _glare_first_look(settings: ShakerSettings) -> ShakerSettings:
    """:func:`first_look`'s settings but for the close-up's read again (``close_up_long_side``: cheap where there is
    no close-up, and a close-up needs it): :func:`glare_reading`'s look at a frame whose refused lattice shows no
    highlight taken off."""
    return replace(first_look(settings), close_up_long_side=settings.close_up_long_side)


@functools.lru_cache(maxsize=8)
def _without_glare_retry(settings: ShakerSettings) -> ShakerSettings:
    """``settings`` with ``glare_retry`` off: :func:`glare_reading`'s read (the same object for the same settings, as
    :func:`first_look`'s)."""
    return replace(settings, glare_retry=False)


def square_steps_reading(
    frame_bgr: np.ndarray,
    first: ShakerReading,
    work: _FrameWork,
    palette: Palette | None = None,
    rotation: int = 0,
    *,
    settings: ShakerSettings = DEFAULT_SETTINGS,
    shaker: Mapping[str, int] | None = None,
) -> ShakerReading:
    """A refused reading's frame read again on its first read's ``work`` (the same candidates, re-lattices and made
    lattices; no busy-table or close-up read) with ``square_steps``: lattices also hypothesised from a pair of cubes
    with none found at right angles (the cubes beside them unfound: black on a dark table, the lattice fitted off
    them). That reading is the frame's when valid; else the first, its reason kept. A reading accepted without it
    is never read so."""
    square = replace(settings, square_steps=True)
    # (its lattices' looks are the first read's: the memo's keys give it the first read's settings' id, both kept)
    work.memo[("looks_as", id(square))] = _looks_id(work, settings)
    work.memo[("settings", id(square))], work.memo[("settings", id(settings))] = square, settings
    again = _read(frame_bgr, palette, rotation, settings=square, shaker=shaker, _work=work)
    if not again.valid:
        return first
    return replace(again, debug={**again.debug, "square_steps": {"first": first.reason}})


def busy_table_reading(
    frame_bgr: np.ndarray,
    first: ShakerReading,
    plain: bool,
    palette: Palette | None = None,
    rotation: int = 0,
    *,
    settings: ShakerSettings = DEFAULT_SETTINGS,
    shaker: Mapping[str, int] | None = None,
) -> ShakerReading:
    """A refused reading's frame read again with find_cubes' threshold lowered, when the table's edges lifted it
    (``plain`` false: :func:`table_is_plain` of the first reading's work): with ``response_noise_factor``
    ``busy_retry_factor``. That reading is the frame's when valid and its lattice's pitch differs from the first
    reading's by ``busy_retry_pitch_change`` either way (or the first had none); else the first reading."""
    factor = settings.busy_retry_factor
    if plain or not 0 < factor < settings.response_noise_factor:
        return first  # (off, or the threshold was response_min: a lower factor finds the same candidates)
    again = _read(frame_bgr, palette, rotation, settings=replace(settings, response_noise_factor=factor), shaker=shaker)
    grid, first_grid = again.debug.get("grid"), first.debug.get("grid")
    if not again.valid or grid is None:
        return first
    if first_grid is not None:
        change = max(grid.pitch / first_grid.pitch, first_grid.pitch / grid.pitch)
        if change < settings.busy_retry_pitch_change:
            return first  # (the same lattice, or one of its size: more candidates may fill a knocked-out cube's cell)
    return replace(again, debug={**again.debug, "busy_retry": {"factor": factor, "first": first.reason}})


def close_up_reading(
    frame_bgr: np.ndarray,
    first: ShakerReading,
    palette: Palette | None = None,
    rotation: int = 0,
    *,
    settings: ShakerSettings = DEFAULT_SETTINGS,
    shaker: Mapping[str, int] | None = None,
) -> ShakerReading:
    """A refused reading's frame read again as a close-up: on a working copy ``close_up_long_side`` long, and when
    that is not taken, ``close_up_again_long_side`` long. Such a reading is the frame's when it is read whole and its
    lattice's pitch is at least ``close_up_min_pitch`` of the frame's longer side and ``close_up_pitch_gain`` times
    the first reading's lattice's (when it had one, and it was no close-up's already: ``close_up_same_pitch``); else
    the first reading, its reason kept."""
    long_side = max(frame_bgr.shape[:2])
    first_grid = first.debug.get("grid")
    if (
        settings.close_up_same_pitch
        and first_grid is not None
        and first_grid.pitch >= settings.close_up_min_pitch * long_side
    ):
        first_grid = None  # (a close-up's lattice already, fitted to parts of cubes the first read's sizes miss)
    if first_grid is not None and first_grid.pitch * settings.close_up_pitch_gain > long_side / 3:
        return first  # (no grid in the frame can be that much larger: the frame's longer side holds three pitches)
    # (no lattice finer than close_up_min_pitch is fitted: the read again is cheap where there is no close-up)
    for work_long_side in (settings.close_up_long_side, settings.close_up_again_long_side):
        if not 0 < work_long_side < settings.work_long_side:
            continue
        close = replace(
            settings, work_long_side=work_long_side, min_pitch=max(settings.min_pitch, settings.close_up_min_pitch)
        )
        again = _read(frame_bgr, palette, rotation, settings=close, shaker=shaker)
        grid = again.debug.get("grid")
        if not again.valid:
            continue  # (a refusal's reason stays the first reading's: a close-up's lattice may lie over a hand)
        if grid is None or grid.pitch < settings.close_up_min_pitch * long_side:
            continue
        if first_grid is not None and grid.pitch < settings.close_up_pitch_gain * first_grid.pitch:
            continue
        return replace(again, debug={**again.debug, "close_up": {"long_side": work_long_side, "first": first.reason}})
    return first


def _read(
    frame_bgr: np.ndarray,
    palette: Palette | None = None,
    rotation: int = 0,
    *,
    settings: ShakerSettings = DEFAULT_SETTINGS,
    shaker: Mapping[str, int] | None = None,
    _without: frozenset[int] = frozenset(),
    _work: _FrameWork | None = None,
    _start: tuple[Grid, int] | None = None,
    _keep: Callable[[Grid], bool] | None = None,
    _screened: tuple[Grid, Candidates, list[dict[str, Any]]] | None = None,
    _all_sizes: bool = False,
    _begun: tuple[list[Hypotheses | GridNotFound], dict[int, tuple[Iterator[Grid], Grid] | GridNotFound]] | None = None,
    _made: list[_FrameWork] | None = None,
) -> ShakerReading:
    """:func:`read_shaker` on the frame's working copy (``work_long_side``), no close-up read; the private arguments
    are its own re-reads' (every size's lattices, a re-lattice, a size left out), and ``_made``: a list the frame's
    work is put in when made here (read_shaker asks whether the table's edges lifted the finder's threshold, and
    reads a refused frame again on it with ``square_steps``)."""
    if rotation not in ROTATIONS:
        raise ValueError(f"rotation must be one of {ROTATIONS}, not {rotation!r}")
    should_stop = _SHOULD_STOP.get()
    if should_stop is not None and should_stop():
        raise ReadStopped("the read was stopped (should_stop)")
    if not isinstance(frame_bgr, np.ndarray) or frame_bgr.ndim != 3 or frame_bgr.shape[2] != 3:
        raise VisionError("read_shaker: expected a BGR image (height x width x 3)")
    if frame_bgr.dtype != np.uint8:
        raise VisionError("read_shaker: expected an 8-bit image")
    if frame_bgr.shape[0] < 8 or frame_bgr.shape[1] < 8:
        return ShakerReading(False, None, "no pattern: the image is too small", rotation=rotation)
    frame_bgr = np.ascontiguousarray(frame_bgr)
    palette = palette or default_palette()
    error = GridNotFound("no pattern: nothing like a cube in view")
    if _work is None:
        _work = _frame_work(frame_bgr, settings)
        if _made is not None:
            _made.append(_work)
    scale, lab, table_lab8, g_sum, lab_sum, all_cands = _work[:6]

    def assess(
        grid: Grid, cands: Candidates, j: int, measures: tuple[float, float, float] | None = None
    ) -> tuple[float, Grid, Candidates, int] | None:
        """A lattice's plausibility (after filling empty cells from other sizes), None when its cells are
        not apart from each other: a lattice inside one object (a big cube, a card). ``measures``:
        :func:`lattice_measures`, when made."""
        # (the lattice's geometry only: filling its empty cells keeps them)
        separation, gaps, uniformity = measures or lattice_measures(grid, g_sum, lab_sum, scale, settings)
        if separation < settings.separation_floor or gaps < settings.gap_contrast_floor:
            return None
        support = grid.support
        if support < 9:
            grid, cands = fill_from_other_sizes(grid, cands, all_cands, settings)
        total = grid_plausibility(
            grid, cands, settings, edge_sum=g_sum, scale=scale, separation=separation, uniformity=uniformity
        )
        return total + settings.filled_weight * (grid.support - support), grid, cands, j

    fits: list[tuple[float, Grid, Candidates, int]] = []  # each size's best lattice
    searches: list[tuple[Iterator[Grid], Candidates, int]] = []  # and where its next ones come from
    firsts: list[tuple[Grid, Candidates, int]] = []
    tried = _tried(all_cands, settings)
    # every size's at once; none when every size is left out (a re-lattice's read: no lattice search)
    searched = any(j not in _without for j in range(len(all_cands)))
    # (a lazy read read again with every size passes its hypotheses and its sizes' searches, each begun at its first
    # lattice: the same candidates, the same lattices)
    hypotheses = lattice_hypotheses(tried, settings) if searched and _begun is None else _begun[0] if _begun else []
    begun: dict[int, tuple[Iterator[Grid], Grid] | GridNotFound] = _begun[1] if _begun else {}
    # (lazy_size_margin: a first read builds only the sizes whose best hypothesis scores near the best size's; a
    # reading so made that is not accepted is read again with every size, below)
    lazy = _lazy_sizes(hypotheses, tried, settings) if _start is None and not _without and not _all_sizes else set()

    def every_size() -> ShakerReading:
        """The frame read again with every size's lattices (the frame's work and verified cells reused)."""
        return _read(
            frame_bgr,
            palette,
            rotation,
            settings=settings,
            shaker=shaker,
            _work=_work,
            _all_sizes=True,
            _begun=(hypotheses, begun),
        )

    for j, cands in enumerate(all_cands):
        if len(cands.xy) < settings.min_support or j in _without or j in lazy:
            continue
        made = begun.get(j)
        if made is None:
            search = lattices(cands, settings, hypotheses[j])
            try:
                made = (search, next(search))
            except GridNotFound as e:
                made = e
            begun[j] = made
        if isinstance(made, GridNotFound):
            error = made
            continue
        search, grid = made
        searches.append((search, cands, j))
        firsts.append((grid, cands, j))
    # every size's best lattice measured at once, then judged size by size
    for (grid, cands, j), measures in zip(
        firsts, lattices_measures([f[0] for f in firsts], g_sum, lab_sum, scale, settings), strict=True
    ):
        fit = assess(grid, cands, j, measures)
        if fit is not None:
            fits.append(fit)

    def alternatives() -> list[tuple[float, Grid, Candidates, int]]:
        """The sizes' next best distinct lattices (``lattices_per_size`` in all), most plausible first."""
        nexts = [
            (grid, cands, j)
            for search, cands, j in searches
            for grid in itertools.islice(search, settings.lattices_per_size - 1)
        ]
        # (all of them measured at once, as the sizes' best: the same numbers)
        measured = lattices_measures([n[0] for n in nexts], g_sum, lab_sum, scale, settings)
        out = [assess(grid, cands, j, m) for (grid, cands, j), m in zip(nexts, measured, strict=True)]
        return sorted((fit for fit in out if fit is not None), key=lambda f: -f[0])

    # the few most plausible lattices are checked cell by cell; the one with most cubes verified wins
    fits.sort(key=lambda f: -f[0])
    best: tuple[float, Grid, Candidates, int, list[dict[str, Any]]] | None = None
    for total, grid0, cands0, j0 in fits[: settings.lattices_checked]:
        if best is not None and total < fits[0][0] - settings.lattice_check_margin:
            break
        if best is not None and total + 9 * settings.verified_weight <= best[0]:
            break  # (sorted by total: no later lattice can beat the best even with nine cubes verified)
        grid_v, cands_v, tests = _verified(_work, frame_bgr, grid0, cands0, palette, settings)
        score = total + settings.verified_weight * sum(t["cube"] for t in tests)
        if best is None or score > best[0]:
            best = (score, grid_v, cands_v, j0, tests)
    if lazy and (best is None or not all(t["cube"] for t in best[4])):
        return every_size()  # (no lattice of nine cubes among the sizes searched: every size's, as before)
    if _start is not None:  # (a re-lattice's read: its lattice settled as the fits' best would be)
        grid0, j0 = _start
        # (the re-lattice's screening of the move checked its cells already: the same call)
        grid_v, cands_v, tests = _screened or _verified(
            _work,
            frame_bgr,
            on_lattice(grid0, all_cands[j0], settings.lattice_tolerance),
            all_cands[j0],
            palette,
            settings,
        )
        best = (0.0, grid_v, cands_v, j0, tests)
    Settled = tuple[Grid, Candidates, list[dict[str, Any]], int, int]

    def all_cubes(cell_tests: list[dict[str, Any]]) -> bool:
        return all(t["cube"] for t in cell_tests)

    windows: list[tuple[Grid, dict[str, Any]]] = []
    refits: list[tuple[Grid, Grid]] = []  # refit_reuse_below's lattices that kept their cell tests, and the ones before
    line_off: list[Grid] = []  # settled grids with a line beyond much farther from the table than their far line

    def window_look(grid: Grid, cands: Candidates) -> dict[str, Any]:
        """best_window's look around a grid (``cube``: its 5 x 5 lattice points that look like cubes, no faces
        asked; ``points``: their candidates), looked at once per grid: settle's and the last checks' alike."""
        for seen, look in windows:
            if seen is grid:
                return look
        look: dict[str, Any] = {}
        best_window(frame_bgr, grid, cands, table_lab8, scale, palette, settings, lab_sum=lab_sum, out=look)
        windows.append((grid, look))
        return look

    def window_gain_needed(grid: Grid, shifted: Grid, tests: list[dict[str, Any]]) -> int:
        """The cubes a window moved by best_window (after the refit) must gain: ``window_faces_gain``, or
        ``window_outlined_gain`` when the move is by a row or a column onto a line whose cubes show their outlines
        (outlined_line, most) and the moved window holds nine cubes (the line left behind a shadow or the table)."""
        if settings.window_outlined_gain >= settings.window_faces_gain or not all_cubes(tests):
            return settings.window_faces_gain
        steps = np.linalg.solve(np.column_stack([grid.row_step, grid.col_step]), shifted.origin - grid.origin)
        move = (round(float(steps[0])), round(float(steps[1])))
        if abs(move[0]) + abs(move[1]) != 1 or not outlined_line(tests, incoming_line(move), settings, most=True):
            return settings.window_faces_gain
        return settings.window_outlined_gain

    def settle(grid: Grid, cands: Candidates, cell_tests: list[dict[str, Any]], j: int) -> Settled:
        """The lattice's window moved by a row or column when the cubes say so, refitted to the cubes' top
        faces, and its cells' last check; with the cubes counted around it and the size's index."""
        if settings.settle_nine_no_window and all_cubes(cell_tests):
            shifted, around = grid, None  # (no window can hold more cubes than nine: none is looked at)
        else:
            shifted, around = best_window(frame_bgr, grid, cands, table_lab8, scale, palette, settings, lab_sum=lab_sum)
        if shifted is not grid:
            grid_s, cands_s, tests_s = _verified(_work, frame_bgr, shifted, cands, palette, settings)
            # the cell-by-cell check has the last word: a window with fewer cubes is not the pattern's
            if sum(t["cube"] for t in tests_s) > sum(t["cube"] for t in cell_tests):
                grid, cands, cell_tests = grid_s, cands_s, tests_s
        for _ in range(settings.refine_passes):
            cube_mask = np.array([t["cube"] for t in cell_tests])
            refined, cands_r = refine_grid(
                grid,
                cands,
                lab,
                scale,
                cube_mask,
                np.array([t["xy"] for t in cell_tests]),
                settings,
                face_of=lambda cell, cube, pitch: _top_face_once(_work, cell, cube, pitch, settings),
            )
            if refined is grid:
                break
            if (
                settings.refit_reuse_below > 0
                and all(
                    # (d_table is kept rounded to 0.1: + 0.05 asks the unrounded value at least table_same_delta_e)
                    t["cube"] and t["outline"] and t["d_table"] >= settings.table_same_delta_e + 0.05
                    for t in cell_tests
                )
                and refined.cell_candidate == grid.cell_candidate
                and float(np.hypot(*(refined._centres - grid._centres).T).max())
                < settings.refit_reuse_below * grid.pitch
            ):
                # nine cubes, each outlined (a candidate of its own: none made for a cube found by its colour, which
                # the next verify_cells would take as outlined, its gains fitted on one cube more) and still on it, the
                # lattice barely moved: its cell tests kept (no second verify_cells), its cubes sampled as then (see
                # the samples below). Only the gaps beside the cells are measured anew (d_gap): no cell is then the
                # table by them, each far from the table in every shade (d_table)
                d_gap = _gap_distances(
                    refined, refined._centres, np.array([t["xy"] for t in cell_tests]), lab_sum, scale, settings
                )
                cell_tests = [dict(t, d_gap=round(dg, 1)) for t, dg in zip(cell_tests, d_gap.tolist(), strict=True)]
                refits.append((refined, grid))
                grid, cands = refined, cands_r
                continue
            grid_r, cands_r, tests_r = _verified(_work, frame_bgr, refined, cands_r, palette, settings)
            if sum(t["cube"] for t in tests_r) < sum(t["cube"] for t in cell_tests):
                break
            grid, cands, cell_tests = grid_r, cands_r, tests_r
        if settings.settle_stop_not_kept and isinstance(_keep, _KeptMove) and _keep.never(grid):
            raise _NotKept(grid)  # (only whole rows and columns from here on: none of them kept)

        def last_look(g: Grid, c: Candidates) -> tuple[Grid, Candidates, list[dict[str, Any]]]:
            return _verified(_work, frame_bgr, g, c, palette, settings, stand_out=True, faces=True)

        moved: list[tuple[Grid, tuple[int, int], tuple[Grid, Candidates, list[dict[str, Any]]]]] = []

        def line_look(
            grid: Grid, cands: Candidates, move: tuple[int, int]
        ) -> tuple[Grid, Candidates, list[dict[str, Any]]]:
            """last_look at the grid's window moved by ``move`` onto a line of cube-like points beyond a side
            (window_look's), looked at once per grid and move: both line-beyond moves ask it."""
            for seen, m, look in moved:
                if seen is grid and m == move:
                    return look
            look = last_look(window_shifted(grid, window_look(grid, cands)["points"], move), cands)
            moved.append((grid, move, look))
            return look

        def onto_line(tests: list[dict[str, Any]], line: Sequence[tuple[int, int]]) -> bool:
            """Whether a moved window is one to move onto: nine cubes, most of the line it moved onto outlined."""
            return all_cubes(tests) and outlined_line(tests, line, settings, most=True)

        if not all_cubes(cell_tests):
            grid_o, cands_o, tests_o = last_look(grid, cands)
            if sum(t["cube"] for t in tests_o) > sum(t["cube"] for t in cell_tests):
                grid, cands, cell_tests = grid_o, cands_o, tests_o
            if settings.window_faces and not all_cubes(cell_tests):
                # the refitted lattice's window again, now counting the points around it whose top face shows
                shifted, around_f = best_window(
                    frame_bgr, grid, cands, table_lab8, scale, palette, settings, lab_sum=lab_sum, work_lab=lab
                )
                if shifted is not grid:
                    grid_f, cands_f, tests_f = last_look(shifted, cands)
                    # ...and none of its cubes in a common table tone (a gingham's white check, outlined by its
                    # print, read as a white cube in the cell the pattern left empty)
                    cube_xy = np.array([t["xy"] for t in tests_f if t["cube"]])
                    toned = tone_shares(lab, scale, grid_f, cube_xy, settings).max() if len(cube_xy) else 0.0
                    if (
                        sum(t["cube"] for t in tests_f)
                        >= sum(t["cube"] for t in cell_tests) + window_gain_needed(grid, shifted, tests_f)
                        and toned < settings.face_max_tone
                    ):
                        grid, cands, cell_tests, around = grid_f, cands_f, tests_f, around_f
        if settings.beyond_line_ring > 0 and all_cubes(cell_tests):
            # a full line of cube-like points beyond a side: onto it when it is an outlined line of cubes and the
            # grid's far line is not (lines_beyond), nine cubes there too. Only from nine cubes: from eight, a move
            # onto a line of gingham checks read an incomplete pattern (s3131 0005), where the refusal stays
            for move, _ in lines_beyond(cell_tests, window_look(grid, cands)["cube"], settings):
                grid_m, cands_m, tests_m = line_look(grid, cands, move)
                if onto_line(tests_m, incoming_line(move)):
                    grid, cands, cell_tests = grid_m, cands_m, tests_m
                    break
        if settings.beyond_table_gain > 0:
            # a full line beyond, the grid's far line much nearer the table than it (nearer_the_table: the cubes'
            # cast shadows with outlines, the real line outside): onto it when nine cubes there and it is outlined,
            # else the grid is doubted (refused at the end)
            for move, far, side in full_lines_beyond(window_look(grid, cands)["cube"]):
                grid_m, cands_m, tests_m = line_look(grid, cands, move)
                if nearer_the_table(cell_tests, far, tests_m, side, settings):
                    if onto_line(tests_m, side):
                        grid, cands, cell_tests = grid_m, cands_m, tests_m
                        break
                    line_off.append(grid)
                elif (
                    # (or the far line the table's outlined checks and the line beyond the pieces: onto it, else
                    # left as is)
                    nearer_the_palette(cell_tests, far, tests_m, side, settings)
                    and onto_line(tests_m, side)
                    and not repeated_line(lab, scale, grid_m, side, settings, _work.memo)
                ):
                    grid, cands, cell_tests = grid_m, cands_m, tests_m
                    break
            else:
                # a full line beyond found only by its cubes' top faces off the lattice's points (faces_beyond), the
                # grid's far line like the table and the line beyond more like the pieces: the grid is doubted
                look_cube = window_look(grid, cands)["cube"]
                plain = full_lines_beyond(look_cube)
                faced = faces_beyond(
                    frame_bgr,
                    grid,
                    look_cube,
                    lab,
                    scale,
                    settings,
                    # (only beyond a far line like the table: nearer_the_palette asks no other)
                    lambda far, tests=cell_tests: table_like_line(tests, far, settings),
                )
                for move, far, side in full_lines_beyond(faced):
                    if (move, far, side) not in plain and nearer_the_palette(
                        cell_tests, far, line_look(grid, cands, move)[2], side, settings, settings.beyond_face_gain
                    ):
                        line_off.append(grid)
        return grid, cands, cell_tests, around, j

    try:
        settled = settle(best[1], best[2], best[4], best[3]) if best is not None else None
    except _NotKept as stop:  # (a re-read's lattice that no window left to it can be kept on: as below)
        return ShakerReading(False, None, "re-lattice: not kept", rotation=rotation, debug={"grid": stop.grid})
    # fewer than nine cubes on it (after its window and refit): the sizes' other lattices (gingham checks
    # or a card may have won the fit) are checked too, and one with more cubes verified wins (then the
    # more plausible), if it still has more once settled
    best_cubes = sum(t["cube"] for t in settled[2]) if settled is not None else -1
    if lazy and best_cubes < 9:
        return every_size()  # (the sizes left out may hold the lattice: as without lazy_size_margin)
    choice: dict[str, Any] = {}
    # (an alternative wins only with alternative_settled_gain cubes more, up to nine: none is read when it cannot)
    if best_cubes <= 9 - max(1, settings.alternative_settled_gain):
        alt_best: tuple[tuple[int, float], tuple[float, Grid, Candidates, int, list[dict[str, Any]]]] | None = None
        for total, grid0, cands0, j0 in alternatives()[: settings.alternatives_checked]:
            grid_v, cands_v, tests = _verified(_work, frame_bgr, grid0, cands0, palette, settings)
            key = (sum(t["cube"] for t in tests), total)
            # a gain of one cube counts only when every cube of it has its outline found (one cell taken by
            # its colour alone can be the table: white on a light table, a light check through a gap)
            outlined = all(t["outline"] for t in tests if t["cube"])
            gain = key[0] - best_cubes
            eligible = gain >= settings.alternative_min_gain or (gain > 0 and outlined)
            if eligible and (alt_best is None or key > alt_best[0]):
                alt_best = (key, (total, grid_v, cands_v, j0, tests))
                if key[0] == 9:
                    break  # (most plausible first: no later one beats nine cubes)
        if alt_best is not None:
            _, grid_a, cands_a, j_a, tests_a = alt_best[1]
            settled_alt = settle(grid_a, cands_a, tests_a, j_a)
            alt_cubes = sum(t["cube"] for t in settled_alt[2])
            wins = alt_cubes > best_cubes
            if settings.alternative_settled_gain > 0:
                wins = alt_cubes == 9 and alt_cubes >= best_cubes + settings.alternative_settled_gain
            if wins:
                choice = {"primary": round(float(fits[0][0]), 2) if fits else None}
                choice["alternative"] = round(float(alt_best[1][0]), 2)
                choice["cubes"] = [best_cubes, alt_cubes]
                settled = settled_alt
    if settled is None:
        return ShakerReading(False, None, str(error), rotation=rotation, debug={"candidates": all_cands[0]})
    grid, cands, cell_tests, around, j = settled
    if _keep is not None and not _keep(grid):  # (a re-lattice's read on a lattice it would not keep: no checks)
        return ShakerReading(False, None, "re-lattice: not kept", rotation=rotation, debug={"grid": grid})
    # cubes of about the table's colour the cell test refused, if the frame's own cubes vouch for them
    grid, cands = with_faint_cubes(frame_bgr, grid, cands, cell_tests, settings)
    # (and refused cells that cast a cube's shadow; the shapes of this size and its neighbours' off the grid's cells
    # may be cubes that throw shadows too)
    shapes = np.concatenate([np.asarray(c.xy).reshape(-1, 2) for c in all_cands[max(0, j - 1) : j + 2]])
    if settings.solid_cubes:
        grid, cands = with_solid_cubes(frame_bgr, grid, cands, cell_tests, settings, shapes)
    face_points: dict[tuple[int, int], np.ndarray] = {}

    def kept_solid(cells: list[tuple[int, int]]) -> list[tuple[int, int]]:
        """``cells`` a last look takes for the table, less those that cast a cube's shadow (:func:`solid_cubes_kept`,
        the shapes off the grid's cells left out; on a table of no busy print, its mean edge strength at most
        ``faint_shadow_max_edges``, the pattern's faint cube whose shadow agrees)."""

        def plain() -> bool:
            return mean_edge_strength(_work) <= settings.faint_shadow_max_edges

        return solid_cubes_kept(frame_bgr, grid, cell_tests, cells, settings, shapes, plain)

    def face_region_of(cell: np.ndarray, cube: np.ndarray, pitch: float) -> FaceRegion | None:
        """:func:`_face_region` on the frame's Lab copy, made once per frame (the last checks' face measures)."""
        return _face_region_once(_work, cell, cube, pitch, settings)

    for t in cell_tests:
        xy_t = t.pop("xy")
        if t["cube"]:
            face_points[(t["row"], t["col"])] = xy_t
            cell = grid.centre(t["row"], t["col"])
            offset, extent = face_offset(_top_face_once(_work, cell, xy_t, grid.pitch, settings), cell, grid.pitch)
            t["offset"], t["extent"] = round(offset, 2), round(extent, 2)
    # (a lattice refitted with its cell tests kept: its cubes sampled as they were verified, in disks of the pitch
    # before the refit, the same faces' colours and gains)
    sampled_on = next((old for new, old in refits if new is grid), grid)
    samples = sample_cubes(
        frame_bgr, sampled_on, cands, settings, tops=lambda pts, rad: _tops_once(_work, frame_bgr, pts, rad)
    )
    cubes, gains = classify_cubes(samples, palette)
    table_linear = table_colours_at(table_lab8, np.array([s[2] for s in samples]), scale, settings)
    radii = sample_radii(sampled_on, cands, settings)
    quarters: dict[str, Any] = {}
    cubes = doubt_mixed_samples(
        frame_bgr, samples, cubes, radii, gains, table_linear, palette, settings, grid=grid, quarters=quarters
    )
    cubes = doubt_off_centre_samples(frame_bgr, samples, cubes, radii, gains, grid, palette, settings)
    beside: dict[str, Any] = {}
    cubes = doubt_checks_beside(cubes, quarters, radii, grid, palette, _work, settings, beside)
    pool = all_cands[max(0, j - 1) : j + 2]
    # (a cell with no outline found counts as weak whatever its ring)
    rings = {(t["row"], t["col"]): float(t["ring"]) if t["outline"] else -math.inf for t in cell_tests}
    surroundings = GridSurroundings(
        grid,
        pool,
        frame_bgr,
        gains,
        palette.ref_lab,
        sample_top_face,
        lab,
        scale,
        lambda xy: table_colours_at(table_lab8, xy, scale, settings),
    )
    mates = (lambda p: line_mates(p, surroundings, settings)) if settings.stray_line_mates else None
    offsets_at = {(t["row"], t["col"]): float(t["offset"]) for t in cell_tests if t["cube"] and "offset" in t}
    palette_far = {(t["row"], t["col"]): float(t["d_palette"]) for t in cell_tests if "d_palette" in t}
    strays = out_of_line_cubes(
        frame_bgr,
        grid,
        pool,
        gains,
        palette,
        settings,
        work=(lab, scale),
        rings=rings,
        mates=mates,
        offsets=offsets_at,
        palette_far=palette_far,
    )
    corners = [[round(float(x), 1), round(float(y), 1)] for x, y in grid.corners()]
    debug = {
        "candidates": cands,
        "grid": grid,
        "all_candidates": all_cands,
        "strays": strays,
        "cell_tests": cell_tests,
        "cubes_around": around,
        "lattice_choice": choice,
        **beside,
    }
    offsets = [t.get("offset", 0.0) for t in cell_tests if t["cube"]]
    reason = check_grid(cubes, len(strays), settings, offsets, palette.min_confidence)
    # a "cube" whose face runs wider than a cell with no outline around it (and no cube-like shape found
    # on it) is part of a larger patch of that colour: the table's print (a checked cloth's square), not a
    # cube; a cube found there whose colour runs into a table of about its colour (white on white) stays
    patches = [t for t in cell_tests if t["cube"] and table_patch(t, settings)]
    if patches and settings.patch_gap_tone:  # (a cell like its gap is the print only in one of the table's tones)
        points = np.array([grid.centre(t["row"], t["col"]) for t in patches])
        tones = tone_shares(lab, scale, grid, points, settings)
        patches = [t for t, tone in zip(patches, tones, strict=True) if table_patch(t, settings, float(tone))]
    if reason is None and patches:
        kept = faint_cubes_kept_by_two_cues(
            frame_bgr, grid, cell_tests, [(t["row"], t["col"]) for t in patches], settings
        )
        patches = [t for t in patches if (t["row"], t["col"]) in kept]
    if reason is None and patches:
        kept = set(kept_solid([(t["row"], t["col"]) for t in patches]))
        patches = [t for t in patches if (t["row"], t["col"]) in kept]
    if reason is None and patches:
        for t in patches:
            t["cube"] = False
        reason = f"{9 - len(patches)} cubes in the grid"
    extents = [t["extent"] for t in cell_tests if t["cube"] and "extent" in t]

    @functools.cache
    def gaps_around() -> tuple[float, np.ndarray] | None:
        """The gaps looked for around the lattice's (:func:`shifted_gap_median`: the best median and its move),
        once; None when not looked for (``gap_shift_search`` 0, or a lattice sheared past ``gap_shift_max_skew``)."""
        if settings.gap_shift_search <= 0 or grid.skew > settings.gap_shift_max_skew:
            return None
        points = np.array([face_points.get((r, c), grid.centre(r, c)) for r in range(3) for c in range(3)])
        cubes_at = np.array([t["cube"] for t in cell_tests])
        return shifted_gap_median(grid, points, cubes_at, lab_sum, scale, settings)

    def apart_moved() -> bool:
        """Whether the gaps between the cells differ from them on the lattice moved onto the gaps found around it
        (:func:`gap_contrast`; the pieces' gaps off the lattice's, as the median gap's check asks)."""
        found = gaps_around()
        if found is None or found[0] < settings.min_median_gap:
            return False
        moved = replace(grid, origin=grid.origin + found[1])
        return gap_contrast(moved, lab_sum, scale) >= settings.gap_contrast_floor

    if reason is None and (
        (gap_contrast(grid, lab_sum, scale) < settings.gap_contrast_floor and not apart_moved())
        or _median(extents) > settings.grid_max_extent
    ):
        reason = "no pattern: no grid of separate cubes"
    faceless = between_pieces(grid, extents, settings) if reason is None else 0
    if faceless:
        reason = f"no pattern: {faceless} cubes show no face of their colour at their cells (a lattice between pieces)"
    if reason is None and edge_alignment(frame_bgr, grid) < settings.min_edge_alignment:
        reason = "no pattern: the edges inside the grid run across its lattice (a lattice turned against the cells)"
    gap_colours = [t["d_gap"] for t in cell_tests if t["cube"]]
    if (
        reason is None
        and gap_colours
        and _median(gap_colours) < settings.min_median_gap
        and ((found := gaps_around()) is None or found[0] < settings.min_median_gap)
    ):
        reason = "no pattern: no grid of separate cubes"  # most cells look like the gaps beside them: the table
    if reason is None and on_shadows(cell_tests, settings):
        reason = "no pattern: cells of the table in shadow read as cubes (the lattice on the cubes' shadows)"
    empty = table_cells(cell_tests, samples, gains, table_linear, settings)
    if reason is None and empty:
        empty = faint_cubes_kept(frame_bgr, grid, cell_tests, empty, settings)
    if reason is None and empty:
        empty = kept_solid(empty)
    if reason is None and empty:
        reason = _not_cubes(cell_tests, empty)  # cells of the table (lit, or in a cube's shadow)
    cloth = cloth_cells(cell_tests, grid, lab, scale, settings) if reason is None else []
    if len(cloth) >= settings.cloth_cells:
        reason = f"no pattern: {len(cloth)} cells show the table's own colour (the lattice on a checked cloth)"
    printed = (
        print_beyond_cells(cell_tests, grid, window_look(grid, cands)["cube"], lab, scale, settings)
        if reason is None
        else []
    )
    if len(printed) >= max(1, settings.print_cells):
        reason = f"no pattern: {len(printed)} cells in the colour of the lattice beyond the grid (the table's print)"
    if reason is None and off_the_lattice(cell_tests, settings):
        reason = "no pattern: the cubes' faces lie off the lattice's cells"
    mismatch = None
    if reason is None and settings.face_spread_mismatch < math.inf:
        mismatch = lattice_face_mismatch(
            _work.lab, _work.scale, grid, cell_tests, face_points, settings, region_of=face_region_of
        )
        debug["face_mismatch"] = mismatch
        if mismatch is not None and abs(mismatch) > settings.face_spread_mismatch:
            reason = "no pattern: the lattice is stretched against the cubes' faces"
    if reason is None and slid_weak_line(
        cell_tests, lambda: lattice_face_shear(grid, cell_tests, face_points, face_region_of, settings), settings
    ):
        reason = "no pattern: a line of the sheared lattice lies on the table beside its cubes"
    if reason is None and knocked_beside_weak_cells(cell_tests, surroundings, settings):
        reason = "a cube is out of line (beside a cell with no outline of its own)"
    toned = toned_open_cells(cell_tests, grid, lab, scale, settings) if reason is None else []
    if toned:
        toned = kept_solid(toned)
    if toned:
        reason = _not_cubes(cell_tests, toned)  # a cloth's check with no outline through an empty cell
    if reason is None and knocked_beside_toned_cells(cell_tests, surroundings, settings):
        reason = "a cube is out of line (beside a cell of the table's own colour)"
    if reason is None and shadow_fit_cells(cell_tests, settings, mismatch):
        reason = "no pattern: cells of the table in shadow read as cubes (the lattice on the cubes' shadows)"
    # (the cube-like lattice points around the grid only where an outer line is in question: best_window's look)
    if (
        reason is None
        and shadow_lines(cell_tests, settings)
        and shadow_lines(cell_tests, settings, window_look(grid, cands)["cube"])
    ):
        reason = "no pattern: a line of the table in shadow read as cubes, cubes beyond it (the lattice a line off)"
    if (
        reason is None
        and off_palette_lines(cell_tests, settings)
        and off_palette_lines(cell_tests, settings, window_look(grid, cands)["cube"])
    ):
        reason = "no pattern: a line of the cubes' shadows read as cubes, cubes beyond it (the lattice a line off)"
    spotless = spotless_table_cells(cell_tests, settings) if reason is None else []
    if spotless:
        spotless = kept_solid(spotless)
    if spotless:
        reason = _not_cubes(cell_tests, spotless)  # the table's print or a check's edge, no cube's face
    if (
        reason is None
        and settings.beyond_line_ring > 0
        and lines_beyond(cell_tests, window_look(grid, cands)["cube"], settings)
    ):
        reason = "no pattern: a line of cubes beyond the grid, its far line not outlined (the lattice a line off?)"
    if reason is None and settings.far_line_squash < math.inf and all_cubes(cell_tests):
        beyond = [move for move, _, _ in full_lines_beyond(window_look(grid, cands)["cube"])]
        squashed = squashed_far_line(grid, face_points, beyond, face_region_of, settings)
        debug["far_line_squash"] = squashed
        if squashed is not None and squashed > settings.far_line_squash:
            reason = "no pattern: a line of pieces beyond the grid, its far line squashed (the lattice a line off?)"
    if reason is None and any(g is grid for g in line_off):
        reason = "no pattern: a line of cubes beyond the grid, its far line near the table (the lattice a line off?)"
    if reason is None and knocked_beside_table_cells(
        cell_tests, surroundings, settings, lambda: shadow_tint(frame_bgr, grid, cell_tests, settings)
    ):
        reason = "a cube is out of line (beside a cell of about the table's colour)"
    if reason is None and cube_between_cells(cands, cubes, surroundings, settings) is not None:
        reason = "a cube is out of line (between the grid's cells)"
    foreign = foreign_cells(cell_tests, settings) if reason is None else []
    if foreign:
        reason = _not_cubes(cell_tests, foreign)  # something across cells and gaps alike (a hand)
    open_table = open_table_cells(cell_tests, settings) if reason is None else []
    if open_table:
        open_table = faint_cubes_kept(frame_bgr, grid, cell_tests, open_table, settings)
    if open_table:
        open_table = kept_solid(open_table)
    if open_table:
        reason = _not_cubes(cell_tests, open_table)  # cells of the table with next to no outline
    faceless = (
        faceless_toned_cells(
            cell_tests, grid, lab, scale, lambda xy: face_edges(frame_bgr, grid, xy, settings)[0], settings
        )
        if reason is None
        else []
    )
    if faceless:
        faceless = faceless_kept_on_plain(
            cell_tests,
            faceless,
            lambda: (
                table_is_plain(_work, settings)
                and table_chroma_spread(lab, scale, grid, settings) <= settings.faceless_plain_chroma
            ),
            settings,
        )
    if faceless:
        faceless = faint_cubes_kept_by_two_cues(frame_bgr, grid, cell_tests, faceless, settings)
    if faceless:
        faceless = kept_solid(faceless)
    if faceless:
        reason = _not_cubes(cell_tests, faceless)  # the table's print, no cube's face's edges
    repeated: list[tuple[int, int]] = []
    if reason is None:
        busy = not table_is_plain(_work, settings)
        # (on a table the edges call plain, only a cell far from its colour: the plain table explains the others too)
        toned_plain = (
            not busy
            and settings.repeat_toned_plain
            and any(t.get("cube") and float(t.get("tone", 0.0)) >= settings.faceless_share for t in cell_tests)
        )
        min_table = settings.repeat_plain_min_table if toned_plain else 0.0
        repeated = repeated_cells(cell_tests, lab, scale, grid, busy or toned_plain, settings, _work.memo, min_table)
    if repeated:
        reason = _not_cubes(cell_tests, repeated)  # the table's own repeat: a checked cloth's check
    # a cell sampled beside a cube, not on its face: its confidence says so, and "unclear" is the reason where no
    # check above gave one (an empty cell's count or the table's print tells the players more)
    on_edge = cells_on_an_edge(cell_tests, settings)
    cubes = [doubted(c) if (c.row, c.col) in on_edge else c for c in cubes]
    if reason is None and on_edge:
        reason = unclear(*on_edge[0])
    names = _rotate([[cubes[r * 3 + c].colour for c in range(3)] for r in range(3)], rotation)
    confs = _rotate([[cubes[r * 3 + c].confidence for c in range(3)] for r in range(3)], rotation)
    if reason is None and shaker is not None:
        reason = check_against_shaker_contents(names, shaker)
    box = box_contents() if reason is None and shaker is None and settings.box_limits else {}
    # (the game's palette only: another game's pieces named "red" or "blue" come in other numbers)
    if box and set(palette.names) == set(box):
        reason = check_against_shaker_contents(names, box)  # (no shake shows more than the box holds)
    # (last of the checks: a frame another check refuses keeps its reason)
    if reason is None and settings.faceless_line and faceless_line(cell_tests):
        reason = "no pattern: a line of the grid shows no piece's top face (the lattice a line off?)"
    if lazy and reason is not None:
        return every_size()  # (every size's lattices judged, retried and re-read as without lazy_size_margin)
    coarser = any(f[1].pitch >= settings.retry_pitch_ratio * grid.pitch for f in fits)  # (else no retry can win)
    coarser = coarser and _median(extents) >= settings.retry_min_extent  # (faces wider than the cells)
    if (
        reason is not None
        and settings.retry_without_size
        and not _without
        and (settings.retry_any_reason or reason.endswith("cubes in the grid"))
        and coarser
    ):
        again = _read(
            frame_bgr, palette, rotation, settings=settings, shaker=shaker, _without=frozenset({j}), _work=_work
        )  # (the frame's own work, the same whatever lattice wins, is not done again)
        if again.valid and again.debug["grid"].pitch >= settings.retry_pitch_ratio * grid.pitch:
            return replace(again, debug={**again.debug, "retried_without_size": j})
    if reason is not None and _start is None and not _without:
        reread = _ReadAgain(frame_bgr, palette, rotation, settings, shaker, _work)
        colours = {(c.row, c.col): c.colour for c in cubes}
        again = relattice(reread, grid, cands, cell_tests, j, reason) if settings.relattice else None
        if again is not None and settings.made_lattice and settings.relattice_made_check:
            again = made_check(again, read_made_lattices(reread, grid, cell_tests, reason, colours), settings)
        elif again is None and settings.made_lattice:
            again = read_made_lattices(reread, grid, cell_tests, reason, colours)
        if again is not None:
            return again
    if reason is not None:
        return ShakerReading(False, None, reason, confs, tuple(cubes), corners, rotation, debug)
    return ShakerReading(True, names, None, confs, tuple(cubes), corners, rotation, debug)


class _KeptMove:
    """The re-lattice's keep rule for a lattice read instead of ``refused``: at least ``relattice_min_shift``
    pitches from it (the same lattice read again: a refusal's doubt is not undone by asking twice) and leaving no
    plainly seen cube of it behind. Asked as soon as a re-read has settled, on the grid it ends on, so that a
    lattice it would not keep is not checked through; and (:meth:`never`) while it settles."""

    # the windows a refitted lattice can still move to while it settles (rows, columns): best_window with faces
    # one step either way, then a line beyond one step, then a full line beyond one more
    _SHIFTS = np.array([(a, b) for a in range(-3, 4) for b in range(-3, 4)], dtype=np.float64)
    _SPARE = 1e-6  # pitches: a window this near either limit is read through (the floats of a chain of moves)

    def __init__(self, refused: Grid, cell_tests: list[dict[str, Any]], settings: ShakerSettings) -> None:
        self.refused = refused
        self.cell_tests = cell_tests
        self.settings = settings

    def __call__(self, moved: Grid) -> bool:
        if moved_by(self.refused, moved) < self.settings.relattice_min_shift:
            return False
        return not left_behind(self.refused, moved, self.cell_tests, self.settings.relattice_kept_table)

    def may_start(self, start: Grid, *, screen_left: bool, min_start: float) -> bool:
        """Whether a re-read starting on ``start`` is worth screening: not (``screen_left``) leaving a plainly seen
        cube of the refused reading behind as it starts, nor starting under ``min_start`` pitches from the refused
        lattice (the refused lattice itself, about: settling takes it back, not kept)."""
        if screen_left and left_behind(self.refused, start, self.cell_tests, self.settings.relattice_kept_table):
            return False
        return moved_by(self.refused, start) >= min_start

    def never(self, grid: Grid) -> bool:
        """Whether no window of ``grid`` moved by up to three rows and three columns can be kept: each lies surely
        under ``relattice_min_shift`` pitches from the refused lattice or surely leaves a plainly seen cube of it
        behind (:func:`vision.shaker_lattice.moved_by`, :func:`vision.shaker_lattice.left_behind` with
        ``_SPARE`` pitch to spare). Such a lattice's read ends "not kept" whatever its last checks do."""
        old = self.refused
        pitch = old.pitch
        spare = self._SPARE * pitch
        old_c = old._centres  # (9, 2): Grid.centre's numbers, row by row
        new_c = grid._centres
        steps = self._SHIFTS[:, 0:1] * grid.row_step + self._SHIFTS[:, 1:2] * grid.col_step  # (49, 2)
        windows = new_c[None, :, :] + steps[:, None, :]  # (49, 9, 2)
        moved = np.hypot(*(windows - old_c[None]).transpose(2, 0, 1)).max(1)  # (49,): moved_by, in pixels
        surely = moved < self.settings.relattice_min_shift * pitch - spare
        plain = [3 * t["row"] + t["col"] for t in self.cell_tests if plain_cube(t, self.settings.relattice_kept_table)]
        if plain:
            # each plain cube's nearest cell centre of each window: beyond half a pitch (and the spare), left
            gaps = np.hypot(*(windows[:, None, :, :] - old_c[plain][None, :, None, :]).transpose(3, 0, 1, 2))
            surely |= (gaps.min(2) > 0.5 * pitch + spare).any(1)
        return bool(surely.all())


class _ReadAgain(NamedTuple):
    """How a refused reading's frame is read again (:func:`relattice`, :func:`read_made_lattices`): the frame, its
    palette, rotation, settings and shaker's contents as :func:`read_shaker` was asked, and the frame's work."""

    frame_bgr: np.ndarray
    palette: Palette
    rotation: int
    settings: ShakerSettings
    shaker: Mapping[str, int] | None
    work: _FrameWork

    def screen(self, grid: Grid, j: int) -> tuple[int, tuple[Grid, Candidates, list[dict[str, Any]]]]:
        """``grid``'s cells checked with size ``j``'s candidates on it (:func:`_verified`): how many verify as
        cubes, and the check, which a read from ``grid`` (:meth:`read_from`) starts from."""
        cands = self.work.all_cands[j]
        on = on_lattice(grid, cands, self.settings.lattice_tolerance)
        screened = _verified(self.work, self.frame_bgr, on, cands, self.palette, self.settings)
        return sum(bool(t["cube"]) for t in screened[2]), screened

    def read_from(
        self,
        start: tuple[Grid, int],
        keep: Callable[[Grid], bool] | None,
        screened: tuple[Grid, Candidates, list[dict[str, Any]]],
    ) -> ShakerReading:
        """The frame read again from ``start`` (a lattice and its size) on, its cells ``screened`` already: settled
        and checked in full, with no lattice search, nor another size's lattice or the read-again without a size."""
        return _read(
            self.frame_bgr,
            self.palette,
            self.rotation,
            settings=self.settings,
            shaker=self.shaker,
            _without=frozenset(range(len(self.work.all_cands))),
            _work=self.work,
            _start=start,
            _keep=keep,
            _screened=screened,
        )


def relattice(
    reread: _ReadAgain,
    grid: Grid,
    cands: Candidates,
    cell_tests: list[dict[str, Any]],
    j: int,
    reason: str,
) -> ShakerReading | None:
    """A refused reading read again on another lattice near its own (:func:`vision.shaker_lattice.lattice_moves`):
    the moves whose cells verify as most cubes are read from their settling on (every check after it runs), and
    the first read whole on a lattice at least ``relattice_min_shift`` pitches from the refused one that leaves no
    plainly seen cube of it behind (:func:`vision.shaker_lattice.left_behind`) wins; None when none. A reading
    refused for a cube out of line only with ``relattice_out_of_line`` (a knocked-out cube a moved lattice would
    take in: the moved lattice must still move as far and leave no plainly seen cube behind)."""
    settings, work = reread.settings, reread.work
    if reason.startswith("a cube is out of line") and not settings.relattice_out_of_line:
        return None
    n_cubes = sum(bool(t["cube"]) for t in cell_tests)
    if n_cubes < settings.relattice_min_cubes:
        return None
    faces = []
    for t in cell_tests:
        k = grid.cell_candidate[t["row"]][t["col"]]
        if t["cube"] and k >= 0:
            face = _top_face_once(work, grid.centre(t["row"], t["col"]), cands.xy[k], grid.pitch, settings)
            if face is not None and face[1] <= settings.max_extent:
                faces.append((t["row"], t["col"], face[0]))
    looks = []
    kept = _KeptMove(grid, cell_tests, settings)
    for i, move in enumerate(lattice_moves(grid, faces, settings.relattice_scales, settings.relattice_shifts)):
        if not kept.may_start(move, screen_left=settings.relattice_screen_left, min_start=settings.relattice_min_start):
            continue
        verified, screened = reread.screen(move, j)
        if verified >= settings.relattice_screen_cubes:
            looks.append((-verified, i, move, screened))

    for _, i, move, screened in sorted(looks, key=lambda x: x[:2])[: settings.relattice_reads]:
        again = reread.read_from((move, j), kept, screened)
        if not again.valid or not kept(again.debug["grid"]):
            continue
        return replace(again, debug={**again.debug, "relattice": {"refused": reason, "move": i, "cubes": n_cubes}})
    return None


def _median_face_offset(reading: ShakerReading) -> float:
    """The median of a reading's cubes' top-face offsets from their cells' centres (pitches; inf with none)."""
    offsets = [float(t["offset"]) for t in reading.debug["cell_tests"] if t["cube"] and "offset" in t]
    return _median(offsets) if offsets else math.inf


def made_check(
    moved: ShakerReading,
    made: ShakerReading | None,
    settings: ShakerSettings = DEFAULT_SETTINGS,
    *,
    looked: str = "made_check",
) -> ShakerReading:
    """A re-lattice's valid reading (``moved``) against the made lattices' (:func:`read_made_lattices`, None when
    none was read whole; or the read without highlights', :func:`glare_reading`, ``relattice_glare_check``): the same
    pattern, or none, keeps ``moved``; another pattern keeps the reading whose cubes' top faces lie nearer their cells
    (:func:`_median_face_offset`), and refuses both when the two lie within ``relattice_made_margin`` pitches of each
    other (``relattice_made_check``). ``looked``: the debug key the two offsets are kept under."""
    if made is None or not made.valid or made.pattern == moved.pattern:
        return moved
    off_moved, off_made = _median_face_offset(moved), _median_face_offset(made)
    looks = {"moved": round(off_moved, 3), "made": round(off_made, 3)}
    if off_made + settings.relattice_made_margin <= off_moved:
        return replace(made, debug={**made.debug, looked: looks})
    if off_moved + settings.relattice_made_margin <= off_made:
        return replace(moved, debug={**moved.debug, looked: looks})
    reason = "no pattern: two lattices read two patterns"
    return replace(moved, valid=False, pattern=None, reason=reason, debug={**moved.debug, looked: looks})


def one_face_pairs(
    frame_bgr: np.ndarray, cubes: Sequence[CubeReading], delta_e: float
) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """The pairs of neighbouring cubes (row, col) of one colour with no gap between them: every pixel of the segment
    between their samples' points, from 20 to 80 % of the way, lies within ``delta_e`` (CIE76, the frame's 8-bit Lab
    after a 3 x 3 Gaussian blur) of the mean of the two points' colours. Two cells on one face: a lattice finer than
    the pieces divides them (``made_one_face_delta_e``; 0: none asked)."""
    if delta_e <= 0:
        return []
    by_cell = {(c.row, c.col): c for c in cubes if c.colour is not None}
    pairs = [
        (a, b)
        for a in by_cell
        for b in ((a[0], a[1] + 1), (a[0] + 1, a[1]))
        if b in by_cell and by_cell[b].colour == by_cell[a].colour
    ]
    if not pairs:
        return []
    h, w = frame_bgr.shape[:2]
    xys = np.array([[by_cell[a].xy, by_cell[b].xy] for a, b in pairs], dtype=np.float64)
    lo, hi = np.floor(xys.reshape(-1, 2).min(0)).astype(int) - 2, np.ceil(xys.reshape(-1, 2).max(0)).astype(int) + 3
    x0, y0 = max(0, int(lo[0])), max(0, int(lo[1]))
    x1, y1 = min(w, int(hi[0])), min(h, int(hi[1]))
    if x1 - x0 < 2 or y1 - y0 < 2:
        return []
    blurred = cv2.GaussianBlur(frame_bgr[y0:y1, x0:x1], (3, 3), 0)
    found = []
    for (a, b), (pa, pb) in zip(pairs, xys, strict=True):
        # (the two points themselves, then the segment's: only these pixels are taken to Lab)
        n = max(2, int(math.hypot(*(pb - pa))) + 1)
        along = np.concatenate([[0.0, 1.0], np.linspace(0.2, 0.8, n)])
        pts = pa[None] + along[:, None] * (pb - pa)[None]
        xs = np.clip(np.rint(pts[:, 0]).astype(int) - x0, 0, x1 - x0 - 1)
        ys = np.clip(np.rint(pts[:, 1]).astype(int) - y0, 0, y1 - y0 - 1)
        lab = lab8_to_lab(cv2.cvtColor(blurred[ys, xs][None], cv2.COLOR_BGR2Lab)[0])
        ref = (lab[0] + lab[1]) / 2.0
        if float(np.sqrt(((lab[2:] - ref) ** 2).sum(1)).max()) <= delta_e:
            found.append((a, b))
    return found


def made_lattices(
    work: _FrameWork, refused: Grid, settings: ShakerSettings = DEFAULT_SETTINGS
) -> list[tuple[Grid, int]]:
    """Lattices at the cubes' own pitch, fitted afresh (with each one's size index) for a refused reading.

    Where a gingham's checks, a card or the cubes' shadows won the fit, the cubes themselves are often too few
    of any one size's strongest candidates for a lattice of theirs to be fitted (their nine lie spread over two
    or three neighbouring sizes). Each size's candidates are pooled with its neighbours' (one point per shape:
    :func:`vision.shaker_lattice.pooled_candidates`) and fitted with the pitch a cube of that size has
    (``made_pitch_min``-``made_pitch_max`` radii, not the fit's wider range); only those whose pitch is at least
    ``made_pitch_apart`` off the refused lattice's are given (the re-lattice looked near it)."""
    all_cands = work[5]
    fit = replace(settings, pitch_min=settings.made_pitch_min, pitch_max=settings.made_pitch_max)
    sizes = [j for j, c in enumerate(all_cands) if len(c.xy)]
    pools = [pooled_candidates(all_cands, j, settings.made_merge) for j in sizes]
    tried = [p if len(p.xy) >= settings.min_support else Candidates(*_NO_CANDIDATES) for p in pools]
    hypotheses = lattice_hypotheses(tried, fit)
    out: list[tuple[Grid, int]] = []
    for j, pool, hyp in zip(sizes, tried, hypotheses, strict=True):
        if len(pool.xy) < settings.min_support or isinstance(hyp, GridNotFound):
            continue
        for grid in itertools.islice(lattices(pool, fit, hyp), settings.made_per_size):
            apart = abs(grid.pitch / refused.pitch - 1.0) > settings.made_pitch_apart
            if settings.made_same_pitch or apart:
                out.append((grid, j))
            if apart and settings.made_next_if_near:
                break  # (the size's best made lattice at another pitch than the refused one: its next is not made)
    return out


def table_is_plain(work: _FrameWork, settings: ShakerSettings = DEFAULT_SETTINGS) -> bool:
    """Whether the frame's table is plain: its mean edge strength (``response_noise_factor`` times it) does not lift
    :func:`find_cubes`' threshold above ``response_min``, as a gingham's checks do. On a plain table an empty cell
    has no print to outline, so a cube of the table's colour is not a check read as one (:func:`made_table_cells`);
    on a busy one the cubes' own size may go unfound (:func:`busy_table_reading`)."""
    return settings.response_noise_factor * mean_edge_strength(work) <= settings.response_min


def mean_edge_strength(work: _FrameWork) -> float:
    """The frame's mean edge strength (:func:`edge_strength`, from the work's integral image): a table's print
    lifts it (batch 68's first 80 frames a set: plain tables 0.3-1.8, printed mats 0.8-2.9, wood and cloth
    1.3-3.2, ginghams 4.8-13)."""
    g_sum = work.g_sum
    return float(g_sum[-1, -1] / ((g_sum.shape[0] - 1) * (g_sum.shape[1] - 1)))


def made_table_cells(work: _FrameWork, near: bool, settings: ShakerSettings = DEFAULT_SETTINGS) -> int:
    """How many cubes of the table's colour a made reading may have: ``made_max_table_cells`` at another pitch than
    the refused one's; at about it ``made_same_pitch_table_cells``, or ``made_plain_table_cells`` when more on a
    plain table (:func:`table_is_plain`)."""
    if not near:
        return settings.made_max_table_cells
    limit = settings.made_same_pitch_table_cells
    if settings.made_plain_table_cells > limit and table_is_plain(work, settings):
        return settings.made_plain_table_cells
    return limit


def between_pieces(grid: Grid, extents: Sequence[float], settings: ShakerSettings = DEFAULT_SETTINGS) -> int:
    """How many of the cubes show no face of their colour at their cells (``extents``: the cubes' top faces, in
    pitches, :func:`cube_offset`'s; under ``faceless_extent``: none found), when they refuse the grid as a lattice
    that falls between the pieces: ``faceless_cubes`` or more, or ``faceless_squashed_cubes`` or more on a lattice
    squashed past ``faceless_squash`` (the log of its ratio of steps). 0 when they do not."""
    faceless = sum(1 for extent in extents if extent < settings.faceless_extent)
    if faceless >= settings.faceless_cubes:
        return faceless
    if faceless < settings.faceless_squashed_cubes:
        return 0
    return faceless if abs(math.log(grid.step_ratio)) > settings.faceless_squash else 0


_ALIGNMENT_SIDE = 96  # edge_alignment's square (pixels, 32 a cell)


def edge_alignment(frame_bgr: np.ndarray, grid: Grid) -> float:
    """How the edges inside ``grid`` run against its lattice: the frame warped onto the lattice's square (turn and
    tilt undone), its gradients' angles to the steps averaged as cos(4 x angle), each weighted by its strength
    (colour channels summed). 1: every edge along a step (cubes, tiles, stickers in their cells), about 0: in every
    direction alike (round pieces), -1: every edge diagonal to the steps (a lattice turned against the cells)."""
    side = _ALIGNMENT_SIDE
    square = np.float32([[0, 0], [side, 0], [side, side], [0, side]])
    to_square = cv2.getPerspectiveTransform(grid.corners().astype(np.float32), square)
    cells = cv2.warpPerspective(frame_bgr, to_square, (side, side), flags=cv2.INTER_LINEAR).astype(np.float32)
    gx = cv2.Sobel(cells, cv2.CV_32F, 1, 0, ksize=3).reshape(-1, 1)
    gy = cv2.Sobel(cells, cv2.CV_32F, 0, 1, ksize=3).reshape(-1, 1)
    strength, angle = cv2.cartToPolar(gx, gy)
    total = float(strength.sum())
    if total <= 0.0:
        return 0.0
    along, _ = cv2.polarToCart(strength, angle * 4.0)  # (each gradient's strength times cos(4 x its angle))
    return float(along.sum() / total)


def made_elsewhere(refused: Grid, grid: Grid, settings: ShakerSettings = DEFAULT_SETTINGS) -> bool:
    """Whether a made lattice lies elsewhere in the frame than the refused one: no cell centre of it within
    ``made_elsewhere_gap`` refused pitches of any of the refused lattice's (never when 0). Such a lattice re-reads
    none of the refused reading's cubes, so the re-lattice's keep rule (leave none of them behind) is not its."""
    if settings.made_elsewhere_gap <= 0.0:
        return False
    gaps = np.hypot(*(grid._centres[:, None, :] - refused._centres[None, :, :]).transpose(2, 0, 1))
    return bool(gaps.min() >= settings.made_elsewhere_gap * refused.pitch)


def read_made_lattices(
    reread: _ReadAgain,
    refused: Grid,
    cell_tests: list[dict[str, Any]],
    reason: str,
    colours: Mapping[tuple[int, int], str | None],
) -> ShakerReading | None:
    """A refused reading read again on :func:`made_lattices`: the ``made_reads`` whose cells verify most cubes (at
    least ``made_screen_cubes``) are settled and checked in full, as a re-lattice move is; the first read whole
    wins, unless it is too small a face, too many cells of the table's colour, or (``made_whole_cubes``) a lattice
    dividing a plainly seen cube of the refused reading (``colours``: its cells' colours); None when none. (On the
    true lattice, main's refused complete patterns on a wrong-pitch lattice read right 45 times in 60; no refused
    incomplete one of 100 was accepted.)"""
    settings = reread.settings
    try:
        made = made_lattices(reread.work, refused, settings)
    except GridNotFound:
        return None
    looks = []
    kept = _KeptMove(refused, cell_tests, settings)  # (a made lattice at about the refused pitch is a re-lattice move)
    for i, (grid, j) in enumerate(made):
        near = abs(grid.pitch / refused.pitch - 1.0) <= settings.made_pitch_apart
        near = near and not made_elsewhere(refused, grid, settings)
        if near and not kept.may_start(
            grid, screen_left=settings.made_screen_left, min_start=settings.made_screen_min_shift
        ):
            continue
        verified, screened = reread.screen(grid, j)
        if verified >= settings.made_screen_cubes:
            looks.append((-verified, -grid.score, i, grid, j, screened, near))

    for _, _, i, grid, j, screened, near in sorted(looks, key=lambda x: x[:3])[: settings.made_reads]:
        again = reread.read_from((grid, j), kept if near else None, screened)
        if not again.valid or (near and not kept(again.debug["grid"])):
            continue
        extents = [t["extent"] for t in again.debug["cell_tests"] if t["cube"] and "extent" in t]
        if extents and min(extents) < settings.made_min_extent:
            continue
        if settings.made_whole_cubes and divides_plain_cubes(
            refused,
            again.debug["grid"],
            cell_tests,
            settings.relattice_kept_table,
            colours,
            {(c.row, c.col): c.colour for c in again.cubes},
        ):
            continue
        if one_face_pairs(reread.frame_bgr, again.cubes, settings.made_one_face_delta_e):
            continue
        tests = again.debug["cell_tests"]
        table_coloured = sum(t["cube"] and t["d_table"] < settings.made_table_d for t in tests)
        if table_coloured > made_table_cells(reread.work, near, settings):
            continue
        return replace(again, debug={**again.debug, "made_lattice": {"refused": reason, "lattice": i, "size": j}})
    return None


# ---------------------------------------------------------------- calibration


def calibrate_from_frame(
    frame_bgr: np.ndarray,
    pattern: Sequence[Sequence[str]],
    palette: Palette | None = None,
    rotation: int = 0,
    *,
    settings: ShakerSettings = DEFAULT_SETTINGS,
) -> Palette:
    """A palette adapted to this table's light and camera, from one frame of a pattern the players name.

    ``pattern`` is given as the players read it (after ``rotation``). Each named colour's reference
    becomes the mean of its cubes' top faces as seen here (the base palette's value is kept as a second
    reference); colours absent from the pattern keep the base palette's. Raises CalibrationError when
    the frame shows no complete grid or the pattern is not 3 x 3 of the palette's colours.
    """
    base = palette or default_palette()
    if len(pattern) != 3 or any(len(row) != 3 for row in pattern):
        raise CalibrationError("calibration: the pattern must be 3 rows of 3 colours")
    reading = read_shaker(frame_bgr, base, rotation, settings=settings)
    grid = reading.debug.get("grid")
    if grid is None or any(c.colour is None for c in reading.cubes):
        raise CalibrationError(f"calibration: no complete 3 x 3 grid found ({reading.reason})")
    unrotated = _rotate([list(row) for row in pattern], (360 - rotation) % 360)
    names = [unrotated[cube.row][cube.col] for cube in reading.cubes]
    radius = cube_sample_radius(grid.pitch, math.inf, settings)
    labs = [linear_rgb_to_lab(sample_top_face(frame_bgr, np.array(cube.xy), radius)) for cube in reading.cubes]
    return calibrate_palette(labs, names, base)


# ---------------------------------------------------------------- debug drawing


def draw_reading(frame_bgr: np.ndarray, reading: ShakerReading) -> np.ndarray:
    """The frame annotated with the candidates, the found grid and each cube's colour and confidence."""
    out = frame_bgr.copy()
    cands = reading.debug.get("candidates")
    scale = max(1, round(max(out.shape[:2]) / 1024))
    if cands is not None:
        for (x, y), r in zip(cands.xy, cands.radius, strict=True):
            cv2.circle(out, (round(x), round(y)), max(2, round(r)), (255, 0, 255), scale)
    for x, y in reading.debug.get("strays", ()):
        cv2.circle(out, (round(x), round(y)), 12 * scale, (0, 0, 255), 2 * scale)
    if reading.grid_corners is not None:
        pts = np.array(reading.grid_corners, dtype=np.int32).reshape(-1, 1, 2)
        cv2.polylines(out, [pts], True, (0, 255, 0) if reading.valid else (0, 0, 255), 2 * scale)
    for cube in reading.cubes:
        x, y = round(cube.xy[0]), round(cube.xy[1])
        label = f"{cube.colour or '-'} {cube.confidence:.2f}" if cube.colour else "empty"
        cv2.putText(out, label, (x - 20, y + 4), cv2.FONT_HERSHEY_SIMPLEX, 0.35 * scale, (0, 0, 0), 3 * scale)
        cv2.putText(out, label, (x - 20, y + 4), cv2.FONT_HERSHEY_SIMPLEX, 0.35 * scale, (255, 255, 255), scale)
    text = "pattern read" if reading.valid else f"refused: {reading.reason}"
    cv2.putText(out, text, (10, 30 * scale), cv2.FONT_HERSHEY_SIMPLEX, 0.8 * scale, (0, 0, 0), 4 * scale)
    cv2.putText(out, text, (10, 30 * scale), cv2.FONT_HERSHEY_SIMPLEX, 0.8 * scale, (255, 255, 255), 2 * scale)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m vision.shaker photo.jpg [...]``: the read-shaker command on its own."""
    import argparse

    from .shaker_cli import register

    parser = argparse.ArgumentParser(prog="python -m vision.shaker")
    sub = parser.add_subparsers(dest="command")
    register(sub)
    args = parser.parse_args(["read-shaker", *(argv if argv is not None else sys.argv[1:])])
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
