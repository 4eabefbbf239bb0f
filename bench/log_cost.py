"""What the game log costs per decision, in instructions: no log, the log kept, encoded, and gzip-compressed.

    python bench/log_cost.py [--rulesets strafpunten,standard-single] [--matches 20]

Each mode plays the same seeded matches of four random bots through `Match` under valgrind's
cachegrind, N against 2N matches (bench/cachegrind.py: how; `apt-get install valgrind`), so the
figure does not depend on the machine's load. Modes: `off` (no log), `memory` (the events kept, as `peers.py --logs
memory`), `encode` (also as JSON lines, runner/logs/codec.py `encode`), `gzip` (also compressed
as a tournament stores it, `compress`).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from cachegrind import MODES, per_decision  # noqa: E402
from measure import engine, machine, markdown  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rulesets", default="strafpunten,standard-single")
    parser.add_argument("--matches", type=int, default=20, help="N: N and 2N matches per mode (default 20)")
    args = parser.parse_args(argv)
    rows = []
    for name in args.rulesets.split(","):
        costs = {mode: per_decision(mode, name, args.matches)[0] for mode in MODES}
        rows.append([f"{name} 4p", *(f"{costs[mode]:,.0f}" for mode in MODES),
                     *(f"+{costs[mode] - costs['off']:,.0f}" for mode in MODES[1:])])
    print(f"`python bench/log_cost.py --rulesets {args.rulesets} --matches {args.matches}`\n\n"
          f"Machine: {machine()}. maumau's engine: {engine()}.\n\n"
          + markdown(["row", *(f"{mode} (instr./decision)" for mode in MODES),
                      *(f"{mode} − off" for mode in MODES[1:])], rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
