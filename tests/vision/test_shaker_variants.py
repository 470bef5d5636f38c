"""Variants of labelled frames (vision.shaker_variants, ``shakecity vary-shaker-set``): each keeps its truth."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.shaker import read_shaker
from vision.shaker_variants import VARIANT_NAMES, shrunk_in_place, turned_on_grown_canvas, vary
from web.cli import main

PATTERN = [["red", "blue", "black"], ["green", "gray", "white"], ["red", "red", "blue"]]


def test_each_variant_moves_the_pattern_as_it_moves_the_picture() -> None:
    varied = vary(np.zeros((6, 8, 3), np.uint8), PATTERN)
    assert tuple(varied) == VARIANT_NAMES
    patterns = {name: p for name, (_, p) in varied.items()}
    assert patterns["mirror"] == [["black", "blue", "red"], ["white", "gray", "green"], ["blue", "red", "red"]]
    assert patterns["flip"] == [["red", "red", "blue"], ["green", "gray", "white"], ["red", "blue", "black"]]
    assert patterns["turn180"] == [["blue", "red", "red"], ["white", "gray", "green"], ["black", "blue", "red"]]
    # a quarter turn clockwise: the left column, bottom to top, becomes the top row
    assert patterns["turn90"] == [["red", "green", "red"], ["red", "gray", "blue"], ["blue", "white", "black"]]
    assert patterns["turn270"] == [["black", "white", "blue"], ["blue", "gray", "red"], ["red", "green", "red"]]
    for name in ("tilt+8", "tilt-8", "shrink85", "bright", "dark", "warm", "cool", "noise", "blur", "jpeg55"):
        assert patterns[name] == PATTERN
    assert vary(np.zeros((6, 8, 3), np.uint8), None, ["mirror"])["mirror"][1] is None  # (an incomplete pattern)
    with pytest.raises(ValueError, match="unknown variants: sideways"):
        vary(np.zeros((6, 8, 3), np.uint8), PATTERN, ["sideways"])


def test_the_reader_reads_a_mirrored_and_a_turned_scene_as_their_truth_says(shaker_plain_scene) -> None:
    # the variants' truth follows the reader's own convention (rows top to bottom as seen): the picture's cells move
    frame_bgr, truth = shaker_plain_scene
    for name, (frame_v, pattern_v) in vary(frame_bgr, truth["pattern"], ["mirror", "turn90", "turn270"]).items():
        assert pattern_v != truth["pattern"], name  # (a pattern the move changes: the test can fail)
        assert read_shaker(frame_v).pattern == pattern_v, name


def test_a_small_turn_keeps_the_whole_frame_and_a_shrunk_frame_its_size() -> None:
    frame_bgr = np.zeros((300, 400, 3), np.uint8)
    frame_bgr[5:25, 5:25] = frame_bgr[-25:-5, -25:-5] = (255, 255, 255)  # two corners marked
    turned = turned_on_grown_canvas(frame_bgr, 8.0)
    assert turned.shape[0] > 300 and turned.shape[1] > 400
    # (both marked corners still in the picture, whole: as much white as before, but for the turn's resampling)
    assert abs(np.count_nonzero(turned[..., 0] > 128) - 2 * 20 * 20) <= 0.1 * 2 * 20 * 20
    middle = np.zeros((300, 400, 3), np.uint8)
    middle[100:200, 150:250] = 255  # a square of 100 px about the centre
    shrunk = shrunk_in_place(middle, 0.85)
    assert shrunk.shape == middle.shape
    assert abs(np.count_nonzero(shrunk[..., 0] > 128) - 85 * 85) <= 0.05 * 85 * 85
    assert shrunk[150, 200, 0] == 255 and shrunk[106, 200, 0] == 0  # (its edge now 7.5 px in)


def test_vary_shaker_set_writes_a_labelled_folder_for_each_variant(tmp_path: Path, capsys, shaker_plain_scene):
    frame_bgr, truth = shaker_plain_scene
    src = tmp_path / "photos"
    src.mkdir()
    cv2.imwrite(str(src / "a.jpg"), frame_bgr)
    cv2.imwrite(str(src / "b.png"), frame_bgr[::2, ::2])
    labels = {"a.jpg": {"valid": True, "pattern": truth["pattern"]}, "b.png": {"valid": False, "pattern": None}}
    (src / "truth.json").write_text(json.dumps(labels))
    (src / "palette.json").write_text('{"the": "palette"}')
    out = tmp_path / "varied"
    assert main(["vary-shaker-set", str(src), str(out), "--variants", "mirror,dark"]) == 0
    assert "2 images written as 2 variants" in capsys.readouterr().out
    assert sorted(p.name for p in out.iterdir()) == ["dark", "mirror"]
    mirror = json.loads((out / "mirror" / "truth.json").read_text())
    assert mirror == {
        "a.png": {"valid": True, "pattern": [row[::-1] for row in truth["pattern"]]},
        "b.png": {"valid": False, "pattern": None},
    }
    assert np.array_equal(cv2.imread(str(out / "mirror" / "b.png")), cv2.flip(frame_bgr[::2, ::2], 1))
    assert (out / "dark" / "palette.json").read_text() == '{"the": "palette"}'
    assert main(["eval-shaker", str(out / "mirror"), "--json"]) == 0
    ev = json.loads(capsys.readouterr().out)
    assert (ev["images"], ev["patterns_right"], ev["incomplete"]) == (2, 1, 1)


def test_vary_shaker_set_refuses_bad_input_in_one_line_writing_nothing(tmp_path: Path, capsys) -> None:
    src = tmp_path / "photos"
    src.mkdir()
    out = tmp_path / "varied"
    assert main(["vary-shaker-set", str(src), str(out)]) == 2
    assert capsys.readouterr().err.startswith(f"shakecity vary-shaker-set: {src / 'truth.json'}: cannot read")
    (src / "truth.json").write_text(json.dumps({"a.jpg": {"valid": True, "pattern": PATTERN}}))
    assert main(["vary-shaker-set", str(src), str(out), "--variants", "mirror,sideways"]) == 2
    assert "--variants: expected some of mirror, flip" in capsys.readouterr().err
    assert not out.exists()
    (src / "a.jpg").write_bytes(b"not an image")
    assert main(["vary-shaker-set", str(src), str(out)]) == 2
    assert "not a readable image" in capsys.readouterr().err
    assert not out.exists()
