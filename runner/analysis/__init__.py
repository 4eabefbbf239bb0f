"""What a ruleset does, measured: `maumau analyze` and its Python API, for house-rule designers and notebooks.

    from pathlib import Path
    from runner.analysis import analyze
    result = analyze(["standard", "strafpunten"], Path("results/cmp"), players="4", deals=50)
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
from .runs import (
    DEFAULT_DEALS,
    DEFAULT_MAX_DEALS,
    Analysis,
    AnalysisPlan,
    Variant,
    make_plan,
    read_analysis,
    run_analysis,
)


def analyze(rulesets: list[str], out: Path, *, players: str | None = None, sets: dict | None = None,
            sweep: str | None = None, bots: list[str] | None = None, deals: int = DEFAULT_DEALS, seed: int = 1,
            skill: list[str] | None = None, ablate: bool = False, until: float | None = None,
            max_deals: int = DEFAULT_MAX_DEALS, resume: bool = False, backend: str = "processes",
            workers: int | None = None, progress: Progress | None = None, hidden_info: str | None = None) -> Analysis:
    """Play and measure `rulesets` (or one ruleset's `sweep`) into `out`; the figures as typed values."""
    plan = make_plan(rulesets, players, sets, sweep, bots, deals, seed, skill=skill, ablate=ablate, until=until,
                     max_deals=max_deals, hidden_info=hidden_info)
    return run_analysis(plan, out, resume, backend, workers, progress)


__all__ = ["Analysis", "AnalysisPlan", "Cell", "Compared", "Difference", "Estimate", "Figure", "Rule", "SeatTest",
           "Stall", "Variant", "analyze", "make_plan", "read_analysis", "run_analysis"]
