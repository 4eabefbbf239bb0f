"""The issue's acceptance run: a tournament with a crashing, a hanging and a cheating bot among honest ones.

    python3 bench/fault_tournament.py [--move-time 0.25] [--deals 2]

Runs it under every --on-fault policy, in-process and --isolate, and prints for each: the time
taken, the time the hanging bot's matches could cost at most (its matches x the move time, over
the workers), and the standings (W/D/L, score, faults). The misbehaving bots are the test suite's
(tests/support/misbehaving_bots.py); `t-honest` plays exactly like `random`.
"""

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "tests"))

from runner import plugins  # noqa: E402
from runner.errors import MaumauError  # noqa: E402
from runner.seats.faults import FaultSettings  # noqa: E402
from runner.tournament.driver import conduct  # noqa: E402
from runner.tournament.schedule import match_count  # noqa: E402
from runner.tournament.settings import plan  # noqa: E402
from support import misbehaving_bots  # noqa: E402

ENTRANTS = ["random", "medium", "t-honest", "t-crash", "t-sleep", "t-cheat"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--move-time", type=float, default=0.25)
    parser.add_argument("--deals", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    plugins._registry = misbehaving_bots.registry()
    k = 3
    total = match_count(len(ENTRANTS), k, args.deals)
    with_sleeper = total - match_count(len(ENTRANTS) - 1, k, args.deals)
    bound = with_sleeper * args.move_time / args.workers
    print(f"{len(ENTRANTS)} entrants, tables of {k}, {args.deals} deals: {total} matches, {with_sleeper} with the "
          f"hanging bot; --move-time {args.move_time} s: hangs cost at most {bound:.1f} s over {args.workers} workers")
    for isolate in (False, True):
        for policy in ("forfeit", "autoplay", "abort"):
            settings = plan("strafpunten", ENTRANTS, deals=args.deals, table_size=k, seed=11, faults=FaultSettings(
                policy=policy, move_time=args.move_time, isolate=isolate))
            out = Path(tempfile.mkdtemp()) / "t"
            started = time.perf_counter()
            try:
                standings, _ = conduct(settings, out, False, workers=args.workers, quiet=True)
            except MaumauError as exc:
                print(f"\n{policy}, {'isolated' if isolate else 'in-process'}: Error: {exc} "
                      f"({time.perf_counter() - started:.1f} s)")
                continue
            print(f"\n{policy}, {'isolated' if isolate else 'in-process'}: {time.perf_counter() - started:.1f} s")
            for row in standings.rows:
                print(f"  {row.entrant:9} {row.matches:3} matches  W {row.wins:3} D {row.draws:2} L {row.losses:3}  "
                      f"score {row.score:6.2f}  faults {row.faults:3}")


if __name__ == "__main__":
    main()
