"""``shakecity doctor``: what this machine has for the table, the first thing to run when something is wrong.

Each check is a :class:`Check` (``ok``, ``warn`` or ``fail``, a one-line summary and details); the report
is printed as lines or as JSON. Checks: versions, the device config, the camera (which one ``auto``
picks, and one frame grabbed from it), the pins (which pin factory, every pin of the map claimed
once), the disk where the data lives, the page's address and whether the service answers there.
"""

from __future__ import annotations

import os
import platform
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

from . import cameras
from .config import load_config
from .tracker import PIN_FACTORY_ENV, RoundTracker, make_pin_factory, on_raspberry_pi

DEFAULT_PORT = 8000  # `shakecity serve`'s default
MIN_FREE_BYTES = 200 * 1024 * 1024
PACKAGES = ("shakecity", "numpy", "opencv-python-headless", "gpiozero", "flask", "waitress", "segno")


@dataclass
class Check:
    name: str
    level: str  # "ok", "warn" or "fail"
    summary: str
    details: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "level": self.level, "summary": self.summary, "details": self.details}


def default_data_dir() -> Path:
    """Where ``shakecity serve`` keeps its data when not told (``--data``): as in ``web/serve.py``."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "shakecity"


def os_name() -> str:
    try:
        for line in Path("/etc/os-release").read_text(encoding="utf-8").splitlines():
            if line.startswith("PRETTY_NAME="):
                return line.split("=", 1)[1].strip().strip('"')
    except OSError:
        pass
    return platform.platform()


def pi_model() -> str | None:
    try:
        return Path("/proc/device-tree/model").read_text(encoding="utf-8", errors="replace").strip("\x00\n ")
    except OSError:
        return None


def check_versions() -> Check:
    versions: dict[str, Any] = {"python": platform.python_version(), "os": os_name(), "machine": platform.machine()}
    model = pi_model()
    if model:
        versions["model"] = model
    missing = []
    for name in PACKAGES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = None
            missing.append(name)
    try:
        import cv2

        versions["opencv"] = cv2.__version__
    except ImportError:
        versions["opencv"] = None
    pi = cameras.picamera2_cameras()
    versions["picamera2"] = _picamera2_version() if pi is not None else None
    summary = f"Python {versions['python']} on {model or versions['os']}"
    summary += f"; shakecity {versions.get('shakecity') or '(not installed)'}"
    level = "ok"
    if missing:
        level = "fail" if "shakecity" not in missing or len(missing) > 1 else "warn"
        summary += f"; missing: {', '.join(missing)}"
    return Check("versions", level, summary, versions)


def _picamera2_version() -> str | None:
    try:
        return metadata.version("picamera2")
    except metadata.PackageNotFoundError:
        return "installed (from apt)"


def check_config(path: str | None) -> tuple[Check, Any]:
    try:
        config = load_config(path)
    except ValueError as e:
        return Check("config", "fail", str(e)), None
    return Check("config", "ok", f"device config: {config.source}", {"source": config.source}), config


def check_camera(kind: str | None, config: Any, grab_seconds: float) -> Check:
    details: dict[str, Any] = {
        "picamera2_cameras": cameras.picamera2_cameras(),
        "video_devices": cameras.video_devices(),
        "env": os.environ.get(cameras.CAMERA_ENV),
    }
    spec = kind or os.environ.get(cameras.CAMERA_ENV) or (config.camera_kind if config else "auto")
    try:
        chosen, _opts = cameras.parse_camera_spec(spec)
    except ValueError as e:
        return Check("camera", "fail", str(e), details)
    if chosen == "auto":
        chosen, why = cameras.auto_kind()
        details["auto"] = why
    details["kind"] = chosen
    try:
        camera = cameras.open_camera(spec if spec != "auto" else chosen)
    except ValueError as e:
        return Check("camera", "fail", str(e), details)
    details["camera"] = camera.describe()
    if grab_seconds <= 0:
        return Check("camera", "ok", f"{camera.describe()} (not opened: --no-grab)", details)
    with camera:
        frame = camera.wait_frame(0, timeout=grab_seconds)
        status = camera.status()
    details["status"] = status.message
    if frame is None:
        return Check(
            "camera", "fail", f"{camera.describe()}: no frame in {grab_seconds:g} s ({status.message})", details
        )
    h, w = frame.frame_bgr.shape[:2]
    details["frame"] = [w, h]
    level = "warn" if chosen == "simulated" else "ok"
    note = " (no real camera found: the demo's simulated camera)" if chosen == "simulated" and not kind else ""
    return Check("camera", level, f"{camera.describe()}: a {w}x{h} frame{note}", details)


def check_pins(kind: str | None, config: Any) -> Check:
    details: dict[str, Any] = {"env": os.environ.get(PIN_FACTORY_ENV), "raspberry_pi": on_raspberry_pi()}
    if config is None:
        return Check("pins", "fail", "no pin map (the device config is broken)", details)
    try:
        factory = make_pin_factory(kind)
    except Exception as e:  # an unknown or unloadable pin factory
        return Check("pins", "fail", f"pin factory: {e}", details)
    try:
        tracker = RoundTracker(config.pins, pin_factory=factory, owns_factory=factory is not None)
    except Exception as e:  # a pin in use (is `shakecity serve` running?) or not on this board
        if factory is not None:
            factory.close()
        busy = any(w in str(e).lower() for w in ("in use", "busy"))
        hint = " (is `shakecity serve` running? it owns the pins)" if busy else ""
        return Check("pins", "fail", f"cannot claim the pins: {e}{hint}", details)
    with tracker:
        snap = tracker.snapshot()
    details.update({"pin_factory": snap["pin_factory"], "pins": snap["pins"], "pin_map": config.pins.all_pins()})
    level = "ok" if snap["pins"] == "real pins" or not details["raspberry_pi"] else "warn"
    what = (
        "mock pins (not a Raspberry Pi: the page shows the LEDs and buttons)"
        if snap["pins"] == "mock pins"
        else "real pins"
    )
    summary = f"{snap['pin_factory']}: {what}; {len(details['pin_map'])} pins claimed"
    return Check("pins", level, summary, details)


def check_disk(data_dir: Path) -> Check:
    where = data_dir
    while not where.exists() and where != where.parent:
        where = where.parent
    usage = shutil.disk_usage(where)
    details = {"data_dir": str(data_dir), "free_bytes": usage.free, "total_bytes": usage.total}
    free_mb = usage.free / 1024 / 1024
    summary = f"{data_dir}: {free_mb:,.0f} MB free of {usage.total / 1024 / 1024 / 1024:,.1f} GB"
    level = "ok" if usage.free >= MIN_FREE_BYTES else "warn"
    if not os.access(where, os.W_OK):
        level, summary = "fail", summary + f" (cannot write in {where})"
    return Check("disk", level, summary, details)


def local_addresses() -> list[str]:
    """This machine's IPv4 addresses on the LAN (no packet is sent)."""
    found: set[str] = set()
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.add(str(info[4][0]))
    except OSError:
        pass
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))  # a documentation address: routing only, nothing is sent
            found.add(s.getsockname()[0])
    except OSError:
        pass
    return sorted(a for a in found if not a.startswith("127."))


