"""``shakecity read-shaker``, ``eval-shaker``, ``bench-shaker``, ``make-shaker-set`` and ``make-grid-set``.

Contracts in ``shared/rules/data-formats.md``: ``read-shaker IMAGE... --json`` prints one JSON object
(one line per image, with ``"image"``, when several); an unreadable image is a one-line error on
standard error and a non-zero exit when alone, an ``"error"`` key in its line when among several.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any, NamedTuple

import cv2
import numpy as np

from .colour import Palette, default_palette, load_palette
from .errors import VisionError
from .image_io import read_image
from .shaker import (
    DEFAULT_SETTINGS,
    ROTATIONS,
    ShakerReading,
    calibrate_from_frame,
    draw_reading,
    first_look,
    frame_stage_times,
    read_shaker,
)

EXIT_BAD_INPUT = 2


class InputError(Exception):
    """Bad input for a command: printed as one line on standard error."""


def _palette(args: argparse.Namespace) -> Palette:
    if getattr(args, "palette", None):
        try:
            return load_palette(args.palette)
        except VisionError as e:
            raise InputError(f"--palette: {e}") from None
    return default_palette()


def _parse_pattern(text: str) -> list[list[str]]:
    raw: Any
    if text.lstrip().startswith("["):
        try:
            raw = json.loads(text)
        except json.JSONDecodeError as e:
            raise InputError(f"--pattern: not valid JSON: {e.msg}") from None
    else:
        raw = [row.split(",") for row in text.strip().split("/")]
    if not (
        isinstance(raw, list)
        and len(raw) == 3
        and all(isinstance(r, list) and len(r) == 3 and all(isinstance(c, str) for c in r) for r in raw)
    ):
        raise InputError('--pattern: expected 3 rows of 3 colours, e.g. "red,blue,black/green,gray,red/..."')
    return [[c.strip() for c in r] for r in raw]


def calibrate(image: str, pattern: list[list[str]], base: Palette, rotation: int = 0) -> Palette:
    """A palette adapted to the light and camera of one photo of a known pattern."""
    frame_bgr = read_image(image)
    try:
        return calibrate_from_frame(frame_bgr, pattern, base, rotation)
    except VisionError as e:
        raise InputError(f"{image}: {e}") from None


def run_read(args: argparse.Namespace) -> int:
    rotation = args.rotate
    try:
        palette = _palette(args)
        if args.calibrate:
            image, pattern = args.calibrate
            palette = calibrate(image, _parse_pattern(pattern), palette, rotation)
            if args.save_palette:
                palette.save(args.save_palette)
    except (InputError, VisionError) as e:
        print(f"shakecity read-shaker: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    several = len(args.images) > 1
    status = 0
    for path in args.images:
        try:
            frame_bgr = read_image(path)
        except VisionError as e:
            if not several:
                print(f"shakecity read-shaker: {e}", file=sys.stderr)
                return EXIT_BAD_INPUT
            print(json.dumps({"image": path, "valid": False, "pattern": None, "error": str(e)}))
            status = 1
            continue
        reading = read_shaker(frame_bgr, palette, rotation)
        if args.debug and not several:
            cv2.imwrite(args.debug, draw_reading(frame_bgr, reading))
        out = reading.to_json()
        if several:
            out = {"image": path, **out}
        if args.json or several:
            print(json.dumps(out))
        else:
            print(_describe(reading))
    return status


def _describe(reading: ShakerReading) -> str:
    if not reading.valid or reading.pattern is None:
        return f"no pattern: {reading.reason}"
    width = max(len(c) for row in reading.pattern for c in row)
    return "\n".join("  ".join(f"{c:<{width}}" for c in row) for row in reading.pattern)


# ---------------------------------------------------------------- evaluation


class _Read(NamedTuple):
    """What the evaluation asks of a reading (a worker sends back this much, not the reading's debug)."""

    valid: bool
    pattern: list[list[str]] | None
    reason: str | None


def _read_one(job: tuple[Path, Palette]) -> tuple[_Read | None, float, str | None]:
    """One labelled image read (in a worker process with ``--jobs``): the reading, its seconds (after decoding),
    or the image's error."""
    path, palette = job
    try:
        frame_bgr = read_image(path)
    except VisionError as e:
        return None, 0.0, str(e)
    t0 = time.perf_counter()
    reading = read_shaker(frame_bgr, palette)
    seconds = time.perf_counter() - t0
    return _Read(reading.valid, reading.pattern, reading.reason), seconds, None


def _one_thread_each() -> None:
    """A worker's OpenCV on one thread: ``--jobs N`` uses N cores, each image read as ``bench-shaker`` reads it."""
    cv2.setNumThreads(1)


def _readings(paths: list[Path], palette: Palette, jobs: int) -> Iterator[tuple[_Read | None, float, str | None]]:
    """Each image's :func:`_read_one`, in the order given: here, or in ``jobs`` worker processes."""
    if jobs <= 1 or len(paths) <= 1:
        yield from map(_read_one, ((p, palette) for p in paths))
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    # (spawned workers: no OpenCV thread pool inherited through a fork)
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=_one_thread_each) as pool:
        yield from pool.map(_read_one, ((p, palette) for p in paths), chunksize=8)


