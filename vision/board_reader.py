"""Read a photo of a Shake That City player board into its 6 x 6 grid, whichever way the board lies.

A chain of named stages, each a public function taking its settings explicitly:

1. :func:`find_board_candidates` — convex quadrilaterals in a small copy of the photo (edges, dark and
   light regions), anything that could be the board or its 6 x 6 cell area;
2. :func:`fit_cell_lattice` — inside a candidate, the 7 + 7 equally spaced grid lines of the cells give
   the cell area (so the outline of the whole board and the outline of its cells both lead there);
3. :func:`orient_board` — the board's own border (the corner bonus tile at the north-west, the bonus
   tiles in the notches of the north and west edges) compared, in the four quarter turns, with the border
   learnt at calibration: this gives north and also proves it is the calibrated board and not a phone.
   Without a clear match the best lattices are tried one cell over (locked onto the border's lines when
   the outline was missed) and refitted, and a board found only so, or nearly, has its corners moved by
   :func:`climb_border` to the best border match (from below the threshold only up to a clear match);
4. :func:`refine_alignment` — the homography refined on the border (ECC), then :func:`refine_grid` — on
   the cells' own boundaries (grid lines, tile edges), which keeps a tilted board or a waterfront board
   (beach border) from skewing (an ECC move too large to take on trust, a corner the outline missed in a
   cast shadow, is refined so too and kept on clearly more grid support: ``rival_refine_move``); the board
   is rectified to a square in board coordinates (row 0 north);
5. :func:`cell_features` / :func:`classify_cells` — each cell is first tested against its own empty look
   from calibration ("empty or covered?"; a cell still showing its own print's mottling,
   :func:`print_agreement`, is empty; one whose ground colour left its own print's for a tile's,
   :func:`chroma_excess`, or whose fine structure rose well above its empty print's, :func:`fine_energy`
   (faint tree art on a green print), is covered), then named from the tile looks learnt from the known
   layout; a reading of a weak picture in a cell washed towards white, from a tile whose picture matches
   better, is doubted (:func:`glare_alpha`, ``glare_doubt``: flagged to confirm, never changed); a cell
   darker than a tile's look in every channel is compared again brightened back (:func:`shade_distances`:
   a road in a cast shadow sharper than the fitted light is not a factory);
6. :func:`read_board` — refusal (no board, cut off, too blurred, cells that do not line up with their own
   grid lines as the known layout's do: ``min_grid_ratio``, most cells unsure: ``max_unsure_fraction``)
   and low-confidence cells.

Nothing here knows the print's colours: everything print-specific comes from :class:`BoardCalibration`,
made from two photos (empty board, known layout) with :func:`calibrate_board`, which refuses a known photo
whose empty cells do not show the empty photo's print (:func:`known_empty_distances`: its cells not lined
up, or the layout typed is not the one laid out).

Run alone: ``python -m vision.board_reader calibrate EMPTY KNOWN KNOWN.json CAL.json`` and
``python -m vision.board_reader read PHOTO CAL.json``.
"""

from __future__ import annotations

import base64
import json
import math
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2  # noqa: E402,I001  (image_io sets OpenCV's pixel limit before cv2 is first imported)
import numpy as np

from .errors import CalibrationError, ImageReadError
from .image_io import MAX_FILE_BYTES, MAX_PIXELS, _header_size, decode_image_bytes, read_image_file

SIZE = 6
TILE_LETTERS = "HSFPRC"
EMPTY = "."
NORTHS = ("up", "right", "down", "left")
SIDES = ("inland", "waterfront")
CALIBRATION_FORMAT = "shakecity-board-calibration"
CALIBRATION_VERSION = 1


@dataclass(frozen=True)
class ReaderSettings:
    """Every tunable of the reader in one versioned place (chosen from ``eval-board`` figures)."""

    version: int = 1
    work_long_side: int = 1000  # photos are reduced by a whole factor to about this long side first
    detect_long_side: int = 560  # board candidates are looked for at this size
    # squashed cell areas are not a board (a cut-off board's few rows, or a lattice stretched past the board's
    # cells onto a waterfront's beach): a square seen at most 35 degrees from above is about cos 35 = 0.82 or
    # more; 0.6 let print 1906's known photo be found at 0.69, 1.4 times too wide (every tile look learnt from
    # another cell). 0.72: the same readings on dev and 17 generated prints, and 1906 read right
    min_cell_aspect: float = 0.72
    min_board_fraction: float = 0.025  # smallest candidate quad, as a fraction of the photo's area
    # without a board among the outlines, the board is also looked for where the photo is unlike its table
    # (table_candidates): on a striped wood no edge or brightness mask closed around two real boards
    # (generated 904/015, 1104/012 were refused)
    table_mask: bool = True
    cell_px: int = 40  # cell size of the rectified board (colour sampling, calibration images)
    margin_cells: float = 1.25  # border kept around the cell area in rectified images, in cells
    orient_cell_px: int = 16  # cell size of the small rectified board used to find north
    min_border_match: float = 0.45  # border correlation below this: no (calibrated) board in the photo
    sure_border_match: float = 0.65  # a border correlation this good ends the search for the board
    shifted_lattices: int = 4  # without a sure match, the best lattices are tried one cell over too (0: off)
    climb_cell_px: int = 10  # ... and a found but unsure area's corners moved to match the border best, at this size
    climb_steps: tuple[float, ...] = (0.4, 0.2, 0.1)  # corner steps (cells), coarse to fine (empty: off)
    climb_rounds: int = 6  # most steps of each size
    climb_from: float = 0.3  # ... also from a match this far below min_border_match (then up to climb_to)
    climb_to: float = 0.55  # a climb from below min_border_match must reach this match (a table climbs a little)
    min_lattice_strength: float = 1.5  # grid-line evidence needed to accept the empty calibration board
    min_north_margin: float = 0.08  # best quarter turn must beat the next by this much
    max_blur_ratio: float = 0.25  # sharpness below this fraction of the calibration's: too blurred
    # the rectified cells' own grid (every cell side a line, :func:`_lattice_strength`) below this fraction of
    # the known layout's: the cell area is off the cells (a corner a cell or more away that the border still
    # matched), its readings from the wrong places; refused (0: off)
    min_grid_ratio: float = 0.56
    cut_off_margin: float = 0.2  # the cell area plus this many cells must lie inside the photo
    patch_inset: float = 0.16  # part of each cell side left out around the sampled patch
    low_confidence: float = 0.5  # cells below this confidence are asked to be confirmed
    # a reading with more than this fraction of its cells below low_confidence is refused as no board: a lattice
    # on a board's fragment (the board cut off at the frame) or a look-alike (1: off)
    max_unsure_fraction: float = 0.5
    # calibration: the known layout's empty cells must show the empty photo's print (CIE76 distance of each
    # cell's mean colour, after the two photos' overall change of light, :func:`known_empty_distances`). More than
    # max_known_empty_share of them beyond known_empty_delta_e: the known photo's cells were not lined up (or the
    # layout typed is not the one laid out) and every tile look learnt from it would be another cell's: refused.
    # Right calibrations of dev and 220 generated prints: at most 4.3 on any empty cell; a misaligned one (seed
    # 1906): 63 % of its empty cells beyond 10 (max_known_empty_share 1: off)
    known_empty_delta_e: float = 10.0
    max_known_empty_share: float = 0.25
    template_px: int = 24  # side of the correlation window at cell_px (the rest allows for tile shifts)
    correlation_weight: float = 11.0  # weight of correlation (above correlation_base) against the colour distance
    correlation_base: float = 0.1  # correlation counted as no evidence (chance matches against many looks)
    light_iterations: int = 3  # read, fit the light on the reading, read again
    weak_correlation: float = 0.5  # a picture match below this (unseen art, chance) ...
    # ... counts less for a reading whose mean colour is colour_gap (CIE76) further than the nearest reading's,
    # and nothing beyond colour_gap_ramp more (ramp inf: off). 10 -> 6: a crossroads the known layout never showed
    # (only curved roads) matched a shop's picture at 0.29 and the roads' at 0.17 and was read a shop, its gray
    # only 8.7 further from the shops' mean colour (white building on blue) than from the roads'
    colour_gap: float = 6.0
    colour_gap_ramp: float = 10.0
    # ... and likewise a picture match below this whose ground colour (median a*b*) is further than the
    # nearest type's by ground_gap (in full ground_gap_ramp more): the ground of a tile does not change with
    # its art (a gray road is never a park, whatever lines are drawn on it); glare takes chroma, not hue
    ground_correlation: float = 0.65
    ground_gap: float = 10.0
    ground_gap_ramp: float = 10.0  # (inf: off)
    ground_washed_l: float = 8.0  # a cell this much lighter (L*) than a tile example may be it under glare
    ground_gray: float = 15.0  # ... and only cells of a grayer ground (a*b* chroma) than this, against types
    # whose every example is at least twice as coloured
    border_light_penalty: float = 2.0  # a reading's distance under the border's light alone, plus this, also counts
    detail_sigma_cells: float = 0.15  # detail = the board less its blur at this scale (cells)
    detail_floor: float = 3.0  # grey levels of detail below which a window counts as plain in correlation
    plain_ratio: float = 0.5  # correlation counts fully once a cell shows this times its empty detail (0: always)
    plain_ramp: float = 1.5
    sure_empty_correlation: float = 0.5  # a cell this like its own empty print counts as such in full (1: off)
    energy_weight: int = 4  # how many times the fine-structure level counts among the cell features
    alike_empty: float = 1.5  # empty looks this close (feature distance) count as the same print
    # ... and a cell's fine structure beyond its empty print's (fine_weight) counts against that look too, as
    # against its own (False: off; busy_weight's and chroma_excess's do not: a neighbouring tile's halo, the
    # photo's light)
    examples_keep_fine: bool = True
    photo_examples_confidence: float = 0.9  # tiles read this surely become examples for the rest (1: off)
    confidence_scale: float = 3.0  # distance margin between the two best readings giving confidence 0.63
    # signs of a misreading the margin misses (only confidence changes, never a reading; 0: off):
    relit_doubt: float = 0.3  # confidence lost by a reading the border's light alone read otherwise
    colour_doubt: float = 0.5  # ... and by one whose mean colour is further than the runner-up's ...
    colour_doubt_gap: float = 0.5  # ... by this much (feature distance): it won on its picture alone
    # ... and by one whose picture matches less than weak_correlation while the cell is washed towards white
    # (glare_min) for a tile whose picture matches it better, by this gap and at least glare_min_correlation:
    # a tile washed out by glare that its colour read as another (a black factory gone road-gray)
    glare_doubt: float = 0.3
    glare_doubt_gap: float = 0.05
    max_refine_move: float = 0.35  # an ECC refinement moving a cell-area corner further (cells) ran away
    # ... or found a corner the outline missed (a board's corner in a cast shadow, the lattice on a tile's
    # picture): a refinement moving no corner further than this (cells) is then tried too, each refined on
    # the cells' own grid, and kept when its grid support is this much higher (0: off)
    rival_refine_move: float = 1.0
    rival_grid_gain: float = 0.02  # (support: share of the edge votes on the lines, as grid_min_gain)
    glare_min: float = 0.15  # a cell this washed towards white for a reading is compared again unwashed (1: off)
    glare_max: float = 0.8
    glare_min_correlation: float = 0.35  # ... only for a reading whose picture matches the cell this well
    glare_penalty: float = 4.0  # distance added per unit of glare needed
    # ... and tried again once the photo's own sure tiles have taught their pictures (photo_examples_confidence):
    # a factory washed out beyond a clear match with the known layout's factories may still match the photo's
    # own (same light, same illustration) clearly (False: off)
    glare_after_examples: bool = True
    # a cell darker than a tile type's look in every channel (by the common factor, shade_max or less) may be that
    # tile in a cast shadow, sharper than the fitted light follows (a road in a hand's shadow gone factory-dark):
    # it is compared again with its centre brightened back by that factor (at most 1 / shade_floor), plus
    # shade_penalty per unit of log factor (1: off). Misread cells 9 -> 6 on dev, 1701-1706, 1901-1906 and
    # 2201-2208 (two unflagged roads read as factories in a shadow now right), right cells flagged 148 -> 142;
    # penalty 0.5 costs a dev factory (read as a shaded road), 1.5-2 keep a shaded road read as a factory
    shade_max: float = 0.85
    shade_floor: float = 0.3
    shade_penalty: float = 1.0
    # ... and colour_gates measure such a cell's mean colour against that type brightened back likewise (a road in
    # a shadow keeps its picture's evidence; with colour_gap 6 it lost it again and read a factory) (False: off)
    shade_gates: bool = True
    # against the empty look, windows lose each channel's level (0), slope (1) or curvature (2); 1 read one
    # print's plain park tiles better but unseen prints and the dev photos worse, so 0
    empty_trend_order: int = 0
    busy_ratio: float = 1.6  # a cell with more fine structure than this times its empty print's (light undone)...
    busy_weight: float = 3.0  # ... is this much further from empty per unit of log ratio beyond (0: off)
    # the same at a finer scale, where the halo of a cell's edges (its grid lines, a tile's outline) no longer
    # counts and a plain print shows only the photo's noise: a picture of low contrast in the print's own
    # colour (a park's trees on a green cell) stands out there. Fine structure = the centre (clear of edges by
    # fine_inset_px) less its blur at fine_sigma_px, at cell_px; ratio to the empty print's, light undone,
    # with fine_floor (8-bit levels) added to both so that a very plain print's noise does not count ...
    fine_sigma_px: float = 2.0
    fine_inset_px: int = 8
    fine_floor: float = 0.5
    fine_ratio: float = 2.0  # ... beyond this ratio ...
    fine_weight: float = 8.0  # ... a cell is this much further from empty per unit of log ratio (0: off)
    fine_agree_from: float = 0.45  # ... less where its print's mottling shows (print_agreement) from this
    fine_agree_full: float = 0.65  # ... and not at all from this
    # with fine_weight > 0, busy_weight's penalty counts only from this fine ratio (that of fine_ratio) up,
    # in full from busy_fine_full (0: always): a plain print busier at the coarse scale alone is a neighbour's
    # shadow or outline, or grid lines a little off, at its edges, not a picture
    busy_fine_from: float = 1.2
    busy_fine_full: float = 2.0
    # a cell still showing its own empty print's mottling (the print's texture, not a tile's flat face) is
    # empty: agreement (correlation of the smoothed, de-trended Lab centre with the empty look's) from
    # print_agreement up to this ...
    print_agree_from: float = 0.65
    print_agree_full: float = 0.85  # ... counts as no evidence, from this in full, ...
    print_agree_weight: float = 6.0  # ... and then brings empty this much nearer (0: off)
    # a cell whose ground colour (median a*b*, light undone) is far from its own empty look's and near a tile's
    # is covered (a park of unseen art on green: its own green, not the print's): chroma distance to the
    # empty look less that to the nearest tile example beyond this (CIE76 a*b*) ...
    chroma_from: float = 8.0
    chroma_ramp: float = 12.0  # ... takes empty further, in full this much beyond, ...
    chroma_weight: float = 4.0  # ... by this much (0: off); cells whose empty looks are this near (a*b*) are
    chroma_alike: float = 6.0  # printed alike: the shift of those read surely empty is the light's
    chroma_unsure: float = 8.0  # without two such cells, the excess counts this much less
    # a cell with hardly any fine structure (fine_energy, light undone, in 8-bit levels: a plain print's
    # noise) shows no tile's picture, whatever its colour (a plain cell printed in a park's green): below
    # plain_fine_full it is brought plain_fine_weight nearer empty, in part up to plain_fine_from (0: off).
    # 6: misread cells 16 -> 4 on helper G's tuning batches, 8 -> 3 on its untouched 8121-8126, 2 -> 0 on the
    # lead's held-out 1301-1306 (none new on 1701-1706, 1901-1905; right cells flagged there 155 -> 89); dev
    # unchanged; 10 costs a dev cell
    plain_fine_from: float = 2.0
    plain_fine_full: float = 1.6
    plain_fine_weight: float = 6.0
    print_inset_px: int = 7  # at cell_px: the centre compared, clear of grid lines and tile outlines
    print_sigma_px: float = 1.5  # smoothing before comparing (noise and JPEG blocks out)
    print_floor: float = 1.0  # 8-bit Lab units per element below which a centre counts as plain
    grid_cell_px: int = 24  # cell size of the rectified board the cells' own grid lines are fitted on
    grid_max_move: float = 0.9  # the grid correction moves no cell-area corner further (cells): never a whole cell
    grid_max_shift: float = 0.4  # ... nor the whole area by more than this on average (cells)
    grid_passes: int = 3  # measure, correct, measure again (the later passes only fine steps)
    grid_move_cost: float = 0.1  # support given up per cell of mean corner move (small moves need less proof)
    grid_far_gain: float = 0.05  # a corner moved far (beyond the fine search) must add this much support
    grid_min_gain: float = 0.02  # the correction must put this much more of the edge strength on the lines


