"""The benchmark runs end to end on a tiny load (the figures themselves are printed, never asserted)."""

from __future__ import annotations

import pytest

from web import bench


def test_bench_runs_and_prints_every_figure(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(["--clients", "3", "--requests", "3", "--shakes", "2", "--threads", "20"]) == 0
    out = capsys.readouterr().out
    assert "GET /api/game, one at a time: 30 requests" in out
    assert "all 3 clients at once, back to back: 9 requests" in out
    assert "2 shakes x 3 clients" in out and "missed 0" in out
    assert "server memory: RSS" in out


def test_bench_refuses_unbounded_runs() -> None:
    with pytest.raises(SystemExit):
        bench.main(["--clients", "5000"])
    with pytest.raises(SystemExit):
        bench.main(["--clients", "50", "--threads", "40"])
