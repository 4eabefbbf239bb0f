"""The CPU time of hard's searched decisions (more than one legal action): what --move-time is a budget of.

    python3 bench/hard_cpu.py [--matches 3] [--rulesets standard strafpunten] [--rollouts 720]
    python3 bench/hard_cpu.py --matches 1 --paths compiled,pure --runs 3

Plays `--matches` four-seat matches (hard, hard, medium, medium) per ruleset and prints the
median, 99th percentile and largest CPU time (time.thread_time) of hard's searched decisions,
with the load average: CPU time grows on a slower core and on cores shared with other work.

`--paths compiled,pure` plays the same matches in a child process per path (pure: MAUMAU_PURE=1,
runner/accel.py; compiled: the accelerator and the playout kernel where built), `--runs` times in
alternation, and gives each path's median over its runs and the ratio pure ÷ compiled of the
median decision; hard's choices must be the same on both paths (else this exits 1). A path may
name its own playouts (`--paths compiled:2880,pure:720`: four times the default in the kernel against the default in
Python); then the choices differ and are not compared.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

from maumau.bots.hard import ROLLOUTS, HardBot
from runner.plugins import registry
from runner.table.match import Match
from runner.words import counted


def searched(rulesets: list[str], matches: int, rollouts: int) -> tuple[list[float], list[str]]:
    """Seconds of CPU time of each searched decision of the hard seats, and every choice of theirs, in order."""
    reg, times, choices = registry(), [], []

    class Timed(HardBot):
        def act(self, view):
            started = time.thread_time()
            action = super().act(view)
            if len(view.legal) > 1:
                times.append(time.thread_time() - started)
                choices.append(str(action))
            return action

    def make_bot(player, seat, rng):
        return Timed(rng=rng, rollouts=rollouts) if player == "hard" else reg.bot(player).cls(rng=rng)

    for name in rulesets:
        for seed in range(matches):
            Match(reg.load_ruleset(name), ["hard", "hard", "medium", "medium"], seed, make_bot).run()
    return times, choices


def searched_cpu_times(rulesets: list[str], matches: int, rollouts: int = ROLLOUTS) -> list[float]:
    """Seconds of CPU time of each searched decision of the hard seats, sorted."""
    return sorted(searched(rulesets, matches, rollouts)[0])


def summary(times: list[float]) -> str:
    times = sorted(times)
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    return (f"median {statistics.median(times) * 1e3:.1f} ms, 99th percentile {p99 * 1e3:.0f} ms, "
            f"largest {times[-1] * 1e3:.0f} ms")


def report(times: list[float]) -> str:
    if not times:
        return "no searched decisions"
    return (f"{len(times)} searched decisions of hard, CPU time: {summary(times)} "
            f"(load average {os.getloadavg()[0]:.1f})")


def compare(args) -> int:
    """The same matches on each path of --paths, in child processes, --runs times in alternation."""
    paths = args.paths.split(",")
    found: dict[str, list[dict]] = {path: [] for path in paths}
    for run in range(args.runs):
        for path in paths if run % 2 == 0 else paths[::-1]:
            engine, _, rollouts = path.partition(":")
            env = {**os.environ, "MAUMAU_PURE": "1" if engine == "pure" else "0"}
            command = [sys.executable, __file__, "--child", "--matches", str(args.matches), "--rollouts",
                       rollouts or str(args.rollouts), "--rulesets", *args.rulesets]
            done = subprocess.run(command, env=env, capture_output=True, text=True)
            if done.returncode:
                sys.stderr.write(done.stderr)
                return 1
            found[path].append(json.loads(done.stdout))
        print(f"run {run + 1}/{args.runs} done", file=sys.stderr)
    same = len({json.dumps(result["choices"]) for results in found.values() for result in results}) == 1
    named = {path.partition(":")[2] for path in paths}
    comparable = len(named) == 1
    medians = {path: statistics.median(statistics.median(r["times"]) for r in results)
               for path, results in found.items()}
    count = len(found[paths[0]][0]["times"])
    playouts = (named.pop() or args.rollouts) if comparable else "their"
    print(f"{count} searched decisions of hard at {playouts} playouts ({counted(args.matches, 'match')} of "
          f"{', '.join(args.rulesets)}), CPU time, {args.runs} alternating runs per path "
          f"(load average {os.getloadavg()[0]:.1f}):")
    for path, results in found.items():
        print(f"- {path} ({results[0]['engine']}): median of the runs' medians {medians[path] * 1e3:.1f} ms; "
              f"first run: {summary(results[0]['times'])}")
    if len(paths) == 2:
        print(f"{paths[1]} ÷ {paths[0]}, median decision: {medians[paths[1]] / medians[paths[0]]:.1f}")
    if not comparable:
        return 0
    print("hard's choices: " + ("the same on every path and run." if same else "DIFFERENT between paths or runs."))
    return 0 if same else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=3, help="matches per ruleset")
    parser.add_argument("--rulesets", nargs="+", default=["standard", "strafpunten"])
    parser.add_argument("--rollouts", type=int, default=ROLLOUTS, help=f"hard's playouts per decision ({ROLLOUTS})")
    parser.add_argument("--paths", help="compare engines: compiled,pure (child processes, in alternation)")
    parser.add_argument("--runs", type=int, default=3, help="with --paths: alternations (default 3)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.paths:
        return compare(args)
    if args.child:
        from runner import accel

        times, choices = searched(args.rulesets, args.matches, args.rollouts)
        print(json.dumps({"times": times, "choices": choices, "engine": accel.summary()}))
        return 0
    print(report(searched_cpu_times(args.rulesets, args.matches, args.rollouts)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
