"""The board commands through ``web.cli.main``: contracts of ``shared/rules/data-formats.md``.

Photos are made by the project's generator into a temporary folder; nothing is read from ``../shared``.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import cv2
import pytest

from vision.board_scene import KNOWN_LAYOUT, random_grid, render_board_photo, render_calibration_pair
from web.cli import main

from .test_board_reader import H, W, scene_and_calibration


@pytest.fixture(scope="module")
def board_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A labelled board folder (truth.json with its calibration pair) and a calibration made from it."""
    d = tmp_path_factory.mktemp("boards")
    scene, _ = scene_and_calibration(31, "waterfront")
    empty_bgr, known_bgr, known = render_calibration_pair(random.Random(5), scene=scene, width=W, height=H)
    cv2.imwrite(str(d / "empty.jpg"), empty_bgr, [cv2.IMWRITE_JPEG_QUALITY, 92])
    cv2.imwrite(str(d / "known.jpg"), known_bgr, [cv2.IMWRITE_JPEG_QUALITY, 92])
    (d / "known.json").write_text(json.dumps(known))
    photos = {}
    for i, north in enumerate(("up", "right", "down", "left")):
        grid = random_grid(random.Random(i))
        frame_bgr, truth = render_board_photo(grid, random.Random(40 + i), scene=scene, north=north, width=W, height=H)
        cv2.imwrite(str(d / f"{i:03d}.jpg"), frame_bgr, [cv2.IMWRITE_JPEG_QUALITY, 90])
        photos[f"{i:03d}.jpg"] = {"grid": truth["grid"], "north": north}
    table_bgr, _ = render_board_photo(None, random.Random(9), board=False, width=W, height=H)
    cv2.imwrite(str(d / "004.jpg"), table_bgr)
    photos["004.jpg"] = {"grid": None, "north": None}
    truth = {"calibration": {"empty": "empty.jpg", "known": "known.jpg", "known_board": "known.json"}, "photos": photos}
    (d / "truth.json").write_text(json.dumps(truth))
    assert (
        main(
            [
                "calibrate-board",
                *(str(d / n) for n in ("empty.jpg", "known.jpg", "known.json")),
                "--out",
                str(d / "cal.json"),
            ]
        )
        == 0
    )
    return d


