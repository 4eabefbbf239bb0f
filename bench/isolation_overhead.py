"""Per-decision cost of --isolate: the same matches in-process and with every bot in its own process.

    python3 bench/isolation_overhead.py [MATCHES]

Plays MATCHES strafpunten matches of four `random` bots (seeds 1..MATCHES) three ways: in-process,
isolated (four worker processes), and with one seat an `exec:` bot (examples/exec_bot.py); prints
decisions per second and the added cost per decision. Worker start-up is excluded (one warm-up match).
"""

import random
import sys
import time
from pathlib import Path

from runner.plugins import registry
from runner.seats.botmaker import BotMaker
from runner.seats.faults import FaultSettings
from runner.table.match import Match
from runner.table.referee import Referee

EXAMPLE = f"exec:{sys.executable} {Path(__file__).parent.parent / 'examples' / 'exec_bot.py'}"


def rate(players, isolate, matches):
    reg = registry()
    ruleset = reg.load_ruleset("strafpunten")
    with BotMaker(reg, isolate) as make_bot:
        decisions, seconds = 0, 0.0
        for seed in range(matches + 1):
            started = time.perf_counter()
            match = Match(
                ruleset, players, seed, make_bot, referee=Referee(FaultSettings(move_time=1.0), rng=random.Random(seed))
            )
            result = match.run()
            make_bot.end_match(result)
            assert not result.faults, result.faults
            if seed:  # seed 0 warms the worker processes up
                decisions += result.decisions
                seconds += time.perf_counter() - started
    return decisions, seconds


def main():
    matches = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    rows = [("in-process", ["random"] * 4, False), ("--isolate", ["random"] * 4, True),
            ("one exec: seat", [EXAMPLE] + ["random"] * 3, False)]
    base = None
    for label, players, isolate in rows:
        decisions, seconds = rate(players, isolate, matches)
        per = seconds / decisions * 1e6
        base = base if base is not None else per
        print(f"{label:15} {decisions:7d} decisions in {seconds:6.2f} s: {decisions / seconds:9.0f} decisions/s, "
              f"{per:7.1f} µs each ({per - base:+.1f} µs)")


if __name__ == "__main__":
    main()
