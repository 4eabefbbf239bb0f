"""Instructions per decision of random bots through the full match path, counted by valgrind: independent of load.

    python bench/instructions.py                     # strafpunten and standard-single, 4 players, 40 matches
    python bench/instructions.py --matches 100 --rulesets standard-single --logs off,memory
    python bench/instructions.py --move-time 1    # each decision timed, as a tournament's default --move-time 1
    python bench/instructions.py --openspiel 200  # also OpenSpiel's row of bench/peers.py: 200 and 400 games
    python bench/instructions.py --general        # each row also through the engine's general path

Each row plays N matches and then 2N under cachegrind (bench/cachegrind.py: how, and the log modes
off, memory, encode and gzip). Needs valgrind (`apt-get install valgrind`).

`--openspiel G` counts OpenSpiel's `crazy_eights` through `evaluate_bots` with its Python random bot the same way
(G games, then 2G; `pip install -e '.[bench]'`), and gives each row's instruction ratio to it: OpenSpiel's
instructions per decision over ours. That is not the time ratio bench/peers.py measures (a C++ engine runs more
instructions a cycle than an interpreter), but it does not move with the machine's load, and its changes follow ours.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from cachegrind import MODES, openspiel_per_decision, per_decision  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=40, help="N: the rows play N matches, then 2N")
    parser.add_argument("--rulesets", default="strafpunten,standard-single", help="comma-separated ruleset names")
    parser.add_argument("--logs", default="off", help=f"comma-separated, of: {', '.join(MODES)}")
    parser.add_argument("--move-time", type=float, default=0.0,
                        help="seconds of CPU time per decision, timed as a tournament times it (0: untimed)")
    parser.add_argument("--openspiel", type=int, default=0, metavar="G",
                        help="also count OpenSpiel's evaluate_bots row over G and 2G games, and the ratios to it")
    parser.add_argument("--general", action="store_true",
                        help="also play each row through the engine's general path (runner/game/house_rules.py), "
                             "which plays every rule: what the fast path saves")
    args = parser.parse_args()
    move_time = args.move_time or None
    from runner import accel

    print(f"engine: {accel.summary()}; {args.matches} and {2 * args.matches} matches of 4 random bots per row")
    peer = None
    if args.openspiel:
        peer, decisions = openspiel_per_decision(args.openspiel)
        print(f"{'OpenSpiel evaluate_bots, Python bot 4p':40s} {peer:8,.0f} instructions per decision "
              f"({decisions} decisions)")
    for name in args.rulesets.split(","):
        for mode in args.logs.split(","):
            if mode not in MODES:
                sys.exit(f"Error: --logs {mode}: give one of {', '.join(MODES)}")
            cost, decisions = per_decision(mode, name, args.matches, move_time)
            row = f"{name} 4p" + ("" if mode == "off" else ", log" if mode == "memory" else f", log {mode}")
            row += "" if move_time is None else f", move time {move_time:g}"
            ratio = "" if peer is None else f"; OpenSpiel's ÷ ours {peer / cost:.2f}"
            print(f"{row:40s} {cost:8,.0f} instructions per decision ({decisions} decisions){ratio}")
            if args.general:
                slow, decided = per_decision(mode, name, args.matches, move_time, general=True)
                print(f"{row + ', general path':40s} {slow:8,.0f} instructions per decision ({decided} decisions); "
                      f"{slow / cost - 1:+.1%}")


if __name__ == "__main__":
    main()
