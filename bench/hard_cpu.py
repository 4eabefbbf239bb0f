"""The CPU time of hard's searched decisions (more than one legal action): what --move-time is a budget of.

    python3 bench/hard_cpu.py [--matches 3] [--rulesets standard strafpunten]

Plays `--matches` four-seat matches (hard, hard, medium, medium) per ruleset and prints the
median, 99th percentile and largest CPU time (time.thread_time) of hard's searched decisions,
with the load average: CPU time grows on a slower core and on cores shared with other work.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from bots.hard import HardBot
from runner.plugins import registry
from runner.table.match import Match


def searched_cpu_times(rulesets: list[str], matches: int) -> list[float]:
    """Seconds of CPU time of each searched decision of the hard seats."""
    reg, times = registry(), []

    class Timed(HardBot):
        def act(self, view):
            started = time.thread_time()
            action = super().act(view)
            if len(view.legal) > 1:
                times.append(time.thread_time() - started)
            return action

    def make_bot(player, seat, rng):
        return Timed(rng=rng) if player == "hard" else reg.bot(player).cls(rng=rng)

    for name in rulesets:
        for seed in range(matches):
            Match(reg.load_ruleset(name), ["hard", "hard", "medium", "medium"], seed, make_bot).run()
    return sorted(times)


def report(times: list[float]) -> str:
    if not times:
        return "no searched decisions"
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    return (f"{len(times)} searched decisions of hard, CPU time: median {statistics.median(times) * 1e3:.0f} ms, "
            f"99th percentile {p99 * 1e3:.0f} ms, largest {times[-1] * 1e3:.0f} ms "
            f"(load average {os.getloadavg()[0]:.1f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=3, help="matches per ruleset")
    parser.add_argument("--rulesets", nargs="+", default=["standard", "strafpunten"])
    args = parser.parse_args()
    print(report(searched_cpu_times(args.rulesets, args.matches)))


if __name__ == "__main__":
    main()
