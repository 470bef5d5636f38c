"""Last checks of the shaker reader on a settled lattice: are the cells taken for cubes the table itself?

:func:`vision.shaker.read_shaker` has settled a lattice and named nine cubes; these checks look again with
what the cell test (:func:`vision.shaker.verify_cells`) does not use, each a refusal (a reshake) when it
fires. An empty cell read as a gray or white cube, and a knocked-out cube's cell so read, were the biggest
group of misreads on fresh generated sets (s3030, s6060, s9090, s1313, s4545; checked on s777, s2727, s3838).

- :func:`table_cells`: the table under a cell darkened by *any* factor (a continuous shadow,
  :func:`shadow_fit`), not the few levels the cell test tries, explains the cell: a cube's cast shadow that
  only the stand-out exception took for a cube, or the table in full light like the gaps beside it.
- :func:`cloth_cells`: three or more weakly outlined cells whose colour is one of the table's own tones
  around the grid (:func:`tone_shares`): the lattice sits on a checked cloth's squares.
- :func:`off_the_lattice`: the cubes' top faces lie off their cells on the median: the lattice does not fit.
- :func:`knocked_beside_weak_cells`: a cube just beyond the grid beside a cell whose "cube" has no outline
  of its own and the table's colour: the cube knocked out of that cell.
- :func:`toned_open_cells`: one cell with no outline at all in a common table tone (a checked cloth's white
  check through an empty cell); :func:`knocked_beside_toned_cells`: a cube knocked out beside a weakly
  outlined cell of the table's own tones.
- :func:`shadow_fit_cells`: three cells the continuous shadow fit explains (the lattice on the cubes' cast
  shadows, finer than :func:`vision.shaker.on_shadows`), or explains loosely on a lattice stretched against its
  cubes' faces; :func:`open_table_cells`: a cell with next to no
  outline that the table in some shade explains; :func:`shadow_lines`: an outer row or column of cells the
  shadow fit explains, with cubes just beyond the grid's opposite side (the lattice one line off);
  :func:`knocked_beside_table_cells`: a cube standing out from the table just beyond the grid beside an
  outlined cell of about the table's colour (its cell, the table's print or shadow taken for a cube), unless it
  has a mate (:func:`line_mates`: a shape of its colour beside it on its line beyond the grid, in no cube's
  colour: a line of the cubes' cast shadows); :func:`cube_between_cells`: a shape standing out from the table
  inside the grid, off every cell, in a colour none of the cells beside it shows (a cube pushed off its cell);
  :func:`foreign_cells`: a cell far from every palette colour and like a gap beside it (a hand over the grid);
  :func:`box_contents`: every cube in the game's box, the most a pattern can show of each colour;
  :func:`lines_beyond`: a full line of cube-like points beyond the grid while the grid's far line shows no
  cubes' outlines (:func:`outlined_line`): the lattice a line off, moved or refused; :func:`full_lines_beyond`,
  :func:`nearer_the_table`: such a line beyond while the grid's far line lies much nearer the table (the cubes'
  hard cast shadows with outlines read as gray or black cubes), moved or refused too; :func:`nearer_the_palette`:
  such a line beyond nearer the palette than the grid's far line, which looks like the table (a gingham's
  outlined checks), moved onto when it holds outlined cubes that are no repeat of the table; and with a gain of its
  own (``beyond_face_gain``) for a line found only by its cubes' top faces off the lattice's points
  (:func:`vision.shaker.faces_beyond`), refused.
- :func:`faceless_toned_cells`: a cell in one of the table's own tones whose top face's four straight edges at
  the lattice's angle do not show (a checked cloth's or printed table's square in an empty or knocked-out cell).

And one look the other way, before them (:func:`with_faint_cubes`): :func:`faint_cubes`, a cell the cell test took
for the table that holds a cube of about the table's colour, its edges in the lattice's frame
(:func:`lattice_edge_maps`) like the verified cubes' and its colour a palette colour: read as a cube, then checked.
A colour only roughly the palette's needs a second cue to agree (:func:`bevel_lines`, :func:`bevel_like_the_cubes`:
the lamp's highlight on the top face's lit sides, where the cubes show theirs); a faint cube a last look takes for
the table stays when that cue agrees too (:func:`faint_cube_kept_by_its_bevel`).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any, NamedTuple

import cv2
import numpy as np

from .colour import lab8_to_lab, lab_to_linear_rgb, linear_rgb_to_lab


def shadow_fit(
    cell_linear: np.ndarray, table_linear: np.ndarray, gains: np.ndarray, shades: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """For each cell colour (n, 3 linear RGB) and the table under it (n, 3): the smallest CIE76 distance,
    in the light normalised by ``gains``, to the table darkened by one of ``shades`` (factors, fine
    steps), and that factor."""
    cell_lab = linear_rgb_to_lab(np.asarray(cell_linear, dtype=np.float64).reshape(-1, 3) * gains)
    table = np.asarray(table_linear, dtype=np.float64).reshape(-1, 3)
    family = linear_rgb_to_lab(table[:, None, :] * shades[None, :, None] * gains)  # (n, k, 3)
    d = np.linalg.norm(family - cell_lab[:, None, :], axis=2)
    best = d.argmin(1)
    return d[np.arange(len(d)), best], shades[best]


def table_cells(
    cell_tests: Sequence[Mapping[str, Any]],
    samples: Sequence[tuple[int, int, np.ndarray, np.ndarray | None]],
    gains: np.ndarray,
    table_linear: np.ndarray,
    settings: Any,
) -> list[tuple[int, int]]:
    """The cells (row, col) taken for cubes that are the table: the table under the cell, darkened by
    some factor (``table_fit_shades``), explains its colour (CIE76), and either

    - the cell is a cube only by :func:`vision.shaker.verify_cells`' stand-out exception (the table in
      some shadow explains it better than the palette by ``cell_table_margin``) and the fit is within
      ``table_shadow_delta_e``: the cubes' cast shadow on an empty cell, lit gaps around it (fresh sets:
      such empty cells fit within 0.5-0.9, the one real cube so taken 1.6, a black cube of the dev set 1.07),
      the factor at least ``table_shadow_min_shade`` (a cast shadow darkens the table to about half at most; a
      gray cube on a light table is that table at about a third);
    - or the factor is about one (``table_lit_shade``: the table in full light), the cell's colour within
      ``table_lit_gap`` of a gap beside it and the fit within ``table_lit_delta_e``: an empty cell on a
      light table read as white or gray (fits 0.5-1.3; no accepted real cube so on the fresh sets).

    Each test's ``d_shadow`` and ``shade`` are recorded in ``cell_tests`` (they are the debug output's).
    """
    present = [i for i, s in enumerate(samples) if s[3] is not None]
    if not present:
        return []
    lo, hi, step = settings.table_fit_shades
    shades = np.arange(lo, hi + 1e-9, step)
    cells = np.array([samples[i][3] for i in present])
    d_fit, shade = shadow_fit(cells, np.asarray(table_linear)[present], gains, shades)
    by_cell = {
        (int(samples[i][0]), int(samples[i][1])): (float(d_fit[j]), float(shade[j])) for j, i in enumerate(present)
    }
    out = []
    for t in cell_tests:
        key = (int(t["row"]), int(t["col"]))
        if not t.get("cube") or key not in by_cell or (settings.face_vouches and t.get("face")):
            continue  # (a cube by its top face's edges: see face_vouches)
        d, s = by_cell[key]
        if isinstance(t, dict):
            t["d_shadow"], t["shade"] = round(d, 2), round(s, 2)
        only_stand_out = float(t["d_table"]) + settings.cell_table_margin < float(t["d_palette"])
        lit_like_its_gaps = s >= settings.table_lit_shade and float(t["d_gap"]) < settings.table_lit_gap
        cast = only_stand_out and d < settings.table_shadow_delta_e and s >= settings.table_shadow_min_shade
        if cast or (lit_like_its_gaps and d < settings.table_lit_delta_e):
            out.append(key)
    return out


def ring_points(grid: Any, inner: float, outer: float, step: float) -> np.ndarray:
    """Frame points (m, 2) on a lattice of ``step`` cells around the grid, from ``inner`` to ``outer``
    cells beyond its outer cells' centres, in every direction."""
    u, v = _ring_coords(float(inner), float(outer), float(step))
    return np.asarray(grid.origin) + u * np.asarray(grid.col_step) + v * np.asarray(grid.row_step)


@functools.lru_cache(maxsize=16)
def _ring_coords(inner: float, outer: float, step: float) -> tuple[np.ndarray, np.ndarray]:
    """:func:`ring_points`' lattice coordinates (columns (m, 1) of u and v), made once per ring: the same for
    every grid (read-only: the cache's own)."""
    coords = np.arange(-outer, 2 + outer + 1e-9, step)
    u, v = np.meshgrid(coords, coords)
    u, v = u.ravel(), v.ravel()
    beyond = np.maximum(np.maximum(-u, u - 2), np.maximum(-v, v - 2))
    u, v = u[beyond >= inner][:, None], v[beyond >= inner][:, None]
    u.flags.writeable = v.flags.writeable = False
    return u, v


def ring_pixels(work_lab8: np.ndarray, scale: float, grid: Any, settings: Any) -> np.ndarray:
    """The table's points around the grid (``cloth_ring_points``) that lie in the frame: single pixels of the working
    copy (8-bit Lab, ``work_lab8``), as CIELAB (m, 3)."""
    h, w = work_lab8.shape[:2]
    p = np.rint((ring_points(grid, *settings.cloth_ring_points) + 0.5) / scale - 0.5).astype(int)
    p = p[(p[:, 0] >= 0) & (p[:, 0] < w) & (p[:, 1] >= 0) & (p[:, 1] < h)]
    return lab8_to_lab(work_lab8[p[:, 1], p[:, 0]])


def tone_shares(work_lab8: np.ndarray, scale: float, grid: Any, points: np.ndarray, settings: Any) -> np.ndarray:
    """For frame points (n, 2): the share of the table's points around the grid (``cloth_ring_points``, single
    pixels of the working copy, 8-bit Lab) within ``cloth_delta_e`` (CIE76) of the median colour of each
    point's sampling disk there (n,); zeros when no table point is in the frame."""
    around = ring_pixels(work_lab8, scale, grid, settings)
    points = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    if len(around) == 0:
        return np.zeros(len(points))
    cells = disk_colours(work_lab8, scale, grid, points, settings)
    near = np.linalg.norm(around[None, :, :] - cells[:, None, :], axis=2) <= settings.cloth_delta_e
    return near.mean(axis=1)


