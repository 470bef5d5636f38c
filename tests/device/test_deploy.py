"""deploy/: the install script passes shellcheck, the unit passes systemd-analyze verify, and the wiring
table and picture say what device/pins.json says."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from device.config import default_pin_map

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"


def need(tool: str) -> str:
    path = shutil.which(tool)
    if path is None:
        pytest.fail(f"{tool} is not installed (.ci/run installs it)")
    return path


def test_install_script_is_shellcheck_clean() -> None:
    result = subprocess.run([need("shellcheck"), str(DEPLOY / "install.sh")], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_shellcheck_would_catch_a_mistake(tmp_path: Path) -> None:
    bad = tmp_path / "bad.sh"
    bad.write_text("#!/usr/bin/env bash\nrm -rf $PREFIX/venv\n")
    assert subprocess.run([need("shellcheck"), str(bad)], capture_output=True).returncode != 0


def test_install_script_does_what_the_platform_needs() -> None:
    text = (DEPLOY / "install.sh").read_text()
    assert "python3-picamera2" in text and "--no-install-recommends" in text
    assert "--system-site-packages" in text
    assert 'import numpy; print("numpy==" + numpy.__version__)' in text and "--constraint" in text
    assert "--uninstall" in text and "systemctl enable" in text and ".local" in text
    assert "pip install picamera2" not in text  # never from pip
    result = subprocess.run(["bash", str(DEPLOY / "install.sh"), "--help"], capture_output=True, text=True)
    assert result.returncode == 0 and "--uninstall" in result.stdout
    bad = subprocess.run(["bash", str(DEPLOY / "install.sh"), "--frobnicate"], capture_output=True, text=True)
    assert bad.returncode != 0 and "unknown option --frobnicate" in bad.stderr


def verify(unit: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([need("systemd-analyze"), "verify", str(unit)], capture_output=True, text=True)


def test_unit_passes_systemd_analyze_verify(tmp_path: Path) -> None:
    text = (DEPLOY / "shakecity.service").read_text()
    assert "ExecStart=/opt/shakecity/venv/bin/shakecity serve " in text
    assert re.search(r"^Restart=on-failure$", text, re.M) and re.search(r"^WantedBy=multi-user.target$", text, re.M)
    # The unit's ExecStart lives in the venv install.sh makes; here it is pointed at this checkout's
    # `shakecity` so that verify checks everything else, including that the command exists.
    here = Path(sys.executable).with_name("shakecity")
    assert here.exists()
    copy = tmp_path / "shakecity.service"
    copy.write_text(text.replace("/opt/shakecity/venv/bin/shakecity", str(here)))
    result = verify(copy)
    assert result.returncode == 0 and result.stderr.strip() == "", result.stderr


def test_verify_would_catch_a_broken_unit(tmp_path: Path) -> None:
    text = (DEPLOY / "shakecity.service").read_text()
    broken = tmp_path / "shakecity.service"
    broken.write_text(text.replace("Restart=on-failure", "Restart=sometimes"))
    result = verify(broken)
    assert "restart specifier" in result.stderr  # a warning, which the test above refuses


def test_wiring_table_matches_the_pin_map() -> None:
    pins = default_pin_map()
    text = (DEPLOY / "WIRING.md").read_text()
    rows = re.findall(r"^\| (\d+) \| (GPIO\d+) \| ([^|]+) \| ([^|]+) \|", text, re.M)
    by_gpio = {gpio: (int(phys), part.strip(), resistor.strip()) for phys, gpio, part, resistor in rows}
    assert len(by_gpio) == len(pins.all_pins()) == 25
    for i, gpio in enumerate(pins.rounds):
        assert by_gpio[gpio][1] == f"round {i + 1} LED" and by_gpio[gpio][2] == "1 kΩ"
    for i, gpio in enumerate(pins.seats):
        assert by_gpio[gpio][1].startswith(f"seat {i + 1} LED")
    assert by_gpio[pins.status][1].startswith("status LED")
    assert by_gpio[pins.undo][1].startswith("undo button") and by_gpio[pins.undo][2].startswith("none")
    # BCM to header pin, from the Raspberry Pi pinout
    assert by_gpio["GPIO17"][0] == 11 and by_gpio["GPIO2"][0] == 3 and by_gpio["GPIO21"][0] == 40


def test_wiring_picture_shows_every_pin() -> None:
    root = ET.parse(DEPLOY / "wiring.svg").getroot()
    texts = " ".join(t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text"))
    for part, gpio in default_pin_map().all_pins().items():
        assert re.search(rf"\b{gpio}\b", texts), f"{part} ({gpio}) not in the picture"


def test_example_config_loads(tmp_path: Path) -> None:
    from device.config import load_config

    config = load_config(DEPLOY / "shakecity.example.json")
    assert config.camera_kind == "auto" and config.camera_options["lens_position"] == 2.5
    assert config.pins == default_pin_map()  # the example overrides nothing but restates defaults
