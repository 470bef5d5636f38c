"""The reader's cheaper ways of doing what it did (issue 3's time per frame): each against a plain
reference of the earlier way, on synthetic arrays and generated frames. No timings: these fail when a faster
path reads differently."""

from __future__ import annotations

import itertools
import random
from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision.shaker import (
    DEFAULT_SETTINGS,
    Candidates,
    GridNotFound,
    Hypotheses,
    _inv,
    _linalg_kernels,
    _lstsq,
    _peaks,
    edge_strength,
    find_cubes,
    lattice_hypotheses,
    lattices,
    table_difference,
)
from vision.shaker_scene import render_scene_set


def test_lstsq_and_inv_are_numpys_numbers():
    """_lstsq and _inv call np.linalg's own kernels without its wrapper: the same numbers, bit for bit, and a
    singular matrix still raises np.linalg's error."""
    rng = np.random.default_rng(5)
    for _ in range(200):
        m = int(rng.integers(3, 12))
        a = np.column_stack([np.ones(m), rng.integers(0, 3, m), rng.integers(0, 3, m)]).astype(np.float64)
        b = rng.normal(300.0, 120.0, (m, 2))
        assert _lstsq(a, b).tobytes() == np.linalg.lstsq(a, b, rcond=None)[0].tobytes()
        s = rng.normal(0.0, 40.0, (2, 2))
        if abs(np.linalg.det(s)) > 1e-3:
            assert _inv(s).tobytes() == np.linalg.inv(s).tobytes()
    with pytest.raises(np.linalg.LinAlgError):
        _inv(np.array([[1.0, 2.0], [2.0, 4.0]]))


def test_kernels_of_another_numpy_layout_leave_the_public_calls(monkeypatch: pytest.MonkeyPatch):
    """numpy 1.x (the Pi's) has no ``lstsq`` kernel of that name (``lstsq_m``/``lstsq_n``): the probe gives None and
    the public calls serve, rather than an AttributeError at the first fit."""
    from numpy.linalg import _umath_linalg

    assert _linalg_kernels() in (None, _umath_linalg)
    monkeypatch.delattr(_umath_linalg, "lstsq", raising=False)
    assert _linalg_kernels() is None


def _peaks_as_before(resp: np.ndarray, thr: float, k: int) -> tuple[list[int], list[int]]:
    """find_cubes' peak look before _peaks: every point above the threshold, then those at their k x k maximum
    (dilate over the points' bounding box and half a window around it)."""
    found = cv2.findNonZero(cv2.compare(resp, thr, cv2.CMP_GT))
    if found is None:
        return [], []
    xs, ys = found.reshape(-1, 2)[:, 0], found.reshape(-1, 2)[:, 1]
    hk, (rh, rw) = k // 2, resp.shape
    bx, by = max(0, int(xs.min()) - hk), max(0, int(ys.min()) - hk)
    roi = resp[by : min(rh, int(ys.max()) + hk + 1), bx : min(rw, int(xs.max()) + hk + 1)]
    peak = resp[ys, xs] >= cv2.dilate(roi, np.ones((k, k), np.uint8))[ys - by, xs - bx]
    return xs[peak].tolist(), ys[peak].tolist()


def test_peaks_are_the_earlier_looks_points():
    """_peaks marks the thresholded maxima in one mask over the points' box: the same points, in the same order,
    as the look at every point above the threshold; on random maps with ties, plateaus and points at the edges,
    and on a generated frame's responses at every size."""
    rng = np.random.default_rng(11)
    cases = 0
    for _ in range(300):
        h, w = int(rng.integers(5, 60)), int(rng.integers(5, 60))
        resp = rng.random((h, w)).astype(np.float32)
        if rng.random() < 0.5:
            resp = np.round(resp * 4) / 4  # (few values: plateaus and ties)
        k = int(rng.choice([3, 5, 7, 9, 13]))
        thr = float(rng.choice([0.0, 0.5, 0.9, 1.5]))
        xs, ys = _peaks(resp, thr, k)
        assert (xs.tolist(), ys.tolist()) == _peaks_as_before(resp, thr, k)
        cases += len(xs) > 0
    assert cases > 100
    # a generated frame's ring-minus-inside responses, as find_cubes makes them
    frame, _ = render_scene_set(random.Random(41001), 1)[0]
    d, scale, lab, _ = table_difference(frame, DEFAULT_SETTINGS)
    g = edge_strength(lab, DEFAULT_SETTINGS)
    thr = max(DEFAULT_SETTINGS.response_min, DEFAULT_SETTINGS.response_noise_factor * float(np.mean(g)))
    sizes = DEFAULT_SETTINGS.box_sizes
    found = 0
    for j in range(len(sizes) - 2):
        b_in, b_out = sizes[j], sizes[j + 2]
        s_in, s_out = (
            cv2.boxFilter(g, -1, (b, b), normalize=False, borderType=cv2.BORDER_REPLICATE) for b in (b_in, b_out)
        )
        a_ring = float(b_out * b_out - b_in * b_in)
        resp = cv2.addWeighted(s_out, 1.0 / a_ring, s_in, -(1.0 / a_ring + 1.0 / (b_in * b_in)), 0.0)
        k = max(3, int(DEFAULT_SETTINGS.nms_radius * sizes[j + 1]) | 1)
        xs, ys = _peaks(resp, thr, k)
        assert (xs.tolist(), ys.tolist()) == _peaks_as_before(resp, thr, k)
        found += len(xs)
    assert found >= 9