def table_chroma_spread(work_lab8: np.ndarray, scale: float, grid: Any, settings: Any) -> float:
    """How far the table's points around the grid (``cloth_ring_points``, single pixels of the working copy) differ
    in chromaticity, whatever their light: the linear RGB shares of red and of green, each one's spread from its
    10th to its 90th percentile, summed, in percent. A plain table in any light, with the cubes' shadows and a stray
    or two on it, stays within about 4 (the game's plain tables' 95th percentile); a print's colours run wider
    (printed tables' 5th percentile about 5.5). inf when no table point is in the frame."""
    around = ring_pixels(work_lab8, scale, grid, settings)
    if len(around) == 0:
        return math.inf
    lin = np.maximum(lab_to_linear_rgb(around), 0.0)
    shares = lin[:, :2] / np.maximum(lin.sum(1, keepdims=True), 1e-6)
    lo, hi = np.percentile(shares, [10, 90], axis=0)
    return float((hi - lo).sum()) * 100.0


def disk_colours(work_lab8: np.ndarray, scale: float, grid: Any, points: np.ndarray, settings: Any) -> np.ndarray:
    """The CIELAB median (n, 3) of each frame point's sampling disk (``sample_radius`` pitches) on the working
    copy (8-bit Lab, ``work_lab8``), every point's disk at once."""
    h, w = work_lab8.shape[:2]
    points = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    rad = max(1.0, settings.sample_radius * grid.pitch / scale)
    oy, ox = _disk_offsets(rad)
    c = np.rint((points + 0.5) / scale - 0.5).astype(int)
    # (np.minimum / np.maximum: np.clip's overhead shows on these short arrays; the same integers)
    ys = np.minimum(np.maximum(c[:, 1:2] + oy, 0), h - 1)  # (n, disk)
    xs = np.minimum(np.maximum(c[:, 0:1] + ox, 0), w - 1)
    # each channel's median of 8-bit values: sorted as integers, the middle one (an odd count) or the mean of the
    # middle two (an even one), each exact in float64: np.median's numbers, without its overhead
    vals = np.sort(work_lab8[ys, xs], axis=1)  # (n, disk, 3)
    m = vals.shape[1]
    if m % 2:
        med = vals[:, m // 2].astype(np.float64)
    else:
        med = (vals[:, m // 2 - 1].astype(np.float64) + vals[:, m // 2]) / 2
    return lab8_to_lab(med)


def _disk_offsets(rad: float) -> tuple[np.ndarray, np.ndarray]:
    """:func:`disk_colours`' pixel offsets (y, x) within ``rad`` of a point, row by row (the square's offsets
    made once per whole radius: np.mgrid's overhead shows)."""
    oy, ox, d2 = _square_offsets(int(np.ceil(rad)))
    disk = d2 <= rad * rad
    return oy[disk], ox[disk]


@functools.lru_cache(maxsize=64)
def _square_offsets(r_i: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The offsets (y, x) of the square of half-side ``r_i`` and their squared lengths (read-only: the cache's)."""
    oy, ox = np.mgrid[-r_i : r_i + 1, -r_i : r_i + 1]
    d2 = oy * oy + ox * ox
    for a in (oy, ox, d2):
        a.flags.writeable = False
    return oy, ox, d2


def cloth_cells(
    cell_tests: Sequence[dict[str, Any]],
    grid: Any,
    work_lab8: np.ndarray,
    scale: float,
    settings: Any,
) -> list[tuple[int, int]]:
    """The cube cells (row, col) with a weak outline (``ring`` below ``cloth_ring``) whose colour is one of
    the table's own colours around the grid: a checked cloth's square or a printed mat's patch, or a cube
    of just that colour. Three or more (``cloth_cells``) in one lattice: it sits on the cloth's checks. A cell
    the table model itself explains (``d_table`` below ``cloth_min_table``: a black cube on a plain dark table)
    is not counted: the table's plain colour is :func:`table_cells`' to judge, a cloth's other squares are not it.

    The table is sampled at single pixels of the working copy (8-bit Lab, ``work_lab8``) on a lattice of
    points around the grid (``cloth_ring_points``: from, to and step, in cells beyond the grid's outer
    cells); a cell's colour is the median of its sampling disk there. Its tone share: the part of those
    points within ``cloth_delta_e`` (CIE76); a cell with at least ``cloth_share`` is counted. Each weak
    cell's share is recorded in its test as ``tone`` (the debug output's).
    """
    weak = [
        t
        for t in cell_tests
        if t.get("cube")
        and float(t.get("ring", np.inf)) < settings.cloth_ring
        and float(t.get("d_table", np.inf)) >= settings.cloth_min_table
    ]
    if len(weak) < settings.cloth_cells:
        return []
    shares = tone_shares(work_lab8, scale, grid, np.array([grid.centre(t["row"], t["col"]) for t in weak]), settings)
    out = []
    for t, share in zip(weak, shares, strict=True):
        t["tone"] = round(float(share), 3)
        if share >= settings.cloth_share:
            out.append((int(t["row"]), int(t["col"])))
    return out


def on_an_edge(cell_test: Mapping[str, Any], settings: Any) -> bool:
    """Whether a cell taken for a cube was sampled beside one, not on its face. Two ways show it:

    - no outline found, its colour the table's in some shadow (``d_table`` under ``edge_cell_delta_e``) and more
      edges inside the cell than around it (``ring`` under ``edge_cell_ring``): a cube's cast shadow or side beside
      its face (s2222 0478, a red cube's cast shadow read black; s777 0261, red read gray);
    - about the table's colour (``d_table`` at most ``table_same_delta_e``, in any shadow) with its top face
      ``table_face_max_offset`` pitches or more from the cell's centre (``offset``), however well outlined: the
      table beside a cube, outlined by the cube's edge (a lattice off the cubes at a corner: s45002 0124, a gray
      cube's cell sampled on a pale blue table and named white), or the table in an empty cell, its "face" the
      table running off. A cube whose own colour is the table's (white on white) has its face at its cell.
    """
    if not cell_test.get("cube"):
        return False
    d_table = float(cell_test.get("d_table", math.inf))
    if (
        not cell_test.get("outline")
        and d_table < settings.edge_cell_delta_e
        and float(cell_test.get("ring", math.inf)) < settings.edge_cell_ring
    ):
        return True
    offset = float(cell_test.get("offset", 0.0))
    return d_table <= settings.table_same_delta_e and offset >= settings.table_face_max_offset


def cells_on_an_edge(cell_tests: Sequence[Mapping[str, Any]], settings: Any) -> list[tuple[int, int]]:
    """The cube cells (row, col) sampled beside a cube, not on its face (:func:`on_an_edge`)."""
    return [(int(t["row"]), int(t["col"])) for t in cell_tests if on_an_edge(t, settings)]


def off_the_lattice(cell_tests: Sequence[Mapping[str, Any]], settings: Any) -> bool:
    """Whether the cubes' top faces sit, on the median, farther than ``max_median_offset`` (pitches) from
    their cells' centres: the lattice does not fit the cubes (a row stretched onto their cast shadows, a cell
    of shadow or table between real cubes). A shake's cubes are jittered by about 0.05 pitches; one cube
    knocked out of line moves one offset, not the median (that is ``max_offset``'s business)."""
    offsets = sorted(float(t["offset"]) for t in cell_tests if t.get("cube") and "offset" in t)
    if not offsets:
        return False
    # (np.median's number without its overhead: the middle one, or the mean of the middle two)
    mid = len(offsets) // 2
    median = offsets[mid] if len(offsets) % 2 else (offsets[mid - 1] + offsets[mid]) / 2
    return median > settings.max_median_offset


def slid_weak_line(
    cell_tests: Sequence[Mapping[str, Any]], shear_of: Callable[[], float | None], settings: Any
) -> bool:
    """Whether the lattice has a line (row or column) with ``slid_line_cells`` or more cube cells that show no outline
    of their own and lie within ``slid_line_max_table`` (``d_table``) of the table in some shadow, and is sheared
    against its cubes' top faces by ``slid_line_shear`` or more either way (``shear_of()``:
    :func:`vision.shaker.lattice_face_shear`, asked only when such a line is found): a line slid along itself off its
    cubes, onto the table, the shadows and the side faces beside them, the fit taking the slide up as shear (44003
    0408: a white cube on a gingham unfound, the bottom row's cells on the gaps and shadows beside its cubes, read
    black where the white one lies). A camera's tilt shears the faces with the lattice: black cubes on a dark table,
    unoutlined, on a lattice sheared by the view alone are not refused. ``slid_line_shear`` inf: off."""
    if settings.slid_line_shear == math.inf:
        return False
    weak = {
        (int(t["row"]), int(t["col"]))
        for t in cell_tests
        if t.get("cube") and not t.get("outline") and float(t["d_table"]) < settings.slid_line_max_table
    }
    if len(weak) < settings.slid_line_cells:
        return False
    line = any(
        sum((i, j) in weak for j in range(3)) >= settings.slid_line_cells
        or sum((j, i) in weak for j in range(3)) >= settings.slid_line_cells
        for i in range(3)
    )
    if not line:
        return False
    shear = shear_of()
    return shear is not None and abs(shear) >= settings.slid_line_shear


class GridSurroundings(NamedTuple):
    """What the checks for a cube knocked out of line look at around a read grid."""

    grid: Any
    pool: Sequence[Any]  # the cube candidates of the grid's size and the sizes beside it
    frame_bgr: np.ndarray
    gains: np.ndarray  # the grid's light (per-channel gains on linear RGB)
    palette_lab: np.ndarray
    sample_fn: Any  # (frame_bgr, xy, radius) -> the linear colour of a top face there
    work_lab8: np.ndarray  # the reduced working copy, 8-bit Lab
    scale: float  # frame pixels per working pixel
    table_fn: Any = None  # frame points -> the table model's linear colours under them


def cube_sample_radius(pitch: float, radius: float, settings: Any) -> float:
    """The disk (frame pixels) a cube's top face is sampled in: ``sample_radius`` of the lattice's ``pitch``, at most
    three quarters of its candidate's inscribed ``radius`` (``math.inf`` for a point with no candidate: the
    lattice's disk alone), at least 1.5 pixels."""
    return max(1.5, min(settings.sample_radius * pitch, 0.75 * radius))


def knocked_beside_weak_cells(
    cell_tests: Sequence[Mapping[str, Any]], surroundings: GridSurroundings, settings: Any
) -> list[tuple[float, float]]:
    """Cubes knocked out of line beside a cell whose "cube" has no outline of its own (``ring`` below
    ``knocked_weak_ring``) and a colour not far from the table's (``d_table`` below ``knocked_weak_table``:
    a cloth's check lies within its tones' blend, a red, green or blue cube does not): the table's print or
    a shadow there, the cube that left it lies outside. A
    cube-like candidate of ``pool`` beyond the grid's outer cells (``knocked_beyond``, cells), between
    ``knocked_reach`` (from, to; pitches) of such a cell, at least ``knocked_clear`` pitches from every other
    cube cell, whose colour (in the grid's light) is within ``stray_strict_delta_e`` of a palette colour and
    not one of the table's own colours around the grid (:func:`tone_shares` below ``cloth_share``: a light
    table or a cloth's white check is near the palette's white). :func:`vision.shaker.out_of_line_cubes`
    counts the weak cell as a cube and so misses it."""
    grid, pool, frame_bgr, gains, palette_lab, sample_fn, work_lab8, scale, _ = surroundings
    weak = [
        (int(t["row"]), int(t["col"]))
        for t in cell_tests
        if t.get("cube")
        and float(t["ring"]) < settings.knocked_weak_ring
        and float(t["d_table"]) < settings.knocked_weak_table
    ]
    if not weak:
        return []
    pitch = grid.pitch
    centre = {(r, c): np.asarray(grid.centre(r, c), dtype=np.float64) for r in range(3) for c in range(3)}
    others = [
        centre[(int(t["row"]), int(t["col"]))]
        for t in cell_tests
        if t.get("cube") and (int(t["row"]), int(t["col"])) not in weak
    ]
    weak_xy = np.array([centre[k] for k in weak])
    others_xy = np.array(others).reshape(-1, 2)
    lo, hi = settings.knocked_reach
    found: list[tuple[float, float]] = []
    for cands in pool:
        if len(cands.xy) == 0:
            continue
        xy = np.asarray(cands.xy, dtype=np.float64)
        cc = grid.lattice_coords(xy)
        beyond = np.maximum(np.maximum(-cc, cc - 2), 0).max(1)
        d_weak = np.linalg.norm(xy[:, None, :] - weak_xy[None], axis=2).min(1) / pitch
        d_other = (
            np.linalg.norm(xy[:, None, :] - others_xy[None], axis=2).min(1) / pitch
            if len(others_xy)
            else np.full(len(xy), np.inf)
        )
        near = (
            (beyond >= settings.knocked_beyond) & (d_weak >= lo) & (d_weak <= hi) & (d_other >= settings.knocked_clear)
        )
        for k in np.nonzero(near)[0]:
            p = xy[k]
            if any(np.hypot(p[0] - q[0], p[1] - q[1]) < 0.5 * pitch for q in found):
                continue
            rad = cube_sample_radius(pitch, float(cands.radius[k]), settings)
            lab = linear_rgb_to_lab(sample_fn(frame_bgr, p, rad) * gains)
            if np.sqrt(((palette_lab - lab) ** 2).sum(1)).min() > settings.stray_strict_delta_e:
                continue
            if tone_shares(work_lab8, scale, grid, p, settings)[0] < settings.cloth_share:
                found.append((float(p[0]), float(p[1])))
    return found


def toned_open_cells(
    cell_tests: Sequence[dict[str, Any]],
    grid: Any,
    work_lab8: np.ndarray,
    scale: float,
    settings: Any,
) -> list[tuple[int, int]]:
    """The cube cells (row, col) with no outline at all (``ring`` below ``toned_ring``: more edges inside the
    cell than around it) whose colour is one of the table's own tones around the grid, shared by at least
    ``toned_share`` of its points (:func:`tone_shares`): one check of a checked cloth showing through an empty
    cell (a white check read as a white cube). :func:`cloth_cells` needs three such cells at a lower share;
    one is enough when it has no outline and the tone is this common. Each such cell's share is recorded in
    its test as ``tone``."""
    open_cells = [t for t in cell_tests if t.get("cube") and float(t.get("ring", np.inf)) < settings.toned_ring]
    if not open_cells:
        return []
    points = np.array([grid.centre(t["row"], t["col"]) for t in open_cells])
    shares = tone_shares(work_lab8, scale, grid, points, settings)
    out = []
    for t, share in zip(open_cells, shares, strict=True):
        t["tone"] = round(float(share), 3)
        if share >= settings.toned_share:
            out.append((int(t["row"]), int(t["col"])))
    return out


def knocked_beside_toned_cells(
    cell_tests: Sequence[Mapping[str, Any]], surroundings: GridSurroundings, settings: Any
) -> list[tuple[float, float]]:
    """:func:`knocked_beside_weak_cells` beside a cell whose outline is weak but not absent (``ring`` below
    ``knocked_toned_ring``) when its colour is one of the table's own tones around the grid (:func:`tone_shares`
    at least ``cloth_share``): a checked cloth's white check in the knocked cube's cell, its outline the
    check's own edges. Cubes knocked out beside such cells were accepted on fresh gingham sets (s8101 0401:
    ring 0.07; s8104 0260: ring 0.2); real cubes so weak and of the table's tones are few (a white cube on a
    light table, ring 0.12 in 1788 accepted frames), and a cube knocked out beside one is needed too."""
    grid, work_lab8, scale = surroundings.grid, surroundings.work_lab8, surroundings.scale
    weak = [
        t
        for t in cell_tests
        if t.get("cube")
        and settings.knocked_weak_ring <= float(t["ring"]) < settings.knocked_toned_ring
        and float(t["d_table"]) < settings.knocked_weak_table
    ]
    if not weak:
        return []
    shares = tone_shares(work_lab8, scale, grid, np.array([grid.centre(t["row"], t["col"]) for t in weak]), settings)
    toned = {(int(t["row"]), int(t["col"])) for t, s in zip(weak, shares, strict=True) if s >= settings.cloth_share}
    if not toned:
        return []
    # the toned cells as the weak cells of knocked_beside_weak_cells (no outline), every other cell outlined
    view = [dict(t, ring=-np.inf if (int(t["row"]), int(t["col"])) in toned else np.inf) for t in cell_tests]
    return knocked_beside_weak_cells(view, surroundings, settings)


def shadow_fit_cells(
    cell_tests: Sequence[Mapping[str, Any]], settings: Any, stretch: float | None = None
) -> list[tuple[int, int]]:
    """The cube cells (row, col) whose colour the table under them darkened by some factor explains within
    ``shadow_fit_delta_e`` (the continuous fit :func:`table_cells` records as ``d_shadow``, CIE76), when there
    are ``shadow_fit_cells`` or more: the lattice a row over on the cubes' cast shadows, as
    :func:`vision.shaker.on_shadows` says from the cell test's few shadow levels, which can miss the fit by a
    few tenths (s8102 0097: a row of three shadows at 0.5-0.7 here, 0.8-1.2 there). On the fresh sets
    s8101-s8105 no accepted complete pattern had three cells within 2.0. Or those within the looser
    ``shadow_fit_wide_delta_e`` when there are ``shadow_fit_wide_cells`` or more: a lattice stretched onto long
    shadows, whose cells catch the shadows' ends and the table between (s33301 0156). Or, given the lattice's
    ``stretch`` against its cubes' faces (:func:`vision.shaker.lattice_face_mismatch`) of ``shadow_fit_stretch``
    or more either way, ``shadow_fit_cells`` within ``shadow_fit_stretched_delta_e``: a lattice squashed across
    its cubes so that a line falls on the shadows between two of theirs (s49006 0296)."""
    fits = [(int(t["row"]), int(t["col"]), float(t.get("d_shadow", np.inf))) for t in cell_tests if t.get("cube")]
    tiers = [
        (settings.shadow_fit_cells, settings.shadow_fit_delta_e),
        (settings.shadow_fit_wide_cells, settings.shadow_fit_wide_delta_e),
    ]
    if stretch is not None and abs(stretch) >= settings.shadow_fit_stretch:
        tiers.append((settings.shadow_fit_cells, settings.shadow_fit_stretched_delta_e))
    for count, delta_e in tiers:
        near = [(r, c) for r, c, d in fits if d < delta_e]
        if len(near) >= count:
            return near
    return []


def open_table_cells(cell_tests: Sequence[Mapping[str, Any]], settings: Any) -> list[tuple[int, int]]:
    """The cube cells (row, col) with next to no outline (``ring`` below ``open_table_ring``) whose colour the
    table under them darkened by some factor explains within ``open_table_delta_e`` (``d_shadow``, recorded by
    :func:`table_cells`, CIE76): an empty cell, or a knocked-out cube's, read as a gray cube on a light table or a
    cloth (s8103 0141: ring -0.06 at 0.84; s8102 0263: ring 0.1 at 0.33). :func:`table_cells` asks more of such a
    cell's neighbours (a lit gap like it, or the stand-out exception); this asks the cell for an outline. On
    s8101-s8105 the real cubes the fit explains this well had rings from 0.24 up (gray cubes on light tables)."""
    return [
        (int(t["row"]), int(t["col"]))
        for t in cell_tests
        if t.get("cube")
        and float(t.get("ring", np.inf)) < settings.open_table_ring
        and float(t.get("d_shadow", np.inf)) < settings.open_table_delta_e
    ]


# best_window's 5 x 5 lattice points (row, col; the grid's cells at 1..3) just beyond each side of the grid, the
# grid's own line opposite that side, the grid's line on that side, and the move (rows, columns) that takes the
# grid's window onto the points beyond (its line on that side then the points beyond, its opposite line left out)
_SIDES_BEYOND = (
    (((0, 1), (0, 2), (0, 3)), ((2, 0), (2, 1), (2, 2)), ((0, 0), (0, 1), (0, 2)), (-1, 0)),
    (((4, 1), (4, 2), (4, 3)), ((0, 0), (0, 1), (0, 2)), ((2, 0), (2, 1), (2, 2)), (1, 0)),
    (((1, 0), (2, 0), (3, 0)), ((0, 2), (1, 2), (2, 2)), ((0, 0), (1, 0), (2, 0)), (0, -1)),
    (((1, 4), (2, 4), (3, 4)), ((0, 0), (1, 0), (2, 0)), ((0, 2), (1, 2), (2, 2)), (0, 1)),
)


def shadow_lines(
    cell_tests: Sequence[Mapping[str, Any]], settings: Any, around: np.ndarray | None = None
) -> list[tuple[tuple[int, int], ...]]:
    """The grid's outer rows or columns whose three cube cells the table under them darkened by some factor
    explains within ``shadow_line_delta_e`` (``d_shadow``, recorded by :func:`table_cells`, CIE76): the cubes'
    crisp cast shadows, flat squares of darkened table a pitch beside the cubes, read as a line of gray cubes,
    the lattice one line off and the pattern's last line left outside (s5252 0390, s6464 0115: the windows'
    scores tied, or the gray cube beyond not counted). With ``around`` (best_window's 5 x 5 lattice points that
    look like cubes, the grid's cells at 1..3), only the lines with at least ``shadow_line_beyond`` such points
    just beyond the grid's opposite side: where the left-out line lies. A line of real gray cubes on a table
    of their gray has nothing beyond it."""
    if settings.shadow_line_delta_e <= 0:
        return []

    def shadow(t: Mapping[str, Any]) -> bool:
        return bool(t.get("cube")) and float(t.get("d_shadow", np.inf)) < settings.shadow_line_delta_e

    return _outer_lines(cell_tests, shadow, around, settings.shadow_line_beyond)


def _outer_lines(
    cell_tests: Sequence[Mapping[str, Any]],
    cell_is: Callable[[Mapping[str, Any]], bool],
    around: np.ndarray | None,
    beyond_min: int,
) -> list[tuple[tuple[int, int], ...]]:
    """The grid's outer rows or columns whose three cells' tests each satisfy ``cell_is``; with ``around``
    (best_window's 5 x 5 lattice points that look like cubes, the grid's cells at 1..3), only those with at least
    ``beyond_min`` such points just beyond the grid's opposite side (:func:`shadow_lines`,
    :func:`off_palette_lines`)."""
    tests = {(int(t["row"]), int(t["col"])): t for t in cell_tests}
    out = []
    for beyond, line, _, _ in _SIDES_BEYOND:
        if not all(k in tests and cell_is(tests[k]) for k in line):
            continue
        if around is not None and sum(bool(around[k]) for k in beyond) < beyond_min:
            continue
        out.append(line)
    return out


def off_palette_lines(
    cell_tests: Sequence[Mapping[str, Any]], settings: Any, around: np.ndarray | None = None
) -> list[tuple[tuple[int, int], ...]]:
    """The grid's outer rows or columns whose three cube cells are each at least ``palette_line_delta_e`` from
    every palette colour (``d_palette``, CIE76) and within ``palette_line_table`` of the table in some shade
    (``d_table``): no line of cubes but the cubes' cast shadows on a patterned table (a gingham's checks in
    shadow do not fit a darkened table, so :func:`shadow_lines` misses them), read as black and gray cubes with
    outlines, the lattice one line off and the pattern's real line left outside (t41013 0434). With ``around``
    (best_window's 5 x 5 lattice points that look like cubes, the grid's cells at 1..3), only the lines with at
    least ``palette_line_beyond`` such points just beyond the grid's opposite side: where the left-out line
    lies. Real cubes' lines are near the palette: on 11137 exact readings no outer line's nearest cell was
    farther than 7.8, and within 30 of the table than 6.6. ``palette_line_delta_e`` inf: none (off)."""
    if not np.isfinite(settings.palette_line_delta_e):
        return []

    def off_palette(t: Mapping[str, Any]) -> bool:
        return (
            bool(t.get("cube"))
            and float(t.get("d_palette", 0.0)) >= settings.palette_line_delta_e
            and float(t.get("d_table", np.inf)) <= settings.palette_line_table
        )

    return _outer_lines(cell_tests, off_palette, around, settings.palette_line_beyond)


def faceless_line(cell_tests: Sequence[Mapping[str, Any]]) -> bool:
    """Whether an outer line of the grid (its first or last row or column) holds three cubes none of which shows a
    top face at its point (``extent`` 0: no region of one colour holds it, an edge runs through it). A line of
    pieces shows their faces; a lattice a line off onto a puzzle cube's side face samples between its squashed
    pieces."""
    return bool(_outer_lines(cell_tests, lambda t: bool(t.get("cube")) and float(t.get("extent", 1.0)) <= 0.0, None, 0))


def spotless_table_cells(cell_tests: Sequence[Mapping[str, Any]], settings: Any) -> list[tuple[int, int]]:
    """The cube cells (row, col) with no top face at their point and a colour of the table: the reading found no
    region of one colour around the cube point (``extent`` 0: the point's colour differs from its own small spot's,
    an edge or texture runs through it) and the table in some shade explains the cell's colour within
    ``spotless_table_delta_e`` (``d_table``, CIE76). A cube's top face is a flat square of one colour; a cell left
    empty shows the table, and where a print's line or a checked cloth's edge crosses the cell's point the colour
    there is the table's, outlined by the print, with no face (t41003 0048, t41025 0192). A cube whose face went
    unfound for its noise keeps its own colour, far from the table's. ``spotless_table_delta_e`` 0: none (off)."""
    if settings.spotless_table_delta_e <= 0:
        return []
    return [
        (int(t["row"]), int(t["col"]))
        for t in cell_tests
        if t.get("cube")
        and "extent" in t
        and float(t["extent"]) <= 0.0
        and float(t.get("d_table", np.inf)) < settings.spotless_table_delta_e
    ]


def knocked_beside_table_cells(
    cell_tests: Sequence[Mapping[str, Any]],
    surroundings: GridSurroundings,
    settings: Any,
    tint: Callable[[], np.ndarray | None] | None = None,
) -> list[tuple[float, float]]:
    """:func:`knocked_beside_weak_cells` beside a cell however well outlined whose colour the table in some
    shadow explains within ``knocked_near_table`` (``d_table``, CIE76), or beside a weakly outlined cell (``ring``
    below ``knocked_light_ring``) lighter than the table (the shadow fit's factor ``shade`` at least
    ``knocked_light_shade``: a gingham's white check in the knocked cube's cell, s6363 0096 0176 0195 0244), when
    the cube-like shape beyond it stands out from the table (its candidate ``contrast``, the table difference over
    the finder's threshold, at least ``knocked_contrast``): the cube knocked out of that cell, its cell read as a
    cube from the table's print, a shadow or the cube's own side (i7171 0099, 0208, 0412, 0463: rings 0.03-0.54 at
    d_table 4-14, the cubes beyond at contrast 3.7-9.3 where a shadow or a cloth's check beside a grid measures
    0.5-2), the cell it is nearest of all. Given ``table_fn`` (frame points -> the table model's linear colours
    under them), not a shape the table under it darkened by some factor (``table_fit_shades``) explains within
    ``knocked_shadow_delta_e``: the cubes' crisp cast shadows on a light table, a pitch beside gray cubes of the
    table's colour, fit within 0.8-2.0 (s6363 0255, s6464 0323), the knocked cubes above from 8.8. Given ``tint``
    (called only then: the frame's shadows' tint against the lit table, linear RGB, or None: as
    :func:`vision.shaker_cube_look.shadow_tint` learns it), nor one that table tinted so and darkened by some factor
    (``knocked_tint_shades``) explains within ``knocked_tint_delta_e``: a cast shadow lit by a second lamp of
    another colour."""
    if settings.knocked_near_table <= 0:
        return []
    grid, frame_bgr, gains, sample_fn, table_fn = (
        surroundings.grid,
        surroundings.frame_bgr,
        surroundings.gains,
        surroundings.sample_fn,
        surroundings.table_fn,
    )
    near = {
        (int(t["row"]), int(t["col"]))
        for t in cell_tests
        if t.get("cube")
        and (
            float(t["d_table"]) < settings.knocked_near_table
            or (
                float(t.get("shade", 0.0)) >= settings.knocked_light_shade
                and float(t["ring"]) < settings.knocked_light_ring
            )
        )
    }
    if not near:
        return []
    # the near cells as knocked_beside_weak_cells' weak cells, every other cell outlined; only the shapes that
    # stand out from the table
    view = [dict(t, ring=-np.inf if (int(t["row"]), int(t["col"])) in near else np.inf) for t in cell_tests]
    strong = []
    for cands in surroundings.pool:
        keep = np.asarray(cands.contrast) >= settings.knocked_contrast
        strength = None if cands.strength is None else cands.strength[keep]
        strong.append(
            replace(
                cands, xy=cands.xy[keep], radius=cands.radius[keep], contrast=cands.contrast[keep], strength=strength
            )
        )
    found = knocked_beside_weak_cells(view, surroundings._replace(pool=strong), settings)
    # ...and nearer that cell than any other (a cube is knocked away from the grid: a stray shape beyond a real
    # cube of the table's colour, nearer another cell, is not the cube of it)
    centres = np.array([grid.centre(r, c) for r in range(3) for c in range(3)], dtype=np.float64)
    nearest = [int(np.hypot(*(centres - np.asarray(p)).T).argmin()) for p in found]
    found = [p for p, k in zip(found, nearest, strict=True) if divmod(k, 3) in near]
    if found and table_fn is not None:  # ...and not the table under it darkened (a cube's crisp cast shadow)
        xy = np.array(found, dtype=np.float64)
        rad = cube_sample_radius(grid.pitch, math.inf, settings)
        colours = np.array([sample_fn(frame_bgr, p, rad) for p in xy])
        lo, hi, step = settings.table_fit_shades
        table_xy = table_fn(xy)
        d_fit, _ = shadow_fit(colours, table_xy, gains, np.arange(lo, hi + 1e-9, step))
        keep = d_fit >= settings.knocked_shadow_delta_e
        if keep.any() and tint is not None and settings.knocked_tint_delta_e > 0:
            g = tint()
            if g is not None:
                lo, hi, step = settings.knocked_tint_shades
                d_tint, _ = shadow_fit(colours, table_xy * g, gains, np.arange(lo, hi + 1e-9, step))
                keep &= d_tint >= settings.knocked_tint_delta_e
        found = [p for p, k in zip(found, keep.tolist(), strict=True) if k]
    if found and settings.knocked_line_mates:  # ...and not one of a line of cast shadows
        found = [p for p in found if not line_mates(p, surroundings, settings)]
    return found


def cube_between_cells(
    cands: Any, cubes: Sequence[Any], surroundings: GridSurroundings, settings: Any
) -> tuple[float, float] | None:
    """A cube inside the grid that the lattice does not hold: a candidate of the grid's size (``cands``) on no
    cell, standing out from the table (``contrast`` at least ``between_contrast``), at least ``between_offset``
    pitches from every cell's centre, whose colour (sampled as a cube's, in the grid's light) lies at least
    ``between_delta_e`` (CIE76) from every read cube of the cells it lies between (those less than a pitch from
    it along both of the lattice's axes). Its point, or None. A cube pushed a third of a pitch along its column
    leaves its cell to its cast shadow, read as a gray cube (63004 0025: a red cube 0.42 pitches below its cell,
    contrast 36.2, 74 from the two gray cells it lies between); a second candidate of a cube read in its own
    cell lies within 23 of that cube's colour, the cast shadows and gaps a third of a pitch off stand out less
    (contrast up to 21)."""
    if settings.between_contrast == math.inf or len(cands.xy) == 0:
        return None
    grid = surroundings.grid
    taken = {int(k) for row in grid.cell_candidate for k in row if k >= 0}
    qs = grid.lattice_coords(cands.xy)
    read = {(c.row, c.col): np.asarray(c.lab, dtype=np.float64) for c in cubes if c.colour and c.lab is not None}
    pitch = grid.pitch
    for k in np.nonzero(np.asarray(cands.contrast) >= settings.between_contrast)[0]:
        col, row = (float(v) for v in qs[k])
        if int(k) in taken or not (-0.5 <= col <= 2.5 and -0.5 <= row <= 2.5):
            continue
        off = math.hypot(col - round(min(2.0, max(0.0, col))), row - round(min(2.0, max(0.0, row))))
        between = [lab for (r, c), lab in read.items() if abs(col - c) < 1 and abs(row - r) < 1]
        if off < settings.between_offset or not between:
            continue
        rad = cube_sample_radius(pitch, float(cands.radius[k]), settings)
        colour = surroundings.sample_fn(surroundings.frame_bgr, cands.xy[k], rad) * surroundings.gains
        lab = linear_rgb_to_lab(colour)
        if min(float(np.linalg.norm(lab - other)) for other in between) >= settings.between_delta_e:
            return float(cands.xy[k][0]), float(cands.xy[k][1])
    return None


def line_mates(point: Any, surroundings: GridSurroundings, settings: Any) -> bool:
    """Whether a cube-like shape beyond the grid at ``point`` has a mate: another cube-like shape (any
    candidate of the pool) within ``line_mate_tolerance`` pitches of a lattice point beside its own on the
    same outer line, in about its colour (``line_mate_delta_e``, CIE76 in the grid's light), the shape itself no
    cube's colour (at least ``line_mate_min_palette`` from every palette colour).

    The cubes of a grid's outer line cast their shadows beside the grid all in the light's one direction: cube-like
    patches of one colour side by side on the next line out, which a shadow fit to a printed, checked or grained
    table's model can miss. On the 45 tuning sets (40 and hU/hV's 5), the shapes that refused complete patterns
    so (sh4848 0210, sh50505 0122, s8686 0204, sh90919 0062, u24680 0176, ...) had mates 0.8-4.1 from their
    colour, 0.6-1.1 pitches away, and were 6.7-11.2 from the palette; a knocked-out cube is a cube's colour and lies
    alone. The shapes of incomplete frames with such a mate (16: a gingham's checks around a lattice on its print,
    shadows) left every one of those frames refused by its other checks. The mate is another shape, at least
    ``line_mate_min_apart`` pitches from the shape (its own candidate of another size can lie near a point beside
    it). Two cubes of one colour side by side beyond a lattice a line off are mates too, in a palette colour: the
    shape itself must be none (s8282 0072)."""
    grid, frame_bgr, gains = surroundings.grid, surroundings.frame_bgr, surroundings.gains
    sample_fn = surroundings.sample_fn
    cc = np.rint(grid.lattice_coords(point)).astype(int)
    beside = []
    for axis in (0, 1):  # along a line of lattice points beyond the grid (cc[axis] outside 0..2): the next ones
        if not 0 <= cc[axis] <= 2:
            for step in (-1, 1):
                q = cc.copy()
                q[1 - axis] += step
                beside.append(q)
    if not beside or settings.line_mate_delta_e <= 0:
        return False
    lattice = np.array([grid.origin + q[0] * grid.col_step + q[1] * grid.row_step for q in beside], dtype=np.float64)
    rad = cube_sample_radius(grid.pitch, math.inf, settings)
    own = linear_rgb_to_lab(sample_fn(frame_bgr, np.asarray(point, dtype=np.float64), rad) * gains)
    if np.sqrt(((surroundings.palette_lab - own) ** 2).sum(1)).min() < settings.line_mate_min_palette:
        return False  # (a cube's own colour: two cubes of one colour side by side beyond a lattice a line off)
    for cands in surroundings.pool:
        if len(cands.xy) == 0:
            continue
        xy = np.asarray(cands.xy, dtype=np.float64).reshape(-1, 2)
        d = np.linalg.norm(xy[:, None, :] - lattice[None], axis=2).min(1) / grid.pitch
        apart = np.linalg.norm(xy - np.asarray(point, dtype=np.float64), axis=1) / grid.pitch
        # (another shape: not the shape's own candidate of another size, which can lie near a point beside it)
        for k in np.nonzero((d <= settings.line_mate_tolerance) & (apart >= settings.line_mate_min_apart))[0]:
            lab = linear_rgb_to_lab(sample_fn(frame_bgr, xy[k], rad) * gains)
            if float(np.linalg.norm(lab - own)) < settings.line_mate_delta_e:
                return True
    return False


def foreign_cells(cell_tests: Sequence[Mapping[str, Any]], settings: Any) -> list[tuple[int, int]]:
    """The cube cells (row, col) whose colour is far from every palette colour (``d_palette`` at least
    ``foreign_delta_e``, CIE76 in the cubes' light) and near one of the gaps beside it (``d_gap`` below
    ``foreign_gap``): no cube but something lying across cells and gaps alike, a hand over the grid (s6363 0099:
    three cells of skin at 20.8 from the palette, 0.3-3.9 from a gap, read as gray cubes). The real cubes of
    the accepted patterns measured came within 17.5 of a palette colour, those beyond 12 at least 7 from every gap.
    With ``foreign_needs_gaps``, only where the grid's gaps show: the other cube cells' median ``d_gap`` at least
    ``foreign_gap`` (on stickers with tight gaps every cell is like its gaps, and a highlight moves a sticker's
    colour off the palette: no hand)."""
    if settings.foreign_delta_e <= 0:
        return []
    out = [
        (int(t["row"]), int(t["col"]))
        for t in cell_tests
        if t.get("cube")
        and float(t["d_palette"]) >= settings.foreign_delta_e
        and float(t["d_gap"]) < settings.foreign_gap
    ]
    if out and settings.foreign_needs_gaps:
        # (the grid's gaps must show elsewhere: where every cube is like its gaps, tight gaps, being so says nothing)
        others = [float(t["d_gap"]) for t in cell_tests if t.get("cube") and (int(t["row"]), int(t["col"])) not in out]
        if not others or float(np.median(others)) < settings.foreign_gap:
            return []
    return out


def box_contents() -> dict[str, int]:
    """Every cube in the game's box, colour -> count (the rules' components, the wild white cubes too): no shake
    shows more of a colour, whatever the shaker holds. A reading that does is the table's print or a cloth's
    checks taken for cubes (s5353 0194: a gingham's dark checks read as eight black cubes; the box holds six)."""
    from scoring.shake_that_city.catalogue import components

    box = components()
    return {**box.cubes, box.wild_colour: box.white_cubes}


def outlined_line(
    cell_tests: Sequence[Mapping[str, Any]], line: Sequence[tuple[int, int]], settings: Any, most: bool = False
) -> bool:
    """Whether ``line``'s cells show a line of cubes' outlines: their ``ring`` (verify_cells', 0 for a cell with
    no cube or no outline found, negative rings as 0) at least ``beyond_line_ring`` on the mean (a black cube on
    a dark table among them), or with ``most`` in most of its cells (the median: a line to move the grid onto,
    where one crisp cube beside two gingham checks with no outline is no line of cubes, s9494 0316, while one
    black cube on a dark check with none beside two crisp cubes is, s3737 0493). Not the table's print or the
    cubes' cast shadows."""
    tests = {(int(t["row"]), int(t["col"])): t for t in cell_tests}
    rings = [
        max(0.0, float(tests[k].get("ring", 0.0)))
        if k in tests and tests[k].get("cube") and tests[k].get("outline")
        else 0.0
        for k in line
    ]
    if not rings:
        return False
    if most:
        return sorted(rings)[len(rings) // 2] >= settings.beyond_line_ring
    return sum(rings) / len(rings) >= settings.beyond_line_ring


def lines_beyond(
    cell_tests: Sequence[Mapping[str, Any]], around: np.ndarray, settings: Any
) -> list[tuple[tuple[int, int], tuple[tuple[int, int], ...]]]:
    """The sides of the grid with a full line of three cube-like lattice points just beyond them (``around``:
    best_window's 5 x 5 points that look like cubes, the grid's cells at 1..3) while the grid's line opposite
    that side is not crisply outlined (:func:`outlined_line`): twelve cube-like points in a 4 x 3 block, and
    nothing says the grid's far line holds cubes rather than the line beyond (a gingham's checks or the cubes'
    cast shadows taken for cubes, the pattern's last line left outside: the lattice a line off). Each as the
    move (rows, columns) onto the line beyond and the grid's line it would leave out. ``beyond_line_ring``
    0.0 or less: none (off)."""
    if settings.beyond_line_ring <= 0:
        return []
    return [
        (move, opposite)
        for move, opposite, _ in full_lines_beyond(around)
        if not outlined_line(cell_tests, opposite, settings)
    ]


# best_window's 5 x 5 lattice points just around the grid (its cells are the 3 x 3 at rows and columns 1..3)
_AROUND_WINDOW = tuple(k for k in range(25) if not (1 <= k // 5 <= 3 and 1 <= k % 5 <= 3))


def print_beyond_cells(
    cell_tests: Sequence[Mapping[str, Any]],
    grid: Any,
    around: np.ndarray,
    work_lab8: np.ndarray,
    scale: float,
    settings: Any,
) -> list[tuple[int, int]]:
    """The cube cells (row, col) whose colour at least ``print_points`` of the cube-like lattice points just
    around the grid share (``around``: best_window's 5 x 5 points that look like cubes, the grid's cells at
    1..3; colours: :func:`disk_colours`, within ``print_delta_e``, CIE76): the table's print continuing the
    lattice beyond the grid (a gingham's light checks, crisply outlined, read as white cubes with the pattern
    beside them, s50505 0302). A shake's cubes end at the grid: ``print_cells`` or more such cells, and the
    lattice is the table's. ``print_cells`` 0: none (off)."""
    if settings.print_cells <= 0:
        return []
    cubes = [(int(t["row"]), int(t["col"])) for t in cell_tests if t.get("cube")]
    flat = np.asarray(around, dtype=bool).ravel()
    beyond = [k for k in _AROUND_WINDOW if flat[k]]
    if len(cubes) < settings.print_cells or len(beyond) < settings.print_points:
        return []
    cells = disk_colours(work_lab8, scale, grid, np.array([grid.centre(r, c) for r, c in cubes]), settings)
    points = disk_colours(
        work_lab8, scale, grid, np.array([grid.centre(k // 5 - 1, k % 5 - 1) for k in beyond]), settings
    )
    shared = (np.linalg.norm(cells[:, None, :] - points[None, :, :], axis=2) <= settings.print_delta_e).sum(1)
    return [rc for rc, n in zip(cubes, shared, strict=True) if n >= settings.print_points]


def incoming_line(move: tuple[int, int]) -> tuple[tuple[int, int], ...]:
    """The grid's line that holds the points beyond once its window is moved by ``move`` (a side's)."""
    return next(side for _, _, side, m in _SIDES_BEYOND if m == move)


def full_lines_beyond(
    around: np.ndarray,
) -> list[tuple[tuple[int, int], tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]]:
    """The sides of the grid with a full line of three cube-like lattice points just beyond them (``around``:
    best_window's 5 x 5 points that look like cubes, the grid's cells at 1..3), whatever the grid's own cells:
    each as the move (rows, columns) onto that line, the grid's line it would leave out and the grid's line that
    holds the points beyond once moved."""
    return [
        (move, opposite, side) for beyond, opposite, side, move in _SIDES_BEYOND if all(bool(around[k]) for k in beyond)
    ]


def nearer_the_table(
    far_tests: Sequence[Mapping[str, Any]],
    far: Sequence[tuple[int, int]],
    beyond_tests: Sequence[Mapping[str, Any]],
    beyond: Sequence[tuple[int, int]],
    settings: Any,
) -> bool:
    """Whether the grid's line ``far`` (its cells in ``far_tests``) lies much nearer the table than the line of
    points just beyond the opposite side (``beyond``: those cells in ``beyond_tests``, the window moved onto them):
    the median of the far line's ``d_table`` (verify_cells', the table in any of its shadow levels, CIE76) at least
    ``beyond_table_gain`` below the line beyond's. The cubes' hard cast shadows and the lit table between them, read
    as gray or black cubes with outlines, a line of colours far from the table beyond them: the lattice a line off.
    A line of real dark cubes on a dark table beside a line of their own shadows gains nothing.
    ``beyond_table_gain`` 0.0 or less: never (off)."""
    if settings.beyond_table_gain <= 0:
        return False
    return line_median(far_tests, far, "d_table") + settings.beyond_table_gain <= line_median(
        beyond_tests, beyond, "d_table"
    )


def line_median(
    tests: Sequence[Mapping[str, Any]], line: Sequence[tuple[int, int]], key: str, missing: float = 0.0
) -> float:
    """The median of the cell tests' ``key`` over ``line``'s cells (row, col); ``missing`` for a cell without it."""
    d = {(int(t["row"]), int(t["col"])): float(t.get(key, missing)) for t in tests}
    return sorted(d.get(k, missing) for k in line)[len(line) // 2]


def nearer_the_palette(
    far_tests: Sequence[Mapping[str, Any]],
    far: Sequence[tuple[int, int]],
    beyond_tests: Sequence[Mapping[str, Any]],
    beyond: Sequence[tuple[int, int]],
    settings: Any,
    gain: float | None = None,
) -> bool:
    """Whether the grid's line ``far`` (its cells in ``far_tests``) looks like the table and the line of points just
    beyond the opposite side (``beyond``: those cells in ``beyond_tests``, the window moved onto them) like the
    pieces: the far line's median ``d_table`` (verify_cells', CIE76) at most ``beyond_palette_far_table`` and its
    median ``d_palette`` at least ``gain`` (``beyond_palette_gain`` unless given) above the line beyond's. A
    gingham's checks about the cubes' size, outlined by their print, taken for a line of cubes, the pattern's last
    line left outside (61002 0323: far line 10.1 from the table, 8.8 from the palette, the line beyond 4.0). A gain
    of 0.0 or less: never (off)."""
    gain = settings.beyond_palette_gain if gain is None else gain
    if gain <= 0:
        return False
    return (
        table_like_line(far_tests, far, settings)
        and line_median(far_tests, far, "d_palette", math.inf)
        >= line_median(beyond_tests, beyond, "d_palette", math.inf) + gain
    )


def table_like_line(tests: Sequence[Mapping[str, Any]], line: Sequence[tuple[int, int]], settings: Any) -> bool:
    """Whether the grid's ``line`` (its cells in ``tests``) lies near the table: its median ``d_table`` at most
    ``beyond_palette_far_table`` (a far line :func:`nearer_the_palette` can find the table's)."""
    return line_median(tests, line, "d_table", math.inf) <= settings.beyond_palette_far_table


def faceless_toned_cells(
    cell_tests: Sequence[dict[str, Any]],
    grid: Any,
    work_lab8: np.ndarray,
    scale: float,
    face_snr: Callable[[np.ndarray], np.ndarray],
    settings: Any,
) -> list[tuple[int, int]]:
    """The cube cells (row, col) whose colour is one of the table's own tones around the grid, shared by at
    least ``faceless_share`` of its points (:func:`tone_shares`), and whose top face's four edges do not show:
    ``face_snr`` (:func:`vision.shaker.face_edges`' snr at the cells' centres: the weakest side's step against
    the largest step inside the face) below ``faceless_snr``. A checked cloth's or a printed table's square in
    an empty cell (or a knocked-out cube's) is outlined by the print's own edges, which run at the table's
    angle, not the lattice's, and end where the print does; a real cube's face ends in four straight edges at
    the lattice's angle. Only cells nearer the table than ``faceless_max_table`` (``d_table``) and the gaps beside
    them than ``faceless_max_gap`` (``d_gap``) are asked (every such cell of the tuning sets was). Each such cell's
    share and snr are recorded in its test (``tone``, ``centre_face_snr``). ``faceless_share`` above 1: off."""
    if settings.faceless_share > 1:
        return []
    # (only cells whose colour is near the table's and its gaps' are asked: a print's square is of the table)
    cubes = [
        t
        for t in cell_tests
        if t.get("cube")
        and float(t.get("d_gap", 0.0)) < settings.faceless_max_gap
        and float(t.get("d_table", 0.0)) < settings.faceless_max_table
    ]
    if not cubes:
        return []
    points = np.array([grid.centre(t["row"], t["col"]) for t in cubes])
    shares = tone_shares(work_lab8, scale, grid, points, settings)
    toned = shares >= settings.faceless_share
    if not toned.any():
        return []
    snr = face_snr(points[toned])
    out = []
    for t, share, s in zip([t for t, k in zip(cubes, toned, strict=True) if k], shares[toned], snr, strict=True):
        t["tone"], t["centre_face_snr"] = round(float(share), 3), round(float(s), 2)
        if s < settings.faceless_snr:
            out.append((int(t["row"]), int(t["col"])))
    return out


def faceless_kept_on_plain(
    cell_tests: Sequence[Mapping[str, Any]],
    cells: Sequence[tuple[int, int]],
    plain: Callable[[], bool],
    settings: Any,
) -> list[tuple[int, int]]:
    """``cells`` (row, col) that :func:`faceless_toned_cells` took for the table, less those that on a plain table
    no light of the table explains and whose top face's edges show at least faintly: ``d_shadow`` (:func:`table_cells`'
    fit, the table model under the cell darkened or lit by any factor, CIE76) at least ``faceless_plain_shadow`` and
    ``centre_face_snr`` at least ``faceless_plain_snr``. A plain table has no print; its empty cells are the table
    itself, lit or in a neighbour's shadow, which that fit explains: a cube of about its colour (a gray cube on a
    light table, a black one on a dark table) is its own pigment, which no light of the table is. ``plain()``, asked
    only for such a cell: the table is one colour around the grid (:func:`vision.shaker.table_is_plain` and
    :func:`table_chroma_spread` at most ``faceless_plain_chroma``); on a print the model is the print's median, not
    the colour under the cell (an empty cell on a printed mat fits 4.6-11). ``faceless_plain_shadow`` inf: off."""
    if settings.faceless_plain_shadow == math.inf:
        return list(cells)
    kept = {
        (r, c)
        for r, c in cells
        if float(cell_tests[r * 3 + c].get("d_shadow", 0.0)) >= settings.faceless_plain_shadow
        and float(cell_tests[r * 3 + c].get("centre_face_snr", 0.0)) >= settings.faceless_plain_snr
    }
    if not kept or not plain():
        return list(cells)
    return [rc for rc in cells if rc not in kept]


def lattice_edge_maps(frame_bgr: np.ndarray, grid: Any, settings: Any) -> np.ndarray:
    """Each cell's edge map in the lattice's own frame (9, k * k), row by row, unit length: the frame's log
    linear lightness resampled on a square of points around the cell's centre (``faint_half_span`` pitches each
    way, ``faint_step`` apart, so turn and tilt are undone), its gradient magnitude smoothed a little and capped at
    ``faint_edge_cap`` (a cube's colour edge and a faint cube's side face or bevel count alike: the edges' layout
    is compared, not their contrast)."""
    pitch = float(grid.pitch)
    offs = np.arange(-settings.faint_half_span, settings.faint_half_span + 1e-9, settings.faint_step)
    uu, vv = np.meshgrid(offs, offs)  # (column offset, row offset)
    cells = np.array([grid.centre(r, c) for r in range(3) for c in range(3)], dtype=np.float64)
    pts = (
        cells[:, None, None, :]
        + uu[None, :, :, None] * np.asarray(grid.col_step)
        + vv[None, :, :, None] * np.asarray(grid.row_step)
    )  # (9, k, k, 2) frame px
    crop = _lightness_around(frame_bgr, pts, max(2.0, 0.1 * pitch))
    if crop is None:
        return np.zeros((9, uu.size))
    lum, corner = crop
    k = max(1, round(settings.faint_blur * pitch))
    lum = cv2.blur(lum, (2 * k + 1, 2 * k + 1))
    k_n = len(offs)
    flat = pts.reshape(9 * k_n, k_n, 2) - corner
    sampled = cv2.remap(
        lum,
        flat[..., 0].astype(np.float32),
        flat[..., 1].astype(np.float32),
        cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    )
    logs = np.log(np.maximum(sampled, 1e-4)).reshape(9, k_n, k_n)
    gx = np.zeros_like(logs)
    gy = np.zeros_like(logs)
    gx[:, :, 1:-1] = logs[:, :, 2:] - logs[:, :, :-2]
    gy[:, 1:-1] = logs[:, 2:] - logs[:, :-2]
    mag = np.sqrt(gx**2 + gy**2)
    mag = np.array([cv2.GaussianBlur(m, (3, 3), 0.8) for m in mag])
    maps = np.minimum(mag, settings.faint_edge_cap).reshape(9, -1)
    return maps / (np.linalg.norm(maps, axis=1, keepdims=True) + 1e-9)


def _lightness_around(frame_bgr: np.ndarray, pts: np.ndarray, pad: float) -> tuple[np.ndarray, np.ndarray] | None:
    """The frame's linear lightness (float32, sRGB taken as gamma 2.2) over the box around ``pts`` (frame px, last
    axis x, y) grown by ``pad`` px and clipped to the frame, with the box's top-left corner (x, y) to resample it
    at ``pts - corner``; None when the box is under 2 px either way."""
    h, w = frame_bgr.shape[:2]
    x0 = int(max(0, np.floor(pts[..., 0].min() - pad)))
    y0 = int(max(0, np.floor(pts[..., 1].min() - pad)))
    x1 = int(min(w, np.ceil(pts[..., 0].max() + pad) + 1))
    y1 = int(min(h, np.ceil(pts[..., 1].max() + pad) + 1))
    if x1 - x0 < 2 or y1 - y0 < 2:
        return None
    crop = frame_bgr[y0:y1, x0:x1].astype(np.float32) * np.float32(1 / 255)
    lin = crop**2.2
    return lin[..., 0] * 0.0722 + lin[..., 1] * 0.7152 + lin[..., 2] * 0.2126, np.array([x0, y0])


def faint_cubes(frame_bgr: np.ndarray, grid: Any, cell_tests: Sequence[Mapping[str, Any]], settings: Any) -> list[int]:
    """The cells (indices row by row) the cell test refused that hold a faint cube: a cube of about the table's
    colour (a black cube on a dark table, white on a light one, gray on gray), whose top face the cell test cannot
    tell from the table.

    Asked only when every other cell is a cube and at most ``faint_max_cells`` cells are refused, each with
    ``d_table`` below ``faint_max_d_table`` and ``d_palette`` at most ``faint_max_d_palette``. The frame's own
    verified cubes are the model of a cube here: the cell's edge map in the lattice's frame
    (:func:`lattice_edge_maps`: the top face's outline against its side faces, its bevel, its cast shadow's edge,
    the gaps) must match every verified cube's by at least ``faint_min_similarity`` (cosine) and the median one's
    by ``faint_median_similarity``: an empty cell shows the table's print or a neighbour's shadow, edges in another
    layout. Each asked cell's test gets its ``faint_similarity`` (lowest, median), for the debug output. With
    ``faint_bevel`` a cell's ``d_palette`` may reach ``faint_bevel_max_d_palette`` when its bevel lines are the
    cubes' too (:func:`bevel_like_the_cubes`): two cues agreeing where the colour alone is no palette colour.
    """
    if not settings.faint_cubes:
        return []
    refused = [i for i, t in enumerate(cell_tests) if not t["cube"]]
    if not refused or len(refused) > settings.faint_max_cells or len(cell_tests) != 9:
        return []
    max_d_palette = settings.faint_max_d_palette
    if settings.faint_bevel:
        max_d_palette = max(max_d_palette, settings.faint_bevel_max_d_palette)
    for i in refused:
        t = cell_tests[i]
        if float(t["d_table"]) >= settings.faint_max_d_table or float(t["d_palette"]) > max_d_palette:
            return []
    maps = lattice_edge_maps(frame_bgr, grid, settings)
    cubes = [i for i in range(9) if i not in refused]
    bevels = None
    out = []
    for i, s in zip(refused, maps[refused] @ maps[cubes].T, strict=True):  # (cosines with each verified cube)
        if not _edges_like_the_cubes(cell_tests[i], s, settings):
            continue
        if float(cell_tests[i]["d_palette"]) > settings.faint_max_d_palette:  # (colour off: the bevel must agree)
            bevels = bevel_lines(frame_bgr, grid, settings) if bevels is None else bevels
            if not bevel_like_the_cubes(cell_tests[i], bevels[i], bevels[cubes], settings):
                continue
        out.append(i)
    return out


def _edges_like_the_cubes(test: Mapping[str, Any], cosines: np.ndarray, settings: Any) -> bool:
    """Whether a cell's edge map matches the verified cubes' (its ``cosines`` with each): by
    ``faint_min_similarity`` each and ``faint_median_similarity`` their median; noted in the cell's test as
    ``faint_similarity`` (lowest, median), for the debug output."""
    lowest, median = float(cosines.min()), float(np.median(cosines))
    if isinstance(test, dict):
        test["faint_similarity"] = [round(lowest, 2), round(median, 2)]
    return lowest >= settings.faint_min_similarity and median >= settings.faint_median_similarity


def faint_cubes_kept(
    frame_bgr: np.ndarray,
    grid: Any,
    cell_tests: Sequence[Mapping[str, Any]],
    cells: Sequence[tuple[int, int]],
    settings: Any,
) -> list[tuple[int, int]]:
    """``cells`` (row, col) that a last look (:func:`table_cells`, :func:`open_table_cells`) takes for the table,
    less a faint cube among them: when it is the only one, the other eight are cubes, its colour lies within
    ``faint_max_d_palette`` of the palette and its edge map matches theirs as :func:`faint_cubes` asks (a black
    cube on a dark table that the cell test passed, whose colour the table in shade explains). With
    ``faint_kept_bevel``, a colour beyond that but within ``faint_bevel_max_d_palette`` when its bevel lines are the
    cubes' too (:func:`bevel_like_the_cubes`), as :func:`faint_cubes` reads such a cell. Not when a cell of the
    pattern is already ``faint`` (read by :func:`faint_cubes`, or kept by another look): one faint cube a pattern;
    the kept cell is marked ``faint``."""
    if not settings.faint_cubes_kept or len(cells) != 1 or len(cell_tests) != 9:
        return list(cells)
    i = cells[0][0] * 3 + cells[0][1]
    if cell_tests[i].get("faint") and settings.faint_bevel_kept:
        return faint_cube_kept_by_its_bevel(frame_bgr, grid, cell_tests, i, list(cells), settings)
    off_palette = (
        settings.faint_kept_bevel
        and settings.faint_bevel
        and settings.faint_max_d_palette < float(cell_tests[i]["d_palette"]) <= settings.faint_bevel_max_d_palette
    )
    limit = settings.faint_bevel_max_d_palette if off_palette else settings.faint_max_d_palette
    others = faint_like_the_cubes(frame_bgr, grid, cell_tests, i, settings, limit)
    if others is None:
        return list(cells)
    if off_palette and not _bevel_is_the_cubes(frame_bgr, grid, cell_tests, i, others, settings):
        return list(cells)
    if isinstance(cell_tests[i], dict):
        cell_tests[i]["faint"] = True
    return []


def faint_like_the_cubes(
    frame_bgr: np.ndarray,
    grid: Any,
    cell_tests: Sequence[Mapping[str, Any]],
    i: int,
    settings: Any,
    max_d_palette: float | None = None,
) -> list[int] | None:
    """The other eight cells (indices) when cell ``i`` may be the pattern's one faint cube by colour and edges:
    they are all cubes, no cell is ``faint`` yet (one faint cube a pattern, as :func:`faint_cubes` reads: another
    look may have kept one), its colour lies within ``max_d_palette`` (``faint_max_d_palette`` unless given) of the
    palette and its edge map matches theirs as :func:`faint_cubes` asks; None otherwise."""
    others = [j for j, t in enumerate(cell_tests) if j != i and t["cube"]]
    if len(others) != 8 or any(t.get("faint") for t in cell_tests):
        return None
    limit = settings.faint_max_d_palette if max_d_palette is None else max_d_palette
    if float(cell_tests[i]["d_palette"]) > limit:
        return None
    maps = lattice_edge_maps(frame_bgr, grid, settings)
    return others if _edges_like_the_cubes(cell_tests[i], maps[others] @ maps[i], settings) else None


def with_faint_cubes(
    frame_bgr: np.ndarray, grid: Any, cands: Any, cell_tests: Sequence[dict[str, Any]], settings: Any
) -> tuple[Any, Any]:
    """The grid and candidates with :func:`faint_cubes`' cells made cubes: a candidate at each such cell's centre
    (the verified cubes' median size and contrast), its cell test marked ``cube`` and ``faint`` (its colour is then
    read and checked as any cube's). Unchanged when there are none."""
    faint = faint_cubes(frame_bgr, grid, cell_tests, settings)
    if not faint:
        return grid, cands
    return cubes_made_at(grid, cands, cell_tests, faint, "faint")


def cubes_made_at(
    grid: Any, cands: Any, cell_tests: Sequence[dict[str, Any]], cells: Sequence[int], mark: str
) -> tuple[Any, Any]:
    """The grid and candidates with each of ``cells`` (indices row by row) made a cube: a candidate at the cell's
    centre (the verified cubes' median size and contrast), its cell test marked ``cube`` and ``mark``."""
    ks = [k for row in grid.cell_candidate for k in row if k >= 0]
    xy = [np.asarray(cands.xy, dtype=np.float64).reshape(-1, 2)]
    radius, contrast = [np.asarray(cands.radius, dtype=np.float64)], [np.asarray(cands.contrast, dtype=np.float64)]
    strength = None if cands.strength is None else [np.asarray(cands.strength, dtype=np.float64)]
    cell_candidate = [list(row) for row in grid.cell_candidate]
    n = len(xy[0])
    for i in cells:
        t = cell_tests[i]
        r, c = int(t["row"]), int(t["col"])
        centre = np.asarray(grid.centre(r, c), dtype=np.float64)
        xy.append(centre[None])
        radius.append(np.array([np.median(cands.radius[ks])]))
        contrast.append(np.array([np.median(cands.contrast[ks])]))
        if strength is not None:
            strength.append(np.array([np.median(cands.strength[ks])]))
        cell_candidate[r][c] = n
        n += 1
        t["cube"], t[mark], t["xy"] = True, True, centre
    cands = replace(
        cands,
        xy=np.concatenate(xy),
        radius=np.concatenate(radius),
        contrast=np.concatenate(contrast),
        strength=None if strength is None else np.concatenate(strength),
    )
    grid = replace(grid, cell_candidate=tuple(tuple(row) for row in cell_candidate), support=grid.support + len(cells))
    return grid, cands


def bevel_lines(frame_bgr: np.ndarray, grid: Any, settings: Any) -> np.ndarray:
    """Each cell's bevel highlight (9, 4), row by row, on its sides +col, -col, +row, -row: along lines across the
    side (``faint_bevel_half_length`` pitches each way of the cell's centre line, a pixel apart), the profile of
    log linear lightness from ``faint_bevel_from`` to ``faint_bevel_to`` pitches out (``faint_bevel_step_px``
    apart, unblurred: the highlight is a line a pixel wide), the brightest thin line's height over the brighter of
    its two flanks (``faint_bevel_width_px`` wide, ``faint_bevel_gap_px`` off), median over the lines. A cube's top
    face shows the lamp's highlight on its lit sides whatever its colour; a step (the table's print, a face's
    outline) has one flank as bright and counts nothing."""
    pitch = float(grid.pitch)
    cu = np.asarray(grid.col_step, dtype=np.float64)
    ru = np.asarray(grid.row_step, dtype=np.float64)
    cu, ru = cu / (np.linalg.norm(cu) + 1e-9), ru / (np.linalg.norm(ru) + 1e-9)
    step = settings.faint_bevel_step_px
    out_px = np.arange(settings.faint_bevel_from * pitch, settings.faint_bevel_to * pitch, step)
    half = settings.faint_bevel_half_length * pitch
    along = np.arange(-half, half + 1e-9, 1.0)
    gap = max(1, round(settings.faint_bevel_gap_px / step))
    width = max(1, round(settings.faint_bevel_width_px / step))
    if len(out_px) < 2 * (gap + width) + 1:
        return np.zeros((9, 4))
    cells = np.array([grid.centre(r, c) for r in range(3) for c in range(3)], dtype=np.float64)
    sides = ((cu, ru), (-cu, ru), (ru, cu), (-ru, cu))  # (outward, along)
    pts = np.stack(
        [cells[:, None, None, :] + out_px[None, :, None, None] * n + along[None, None, :, None] * t for n, t in sides],
        axis=1,
    )  # (9, 4, out, along, 2) frame px
    crop = _lightness_around(frame_bgr, pts, 2.0)
    if crop is None:
        return np.zeros((9, 4))
    lum, corner = crop
    flat = (pts - corner).reshape(-1, len(along), 2).astype(np.float32)
    sampled = cv2.remap(lum, flat[..., 0], flat[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    logs = np.log(np.maximum(sampled, 1e-3)).reshape(9, 4, len(out_px), len(along))
    best = np.full((9, 4, len(along)), -9.0, dtype=np.float32)
    for k in range(gap + width, len(out_px) - gap - width):
        inner = np.median(logs[:, :, k - gap - width : k - gap + 1], axis=2)
        outer = np.median(logs[:, :, k + gap : k + gap + width + 1], axis=2)
        best = np.maximum(best, logs[:, :, k] - np.maximum(inner, outer))
    return np.median(best, axis=2)


def bevel_like_the_cubes(test: Mapping[str, Any], cell: np.ndarray, cubes: np.ndarray, settings: Any) -> bool:
    """Whether a cell's bevel lines (:func:`bevel_lines`, its four sides) are the verified cubes' (theirs, one row
    a cube): clipped at 0, the cell's match the cubes' median by cosine ``faint_bevel_min_cosine`` and reach
    ``faint_bevel_min_projection`` along it, and no side where the cubes show no line (below
    ``faint_bevel_unlit``) opposite a lit one (``faint_bevel_lit``) shows one (``faint_bevel_foreign``: a
    neighbour's highlight across an empty cell). Noted in the cell's test as ``faint_bevel`` (cosine,
    projection), for the debug output."""
    median = np.median(np.asarray(cubes, dtype=np.float64), axis=0)
    b, m = np.clip(np.asarray(cell, dtype=np.float64), 0, None), np.clip(median, 0, None)
    norm = float(np.linalg.norm(m))
    if norm < 1e-6:
        return False
    cosine = float(b @ m / (float(np.linalg.norm(b)) * norm + 1e-9))
    projection = float(b @ m / norm)
    if isinstance(test, dict):
        test["faint_bevel"] = [round(cosine, 2), round(projection, 2)]
    opposite = median[[1, 0, 3, 2]]
    foreign = (opposite >= settings.faint_bevel_lit) & (median < settings.faint_bevel_unlit)
    if bool(np.any(foreign & (np.asarray(cell) >= settings.faint_bevel_foreign))):
        return False
    return cosine >= settings.faint_bevel_min_cosine and projection >= settings.faint_bevel_min_projection


def _bevel_is_the_cubes(
    frame_bgr: np.ndarray, grid: Any, cell_tests: Sequence[Mapping[str, Any]], i: int, others: list[int], settings: Any
) -> bool:
    """Whether cell ``i``'s bevel lines are those of the cubes ``others`` (:func:`bevel_lines`,
    :func:`bevel_like_the_cubes`): the faint-cube rescues' second cue."""
    bevels = bevel_lines(frame_bgr, grid, settings)
    return bevel_like_the_cubes(cell_tests[i], bevels[i], bevels[others], settings)


def faint_cube_kept_by_its_bevel(
    frame_bgr: np.ndarray,
    grid: Any,
    cell_tests: Sequence[Mapping[str, Any]],
    i: int,
    cells: list[tuple[int, int]],
    settings: Any,
) -> list[tuple[int, int]]:
    """``cells`` (the one cell ``i`` a last look takes for the table), less that cell when it is the pattern's faint
    cube (read by :func:`faint_cubes`: its colour is the table's, so the look's finding is no news) and a second
    cue agrees: its bevel lines are the other eight cubes' (:func:`bevel_like_the_cubes`)."""
    others = other_cubes_none_faint(cell_tests, i)
    if others is None:
        return cells
    return [] if _bevel_is_the_cubes(frame_bgr, grid, cell_tests, i, others, settings) else cells


def other_cubes_none_faint(cell_tests: Sequence[Mapping[str, Any]], i: int) -> list[int] | None:
    """The other eight cells (indices) when each is a cube and none ``faint`` (one faint cube a pattern: cell ``i``
    may be it); None otherwise."""
    others = [j for j, t in enumerate(cell_tests) if j != i and t["cube"]]
    if len(others) != 8 or any(cell_tests[j].get("faint") for j in others):
        return None
    return others


def faint_cubes_kept_by_two_cues(
    frame_bgr: np.ndarray,
    grid: Any,
    cell_tests: Sequence[Mapping[str, Any]],
    cells: Sequence[tuple[int, int]],
    settings: Any,
) -> list[tuple[int, int]]:
    """``cells`` (row, col) that a last look (:func:`vision.shaker.table_patch`, :func:`faceless_toned_cells`)
    takes for the table's print, less a faint cube among them: when it is the only one, the other eight are cubes
    and none faint, and three cues agree: its colour lies within ``faint_max_d_palette`` of the palette, its edge
    map is the cubes' (:func:`faint_cubes`' test) and so are its bevel lines (:func:`bevel_like_the_cubes`). The
    kept cell is marked ``faint``. A cell :func:`faint_cubes` read (already ``faint``) is the pattern's faint cube:
    with ``faint_kept_looks_self`` it stays when its bevel agrees (:func:`faint_cube_kept_by_its_bevel`), as after
    the last looks :func:`faint_cubes_kept` serves."""
    if not settings.faint_bevel_kept_looks or len(cells) != 1 or len(cell_tests) != 9:
        return list(cells)
    i = cells[0][0] * 3 + cells[0][1]
    if cell_tests[i].get("faint") and settings.faint_kept_looks_self:
        return faint_cube_kept_by_its_bevel(frame_bgr, grid, cell_tests, i, list(cells), settings)
    others = faint_like_the_cubes(frame_bgr, grid, cell_tests, i, settings)
    if others is None:
        return list(cells)
    if not _bevel_is_the_cubes(frame_bgr, grid, cell_tests, i, others, settings):
        return list(cells)
    if isinstance(cell_tests[i], dict):
        cell_tests[i]["faint"] = True
    return []
