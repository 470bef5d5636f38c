"""``shakecity serve``: the table page under waitress (one process, many threads).

With no options on a machine without a Pi it runs the demo (simulated camera, mock pins) on port 8000.
Every open page holds a thread for its event stream, so waitress gets many threads and the app caps
the streams below that number.
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import sys
from pathlib import Path
from types import FrameType
from typing import Any

DEFAULT_PORT = 8000
DEFAULT_THREADS = 96
MIN_THREADS = 16
SPARE_THREADS = 16  # threads kept free of event streams for ordinary requests


def default_data_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "shakecity"


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "serve",
        help="run the table page (the demo when there is no Pi hardware)",
        description="Serve the table page and its HTTP API with waitress. Prints the join address and PIN.",
    )
    p.add_argument("--host", default="0.0.0.0", help="address to listen on (default: all, so phones can join)")
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})")
    p.add_argument("--data", type=Path, default=None, help="folder for the SQLite database and photos")
    p.add_argument("--camera", default="auto", help="camera kind for device/ (auto, simulated, none, ...)")
    p.add_argument("--pins", default="auto", help="pin factory for the round tracker (auto, mock, none, ...)")
    p.add_argument("--pin", default=None, help="the table's join PIN (default: a new six-digit PIN)")
    p.add_argument("--threads", type=int, default=DEFAULT_THREADS, help=f"waitress threads (default {DEFAULT_THREADS})")
    p.add_argument("--seed", type=int, default=None, help="random seed of the page's simulated shakes (demo, tests)")
    p.set_defaults(func=run)


def join_address(host: str, port: int) -> str:
    """The address to print for phones: the machine's name on the LAN when listening on every address."""
    if host in ("0.0.0.0", "::", ""):
        return f"http://{socket.gethostname()}.local:{port}/"
    return f"http://{host}:{port}/"


def run(args: argparse.Namespace) -> int:
    import waitress

    from .app import close_app, create_app

    if args.threads < MIN_THREADS:
        print(f"shakecity serve: --threads must be at least {MIN_THREADS}", file=sys.stderr)
        return 2
    if args.pin is not None and (not args.pin.strip() or len(args.pin) > 32):
        print("shakecity serve: --pin must be 1 to 32 characters", file=sys.stderr)
        return 2
    data_dir = args.data or default_data_dir()
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        print(f"shakecity serve: cannot use --data {data_dir}: {e.strerror or e}", file=sys.stderr)
        return 2
    app = create_app(
        {
            "DATA_DIR": str(data_dir),
            "TABLE_PIN": args.pin,
            "CAMERA": args.camera,
            "PINS": args.pins,
            "MAX_STREAMS": args.threads - SPARE_THREADS,
            "SHAKE_SEED": args.seed,
        }
    )
    table = app.extensions["table"]
    address = join_address(args.host, args.port)
    app.config["JOIN_URL"] = app.config.get("JOIN_URL") or address
    try:
        server = waitress.create_server(
            app, host=args.host, port=args.port, threads=args.threads, connection_limit=args.threads * 2 + 32
        )
    except OSError as e:
        close_app(app)
        print(f"shakecity serve: cannot listen on {args.host}:{args.port}: {e.strerror or e}", file=sys.stderr)
        return 2

    def stop(signum: int, frame: FrameType | None) -> None:
        # End every event stream first: waitress then stops its threads at once instead of waiting for them.
        table.events.close_all()
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    print(f"shakecity table: {address}  (listening on {args.host}:{server.effective_port})", flush=True)
    print(f"table PIN: {app.config['TABLE_PIN']}", flush=True)
    print(f"data: {data_dir}", flush=True)
    print(f"devices: {table.device_note}", flush=True)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        table.events.close_all()  # end every event stream first, so waitress's threads can stop
        server.close()
        close_app(app)
    return 0