SETTINGS = ReaderSettings()


# --------------------------------------------------------------------------------------------- data


@dataclass
class BoardReading:
    """What :func:`read_board` saw. ``grid`` is in board coordinates (row 0 north, letter 0 west)."""

    found: bool
    grid: list[str] | None = None
    confidence: list[list[float]] | None = None
    north: str | None = None
    reason: str | None = None
    low_confidence_cells: list[tuple[int, int]] = field(default_factory=list)
    # corners of the cell area in the photo, in board order north-west, north-east, south-east, south-west
    outline: list[tuple[float, float]] | None = None
    border_match: float = 0.0

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "found": self.found,
            "grid": self.grid,
            "confidence": self.confidence,
            "north": self.north,
        }
        if not self.found:
            out["reason"] = self.reason
        else:
            out["low_confidence_cells"] = [list(c) for c in self.low_confidence_cells]
            out["outline"] = [[round(x, 1), round(y, 1)] for x, y in self.outline or []]
        return out


@dataclass
class CellLooks:
    """What a calibration teaches about cells (derived on load, never stored)."""

    empty: list[list[np.ndarray]]  # [cell index] -> feature vectors of that cell when empty
    tiles: dict[str, list[np.ndarray]]  # letter -> feature vectors of tiles of that type
    scale: np.ndarray  # per-feature spread used to weigh distances
    empty_means: np.ndarray  # 36 x 3 mean BGR of each empty cell's centre
    tile_means: dict[str, np.ndarray]  # letter -> mean BGR of that type's centres
    empty_templates: list[np.ndarray]  # [cell index] -> unit correlation templates of the empty cell
    tile_templates: dict[str, np.ndarray]  # letter -> unit templates (every example, four quarter turns)
    template_px: int
    empty_energy: np.ndarray  # 36 fine-structure levels of the empty cells
    empty_fine: np.ndarray  # 36 finest-structure levels of the empty cells (fine_energy)
    empty_alike: np.ndarray  # 36 x 36 feature distances between the cells' empty looks
    empty_print: list[np.ndarray]  # [cell index] -> unit rows of its empty print's texture (print_agreement)
    empty_chroma: list[np.ndarray]  # [cell index] -> median a*b* of the cell when empty (rows: examples)
    tile_chroma: np.ndarray  # median a*b* of every tile of the known layout (rows)
    tile_chroma_letters: str  # ... and their types
    tile_lightness: np.ndarray  # ... and median L*


@dataclass
class BoardCalibration:
    """One board print, camera and light, learnt from an empty photo and a photo of a known layout.

    Stored as the two rectified boards (north up, ``cell_px`` per cell, ``margin_cells`` of border
    around the cells), so everything else is derived and the JSON stays small and checkable.
    """

    side: str
    known_grid: list[str]
    empty_bgr: np.ndarray
    known_bgr: np.ndarray
    cell_px: int = SETTINGS.cell_px
    margin_cells: float = SETTINGS.margin_cells
    sharpness: float = 0.0
    _looks: CellLooks | None = field(default=None, repr=False, compare=False)
    _templates: dict[Any, np.ndarray] = field(default_factory=dict, repr=False, compare=False)

    # -- derived looks
    @property
    def looks(self) -> CellLooks:
        if self._looks is None:
            self._looks = learn_cell_looks(self.empty_bgr, self.known_bgr, self.known_grid, self.cell_px, self.margin)
        return self._looks

    @property
    def margin(self) -> int:
        return int(round(self.margin_cells * self.cell_px))

    def template_gray(self, cell_px: int) -> np.ndarray:
        """The empty board in gray at ``cell_px`` per cell (same margin in cells), float32."""
        if cell_px not in self._templates:
            size = int(round((SIZE + 2 * self.margin_cells) * cell_px))
            gray = cv2.cvtColor(self.empty_bgr, cv2.COLOR_BGR2GRAY)
            small = cv2.resize(gray, (size, size), interpolation=cv2.INTER_AREA)
            self._templates[cell_px] = small.astype(np.float32)
        return self._templates[cell_px]

    @property
    def border_cells(self) -> tuple[float, float, float, float]:
        """Width of the board's border on the north, east, south and west, in cells (up to the margin).

        Found on the empty board as the strongest long straight edge beyond the cells on each side;
        where there is none (a border wider than the margin) the whole margin counts.
        """
        if "border" not in self._templates:
            self._templates["border"] = np.asarray(_border_widths(self.empty_bgr, self.cell_px, self.margin_cells))
        return tuple(float(x) for x in self._templates["border"])  # type: ignore[return-value]

    def border_mask(self, cell_px: int) -> np.ndarray:
        """Boolean mask of the border (between the cells and the board's edge) at ``cell_px`` per cell."""
        key = -cell_px
        if key not in self._templates:
            n, e, s, w = self.border_cells
            m = self.margin_cells * cell_px
            size = int(round((SIZE + 2 * self.margin_cells) * cell_px))
            mask = np.zeros((size, size), bool)
            top, bottom = int(round(m - n * cell_px)), int(round(m + SIZE * cell_px + s * cell_px))
            left, right = int(round(m - w * cell_px)), int(round(m + SIZE * cell_px + e * cell_px))
            mask[max(top, 0) : bottom, max(left, 0) : right] = True
            a, b = int(round(m + 0.05 * cell_px)), int(round(m + SIZE * cell_px - 0.05 * cell_px))
            mask[a:b, a:b] = False
            self._templates[key] = mask
        return self._templates[key]

    # -- JSON
    def to_json(self) -> dict[str, Any]:
        return {
            "format": CALIBRATION_FORMAT,
            "version": CALIBRATION_VERSION,
            "side": self.side,
            "known_grid": list(self.known_grid),
            "cell_px": self.cell_px,
            "margin_cells": self.margin_cells,
            "sharpness": round(float(self.sharpness), 4),
            "empty_png": _png_b64(self.empty_bgr),
            "known_png": _png_b64(self.known_bgr),
        }

    @classmethod
    def from_json(cls, raw: Any, where: str = "calibration") -> BoardCalibration:
        """Check and load a calibration object; every problem is one :class:`CalibrationError` line."""
        if not isinstance(raw, dict):
            raise CalibrationError(f"{where}: expected a JSON object made by calibrate-board")
        if raw.get("format") != CALIBRATION_FORMAT:
            raise CalibrationError(f"{where}: not a board calibration (made by 'shakecity calibrate-board')")
        if raw.get("version") != CALIBRATION_VERSION:
            raise CalibrationError(
                f"{where}: calibration version {raw.get('version')!r}, this reader needs {CALIBRATION_VERSION}"
            )
        side = raw.get("side")
        if side not in SIDES:
            raise CalibrationError(f"{where}: unknown side {side!r}; sides are {', '.join(SIDES)}")
        grid = _check_grid(raw.get("known_grid"), f"{where}: known_grid")
        cell_px, margin_cells = raw.get("cell_px"), raw.get("margin_cells")
        if not isinstance(cell_px, int) or not 8 <= cell_px <= 128:
            raise CalibrationError(f"{where}: cell_px must be a whole number from 8 to 128")
        if not isinstance(margin_cells, int | float) or not 0.5 <= margin_cells <= 2:
            raise CalibrationError(f"{where}: margin_cells must be from 0.5 to 2")
        size = int(round((SIZE + 2 * margin_cells) * cell_px))
        images = []
        for key in ("empty_png", "known_png"):
            text = raw.get(key)
            if not isinstance(text, str):
                raise CalibrationError(f"{where}: {key} missing")
            try:
                image = decode_image_bytes(base64.b64decode(text, validate=True), f"{where}: {key}")
            except (ValueError, ImageReadError) as e:
                raise CalibrationError(f"{where}: {key} is not a readable image ({e})") from None
            if image.shape[:2] != (size, size):
                raise CalibrationError(
                    f"{where}: {key} is {image.shape[1]} x {image.shape[0]}, expected {size} x {size}"
                )
            images.append(image)
        sharpness = raw.get("sharpness", 0.0)
        if not isinstance(sharpness, int | float) or sharpness < 0:
            raise CalibrationError(f"{where}: sharpness must be a non-negative number")
        return cls(side, grid, images[0], images[1], cell_px, float(margin_cells), float(sharpness))

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json()), encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> BoardCalibration:
        p = Path(path)
        try:
            if p.stat().st_size > MAX_FILE_BYTES:
                raise CalibrationError(f"{p}: too large to be a board calibration")
            text = p.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise CalibrationError(f"{p}: no such file") from None
        except OSError as e:
            raise CalibrationError(f"{p}: cannot read: {e.strerror or e}") from None
        except UnicodeDecodeError:
            raise CalibrationError(f"{p}: not a board calibration (not UTF-8 JSON text)") from None
        try:
            raw = json.loads(text)
        except json.JSONDecodeError as e:
            raise CalibrationError(f"{p}: not valid JSON: {e.msg} at line {e.lineno} column {e.colno}") from None
        return cls.from_json(raw, str(p))


def _png_b64(image: np.ndarray) -> str:
    ok, buf = cv2.imencode(".png", image)
    if not ok:  # pragma: no cover - OpenCV always encodes a uint8 image
        raise CalibrationError("cannot encode the calibration image")
    return base64.b64encode(buf.tobytes()).decode("ascii")


def _check_grid(grid: Any, where: str) -> list[str]:
    if not isinstance(grid, list) or len(grid) != SIZE or not all(isinstance(r, str) and len(r) == SIZE for r in grid):
        raise CalibrationError(f"{where}: expected {SIZE} strings of {SIZE} letters")
    for r, row in enumerate(grid):
        for c, letter in enumerate(row):
            if letter not in TILE_LETTERS + EMPTY:
                raise CalibrationError(f"{where}: unknown letter {letter!r} at row {r}, column {c}")
    return list(grid)


# ------------------------------------------------------------------------------------- photo input


def load_photo(path: str | Path, settings: ReaderSettings = SETTINGS) -> np.ndarray:
    """Read a photo for the reader, with the checks of :mod:`vision.image_io`.

    Large JPEGs are decoded straight at a reduced scale (libjpeg's DCT scaling), which is what makes a
    12-megapixel photo fast: the reader would reduce it to about ``work_long_side`` anyway.
    """
    return load_photo_scaled(path, settings)[0]


def load_photo_scaled(path: str | Path, settings: ReaderSettings = SETTINGS) -> tuple[np.ndarray, float]:
    """:func:`load_photo`, and the factor from the decoded array's pixels to the file's pixels."""
    return decode_photo_scaled(read_image_file(path), str(Path(path)), settings)


def decode_photo_bytes(data: bytes, what: str = "photo", settings: ReaderSettings = SETTINGS) -> np.ndarray:
    """Decode photo bytes, at a reduced scale when a JPEG is much larger than the reader needs."""
    return decode_photo_scaled(data, what, settings)[0]


def decode_photo_scaled(
    data: bytes, what: str = "photo", settings: ReaderSettings = SETTINGS
) -> tuple[np.ndarray, float]:
    """:func:`decode_photo_bytes`, and the factor from the decoded array's pixels to the file's pixels."""
    size = _header_size(data) if data else None
    if size is not None and data[:2] == b"\xff\xd8" and 0 < size[0] * size[1] <= MAX_PIXELS:
        factor = max(size) // settings.work_long_side
        if factor <= 1:
            flag = None
        elif factor < 4:
            flag = cv2.IMREAD_REDUCED_COLOR_2
        else:
            flag = cv2.IMREAD_REDUCED_COLOR_4 if factor < 8 else cv2.IMREAD_REDUCED_COLOR_8
        if flag is not None and len(data) <= MAX_FILE_BYTES:
            try:
                photo_bgr = cv2.imdecode(np.frombuffer(data, dtype=np.uint8), flag)
            except cv2.error:
                photo_bgr = None
            if photo_bgr is not None and photo_bgr.size:
                # (the long sides: a photo stored sideways with an EXIF orientation tag is decoded turned upright)
                return photo_bgr, max(size) / max(photo_bgr.shape[:2])
    return decode_image_bytes(data, what), 1.0


def _check_photo(photo_bgr: Any, what: str = "photo") -> np.ndarray:
    if not isinstance(photo_bgr, np.ndarray) or photo_bgr.dtype != np.uint8:
        raise ImageReadError(f"{what}: expected a uint8 image array")
    if photo_bgr.ndim == 2:
        photo_bgr = cv2.cvtColor(photo_bgr, cv2.COLOR_GRAY2BGR)
    if photo_bgr.ndim != 3 or photo_bgr.shape[2] not in (3, 4) or min(photo_bgr.shape[:2]) < 32:
        raise ImageReadError(f"{what}: expected a colour image of at least 32 x 32 pixels")
    if photo_bgr.shape[2] == 4:
        photo_bgr = cv2.cvtColor(photo_bgr, cv2.COLOR_BGRA2BGR)
    if photo_bgr.shape[0] * photo_bgr.shape[1] > MAX_PIXELS:
        raise ImageReadError(f"{what}: more than the {MAX_PIXELS // 1_000_000} megapixel limit")
    return photo_bgr


def reduce_photo(photo_bgr: np.ndarray, settings: ReaderSettings = SETTINGS) -> tuple[np.ndarray, float]:
    """The working copy: reduced by a whole factor (fast area averaging). Returns (work_bgr, scale)."""
    factor = max(photo_bgr.shape[:2]) // settings.work_long_side
    if factor <= 1:
        return photo_bgr, 1.0
    h, w = photo_bgr.shape[:2]
    h2, w2 = h // factor, w // factor
    work_bgr = cv2.resize(photo_bgr[: h2 * factor, : w2 * factor], (w2, h2), interpolation=cv2.INTER_AREA)
    return work_bgr, 1.0 / factor


# ------------------------------------------------------------------------------------ geometry utils


def _order_corners(quad: np.ndarray) -> np.ndarray:
    """Corners as top-left, top-right, bottom-right, bottom-left in the image (clockwise on screen)."""
    pts = np.asarray(quad, dtype=np.float64).reshape(4, 2)
    centre = pts.mean(axis=0)
    angles = np.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0])
    pts = pts[np.argsort(angles)]  # clockwise on screen, starting near the left
    start = int(np.argmin(pts.sum(axis=1)))
    return np.roll(pts, -start, axis=0)


