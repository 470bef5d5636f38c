"""`shakecity doctor` and `shakecity bench-device` through the real entry point; device/ stays free of web."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from web.cli import main


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_doctor_reports_camera_pins_disk_versions_and_address(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SHAKECITY_CONFIG", raising=False)
    port = free_port()
    args = ["doctor", "--json", "--camera", "simulated", "--pins", "mock", "--data", str(tmp_path), "--port", str(port)]
    assert main(args) == 0
    report = json.loads(capsys.readouterr().out)
    checks = {c["name"]: c for c in report["checks"]}
    assert list(checks) == ["versions", "config", "camera", "pins", "disk", "page"]
    assert report["ok"] is True
    assert checks["versions"]["details"]["gpiozero"] and checks["versions"]["details"]["python"]
    assert checks["camera"]["details"]["kind"] == "simulated" and checks["camera"]["details"]["frame"] == [1024, 768]
    assert checks["pins"]["details"]["pin_factory"] == "MockFactory"
    assert checks["pins"]["details"]["pins"] == "mock pins" and len(checks["pins"]["details"]["pin_map"]) == 25
    assert checks["disk"]["details"]["data_dir"] == str(tmp_path) and checks["disk"]["details"]["free_bytes"] > 0
    assert checks["page"]["level"] == "warn"  # nothing serves on that port
    assert checks["page"]["details"]["address"] == f"http://{socket.gethostname()}.local:{port}/"


def test_doctor_text_and_a_failing_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "config.json"
    bad.write_text('{"pins": {"status": "GPIO17"}}')
    code = main(
        [
            "doctor",
            "--config",
            str(bad),
            "--no-grab",
            "--pins",
            "mock",
            "--data",
            str(tmp_path),
            "--port",
            str(free_port()),
        ]
    )
    out = capsys.readouterr().out
    assert code == 1
    assert "[FAIL] config" in out and "status and round_1 are both on GPIO17" in out
    assert "[FAIL] pins" in out  # no pin map to check
    assert "[ok  ] disk" in out


def test_bench_device_prints_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("vision.shaker_live")
    code = main(
        [
            "bench-device",
            "--seconds",
            "3",
            "--width",
            "640",
            "--height",
            "480",
            "--covered",
            "0.5",
            "--lifted",
            "1",
            "--lifting",
            "0.2",
            "--json",
        ]
    )
    figures = json.loads(capsys.readouterr().out)
    assert code == 0
    print(figures)  # the benchmark's figures, for the log
    assert figures["loop_fps"] > 0 and figures["camera_fps"] > 0
    assert figures["reader_per_frame"]["median_ms"] is not None
    assert figures["shakes_shown"] >= 1
    assert set(figures) >= {"frame_to_event", "lift_to_event", "read_right", "read_wrong", "shake_again", "missed"}
    # the box being lifted is a moving view: its frames get a first look (vision.shaker_live)
    assert figures["lifting_s"] == 0.2 and figures["first_looks"] is True and figures["reader_slowdown"] == 1.0
    assert figures["frames_read_with_a_first_look"] >= 1 and figures["frames_read_in_full"] >= 1


def test_device_never_imports_web_or_flask() -> None:
    code = (
        "import sys, device.cameras, device.tracker, device.table, device.config, device.doctor, device.cli, "
        "device.bench; bad = sorted(m for m in sys.modules if m == 'flask' or m == 'web' or m.startswith('web.')); "
        "print(','.join(bad))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == ""


def test_picamera2_is_imported_lazily() -> None:
    code = "import sys, device.cameras, device.table, device.doctor; print('picamera2' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"


def test_bench_device_refuses_a_reader_played_faster(capsys) -> None:
    assert main(["bench-device", "--seconds", "1", "--reader-slowdown", "0.5"]) == 2
    assert "--reader-slowdown must be at least 1" in capsys.readouterr().err