def test_lattice_hypotheses_scores_are_their_windows_occupancy():
    """lattice_hypotheses' window scores (its occupancy's running sums as whole-array adds, hypotheses last) are
    each window's cells' best candidate quality less the ring's around it, less the steps' skew penalty (and
    square_step_penalty for a second step that is the first turned, no candidate at right angles); and a
    candidate is on a hypothesis's lattice when its lattice coordinates round to a point within the tolerance, of
    the seed's size, no farther than 4 steps (the pairs' and residuals' tests asked only where still in)."""
    st = replace(DEFAULT_SETTINGS, square_steps=True)
    checked = squares = 0
    for frame, _ in render_scene_set(random.Random(41002), 3):
        sizes = find_cubes(frame)
        tried = [
            c if len(c.xy) >= st.min_support else Candidates(np.zeros((0, 2)), np.zeros(0), np.zeros(0), 1.0)
            for c in sizes
        ]
        for cands, hyp in zip(tried, lattice_hypotheses(tried, settings=st), strict=True):
            if not isinstance(hyp, Hypotheses):
                continue
            n = len(cands.xy)
            quality = np.minimum(np.maximum(cands.contrast / st.quality_contrast, st.quality_floor), 1.0)
            for h in range(len(hyp.ai)):
                # the seed's pair: a neighbour within the pitch range of the radius, turned at most max_turn
                u = hyp.steps[h][:, 0]
                rr = cands.radius[hyp.ai[h]]
                assert st.pitch_min * rr <= np.hypot(*u) <= st.pitch_max * rr
                assert abs((np.degrees(np.arctan2(u[1], u[0])) + 45.0) % 90.0 - 45.0) <= st.max_turn
                coords = np.linalg.solve(hyp.steps[h], (cands.xy - cands.xy[hyp.ai[h]]).T).T
                err = np.hypot(*((coords - np.rint(coords)) @ hyp.steps[h].T).T) / hyp.pitch[h]
                size_ok = (cands.radius >= st.size_ratio_min * rr) & (cands.radius <= rr / st.size_ratio_min)
                on = (err <= st.lattice_tolerance) & size_ok & (np.abs(np.rint(coords)) <= 4).all(1)
                clear = np.abs(err - st.lattice_tolerance) > 1e-9  # (away from the tolerance's edge)
                assert (hyp.on[h][clear] == on[clear]).all()
                frac = np.abs(coords - np.rint(coords))
                assert (hyp.rc[h][frac.max(1) < 0.49] == np.rint(coords)[frac.max(1) < 0.49]).all()
                occ = np.zeros((9, 9))
                for k in np.flatnonzero(hyp.on[h]):
                    r, c = int(hyp.rc[h, k, 1]) + 4, int(hyp.rc[h, k, 0]) + 4
                    occ[r, c] = max(occ[r, c], quality[k])
                det = float(np.linalg.det(hyp.steps[h]))
                penalty = 0.02 * abs(np.log(abs(det) / hyp.pitch[h] ** 2))
                if hyp.square[h]:  # (no candidate at right angles: the first step turned, scored lower)
                    assert hyp.steps[h][:, 1].tolist() == [-u[1], u[0]]
                    penalty += st.square_step_penalty
                    squares += 1
                for wi, (y0, x0) in enumerate(itertools.product(range(2, 5), range(2, 5))):
                    inner = occ[y0 : y0 + 3, x0 : x0 + 3].sum()
                    ring = occ[y0 - 1 : y0 + 4, x0 - 1 : x0 + 4].sum() - inner
                    assert hyp.scores[h, wi] == pytest.approx(inner - ring - penalty, abs=1e-12)
                checked += 1
            assert hyp.rc.shape[1] == n
    assert checked >= 50 and 0 < squares < checked


def _cands(points: list[tuple[float, float]], radius: float = 20.0) -> Candidates:
    xy = np.array(points, dtype=np.float64)
    return Candidates(xy, np.full(len(xy), radius), np.full(len(xy), 3.0), 2.0, np.ones(len(xy)))


