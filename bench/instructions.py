"""Instructions per decision of random bots through the full match path, counted by valgrind: independent of load.

    python bench/instructions.py                     # strafpunten and standard-single, 4 players, 40 matches
    python bench/instructions.py --matches 100 --rulesets standard-single --logs off,memory

Each row plays N matches and then 2N (seeds from 0) in a child process under `valgrind
--tool=cachegrind`; the difference of the two instruction counts over the difference of their
decisions is what a decision costs once the process, its imports and the first matches are paid
for. The engine runs compiled or pure as the environment says (`MAUMAU_PURE=1`, runner/accel.py).
Needs valgrind (`apt-get install valgrind`).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def play(ruleset_name: str, matches: int, log: bool) -> int:
    """Play `matches` seeded matches of four random bots through Match; the decisions they took."""
    sys.path.insert(0, str(ROOT))
    from runner.plugins import registry
    from runner.table.match import Match
    from runner.table.play import make_bot_factory

    reg = registry()
    ruleset, make_bot = reg.load_ruleset(ruleset_name), make_bot_factory(reg)
    return sum(Match(ruleset, ["random"] * 4, seed, make_bot, log=[] if log else None).run().decisions
               for seed in range(matches))


def counted(ruleset_name: str, matches: int, log: bool) -> tuple[int, int]:
    """(instructions, decisions) of a child process playing `matches` matches under cachegrind."""
    with tempfile.TemporaryDirectory() as folder:
        done = subprocess.run(
            ["valgrind", "--tool=cachegrind", "--cache-sim=no", f"--cachegrind-out-file={folder}/out",
             sys.executable, __file__, "--child", ruleset_name, str(matches), "memory" if log else "off"],
            capture_output=True, text=True, env=os.environ,
        )
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if done.returncode or found is None:
        sys.exit(f"Error: valgrind failed on {ruleset_name}: {done.stderr.strip()[-500:]}")
    return int(found.group(1).replace(",", "")), int(done.stdout.split()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=40, help="N: the rows play N matches, then 2N")
    parser.add_argument("--rulesets", default="strafpunten,standard-single", help="comma-separated ruleset names")
    parser.add_argument("--logs", default="off", help="comma-separated: off (no game log), memory (kept in a list)")
    parser.add_argument("--child", nargs=3, metavar=("RULESET", "MATCHES", "LOG"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(play(args.child[0], int(args.child[1]), args.child[2] == "memory"))
        return
    if shutil.which("valgrind") is None:
        sys.exit("Error: valgrind is not installed (apt-get install valgrind)")
    from runner import accel

    print(f"engine: {accel.summary()}; {args.matches} and {2 * args.matches} matches of 4 random bots per row")
    for name in args.rulesets.split(","):
        for log in args.logs.split(","):
            (few, few_decisions), (more, more_decisions) = (counted(name, n, log == "memory")
                                                            for n in (args.matches, 2 * args.matches))
            row = f"{name} 4p" + (", log" if log == "memory" else "")
            print(f"{row:28s} {(more - few) / (more_decisions - few_decisions):8,.0f} instructions per decision "
                  f"({more_decisions - few_decisions} decisions)")


if __name__ == "__main__":
    main()