def evaluate(
    folder: Path | Sequence[Path], palette: Palette, *, limit: int | None = None, jobs: int = 1
) -> dict[str, Any]:
    """Read every image of a labelled folder (or of several: the counts summed, each misread image named by its
    folder too) and measure the reader against ``truth.json``. ``jobs``: worker processes reading the images (the
    counts the same; the read time each image's own)."""
    folders = [folder] if isinstance(folder, Path) else list(folder)
    labelled: list[tuple[str, dict[str, Any], str | None, Path]] = []  # (name shown, truth, table, path)
    for one in folders:
        truth = _truth_object(one)
        names = sorted(truth)[:limit] if limit else sorted(truth)
        tables = _tables(one)
        for name in names:
            t = _truth_entry(one, truth, name)
            shown = name if len(folders) == 1 else f"{one.name}/{name}"
            labelled.append((shown, t, tables.get(name), one / name))
    by_table: dict[str, Counter[str]] = {}
    cubes = cubes_ok = 0
    patterns = patterns_ok = 0
    complete = false_refusals = 0
    incomplete = refused = 0
    confusion: Counter[tuple[str, str]] = Counter()
    misread: list[str] = []
    times = []
    read = _readings([path for *_, path in labelled], palette, jobs)
    for (name, t, table, _path), (reading, seconds, error) in zip(labelled, read, strict=True):
        if reading is None:
            misread.append(f"{name}: {error}")
            continue
        times.append(seconds)
        # (what the image counts for by its table, as judged below for the whole folder)
        counted = ["complete" if t["valid"] else "incomplete"]
        if t["valid"]:
            complete += 1
            if not reading.valid or reading.pattern is None:
                false_refusals += 1
                counted.append("false_refusals")
                misread.append(f"{name}: refused a complete pattern ({reading.reason})")
            else:
                patterns += 1
                bad = 0
                for r in range(3):
                    for c in range(3):
                        want, got = t["pattern"][r][c], reading.pattern[r][c]
                        confusion[(want, got)] += 1
                        cubes += 1
                        if want == got:
                            cubes_ok += 1
                        else:
                            bad += 1
                if bad:
                    misread.append(f"{name}: {bad} cube(s) misread: {json.dumps(reading.pattern)}")
                else:
                    patterns_ok += 1
                    counted.append("patterns_right")
        else:
            incomplete += 1
            if not reading.valid:
                refused += 1
            else:
                counted.append("incomplete_accepted")
                misread.append(f"{name}: accepted an incomplete pattern as {json.dumps(reading.pattern)}")
        if table is not None:
            by_table.setdefault(table, Counter()).update(counted)
    return {
        "images": len(labelled),
        "complete": complete,
        "incomplete": incomplete,
        "cube_accuracy": cubes_ok / cubes if cubes else None,
        "cubes": cubes,
        "pattern_rate": patterns_ok / complete if complete else None,
        "patterns_right": patterns_ok,
        "refusal_recall": refused / incomplete if incomplete else None,
        "false_refusals": false_refusals,
        "false_refusal_rate": false_refusals / complete if complete else None,
        "confusion": {f"{a}->{b}": n for (a, b), n in sorted(confusion.items())},
        "misread": misread,
        "ms_median": 1000 * statistics.median(times) if times else None,
        # (the counts by the table each image shows, when the folder's meta.json names it)
        "by_table": {table: {k: tally[k] for k in _TABLE_COUNTS} for table, tally in sorted(by_table.items())},
    }


