"""The ``shakecity`` command: one entry point whose subcommands live beside the code they run.

Each module in :data:`COMMAND_MODULES` has ``register(subparsers)``, adding its subcommands with a
``func(args) -> int`` default. Bad input ends in a one-line message on standard error and a
non-zero exit, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

COMMAND_MODULES = ("scoring.shake_that_city.cli", "web.serve", "vision.shaker_cli", "vision.board_cli", "device.cli")

EXIT_BAD_INPUT = 2


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="shakecity",
        description="The Shake That City table companion: read the shaker, score boards, run the table.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 1


if __name__ == "__main__":
    sys.exit(main())
