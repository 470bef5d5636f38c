"""Benchmark of the live table loop: frames per second and the time from a frame to a page event.

Runs the whole chain as ``shakecity serve`` does (simulated camera -> live shaker reader -> game in
memory -> round tracker on mock pins -> listeners) for a while, playing the game on as patterns come
(every player places, then next round), and prints:

- the camera's and the loop's frames per second (and the frames the loop skipped because the reader
  was still busy: it always takes the latest frame);
- the reader's time per frame inside the loop, and how many frames it read in full, how many with a first
  look only (a moving view: the box being lifted) and how many reused the last reading (the same still view
  as the last one read: see ``vision.shaker_live``);
- the time from the frame that settled a reading to the page event (``latency_s`` of the event);
- the time from the box being lifted (known from the simulated timeline: the end of the lift, the box out of
  view, after ``--lifting`` seconds of it moving up off the cubes) to the page event, which includes the
  reader's stability wait;
- how many shakes were read right, read wrong, refused (shake again) or missed.

``shakecity bench-device [--seconds 20] [--lifting 0.3] [--full-reads] [--reader-slowdown K] [--json]`` or
``python -m device.bench`` (``--full-reads``: every changed frame read in full, no first looks, to compare;
``--reader-slowdown 3.5``: the reader played 3.5 times slower, as on a Raspberry Pi 4, by waiting after each frame).
"""

from __future__ import annotations

import argparse
import json
import queue
import statistics
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from scoring.shake_that_city.game import Game, Place, Setup, legal_choices, placements

from .cameras import SimulatedCamera
from .table import MemoryTable, TableLoop


class TimedReader:
    """Wraps a reader and records how long each ``feed`` takes (a measurement, not a stand-in).

    ``slowdown`` k > 1 plays a slower machine (a Raspberry Pi 4 is 3-4 times slower than a laptop core): after
    each feed it waits (k - 1) times the feed's own time before the loop gets the events, so the loop skips the
    frames a reader k times slower would miss and every event comes that much later. A reader that asks for the
    camera's newest frame while it reads (``watch``: between the looks of a long read) waits there too, (k - 1)
    times its work since the last wait, so it sees the frames a slower reader would see at that point of its
    read. ``work_seconds``: each feed's own time (its waits left out); ``seconds``: each feed's time as played
    (k times it, or a little more: a wait never ends early)."""

    def __init__(self, reader: Any, slowdown: float = 1.0) -> None:
        if slowdown < 1.0:
            raise ValueError("slowdown must be at least 1")
        self.reader = reader
        self.slowdown = slowdown
        self.seconds: list[float] = []
        self.work_seconds: list[float] = []
        self._lock = threading.Lock()
        self._mark = 0.0  # (when the feed's work began, or its last wait ended)
        self._waited = 0.0  # (the feed's waits so far)

    def _catch_up(self) -> float:
        """Wait (k - 1) times the work done since the last wait; the time it ended (one clock read: the wait's end,
        the next stretch of work's start and, at a feed's end, the feed's end are the same instant, so no sliver
        between them counts as work that no wait paid for)."""
        now = time.perf_counter()
        end = now
        if self.slowdown > 1.0:
            time.sleep((self.slowdown - 1.0) * (now - self._mark))
            end = time.perf_counter()
            self._waited += end - now
        self._mark = end
        return end

    def feed(self, frame_bgr: np.ndarray, t: float) -> list[Any]:
        start = self._mark = time.perf_counter()
        self._waited = 0.0
        events = list(self.reader.feed(frame_bgr, t))
        elapsed = self._catch_up() - start
        with self._lock:
            self.work_seconds.append(elapsed - self._waited)
            self.seconds.append(elapsed)
        return events

    def read(self, frame_bgr: np.ndarray) -> Any:
        return self.reader.read(frame_bgr)

    def watch(self, newest_frame: Callable[[], Any] | None) -> None:
        """The reader's own ``watch`` (the loop gives it the camera's newest frame), asked after this reader's wait
        for the work done so far (see the class docstring); nothing for a reader without one."""
        watch = getattr(self.reader, "watch", None)
        if not callable(watch):
            return
        if newest_frame is None:
            watch(None)
            return

        def newest_as_played() -> Any:
            self._catch_up()
            return newest_frame()

        watch(newest_as_played)


def place_everyone(game: Game) -> None:
    """Every player takes their first legal colour at its first legal spot (the active player first)."""
    state = game.state
    order = [state.active_player] + [p for p in state.setup.players if p != state.active_player]
    for name in order:
        choices = legal_choices(game.state, name)
        if choices:
            row, col = placements(game.state, name, choices[0])[0]
            game.apply(Place(name, choices[0].colour, choices[0].wilds, row, col))