_TABLE_COUNTS = ("complete", "patterns_right", "false_refusals", "incomplete", "incomplete_accepted")


def _tables(folder: Path) -> dict[str, str]:
    """The table each image shows, by image name, from the folder's ``meta.json`` when there is one: the scene's
    ``table`` (make-shaker-set's) or ``surface`` (the photoreal dev set's). None there: an empty mapping."""
    path = folder / "meta.json"
    if not path.exists():
        return {}
    meta = _read_json(path)
    if not isinstance(meta, dict):
        raise InputError(f"{path}: expected an object mapping image names to what was drawn")
    tables = {}
    for name, entry in meta.items():
        if not isinstance(entry, dict):
            continue
        scene = entry.get("scene")
        table = scene.get("table") if isinstance(scene, dict) else entry.get("surface")
        if isinstance(table, str):
            tables[name] = table
    return tables


def _truth_object(folder: Path) -> dict[str, Any]:
    """A labelled folder's ``truth.json``: an object mapping image names to their truth, or one clear error."""
    truth = _read_json(folder / "truth.json")
    if not isinstance(truth, dict) or not truth:
        raise InputError(f"{folder / 'truth.json'}: expected an object mapping image names to their truth")
    return truth


def _truth_entry(folder: Path, truth: dict[str, Any], name: str) -> dict[str, Any]:
    """One image's truth (``{"valid": ..., "pattern": ...}``) in the folder's ``truth.json``, or one clear error."""
    t = truth[name]
    if not isinstance(t, dict) or "valid" not in t:
        raise InputError(f"{folder / 'truth.json'}: {name}: expected {{'valid': ..., 'pattern': ...}}")
    return t


