"""``shakecity calibrate-board``, ``read-board``, ``score-photo``, ``eval-board`` and ``bench-board``.

Contracts in ``shared/rules/data-formats.md``. Bad input (an unreadable photo, a missing or wrong
calibration, a bad board file) ends with a non-zero exit, one line on standard error and nothing on
standard output; with several photos, a bad one gets an ``"error"`` key and the rest are still read.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from scoring.errors import RulesError
from scoring.shake_that_city.board import parse_board
from scoring.shake_that_city.scorer import score_board

from .board_reader import (
    EMPTY,
    NORTHS,
    SETTINGS,
    TILE_LETTERS,
    BoardCalibration,
    BoardReading,
    calibrate_board,
    decode_photo_scaled,
    load_photo_scaled,
    read_board,
)
from .errors import VisionError

EXIT_BAD_INPUT = 2
EXIT_NO_BOARD = 1
EXIT_SOME_UNREADABLE = 1  # several photos, some unreadable: the others are still read
LETTERS = TILE_LETTERS + EMPTY


class InputError(Exception):
    """Bad input for a command: printed as one line on standard error."""


def _fail(command: str, message: str) -> int:
    print(f"shakecity {command}: {message}", file=sys.stderr)
    return EXIT_BAD_INPUT


def _read_json(path: str | Path) -> Any:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(f"{p}: no such file") from None
    except OSError as e:
        raise InputError(f"{p}: cannot read: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise InputError(f"{p}: not UTF-8 text") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise InputError(f"{p}: not valid JSON: {e.msg} at line {e.lineno} column {e.colno}") from None


def _load_known_board(path: str | Path) -> tuple[list[str], str]:
    raw = _read_json(path)
    try:
        board = parse_board(raw)
    except RulesError as e:
        raise InputError(f"{path}: {e}") from None
    return board.rows, board.side


def _calibration(path: str) -> BoardCalibration:
    try:
        return BoardCalibration.load(path)
    except VisionError as e:
        raise InputError(str(e)) from None


def _read_one(path: str, calibration: BoardCalibration) -> tuple[BoardReading, np.ndarray, float]:
    photo_bgr, scale = load_photo_scaled(path)
    reading = read_board(photo_bgr, calibration)
    if reading.outline and scale != 1.0:
        reading.outline = [(x * scale, y * scale) for x, y in reading.outline]
    return reading, photo_bgr, scale


# ------------------------------------------------------------------------------------- calibrate


def run_calibrate(args: argparse.Namespace) -> int:
    try:
        grid, side = _load_known_board(args.known_board)
        empty_bgr, _ = load_photo_scaled(args.empty)
        known_bgr, _ = load_photo_scaled(args.known)
        calibration = calibrate_board(empty_bgr, known_bgr, grid, side)
        calibration.save(args.out)
    except (InputError, VisionError) as e:
        return _fail("calibrate-board", str(e))
    except OSError as e:
        return _fail("calibrate-board", f"{args.out}: cannot write: {e.strerror or e}")
    if not args.quiet:
        print(f"calibration for the {side} side written to {args.out}")
    return 0


# ------------------------------------------------------------------------------------- read


def draw_debug(photo_bgr: np.ndarray, reading: BoardReading, scale: float = 1.0) -> np.ndarray:
    """The photo with the found cell area, its grid, each cell's reading and confidence, and north."""
    out = photo_bgr.copy()
    f = min(1.0, 1600 / max(out.shape[:2]))
    if f < 1:
        out = cv2.resize(out, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
    if not reading.found or not reading.outline or reading.grid is None:
        cv2.putText(out, f"no board: {reading.reason}", (20, 40), 0, 0.9, (0, 0, 255), 2, cv2.LINE_AA)
        return out
    quad = np.float32(reading.outline) / scale * f
    h = cv2.getPerspectiveTransform(np.float32([[0, 0], [6, 0], [6, 6], [0, 6]]), quad)

    def at(x: float, y: float) -> tuple[int, int]:
        p = cv2.perspectiveTransform(np.float32([[[x, y]]]), h)[0, 0]
        return int(p[0]), int(p[1])

    for i in range(7):
        cv2.line(out, at(i, 0), at(i, 6), (255, 200, 0), 1, cv2.LINE_AA)
        cv2.line(out, at(0, i), at(6, i), (255, 200, 0), 1, cv2.LINE_AA)
    cv2.polylines(out, [quad.astype(np.int32)], True, (0, 255, 255), 2, cv2.LINE_AA)
    cell = np.linalg.norm(quad[1] - quad[0]) / 6
    size = max(0.35, cell / 70)
    for r in range(6):
        for c in range(6):
            conf = reading.confidence[r][c] if reading.confidence else 0.0
            colour = (0, 200, 0) if conf >= SETTINGS.low_confidence else (0, 0, 255)
            x, y = at(c + 0.5, r + 0.5)
            text = reading.grid[r][c]
            cv2.putText(out, text, (x - int(10 * size), y), 0, size * 1.2, (0, 0, 0), 4, cv2.LINE_AA)
            cv2.putText(out, text, (x - int(10 * size), y), 0, size * 1.2, colour, 2, cv2.LINE_AA)
            cv2.putText(out, f"{conf:.2f}", (x - int(16 * size), y + int(22 * size)), 0, size * 0.6, colour, 1)
    cv2.arrowedLine(out, at(3, 3), at(3, -0.8), (0, 0, 255), 3, cv2.LINE_AA, tipLength=0.15)
    cv2.putText(out, "N", at(3.2, -0.9), 0, size * 1.4, (0, 0, 255), 3, cv2.LINE_AA)
    return out


def _debug_path(base: str, index: int, count: int) -> Path:
    p = Path(base)
    return p if count == 1 else p.with_name(f"{p.stem}-{index}{p.suffix or '.png'}")


def _format_text(reading: BoardReading) -> str:
    if not reading.found:
        return f"no board: {reading.reason}"
    lines = [f"north: {reading.north}"]
    for r, row in enumerate(reading.grid or []):
        confs = " ".join(f"{c:.2f}" for c in (reading.confidence or [[0.0] * 6] * 6)[r])
        lines.append(f"  {' '.join(row)}    {confs}")
    if reading.low_confidence_cells:
        cells = ", ".join(f"({r},{c})" for r, c in reading.low_confidence_cells)
        lines.append(f"please confirm: {cells}")
    return "\n".join(lines)


def run_read(args: argparse.Namespace) -> int:
    try:
        calibration = _calibration(args.calibration)
    except InputError as e:
        return _fail("read-board", str(e))
    several = len(args.photos) > 1
    status = 0
    for index, path in enumerate(args.photos):
        try:
            reading, photo_bgr, scale = _read_one(path, calibration)
        except VisionError as e:
            if not several:
                return _fail("read-board", str(e))
            out: dict[str, Any] = {"image": path, "found": False, "grid": None, "north": None, "error": str(e)}
            print(json.dumps(out) if args.json else f"{path}: error: {e}", flush=True)
            status = EXIT_SOME_UNREADABLE
            continue
        if args.debug:
            target = _debug_path(args.debug, index, len(args.photos))
            if not cv2.imwrite(str(target), draw_debug(photo_bgr, reading, scale)):
                return _fail("read-board", f"{target}: cannot write the debug image")
        if args.json:
            out = reading.to_json()
            if several:
                out = {"image": path, **out}
            print(json.dumps(out), flush=True)
        else:
            print((f"{path}:\n" if several else "") + _format_text(reading), flush=True)
    return status


# ------------------------------------------------------------------------------------- score


def run_score_photo(args: argparse.Namespace) -> int:
    try:
        calibration = _calibration(args.calibration)
        reading, _, _ = _read_one(args.photo, calibration)
        variants = [v for v in (args.variants or "").split(",") if v]
        score = None
        if reading.found:
            board = parse_board({"side": calibration.side, "grid": reading.grid, "variants": variants})
            score = score_board(board).to_json()
            score.pop("notes", None)
    except (InputError, VisionError) as e:
        return _fail("score-photo", str(e))
    except RulesError as e:
        return _fail("score-photo", f"--variants: {e}")
    if args.json:
        print(json.dumps({**reading.to_json(), "side": calibration.side, "score": score}))
    else:
        print(_format_text(reading))
        if score is not None:
            parts = ", ".join(f"{k} {v}" for k, v in score["breakdown"].items())
            print(f"score: {score['total']}  ({parts})")
    return 0 if reading.found else EXIT_NO_BOARD


# ------------------------------------------------------------------------------------- evaluate


def evaluate_folder(folder: str | Path) -> dict[str, Any]:
    """Read every photo of a labelled board folder and measure the reader against its truth."""
    d = Path(folder)
    truth = _read_json(d / "truth.json")
    if not isinstance(truth, dict) or not isinstance(truth.get("photos"), dict):
        raise InputError(f"{d / 'truth.json'}: expected an object with 'calibration' and 'photos'")
    cal_entry = truth.get("calibration")
    if not isinstance(cal_entry, dict) or not all(
        isinstance(cal_entry.get(k), str) for k in ("empty", "known", "known_board")
    ):
        raise InputError(f"{d / 'truth.json'}: 'calibration' must name empty, known and known_board files")
    grid, side = _load_known_board(d / cal_entry["known_board"])
    try:
        calibration = calibrate_board(
            load_photo_scaled(d / cal_entry["empty"])[0], load_photo_scaled(d / cal_entry["known"])[0], grid, side
        )
    except VisionError as e:
        raise InputError(f"calibration: {e}") from None
    confusion: Counter[tuple[str, str]] = Counter()
    cells = cells_right = boards = boards_right = 0
    oriented = oriented_right = 0
    no_board = no_board_refused = wrongly_refused = 0
    wrong_flagged = right_flagged = 0  # misread cells marked for confirmation, and right ones marked
    misread: list[dict[str, Any]] = []
    times = []
    for name, entry in sorted(truth["photos"].items()):
        true_grid = entry.get("grid") if isinstance(entry, dict) else None
        true_north = entry.get("north") if isinstance(entry, dict) else None
        try:
            photo_bgr, _ = load_photo_scaled(d / name)
            t0 = time.perf_counter()
            reading = read_board(photo_bgr, calibration)
            times.append(time.perf_counter() - t0)
        except VisionError as e:
            misread.append({"image": name, "error": str(e)})
            continue
        if true_grid is None:
            no_board += 1
            if reading.found:
                misread.append({"image": name, "problem": "a board was read in a photo without one"})
            else:
                no_board_refused += 1
            continue
        boards += 1
        if not reading.found:
            wrongly_refused += 1
            misread.append({"image": name, "problem": f"refused: {reading.reason}"})
            continue
        if true_north is not None:
            oriented += 1
            oriented_right += reading.north == true_north
        wrong = []
        flagged = set(reading.low_confidence_cells)
        for r in range(6):
            for c in range(6):
                t, g = true_grid[r][c], reading.grid[r][c]
                confusion[(t, g)] += 1
                cells += 1
                cells_right += t == g
                if t != g:
                    wrong.append(f"({r},{c}) {t}->{g}" + (" (flagged)" if (r, c) in flagged else ""))
                    wrong_flagged += (r, c) in flagged
                else:
                    right_flagged += (r, c) in flagged
        boards_right += not wrong and (true_north is None or reading.north == true_north)
        if wrong or (true_north is not None and reading.north != true_north):
            problem = {"image": name, "wrong_cells": wrong}
            if true_north is not None and reading.north != true_north:
                problem["north"] = f"{true_north} read as {reading.north}"
            misread.append(problem)
    return {
        "photos": len(truth["photos"]),
        "boards": boards,
        "cells": cells,
        "cell_accuracy": cells_right / cells if cells else None,
        "boards_exact": boards_right,
        "board_accuracy": boards_right / boards if boards else None,
        "north_right": oriented_right,
        "north_checked": oriented,
        "orientation_accuracy": oriented_right / oriented if oriented else None,
        "misread_cells_flagged": wrong_flagged,
        "right_cells_flagged": right_flagged,
        "boards_refused": wrongly_refused,
        "no_board_photos": no_board,
        "no_board_refused": no_board_refused,
        "confusion": {t: {g: confusion[(t, g)] for g in LETTERS} for t in LETTERS},
        "misread": misread,
        "ms_median": 1000 * statistics.median(times) if times else None,
    }


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{100 * x:.2f} %"


def run_eval(args: argparse.Namespace) -> int:
    try:
        result = evaluate_folder(args.folder)
    except (InputError, VisionError) as e:
        return _fail("eval-board", str(e))
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"photos: {result['photos']} ({result['boards']} with a board, {result['no_board_photos']} without)")
    print(f"cells right:        {_pct(result['cell_accuracy'])} of {result['cells']}")
    print(f"boards exactly right: {result['boards_exact']} / {result['boards']} ({_pct(result['board_accuracy'])})")
    print(
        f"north right:        {result['north_right']} / {result['north_checked']} "
        f"({_pct(result['orientation_accuracy'])})"
    )
    misread_cells = result["cells"] - round((result["cell_accuracy"] or 0) * result["cells"])
    print(
        f"asked to confirm:   {result['misread_cells_flagged']} of {misread_cells} misread cells, "
        f"{result['right_cells_flagged']} cells read right"
    )
    print(f"boards refused:     {result['boards_refused']} (of {result['boards']} with a board)")
    print(f"no-board refused:   {result['no_board_refused']} / {result['no_board_photos']}")
    print(f"reading time:       {result['ms_median']:.0f} ms median" if result["ms_median"] else "")
    print("confusion (rows: truth, columns: read):")
    print("      " + "".join(f"{g:>6}" for g in LETTERS))
    for t in LETTERS:
        print(f"  {t:>3} " + "".join(f"{result['confusion'][t][g]:>6}" for g in LETTERS))
    if result["misread"]:
        print("misread:")
        for m in result["misread"]:
            detail = m.get("error") or m.get("problem") or ", ".join(m.get("wrong_cells", []))
            if "north" in m:
                detail = f"north {m['north']}; {detail}"
            print(f"  {m['image']}: {detail}")
    return 0


