"""What a ruleset does, measured: `maumau analyze` and its Python API, for house-rule designers and notebooks.

    from pathlib import Path
    from runner.analysis import analyze
    result = analyze(["standard", "strafpunten"], players="4", deals=50, out=Path("results/cmp"))
    result.cells[0].figure("decisions per round").estimate     # Estimate(value=..., low=..., high=..., matches=...)

Modules: metrics.py counts one match's events (in the worker), intervals.py gives the clustered 95%
intervals, figures.py sums a cell up and compares cells, runs.py plays an analysis through the
tournament machinery, report.py renders it.
"""

from __future__ import annotations

from pathlib import Path

from runner.tournament.progress import Progress

from .figures import Cell, Compared, Figure, Rule, SeatTest, Stall
from .intervals import Difference, Estimate
from .runs import Analysis, AnalysisPlan, Variant, make_plan, read_analysis, run_analysis


def analyze(rulesets: list[str], out: Path, *, players: str | None = None, sets: dict | None = None,
            sweep: str | None = None, bots: list[str] | None = None, deals: int = 100, seed: int = 1,
            resume: bool = False, backend: str = "processes", workers: int | None = None,
            progress: Progress | None = None) -> Analysis:
    """Play and measure `rulesets` (or one ruleset's `sweep`) into `out`; the figures as typed values."""
    plan = make_plan(rulesets, players, sets, sweep, bots, deals, seed)
    return run_analysis(plan, out, resume, backend, workers, progress)


__all__ = ["Analysis", "AnalysisPlan", "Cell", "Compared", "Difference", "Estimate", "Figure", "Rule", "SeatTest",
           "Stall", "Variant", "analyze", "make_plan", "read_analysis", "run_analysis"]
