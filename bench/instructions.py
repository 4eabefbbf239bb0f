"""Instructions per decision of random bots through the full match path, counted by valgrind: independent of load.

    python bench/instructions.py                     # strafpunten and standard-single, 4 players, 40 matches
    python bench/instructions.py --matches 100 --rulesets standard-single --logs off,memory
    python bench/instructions.py --move-time 1    # each decision timed, as a tournament's default --move-time 1

Each row plays N matches and then 2N under cachegrind (bench/cachegrind.py: how, and the log modes
off, memory, encode and gzip). Needs valgrind (`apt-get install valgrind`).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from cachegrind import MODES, per_decision  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=40, help="N: the rows play N matches, then 2N")
    parser.add_argument("--rulesets", default="strafpunten,standard-single", help="comma-separated ruleset names")
    parser.add_argument("--logs", default="off", help=f"comma-separated, of: {', '.join(MODES)}")
    parser.add_argument("--move-time", type=float, default=0.0,
                        help="seconds of CPU time per decision, timed as a tournament times it (0: untimed)")
    args = parser.parse_args()
    move_time = args.move_time or None
    from runner import accel

    print(f"engine: {accel.summary()}; {args.matches} and {2 * args.matches} matches of 4 random bots per row")
    for name in args.rulesets.split(","):
        for mode in args.logs.split(","):
            if mode not in MODES:
                sys.exit(f"Error: --logs {mode}: give one of {', '.join(MODES)}")
            cost, decisions = per_decision(mode, name, args.matches, move_time)
            row = f"{name} 4p" + ("" if mode == "off" else ", log" if mode == "memory" else f", log {mode}")
            row += "" if move_time is None else f", move time {move_time:g}"
            print(f"{row:40s} {cost:8,.0f} instructions per decision ({decisions} decisions)")


if __name__ == "__main__":
    main()
