"""``shakecity score`` and ``shakecity placements``: the rules engine from the command line.

Contracts in ``shared/rules/data-formats.md``: on bad input, a non-zero exit, one line on standard
error saying what and where, and nothing on standard output.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ..errors import RulesError
from .board import Board, parse_board
from .catalogue import TILE_NAMES, board_side, components
from .pattern import Pattern
from .placement import cells_for, legal_anchors
from .scorer import CATEGORIES, score_board

EXIT_BAD_INPUT = 2


class InputError(Exception):
    """Bad input for a command: printed as one line on standard error."""


def read_json(path: str) -> Any:
    """Read JSON from a file path or ``-`` (standard input), with a one-line error naming where."""
    where = "standard input" if path == "-" else path
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise InputError(f"{where}: cannot read: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise InputError(f"{where}: not UTF-8 text") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise InputError(f"{where}: not valid JSON: {e.msg} at line {e.lineno} column {e.colno}") from None


def load_board(path: str) -> Board:
    raw = read_json(path)
    where = "standard input" if path == "-" else path
    try:
        return parse_board(raw)
    except RulesError as e:
        raise InputError(f"{where}: {e}") from None


def format_score_table(board: Board) -> str:
    score = score_board(board)
    lines = [f"Side: {board.side}" + (f"   variants: {', '.join(sorted(board.variants))}" if board.variants else "")]
    lines += ["  " + " ".join(row) for row in board.rows]
    lines.append("")
    width = max(len(c) for c in CATEGORIES)
    for category in CATEGORIES:
        lines.append(f"  {category:<{width}}  {score.breakdown[category]:>3}")
    lines.append(f"  {'total':<{width}}  {score.total:>3}")
    lines.append("")
    lines.append(f"Bonus tiles flipped: {', '.join(score.bonus_flipped) or 'none'}")
    lines.append(f"Empty cells: {score.empty_cells}   construction tiles left: {score.construction_left}")
    if score.solo_win is not None:
        lines.append(f"Solo: {'WIN' if score.solo_win else 'not won'}")
    lines.extend(f"Note: {n}" for n in score.notes)
    return "\n".join(lines)


def run_score(args: argparse.Namespace) -> int:
    try:
        board = load_board(args.board)
    except InputError as e:
        print(f"shakecity score: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.json:
        score = score_board(board).to_json()
        score.pop("notes", None)
        print(json.dumps(score))
    else:
        print(format_score_table(board))
    return 0


def placements(board: Board, pattern: Pattern, colour: str, wilds: bool) -> dict[str, Any]:
    """Every anchor where ``colour``'s shape (plus the wilds, if taken) fits, or why none does."""
    comp = components()
    if colour not in comp.cubes:
        raise InputError(f"--colour: {colour!r} is not a building colour; colours are {', '.join(comp.cubes)}")
    present = pattern.colours_present()
    if colour not in present:
        raise InputError(f"--colour: the pattern has no {colour} cube; present: {', '.join(present)}")
    if wilds and not pattern.wilds:
        raise InputError("--wilds: the pattern has no white cube to take")
    size = board_side(board.side).size
    shape = pattern.shape(colour, wilds)
    anchors = legal_anchors(board.grid, size, shape)
    tile = comp.tile_for_colour[colour]
    out: dict[str, Any] = {
        "colour": colour,
        "tile": tile,
        "wilds": wilds,
        "shape": [list(o) for o in shape],
        "placements": [{"row": r, "col": c, "cells": [list(x) for x in cells_for(shape, (r, c))]} for r, c in anchors],
    }
    if not anchors:
        out["reason"] = (
            f"no place on the board holds the {len(shape)}-cell {TILE_NAMES[tile]} shape: "
            "choose another colour (if none fits, you place nothing this round)"
        )
    return out


def run_placements(args: argparse.Namespace) -> int:
    try:
        board = load_board(args.board)
        try:
            pattern = Pattern.parse(json.loads(args.pattern) if args.pattern.lstrip().startswith("[") else args.pattern)
        except json.JSONDecodeError as e:
            raise InputError(f"--pattern: not valid JSON: {e.msg}") from None
        except RulesError as e:
            raise InputError(f"--pattern: {e}") from None
        result = placements(board, pattern, args.colour, args.wilds)
    except InputError as e:
        print(f"shakecity placements: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.json:
        print(json.dumps(result))
    elif not result["placements"]:
        print(result["reason"])
    else:
        print(
            f"{len(result['placements'])} legal placements of {args.colour}"
            f"{' with the wilds' if args.wilds else ''} (row, col of the pattern's top-left cell):"
        )
        for p in result["placements"]:
            covered = " ".join(f"({r},{c})" for r, c in p["cells"])
            print(f"  at ({p['row']}, {p['col']}): covers {covered}")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("score", help="score one board (board.json, or - for standard input)")
    p.add_argument("board", metavar="BOARD.json")
    p.add_argument("--json", action="store_true", help="print the score object of data-formats.md")
    p.set_defaults(func=run_score)

    p = sub.add_parser("placements", help="list where a colour's shape may go on a board")
    p.add_argument("board", metavar="BOARD.json")
    p.add_argument(
        "--pattern",
        required=True,
        help='3 x 3 colours as JSON ([["red","blue","black"],...]) or "red,blue,black/green,gray,red/..."',
    )
    p.add_argument("--colour", "--color", required=True, help="the chosen colour (red, blue, black, green, gray)")
    p.add_argument("--wilds", action="store_true", help="take every white cube too (Wild Nights)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=run_placements)
