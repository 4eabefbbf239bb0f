"""What `maumau analyze` costs over playing the same matches, and what a second worker buys it.

    python bench/analyze_cost.py --deals 1000 --runs 3 --workers 1,2

Per run, one after the other on the same backend (processes): the analysis of `standard` at 4
players over DEALS deals (equal medium bots, one match per deal: runner/analysis/runs.py, the
skill tournaments left out), and the same matches played through the same driver and store with
no measure and no game logs (a `--no-logs` tournament of those matches). For each: its CPU time
(this process and its worker processes, which a busy neighbour on a shared machine does not
skew) and its wall time, medians over the runs; the ratio analysis / tournament of each, and the
analysis' wall time on the first worker count over its time on each other count, and the same for the tournament
(what a second worker gives the same matches with nothing measured: on a shared machine, the neighbours' share of the
cores sets it more than the analysis does). Each run plays into a fresh temporary directory.

At 1,000 deals a run on two workers takes about a second of wall time, so what does not divide between the workers
(the pool's start, the last batches, the summary of the figures at the end) weighs on the speed-up of two over one;
`--deals 10000` shows the scaling with those worn down (the CPU ratio is the issue's at 1,000 deals, the default).
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from measure import machine, markdown  # noqa: E402

from runner.analysis import runs  # noqa: E402
from runner.tournament.backends import make_backend  # noqa: E402

RULESET, PLAYERS = "standard", 4


def cpu_seconds() -> float:
    """CPU time of this process and of its ended children (the pool's workers, joined when the backend closes)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def timed(play) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of `play()`."""
    cpu, wall = cpu_seconds(), time.perf_counter()
    play()
    return cpu_seconds() - cpu, time.perf_counter() - wall


def analysis_seconds(deals: int, workers: int, directory: Path) -> tuple[float, float]:
    """The whole analysis: played, measured in the workers, stored, summed up."""
    plan = runs.make_plan([RULESET], str(PLAYERS), deals=deals, skill=["none"])
    return timed(lambda: runs.run_analysis(plan, directory, workers=workers))


def tournament_seconds(deals: int, workers: int, directory: Path) -> tuple[float, float]:
    """The same matches with nothing measured: the units carry no measure, the store keeps the tournament's rows."""
    plan = runs.make_plan([RULESET], str(PLAYERS), deals=deals, skill=["none"])
    variant, players = next(plan.cells())
    settings = runs.cell_settings(plan, variant, players)

    def play() -> None:
        store = runs.FigureStore.create(directory, settings.config())
        try:
            with make_backend("processes", workers) as executor:
                pending = Unmeasured(settings, store, range(deals))
                executor.run(pending, pending.store_results)
        finally:
            store.close()

    return timed(play)


class Unmeasured(runs.Measured):
    """Measured's matches (one per deal with equal bots), without the measure."""

    def __iter__(self):
        for unit in super().__iter__():
            yield unit._replace(measure=None)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--workers", default="1,2", help="worker counts, comma-separated")
    args = parser.parse_args(argv)
    counts = [int(part) for part in args.workers.split(",")]
    times: dict[tuple[str, int], list[tuple[float, float]]] = {}
    for run in range(args.runs):
        for workers in counts:
            with tempfile.TemporaryDirectory() as tmp:
                # alternated: a load that comes and goes on a shared machine falls on both alike
                times.setdefault(("analysis", workers), []).append(
                    analysis_seconds(args.deals, workers, Path(tmp) / "a"))
                times.setdefault(("tournament", workers), []).append(
                    tournament_seconds(args.deals, workers, Path(tmp) / "t"))
        print(f"run {run + 1}/{args.runs} done", file=sys.stderr, flush=True)
    cpu = {key: statistics.median(c for c, _ in values) for key, values in times.items()}
    wall = {key: statistics.median(w for _, w in values) for key, values in times.items()}
    rows = []
    for workers in counts:
        a, t = ("analysis", workers), ("tournament", workers)
        rows.append([str(workers), f"{cpu[a]:.2f}", f"{cpu[t]:.2f}", f"{cpu[a] / cpu[t]:.2f}x", f"{wall[a]:.2f}",
                     f"{wall[t]:.2f}", f"{wall[a] / wall[t]:.2f}x",
                     f"{wall[('analysis', counts[0])] / wall[a]:.2f}x",
                     f"{wall[('tournament', counts[0])] / wall[t]:.2f}x"])
    print(f"{RULESET} at {PLAYERS} players, {args.deals} deals (one match each), median of {args.runs} runs; "
          f"{machine()}")
    print(markdown(["workers", "analysis CPU s", "tournament CPU s", "ratio CPU", "analysis wall s",
                    "tournament wall s", "ratio wall", f"wall speed-up over {counts[0]}",
                    f"tournament's speed-up over {counts[0]}"], rows))


if __name__ == "__main__":
    main()