# ------------------------------------------------------------------------------------- benchmark


def run_bench(args: argparse.Namespace) -> int:
    """Milliseconds per 12-megapixel photo on one core: decoding the JPEG plus reading the board.

    Measured as this process's CPU time with OpenCV on one thread, so other work on a shared machine
    does not inflate it; the wall-clock median is printed too.
    """
    from .board_scene import random_grid, random_scene, render_board_photo, render_calibration_pair

    cv2.setNumThreads(1)
    rng = random.Random(args.seed)
    w, h = args.width, args.height
    scene = random_scene(rng, side="inland")
    empty_bgr, known_bgr, known = render_calibration_pair(rng, scene=scene, width=w, height=h)
    calibration = calibrate_board(empty_bgr, known_bgr, known["grid"], known["side"])
    jpegs = []
    for i in range(args.photos):
        frame_bgr, _ = render_board_photo(
            random_grid(rng), random.Random(args.seed + i), scene=scene, north=NORTHS[i % 4], width=w, height=h
        )
        ok, buf = cv2.imencode(".jpg", frame_bgr, [cv2.IMWRITE_JPEG_QUALITY, 90])
        jpegs.append(buf.tobytes())
    total, read_only, wall, found = [], [], [], 0
    for _ in range(args.runs):
        for data in jpegs:
            w0, t0 = time.perf_counter(), time.process_time()
            photo_bgr, _ = decode_photo_scaled(data)
            t1 = time.process_time()
            reading = read_board(photo_bgr, calibration)
            t2 = time.process_time()
            wall.append(1000 * (time.perf_counter() - w0))
            total.append(1000 * (t2 - t0))
            read_only.append(1000 * (t2 - t1))
            found += reading.found
    result = {
        "megapixels": round(w * h / 1e6, 1),
        "photos": len(jpegs),
        "runs": args.runs,
        "ms_median": round(statistics.median(total), 1),
        "ms_p95": round(float(np.percentile(total, 95)), 1),
        "read_ms_median": round(statistics.median(read_only), 1),
        "read_ms_p95": round(float(np.percentile(read_only, 95)), 1),
        "wall_ms_median": round(statistics.median(wall), 1),
        "found": found,
        "readings": len(total),
    }
    if args.json:
        print(json.dumps(result))
    else:
        print(
            f"{result['megapixels']} MP JPEG, one core (CPU time): {result['ms_median']} ms median, "
            f"{result['ms_p95']} ms p95 (decode + read; reading alone {result['read_ms_median']} / "
            f"{result['read_ms_p95']} ms; wall clock median {result['wall_ms_median']} ms); "
            f"board found in {found} of {len(total)}"
        )
    return 0


