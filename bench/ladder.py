"""The ladder: `maumau tournament` between easy, medium and hard on standard and strafpunten, tables of 4.

    python3 bench/ladder.py [--deals 250] [--deals strafpunten=500] [--workers 2] [--seed 1] [--out bench/ladder.md]

The fourth seat is `random`, the same strategy as `easy` under another name: a control that
should not separate from `easy`. Every deal is played under every seat rotation (duplicate
deals), so each entrant meets the same cards in every seat. For each pair the table gives how
often the upper bot placed ahead of the lower one in a match, with the 95% interval of the
tournament's standings (Wilson, widened by the design effect of the rotations of one deal);
a pair is separated when the interval's low end is above 1/2. Results go to
`results/ladder-RULESET-seedS-dealsN` (re-running continues an interrupted tournament, or
reuses a finished one: move it away after changing a bot); the table to bench/ladder.md.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from maumau.bots.hard import HardBot  # noqa: E402
from runner.plugins import registry  # noqa: E402
from runner.table.match import Match  # noqa: E402
from runner.table.play import make_bot_factory  # noqa: E402
from runner.tournament.driver import standings_of  # noqa: E402
from runner.tournament.standings import compare  # noqa: E402
from runner.tournament.store import Store  # noqa: E402

RULESETS = ("standard", "strafpunten")
ENTRANTS = ("easy", "medium", "hard", "random")
PAIRS = (("hard", "medium"), ("medium", "easy"), ("hard", "easy"), ("easy", "random"))


def results_dir(ruleset: str, seed: int, deals: int) -> Path:
    return ROOT / "results" / f"ladder-{ruleset}-seed{seed}-deals{deals}"


def deals_by_ruleset(values: list[str]) -> dict[str, int]:
    """`--deals N` for every ruleset, `--deals RULESET=N` for one (a later value wins)."""
    deals = {}
    for value in values:
        name, _, count = value.rpartition("=")
        if not count.isdigit() or int(count) < 1 or (name and name not in RULESETS):
            raise SystemExit(f"Error: --deals {value!r}: expected a count, or RULESET=count with a ruleset of "
                             f"{RULESETS}")
        deals.update({ruleset: int(count) for ruleset in ([name] if name else RULESETS)})
    return deals


def command(ruleset: str, deals: int, workers: int, seed: int, out: Path) -> list[str]:
    bots = [arg for bot in ENTRANTS for arg in ("-b", bot)]
    return ["maumau", "tournament", "-r", ruleset, *bots, "--table-size", "4", "--deals", str(deals),
            "--seed", str(seed), "--workers", str(workers), "--no-logs", "-q", "--out", str(out)]


def run(ruleset: str, deals: int, workers: int, seed: int) -> tuple[list[str], str]:
    """Play (or finish) the tournament of `ruleset`; its command and how long it took."""
    out = results_dir(ruleset, seed, deals)
    argv = command(ruleset, deals, workers, seed, out.relative_to(ROOT))
    stored = (out / "tournament.sqlite").exists()
    if stored:
        store = Store.open(out)
        try:
            if store.finished():
                return argv, "played before: results stored"
        finally:
            store.close()
    started = time.perf_counter()
    subprocess.run(argv + (["--resume"] if stored else []), check=True, cwd=ROOT, stdout=subprocess.DEVNULL)
    return argv, f"{(time.perf_counter() - started) / 60:.1f} min here"


def table(ruleset: str, seed: int, deals: int) -> list[str]:
    """The markdown rows of one ruleset: each entrant's standing, then each pair's comparison."""
    store = Store.open(results_dir(ruleset, seed, deals))
    try:
        standings = standings_of(store)
        results = store.results()
    finally:
        store.close()
    blocks, matches = [block for block, _ in results], [seats for _, seats in results]
    lines = [f"### {ruleset}: {len(matches)} matches", "",
             "| entrant | win rate | 95% interval | points per round | rounds won |", "| --- | --- | --- | --- | --- |"]
    for row in standings.rows:
        lines.append(f"| {row.entrant} | {row.win_rate:.3f} | {row.win_rate_low:.3f}–{row.win_rate_high:.3f} "
                     f"| {row.points_per_round:.2f} | {row.rounds_won} |")
    lines += ["", "| pair | placed ahead | 95% interval | separated |", "| --- | --- | --- | --- |"]
    apart, together = [], []
    for above, below in PAIRS:
        c = compare(above, below, matches, blocks)
        verdict = "yes" if c.separated else ("no (control: same strategy)" if below == "random" else "**no**")
        lines.append(f"| {above} > {below} | {c.ahead / c.matches:.3f} ({c.ahead:g} of {c.matches}) "
                     f"| {c.low:.3f}–{c.high:.3f} | {verdict} |")
        if below != "random":
            (apart if c.separated else together).append(f"{above} > {below}")
    summary = f"Separated at 95%: {', '.join(apart) or 'none'}." + (
        f" Not separated: {', '.join(together)}." if together else " The ladder holds.")
    return lines + ["", summary, ""]


def speed(matches: int = 8) -> list[str]:
    """The hard bot's thinking in the ladder's table: decisions per second, playouts per searched decision."""
    reg = registry()
    make = make_bot_factory(reg)
    hards: list[HardBot] = []

    def make_bot(player, seat, rng):
        bot = make(player, seat, rng)
        if player == "hard":
            hards.append(bot)
        return bot

    decisions, seconds = 0, 0.0
    original = HardBot.act

    def timed(bot, view):
        nonlocal decisions, seconds
        started = time.perf_counter()
        try:
            return original(bot, view)
        finally:
            decisions += 1
            seconds += time.perf_counter() - started

    HardBot.act = timed  # before the matches: a seat takes its bot's `act` when it is made (runner/seats/seat.py)
    try:
        for seed in range(matches):
            Match(reg.load_ruleset("standard"), list(ENTRANTS), seed, make_bot).run()
    finally:
        HardBot.act = original
    searched = sum(bot.decisions for bot in hards)
    playouts = sum(bot.searched for bot in hards)
    return [
        f"The hard bot here (`{matches}` matches of standard, this table, one process): {decisions} decisions in "
        f"{seconds:.1f} s of its own time, {decisions / seconds:.0f} decisions/s; {searched} of them searched "
        f"({searched / seconds:.1f}/s), {playouts / max(searched, 1):.0f} playouts per searched decision "
        f"({playouts / seconds:.0f} playouts/s). The others were forced (one legal move) or a challenge.", "",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--deals",
        action="append",
        default=[],
        help="deals per ruleset, each played under 4 rotations (default 250); RULESET=N for one ruleset",
    )
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "ladder.md")
    args = parser.parse_args()
    report = ["# The ladder: easy, medium, hard", "",
              "Made by `python3 bench/ladder.py " + " ".join(sys.argv[1:]) + "`; each ruleset is the tournament:", ""]
    sections = []
    deals = deals_by_ruleset(["250"] + args.deals)
    for ruleset in RULESETS:
        argv, took = run(ruleset, deals[ruleset], args.workers, args.seed)
        report.append(f"    {' '.join(argv)}    # {took}")
        sections += table(ruleset, args.seed, deals[ruleset])
    report += ["", "`random` plays exactly like `easy`: the control pair should not separate.", ""] + sections + speed()
    args.out.write_text("\n".join(report))
    print("\n".join(report))


if __name__ == "__main__":
    main()