def _square(size: float, offset: float = 0.0) -> np.ndarray:
    a, b = offset, offset + size
    return np.array([[a, a], [b, a], [b, b], [a, b]], dtype=np.float64)


def _scale(s: float) -> np.ndarray:
    return np.diag([s, s, 1.0])


def _rotation(k: int, size: float) -> np.ndarray:
    """Homography turning a ``size`` square image a quarter turn anticlockwise ``k`` times (np.rot90)."""
    m = np.eye(3)
    step = np.array([[0.0, 1.0, 0.0], [-1.0, 0.0, size], [0.0, 0.0, 1.0]])
    for _ in range(k % 4):
        m = step @ m
    return m


def _apply(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    p = np.hstack([np.asarray(pts, dtype=np.float64).reshape(-1, 2), np.ones((len(pts), 1))]) @ h.T
    return p[:, :2] / p[:, 2:3]


def _warp(image: np.ndarray, h: np.ndarray, size: int) -> np.ndarray:
    return cv2.warpPerspective(image, h, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def _canonical_h(cells_quad: np.ndarray, cell_px: float, margin_cells: float) -> np.ndarray:
    """Homography from image to the rectified board whose cell area is ``cells_quad`` (image order)."""
    m = margin_cells * cell_px
    return cv2.getPerspectiveTransform(
        cells_quad.astype(np.float32), _square(SIZE * cell_px, m).astype(np.float32)
    ).astype(np.float64)


# ------------------------------------------------------------------------------------- stage 1: find


def find_board_candidates(detect_bgr: np.ndarray, settings: ReaderSettings = SETTINGS) -> list[np.ndarray]:
    """Convex quadrilaterals that could be the board's outline or its cell area, largest first."""
    h, w = detect_bgr.shape[:2]
    min_area = settings.min_board_fraction * h * w
    gray = cv2.cvtColor(detect_bgr, cv2.COLOR_BGR2GRAY)
    gray = cv2.GaussianBlur(gray, (5, 5), 0)
    masks = []
    med = float(np.median(gray))
    for lo, hi in ((0.4 * med, 1.0 * med), (20, 60)):
        edges = cv2.Canny(gray, max(5, lo), max(15, hi))
        masks.append(cv2.dilate(edges, np.ones((3, 3), np.uint8)))
    _, dark = cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    masks.append(dark)
    masks.append(255 - dark)
    hsv = cv2.cvtColor(detect_bgr, cv2.COLOR_BGR2HSV)
    _, sat = cv2.threshold(cv2.GaussianBlur(hsv[:, :, 1], (5, 5), 0), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    masks.append(sat)
    return _mask_quads(masks, h, w, min_area)


def _mask_quads(masks: Sequence[np.ndarray], h: int, w: int, min_area: float) -> list[np.ndarray]:
    """Convex quadrilaterals around the masks' shapes (and each again on its sides' straight parts), largest
    first, those along the photo's frame last, near-duplicates dropped: at most ten."""
    quads: list[np.ndarray] = []
    for mask in masks:
        contours, _ = cv2.findContours(mask, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
        for contour in contours:
            if cv2.contourArea(contour) < min_area * 0.5:
                continue
            hull = cv2.convexHull(contour)
            if cv2.contourArea(hull) < min_area:
                continue
            peri = cv2.arcLength(hull, True)
            for eps in (0.02, 0.04, 0.07):
                approx = cv2.approxPolyDP(hull, eps * peri, True)
                if len(approx) == 4:
                    quad = _order_corners(approx.reshape(4, 2))
                    if _plausible_quad(quad, min_area):
                        quads.append(quad)
                        straight = _fit_sides(contour.reshape(-1, 2).astype(np.float64), quad)
                        if straight is not None and _plausible_quad(straight, min_area):
                            quads.append(straight)
                    break

    def touches_frame(q: np.ndarray) -> bool:
        return bool((q[:, 0] < 3).any() or (q[:, 1] < 3).any() or (q[:, 0] > w - 4).any() or (q[:, 1] > h - 4).any())

    # quads along the photo's frame come last: a board touching it is cut off anyway
    quads.sort(key=lambda q: (touches_frame(q), -cv2.contourArea(q.astype(np.float32))))
    unique: list[np.ndarray] = []
    tol = 0.006 * math.hypot(h, w)
    for q in quads:
        if all(np.max(np.linalg.norm(q - u, axis=1)) > tol for u in unique):
            unique.append(q)
    return unique[:10]


def table_candidates(detect_bgr: np.ndarray, settings: ReaderSettings = SETTINGS) -> list[np.ndarray]:
    """Quadrilaterals around where the photo is unlike its table (:func:`unlike_table_mask`), largest first:
    looked at only when :func:`find_board_candidates` gives no board."""
    h, w = detect_bgr.shape[:2]
    return _mask_quads([unlike_table_mask(detect_bgr)], h, w, settings.min_board_fraction * h * w)


def unlike_table_mask(detect_bgr: np.ndarray) -> np.ndarray:
    """Where the photo is unlike its table. The colour along the photo's edges (where a board is never whole)
    is the table's; each pixel's distance from it is measured against the table's own spread (a striped wood
    or a cloth varies), split in two (Otsu) and closed. The board is then one shape even on a table whose
    grain or stripes break every edge and brightness outline."""
    lab = cv2.cvtColor(cv2.GaussianBlur(detect_bgr, (7, 7), 0), cv2.COLOR_BGR2LAB).astype(np.float32)
    h, w = lab.shape[:2]
    b = max(4, round(0.04 * min(h, w)))
    ring = np.concatenate(
        [lab[:b].reshape(-1, 3), lab[-b:].reshape(-1, 3), lab[:, :b].reshape(-1, 3), lab[:, -b:].reshape(-1, 3)]
    )
    table = np.median(ring, axis=0)
    spread = 1.4826 * np.median(np.abs(ring - table), axis=0) + 2.0  # (robust: a card on the edge is no table)
    distance = np.sqrt((((lab - table) / spread) ** 2).sum(axis=2))
    _, mask = cv2.threshold(
        np.clip(16 * distance, 0, 255).astype(np.uint8), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU
    )
    kernel = np.ones((5, 5), np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, kernel, iterations=2)
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel)


def _fit_sides(points: np.ndarray, quad: np.ndarray) -> np.ndarray | None:
    """The quad again, each side a robust line fit through the contour points along its middle part.

    Corners are left out of the fits: bonus tiles and notches bulge out there and at the corners.
    """
    lines = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        d = b - a
        length = float(np.linalg.norm(d))
        if length < 1:
            return None
        u = d / length
        rel = points - a
        along = rel @ u
        across = rel @ np.array([-u[1], u[0]])
        near = (along > 0.15 * length) & (along < 0.85 * length) & (np.abs(across) < 0.04 * length)
        if near.sum() < 5:
            return None
        vx, vy, x0, y0 = cv2.fitLine(points[near].astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append((np.array([x0, y0], dtype=np.float64), np.array([vx, vy], dtype=np.float64)))
    corners = []
    for i in range(4):
        (p1, v1), (p2, v2) = lines[i - 1], lines[i]
        m = np.array([v1, -v2]).T
        if abs(np.linalg.det(m)) < 1e-6:
            return None
        t = np.linalg.solve(m, p2 - p1)
        corners.append(p1 + t[0] * v1)
    return np.asarray(corners)


def _aspect(quad: np.ndarray) -> float:
    """Shorter over longer of the quad's mean widths (1 for a square seen from straight above)."""
    sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
    across, down = (sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2
    return float(min(across, down) / max(across, down, 1e-9))


def _plausible_quad(quad: np.ndarray, min_area: float) -> bool:
    if cv2.contourArea(quad.astype(np.float32)) < min_area:
        return False
    sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
    if sides.min() < 0.35 * sides.max():
        return False
    for i in range(4):
        a, b, c = quad[i - 1], quad[i], quad[(i + 1) % 4]
        v1, v2 = a - b, c - b
        cos = float(np.dot(v1, v2) / (np.linalg.norm(v1) * np.linalg.norm(v2) + 1e-9))
        if abs(cos) > 0.75:  # corners between about 40 and 140 degrees
            return False
    return True


# ------------------------------------------------------------------------------ stage 2: cell lattice


def _comb_scores(vals: np.ndarray) -> np.ndarray:
    # every line must be there: the weakest lines count double, a single strong edge is not a grid
    return vals.sum(axis=-1) + np.sort(vals, axis=-1)[..., :2].sum(axis=-1) * 2.0


def _comb_peaks(profile: np.ndarray, lo_s: float, hi_s: float, top: int = 2) -> list[tuple[float, float, float]]:
    """Best (score, start, spacing) of 7 equally spaced lines on a 1-D edge profile, refined."""
    n = len(profile)
    xs = np.arange(n, dtype=np.float64)
    k = np.arange(SIZE + 1, dtype=np.float64)
    spacings = np.arange(lo_s, hi_s, 0.5)
    starts = np.arange(0.0, n - 1.0, 1.0)
    pos = starts[None, :, None] + spacings[:, None, None] * k[None, None, :]
    score = _comb_scores(np.interp(pos, xs, profile))
    score[pos[..., -1] > n - 1] = -np.inf
    picked: list[tuple[float, float, float]] = []
    flat_scores = score.ravel()
    best = np.argpartition(flat_scores, -400)[-400:] if flat_scores.size > 400 else np.arange(flat_scores.size)
    order = best[np.argsort(flat_scores[best])[::-1]]
    for flat in order:
        si, xi = np.unravel_index(flat, score.shape)
        if not np.isfinite(score[si, xi]):
            break
        r = (float(score[si, xi]), float(starts[xi]), float(spacings[si]))
        if all(abs(r[1] - p[1]) > 0.3 * r[2] or abs(r[2] - p[2]) > 0.08 * r[2] for p in picked):
            picked.append(r)
        if len(picked) == top:
            break
    refined = []
    ds, dx = np.meshgrid(np.arange(-0.4, 0.41, 0.1), np.arange(-1.0, 1.01, 0.2), indexing="ij")
    ds, dx = ds.ravel(), dx.ravel()
    for _, x0, s in picked:
        sc = _comb_scores(np.interp((x0 + dx)[:, None] + k[None, :] * (s + ds)[:, None], xs, profile))
        i = int(np.argmax(sc))
        refined.append((float(sc[i]), float(x0 + dx[i]), float(s + ds[i])))
    return refined


def fit_cell_lattice(gray: np.ndarray, quad: np.ndarray, top: int = 3) -> list[np.ndarray]:
    """Cell-area quads (image coordinates, image order) whose 7 x 7 grid lines fit inside ``quad``."""
    side = 168.0
    pad = 21.0
    canvas = int(side + 2 * pad)
    h = cv2.getPerspectiveTransform(quad.astype(np.float32), _square(side, pad).astype(np.float32))
    view = _warp(gray, h, canvas).astype(np.float32)
    gx = np.abs(cv2.Sobel(view, cv2.CV_32F, 1, 0, ksize=3))
    gy = np.abs(cv2.Sobel(view, cv2.CV_32F, 0, 1, ksize=3))
    inner = slice(int(pad + 0.1 * side), int(pad + 0.9 * side))
    # median over the lines: a grid line runs the whole board, a tile's picture does not
    px = np.median(gx[inner, :], axis=0) + 0.5 * np.mean(gx[inner, :], axis=0)
    py = np.median(gy[:, inner], axis=1) + 0.5 * np.mean(gy[:, inner], axis=1)
    px = cv2.GaussianBlur(px.reshape(1, -1), (0, 0), 1.2).ravel()
    py = cv2.GaussianBlur(py.reshape(1, -1), (0, 0), 1.2).ravel()
    lo, hi = 0.55 * side / SIZE, 1.12 * side / SIZE
    xs = _comb_peaks(px, lo, hi, top)
    ys = _comb_peaks(py, lo, hi, top)
    hinv = np.linalg.inv(h)
    out = []
    for _, x0, sx in xs:
        for _, y0, sy in ys:
            if abs(sx - sy) > 0.25 * max(sx, sy):
                continue
            corners = np.array([[x0, y0], [x0 + SIZE * sx, y0], [x0 + SIZE * sx, y0 + SIZE * sy], [x0, y0 + SIZE * sy]])
            out.append(_apply(hinv, corners))
    return out


# ------------------------------------------------------------------------------ stage 3: orientation


def _ring_mask(cell_px: float, margin_cells: float, ring_cells: float) -> np.ndarray:
    size = int(round((SIZE + 2 * margin_cells) * cell_px))
    m = margin_cells * cell_px
    r = ring_cells * cell_px
    mask = np.zeros((size, size), np.uint8)
    a, b = int(round(m - r)), int(round(m + SIZE * cell_px + r))
    mask[a:b, a:b] = 1
    a2, b2 = int(round(m + 0.05 * cell_px)), int(round(m + SIZE * cell_px - 0.05 * cell_px))
    mask[a2:b2, a2:b2] = 0
    return mask


def _border_widths(empty_bgr: np.ndarray, cell_px: int, margin_cells: float) -> list[float]:
    """North, east, south, west border widths (cells) of a rectified empty board; see ``border_cells``."""
    gray = cv2.cvtColor(empty_bgr, cv2.COLOR_BGR2GRAY).astype(np.float32)
    m = int(round(margin_cells * cell_px))
    span = slice(m, m + SIZE * cell_px)
    gy = np.abs(cv2.Sobel(gray, cv2.CV_32F, 0, 1, ksize=3))
    gx = np.abs(cv2.Sobel(gray, cv2.CV_32F, 1, 0, ksize=3))
    far = m + SIZE * cell_px
    profiles = [  # edge strength by distance from the cells, outwards (long lines only: median)
        np.median(gy[:m, span], axis=1)[::-1],
        np.median(gx[span, far:], axis=0),
        np.median(gy[far:, span], axis=1),
        np.median(gx[span, :m], axis=0)[::-1],
    ]
    widths = []
    for prof in profiles:
        lo = int(0.25 * cell_px)
        if len(prof) <= lo + 2:
            widths.append(margin_cells)
            continue
        d = lo + int(np.argmax(prof[lo:]))
        clear = prof[d] > 3.0 * (np.median(prof[lo:]) + 1.0)
        widths.append(min(margin_cells, (d + 0.1 * cell_px) / cell_px) if clear else margin_cells)
    return widths


def _normalise_light(gray: np.ndarray, cell_px: float) -> np.ndarray:
    """Remove slow light changes (gradients, soft shadows): subtract a heavily smoothed copy (in log)."""
    k = max(3, int(2.5 * cell_px) | 1)
    log = np.log1p(gray.astype(np.float32))
    return log - cv2.blur(cv2.blur(log, (k, k)), (k, k))


def orient_board(
    gray: np.ndarray, cells_quad: np.ndarray, calibration: BoardCalibration, settings: ReaderSettings = SETTINGS
) -> tuple[int, float, float]:
    """Which quarter turn ``k`` brings the board's north up, its border match, and the margin to the next."""
    c = settings.orient_cell_px
    size = int(round((SIZE + 2 * calibration.margin_cells) * c))
    h = _canonical_h(cells_quad, c, calibration.margin_cells)
    view = _warp(gray, h, size).astype(np.float32)
    key = ("orient", c)
    if key not in calibration._templates:
        mask = calibration.border_mask(c)
        t = _normalise_light(calibration.template_gray(c), c)[mask].astype(np.float64)
        t -= t.mean()
        calibration._templates[key] = t / max(float(np.linalg.norm(t)), 1e-9)
        # where the border's pixels are in the view for each quarter turn (np.rot90(view, k)[mask])
        where = np.arange(size * size).reshape(size, size)
        calibration._templates[("orient_at", c)] = np.stack([np.rot90(where, k)[mask] for k in range(4)])
    t, at = calibration._templates[key], calibration._templates[("orient_at", c)]
    v = _normalise_light(view, c).ravel()[at].astype(np.float64)  # 4 x border pixels
    v -= v.mean(axis=1, keepdims=True)
    norms = np.sqrt((v * v).sum(axis=1))
    scores = np.where(norms > 1e-6, (v @ t) / np.maximum(norms, 1e-6), 0.0)
    order = np.argsort(scores)[::-1]
    return int(order[0]), float(scores[order[0]]), float(scores[order[0]] - scores[order[1]])


# ----------------------------------------------------------------------------- stage 4: refine, warp


def refine_alignment(
    gray: np.ndarray, h_board: np.ndarray, calibration: BoardCalibration, cell_px: int = 24
) -> np.ndarray:
    """Refine an image -> board homography (board at ``cell_px``) on the border ring with ECC."""
    return _ecc_alignment(gray, h_board, calibration, cell_px)[0]


def _ecc_alignment(
    gray: np.ndarray, h_board: np.ndarray, calibration: BoardCalibration, cell_px: int = 24
) -> tuple[np.ndarray, tuple[np.ndarray, float] | None]:
    """:func:`refine_alignment`, and the refinement it rejected as runaway with its largest corner move
    (cells) when it did (else None): (homography, (rejected homography, move) or None)."""
    size = int(round((SIZE + 2 * calibration.margin_cells) * cell_px))
    view = _warp(gray, h_board, size).astype(np.float32)
    template = calibration.template_gray(cell_px)
    mask = calibration.border_mask(cell_px).astype(np.uint8)
    # grid lines of the cells help too: the outer cell edges are covered at most by tile edges
    warp = np.eye(3, dtype=np.float32)
    try:
        _, warp = cv2.findTransformECC(
            _normalise_light(template, cell_px).astype(np.float32),
            _normalise_light(view, cell_px).astype(np.float32),
            warp,
            cv2.MOTION_HOMOGRAPHY,
            (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 30, 1e-4),
            mask,
            3,
        )
    except cv2.error:
        return h_board, None
    # view(W x) ~ template(x): board point x is at view point W x, i.e. image point h^-1 W x
    refined = np.linalg.inv(warp.astype(np.float64)) @ h_board
    # reject a runaway refinement (more than a third of a cell anywhere)
    corners = _square(SIZE * cell_px, calibration.margin_cells * cell_px)
    moved = _apply(warp.astype(np.float64), corners) - corners
    # a larger correction, even at a close border match (0.93), was measured to skew a waterfront board
    most = float(np.max(np.linalg.norm(moved, axis=1))) / cell_px
    if most > SETTINGS.max_refine_move:
        return h_board, (refined, most)
    return refined, None


# ----------------------------------------------------------------------------- stage 4b: the cells' own grid


def _grid_votes(view: np.ndarray, cell_px: int, margin: int) -> np.ndarray:
    """Edge strength across each band of cells, as votes for a grid line there.

    ``[0]`` is, for each row of cells, the strength of edges running down (lines between columns) at each
    x; ``[1]`` the same for each column and the edges running across. Each profile is scaled by its own
    strong level (90th percentile over the cells), so each line in each band gets one vote at most whatever
    the contrast of that band's tiles, and weak texture votes for little: ``[0]`` softly (``e / (e + level)``,
    stronger edges still count more: precise), ``[1]`` capped at the level (any clear edge counts in full:
    a far-off corner stands out). So the whole is ``2 x 2 x 6 x size``.
    """
    smooth = cv2.GaussianBlur(view, (0, 0), max(0.6, cell_px / 24))
    gx = np.abs(cv2.Sobel(smooth, cv2.CV_32F, 1, 0, ksize=3))
    gy = np.abs(cv2.Sobel(smooth, cv2.CV_32F, 0, 1, ksize=3))
    trim = int(round(0.2 * cell_px))
    out = np.zeros((2, SIZE, view.shape[1]), np.float32)
    for axis, grad in enumerate((gx, gy.T)):  # lines run down the columns of grad
        for j in range(SIZE):
            y0, y1 = margin + j * cell_px + trim, margin + (j + 1) * cell_px - trim
            out[axis, j] = grad[y0:y1].mean(axis=0)
    flat = cv2.GaussianBlur(out.reshape(2 * SIZE, -1), (0, 0), sigmaX=1.0, sigmaY=0.01)
    level = np.percentile(flat[:, margin : margin + SIZE * cell_px], 90, axis=1)[:, None]
    soft = flat / (flat + np.maximum(level, 1e-3))
    capped = np.minimum(flat / np.maximum(level, 1e-3), 1.0)
    return np.stack([soft.reshape(2, SIZE, -1), capped.reshape(2, SIZE, -1)])


def _grid_points() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Where each line is measured (cells; homogeneous), whether it runs between columns, and its band."""
    i, j = np.meshgrid(np.arange(SIZE + 1, dtype=np.float64), np.arange(SIZE, dtype=np.float64) + 0.5, indexing="ij")
    i, j = i.ravel(), j.ravel()
    pts = np.concatenate([np.stack([i, j], 1), np.stack([j, i], 1)])
    vertical = np.concatenate([np.ones(i.size, bool), np.zeros(i.size, bool)])
    return np.hstack([pts, np.ones((len(pts), 1))]), vertical, np.concatenate([i, i])


_GRID: dict[str, np.ndarray] = {}


def _grid_constants() -> dict[str, np.ndarray]:
    """Fixed arrays of :func:`_grid_energy`: corner blend weights, line, profile row and axis of each point."""
    if not _GRID:
        pts, vertical, line = _grid_points()
        u, v = pts[:, 0] / SIZE, pts[:, 1] / SIZE
        _GRID["blend"] = np.stack([(1 - u) * (1 - v), u * (1 - v), u * v, (1 - u) * v], axis=1)  # NW NE SE SW
        _GRID["vertical"] = vertical
        _GRID["line"] = line
        band = np.floor(np.where(vertical, pts[:, 1], pts[:, 0])).astype(int)
        _GRID["rows"] = (np.where(vertical, 0, SIZE) + band)[None, :]
    return _GRID


def _grid_energy(moves: np.ndarray, votes: np.ndarray, cell_px: int, margin: int) -> np.ndarray:
    """Share of the votes (:func:`_grid_votes`) on the lines of cell areas whose corners moved by ``moves``
    (``T x 4 x 2`` cells, in the current view), one value per area.

    For moves up to about a cell the lines follow the corners bilinearly (a homography's difference is
    a small part of a pixel), which makes trying many areas at once cheap.
    """
    k = _grid_constants()
    blend, vertical = k["blend"], k["vertical"]
    off = np.where(vertical[None, :], moves[:, :, 0] @ blend.T, moves[:, :, 1] @ blend.T)  # T x points
    n = votes.shape[-1]
    x = (k["line"] + off) * cell_px + margin
    x0 = np.floor(x).astype(np.intp)
    t = x - x0
    ok = (x0 >= 0) & (x0 < n - 1)
    x0 = np.clip(x0, 0, n - 2)
    flat = votes.reshape(2 * SIZE, n)
    rows = k["rows"]
    sampled = (1 - t) * flat[rows, x0] + t * flat[rows, x0 + 1]
    return (sampled * ok).mean(axis=1)


def refine_grid(
    gray: np.ndarray, h_board: np.ndarray, margin_cells: float, cell_px: int, settings: ReaderSettings = SETTINGS
) -> tuple[np.ndarray, float, float]:
    """Refine an image -> board homography on the cells' own boundaries (grid lines, tile edges).

    The border fit leaves the cells skewed when the border is hard to see (a tilted board, a beach on
    the waterfront side). Here the edge strength around each grid line is measured band by band in the
    rectified board (each line and band one vote at most) and the cell area's four corners are moved to
    put the most votes on its lines, less a cost per cell moved. Returns (homography, support before,
    support after), support being the share of votes on the lines; the refinement is kept only when it
    raises the support by ``grid_min_gain``.
    """
    size = int(round((SIZE + 2 * margin_cells) * cell_px))
    m = int(round(margin_cells * cell_px))
    to_cells = np.array([[1 / cell_px, 0, -m / cell_px], [0, 1 / cell_px, -m / cell_px], [0, 0, 1]])
    limit = settings.grid_max_move
    nudges = np.zeros((16, 4, 2))
    for k in range(8):
        nudges[2 * k].flat[k], nudges[2 * k + 1].flat[k] = -1.0, 1.0

    def measure(h: np.ndarray) -> np.ndarray:
        return _grid_votes(_warp(gray, h, size).astype(np.float32), cell_px, m)

    def search(votes: np.ndarray, steps: Sequence[float], coarse: bool) -> np.ndarray:
        def value(moves: np.ndarray) -> np.ndarray:
            cost = settings.grid_move_cost * np.abs(moves).mean(axis=(1, 2))
            return _grid_energy(moves, votes, cell_px, m) - cost

        # the whole area shifted first (every shift on a fine grid), then each corner on its own
        shifts = np.arange(-settings.grid_max_shift, settings.grid_max_shift + 1e-9, 0.025)
        ones = np.ones((len(shifts), 4, 1))
        zeros = np.zeros((len(shifts), 4, 1))
        along_x = value(np.concatenate([shifts[:, None, None] * ones, zeros], axis=2))
        along_y = value(np.concatenate([zeros, shifts[:, None, None] * ones], axis=2))
        # columns' lines follow x alone and rows' lines y alone: the best of each is the best shift
        best = np.zeros((1, 4, 2))
        best[0, :, 0], best[0, :, 1] = shifts[int(np.argmax(along_x))], shifts[int(np.argmax(along_y))]
        score = float(value(best)[0])
        if float(value(np.zeros((1, 4, 2)))[0]) >= score:
            best, score = np.zeros((1, 4, 2)), float(value(np.zeros((1, 4, 2)))[0])
        if coarse:  # each corner on its own over its whole range (a badly placed corner is far off)
            offsets = np.arange(-limit, limit + 1e-9, 0.15)
            grid = np.stack(np.meshgrid(offsets, offsets, indexing="ij"), axis=-1).reshape(-1, 2)
            for _ in range(1):
                for corner in range(4):
                    trials = np.repeat(best, len(grid), axis=0)
                    trials[:, corner] = grid
                    # one corner far off, not the whole area: the border fit is not a cell out
                    trials = trials[np.abs(trials.mean(axis=1)).max(axis=1) <= settings.grid_max_shift]
                    values = value(trials)
                    i = int(np.argmax(values))
                    if values[i] > score + 1e-6:
                        best, score = trials[i : i + 1], float(values[i])
        for step in steps:
            for _ in range(4):
                trials = best + step * nudges
                trials = trials[np.abs(trials).reshape(16, -1).max(axis=1) <= limit + 1e-9]
                if not len(trials):
                    break
                values = value(trials)
                i = int(np.argmax(values))
                if values[i] <= score + 1e-6:
                    break
                best, score = trials[i : i + 1], float(values[i])
        return best[0]

    home = _square(SIZE)
    still = np.zeros((1, 4, 2))
    first = measure(h_board)
    before = float(_grid_energy(still, first[0], cell_px, m)[0])

    def run(start: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        refined, votes = h_board, first
        total = np.zeros((4, 2))
        for n in range(settings.grid_passes):
            move = start if n == 0 else search(votes[0], (0.05, 0.025), False)
            moved = total + move
            if np.abs(move).max() < 1e-6 or np.abs(moved).max() > limit:
                break
            if np.abs(moved.mean(axis=0)).max() > settings.grid_max_shift:
                break
            total += move
            g = cv2.getPerspectiveTransform(home.astype(np.float32), (home + move).astype(np.float32))
            # g: true cell coordinates -> current view cells; the board homography must send the image there
            refined = np.linalg.inv(to_cells) @ np.linalg.inv(g.astype(np.float64)) @ to_cells @ refined
            votes = measure(refined)
        return refined, votes

    near = search(first[0], (0.2, 0.1, 0.05, 0.025), False)
    refined, votes = run(near)
    # a corner far off (a beach border the outline missed) is looked for over its whole range on the
    # capped votes, where it stands out; but that wider search can also fit a corner to a tile's picture:
    # it must be clearly better supported there
    wide = search(first[1], (0.05, 0.025), True)
    if np.abs(wide - near).max() > 0.1:
        far, far_votes = run(wide)
        gain = _grid_energy(still, far_votes[1], cell_px, m)[0] - _grid_energy(still, votes[1], cell_px, m)[0]
        if gain >= settings.grid_far_gain:
            refined, votes = far, far_votes
    after = float(_grid_energy(still, votes[0], cell_px, m)[0])
    if after < before + settings.grid_min_gain:
        return h_board, before, after
    return refined, before, after


# --------------------------------------------------------------------------- stage 5: sample, classify


def _cell_slice(r: int, c: int, cell_px: int, margin: int, inset: int = 0, pad: int = 0) -> tuple[slice, slice]:
    y, x = margin + r * cell_px, margin + c * cell_px
    return slice(y + inset - pad, y + cell_px - inset + pad), slice(x + inset - pad, x + cell_px - inset + pad)


def cell_means(board_bgr: np.ndarray, cell_px: int, margin: int, inset: float = SETTINGS.patch_inset) -> np.ndarray:
    """Mean BGR of each cell's centre (row-major, 36 x 3)."""
    d = int(round(inset * cell_px))
    return np.array(
        [
            board_bgr[_cell_slice(i // SIZE, i % SIZE, cell_px, margin, d)].reshape(-1, 3).mean(axis=0)
            for i in range(SIZE * SIZE)
        ]
    )


def cell_features(
    board_bgr: np.ndarray,
    cell_px: int,
    margin: int,
    inset: float = SETTINGS.patch_inset,
    energy: np.ndarray | None = None,
) -> list[np.ndarray]:
    """A feature vector per cell (row-major) of a rectified board: Lab statistics of its centre and
    its level of fine structure (``energy``, from :func:`detail_energy`, computed if not given)."""
    d = int(round(inset * cell_px))
    if energy is None:
        energy = detail_energy(board_bgr, cell_px, margin, cell_px - 2 * d)
    log_energy = np.log(np.maximum(energy, 1.0))
    area = board_bgr[margin : margin + SIZE * cell_px, margin : margin + SIZE * cell_px]
    lab = cv2.cvtColor(area.astype(np.float32) * np.float32(1 / 255.0), cv2.COLOR_BGR2Lab)
    patches = np.stack(
        [lab[_cell_slice(i // SIZE, i % SIZE, cell_px, 0, d)].reshape(-1, 3) for i in range(SIZE * SIZE)]
    )
    q = np.percentile(patches, (10, 50, 90), axis=1)  # 3 x 36 x 3
    stats = np.concatenate(
        [patches.mean(axis=1), patches.std(axis=1), q.transpose(1, 0, 2).reshape(SIZE * SIZE, 9)], axis=1
    )
    extra = np.repeat(log_energy[:, None], SETTINGS.energy_weight, axis=1)
    return list(np.concatenate([stats, extra], axis=1))


def _patch_feature(patch_bgr: np.ndarray, energy: float) -> np.ndarray:
    """:func:`cell_features` of one cell's centre patch (float BGR, 0-255) with its detail level."""
    lab = cv2.cvtColor(patch_bgr.astype(np.float32) * np.float32(1 / 255.0), cv2.COLOR_BGR2Lab).reshape(-1, 3)
    q = np.percentile(lab, (10, 50, 90), axis=0)
    extra = np.full(SETTINGS.energy_weight, math.log(max(energy, 1.0)))
    return np.concatenate([lab.mean(axis=0), lab.std(axis=0), q.reshape(9), extra])


def glare_alpha(means: np.ndarray, looks: CellLooks, settings: ReaderSettings = SETTINGS) -> dict[str, np.ndarray]:
    """Per reading, how far each cell's mean colour (36 x 3, light undone) is washed towards white from
    that reading's look: the common part of its excess in every channel (0: not lighter in all three)."""
    hypotheses: dict[str, np.ndarray] = {t: np.broadcast_to(v, means.shape) for t, v in looks.tile_means.items()}
    hypotheses[EMPTY] = looks.empty_means
    return {
        letter: np.clip(((means - expected) / np.maximum(255.0 - expected, 1.0)).min(axis=1), 0.0, settings.glare_max)
        for letter, expected in hypotheses.items()
    }


def _out_of_reach(
    dist: list[dict[str, float]], totals: list[dict[str, float]] | None, i: int, letter: str, penalty: float
) -> bool:
    """With ``totals`` (of :func:`_totals` for ``dist``): cell ``i`` read as ``letter`` could not reach the
    two best of its cell even at no distance plus ``penalty``, so it need not be compared again."""
    if totals is None:
        return False
    credit = dist[i][letter] - totals[i][letter]  # what correlation takes off this reading
    second = sorted(totals[i].values())[1]
    return penalty - credit >= min(totals[i][letter], second)


def _distance_undone(
    corrected_bgr: np.ndarray,
    i: int,
    cell_px: int,
    margin: int,
    inset: int,
    white: float,
    divisor: float,
    energy: float,
    examples: np.ndarray,
    looks: CellLooks,
) -> float:
    """Cell ``i``'s feature distance to the nearest of ``examples`` once a light is undone from its patch:
    ``(patch - white) / divisor`` (glare: ``white`` 255 a, ``divisor`` 1 - a; a shadow: 0, its factor)."""
    patch = corrected_bgr[_cell_slice(i // SIZE, i % SIZE, cell_px, margin, inset)].astype(np.float32)
    back = np.clip((patch - np.float32(white)) * np.float32(1.0 / divisor), 0, 255)
    f = _patch_feature(back, energy / divisor) / looks.scale
    return float(np.sqrt(((examples - f) ** 2).sum(axis=1)).min())


def glare_distances(
    corrected_bgr: np.ndarray,
    energy: np.ndarray,
    dist: list[dict[str, float]],
    looks: CellLooks,
    cell_px: int,
    margin: int,
    settings: ReaderSettings = SETTINGS,
    totals: list[dict[str, float]] | None = None,
    ncc: list[dict[str, float]] | None = None,
) -> list[dict[str, float]]:
    """Distances again where a cell may be a look washed towards white by a lamp's reflection (glare).

    Glare only ever adds light: a black factory under it turns gray like a road. For each reading, a
    cell lighter than that reading's look in every channel is taken back by the common part of that
    excess (mixing towards white) and compared again; the smaller distance counts, plus a penalty that
    grows with the glare needed, so colour no longer outvotes a clear match of the picture.

    With ``ncc`` (of :func:`match_scores`), only readings whose picture matches at least
    ``glare_min_correlation`` are tried: without a clear picture, a gray road could as well be a washed
    black factory. With ``totals`` (of :func:`_totals` for ``dist``), readings that could not reach the two best of
    their cell even at no distance are skipped: same result, much less work.
    """
    d = int(round(settings.patch_inset * cell_px))
    means = cell_means(corrected_bgr, cell_px, margin)
    out = [dict(x) for x in dist]
    hypotheses: dict[str, np.ndarray] = {t: np.broadcast_to(v, means.shape) for t, v in looks.tile_means.items()}
    hypotheses[EMPTY] = looks.empty_means
    for letter, expected in hypotheses.items():
        alpha = np.clip(((means - expected) / np.maximum(255.0 - expected, 1.0)).min(axis=1), 0.0, settings.glare_max)
        examples = [np.asarray(looks.tiles[letter]) / looks.scale] if letter != EMPTY else None
        for i in np.flatnonzero(alpha >= settings.glare_min):
            a = float(alpha[i])
            if ncc is not None and ncc[i][letter] < settings.glare_min_correlation:
                continue
            if _out_of_reach(dist, totals, i, letter, settings.glare_penalty * a):
                continue
            e = examples[0] if examples is not None else np.asarray(looks.empty[i]) / looks.scale
            back = _distance_undone(
                corrected_bgr, i, cell_px, margin, d, 255.0 * a, 1.0 - a, float(energy[i]), e, looks
            )
            out[i][letter] = min(out[i][letter], back + settings.glare_penalty * a)
    return out


def shade_factor(means_bgr: np.ndarray, look_bgr: np.ndarray) -> np.ndarray:
    """Per cell (mean colours, n x 3), the common factor by which it is darker than a look in every channel
    (its largest channel ratio: 1 or more when it is not darker in all three)."""
    return (means_bgr / np.maximum(look_bgr, 1.0)).max(axis=1)


def shade_distances(
    corrected_bgr: np.ndarray,
    energy: np.ndarray,
    dist: list[dict[str, float]],
    looks: CellLooks,
    cell_px: int,
    margin: int,
    settings: ReaderSettings = SETTINGS,
    totals: list[dict[str, float]] | None = None,
) -> list[dict[str, float]]:
    """Distances again where a cell may be a tile darkened by a cast shadow (a road gone factory-dark).

    A shadow sharper than the light fitted on the cells (a hand's, a phone's) scales a tile's colours down:
    a gray road turns as dark as a black factory and its colour statistics read as one, while its picture
    (an illustration the known layout may not have shown) matches nothing clearly. For each tile reading,
    a cell darker than that reading's mean look in every channel, by the common factor ``g`` (at most
    ``shade_max``), is brightened back by ``1 / g`` (``g`` no less than ``shade_floor``) and compared again;
    the smaller distance counts, plus ``shade_penalty`` per unit of ``-log g``. Empty looks are left as
    they are (a print in shadow is its own look, and their distances carry the structure penalties).

    With ``totals`` (of :func:`_totals` for ``dist``), readings that could not reach the two best of their
    cell even at no distance are skipped: same result, less work.
    """
    out = [dict(x) for x in dist]
    if settings.shade_max >= 1.0:  # off
        return out
    d = int(round(settings.patch_inset * cell_px))
    means = cell_means(corrected_bgr, cell_px, margin)
    for letter, examples in looks.tiles.items():
        g = shade_factor(means, looks.tile_means[letter])
        e = np.asarray(examples) / looks.scale
        for i in np.flatnonzero(g <= settings.shade_max):
            gi = max(float(g[i]), settings.shade_floor)
            penalty = -settings.shade_penalty * math.log(gi)
            if _out_of_reach(dist, totals, i, letter, penalty):
                continue
            back = _distance_undone(corrected_bgr, i, cell_px, margin, d, 0.0, gi, float(energy[i]), e, looks)
            out[i][letter] = min(out[i][letter], back + penalty)
    return out


def _detail(board_bgr: np.ndarray, cell_px: int) -> np.ndarray:
    """The fine structure of a rectified board (float): light ramps, glare and colour casts removed."""
    f = board_bgr.astype(np.float32)
    h, w = f.shape[:2]
    sigma = cell_px * SETTINGS.detail_sigma_cells
    if sigma >= 4:
        small = cv2.resize(f, (w // 4, h // 4), interpolation=cv2.INTER_AREA)
        smooth = cv2.resize(cv2.GaussianBlur(small, (0, 0), sigma / 4), (w, h), interpolation=cv2.INTER_LINEAR)
    else:
        smooth = cv2.GaussianBlur(f, (0, 0), sigma)
    return f - smooth


_TREND: dict[tuple[int, int, int], np.ndarray] = {}


def _trend_basis(size: int, channels: int, order: int) -> np.ndarray:
    """Orthonormal columns spanning each channel's level (order 0), slope (1) and curvature (2) in a window."""
    key = (size, channels, order)
    if key not in _TREND:
        g = (np.arange(size, dtype=np.float64) - (size - 1) / 2) / size
        ys, xs = np.meshgrid(g, g, indexing="ij")
        terms = [np.ones_like(xs)]
        if order >= 1:
            terms += [xs, ys]
        if order >= 2:
            terms += [xs * xs, ys * ys, xs * ys]
        cols = []
        for ch in range(channels):
            for t in terms:
                v = np.zeros((size, size, channels))
                v[:, :, ch] = t
                cols.append(v.ravel())
        q, _ = np.linalg.qr(np.asarray(cols).T)
        _TREND[key] = q.astype(np.float32)
    return _TREND[key]


def _unit(w: np.ndarray, floor: float, order: int = 0) -> np.ndarray:
    """Rows made free of each channel's level and smooth trend, divided by their length (never less than
    ``floor`` per element).

    The floor keeps a plain, noisy cell from looking like anything: its correlations stay small. Taking
    out the trend keeps the halo of the cell's edges (grid lines, a tile's cardboard outline) from
    correlating: what is left is the print's or the picture's own structure.
    """
    n = w.shape[1]
    size = int(round(math.sqrt(n / 3)))
    if order > 0 and size * size * 3 == n:
        q = _trend_basis(size, 3, order)
        w = w - (w @ q) @ q.T
    else:
        w = w - w.mean(axis=1, keepdims=True)
    norm = np.sqrt((w * w).sum(axis=1, keepdims=True) + w.shape[1] * floor * floor)
    return w / norm


def _windows(
    detail: np.ndarray, r: int, c: int, cell_px: int, margin: int, size: int, shift: int, orders: Sequence[int] = (0,)
) -> list[np.ndarray]:
    """Centred ``size`` windows of one cell's detail at shifts up to ``shift`` px, as unit rows."""
    o = (cell_px - size) // 2
    y0, x0 = margin + r * cell_px + o, margin + c * cell_px + o
    out = []
    for dy in range(-shift, shift + 1, 2):
        for dx in range(-shift, shift + 1, 2):
            out.append(detail[y0 + dy : y0 + dy + size, x0 + dx : x0 + dx + size].ravel())
    raw = np.asarray(out, dtype=np.float32)
    return [_unit(raw, SETTINGS.detail_floor, order) for order in orders]


def _templates(
    detail: np.ndarray, r: int, c: int, cell_px: int, margin: int, size: int, turns: int, order: int = 0
) -> np.ndarray:
    o = (cell_px - size) // 2
    y0, x0 = margin + r * cell_px + o, margin + c * cell_px + o
    patch = detail[y0 : y0 + size, x0 : x0 + size]
    return _unit(np.asarray([np.rot90(patch, k).ravel() for k in range(turns)]), SETTINGS.detail_floor, order)


def learn_cell_looks(
    empty_bgr: np.ndarray, known_bgr: np.ndarray, known_grid: Sequence[str], cell_px: int, margin: int
) -> CellLooks:
    """Each cell's empty look (empty photo, and the known photo where that cell is empty) and tile looks."""
    fe = cell_features(empty_bgr, cell_px, margin)
    fk = cell_features(known_bgr, cell_px, margin)
    me, mk = cell_means(empty_bgr, cell_px, margin), cell_means(known_bgr, cell_px, margin)
    t = SETTINGS.template_px * cell_px // SETTINGS.cell_px
    letters = "".join(known_grid)
    empty: list[list[np.ndarray]] = [[f] for f in fe]
    empty_detail, known_detail = _detail(empty_bgr, cell_px), _detail(known_bgr, cell_px)
    eo = SETTINGS.empty_trend_order
    empty_templates = [
        _templates(empty_detail, i // SIZE, i % SIZE, cell_px, margin, t, 1, eo) for i in range(SIZE * SIZE)
    ]
    tiles: dict[str, list[np.ndarray]] = {}
    tile_means: dict[str, list[np.ndarray]] = {}
    tile_templates: dict[str, list[np.ndarray]] = {}
    for i, letter in enumerate(letters):
        if letter == EMPTY:
            empty[i].append(fk[i])
            kt = _templates(known_detail, i // SIZE, i % SIZE, cell_px, margin, t, 1, eo)
            empty_templates[i] = np.vstack([empty_templates[i], kt])
        else:
            tiles.setdefault(letter, []).append(fk[i])
            tile_means.setdefault(letter, []).append(mk[i])
            tile_templates.setdefault(letter, []).append(
                _templates(known_detail, i // SIZE, i % SIZE, cell_px, margin, t, 4)
            )
    scale = np.maximum(np.array(fe + fk).std(axis=0), 1.0)
    empty_print = list(_print_texture(empty_bgr, cell_px, margin))
    known_print = _print_texture(known_bgr, cell_px, margin)
    empty_chroma = [c[None, :] for c in ground_chroma(empty_bgr, cell_px, margin)]
    kl = ground_lab(known_bgr, cell_px, margin)
    kc = kl[:, 1:]
    for i, letter in enumerate(letters):
        if letter == EMPTY:
            empty_print[i] = np.vstack([empty_print[i], known_print[i]])
            empty_chroma[i] = np.vstack([empty_chroma[i], kc[i][None, :]])
    tile_templates_all = {k: np.vstack(v) for k, v in tile_templates.items()}
    return CellLooks(
        empty,
        tiles,
        scale,
        empty_means=me,
        tile_means={k: np.mean(v, axis=0) for k, v in tile_means.items()},
        empty_templates=empty_templates,
        tile_templates=tile_templates_all,
        template_px=t,
        empty_energy=detail_energy(empty_bgr, cell_px, margin, t),
        empty_fine=fine_energy(empty_bgr, cell_px, margin),
        empty_alike=np.sqrt(((np.asarray(fe)[:, None, :] - np.asarray(fe)[None, :, :]) / scale) ** 2).sum(axis=2),
        empty_print=empty_print,
        empty_chroma=empty_chroma,
        tile_chroma=np.array([kc[i] for i, letter in enumerate(letters) if letter != EMPTY]),
        tile_chroma_letters=letters.replace(EMPTY, ""),
        tile_lightness=np.array([kl[i, 0] for i, letter in enumerate(letters) if letter != EMPTY]),
    )


def ground_chroma(board_bgr: np.ndarray, cell_px: int, margin: int) -> np.ndarray:
    """Median CIE a*b* of each cell's centre (36 x 2): the colour of its ground (the print, a tile's
    face), whatever picture is drawn on it."""
    return ground_lab(board_bgr, cell_px, margin)[:, 1:]


def ground_lab(board_bgr: np.ndarray, cell_px: int, margin: int) -> np.ndarray:
    """Median CIE Lab of each cell's centre (36 x 3, L 0-100)."""
    d = int(round(SETTINGS.patch_inset * cell_px))
    area = board_bgr[margin : margin + SIZE * cell_px, margin : margin + SIZE * cell_px]
    lab = cv2.cvtColor(area.astype(np.float32) * np.float32(1 / 255.0), cv2.COLOR_BGR2Lab)
    patches = np.stack(
        [lab[_cell_slice(i // SIZE, i % SIZE, cell_px, 0, d)].reshape(-1, 3) for i in range(SIZE * SIZE)]
    )
    return np.median(patches, axis=1).astype(np.float64)


def chroma_excess(
    corrected_bgr: np.ndarray,
    looks: CellLooks,
    cell_px: int,
    margin: int,
    sure_empty: Sequence[int] = (),
    settings: ReaderSettings = SETTINGS,
    *,
    ground: np.ndarray | None = None,
) -> np.ndarray:
    """Per cell, how much further its ground colour (a*b*, light undone) is from its own empty look than
    from the nearest tile of the known layout: large where a tile covers the print.

    The light is undone only roughly (a glare spot, a cast the fit missed): a cell's own empty look is
    moved by the median shift of the cells read surely empty (``sure_empty``) that were printed like it;
    without two such cells, by that of all cells read surely empty (or not at all), and the excess then
    counts ``chroma_unsure`` less. ``ground``: the photo's :func:`ground_lab`, when already measured."""
    ab = (ground_lab(corrected_bgr, cell_px, margin) if ground is None else ground)[:, 1:]
    base = np.array([e[0] for e in looks.empty_chroma])
    shift = ab - base
    own = np.zeros(SIZE * SIZE)
    doubt = np.zeros(SIZE * SIZE)
    for i in range(SIZE * SIZE):
        alike = [j for j in sure_empty if j != i and np.hypot(*(base[i] - base[j])) <= settings.chroma_alike]
        if len(alike) >= 2:
            moved = np.median(shift[alike], axis=0)
        else:  # no cell printed alike read surely empty: the light as fitted (or as the others show), less sure
            rest = [j for j in sure_empty if j != i]
            moved = np.median(shift[rest], axis=0) if len(rest) >= 2 else np.zeros(2)
            doubt[i] = settings.chroma_unsure
        own[i] = float(np.sqrt(((looks.empty_chroma[i] + moved - ab[i]) ** 2).sum(axis=1)).min())
    tile = np.sqrt(((ab[:, None, :] - looks.tile_chroma[None, :, :]) ** 2).sum(axis=2)).min(axis=1)
    return own - tile - doubt


_PLANE: dict[int, np.ndarray] = {}


def _print_texture(board_bgr: np.ndarray, cell_px: int, margin: int, shift: int = 0) -> np.ndarray:
    """Each cell centre's print texture as unit rows: 8-bit Lab smoothed and halved, less each channel's
    plane (light ramps out), with a floor so that a plain centre (a tile's flat face, an untextured
    print) agrees with nothing.

    Returns 36 x (2 shift + 1)² x features (row-major cells; windows moved up to ``shift`` half-size px).
    """
    s = SETTINGS
    inset = int(round(s.print_inset_px * cell_px / s.cell_px))
    n = (cell_px - 2 * inset) // 2
    if n not in _PLANE:
        g = np.arange(n, dtype=np.float32) / n - 0.5
        yy, xx = np.meshgrid(g, g, indexing="ij")
        _PLANE[n] = np.linalg.qr(np.stack([np.ones_like(xx), xx, yy]).reshape(3, -1).T)[0].astype(np.float32)
    q = _PLANE[n]
    lab = cv2.cvtColor(board_bgr, cv2.COLOR_BGR2Lab).astype(np.float32)
    lab = cv2.GaussianBlur(lab, (0, 0), s.print_sigma_px * cell_px / s.cell_px)[::2, ::2]
    windows = []
    for i in range(SIZE * SIZE):
        y = (margin + (i // SIZE) * cell_px + inset) // 2
        x = (margin + (i % SIZE) * cell_px + inset) // 2
        for dy in range(-shift, shift + 1):
            for dx in range(-shift, shift + 1):
                windows.append(lab[y + dy : y + dy + n, x + dx : x + dx + n])
    w = np.asarray(windows).transpose(0, 3, 1, 2).reshape(-1, n * n)  # (window, channel) x n²
    w = (w - (w @ q) @ q.T).reshape(len(windows), -1)
    w = w / np.sqrt((w * w).sum(axis=1, keepdims=True) + w.shape[1] * s.print_floor**2)
    return w.reshape(SIZE * SIZE, (2 * shift + 1) ** 2, -1)


def print_agreement(board_bgr: np.ndarray, looks: CellLooks, cell_px: int, margin: int) -> np.ndarray:
    """Per cell, how well its centre's texture matches its own empty print's (best correlation over
    shifts of up to 2 px): near 1 where the print's mottling shows through, near 0 on a tile's face or
    on a plain print."""
    w = _print_texture(board_bgr, cell_px, margin, 1)
    return np.array([float((w[i] @ looks.empty_print[i].T).max()) for i in range(SIZE * SIZE)])


def border_colour_correction(
    board_bgr: np.ndarray,
    reference_bgr: np.ndarray,
    cell_px: int,
    margin_cells: float,
    border: np.ndarray | None = None,
) -> tuple[np.ndarray, float]:
    """Per-channel gain from the border ring (photo against calibration): a first guess of the light.

    Returns the corrected board and the mean gain.
    """
    mask = border if border is not None else _ring_mask(cell_px, margin_cells, 0.5).astype(bool)
    x = reference_bgr[mask]
    y = board_bgr[mask]
    gain = np.clip(np.median(y, axis=0) / np.maximum(np.median(x, axis=0), 1.0), 0.2, 5.0)
    corrected = board_bgr.astype(np.float32) * (1.0 / gain).astype(np.float32)
    return np.clip(corrected, 0, 255).astype(np.uint8), float(gain.mean())


def _light_terms(xs: np.ndarray, ys: np.ndarray) -> list[np.ndarray]:
    return [np.ones_like(xs), xs, ys, xs * xs, ys * ys, xs * ys]


def fit_light(observed: np.ndarray, expected: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """Per channel ``observed = gain * expected + smooth offset(x, y)`` (glare, gradients), fitted robustly.

    ``observed`` and ``expected`` are 36 x 3 cell means. Returns 3 x 7 parameters (gain, offset terms).
    """
    idx = np.arange(SIZE * SIZE)
    xs, ys = (idx % SIZE - 2.5) / 2.5, (idx // SIZE - 2.5) / 2.5
    params = []
    for ch in range(3):
        a = np.vstack([expected[:, ch], *_light_terms(xs, ys)]).T
        keep = weight.copy()
        sol = np.zeros(a.shape[1])
        sol[0] = 1.0
        for _ in range(3):
            if keep.sum() < a.shape[1] + 2:
                break
            sol, *_ = np.linalg.lstsq(a[keep], observed[keep, ch], rcond=None)
            res = np.abs(observed[:, ch] - a @ sol)
            keep = weight & (res <= max(float(np.percentile(res[weight], 75)), 3.0))
        sol[0] = max(sol[0], 0.2)
        params.append(sol)
    return np.asarray(params)


_TERMS: dict[tuple[int, int, int], list[np.ndarray]] = {}


def apply_light(board_bgr: np.ndarray, params: np.ndarray, cell_px: int, margin: int) -> np.ndarray:
    """Undo :func:`fit_light` on a rectified board: back to the calibration's light."""
    size = board_bgr.shape[0]
    key = (size, cell_px, margin)
    if key not in _TERMS:
        grid = ((np.arange(size, dtype=np.float32) - margin) / cell_px - 3.0) / 2.5
        xs, ys = np.meshgrid(grid, grid)
        _TERMS[key] = _light_terms(xs, ys)
    terms = _TERMS[key]
    out = board_bgr.astype(np.float32)
    for ch in range(3):
        offset = sum(np.float32(p) * t for p, t in zip(params[ch, 1:], terms, strict=True))
        out[:, :, ch] = (out[:, :, ch] - offset) * np.float32(1.0 / params[ch, 0])
    return np.clip(out, 0, 255).astype(np.uint8)


def match_scores(board_bgr: np.ndarray, looks: CellLooks, cell_px: int, margin: int) -> list[dict[str, float]]:
    """Per cell, the best normalised correlation with each tile type's looks and with its own empty look.

    Correlation ignores each channel's level and contrast, so glare and colour casts barely change it.
    """
    t = looks.template_px
    shift = max(2, cell_px // 10)
    detail = _detail(board_bgr, cell_px)
    out = []
    for i in range(SIZE * SIZE):
        w, we = _windows(detail, i // SIZE, i % SIZE, cell_px, margin, t, shift, (0, SETTINGS.empty_trend_order))
        scores = {k: float((w @ v.T).max()) for k, v in looks.tile_templates.items()}
        scores[EMPTY] = float((we @ looks.empty_templates[i].T).max())
        out.append(scores)
    return out


def detail_energy(board_bgr: np.ndarray, cell_px: int, margin: int, size: int) -> np.ndarray:
    """How much fine structure each cell's centre shows (RMS of its detail), row-major."""
    detail = _detail(board_bgr, cell_px)
    o = (cell_px - size) // 2
    out = []
    for i in range(SIZE * SIZE):
        y0, x0 = margin + (i // SIZE) * cell_px + o, margin + (i % SIZE) * cell_px + o
        w = detail[y0 : y0 + size, x0 : x0 + size].reshape(-1, 3)
        out.append(float(np.sqrt(((w - w.mean(axis=0)) ** 2).mean())))
    return np.asarray(out)


def fine_energy(board_bgr: np.ndarray, cell_px: int, margin: int) -> np.ndarray:
    """How much of the finest structure each cell's centre shows (RMS of the board less its blur at
    ``fine_sigma_px``, lightly smoothed against pixel noise), clear of the cell's edges; row-major."""
    s = SETTINGS
    k = cell_px / s.cell_px
    area = board_bgr[margin : margin + SIZE * cell_px, margin : margin + SIZE * cell_px].astype(np.float32)
    fine = cv2.GaussianBlur(area - cv2.GaussianBlur(area, (0, 0), s.fine_sigma_px * k), (0, 0), 0.7 * k)
    inset = int(round(s.fine_inset_px * k))
    n = cell_px - 2 * inset
    cells = fine.reshape(SIZE, cell_px, SIZE, cell_px, 3)[:, inset : inset + n, :, inset : inset + n]
    return np.sqrt((cells**2).mean(axis=(1, 3, 4))).ravel().astype(np.float64)


def feature_distances(feats: Sequence[np.ndarray], looks: CellLooks) -> list[dict[str, float]]:
    """Per cell, the weighted distance to the nearest example of each tile type and of its empty look."""
    f = np.asarray(feats) / looks.scale
    per_type = {}
    for t, examples in looks.tiles.items():
        e = np.asarray(examples) / looks.scale
        per_type[t] = np.sqrt(((f[:, None, :] - e[None, :, :]) ** 2).sum(axis=2)).min(axis=1)
    out = []
    for i in range(len(f)):
        d = {t: float(v[i]) for t, v in per_type.items()}
        e = np.asarray(looks.empty[i]) / looks.scale
        d[EMPTY] = float(np.sqrt(((e - f[i]) ** 2).sum(axis=1)).min())
        out.append(d)
    return out


def classify_cells(
    board_bgr: np.ndarray, calibration: BoardCalibration, settings: ReaderSettings = SETTINGS
) -> tuple[list[str], list[float]]:
    """For each cell: empty (against its own empty look) or the nearest tile type, and a confidence.

    Colour statistics are compared after undoing the photo's light, which is fitted on the cells
    themselves (each cell against the look of what it was read as) and refined a few times;
    correlation with the calibrated looks is added to the evidence.
    """
    looks = calibration.looks
    c, m = calibration.cell_px, calibration.margin
    corrected, gain = border_colour_correction(
        board_bgr, calibration.empty_bgr, c, calibration.margin_cells, calibration.border_mask(c)
    )
    ncc = match_scores(board_bgr, looks, c, m)
    # correlation only counts where a cell shows more structure than its own empty print: on a plain
    # cell it is noise, and the best of many tile looks would always beat the one empty look
    ratio = detail_energy(board_bgr, c, m, looks.template_px) / np.maximum(looks.empty_energy, 1.0)
    structured = np.clip((ratio - settings.plain_ratio) / settings.plain_ramp, 0.0, 1.0)
    inset = int(round(settings.patch_inset * c))
    energy = detail_energy(board_bgr, c, m, c - 2 * inset)
    observed = cell_means(board_bgr, c, m)
    # a cell with much more fine structure than its own empty print is hardly empty, whatever its colour
    # (a park of a picture the calibration never showed, on a cell of its own green)
    busy = np.log(np.maximum(ratio / gain, 1e-6) / settings.busy_ratio)
    busy_penalty = settings.busy_weight * np.clip(busy, 0.0, None)
    agreement = print_agreement(board_bgr, looks, c, m) if settings.print_agree_weight > 0 else np.zeros(SIZE * SIZE)
    span = settings.print_agree_full - settings.print_agree_from
    agree = np.clip((agreement - settings.print_agree_from) / span, 0.0, 1.0)  # 0 to 1: empty for its print
    kept = np.zeros(SIZE * SIZE)  # what still counts against empty looks lent by other cells of the photo
    # each cell's fine structure (for fine_weight and plain_fine_weight: measured once, the light undone at
    # each use, by the light fitted by then)
    cell_fine = fine_energy(board_bgr, c, m) if settings.fine_weight > 0 or settings.plain_fine_weight > 0 else None
    if settings.fine_weight > 0:
        assert cell_fine is not None
        floor = settings.fine_floor
        fine = (cell_fine / gain + floor) / (looks.empty_fine + floor)
        fine_penalty = settings.fine_weight * np.clip(np.log(fine / settings.fine_ratio), 0.0, None)
        # not where the print's own mottling shows through: a tile's face would hide it, so whatever finer
        # structure such a cell shows on top is not a tile's picture
        span = settings.fine_agree_full - settings.fine_agree_from
        fine_penalty *= 1.0 - np.clip((agreement - settings.fine_agree_from) / span, 0.0, 1.0)
        if settings.busy_fine_from > 0:
            # a cell busier than its print at the coarse scale alone (a neighbour's shadow or outline at its
            # edge, the halo of grid lines a little off) is no busier for it
            span = settings.busy_fine_full - settings.busy_fine_from
            busy_penalty = busy_penalty * np.clip((fine - settings.busy_fine_from) / span, 0.0, 1.0)
        busy_penalty = busy_penalty + fine_penalty
        if settings.examples_keep_fine:
            kept = fine_penalty
    letters: list[str] = []
    confidence: list[float] = []
    dist: list[dict[str, float]] = []
    ground: np.ndarray | None = None  # ground_lab of the last light's corrected board
    for iteration in range(settings.light_iterations):
        feats = cell_features(corrected, c, m, energy=energy / gain)
        dist = feature_distances(feats, looks)
        covered = np.zeros(SIZE * SIZE)
        if settings.chroma_weight > 0 and iteration > 0 and iteration + 1 == settings.light_iterations:
            sure = [
                i for i, t in enumerate(letters) if t == EMPTY and confidence[i] >= settings.photo_examples_confidence
            ]
            ground = ground_lab(corrected, c, m)  # the last light's: chroma_excess and colour_gates share it
            excess = chroma_excess(corrected, looks, c, m, sure, settings, ground=ground)
            covered = settings.chroma_weight * np.clip((excess - settings.chroma_from) / settings.chroma_ramp, 0.0, 1.0)
        for i in range(SIZE * SIZE):
            dist[i][EMPTY] += float(busy_penalty[i] + covered[i])
        if iteration == 0:
            first = dist
        elif iteration + 1 == settings.light_iterations and settings.border_light_penalty < math.inf:
            # the light fitted on the cells can over-correct (a glare spot pulls its curved offset far out
            # at the board's edge): each reading also keeps its distance under the border's light alone
            p = settings.border_light_penalty
            dist = [{k: min(v, first[i][k] + p) for k, v in d.items()} for i, d in enumerate(dist)]
        # (only for the last reading: the light is fitted on the readings before, colour or not)
        last = iteration + 1 == settings.light_iterations
        if last and ground is None:
            ground = ground_lab(corrected, c, m)
        gates = colour_gates(corrected, ncc, looks, c, m, settings, ground=ground) if last else None
        if settings.glare_min < 1.0 and iteration + 1 == settings.light_iterations:
            totals = _totals(dist, ncc, structured, settings, gates)
            dist = glare_distances(corrected, energy / gain, dist, looks, c, m, settings, totals, ncc)
        if settings.shade_max < 1.0 and last:
            totals = _totals(dist, ncc, structured, settings, gates)
            dist = shade_distances(corrected, energy / gain, dist, looks, c, m, settings, totals)
        letters, confidence = _decide(dist, ncc, structured, settings, gates)
        if iteration == 0:
            border_light_letters = list(letters)
        if iteration + 1 < settings.light_iterations:
            expected = np.array(
                [looks.empty_means[i] if t == EMPTY else looks.tile_means[t] for i, t in enumerate(letters)]
            )
            params = fit_light(observed, expected, np.ones(SIZE * SIZE, bool))
            corrected = apply_light(board_bgr, params, c, m)
            gain = float(np.mean(params[:, 0]))
    if settings.photo_examples_confidence < 1.0:
        # tiles read with confidence teach the others in the same photo: same light, and perhaps an
        # illustration the known layout did not show
        # (the examples as read without the colour gates: a gate that tips a washed-out cell must not
        # make it teach its neighbours)
        taught, surety = (letters, confidence) if gates is None else _decide(dist, ncc, structured, settings)
        sure = [i for i in range(SIZE * SIZE) if surety[i] >= settings.photo_examples_confidence]
        sure_tiles = [i for i in sure if taught[i] != EMPTY]
        sure_empty = [i for i in sure if taught[i] == EMPTY]
        if sure_tiles or sure_empty:
            detail = _detail(board_bgr, c)
            t = looks.template_px
            shift = max(2, c // 10)
            scale = looks.scale
            own = {i: _templates(detail, i // SIZE, i % SIZE, c, m, t, 4) for i in sure_tiles}
            f = np.asarray(feats) / scale
            for i in range(SIZE * SIZE):
                if i in sure:
                    continue
                w = _windows(detail, i // SIZE, i % SIZE, c, m, t, shift)[0]
                for j in sure_tiles:
                    letter = taught[j]
                    ncc[i][letter] = max(ncc[i][letter], float((w @ own[j].T).max()))
                    dist[i][letter] = min(dist[i][letter], float(np.sqrt(((f[i] - f[j]) ** 2).sum())))
                # an empty cell printed like this one (alike at calibration) shows its empty look in this light
                for j in sure_empty:
                    if looks.empty_alike[i, j] <= settings.alike_empty:
                        near = float(np.sqrt(((f[i] - f[j]) ** 2).sum())) + float(kept[i])
                        dist[i][EMPTY] = min(dist[i][EMPTY], near)
            if gates is not None:
                gates = colour_gates(corrected, ncc, looks, c, m, settings, ground=ground)
            if settings.glare_min < 1.0 and settings.glare_after_examples:
                totals = _totals(dist, ncc, structured, settings, gates)
                dist = glare_distances(corrected, energy / gain, dist, looks, c, m, settings, totals, ncc)
            letters, confidence = _decide(dist, ncc, structured, settings, gates)
    if settings.plain_fine_weight > 0:  # a cell too plain for any tile's picture, likewise
        span = settings.plain_fine_from - settings.plain_fine_full
        assert cell_fine is not None
        plain = np.clip((settings.plain_fine_from - cell_fine / gain) / span, 0.0, 1.0)
        agree = agree * settings.print_agree_weight + plain * settings.plain_fine_weight
    else:
        agree = agree * settings.print_agree_weight
    if agree.any():  # (print_agree_weight and plain_fine_weight 0: none)
        # last, for this cell alone: its reading then neither moves the fitted light nor teaches others
        dist = [dict(d) for d in dist]
        for i in np.flatnonzero(agree):
            dist[i][EMPTY] -= float(agree[i])
        letters, confidence = _decide(dist, ncc, structured, settings, gates)
    washed = glare_alpha(cell_means(corrected, c, m), looks, settings) if settings.glare_doubt > 0 else None
    confidence = _doubt(confidence, letters, border_light_letters, dist, ncc, structured, settings, gates, washed)
    return letters, confidence


def _doubt(
    confidence: list[float],
    letters: list[str],
    border_light_letters: list[str],
    dist: list[dict[str, float]],
    ncc: list[dict[str, float]],
    structured: np.ndarray,
    settings: ReaderSettings,
    colour_gate: list[dict[str, float]] | None = None,
    washed: dict[str, np.ndarray] | None = None,
) -> list[float]:
    """Confidence lowered where the margin between the two best readings hides a doubt.

    A reading that the border's light alone (before the light was fitted on the cells) read otherwise
    rests on the fitted light: ``relit_doubt`` less. A reading whose mean colour is further than the
    runner-up's by ``colour_doubt_gap`` won on its picture against its colour (a park of unseen art on
    green read as empty, a washed-out tile): ``colour_doubt`` less. With ``washed`` (of :func:`glare_alpha`),
    a reading of a weak picture in a cell washed towards white from a tile whose picture matches better
    may be that tile under glare, read by its washed colour: ``glare_doubt`` less. Readings are unchanged.
    """
    out = list(confidence)
    for i, total in enumerate(_totals(dist, ncc, structured, settings, colour_gate)):
        ranked = sorted(total, key=lambda k: total[k])
        if letters[i] != border_light_letters[i]:
            out[i] -= settings.relit_doubt
        if dist[i][ranked[0]] > dist[i][ranked[1]] + settings.colour_doubt_gap:
            out[i] -= settings.colour_doubt
        own = ncc[i][letters[i]]
        if washed is not None and own < settings.weak_correlation:
            better = max(own + settings.glare_doubt_gap, settings.glare_min_correlation)
            if any(
                ncc[i][t] >= better and washed[t][i] >= settings.glare_min
                for t in washed
                if t not in (EMPTY, letters[i])
            ):
                out[i] -= settings.glare_doubt
        out[i] = max(out[i], 0.0)
    return out


def _lab(bgr: np.ndarray) -> np.ndarray:
    """CIE Lab (L 0-100) of rows of BGR colours (0-255)."""
    f = np.asarray(bgr, dtype=np.float32).reshape(-1, 1, 3) * np.float32(1 / 255.0)
    return cv2.cvtColor(f, cv2.COLOR_BGR2Lab).reshape(-1, 3).astype(np.float64)


def colour_gates(
    corrected_bgr: np.ndarray,
    ncc: list[dict[str, float]],
    looks: CellLooks,
    cell_px: int,
    margin: int,
    settings: ReaderSettings = SETTINGS,
    *,
    ground: np.ndarray | None = None,
) -> list[dict[str, float]] | None:
    """Per cell, how much each tile reading's correlation may count given the cell's mean colour.

    A picture the calibration never showed (another road or park illustration) still correlates a
    little with some look, often of another type (a straight road with a park's path); such a weak
    match must not outvote a mean colour that is clearly another type's (gray road, green park). So a
    reading whose picture matches less than ``weak_correlation`` and whose mean colour (light undone) is
    ``colour_gap`` further than the nearest tile type's loses that evidence, in full ``colour_gap_ramp``
    further. A clear match (a washed-out factory under glare) keeps it whatever its colour.
    ``ground``: the photo's :func:`ground_lab`, when already measured.
    """
    if not math.isfinite(settings.colour_gap_ramp):
        return None
    bgr = cell_means(corrected_bgr, cell_px, margin)
    means = _lab(bgr)
    types = list(looks.tile_means)
    expected = _lab(np.array([looks.tile_means[t] for t in types]))
    far = np.sqrt(((means[:, None, :] - expected[None, :, :]) ** 2).sum(axis=2))  # 36 x types
    if settings.shade_gates and settings.shade_max < 1.0:
        # a cell darker than a type's look in every channel is measured against it brightened back, as in
        # shade_distances (a road in a cast shadow is not far from a road's colour)
        for k, t in enumerate(types):
            g = np.maximum(shade_factor(bgr, looks.tile_means[t]), settings.shade_floor)
            lit = _lab(np.clip(bgr / g[:, None], 0, 255))
            near = np.sqrt(((lit - expected[k]) ** 2).sum(axis=1))
            far[:, k] = np.where(g <= settings.shade_max, np.minimum(far[:, k], near), far[:, k])
    # between tile types only: a tile in its cell's colour (a park on green) is still told by its picture
    nearest = far.min(axis=1)
    excess = np.clip((far - nearest[:, None] - settings.colour_gap) / settings.colour_gap_ramp, 0.0, 1.0)
    ground_excess = np.zeros_like(excess)
    if math.isfinite(settings.ground_gap_ramp):
        lab = ground_lab(corrected_bgr, cell_px, margin) if ground is None else ground
        to_examples = np.sqrt(((lab[:, None, 1:] - looks.tile_chroma[None, :, :]) ** 2).sum(axis=2))
        # a cell lighter than an example may be that tile washed out by glare (chroma gone): not counted
        washed = lab[:, None, 0] > looks.tile_lightness[None, :] + settings.ground_washed_l
        to_examples = np.where(washed, 0.0, to_examples)
        kinds = np.array(list(looks.tile_chroma_letters))
        ground = np.stack([to_examples[:, kinds == t].min(axis=1) for t in types], axis=1)
        gap = ground - ground.min(axis=1, keepdims=True) - settings.ground_gap
        # only a gray ground against a coloured type: tiles of any colour turn grayish under glare or a cast
        chroma = np.hypot(lab[:, 1], lab[:, 2])
        coloured = np.array([np.hypot(*looks.tile_chroma[kinds == t].T).min() for t in types])
        applies = (chroma[:, None] < settings.ground_gray) & (coloured[None, :] >= 2 * settings.ground_gray)
        ground_excess = np.where(applies, np.clip(gap / settings.ground_gap_ramp, 0.0, 1.0), 0.0)
    corr = np.array([[n[t] for t in types] for n in ncc], dtype=np.float64)  # 36 x types
    weak = np.clip((settings.weak_correlation - corr) / 0.15, 0.0, 1.0)
    weak_ground = np.clip((settings.ground_correlation - corr) / 0.15, 0.0, 1.0)
    gate = 1.0 - np.maximum(excess * weak, ground_excess * weak_ground)
    return [dict(zip(types, row, strict=True)) for row in gate.tolist()]


def _totals(
    dist: list[dict[str, float]],
    ncc: list[dict[str, float]],
    structured: np.ndarray,
    settings: ReaderSettings,
    colour_gate: list[dict[str, float]] | None = None,
) -> list[dict[str, float]]:
    """Per cell and reading: colour distance less weighted correlation (smaller is likelier).

    ``colour_gate`` (of :func:`colour_gates`) scales each reading's correlation evidence."""
    keys = list(dist[0])
    d = np.array([[row[k] for k in keys] for row in dist], dtype=np.float64)  # cells x readings
    corr = np.array([[n[k] for k in keys] for n in ncc], dtype=np.float64)
    gates = np.ones_like(d) if not colour_gate else np.array([[g.get(k, 1.0) for k in keys] for g in colour_gate])
    gate = np.asarray(structured, dtype=np.float64)[:, None] * gates
    if settings.sure_empty_correlation < 1.0:  # a strong match to its own empty print counts in full
        e = keys.index(EMPTY)
        sure = np.clip((corr[:, e] - settings.sure_empty_correlation) / 0.15 + 1.0, 0.0, 1.0)
        gate[:, e] = np.maximum(structured, sure)
    # correlations up to correlation_base are what any picture reaches against many looks: no evidence
    base = settings.correlation_base
    evidence = np.maximum(corr - base, 0.0) / (1.0 - base)
    total = d - settings.correlation_weight * gate * evidence
    return [dict(zip(keys, row, strict=True)) for row in total.tolist()]


def _decide(
    dist: list[dict[str, float]],
    ncc: list[dict[str, float]],
    structured: np.ndarray,
    settings: ReaderSettings,
    colour_gate: list[dict[str, float]] | None = None,
) -> tuple[list[str], list[float]]:
    """Each cell's best reading (smallest distance less weighted correlation) and its confidence."""
    letters, confidence = [], []
    for total in _totals(dist, ncc, structured, settings, colour_gate):
        ranked = sorted(total.items(), key=lambda kv: kv[1])
        letters.append(ranked[0][0])
        confidence.append(float(1.0 - math.exp(-(ranked[1][1] - ranked[0][1]) / settings.confidence_scale)))
    return letters, confidence


# ------------------------------------------------------------------------------------ the whole chain


def _sharpness(gray_board: np.ndarray) -> float:
    return float(np.mean(np.abs(cv2.Laplacian(gray_board.astype(np.float32), cv2.CV_32F))))


def _locate(
    work_bgr: np.ndarray,
    calibration: BoardCalibration | None,
    settings: ReaderSettings,
    candidates: Callable[[np.ndarray, ReaderSettings], list[np.ndarray]] = find_board_candidates,
) -> dict | None:
    """Find the cell area (and, with a calibration, north). Returns the best hypothesis or None."""
    h, w = work_bgr.shape[:2]
    f = min(1.0, settings.detect_long_side / max(h, w))
    detect_bgr = cv2.resize(work_bgr, (round(w * f), round(h * f)), interpolation=cv2.INTER_AREA) if f < 1 else work_bgr
    detect_gray = cv2.cvtColor(detect_bgr, cv2.COLOR_BGR2GRAY)
    best: dict | None = None
    tried: list[tuple[float, np.ndarray]] = []
    for quad in candidates(detect_bgr, settings):
        for cells in fit_cell_lattice(detect_gray, quad):
            if _aspect(cells) < settings.min_cell_aspect:
                continue  # a square board seen at most 35 degrees from above is never this squashed
            if calibration is None:
                score = _lattice_strength(detect_gray, cells)
                k, margin = 0, 1.0
            else:
                k, score, margin = orient_board(detect_gray, cells, calibration, settings)
                tried.append((score, cells))
            if best is None or score > best["score"]:
                best = {"cells": cells / f, "k": k, "score": score, "margin": margin}
        if calibration is not None and best is not None and best["score"] >= settings.sure_border_match:
            return best  # candidates come largest first: a clear match needs no rivals
    if calibration is None or not tried:
        return best
    # no clear match: the lattice may have locked onto a line of the border (a notch strip, a beach edge
    # the outline missed) and sit one cell off the cells; the best lattices' neighbours one cell over
    tried.sort(key=lambda t: -t[0])
    first = best["score"] if best is not None else 0.0
    for _, cells in tried[: settings.shifted_lattices]:
        back = np.linalg.inv(_canonical_h(cells, 1.0, 0.0))
        for dx, dy in ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)):
            moved = _apply(back, _square(SIZE) + np.array([dx, dy], dtype=np.float64))
            k, score, margin = orient_board(detect_gray, moved, calibration, settings)
            if best is None or score > best["score"]:
                best = {"cells": moved / f, "k": k, "score": score, "margin": margin}
    # and the best area's grid fitted again on a view of itself (little more than its cells): a skewed
    # outline gave it skewed lines
    around = _apply(np.linalg.inv(_canonical_h(best["cells"] * f, 1.0, 0.0)), _square(SIZE + 1.0, -0.5))
    for cells in fit_cell_lattice(detect_gray, around):
        k, score, margin = orient_board(detect_gray, cells, calibration, settings)
        if score > best["score"]:
            best = {"cells": cells / f, "k": k, "score": score, "margin": margin}
    if first < settings.min_border_match and best["score"] >= settings.climb_from:
        # found only one cell over or refitted, or nearly found: the area may still be skewed (one corner off
        # by most of a cell, too far for the refinements that follow): its corners moved to where the border
        # matches best (only here: on a board the outline found, it moved borderline cells of the dev photos
        # the wrong way). Climbing from below the board threshold must end in a clear match: anything
        # climbs a little on a table without a board
        cells = climb_border(detect_gray, best["cells"] * f, best["k"], calibration, settings)
        k, score, margin = orient_board(detect_gray, cells, calibration, settings)
        enough = best["score"] >= settings.min_border_match or score >= settings.climb_to
        if score > best["score"] and enough:
            best = {"cells": cells / f, "k": k, "score": score, "margin": margin}
    return best


def _find(work_bgr: np.ndarray, calibration: BoardCalibration | None, settings: ReaderSettings) -> dict | None:
    """:func:`_locate` on the usual outlines, then, when they give no board, on :func:`table_candidates`
    (``table_mask``): a board on a striped wood whose outline no edge or brightness mask closes around."""
    found = _locate(work_bgr, calibration, settings)
    enough = settings.min_border_match if calibration is not None else settings.min_lattice_strength
    if settings.table_mask and (found is None or found["score"] < enough):
        other = _locate(work_bgr, calibration, settings, table_candidates)
        if other is not None and (found is None or other["score"] > found["score"]):
            return other
    return found


def climb_border(
    gray: np.ndarray, cells: np.ndarray, k: int, calibration: BoardCalibration, settings: ReaderSettings = SETTINGS
) -> np.ndarray:
    """The cell area (image order) with its corners moved, in steps of ``climb_steps`` cells, as long as
    the border's correlation with the calibration's (board turned ``k``) rises."""
    c = settings.climb_cell_px
    size = int(round((SIZE + 2 * calibration.margin_cells) * c))
    mask = calibration.border_mask(c)
    key = ("climb", c)
    if key not in calibration._templates:
        t = _normalise_light(calibration.template_gray(c), c)[mask]
        t = t - t.mean()
        calibration._templates[key] = t / max(float(np.linalg.norm(t)), 1e-9)
    t = calibration._templates[key]
    back = np.linalg.inv(_canonical_h(cells, 1.0, 0.0))

    def score(moves: np.ndarray) -> float:
        quad = _apply(back, _square(SIZE) + moves)
        view = _warp(gray, _canonical_h(quad, c, calibration.margin_cells), size).astype(np.float32)
        v = np.rot90(_normalise_light(view, c), k)[mask]
        v = v - v.mean()
        return float(v @ t) / max(float(np.linalg.norm(v)), 1e-9)

    moves = np.zeros((4, 2))
    best = score(moves)
    for step in settings.climb_steps:
        for _ in range(settings.climb_rounds):
            trials = []
            for i in range(8):
                for sign in (-1.0, 1.0):
                    trial = moves.copy()
                    trial.flat[i] += sign * step
                    trials.append(trial)
            values = [score(m) for m in trials]
            j = int(np.argmax(values))
            if values[j] <= best + 1e-4:
                break
            best, moves = values[j], trials[j]
    return _apply(back, _square(SIZE) + moves)


def _lattice_strength(gray: np.ndarray, cells: np.ndarray) -> float:
    """How clearly a cell area shows its grid: every cell side, cell by cell, must be a line.

    Used to pick the board in the empty calibration photo. Checking each side of each cell (not whole
    lines) rejects a lattice shifted onto the border, whose outer column has no lines across it.
    """
    c = 16
    hh = _canonical_h(cells, c, 0.5)
    size = int(round((SIZE + 1) * c))
    view = _warp(gray, hh, size).astype(np.float32)
    gx = np.abs(cv2.Sobel(view, cv2.CV_32F, 1, 0, ksize=3))
    gy = np.abs(cv2.Sobel(view, cv2.CV_32F, 0, 1, ksize=3))
    o = c // 2
    lines = o + c * np.arange(SIZE + 1)
    on_at = lines[:, None] + np.arange(-1, 2)  # each line's three columns
    mid_at = o + c * np.arange(SIZE)[:, None] + c // 2 + np.arange(-2, 3)  # each cell's five middle columns
    ratios = []
    for grad, across in ((gx, False), (gy, True)):
        g = grad.T if across else grad  # lines run down the columns of g
        rows = np.stack([g[o + band * c + c // 5 : o + band * c + c - c // 5, :].mean(axis=0) for band in range(SIZE)])
        on = rows[:, on_at].max(axis=2)  # bands x lines (float32)
        mid = rows[:, mid_at].mean(axis=2)  # bands x cells (float32)
        near = np.concatenate([mid[:, :1], (mid[:, :-1] + mid[:, 1:]) / np.float32(2), mid[:, -1:]], axis=1)
        ratios.append((on / (near.astype(np.float64) + 1.0).astype(np.float32)).ravel())
    r = np.concatenate(ratios)
    # the per-cell loop this replaced, to the last bit: float32 ratios, the cap a float64 8 (which makes the
    # mean float64), the fourth smallest in float32 unless capped
    r = np.sort(np.minimum(r, np.float32(8.0)).astype(np.float64 if (r > 8.0).any() else np.float32))
    fourth = r[3] if r[3] >= 8.0 else np.float32(r[3])
    return float(np.mean(np.log1p(r)) + np.log1p(fourth))


def _board_homography(cells: np.ndarray, k: int, cell_px: int, margin_cells: float) -> np.ndarray:
    """Image -> rectified board in board coordinates (north up) for a cell area found with turn ``k``."""
    size = (SIZE + 2 * margin_cells) * cell_px
    return _rotation(k, size) @ _canonical_h(cells, cell_px, margin_cells)


def _grid_support(
    gray: np.ndarray, h_board: np.ndarray, cell_px: int, margin_cells: float, settings: ReaderSettings
) -> float:
    """Share of the cells' edge votes on the grid lines of a homography at ``cell_px`` (:func:`refine_grid`)."""
    g = settings.grid_cell_px
    size = int(round((SIZE + 2 * margin_cells) * g))
    m = int(round(margin_cells * g))
    votes = _grid_votes(_warp(gray, _scale(g / cell_px) @ h_board, size).astype(np.float32), g, m)
    return float(_grid_energy(np.zeros((1, 4, 2)), votes[0], g, m)[0])


def _refine_cells(
    gray: np.ndarray, h_board: np.ndarray, cell_px: int, margin_cells: float, settings: ReaderSettings
) -> np.ndarray:
    """:func:`refine_grid` for a homography at ``cell_px``, fitted at ``settings.grid_cell_px``."""
    g = settings.grid_cell_px
    refined = refine_grid(gray, _scale(g / cell_px) @ h_board, margin_cells, g, settings)[0]
    return _scale(cell_px / g) @ refined


def read_board(
    photo_bgr: np.ndarray, calibration: BoardCalibration, settings: ReaderSettings = SETTINGS
) -> BoardReading:
    """Read one photo: the grid in board coordinates, a confidence per cell and where north was."""
    photo_bgr = _check_photo(photo_bgr)
    work_bgr, scale = reduce_photo(photo_bgr, settings)
    work_gray = cv2.cvtColor(work_bgr, cv2.COLOR_BGR2GRAY)
    found = _find(work_bgr, calibration, settings)
    if found is None or found["score"] < settings.min_border_match:
        return BoardReading(False, reason="no board found in the photo", border_match=found["score"] if found else 0)
    if found["margin"] < settings.min_north_margin:
        return BoardReading(False, reason="board found but its north (corner bonus tile) is not clear")
    cells, k = found["cells"], found["k"]
    # cut off? the cell area plus a little border must be inside the photo
    hh, ww = work_gray.shape
    h_small = _canonical_h(cells, 1.0, 0.0)
    ring = _apply(np.linalg.inv(h_small), _square(SIZE + 2 * settings.cut_off_margin, -settings.cut_off_margin))
    if (ring[:, 0].min() < -1) or (ring[:, 1].min() < -1) or (ring[:, 0].max() > ww) or (ring[:, 1].max() > hh):
        return BoardReading(False, reason="the board is cut off at the edge of the photo")
    c = calibration.cell_px
    h_board = _board_homography(cells, k, 16, calibration.margin_cells)
    h_board, runaway = _ecc_alignment(work_gray, h_board, calibration, 16)
    h_board = _scale(c / 16) @ _refine_cells(work_gray, h_board, 16, calibration.margin_cells, settings)
    if runaway is not None and runaway[1] <= settings.rival_refine_move:
        # the outline may have missed a corner (in a cast shadow) that ECC found: both refined on the cells'
        # own grid, the rival kept only on clearly more support
        rival = _scale(c / 16) @ _refine_cells(work_gray, runaway[0], 16, calibration.margin_cells, settings)
        if _grid_support(work_gray, rival, c, calibration.margin_cells, settings) >= settings.rival_grid_gain + (
            _grid_support(work_gray, h_board, c, calibration.margin_cells, settings)
        ):
            h_board = rival
    size = int(round((SIZE + 2 * calibration.margin_cells) * c))
    board_bgr = _warp(work_bgr, h_board, size)
    board_gray = cv2.cvtColor(board_bgr, cv2.COLOR_BGR2GRAY)
    if calibration.sharpness > 0 and _sharpness(board_gray) < settings.max_blur_ratio * calibration.sharpness:
        return BoardReading(False, reason="the board is too blurred to read")
    if settings.min_grid_ratio > 0:
        cells_area = _square(SIZE * c, calibration.margin)
        if "lattice" not in calibration._templates:
            known_gray = cv2.cvtColor(calibration.known_bgr, cv2.COLOR_BGR2GRAY)
            calibration._templates["lattice"] = np.array(_lattice_strength(known_gray, cells_area))
        own = _lattice_strength(board_gray, cells_area)
        if own < settings.min_grid_ratio * float(calibration._templates["lattice"]):
            return BoardReading(False, reason="the board's cells could not be lined up: take another photo")
    letters, conf = classify_cells(board_bgr, calibration, settings)
    grid = ["".join(letters[r * SIZE : (r + 1) * SIZE]) for r in range(SIZE)]
    confidence = [[round(conf[r * SIZE + col], 3) for col in range(SIZE)] for r in range(SIZE)]
    low = [(r, col) for r in range(SIZE) for col in range(SIZE) if conf[r * SIZE + col] < settings.low_confidence]
    if len(low) > settings.max_unsure_fraction * SIZE * SIZE:
        return BoardReading(
            False, reason="no board clear enough to read: most cells are unsure", border_match=found["score"]
        )
    m = calibration.margin
    outline_board = _square(SIZE * c, m)  # NW, NE, SE, SW in board coordinates
    outline = _apply(np.linalg.inv(h_board), outline_board) / scale
    return BoardReading(
        True,
        grid=grid,
        confidence=confidence,
        north=NORTHS[k],
        low_confidence_cells=low,
        outline=[(float(x), float(y)) for x, y in outline],
        border_match=found["score"],
    )


def known_empty_distances(calibration: BoardCalibration) -> dict[tuple[int, int], float]:
    """For each cell the known layout says is empty (row, col): how far its mean colour in the known photo is
    from the empty photo's same cell (CIE76, after the two photos' overall change of light, per-channel gains
    taken as the median over these cells).
    About 0-2 when the known photo's cells are lined up with the empty photo's and the layout is the one
    laid out; a tile, or another cell's print, is far more."""
    cells = [(i // SIZE, i % SIZE) for i, ch in enumerate("".join(calibration.known_grid)) if ch == EMPTY]
    if not cells:
        return {}
    idx = [r * SIZE + col for r, col in cells]
    c, m = calibration.cell_px, calibration.margin
    known, empty = cell_means(calibration.known_bgr, c, m)[idx], cell_means(calibration.empty_bgr, c, m)[idx]
    gains = np.median((empty + 1.0) / (known + 1.0), axis=0)  # the light's change, channel by channel
    distances = np.linalg.norm(_lab(np.clip(known * gains, 0, 255)) - _lab(empty), axis=1)
    return {cell: float(d) for cell, d in zip(cells, distances, strict=True)}


def calibrate_board(
    empty_bgr: np.ndarray,
    known_bgr: np.ndarray,
    known_grid: list[str],
    side: str,
    settings: ReaderSettings = SETTINGS,
) -> BoardCalibration:
    """Learn a board print from an empty photo and a photo of ``known_grid`` (both with north up)."""
    if side not in SIDES:
        raise CalibrationError(f"unknown side {side!r}; sides are {', '.join(SIDES)}")
    known_grid = _check_grid(known_grid, "known board grid")
    letters = "".join(known_grid)
    missing = [t for t in "HSFPR" if letters.count(t) < 2]
    if missing:
        raise CalibrationError(
            f"known board: each of H S F P R must appear at least twice (short: {' '.join(missing)})"
        )
    c = settings.cell_px
    size = int(round((SIZE + 2 * settings.margin_cells) * c))
    empty_bgr = _check_photo(empty_bgr, "empty photo")
    known_bgr = _check_photo(known_bgr, "known photo")
    # the empty board: its grid lines are all visible, so the strongest lattice is the board
    work_bgr, _ = reduce_photo(empty_bgr, settings)
    found = _find(work_bgr, None, settings)
    if found is None or found["score"] < settings.min_lattice_strength:
        raise CalibrationError("empty photo: no board found")
    h_empty = _board_homography(found["cells"], 0, 16, settings.margin_cells)
    # its printed grid lines are all there to straighten the cells on
    h_empty = _refine_cells(cv2.cvtColor(work_bgr, cv2.COLOR_BGR2GRAY), h_empty, 16, settings.margin_cells, settings)
    empty_board = _warp(work_bgr, _scale(c / 16) @ h_empty, size)
    cal = BoardCalibration(side, known_grid, empty_board, empty_board.copy(), c, settings.margin_cells)
    # the known layout: found like any photo, against the empty board's border
    work_bgr, _ = reduce_photo(known_bgr, settings)
    found = _find(work_bgr, cal, settings)
    if found is None or found["score"] < settings.min_border_match:
        raise CalibrationError("known photo: no board found (or not the board of the empty photo)")
    if found["k"] != 0:
        raise CalibrationError(f"known photo: the board's north points {NORTHS[found['k']]}; it must point up")
    gray = cv2.cvtColor(work_bgr, cv2.COLOR_BGR2GRAY)
    h16 = refine_alignment(gray, _board_homography(found["cells"], 0, 16, settings.margin_cells), cal, 16)
    h16 = _refine_cells(gray, h16, 16, settings.margin_cells, settings)
    cal.known_bgr = _warp(work_bgr, _scale(c / 16) @ h16, size)
    far = {cell: d for cell, d in known_empty_distances(cal).items() if d > settings.known_empty_delta_e}
    if len(far) > settings.max_known_empty_share * max(1, "".join(known_grid).count(EMPTY)):
        where = ", ".join(f"row {r + 1} column {col + 1}" for r, col in sorted(far)[:4])
        raise CalibrationError(
            f"known photo: its empty cells do not match the empty photo's ({len(far)} unlike it: {where}); "
            "check the layout typed is the one laid out, and take the known photo again, the whole board in view"
        )
    cal.sharpness = _sharpness(cv2.cvtColor(empty_board, cv2.COLOR_BGR2GRAY))
    cal._looks = None
    cal._templates.clear()
    return cal


# ------------------------------------------------------------------------------------ command line


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m vision.board_reader calibrate EMPTY KNOWN KNOWN.json CAL.json | read PHOTO CAL.json``."""
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        if len(args) == 5 and args[0] == "calibrate":
            raw = json.loads(Path(args[3]).read_text(encoding="utf-8"))
            cal = calibrate_board(load_photo(args[1]), load_photo(args[2]), raw.get("grid"), raw.get("side"))
            cal.save(args[4])
            print(f"calibration written to {args[4]}")
            return 0
        if len(args) == 3 and args[0] == "read":
            reading = read_board(load_photo(args[1]), BoardCalibration.load(args[2]))
            print(json.dumps(reading.to_json()))
            return 0
    except (ValueError, OSError, AttributeError) as e:
        print(f"board_reader: {e}", file=sys.stderr)
        return 2
    print(main.__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
