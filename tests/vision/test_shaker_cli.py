"""The shaker's command-line contracts (data-formats.md): read-shaker, eval-shaker, bench-shaker."""

from __future__ import annotations

import json
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.grid_scene import grid_scene
from web.cli import main

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture()
def shaker_photo(tmp_path, shaker_plain_scene) -> tuple[Path, dict]:
    frame_bgr, truth = shaker_plain_scene
    path = tmp_path / "shake.png"
    cv2.imwrite(str(path), frame_bgr)
    return path, truth


def _bad_files(tmp_path: Path, good: Path) -> dict[str, Path]:
    files = {}
    files["empty"] = tmp_path / "empty.jpg"
    files["empty"].write_bytes(b"")
    files["text"] = tmp_path / "notes.jpg"
    files["text"].write_text("not an image at all\n")
    data = good.read_bytes()
    files["truncated"] = tmp_path / "truncated.png"
    files["truncated"].write_bytes(data[: len(data) // 3])
    ihdr = struct.pack(">IIBBBBB", 60000, 60000, 8, 2, 0, 0, 0)
    chunk = b"IHDR" + ihdr
    files["enormous"] = tmp_path / "bomb.png"
    files["enormous"].write_bytes(
        b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + chunk + struct.pack(">I", zlib.crc32(chunk))
    )
    files["missing"] = tmp_path / "missing.jpg"
    files["folder"] = tmp_path / "photos.jpg"
    files["folder"].mkdir()
    return files


def test_read_one_image_json(shaker_photo, capsys):
    path, truth = shaker_photo
    assert main(["read-shaker", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["valid"] is True and out["pattern"] == truth["pattern"]


def test_read_plain_text_and_debug(shaker_photo, tmp_path, capsys):
    path, truth = shaker_photo
    debug = tmp_path / "debug.png"
    assert main(["read-shaker", str(path), "--debug", str(debug)]) == 0
    text = capsys.readouterr().out
    assert truth["pattern"][0][0] in text.splitlines()[0]
    assert cv2.imread(str(debug)).shape == cv2.imread(str(path)).shape


def test_rotate_option(shaker_photo, capsys):
    path, truth = shaker_photo
    assert main(["read-shaker", str(path), "--json", "--rotate", "90"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["pattern"] == [list(r) for r in zip(*truth["pattern"][::-1], strict=True)]


@pytest.mark.parametrize("kind", ["empty", "text", "truncated", "enormous", "missing", "folder"])
def test_one_bad_image_is_one_line_error(shaker_photo, tmp_path, capsys, kind):
    bad = _bad_files(tmp_path, shaker_photo[0])[kind]
    assert main(["read-shaker", str(bad), "--json"]) != 0
    captured = capsys.readouterr()
    assert captured.out == ""
    assert len(captured.err.strip().splitlines()) == 1 and str(bad) in captured.err


def test_several_images_one_line_each_bad_ones_carry_error(shaker_photo, tmp_path, capsys):
    path, truth = shaker_photo
    bad = _bad_files(tmp_path, path)
    args = [str(path), str(bad["truncated"]), str(bad["enormous"]), str(path)]
    main(["read-shaker", *args, "--json"])
    lines = [json.loads(x) for x in capsys.readouterr().out.strip().splitlines()]
    assert [x["image"] for x in lines] == args
    assert lines[0]["pattern"] == truth["pattern"] and lines[3]["pattern"] == truth["pattern"]
    assert "error" in lines[1] and "error" in lines[2] and "error" not in lines[0]


def test_bad_palette_and_rotation(shaker_photo, tmp_path, capsys):
    path, _ = shaker_photo
    bad = tmp_path / "pal.json"
    bad.write_text('{"colours": 3}')
    assert main(["read-shaker", str(path), "--palette", str(bad)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and len(captured.err.strip().splitlines()) == 1
    with pytest.raises(SystemExit):
        main(["read-shaker", str(path), "--rotate", "45"])


def test_calibrate_and_save_palette(shaker_photo, tmp_path, capsys):
    path, truth = shaker_photo
    saved = tmp_path / "table.json"
    pattern = "/".join(",".join(r) for r in truth["pattern"])
    assert (
        main(["read-shaker", str(path), "--json", "--calibrate", str(path), pattern, "--save-palette", str(saved)]) == 0
    )
    assert json.loads(capsys.readouterr().out)["pattern"] == truth["pattern"]
    assert json.loads(saved.read_text())["calibrated"] is True
    assert main(["read-shaker", str(path), "--json", "--palette", str(saved)]) == 0
    assert json.loads(capsys.readouterr().out)["pattern"] == truth["pattern"]
    assert main(["read-shaker", str(path), "--calibrate", str(path), "red,blue"]) == 2
    assert capsys.readouterr().out == ""


def test_eval_shaker_prints_the_measures(tmp_path, capsys):
    folder = tmp_path / "set"
    assert main(["make-shaker-set", str(folder), "--n", "6", "--seed", "3"]) == 0
    truth = json.loads((folder / "truth.json").read_text())
    assert len(truth) == 6
    meta = json.loads((folder / "meta.json").read_text())  # what was drawn, for analysing misreads
    assert sorted(meta) == sorted(truth)
    for name, t in truth.items():
        cells = meta[name]["cells"]
        if t["valid"]:
            assert cells == t["pattern"]
        assert meta[name]["scene"]["table"] in ("plain_light", "plain_dark", "wood", "cloth", "gingham", "printed")
    capsys.readouterr()
    assert main(["eval-shaker", str(folder)]) == 0
    out = capsys.readouterr().out
    for words in ("cube accuracy", "exact patterns", "refusal recall", "false refusals", "confusion", "misread files"):
        assert words in out
    assert main(["eval-shaker", str(folder), "--json"]) == 0
    ev = json.loads(capsys.readouterr().out)
    assert ev["images"] == 6 and ev["complete"] + ev["incomplete"] == 6
    # the counts by the table each image shows (meta.json's scene), adding up to the whole folder's
    assert set(ev["by_table"]) == {m["scene"]["table"] for m in meta.values()}
    for key in ("complete", "incomplete", "false_refusals", "patterns_right"):
        assert sum(n[key] for n in ev["by_table"].values()) == ev[key]
    accepted = sum(n["incomplete_accepted"] for n in ev["by_table"].values())
    assert accepted == sum(m.startswith(tuple(truth)) and "accepted an incomplete" in m for m in ev["misread"])
    for table in ev["by_table"]:
        assert f"  {table} " in out
    assert "by table" in out


def test_eval_shaker_by_table_needs_a_meta_json_and_refuses_a_broken_one(tmp_path, capsys):
    folder = tmp_path / "set"
    assert main(["make-shaker-set", str(folder), "--n", "2", "--seed", "3"]) == 0
    (folder / "meta.json").unlink()
    capsys.readouterr()
    assert main(["eval-shaker", str(folder), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["by_table"] == {}
    assert main(["eval-shaker", str(folder)]) == 0
    assert "by table" not in capsys.readouterr().out
    (folder / "meta.json").write_text("{")
    assert main(["eval-shaker", str(folder)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "meta.json: not valid JSON" in captured.err


def test_eval_shaker_sums_several_folders_and_reads_them_in_worker_processes_the_same(tmp_path, capsys):
    folders = [tmp_path / "a", tmp_path / "b"]
    for seed, folder in enumerate(folders, start=3):
        assert main(["make-shaker-set", str(folder), "--n", "4", "--seed", str(seed)]) == 0
    # (one image of the second folder broken: named by its folder in the misread list)
    (folders[1] / "0001.png").write_bytes(b"not a png")
    capsys.readouterr()
    alone = []
    for folder in folders:
        assert main(["eval-shaker", str(folder), "--json"]) == 0
        alone.append(json.loads(capsys.readouterr().out))
    assert main(["eval-shaker", *map(str, folders), "--json", "--jobs", "2"]) == 0
    both = json.loads(capsys.readouterr().out)
    for key in ("images", "complete", "incomplete", "cubes", "patterns_right", "false_refusals"):
        assert both[key] == alone[0][key] + alone[1][key], key
    assert both["misread"] == [f"{f.name}/{m}" for f, ev in zip(folders, alone, strict=True) for m in ev["misread"]]
    assert any(m.startswith("b/0001.png: ") for m in both["misread"])
    tables = set(alone[0]["by_table"]) | set(alone[1]["by_table"])
    assert set(both["by_table"]) == tables
    # one folder in two processes: the same figures as in one, but the read time (each image's own)
    assert main(["eval-shaker", str(folders[0]), "--json", "--jobs", "2"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert {k: v for k, v in again.items() if k != "ms_median"} == {
        k: v for k, v in alone[0].items() if k != "ms_median"
    }
    assert main(["eval-shaker", str(folders[0]), "--jobs", "0"]) == 2
    assert "--jobs must be at least 1" in capsys.readouterr().err


def test_eval_shaker_bad_folder(tmp_path, capsys):
    assert main(["eval-shaker", str(tmp_path / "nope")]) == 2
    (tmp_path / "truth.json").write_text("[")
    assert main(["eval-shaker", str(tmp_path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and len(captured.err.strip().splitlines()) == 2


def test_bench_shaker(capsys):
    assert main(["bench-shaker", "--frames", "3", "--json"]) == 0
    b = json.loads(capsys.readouterr().out)
    assert b["frames"] == 3 and 0 < b["median_ms"] <= b["p95_ms"]
    assert b["first_look"] is False and 0 <= b["refused_frames"] <= 3
    # the stages before any lattice, each frame's made again apart: their medians, and the median of their sums
    assert list(b["stages_median_ms"]) == ["table", "edges", "finder", "hypotheses"]
    assert all(ms > 0 for ms in b["stages_median_ms"].values()) and b["before_lattices_median_ms"] > 0
    # the first four frames of the bench's set (seed 1): one of them refused, read in first looks only too
    assert main(["bench-shaker", "--frames", "4", "--first-look"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "(first looks only) on 4 decoded" in out[0] and out[1].strip().startswith("refused frames: 1,")
    assert out[2].strip().startswith("before any lattice, every frame: median ") and "hypotheses" in out[2]


def test_module_runs_alone(shaker_photo):
    path, truth = shaker_photo
    proc = subprocess.run(
        [sys.executable, "-m", "vision.shaker", str(path), "--json"], cwd=ROOT, capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["pattern"] == truth["pattern"]


def test_a_folder_is_named_as_a_folder_not_as_a_missing_file(shaker_photo, tmp_path, capsys):
    bad = _bad_files(tmp_path, shaker_photo[0])
    assert main(["read-shaker", str(bad["folder"])]) != 0
    assert "a folder, not an image file" in capsys.readouterr().err
    assert main(["read-shaker", str(bad["missing"])]) != 0
    assert "no such file" in capsys.readouterr().err


def test_a_phone_photo_stored_sideways_is_read_as_the_phone_showed_it(shaker_photo, tmp_path, capsys):
    # a phone held upright stores its pixels sideways and an EXIF orientation tag saying how to turn them
    # (6: a quarter turn clockwise); the pattern is the one the player saw on the phone, not the stored pixels'
    from PIL import Image

    path, truth = shaker_photo
    frame_bgr = cv2.imread(str(path))
    stored_rgb = cv2.cvtColor(cv2.rotate(frame_bgr, cv2.ROTATE_90_COUNTERCLOCKWISE), cv2.COLOR_BGR2RGB)
    exif = Image.Exif()
    exif[0x0112] = 6  # Orientation
    tagged, plain = tmp_path / "upright.jpg", tmp_path / "sideways.jpg"
    Image.fromarray(stored_rgb).save(tagged, quality=95, exif=exif)
    Image.fromarray(stored_rgb).save(plain, quality=95)
    assert main(["read-shaker", str(tagged), str(plain), "--json"]) == 0
    upright, sideways = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert upright["pattern"] == truth["pattern"]
    # the same pixels without the tag: the pattern a quarter turn round (its rows are the truth's columns)
    assert sideways["pattern"] == [list(col) for col in zip(*truth["pattern"], strict=True)][::-1]


@pytest.mark.parametrize("kind", ["puzzle", "cube"])
def test_make_grid_set_writes_the_tests_grids_and_their_palette(tmp_path, capsys, kind):
    # other 3 x 3 grids (vision.grid_scene) as a labelled folder: each seed's grids in the order the tests draw them,
    # the JPEG as drawn, and the sticker palette to read them with (eval-shaker --palette)
    folder = tmp_path / "grids"
    args = ["--kind", kind, "--seed", "31", "--seeds", "2", "--per-seed", "2"]
    assert main(["make-grid-set", str(folder), *args]) == 0
    truth = json.loads((folder / "truth.json").read_text())
    assert sorted(truth) == ["31_00.jpg", "31_01.jpg", "32_00.jpg", "32_01.jpg"]
    for seed in (31, 32):
        rng = np.random.default_rng(seed)
        for i in range(2):
            frame_bgr, pattern = grid_scene(kind, rng)
            assert truth[f"{seed}_{i:02d}.jpg"] == {"valid": True, "pattern": pattern}
            assert np.array_equal(cv2.imread(str(folder / f"{seed}_{i:02d}.jpg")), frame_bgr)
    capsys.readouterr()
    palette = str(folder / "palette.json")
    assert main(["eval-shaker", str(folder), "--palette", palette, "--json"]) == 0
    ev = json.loads(capsys.readouterr().out)
    assert ev["images"] == 4 and ev["complete"] == 4
    assert ev["patterns_right"] + ev["false_refusals"] + len([m for m in ev["misread"] if "misread" in m]) == 4
    assert main(["make-grid-set", str(folder), "--seeds", "0"]) == 2
    assert "at least 1" in capsys.readouterr().err
    blocked = tmp_path / "a file"
    blocked.write_text("not a folder")
    for command in ("make-grid-set", "make-shaker-set"):  # (a folder that cannot be made: one line, nothing written)
        assert main([command, str(blocked / "set")]) == 2
        assert capsys.readouterr().err.startswith(f"shakecity {command}: {blocked / 'set'}: ")
