"""Kill the server with SIGKILL mid-game and start it again on the same data: nothing is lost."""

from __future__ import annotations

import signal
from pathlib import Path

from .server import Server, call

PATTERN = [["red", "red", "blue"], ["green", "gray", "black"], ["red", "blue", "blue"]]
SECOND = [["blue", "black", "blue"], ["green", "green", "gray"], ["red", "gray", "black"]]


def test_kill_9_mid_game_then_restart_resumes_exactly(tmp_path: Path) -> None:
    data = tmp_path / "data"
    server = Server(data).start()
    try:
        url = server.url
        assert call("POST", url + "/api/games", {"players": ["Ann", "Bo", "Cy"], "side": "waterfront"})[0] == 201
        assert call("POST", url + "/api/shake", {"pattern": PATTERN})[0] == 200
        assert call("POST", url + "/api/place", {"player": "Ann", "colour": "red", "row": 0, "col": 0})[0] == 200
        assert call("POST", url + "/api/place", {"player": "Bo", "colour": "blue", "row": 2, "col": 2})[0] == 200
        assert call("POST", url + "/api/place", {"player": "Cy", "colour": "green", "row": 3, "col": 0})[0] == 200
        assert call("POST", url + "/api/next-round")[0] == 200
        assert call("POST", url + "/api/shake", {"pattern": SECOND})[0] == 200
        assert call("POST", url + "/api/place", {"player": "Bo", "colour": "black", "row": 0, "col": 0})[0] == 200
        assert call("POST", url + "/api/place", {"player": "Cy", "colour": "blue", "row": 0, "col": 3})[0] == 200
        assert call("POST", url + "/api/undo")[0] == 200
        status, before = call("GET", url + "/api/game")
        assert status == 200
        _, log_before = call("GET", url + f"/api/games/{before['id']}/log")
        assert server.kill() == -signal.SIGKILL
    finally:
        if server.proc and server.proc.poll() is None:
            server.kill()

    server = Server(data).start()
    try:
        url = server.url
        status, after = call("GET", url + "/api/game")
        assert status == 200
        assert after == before
        assert after["round"] == 2 and after["active_player"] == "Bo"
        assert after["players"][1]["placed"] == [[0, 1], [2, 2]]
        assert after["players"][2]["placed"] is None  # the undone placement stays undone
        assert call("GET", url + f"/api/games/{before['id']}/log")[1] == log_before
        # and the game goes on from there
        status, played = call("POST", url + "/api/place", {"player": "Cy", "colour": "blue", "row": 0, "col": 3})
        assert status == 200, played
        assert played["seq"] > before["seq"]
        assert server.stop() == 0
    finally:
        if server.proc and server.proc.poll() is None:
            server.kill()