def test_lattice_built_from_members_as_a_plain_fit():
    """lattices' _build (plain Python over its members): cubes in one line are no grid; three in an L are, fitted
    by least squares exactly as np.linalg.lstsq fits them, each cell its nearest candidate, a candidate beside the
    grid (not on a cell, not on a cube) a stray."""
    pitch = 60.0
    line = [(200.0 + pitch * i, 300.0) for i in range(3)]
    with pytest.raises(GridNotFound, match="one line|do not form a grid"):
        next(lattices(_cands(line)))
    rng = np.random.default_rng(2)
    cells = [(c, r) for r in range(3) for c in range(3)]
    fitted = 0
    for _ in range(40):
        keep = sorted(rng.choice(9, size=int(rng.integers(5, 10)), replace=False).tolist())
        pts = [
            (200.0 + pitch * cells[i][0] + rng.normal(0, 1.5), 300.0 + pitch * cells[i][1] + rng.normal(0, 1.5))
            for i in keep
        ]
        stray = (200.0 + 3.0 * pitch, 300.0 + 1.0 * pitch)  # a lattice point just beside the grid
        try:
            grid = next(lattices(_cands([*pts, stray])))
        except GridNotFound:  # (no three cubes at right angles: no hypothesis at all, as before)
            continue
        a = np.column_stack([np.ones(len(keep)), [cells[i][0] for i in keep], [cells[i][1] for i in keep]])
        fit = np.linalg.lstsq(a, np.array(pts), rcond=None)[0]
        if grid.support == len(keep) and np.hypot(*(grid.origin - (200.0, 300.0))) < 10.0:
            # (the window holding the cubes: the fit's lattice, columns along +x and rows along +y)
            assert np.allclose(grid.origin, fit[0], atol=1e-9)
            assert np.allclose(grid.col_step, fit[1], atol=1e-9) and np.allclose(grid.row_step, fit[2], atol=1e-9)
            assert [grid.cell_candidate[cells[i][1]][cells[i][0]] for i in keep] == list(range(len(keep)))
            assert grid.strays == (len(pts),) and grid.stray_near == 1
            fitted += 1
    assert fitted >= 20


def test_sample_top_faces_is_each_points_own_sample():
    """sample_top_faces (its boxes' edges on Python ints, each channel's kept values sorted along the last axis)
    gives each point's sample_top_face, bit for bit, on a generated frame: random points and radii, some boxes
    clipped by the frame's edge."""
    from vision.shaker import sample_top_face, sample_top_faces

    frame, _ = render_scene_set(random.Random(41003), 1)[0]
    h, w = frame.shape[:2]
    rng = np.random.default_rng(4)
    clipped = 0
    for _ in range(60):
        rad = float(rng.uniform(1.5, 14.0))
        pts = np.column_stack([rng.uniform(-5.0, w + 5.0, 9), rng.uniform(-5.0, h + 5.0, 9)])
        if rng.random() < 0.7:  # (most inside: the batched path)
            pts = np.column_stack([rng.uniform(20.0, w - 20.0, 9), rng.uniform(20.0, h - 20.0, 9)])
        else:
            clipped += 1
        one_by_one = np.array([sample_top_face(frame, p, rad) for p in pts])
        assert sample_top_faces(frame, pts, rad).tobytes() == one_by_one.tobytes()
    assert clipped >= 5 and sample_top_faces(frame, np.zeros((0, 2)), 3.0).shape == (0, 3)


def test_best_window_counts_are_its_looks():
    """best_window counts each window's cubes in plain Python: every window's score is its 3 x 3 cubes less those
    around it in the 5 x 5 look, and the unshifted grid's count around is the look's cubes outside the grid."""
    from vision.colour import default_palette
    from vision.shaker import best_window

    palette = default_palette()
    looked = 0
    for frame, _ in render_scene_set(random.Random(41004), 4):
        d, scale, lab, table_lab8 = table_difference(frame, DEFAULT_SETTINGS)
        sizes = find_cubes(frame, work=(d, scale, lab), edges=edge_strength(lab, DEFAULT_SETTINGS))
        lab_sum = cv2.integral(lab, sdepth=cv2.CV_32S)
        for cands in sizes:
            try:
                grids = list(itertools.islice(lattices(cands), 2))
            except GridNotFound:
                continue
            for grid in grids:
                look: dict = {}
                shifted, around = best_window(frame, grid, cands, table_lab8, scale, palette, lab_sum=lab_sum, out=look)
                cube = look["cube"].astype(int)
                for (dr, dc), score in look["scores"].items():
                    r0, c0 = 1 + dr, 1 + dc
                    win = cube[r0 : r0 + 3, c0 : c0 + 3].sum()
                    ring = cube[max(0, r0 - 1) : r0 + 4, max(0, c0 - 1) : c0 + 4].sum() - win
                    assert score == win - ring
                if shifted is grid:
                    assert around == cube.sum() - cube[1:4, 1:4].sum()
                looked += 1
    assert looked >= 10
