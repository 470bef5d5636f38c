"""Other lattices over a refused reading's cubes (the shaker reader's re-lattice, ``relattice`` settings).

A refused reading whose lattice was fitted to the cubes that gave candidates can lie a row or column off, half
a pitch off or at a wrong pitch over nine cubes a player sees plainly (dark cubes on a dark table, light on
light: no candidates where they are). :func:`lattice_moves` lists the lattices near the settled one worth a
look: its window moved by a row or column, by half a pitch, its pitch scaled about its centre, and the least
squares lattice through the top faces of the cubes it verified. The reader reads each again from the start
of its settling (every check after it runs) and keeps the first it reads whole that truly moved
(:func:`moved_by`) and left no plainly seen cube behind (:func:`left_behind`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from .shaker import Candidates, Grid


def pooled_candidates(all_cands: Sequence[Candidates], j: int, merge: float) -> Candidates:
    """Size ``j``'s candidates with its two neighbour sizes', one point per shape: the highest-contrast point first,
    any other within ``merge`` of size ``j``'s radius of a kept one dropped; every point given size ``j``'s radius
    (a cube's shapes spread over neighbouring sizes; the lattice fit pairs shapes of about one size)."""
    from .shaker import Candidates

    parts = [all_cands[k] for k in (j - 1, j, j + 1) if 0 <= k < len(all_cands) and len(all_cands[k].xy)]
    radius = float(all_cands[j].radius[0])
    xy = np.concatenate([p.xy for p in parts])
    contrast = np.concatenate([p.contrast for p in parts])
    near = np.hypot(*(xy[:, None, :] - xy[None, :, :]).transpose(2, 0, 1)) < merge * radius
    dropped = np.zeros(len(xy), bool)
    keep: list[int] = []
    for i in np.argsort(-contrast, kind="stable").tolist():
        if not dropped[i]:  # (dropped: near a point already kept)
            keep.append(i)
            dropped |= near[i]
    return Candidates(xy[keep], np.full(len(keep), radius), contrast[keep], all_cands[j].scale, contrast[keep])


def on_lattice(grid: Grid, cands: Candidates, tolerance: float) -> Grid:
    """The grid with each cell's candidate the nearest within ``tolerance`` pitches of its centre (-1: none)."""
    cells = [[-1] * 3 for _ in range(3)]
    if len(cands.xy):
        for r in range(3):
            for c in range(3):
                d = np.hypot(*(cands.xy - grid.centre(r, c)).T)
                k = int(d.argmin())
                if d[k] <= tolerance * grid.pitch:
                    cells[r][c] = k
    support = sum(1 for row in cells for k in row if k >= 0)
    return replace(grid, cell_candidate=tuple(tuple(row) for row in cells), support=support, strays=())


def scaled(grid: Grid, factor: float) -> Grid:
    """The lattice with its steps scaled by ``factor`` about its centre cell."""
    centre = grid.centre(1, 1)
    col, row = grid.col_step * factor, grid.row_step * factor
    return replace(grid, origin=centre - col - row, col_step=col, row_step=row)


def shifted(grid: Grid, rows: float, cols: float) -> Grid:
    """The lattice moved by ``rows`` and ``cols`` of its own steps (fractions allowed)."""
    return replace(grid, origin=grid.origin + rows * grid.row_step + cols * grid.col_step)


def face_fit(grid: Grid, faces: Sequence[tuple[int, int, np.ndarray]]) -> Grid | None:
    """The least squares lattice through the cubes' top-face centres ((row, col, xy) each); None under five."""
    if len(faces) < 5:
        return None
    a = np.array([(1.0, c, r) for r, c, _ in faces])
    xy = np.array([p for _, _, p in faces], dtype=np.float64)
    sol, *_ = np.linalg.lstsq(a, xy, rcond=None)
    return replace(grid, origin=sol[0], col_step=sol[1], row_step=sol[2])


def lattice_moves(
    grid: Grid, faces: Sequence[tuple[int, int, np.ndarray]], scales: Sequence[float], shifts: Sequence[float]
) -> list[Grid]:
    """The lattices near ``grid`` worth a look, in order: the fit through the cubes' top faces, the window a row or
    column over, moved by ``shifts`` (fractions of a step, each axis and both), its pitch scaled by ``scales``."""
    out: list[Grid] = []
    fitted = face_fit(grid, faces)
    if fitted is not None:
        out.append(fitted)
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        out.append(shifted(grid, dr, dc))
    for s in shifts:
        for dr, dc in ((s, 0.0), (-s, 0.0), (0.0, s), (0.0, -s), (s, s), (s, -s), (-s, s), (-s, -s)):
            out.append(shifted(grid, dr, dc))
    for f in scales:
        out.append(scaled(grid, f))
    return out


def moved_by(old: Grid, new: Grid) -> float:
    """How far (pitches of ``old``) the farthest of the nine cell centres moved from ``old`` to ``new``."""
    return max(float(np.hypot(*(new.centre(r, c) - old.centre(r, c)))) for r in range(3) for c in range(3)) / old.pitch


def plain_cube(cell_test: Mapping[str, Any], kept_table: float) -> bool:
    """Whether a cell's test verified a plainly seen cube: a cube with its outline found and ``kept_table`` or more
    from the table (CIE76)."""
    return bool(cell_test["cube"] and cell_test["outline"] and cell_test["d_table"] >= kept_table)


def divides_plain_cubes(
    old: Grid,
    new: Grid,
    cell_tests: Sequence[dict],
    kept_table: float,
    old_colours: Mapping[tuple[int, int], str | None],
    new_colours: Mapping[tuple[int, int], str | None],
) -> bool:
    """Whether ``new`` divides a plainly seen cube of ``old`` (:func:`plain_cube`): two or more of its cells,
    centred within half of ``old``'s pitch of that cube's cell, each read as that cube's colour (``old_colours``,
    ``new_colours``: each lattice's reading, (row, col) -> colour): a lattice finer than the cubes, its cells on one
    cube's parts. Cells of other colours there are other cubes (the old lattice on a cloth's checks coarser than
    the cubes, a check's cell holding a cube or two)."""
    centres = np.array([new.centre(r, c) for r in range(3) for c in range(3)])
    for t in cell_tests:
        colour = old_colours.get((t["row"], t["col"]))
        if colour is None or not plain_cube(t, kept_table):
            continue
        inside = np.hypot(*(centres - old.centre(t["row"], t["col"])).T) <= 0.5 * old.pitch
        if sum(new_colours.get(divmod(k, 3)) == colour for k in np.flatnonzero(inside).tolist()) >= 2:
            return True
    return False


def left_behind(old: Grid, new: Grid, cell_tests: Sequence[dict], kept_table: float) -> bool:
    """Whether ``new`` leaves behind (no cell centre of it within half a pitch) a cell ``old``'s tests verified as a
    cube with its outline found and ``kept_table`` or more from the table: a plainly seen cube of the pattern
    (:func:`plain_cube`)."""
    centres = np.array([new.centre(r, c) for r in range(3) for c in range(3)])
    for t in cell_tests:
        if plain_cube(t, kept_table):
            gone = np.hypot(*(centres - old.centre(t["row"], t["col"])).T).min() > 0.5 * old.pitch
            if gone:
                return True
    return False
