"""What the game log costs per decision, in instructions: no log, the log kept, encoded, and gzip-compressed.

    python bench/log_cost.py [--rulesets strafpunten,standard-single] [--matches 20]

Each mode plays the same seeded matches of four random bots through `Match` in a child process
under valgrind's cachegrind (`apt-get install valgrind`); the instructions of N matches are
subtracted from those of 2N, so start-up and imports cancel out, and the figure does not depend
on the machine's load. Modes: `off` (no log), `memory` (the events kept, as `peers.py --logs
memory`), `encode` (also as JSON lines, runner/logs/codec.py `encode`), `gzip` (also compressed
as a tournament stores it, `compress`).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from measure import engine, machine, markdown  # noqa: E402

MODES = ("off", "memory", "encode", "gzip")


def play(mode: str, ruleset_name: str, matches: int) -> int:
    """Play `matches` seeded matches of four random bots with the log in `mode`; the decisions made."""
    from runner.logs.codec import compress, encode
    from runner.plugins import registry
    from runner.table.match import Match
    from runner.table.play import make_bot_factory

    reg = registry()
    make_bot, ruleset = make_bot_factory(reg), reg.load_ruleset(ruleset_name)
    decisions = 0
    for seed in range(matches):
        log: list[dict] | None = None if mode == "off" else []
        decisions += Match(ruleset, ["random"] * 4, seed, make_bot, log=log).run().decisions
        if mode == "encode":
            encode(log or [])
        elif mode == "gzip":
            compress(log or [])
    return decisions


def instructions(mode: str, ruleset_name: str, matches: int) -> tuple[int, int]:
    """The instructions and decisions of the child playing `matches` matches in `mode` under cachegrind."""
    with tempfile.TemporaryDirectory() as tmp:
        done = subprocess.run(
            ["valgrind", "--tool=cachegrind", "--cache-sim=no", f"--cachegrind-out-file={tmp}/out",
             sys.executable, __file__, "--child", mode, ruleset_name, str(matches)],
            capture_output=True, text=True, env=os.environ, check=False,
        )
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if done.returncode or not found:
        sys.exit(f"Error: cachegrind failed on {mode} {ruleset_name}: {done.stderr[-500:]}")
    return int(found.group(1).replace(",", "")), int(done.stdout.split()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rulesets", default="strafpunten,standard-single")
    parser.add_argument("--matches", type=int, default=20, help="N: N and 2N matches per mode (default 20)")
    parser.add_argument("--child", nargs=3, metavar=("MODE", "RULESET", "MATCHES"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        mode, ruleset_name, matches = args.child
        print(play(mode, ruleset_name, int(matches)))
        return 0
    rows = []
    for name in args.rulesets.split(","):
        costs = {}
        for mode in MODES:
            (few, few_decisions), (more, more_decisions) = (instructions(mode, name, args.matches),
                                                            instructions(mode, name, 2 * args.matches))
            costs[mode] = (more - few) / (more_decisions - few_decisions)
        rows.append([f"{name} 4p", *(f"{costs[mode]:,.0f}" for mode in MODES),
                     *(f"+{costs[mode] - costs['off']:,.0f}" for mode in MODES[1:])])
    print(f"`python bench/log_cost.py --rulesets {args.rulesets} --matches {args.matches}`\n\n"
          f"Machine: {machine()}. maumau's engine: {engine()}.\n\n"
          + markdown(["row", *(f"{mode} (instr./decision)" for mode in MODES),
                      *(f"{mode} − off" for mode in MODES[1:])], rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
