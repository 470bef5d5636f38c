"""``shakecity score`` and ``shakecity placements``: the contracts of data-formats.md."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from web.cli import main

BOARD = {
    "side": "inland",
    "grid": ["H.S..R", "HPF..R", "......", "..SS..", "......", "RRRR.."],
    "variants": [],
    "bonus": [{"name": "corner", "condition": "full", "cells": [[i, i] for i in range(6)]}],
}


def shakecity(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "web.cli", *args], input=stdin, capture_output=True, text=True, timeout=60
    )


@pytest.fixture
def board_file(tmp_path: Path) -> Path:
    path = tmp_path / "board.json"
    path.write_text(json.dumps(BOARD))
    return path


def test_score_json_contract(board_file: Path) -> None:
    out = shakecity("score", str(board_file), "--json")
    assert out.returncode == 0, out.stderr
    assert out.stderr == ""
    result = json.loads(out.stdout)
    assert set(result) >= {"total", "breakdown", "bonus_flipped", "empty_cells", "construction_left"}
    assert result["breakdown"] == {"road": 6, "park": 2, "factory": 0, "shop": 1, "home": 2, "bonus": 0}
    assert result["total"] == 11
    assert result["empty_cells"] == 23
    assert "solo_win" not in result


def test_score_from_standard_input_with_solo() -> None:
    out = shakecity("score", "-", "--json", stdin=json.dumps({**BOARD, "variants": ["solo"]}))
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["solo_win"] is False


def test_score_table(board_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", str(board_file)]) == 0
    text = capsys.readouterr().out
    for category, points in (("road", 6), ("park", 2), ("shop", 1), ("home", 2), ("total", 11)):
        assert any(line.split() == [category, str(points)] for line in text.splitlines()), category
    assert "Empty cells: 23" in text


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "cannot read"),
        ("{not json", "not valid JSON"),
        (json.dumps({**BOARD, "grid": BOARD["grid"][:5]}), "grid: expected 6 rows, got 5"),
        (json.dumps({**BOARD, "grid": ["H.S..R", "HPF..R", "...Z..", "..SS..", "......", "RRRR.."]}), "row 2 col 3"),
        (json.dumps({**BOARD, "side": "beach"}), "unknown side 'beach'"),
        (json.dumps({**BOARD, "variants": ["turbo"]}), "unknown variant 'turbo'"),
    ],
)
def test_bad_input_is_one_line_on_stderr_and_nothing_on_stdout(
    tmp_path: Path, content: str | None, message: str
) -> None:
    path = tmp_path / "board.json"
    if content is not None:
        path.write_text(content)
    out = shakecity("score", str(path), "--json")
    assert out.returncode != 0
    assert out.stdout == ""
    assert len(out.stderr.strip().splitlines()) == 1
    assert message in out.stderr
    assert str(path) in out.stderr


def test_placements_lists_every_legal_anchor(board_file: Path) -> None:
    out = shakecity(
        "placements",
        str(board_file),
        "--pattern",
        "red,red,blue/red,gray,gray/black,green,white",
        "--colour",
        "red",
        "--json",
    )
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["shape"] == [[0, 0], [0, 1], [1, 0]]
    anchors = {(p["row"], p["col"]) for p in result["placements"]}
    assert (2, 0) in anchors and (0, 0) not in anchors
    for p in result["placements"]:
        assert len(p["cells"]) == 3


def test_placements_says_why_none_fits(tmp_path: Path) -> None:
    path = tmp_path / "full.json"
    path.write_text(json.dumps({**BOARD, "grid": ["HHHHHH"] * 5 + ["H.H.H."]}))
    out = shakecity(
        "placements",
        str(path),
        "--pattern",
        '[["red","red","blue"],["black","gray","gray"],["black","green","blue"]]',
        "--colour",
        "red",
    )
    assert out.returncode == 0
    assert "no place on the board holds the 2-cell home shape" in out.stdout


def test_placements_refuses_a_colour_missing_from_the_pattern(board_file: Path) -> None:
    out = shakecity(
        "placements", str(board_file), "--pattern", "red,red,blue/red,gray,gray/black,green,white", "--colour", "purple"
    )
    assert out.returncode != 0 and out.stdout == ""
    assert "not a building colour" in out.stderr
