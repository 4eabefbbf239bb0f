"""bench/analyze_cost.py runs end to end on a tiny budget and reports what it measured (no timing asserted)."""

from __future__ import annotations

import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench"


def test_analyze_cost_reports_both_ways_and_each_worker_count(capsys, monkeypatch):
    monkeypatch.syspath_prepend(str(BENCH))
    import analyze_cost

    analyze_cost.main(["--deals", "2", "--runs", "1", "--workers", "1,2"])
    table = capsys.readouterr().out
    assert "standard at 4 players, 2 deals" in table
    rows = [line for line in table.splitlines() if line.startswith("| 1 ") or line.startswith("| 2 ")]
    assert len(rows) == 2 and all(row.count("x |") == 4 for row in rows)  # ratios of CPU and wall, two speed-ups
    sys.modules.pop("analyze_cost", None)
