"""deploy/install.sh run twice in a sandbox: the second run changes nothing; uninstall keeps the data.

The script runs for real (bash, coreutils, its own file logic) under ``SHAKECITY_INSTALL_ROOT``; only
the system's administration commands (apt, dpkg, systemctl, useradd, raspi-config, python3's venv and
pip) are replaced by small recorders on ``PATH``, since a test must not install packages or services.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
INSTALL = ROOT / "deploy" / "install.sh"

RECORDERS = {
    # every recorder appends its command line to $LOG; state lives in $STATE
    "dpkg-query": '[ -e "$STATE/apt-installed" ] && printf "install ok installed"',
    "apt-get": 'case " $* " in *" install "*) touch "$STATE/apt-installed";; esac',
    "id": """case "$1" in
  -u) echo 0;;
  -nG) cat "$STATE/groups-$2" 2>/dev/null || echo "$2";;
  *) [ -e "$STATE/user-$1" ];;
esac""",
    "useradd": 'for last; do :; done; touch "$STATE/user-$last"',
    "userdel": 'rm -f "$STATE/user-$1"',
    "usermod": 'printf "%s " "$2" >> "$STATE/groups-$3"',
    "getent": "exit 0",
    "chown": "exit 0",
    "hostname": 'cat "$STATE/hostname" 2>/dev/null || echo raspberrypi',
    "raspi-config": """case "$2" in
  get_serial_cons) cat "$STATE/serial" 2>/dev/null || echo 0;;
  do_serial_cons) echo 1 > "$STATE/serial";;
  do_hostname) echo "$3" > "$STATE/hostname";;
esac""",
    "systemctl": """for unit; do :; done
case "$1" in
  is-active) [ -e "$STATE/active-$unit" ]; exit;;
  start|restart) touch "$STATE/active-$unit";;
  disable) rm -f "$STATE/active-$unit";;
esac; exit 0""",
    "python3": """# python3 -m venv --system-site-packages DIR
for dir; do :; done
mkdir -p "$dir/bin"
printf 'include-system-site-packages = true\\n' > "$dir/pyvenv.cfg"
cat > "$dir/bin/python" <<'PY'
#!/usr/bin/env bash
echo "venv-python $*" >> "$LOG"
case "$1" in
  -c) [ -n "${NO_NUMPY:-}" ] && exit 1; echo "numpy==1.24.2";;
  -m) touch "$(dirname "$0")/shakecity"; chmod +x "$(dirname "$0")/shakecity";;
esac
PY
chmod +x "$dir/bin/python\"""",
}


@pytest.fixture
def sandbox(tmp_path: Path) -> dict[str, str]:
    if shutil.which("bash") is None:
        pytest.skip("needs bash")
    bin_dir, state, root = tmp_path / "bin", tmp_path / "state", tmp_path / "root"
    for d in (bin_dir, state, root / "etc"):
        d.mkdir(parents=True)
    (root / "etc" / "os-release").write_text(
        'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nVERSION_CODENAME=bookworm\n'
    )
    for name, body in RECORDERS.items():
        path = bin_dir / name
        path.write_text(f'#!/usr/bin/env bash\necho "{name} $*" >> "$LOG"\n{body}\n')
        path.chmod(0o755)
    return {
        **os.environ,
        "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
        "SHAKECITY_INSTALL_ROOT": str(root),
        "STATE": str(state),
        "LOG": str(tmp_path / "log"),
    }


def run(env: dict[str, str], *args: str) -> tuple[str, list[str]]:
    log = Path(env["LOG"])
    log.write_text("")
    result = subprocess.run(["bash", str(INSTALL), *args], env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout, log.read_text().splitlines()


def tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_install_twice_changes_nothing_the_second_time(sandbox: dict[str, str]) -> None:
    root = Path(sandbox["SHAKECITY_INSTALL_ROOT"])
    out, calls = run(sandbox)
    assert any(
        c.startswith("apt-get install") and "python3-picamera2" in c and "--no-install-recommends" in c for c in calls
    )
    assert any(c.startswith("python3 -m venv --system-site-packages") for c in calls)
    assert any(c.startswith("venv-python -m pip install") and "--constraint" in c for c in calls)
    assert "systemctl enable shakecity.service" in calls and "systemctl start shakecity.service" in calls
    assert "raspi-config nonint do_hostname shakecity" in calls
    assert (root / "opt/shakecity/constraints.txt").read_text() == "numpy==1.24.2\n"
    assert (root / "etc/systemd/system/shakecity.service").read_bytes() == (
        ROOT / "deploy/shakecity.service"
    ).read_bytes()
    assert (root / "etc/shakecity/config.json").read_bytes() == (ROOT / "deploy/shakecity.example.json").read_bytes()
    assert (root / "var/lib/shakecity").is_dir()
    before = tree(root)

    out, calls = run(sandbox)
    assert tree(root) == before
    assert not any(c.startswith(("apt-get", "python3", "useradd", "usermod", "raspi-config nonint do_")) for c in calls)
    assert not any("pip install" in c for c in calls)
    assert "systemctl daemon-reload" not in calls
    assert not any(c.startswith(("systemctl start", "systemctl restart")) for c in calls)
    assert "nothing changed" in out


def test_edited_config_is_kept_and_a_changed_unit_restarts(sandbox: dict[str, str]) -> None:
    root = Path(sandbox["SHAKECITY_INSTALL_ROOT"])
    run(sandbox)
    config = root / "etc/shakecity/config.json"
    config.write_text('{"camera": {"kind": "webcam:0"}}')
    unit = root / "etc/systemd/system/shakecity.service"
    unit.write_text("an old unit\n")
    out, calls = run(sandbox)
    assert config.read_text() == '{"camera": {"kind": "webcam:0"}}'
    assert unit.read_bytes() == (ROOT / "deploy/shakecity.service").read_bytes()
    assert "systemctl daemon-reload" in calls and "systemctl restart shakecity.service" in calls


def test_uninstall_keeps_games_and_config_unless_purged(sandbox: dict[str, str]) -> None:
    root = Path(sandbox["SHAKECITY_INSTALL_ROOT"])
    run(sandbox)
    (root / "var/lib/shakecity/shakecity.sqlite3").write_bytes(b"games")
    out, calls = run(sandbox, "--uninstall")
    assert "systemctl disable --now shakecity.service" in calls
    assert not (root / "etc/systemd/system/shakecity.service").exists() and not (root / "opt/shakecity").exists()
    assert (root / "var/lib/shakecity/shakecity.sqlite3").read_bytes() == b"games"
    assert (root / "etc/shakecity/config.json").exists()
    out, calls = run(sandbox, "--uninstall", "--purge")
    assert not (root / "var/lib/shakecity").exists() and not (root / "etc/shakecity").exists()
    assert "userdel shakecity" in calls


def test_no_system_numpy_stops_the_install_before_pip(sandbox: dict[str, str]) -> None:
    root = Path(sandbox["SHAKECITY_INSTALL_ROOT"])
    result = subprocess.run(
        ["bash", str(INSTALL)], env={**sandbox, "NO_NUMPY": "1"}, capture_output=True, text=True, timeout=60
    )
    assert result.returncode != 0 and "system numpy is not importable" in result.stderr
    assert "pip install" not in Path(sandbox["LOG"]).read_text()
    assert not (root / "opt/shakecity/constraints.txt").exists()