def check_page(port: int) -> Check:
    host = socket.gethostname()
    address = f"http://{host}.local:{port}/"
    details: dict[str, Any] = {"address": address, "ips": [f"http://{ip}:{port}/" for ip in local_addresses()]}
    if shutil.which("systemctl"):
        try:
            active = subprocess.run(
                ["systemctl", "is-active", "shakecity"], capture_output=True, text=True, timeout=5, check=False
            ).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            active = "unknown"
        details["service"] = active
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as response:
            details["answers"] = response.status
    except (urllib.error.URLError, OSError) as e:
        details["answers"] = None
        details["error"] = str(getattr(e, "reason", e))
    if details["answers"]:
        return Check("page", "ok", f"{address} answers (also {', '.join(details['ips']) or 'no LAN address'})", details)
    return Check("page", "warn", f"{address} does not answer yet: start it with `shakecity serve`", details)


def run_checks(
    *,
    camera: str | None = None,
    pins: str | None = None,
    config: str | None = None,
    data: Path | None = None,
    port: int = DEFAULT_PORT,
    grab_seconds: float = 5.0,
) -> list[Check]:
    checks = [check_versions()]
    config_check, loaded = check_config(config)
    checks.append(config_check)
    checks.append(check_camera(camera, loaded, grab_seconds))
    checks.append(check_pins(pins, loaded))
    checks.append(check_disk(data or default_data_dir()))
    checks.append(check_page(port))
    return checks


MARKS = {"ok": "ok  ", "warn": "warn", "fail": "FAIL"}


def render(checks: list[Check]) -> str:
    width = max(len(c.name) for c in checks)
    lines = [f"[{MARKS[c.level]}] {c.name:<{width}}  {c.summary}" for c in checks]
    pin_map = next((c.details.get("pin_map") for c in checks if c.name == "pins"), None)
    if pin_map:
        lines.append("pin map: " + ", ".join(f"{part}={pin}" for part, pin in pin_map.items()))
    return "\n".join(lines)


def report(checks: list[Check]) -> dict[str, Any]:
    return {
        "ok": all(c.level != "fail" for c in checks),
        "checked_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "checks": [c.to_json() for c in checks],
    }


def main(argv: list[str] | None = None) -> int:
    from .cli import build_doctor_parser, run_doctor

    return run_doctor(build_doctor_parser().parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
