"""Run ``shakecity serve`` as a real process on a free loopback port, for the restart and browser tests."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

PIN = "2468"
START_TIMEOUT = 60.0
_opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # loopback only, never a proxy


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def call(method: str, url: str, body: Any = None, pin: str | None = PIN) -> tuple[int, Any]:
    """One JSON request; returns (status, decoded body)."""
    data = json.dumps(body).encode() if body is not None else None
    headers = {"Content-Type": "application/json"} if data is not None else {}
    if pin is not None:
        headers["X-Table-Pin"] = pin
    request = urllib.request.Request(url, data=data, method=method, headers=headers)
    try:
        with _opener.open(request, timeout=30) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as e:
        with e:
            return e.code, json.loads(e.read() or b"null")


class Server:
    """``shakecity serve`` in a child process; its console goes to ``log``."""

    def __init__(self, data_dir: Path, *extra: str) -> None:
        self.data_dir = data_dir
        self.extra = extra
        self.port = 0
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = data_dir.parent / f"{data_dir.name}-serve.log"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Server:
        self.port = free_port()
        args = [sys.executable, "-m", "web.cli", "serve", "--host", "127.0.0.1", "--port", str(self.port)]
        args += ["--data", str(self.data_dir), "--pin", PIN, "--camera", "none", "--pins", "none", *self.extra]
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"shakecity serve exited with {self.proc.returncode}:\n{self.console()}")
            try:
                status, _ = call("GET", self.url + "/api/device")
                if status == 200:
                    return self
            except OSError:
                pass
            time.sleep(0.1)
        self.kill()
        raise RuntimeError(f"shakecity serve did not answer within {START_TIMEOUT} s:\n{self.console()}")

    def console(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def kill(self) -> int:
        """``kill -9``: no clean-up of any kind in the server."""
        assert self.proc is not None
        self.proc.kill()
        return self.proc.wait(timeout=30)

    def stop(self) -> int:
        """SIGTERM, as systemd stops the service."""
        assert self.proc is not None
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                return self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=30)
                raise
        return int(self.proc.returncode)
