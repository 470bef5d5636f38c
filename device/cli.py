"""The device layer's subcommands of ``shakecity``: ``doctor`` and ``bench-device``."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any


def add_doctor_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--camera", default=None, help="camera to check (default: $SHAKECITY_CAMERA, the config, or auto)")
    p.add_argument("--pins", default=None, help="pin factory to check (default: $GPIOZERO_PIN_FACTORY or auto)")
    p.add_argument("--config", default=None, help="device config file (default: $SHAKECITY_CONFIG or /etc/shakecity)")
    p.add_argument("--data", type=Path, default=None, help="data folder of `shakecity serve` (for the disk check)")
    p.add_argument("--port", type=int, default=8000, help="port of `shakecity serve` (default 8000)")
    p.add_argument("--no-grab", action="store_true", help="do not open the camera (it may be busy with serve)")
    p.add_argument("--json", action="store_true", help="print the report as one JSON object")


def build_doctor_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="shakecity doctor", description="Check the camera, pins, disk and page.")
    add_doctor_arguments(p)
    return p


def run_doctor(args: argparse.Namespace) -> int:
    from . import doctor

    checks = doctor.run_checks(
        camera=args.camera,
        pins=args.pins,
        config=args.config,
        data=args.data,
        port=args.port,
        grab_seconds=0.0 if args.no_grab else 5.0,
    )
    report = doctor.report(checks)
    if args.json:
        print(json.dumps(report))
    else:
        print(doctor.render(checks))
    return 0 if report["ok"] else 1


def run_bench(args: argparse.Namespace) -> int:
    from . import bench

    return bench.run(args)


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "doctor",
        help="what camera and pins this machine has, disk, versions and the page's address",
        description="The first thing to run when something is wrong: camera, pins, pin factory, disk, "
        "versions, the page's address. Exits 1 when a check fails.",
    )
    add_doctor_arguments(p)
    p.set_defaults(func=run_doctor)

    from .bench import add_arguments

    b = subparsers.add_parser(
        "bench-device",
        help="the live table loop's frames per second and time from a new frame to a page event",
        description="Runs camera -> live shaker reader -> game -> LEDs (mock pins) and prints figures.",
    )
    add_arguments(b)
    b.set_defaults(func=run_bench)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m device.cli")
    sub = parser.add_subparsers(dest="command", required=True)
    register(sub)
    args = parser.parse_args(argv)
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
