"""vision.shaker.edge_alignment: how the edges inside a grid run against its lattice (drawn grids, measured)."""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.shaker import DEFAULT_SETTINGS, Grid, edge_alignment

PITCH = 60.0
CENTRE = np.array([200.0, 150.0])


def _lattice(turn_deg: float, pitch: float = PITCH) -> Grid:
    """A 3 x 3 lattice about CENTRE, turned ``turn_deg`` from the image axes."""
    a = math.radians(turn_deg)
    col = pitch * np.array([math.cos(a), math.sin(a)])
    row = pitch * np.array([-math.sin(a), math.cos(a)])
    return Grid(CENTRE - col - row, col, row, ((-1, -1, -1),) * 3, 0, 0)


def _drawn(shape: str, turn_deg: float = 0.0) -> np.ndarray:
    """Nine pieces of three colours on a gray table, centred on ``_lattice(turn_deg)``'s cells, 3/4 of a pitch wide."""
    frame_bgr = np.full((300, 400, 3), 128, np.uint8)
    grid = _lattice(turn_deg)
    colours = [(40, 40, 200), (200, 80, 20), (30, 200, 230)]
    for r in range(3):
        for c in range(3):
            centre = grid.centre(r, c)
            colour = colours[(r + 2 * c) % 3]
            if shape == "disc":
                cv2.circle(frame_bgr, tuple(int(round(v)) for v in centre), int(0.375 * PITCH), colour, -1, cv2.LINE_AA)
            else:
                box = cv2.boxPoints(((float(centre[0]), float(centre[1])), (0.75 * PITCH, 0.75 * PITCH), turn_deg))
                cv2.fillConvexPoly(frame_bgr, np.round(box).astype(np.int32), colour, cv2.LINE_AA)
    return frame_bgr


def test_squares_in_their_cells_run_along_the_lattice() -> None:
    for turn in (0.0, 12.0, -20.0):
        assert edge_alignment(_drawn("square", turn), _lattice(turn)) > 0.8, turn


def test_a_lattice_turned_against_the_squares_reads_their_edges_across_it() -> None:
    # the squares' own lattice turned 45 degrees about the grid's centre, at 3/4 of their pitch (the glossy stickers'
    # misread): every edge diagonal to its steps
    frame_bgr = _drawn("square")
    turned = _lattice(45.0, 0.75 * PITCH)
    assert edge_alignment(frame_bgr, turned) < -0.8
    assert edge_alignment(frame_bgr, turned) < DEFAULT_SETTINGS.min_edge_alignment
    # ...and 30 degrees: still across (cos 120 degrees = -0.5)
    assert edge_alignment(frame_bgr, _lattice(30.0, 0.75 * PITCH)) < DEFAULT_SETTINGS.min_edge_alignment


def test_round_pieces_run_every_way_and_stay_above_the_floor() -> None:
    frame_bgr = _drawn("disc")
    alignment = edge_alignment(frame_bgr, _lattice(0.0))
    assert abs(alignment) < 0.15
    assert alignment > DEFAULT_SETTINGS.min_edge_alignment + 0.1


def test_a_flat_grid_has_no_edges_to_judge() -> None:
    assert edge_alignment(np.full((300, 400, 3), 90, np.uint8), _lattice(0.0)) == 0.0