def _read_json(path: Path) -> Any:
    """A labelled folder's JSON file (truth.json, meta.json), or one clear error."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise InputError(f"{path}: cannot read: {e.strerror or e}") from None
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise InputError(f"{path}: not valid JSON") from None


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{100 * x:.2f} %"


def format_evaluation(ev: dict[str, Any]) -> str:
    lines = [
        f"images: {ev['images']} ({ev['complete']} complete, {ev['incomplete']} incomplete)",
        f"cube accuracy:       {_pct(ev['cube_accuracy'])} of {ev['cubes']} cubes in read patterns",
        f"exact patterns:      {_pct(ev['pattern_rate'])} ({ev['patterns_right']} of {ev['complete']} complete)",
        f"refusal recall:      {_pct(ev['refusal_recall'])} of incomplete patterns refused",
        f"false refusals:      {ev['false_refusals']} ({_pct(ev['false_refusal_rate'])} of complete patterns)",
    ]
    if ev["ms_median"] is not None:
        lines.append(f"read time:           {ev['ms_median']:.1f} ms median per image (after decoding)")
    colours = sorted({k.split("->")[0] for k in ev["confusion"]} | {k.split("->")[1] for k in ev["confusion"]})
    if colours:
        lines.append("confusion (rows: truth, columns: read):")
        w = max(6, *(len(c) for c in colours))
        lines.append(" " * (w + 2) + " ".join(f"{c:>{w}}" for c in colours))
        for a in colours:
            row = " ".join(f"{ev['confusion'].get(f'{a}->{b}', 0):>{w}}" for b in colours)
            lines.append(f"  {a:<{w}}" + row)
    if ev["by_table"]:
        lines.append("by table (meta.json):")
        w = max(len(t) for t in ev["by_table"])
        for table, n in ev["by_table"].items():
            exact = n["patterns_right"] / n["complete"] if n["complete"] else None
            refused = n["false_refusals"] / n["complete"] if n["complete"] else None
            accepted = n["incomplete_accepted"] / n["incomplete"] if n["incomplete"] else None
            lines.append(
                f"  {table:<{w}}  {n['complete']} complete: exact {_pct(exact)}, refused {_pct(refused)}; "
                f"{n['incomplete']} incomplete: accepted {_pct(accepted)}"
            )
    lines.append(f"misread files: {len(ev['misread'])}")
    lines.extend(f"  {m}" for m in ev["misread"])
    return "\n".join(lines)


def run_eval(args: argparse.Namespace) -> int:
    try:
        palette = _palette(args)
        if args.jobs < 1:
            raise InputError("--jobs must be at least 1")
        folders = [Path(d) for d in args.dir]
        for folder in folders:
            if not folder.is_dir():
                raise InputError(f"{folder}: not a folder")
        ev = evaluate(folders, palette, limit=args.limit, jobs=args.jobs)
    except InputError as e:
        print(f"shakecity eval-shaker: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenProcessPool:
        print("shakecity eval-shaker: a worker process died (killed, or out of memory?): no figures", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(ev))
    else:
        print(format_evaluation(ev))
    return 0


# ---------------------------------------------------------------- benchmark and generated sets


def bench(frames: int = 60, seed: int = 1, first_look_only: bool = False) -> dict[str, Any]:
    """Milliseconds per decoded 1024 x 768 frame on one core (frames from the scene generator); with
    ``first_look_only``, read with :func:`vision.shaker.first_look`'s settings (the live reader's look at a
    moving view: none of a refused frame's second looks)."""
    from .shaker_scene import render_scene_set

    settings = first_look(DEFAULT_SETTINGS) if first_look_only else DEFAULT_SETTINGS
    threads = cv2.getNumThreads()
    cv2.setNumThreads(1)
    try:
        scenes = [f for f, _ in render_scene_set(random.Random(seed), frames)]
        palette = default_palette()
        read_shaker(scenes[0], palette, settings=settings)  # warm up
        times, cpu, refused = [], [], []
        stages: list[dict[str, float]] = []
        for frame_bgr in scenes:
            t0, c0 = time.perf_counter(), time.process_time()
            reading = read_shaker(frame_bgr, palette, settings=settings)
            times.append(1000 * (time.perf_counter() - t0))
            cpu.append(1000 * (time.process_time() - c0))
            refused.append(not reading.valid)
            stages.append(frame_stage_times(frame_bgr, settings))  # (made again apart, after the timed read)
    finally:
        cv2.setNumThreads(threads)
    by_refusal = {r: [t for t, was in zip(times, refused, strict=True) if was is r] for r in (True, False)}
    times.sort()
    cpu.sort()

    def p95(values: list[float]) -> float:
        return values[min(len(values) - 1, int(round(0.95 * (len(values) - 1))))]

    return {
        "frames": len(times),
        "median_ms": statistics.median(times),
        "p95_ms": p95(times),
        "max_ms": times[-1],
        # CPU time of this process: what the reader costs when other work shares the machine
        "cpu_median_ms": statistics.median(cpu),
        "cpu_p95_ms": p95(cpu),
        "first_look": first_look_only,
        # (a refused frame, read again on other lattices and copies in full, costs several accepted ones: the p95)
        "refused_frames": len(by_refusal[True]),
        "refused_mean_ms": statistics.mean(by_refusal[True]) if by_refusal[True] else None,
        "accepted_mean_ms": statistics.mean(by_refusal[False]) if by_refusal[False] else None,
        # the stages before any lattice is built (vision.shaker.frame_stage_times), each frame's made again apart:
        # what every frame costs however it is read after
        "stages_median_ms": {stage: statistics.median(s[stage] for s in stages) for stage in stages[0]},
        "before_lattices_median_ms": statistics.median(sum(s.values()) for s in stages),
    }


def run_bench(args: argparse.Namespace) -> int:
    if args.frames < 1:
        print("shakecity bench-shaker: --frames must be at least 1", file=sys.stderr)
        return EXIT_BAD_INPUT
    b = bench(args.frames, args.seed, args.first_look)
    if args.json:
        print(json.dumps(b))
    else:
        print(
            f"read-shaker{' (first looks only)' if b['first_look'] else ''} on {b['frames']} decoded 1024 x 768 "
            f"frames, one core: median {b['median_ms']:.2f} ms, p95 {b['p95_ms']:.2f} ms, max {b['max_ms']:.2f} ms "
            f"(CPU time: median {b['cpu_median_ms']:.2f} ms, p95 {b['cpu_p95_ms']:.2f} ms)"
        )

        def mean(key: str) -> str:
            return "n/a" if b[key] is None else f"{b[key]:.2f} ms"

        print(
            f"  refused frames: {b['refused_frames']}, {mean('refused_mean_ms')} mean; the others "
            f"{mean('accepted_mean_ms')} mean"
        )
        parts = ", ".join(f"{stage} {ms:.2f}" for stage, ms in b["stages_median_ms"].items())
        print(f"  before any lattice, every frame: median {b['before_lattices_median_ms']:.2f} ms ({parts})")
    return 0