def test_calibrate_board_writes_a_calibration(board_folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = board_folder / "again.json"
    args = [str(board_folder / n) for n in ("empty.jpg", "known.jpg", "known.json")]
    assert main(["calibrate-board", *args, "--out", str(out)]) == 0
    raw = json.loads(out.read_text())
    assert raw["side"] == "waterfront" and raw["known_grid"] == list(KNOWN_LAYOUT)
    assert "written" in capsys.readouterr().out


def test_calibrate_board_without_a_board_is_one_line_error(board_folder: Path, capsys) -> None:
    capsys.readouterr()
    args = [str(board_folder / n) for n in ("004.jpg", "known.jpg", "known.json")]
    assert main(["calibrate-board", *args, "--out", str(board_folder / "x.json")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "no board" in err
    assert not (board_folder / "x.json").exists()


def test_read_board_json_for_one_photo(board_folder: Path, capsys) -> None:
    capsys.readouterr()
    assert (
        main(["read-board", str(board_folder / "001.jpg"), "--calibration", str(board_folder / "cal.json"), "--json"])
        == 0
    )
    reading = json.loads(capsys.readouterr().out)
    truth = json.loads((board_folder / "truth.json").read_text())["photos"]["001.jpg"]
    assert reading["found"] is True and reading["north"] == "right"
    assert len(reading["grid"]) == 6 and all(len(r) == 6 for r in reading["grid"])
    assert (
        sum(a != b for t, g in zip(truth["grid"], reading["grid"], strict=True) for a, b in zip(t, g, strict=True)) <= 1
    )
    assert all(0 <= c <= 1 for row in reading["confidence"] for c in row)


def test_read_board_several_photos_one_line_each_and_bad_ones_flagged(board_folder: Path, capsys) -> None:
    bad = board_folder / "bad.jpg"
    bad.write_bytes(b"not a jpeg")
    capsys.readouterr()
    photos = [str(board_folder / "000.jpg"), str(bad), str(board_folder / "004.jpg")]
    code = main(["read-board", *photos, "--calibration", str(board_folder / "cal.json"), "--json"])
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert code == 1
    assert [x["image"] for x in lines] == photos
    assert lines[0]["found"] is True and lines[0]["north"] == "up"
    assert "error" in lines[1] and lines[1]["grid"] is None
    assert lines[2]["found"] is False and lines[2]["grid"] is None and lines[2]["reason"]


def test_read_board_debug_image(board_folder: Path, capsys) -> None:
    debug = board_folder / "debug.png"
    assert (
        main(
            [
                "read-board",
                str(board_folder / "002.jpg"),
                "--calibration",
                str(board_folder / "cal.json"),
                "--debug",
                str(debug),
            ]
        )
        == 0
    )
    image = cv2.imread(str(debug))
    assert image is not None and image.shape[:2] == (H, W)
    assert "north: down" in capsys.readouterr().out


def test_score_photo_reads_and_scores(board_folder: Path, capsys) -> None:
    capsys.readouterr()
    assert (
        main(["score-photo", str(board_folder / "003.jpg"), "--calibration", str(board_folder / "cal.json"), "--json"])
        == 0
    )
    out = json.loads(capsys.readouterr().out)
    assert out["found"] is True and out["north"] == "left" and out["side"] == "waterfront"
    assert set(out["score"]["breakdown"]) == {"road", "park", "factory", "shop", "home", "bonus"}
    assert out["score"]["total"] == sum(out["score"]["breakdown"].values())


def test_score_photo_without_a_board_has_no_score(board_folder: Path, capsys) -> None:
    capsys.readouterr()
    assert (
        main(["score-photo", str(board_folder / "004.jpg"), "--calibration", str(board_folder / "cal.json"), "--json"])
        == 1
    )
    out = json.loads(capsys.readouterr().out)
    assert out["found"] is False and out["score"] is None


def test_eval_board_prints_the_figures(board_folder: Path, capsys) -> None:
    capsys.readouterr()
    assert main(["eval-board", str(board_folder), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["boards"] == 4 and result["no_board_photos"] == 1 and result["no_board_refused"] == 1
    assert result["north_right"] == result["north_checked"] == 4
    assert result["cell_accuracy"] >= 0.99 and result["boards_exact"] >= 3  # measured 144 / 144 cells, 4 / 4 boards
    assert sum(sum(row.values()) for row in result["confusion"].values()) == result["cells"]
    assert main(["eval-board", str(board_folder)]) == 0
    text = capsys.readouterr().out
    assert "cells right" in text and "confusion" in text and "north right" in text


def _bad_files(d: Path) -> dict[str, Path]:
    files = {
        "empty": b"",
        "non-image": b"hello, board",
        "truncated": (d / "000.jpg").read_bytes()[:300],
        "enormous-header": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"
        + (50000).to_bytes(4, "big") * 2
        + b"\x08\x02\x00\x00\x00",
    }
    out = {}
    for name, data in files.items():
        p = d / f"bad-{name}.jpg"
        p.write_bytes(data)
        out[name] = p
    return out


@pytest.mark.parametrize("kind", ["empty", "non-image", "truncated", "enormous-header", "missing"])
def test_bad_photos_are_one_line_errors(board_folder: Path, capsys, kind: str) -> None:
    path = board_folder / "nothing-here.jpg" if kind == "missing" else _bad_files(board_folder)[kind]
    for command in (["read-board", str(path)], ["score-photo", str(path)]):
        capsys.readouterr()
        assert main([*command, "--calibration", str(board_folder / "cal.json"), "--json"]) == 2
        out, err = capsys.readouterr()
        assert out == "" and err.count("\n") == 1 and str(path) in err


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"{not json",
        b'{"format": "shakecity-shaker-palette"}',
        b'{"format": "shakecity-board-calibration", "version": 1}',
        b"\xff\xfe\x00",
    ],
    ids=["empty", "broken-json", "other-format", "incomplete", "not-utf8"],
)
def test_wrong_calibration_is_one_line_error(board_folder: Path, capsys, content: bytes) -> None:
    cal = board_folder / "wrong-cal.json"
    cal.write_bytes(content)
    capsys.readouterr()
    assert main(["read-board", str(board_folder / "000.jpg"), "--calibration", str(cal), "--json"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "wrong-cal.json" in err


def test_bad_known_board_file_is_one_line_error(board_folder: Path, capsys) -> None:
    known = board_folder / "bad-known.json"
    known.write_text(json.dumps({"side": "inland", "grid": ["HHHHHH"] * 5}))
    capsys.readouterr()
    args = [str(board_folder / "empty.jpg"), str(board_folder / "known.jpg"), str(known)]
    assert main(["calibrate-board", *args, "--out", str(board_folder / "y.json")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "bad-known.json" in err


def test_eval_board_on_a_folder_without_truth_is_one_line_error(tmp_path: Path, capsys) -> None:
    assert main(["eval-board", str(tmp_path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "truth.json" in err


def test_bench_board_prints_milliseconds(capsys) -> None:
    assert main(["bench-board", "--photos", "1", "--runs", "1", "--width", "800", "--height", "600", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["found"] == 1 and result["ms_median"] > 0 and result["ms_p95"] >= result["ms_median"]


def test_make_board_set_writes_a_folder_eval_board_reads(tmp_path: Path, capsys) -> None:
    folder = tmp_path / "set"
    assert (
        main(
            [
                "make-board-set",
                str(folder),
                "--seed",
                "3",
                "--side",
                "inland",
                "--photos",
                "4",
                "--width",
                "640",
                "--height",
                "480",
            ]
        )
        == 0
    )
    truth = json.loads((folder / "truth.json").read_text())
    assert len(truth["photos"]) == 6 and sum(p["grid"] is None for p in truth["photos"].values()) == 2
    capsys.readouterr()
    assert main(["eval-board", str(folder), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["no_board_refused"] == 2 and result["north_right"] == result["boards"] == 4
    assert main(["make-board-set", str(folder), "--side", "seaside"]) == 2


def test_a_large_phone_photo_stored_sideways_gives_the_outline_in_the_upright_photos_pixels(
    board_folder: Path, tmp_path: Path, capsys
) -> None:
    # a phone held upright stores its pixels sideways with an EXIF orientation tag (6: turn a quarter clockwise);
    # OpenCV turns them as it decodes, also when it decodes a large JPEG at a reduced size: the outline (in the
    # upright photo's pixels) is the one the same photo stored upright gives
    from PIL import Image

    scene, _ = scene_and_calibration(31, "waterfront")
    frame_bgr, _ = render_board_photo(
        random_grid(random.Random(3)), random.Random(43), scene=scene, north="right", width=2400, height=1800
    )
    exif = Image.Exif()
    exif[0x0112] = 6  # Orientation
    rgb = cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2RGB)
    upright, sideways = tmp_path / "upright.jpg", tmp_path / "sideways.jpg"
    Image.fromarray(rgb).save(upright, quality=92)
    Image.fromarray(cv2.rotate(rgb, cv2.ROTATE_90_COUNTERCLOCKWISE)).save(sideways, quality=92, exif=exif)
    capsys.readouterr()
    cal = str(board_folder / "cal.json")
    assert main(["read-board", str(upright), str(sideways), "--calibration", cal, "--json"]) == 0
    a, b = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert a["found"] and b["found"] and a["grid"] == b["grid"] and a["north"] == b["north"] == "right"
    # (within 1 % of the long side: the turned pixels are compressed and reduced apart; at the wrong scale, 25 %)
    for (xa, ya), (xb, yb) in zip(a["outline"], b["outline"], strict=True):
        assert abs(xa - xb) <= 24 and abs(ya - yb) <= 24, (a["outline"], b["outline"])
    assert max(x for x, _ in a["outline"]) <= 2400 and max(y for _, y in a["outline"]) <= 1800