# ------------------------------------------------------------------------------------- generated set


def make_board_set(
    folder: str | Path, seed: int, side: str, photos: int, width: int, height: int, no_board: int = 2
) -> dict[str, Any]:
    """Write one generated print's labelled folder: calibration pair, photos, truth.json (formats page).

    Photos cycle through the four norths; every fifth is a hard one (strong light, glare, shadow).
    """
    from .board_scene import random_scene, render_board_photo, render_calibration_pair

    d = Path(folder)
    d.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    scene = random_scene(rng, side=side)
    empty_bgr, known_bgr, known = render_calibration_pair(rng, scene=scene, width=width, height=height)
    cv2.imwrite(str(d / "empty.jpg"), empty_bgr, [cv2.IMWRITE_JPEG_QUALITY, 90])
    cv2.imwrite(str(d / "known.jpg"), known_bgr, [cv2.IMWRITE_JPEG_QUALITY, 90])
    (d / "known.json").write_text(json.dumps(known), encoding="utf-8")
    truth: dict[str, Any] = {
        "calibration": {"empty": "empty.jpg", "known": "known.jpg", "known_board": "known.json"},
        "photos": {},
    }
    for i in range(photos + no_board):
        name = f"{i:03d}.jpg"
        photo_rng = random.Random(seed * 1000 + i)
        if i < photos:
            north = NORTHS[i % 4]
            frame_bgr, t = render_board_photo(
                None, photo_rng, scene=scene, north=north, width=width, height=height, hard=i % 5 == 4
            )
        else:  # alternately a table without a board and a board cut off at the frame: both refused
            without = (i - photos) % 2 == 0
            frame_bgr, t = render_board_photo(
                None, photo_rng, scene=scene, width=width, height=height, board=not without, cut_off=not without
            )
        cv2.imwrite(str(d / name), frame_bgr, [cv2.IMWRITE_JPEG_QUALITY, 92])
        truth["photos"][name] = {"grid": t["grid"], "north": t["north"]}
    (d / "truth.json").write_text(json.dumps(truth, indent=1), encoding="utf-8")
    return truth