def _ms(values: list[float]) -> dict[str, float | None]:
    if not values:
        return {"median_ms": None, "p90_ms": None, "max_ms": None}
    ordered = sorted(values)
    return {
        "median_ms": round(statistics.median(ordered) * 1000, 1),
        "p90_ms": round(ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))] * 1000, 1),
        "max_ms": round(ordered[-1] * 1000, 1),
    }


def bench(
    *,
    seconds: float = 20.0,
    fps: float = 30.0,
    width: int = 1024,
    height: int = 768,
    covered_s: float = 1.0,
    lifted_s: float = 2.5,
    lifting_s: float = 0.3,
    seed: int = 1,
    sensor_noise: float = 2.0,
    players: tuple[str, ...] = ("Ann", "Bo", "Cy"),
    first_looks: bool = True,
    reader_slowdown: float = 1.0,
) -> dict[str, Any]:
    """Run the live loop for ``seconds`` and measure it (see the module docstring)."""
    from gpiozero.pins.mock import MockFactory

    from vision.shaker_live import LiveShakerReader

    from .tracker import RoundTracker

    def new_game() -> Game:
        return Game(Setup.create(list(players), "inland", ["wild_nights"]))

    table = MemoryTable(new_game())

    def contents() -> dict[str, int]:
        state = table.state()
        return state.shaker() if state is not None else {}

    camera = SimulatedCamera(
        seed=seed,
        fps=fps or None,
        width=width,
        height=height,
        covered_s=covered_s,
        lifted_s=lifted_s,
        lifting_s=lifting_s,
        contents=contents,
        sensor_noise=sensor_noise,
    )
    # (first looks as the live reader gives them by default; else every changed frame in full)
    reader = TimedReader(
        LiveShakerReader() if first_looks else LiveShakerReader(first_look_seconds=0.0), slowdown=reader_slowdown
    )
    news: queue.Queue[tuple[float, dict[str, Any]]] = queue.Queue()
    factory = MockFactory()
    tracker = RoundTracker(pin_factory=factory)
    loop = TableLoop(camera, reader, table, tracker, listeners=[lambda e: news.put((time.monotonic(), e))])
    cycle = covered_s + lifting_s + lifted_s
    results: list[dict[str, Any]] = []
    try:
        loop.start()
        started = time.monotonic()
        while (left := started + seconds - time.monotonic()) > 0:
            try:
                at, event = news.get(timeout=min(left, 0.5))
            except queue.Empty:
                continue
            if event["type"] not in ("pattern", "shake_again") or camera.timeline_start is None:
                continue
            shake = int((at - camera.timeline_start) // cycle)
            lifted_at = camera.timeline_start + shake * cycle + covered_s + lifting_s  # (the box out of view)
            truth, knocked, _seed = camera.shake(shake)
            result = {"shake": shake, "type": event["type"], "lift_to_event_s": at - lifted_at}
            if event["type"] == "pattern":
                result["latency_s"] = event["latency_s"]
                result["right"] = event["pattern"] == truth
                with table.lock:
                    game = table.game
                    assert game is not None
                    if game.state.pattern is not None:
                        place_everyone(game)
                loop.next_round()
                if table.state() is not None and table.state().finished:  # type: ignore[union-attr]
                    table.game = new_game()
                    loop.refresh()
            results.append(result)
        ended = time.monotonic()
        elapsed = ended - started
        camera_frames = camera.status().frames
    finally:
        loop.stop()
        tracker.close()
        factory.close()
    patterns = [r for r in results if r["type"] == "pattern"]
    reported = {r["shake"] for r in results}
    shown, missed = shakes_shown(camera.timeline_start, ended, cycle, reported)
    return {
        "seconds": round(elapsed, 1),
        "frame_size": [width, height],
        "camera_fps_cap": fps,
        "camera_fps": round(camera_frames / elapsed, 1),
        "loop_fps": round(loop.frames_seen / elapsed, 1),
        "frames_skipped": max(0, camera_frames - loop.frames_seen),
        "reader_per_frame": _ms(reader.seconds),
        "reader_slowdown": reader_slowdown,
        "sensor_noise": sensor_noise,
        "lifting_s": lifting_s,
        "first_looks": first_looks,
        "frames_read_in_full": reader.reader.reads - reader.reader.first_looks - reader.reader.looks_again,
        "frames_read_with_a_first_look": reader.reader.first_looks,
        "still_views_looked_at_again": reader.reader.looks_again,
        "full_reads_stopped": reader.reader.stopped_reads,
        "frames_reusing_a_reading": reader.reader.reuses,
        "frame_to_event": _ms([r["latency_s"] for r in patterns]),
        "lift_to_event": _ms([r["lift_to_event_s"] for r in results]),
        "shakes_shown": shown,
        "read_right": sum(1 for r in patterns if r["right"]),
        "read_wrong": sum(1 for r in patterns if not r["right"]),
        "shake_again": sum(1 for r in results if r["type"] == "shake_again"),
        "missed": missed,
    }


def shakes_shown(timeline_start: float | None, ended: float, cycle: float, reported: set[int]) -> tuple[int, int]:
    """How many shakes the run showed and how many of those went unreported, the shakes numbered from the camera's
    timeline (``timeline_start``, its first frame; each ``cycle`` seconds long). A shake was shown when its cycle
    ended (covered, lifted, the box put back) before the run did, or when it was reported before its cycle ended;
    a shake whose lift the run ended in and that nobody reported is neither shown nor missed."""
    whole = 0 if timeline_start is None else max(0, int((ended - timeline_start) // cycle))
    shown = set(range(whole)) | reported
    return len(shown), len(shown - reported)


def render(figures: dict[str, Any]) -> str:
    f = figures
    w, h = f["frame_size"]
    lines = [
        f"live table loop, {f['seconds']} s of {w}x{h} simulated frames (camera capped at {f['camera_fps_cap']} fps; "
        f"each lift {f['lifting_s']} s; {'first looks' if f['first_looks'] else 'full reads'} while the view moves"
        + (f"; the reader played {f['reader_slowdown']} times slower" if f["reader_slowdown"] > 1 else "")
        + ")",
        f"  camera          {f['camera_fps']} frames/s",
        f"  loop            {f['loop_fps']} frames/s ({f['frames_skipped']} frames skipped while the reader was busy)",
        "  reader          {median_ms} ms median, {p90_ms} ms p90, {max_ms} ms max per frame".format(
            **f["reader_per_frame"]
        ),
        f"  still view      {f['frames_read_in_full']} frames read in full, {f['frames_read_with_a_first_look']} with "
        f"a first look (a moving view), {f['still_views_looked_at_again']} with a first look again (a still view after "
        f"a while), {f['frames_reusing_a_reading']} reused the last reading (sensor noise "
        f"{f['sensor_noise']} levels); {f['full_reads_stopped']} full reads stopped as the view changed",
        "  frame -> event  {median_ms} ms median, {p90_ms} ms p90, {max_ms} ms max".format(**f["frame_to_event"]),
        "  lift -> event   {median_ms} ms median, {p90_ms} ms p90, {max_ms} ms max".format(**f["lift_to_event"]),
        f"  shakes          {f['shakes_shown']} shown: {f['read_right']} read right, {f['read_wrong']} read wrong, "
        f"{f['shake_again']} shake again, {f['missed']} missed",
    ]
    return "\n".join(lines)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--seconds", type=float, default=20.0, help="how long to run (default 20)")
    p.add_argument("--fps", type=float, default=30.0, help="the simulated camera's frame rate (default 30)")
    p.add_argument("--width", type=int, default=1024)
    p.add_argument("--height", type=int, default=768)
    p.add_argument("--covered", type=float, default=1.0, help="seconds the box covers the table each shake")
    p.add_argument("--lifted", type=float, default=2.5, help="seconds each pattern stays on the table")
    p.add_argument(
        "--lifting", type=float, default=0.3, help="seconds the box takes to move off the cubes (0: at once)"
    )
    p.add_argument(
        "--full-reads", action="store_true", help="read every changed frame in full: no first looks (to compare)"
    )
    p.add_argument(
        "--reader-slowdown",
        type=float,
        default=1.0,
        metavar="K",
        help="play a reader K times slower (it waits K - 1 times each frame's time): a Raspberry Pi 4 is 3-4",
    )
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--noise", type=float, default=2.0, help="the camera's sensor noise in levels (default 2)")
    p.add_argument("--json", action="store_true", help="print the figures as one JSON object")


def run(args: argparse.Namespace) -> int:
    if args.fps <= 0 or args.seconds <= 0:
        print("shakecity bench-device: --fps and --seconds must be more than 0", file=sys.stderr)
        return 2
    if args.lifting < 0:
        print("shakecity bench-device: --lifting must not be negative", file=sys.stderr)
        return 2
    if not args.reader_slowdown >= 1:
        print("shakecity bench-device: --reader-slowdown must be at least 1", file=sys.stderr)
        return 2
    try:
        figures = bench(
            seconds=args.seconds,
            fps=args.fps,
            width=args.width,
            height=args.height,
            covered_s=args.covered,
            lifted_s=args.lifted,
            lifting_s=args.lifting,
            seed=args.seed,
            sensor_noise=args.noise,
            first_looks=not args.full_reads,
            reader_slowdown=args.reader_slowdown,
        )
    except ImportError as e:
        print(f"shakecity bench-device: {e}", file=sys.stderr)
        return 2
    print(json.dumps(figures) if args.json else render(figures))
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m device.bench", description=__doc__.splitlines()[0])
    add_arguments(p)
    return run(p.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