def _out_folder(path: str, command: str) -> Path | None:
    """The folder a make-... command writes into, made when missing; None (and a one-line error) when it cannot be."""
    out = Path(path)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        print(f"shakecity {command}: {out}: {e.strerror or e}", file=sys.stderr)
        return None
    return out


def run_make_set(args: argparse.Namespace) -> int:
    from .shaker_scene import render_scene_set

    out = _out_folder(args.out, "make-shaker-set")
    if out is None:
        return EXIT_BAD_INPUT
    truth, meta = {}, {}
    scenes = render_scene_set(random.Random(args.seed), args.n, fill_light=args.fill_light)
    for i, (frame_bgr, t) in enumerate(scenes):
        name = f"{i:04d}.png"
        cv2.imwrite(str(out / name), frame_bgr)
        truth[name] = {"valid": t["valid"], "pattern": t["pattern"]}
        # what was drawn (for analysing misreads, as the dev set's meta.json): not needed to evaluate
        meta[name] = {k: t[k] for k in ("scene", "cells", "grid_px", "knocked_out") if k in t}
    (out / "truth.json").write_text(json.dumps(truth, indent=1) + "\n", encoding="utf-8")
    (out / "meta.json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    print(f"{args.n} scenes written to {out}")
    return 0


def run_make_grid_set(args: argparse.Namespace) -> int:
    from .grid_scene import grid_scene_jpeg, sticker_palette_json

    if args.seeds < 1 or args.per_seed < 1:
        print("shakecity make-grid-set: --seeds and --per-seed must be at least 1", file=sys.stderr)
        return EXIT_BAD_INPUT
    out = _out_folder(args.out, "make-grid-set")
    if out is None:
        return EXIT_BAD_INPUT
    truth = {}
    for seed in range(args.seed, args.seed + args.seeds):
        rng = np.random.default_rng(seed)  # (a seed's frames in order: the tests' grid_scene(kind, rng) calls)
        for i in range(args.per_seed):
            jpeg, pattern = grid_scene_jpeg(args.kind, rng, close_up=args.close_up)
            name = f"{seed}_{i:02d}.jpg"  # (the JPEG as drawn: read back, the frame the tests read)
            (out / name).write_bytes(jpeg)
            truth[name] = {"valid": True, "pattern": pattern}
    (out / "truth.json").write_text(json.dumps(truth, indent=1) + "\n", encoding="utf-8")
    (out / "palette.json").write_text(json.dumps(sticker_palette_json(), indent=1) + "\n", encoding="utf-8")
    print(f"{len(truth)} {args.kind} grids written to {out} (read them with --palette {out / 'palette.json'})")
    return 0


def run_vary_set(args: argparse.Namespace) -> int:
    """Each image of a labelled folder written again as every variant (:mod:`vision.shaker_variants`), one folder
    per variant with its truth (and the folder's palette.json, when it has one)."""
    from .shaker_variants import VARIANT_NAMES, vary

    names = tuple(n for n in args.variants.split(",") if n) if args.variants else VARIANT_NAMES
    src = Path(args.src)
    try:
        unknown = [n for n in names if n not in VARIANT_NAMES]
        if unknown or not names:
            raise InputError(f"--variants: expected some of {', '.join(VARIANT_NAMES)}")
        truth = _truth_object(src)
        for name in truth:
            _truth_entry(src, truth, name)
        for name in truth:  # (every image read once first: a bad one stops the command before it writes anything)
            try:
                read_image(src / name)
            except VisionError as e:
                raise InputError(str(e)) from None
    except InputError as e:
        print(f"shakecity vary-shaker-set: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    out = _out_folder(args.out, "vary-shaker-set")
    if out is None:
        return EXIT_BAD_INPUT
    folders = {n: out / n for n in names}
    for folder in folders.values():
        folder.mkdir(exist_ok=True)
    varied: dict[str, dict[str, Any]] = {n: {} for n in names}
    for i, (name, t) in enumerate(sorted(truth.items())):
        frame_bgr = read_image(src / name)
        pattern = t.get("pattern") if t["valid"] else None
        for n, (frame_v, pattern_v) in vary(frame_bgr, pattern, names, seed=args.seed + i).items():
            png = f"{Path(name).stem}.png"
            cv2.imwrite(str(folders[n] / png), frame_v)
            varied[n][png] = {"valid": bool(t["valid"]), "pattern": pattern_v}
    palette = src / "palette.json"
    for n, folder in folders.items():
        (folder / "truth.json").write_text(json.dumps(varied[n], indent=1) + "\n", encoding="utf-8")
        if palette.is_file():
            (folder / "palette.json").write_bytes(palette.read_bytes())
    print(f"{len(truth)} images written as {len(names)} variants to {out} ({', '.join(names)})")
    return 0


def _rotation(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected one of {', '.join(map(str, ROTATIONS))}") from None
    if value not in ROTATIONS:
        raise argparse.ArgumentTypeError(f"expected one of {', '.join(map(str, ROTATIONS))}")
    return value


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("read-shaker", help="read the shaker's 3 x 3 pattern from photos")
    p.add_argument("images", nargs="+", metavar="IMAGE")
    p.add_argument("--json", action="store_true", help="print the JSON object of data-formats.md")
    p.add_argument("--palette", metavar="FILE", help="a palette JSON file (default: the game's six colours)")
    p.add_argument("--rotate", type=_rotation, default=0, metavar="0|90|180|270", help="the table's north")
    p.add_argument("--debug", metavar="OUT.png", help="write the frame annotated with the grid and colours")
    p.add_argument(
        "--calibrate",
        nargs=2,
        metavar=("PHOTO", "PATTERN"),
        help='adapt the palette to one photo of a known pattern ("red,blue,black/green,gray,red/...")',
    )
    p.add_argument("--save-palette", metavar="FILE", help="with --calibrate: write the calibrated palette")
    p.set_defaults(func=run_read)

    p = sub.add_parser("eval-shaker", help="measure the shaker reader on a labelled folder (truth.json)")
    p.add_argument("dir", metavar="DIR", nargs="+", help="labelled folders (several: their counts summed)")
    p.add_argument("--palette", metavar="FILE")
    p.add_argument("--limit", type=int, default=None, help="read only the first N images of each folder")
    p.add_argument("--jobs", type=int, default=1, help="read the images in N processes (one OpenCV thread each)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=run_eval)

    p = sub.add_parser("bench-shaker", help="milliseconds per decoded 1024 x 768 frame, one core")
    p.add_argument("--frames", type=int, default=60)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--first-look",
        action="store_true",
        help="read with none of a refused frame's second looks (the live reader's look at a moving view)",
    )
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=run_bench)

    p = sub.add_parser("make-shaker-set", help="write a labelled folder of generated shaker scenes")
    p.add_argument("out", metavar="DIR")
    p.add_argument("--n", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--fill-light",
        action="store_true",
        help="shadows lit by a second light of another colour: darker, tinted and softer (as in photoreal renders)",
    )
    p.set_defaults(func=run_make_set)

    p = sub.add_parser(
        "vary-shaker-set",
        help="write a labelled folder's images again, mirrored, turned, shrunk, lit, blurred, noisier, recompressed",
    )
    p.add_argument("src", metavar="SRC", help="a labelled folder (truth.json)")
    p.add_argument("out", metavar="DIR", help="written: one labelled folder per variant")
    p.add_argument("--variants", default="", help="a comma-separated list (default: all)")
    p.add_argument("--seed", type=int, default=0, help="the added noise's (image i: seed + i)")
    p.set_defaults(func=run_vary_set)

    p = sub.add_parser(
        "make-grid-set", help="write a labelled folder of other 3 x 3 grids (sticker colours) and their palette"
    )
    p.add_argument("out", metavar="DIR")
    p.add_argument("--kind", choices=("puzzle", "tiles", "glossy", "cube"), default="glossy")
    p.add_argument("--seed", type=int, default=1, help="the first seed")
    p.add_argument("--seeds", type=int, default=1, help="how many seeds, one after another")
    p.add_argument("--per-seed", type=int, default=20, help="grids drawn from each seed, in order")
    p.add_argument("--close-up", action="store_true", help="grids filling most of the frame's height")
    p.set_defaults(func=run_make_grid_set)