def run_make_set(args: argparse.Namespace) -> int:
    if args.side not in ("inland", "waterfront"):
        return _fail("make-board-set", f"--side: unknown side {args.side!r}; sides are inland, waterfront")
    try:
        truth = make_board_set(args.folder, args.seed, args.side, args.photos, args.width, args.height)
    except OSError as e:
        return _fail("make-board-set", f"{args.folder}: cannot write: {e.strerror or e}")
    print(f"{len(truth['photos'])} photos and a calibration pair written to {args.folder}")
    return 0


# ------------------------------------------------------------------------------------- register


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("calibrate-board", help="learn a board print from an empty photo and a known layout")
    p.add_argument("empty", metavar="EMPTY_PHOTO")
    p.add_argument("known", metavar="KNOWN_PHOTO")
    p.add_argument("known_board", metavar="KNOWN_BOARD.json")
    p.add_argument("--out", required=True, metavar="CALIBRATION.json")
    p.add_argument("--quiet", action="store_true", help="print nothing on success")
    p.set_defaults(func=run_calibrate)

    p = sub.add_parser("read-board", help="read board photos into 6 x 6 grids (board coordinates)")
    p.add_argument("photos", nargs="+", metavar="PHOTO")
    p.add_argument("--calibration", required=True, metavar="CALIBRATION.json")
    p.add_argument("--json", action="store_true", help="one JSON object per photo (data-formats.md)")
    p.add_argument("--debug", metavar="OUT.png", help="draw the outline, grid, readings and confidences")
    p.set_defaults(func=run_read)

    p = sub.add_parser("score-photo", help="read a board photo and score it (exit 1 when no board is found: no score)")
    p.add_argument("photo", metavar="PHOTO")
    p.add_argument("--calibration", required=True, metavar="CALIBRATION.json")
    p.add_argument("--variants", help="comma-separated variants in play (family, construction, solo, wild_nights)")
    p.add_argument("--json", action="store_true", help="the reading plus a 'score' object (that of score --json)")
    p.set_defaults(func=run_score_photo)

    p = sub.add_parser("eval-board", help="measure the reader on a labelled folder of board photos")
    p.add_argument("folder", metavar="DIR")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=run_eval)

    p = sub.add_parser("make-board-set", help="write a generated labelled folder of one board print (for eval-board)")
    p.add_argument("folder", metavar="DIR")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--side", default="inland")
    p.add_argument("--photos", type=int, default=24, help="photos with a board (plus two without: default 24)")
    p.add_argument("--width", type=int, default=1600)
    p.add_argument("--height", type=int, default=1200)
    p.set_defaults(func=run_make_set)

    p = sub.add_parser("bench-board", help="milliseconds per 12-megapixel board photo on one core")
    p.add_argument("--photos", type=int, default=4, help="generated photos (default 4)")
    p.add_argument("--runs", type=int, default=3, help="times each photo is read (default 3)")
    p.add_argument("--width", type=int, default=4000)
    p.add_argument("--height", type=int, default=3000)
    p.add_argument("--seed", type=int, default=12)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=run_bench)
