"""The engine of this checkout against another's: CPU time per decision of whole matches, in alternating processes.

    python bench/engine_versus.py BASELINE_DIR [--runs 7] [--matches 1500] [--rulesets strafpunten,standard-single]

Each run starts one process per checkout (its own `runner` on sys.path), which plays `--matches`
seeded matches of 4 random bots through Match (referee, a View per decision, no log) on each
ruleset, after a warm-up, and reports decisions per CPU-second (process time: a busy neighbour on a
shared machine slows both sides alike). The processes alternate, baseline first, `--runs` times;
the table gives the medians and the ratio this ÷ baseline. Another row plays the engine alone (a
Round loop: random legal actions, as bench/peers.py's `Round loop`). `--general` adds rows of this
checkout only, the same rulesets played by the general path (runner/game/house_rules.py), to show
what the house rules' path costs where the fast one applies.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
from pathlib import Path

CHILD = r'''
import random, sys, time
sys.path.insert(0, ".")
from runner.plugins import registry
from runner.table.match import Match
from runner.table.referee import Referee
from runner.game.engine import Round

kind, name, matches, general = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4] == "1"
if general:
    from runner.game.tables import Game
    Game._needs_general = lambda self, ruleset, with_power: True
reg = registry()
ruleset = reg.load_ruleset(name)
cls = reg.bot("random").cls

def make_bot(player, seat, rng):
    return cls(rng=rng)

def match(seed):
    return Match(ruleset, ["random"] * 4, seed, make_bot, referee=Referee(seed=seed)).run().decisions

def loop(seed):
    rng = random.Random(seed)
    rnd = Round.deal(ruleset, random.Random(seed), 4)
    decisions = 0
    while not rnd.over:
        legal = rnd.legal()
        rnd.apply(legal[int(rng.random() * len(legal))])
        decisions += 1
    return decisions

play = match if kind == "match" else loop
count = matches if kind == "match" else matches * 8
for seed in range(count // 10):  # warm-up: imports, play tables, caches
    play(10**6 + seed)
decisions, start = 0, time.process_time()
for seed in range(count):
    decisions += play(seed)
print(decisions / (time.process_time() - start))
'''


def rate(where: Path, kind: str, name: str, matches: int, general: bool = False) -> float:
    out = subprocess.run([sys.executable, "-c", CHILD, kind, name, str(matches), "1" if general else "0"], cwd=where,
                         capture_output=True, text=True)
    if out.returncode:
        sys.exit(f"Error: {where}: {out.stderr.strip().splitlines()[-1] if out.stderr.strip() else 'failed'}")
    return float(out.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("baseline", type=Path, help="a checkout of the baseline (e.g. a git worktree of main)")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--matches", type=int, default=1500)
    parser.add_argument("--rulesets", default="strafpunten,standard-single")
    parser.add_argument("--general", action="store_true", help="also time this checkout's general path")
    args = parser.parse_args()
    here = Path(__file__).resolve().parent.parent
    rows = [(kind, name) for name in args.rulesets.split(",") for kind in ("match", "loop")]
    rates: dict[tuple[str, str, str], list[float]] = {}
    for run in range(args.runs):
        for kind, name in rows:
            for side, where in (("baseline", args.baseline), ("this", here)):
                rates.setdefault((side, kind, name), []).append(rate(where, kind, name, args.matches))
            if args.general:
                rates.setdefault(("general", kind, name), []).append(rate(here, kind, name, args.matches, True))
        print(f"run {run + 1}/{args.runs} done", file=sys.stderr)
    print(f"`python bench/engine_versus.py {args.baseline} --runs {args.runs} --matches {args.matches}`"
          f"{' --general' if args.general else ''}\n")
    print("| ruleset, 4 random bots | baseline decisions/CPU-s | this | this ÷ baseline |"
          + (" general path | general ÷ this |" if args.general else ""))
    print("| --- | ---: | ---: | ---: |" + (" ---: | ---: |" if args.general else ""))
    for kind, name in rows:
        base = statistics.median(rates[("baseline", kind, name)])
        this = statistics.median(rates[("this", kind, name)])
        label = f"{name}, {'Match' if kind == 'match' else 'Round loop'}"
        line = f"| {label} | {base:,.0f} | {this:,.0f} | {this / base:.3f} |"
        if args.general:
            general = statistics.median(rates[("general", kind, name)])
            line += f" {general:,.0f} | {general / this:.3f} |"
        print(line)
    spread = {key: (min(values), max(values)) for key, values in rates.items()}
    print("\nspread (min–max) per row:", "; ".join(f"{side} {kind} {name} {low:,.0f}–{high:,.0f}"
                                                 for (side, kind, name), (low, high) in sorted(spread.items())))


if __name__ == "__main__":
    main()
