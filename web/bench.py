"""Benchmark of the table page under load: ``python -m web.bench``.

Starts ``shakecity serve`` on a free loopback port with a temporary ``--data`` folder, sets up a game,
then opens ``--clients`` event streams (each client also has its own keep-alive connection for
requests) and prints:

- p50 / p99 / max latency of ``GET /api/game`` while every stream is open, ``--requests`` per client;
- the time from sending ``POST /api/shake`` to the event arriving on every one of the clients, over
  ``--shakes`` shakes (p50 and max over all client-arrivals, and the slowest client per shake);
- the server's resident memory (VmRSS now, VmHWM peak) from ``/proc``.

Loopback only (127.0.0.1) and bounded: every wait has a timeout, and the server is stopped at the end.
Goals from the issue: p99 <= 20 ms, shake-to-every-client <= 100 ms, <= 120 MB.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

HOST = "127.0.0.1"
PIN = "1357"
TIMEOUT = 30.0
PATTERNS = [
    [["red", "red", "blue"], ["green", "gray", "black"], ["red", "blue", "blue"]],
    [["blue", "black", "blue"], ["green", "green", "gray"], ["red", "gray", "black"]],
]


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def request(conn: http.client.HTTPConnection, method: str, path: str, body: Any = None) -> tuple[int, bytes]:
    headers = {"X-Table-Pin": PIN}
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    conn.request(method, path, body=data, headers=headers)
    response = conn.getresponse()
    return response.status, response.read()


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[k]


def memory_kb(pid: int) -> dict[str, int]:
    out = {}
    with open(f"/proc/{pid}/status", encoding="ascii") as f:
        for line in f:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                out[key] = int(value.split()[0])
    return out


class StreamClient(threading.Thread):
    """One page: an open event stream, noting when each shake event arrives."""

    def __init__(self, port: int, index: int) -> None:
        super().__init__(name=f"stream-{index}", daemon=True)
        self.port = port
        self.ready = threading.Event()
        self.arrivals: dict[int, float] = {}  # seq -> perf_counter time the event arrived
        self.arrived = threading.Condition()
        self.error: str | None = None
        self.conn = http.client.HTTPConnection(HOST, port, timeout=TIMEOUT)

    def run(self) -> None:
        try:
            self.conn.request("GET", "/api/events")
            response = self.conn.getresponse()
            if response.status != 200:
                self.error = f"event stream refused: {response.status} {response.read()[:200]!r}"
                self.ready.set()
                return
            self.ready.set()
            event, seq = None, None
            while True:
                line = response.readline()
                if not line:
                    return
                text = line.decode().rstrip("\n")
                if text.startswith("event: "):
                    event = text[7:]
                elif text.startswith("id: "):
                    seq = int(text[4:])
                elif text.startswith("data: ") and event == "game" and seq is not None:
                    now = time.perf_counter()
                    if '"change":"shake"' in text[:80]:
                        with self.arrived:
                            self.arrivals[seq] = now
                            self.arrived.notify_all()
                elif text == "":
                    event, seq = None, None
        except (OSError, http.client.HTTPException) as e:
            if self.error is None and not getattr(self, "closing", False):
                self.error = f"{type(e).__name__}: {e}"
            self.ready.set()

    def wait_for(self, seq: int, timeout: float) -> float | None:
        deadline = time.monotonic() + timeout
        with self.arrived:
            while seq not in self.arrivals:
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self.arrived.wait(left)
            return self.arrivals[seq]

    def close(self) -> None:
        self.closing = True
        try:
            if self.conn.sock is not None:
                self.conn.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.conn.close()


def start_server(data_dir: Path, port: int, threads: int) -> subprocess.Popen[bytes]:
    args = [sys.executable, "-m", "web.cli", "serve", "--host", HOST, "--port", str(port), "--data", str(data_dir)]
    args += ["--pin", PIN, "--camera", "none", "--pins", "none", "--threads", str(threads)]
    log = open(data_dir / "serve.log", "wb")  # noqa: SIM115 - handed to the child, closed below
    try:
        proc = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT)
    finally:
        log.close()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError((data_dir / "serve.log").read_text(errors="replace"))
        try:
            conn = http.client.HTTPConnection(HOST, port, timeout=2)
            try:
                if request(conn, "GET", "/api/device")[0] == 200:
                    return proc
            finally:
                conn.close()
        except OSError:
            time.sleep(0.1)
    proc.kill()
    proc.wait()
    raise RuntimeError("the server did not start within 60 s")


def run(clients: int, requests_per_client: int, shakes: int, threads: int) -> int:
    with tempfile.TemporaryDirectory(prefix="shakecity-bench-") as tmp:
        data_dir = Path(tmp)
        port = free_port()
        proc = start_server(data_dir, port, threads)
        streams: list[StreamClient] = []
        try:
            control = http.client.HTTPConnection(HOST, port, timeout=TIMEOUT)
            status, _ = request(control, "POST", "/api/games", {"players": ["Ann", "Bo", "Cy", "Di"]})
            assert status == 201, status
            streams = [StreamClient(port, i) for i in range(clients)]
            for s in streams:
                s.start()
            for s in streams:
                s.ready.wait(TIMEOUT)
            errors = [s.error for s in streams if s.error]
            if errors:
                print(f"event streams failed: {errors[:3]}", file=sys.stderr)
                return 1
            time.sleep(0.5)
            mem_idle = memory_kb(proc.pid)

            # 1a. GET /api/game one at a time, while every stream is open (what one page sees)
            single: list[float] = []
            for _ in range(requests_per_client * 10):
                t0 = time.perf_counter()
                status, _ = request(control, "GET", "/api/game")
                single.append(time.perf_counter() - t0)
                if status != 200:
                    raise RuntimeError(f"GET /api/game: {status}")

            # 1b. GET /api/game from every client at once, back to back (the table saturated)
            latencies: list[float] = []
            lock = threading.Lock()
            go = threading.Barrier(clients)

            def getter() -> None:
                conn = http.client.HTTPConnection(HOST, port, timeout=TIMEOUT)
                mine = []
                try:
                    conn.connect()
                    go.wait(TIMEOUT)
                    for _ in range(requests_per_client):
                        t0 = time.perf_counter()
                        status, body = request(conn, "GET", "/api/game")
                        mine.append(time.perf_counter() - t0)
                        if status != 200 or not body.startswith(b"{"):
                            raise RuntimeError(f"GET /api/game: {status}")
                finally:
                    conn.close()
                    with lock:
                        latencies.extend(mine)

            workers = [threading.Thread(target=getter, daemon=True) for _ in range(clients)]
            started = time.perf_counter()
            for w in workers:
                w.start()
            for w in workers:
                w.join(TIMEOUT * 4)
            elapsed = time.perf_counter() - started

            # 2. shake -> event on every client
            per_arrival: list[float] = []
            slowest: list[float] = []
            missing = 0
            for i in range(shakes):
                t0 = time.perf_counter()
                status, body = request(control, "POST", "/api/shake", {"pattern": PATTERNS[i % 2]})
                if status != 200:
                    print(f"shake refused: {status} {body[:200]!r}", file=sys.stderr)
                    return 1
                seq = json.loads(body)["seq"]
                arrivals = [s.wait_for(seq, 5.0) for s in streams]
                missing += sum(a is None for a in arrivals)
                times = [a - t0 for a in arrivals if a is not None]
                per_arrival.extend(times)
                if times:
                    slowest.append(max(times))
                time.sleep(0.05)
            mem = memory_kb(proc.pid)
            control.close()
        finally:
            for s in streams:
                s.close()
            proc.terminate()
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            for s in streams:
                s.join(5)

    ms = 1000.0
    print(f"shakecity web benchmark: {clients} clients with event streams open, server threads {threads}, loopback")
    print(
        f"GET /api/game, one at a time: {len(single)} requests; p50 {percentile(single, 50) * ms:.2f} ms, "
        f"p99 {percentile(single, 99) * ms:.2f} ms, max {max(single) * ms:.2f} ms  (goal p99 <= 20 ms)"
    )
    print(
        f"GET /api/game, all {clients} clients at once, back to back: {len(latencies)} requests in {elapsed:.2f} s "
        f"({len(latencies) / elapsed:.0f}/s); p50 {percentile(latencies, 50) * ms:.1f} ms, "
        f"p99 {percentile(latencies, 99) * ms:.1f} ms, max {max(latencies) * ms:.1f} ms"
    )
    print(
        f"shake -> event on every client: {shakes} shakes x {clients} clients; "
        f"p50 {percentile(per_arrival, 50) * ms:.1f} ms, p99 {percentile(per_arrival, 99) * ms:.1f} ms; "
        f"slowest client per shake: median {statistics.median(slowest) * ms:.1f} ms, max {max(slowest) * ms:.1f} ms; "
        f"missed {missing}  (goal <= 100 ms)"
    )
    print(
        f"server memory: RSS {mem['VmRSS'] / 1024:.1f} MB after the run "
        f"({mem_idle['VmRSS'] / 1024:.1f} MB with the streams open, before the load), "
        f"peak {mem['VmHWM'] / 1024:.1f} MB  (goal <= 120 MB)"
    )
    return 0 if missing == 0 else 1


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m web.bench", description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=50, help="pages with an open event stream (default 50)")
    parser.add_argument("--requests", type=int, default=40, help="GET /api/game per client (default 40)")
    parser.add_argument("--shakes", type=int, default=20, help="shakes timed to every client (default 20)")
    parser.add_argument("--threads", type=int, default=96, help="server threads (default: serve's default, 96)")
    args = parser.parse_args(argv)
    if not (1 <= args.clients <= 200 and 1 <= args.requests <= 1000 and 1 <= args.shakes <= 200):
        parser.error("keep it bounded: clients 1-200, requests 1-1000, shakes 1-200")
    if args.clients + 16 > args.threads:
        parser.error(f"--threads must exceed --clients by 16 (streams are capped at threads - 16): {args.threads}")
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    return run(args.clients, args.requests, args.shakes, args.threads)


if __name__ == "__main__":
    sys.exit(main())
