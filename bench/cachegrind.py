"""Instructions per decision of four random bots through `Match`, counted by valgrind's cachegrind: shared by
bench/instructions.py and bench/log_cost.py.

A count plays N matches and then 2N (seeds from 0) in a child process (this file, `--child`) under
`valgrind --tool=cachegrind`; the difference of the two instruction counts over the difference of
their decisions is what a decision costs once the process, its imports and the first matches are
paid for, and it does not depend on the machine's load. The engine runs compiled or pure as the
environment says (`MAUMAU_PURE=1`, runner/accel.py). Needs valgrind (`apt-get install valgrind`).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

# what a match does with its log: off (none), memory (the events kept, as `peers.py --logs memory`), encode (also
# as JSON lines, runner/logs/codec.py `encode`), gzip (also compressed as a tournament stores it, `compress`)
MODES = ("off", "memory", "encode", "gzip")


def play(mode: str, ruleset_name: str, matches: int, move_time: float | None = None) -> int:
    """Play `matches` seeded matches of four random bots with the log in `mode`; the decisions made. `move_time`:
    each decision timed under that CPU budget in seconds, as a tournament's `--move-time` (None: untimed)."""
    from runner.logs.codec import compress, encode
    from runner.plugins import registry
    from runner.seats.faults import FaultSettings
    from runner.table.match import Match
    from runner.table.play import make_bot_factory
    from runner.table.referee import Referee

    reg = registry()
    make_bot, ruleset = make_bot_factory(reg), reg.load_ruleset(ruleset_name)
    decisions = 0
    for seed in range(matches):
        log: list[dict] | None = None if mode == "off" else []
        referee = None if move_time is None else Referee(FaultSettings(move_time=move_time), seed=seed)
        decisions += Match(ruleset, ["random"] * 4, seed, make_bot, log=log, referee=referee).run().decisions
        if mode == "encode":
            encode(log or [])
        elif mode == "gzip":
            compress(log or [])
    return decisions


def counted(mode: str, ruleset_name: str, matches: int, move_time: float | None = None) -> tuple[int, int]:
    """(instructions, decisions) of a child process playing `matches` matches in `mode` under cachegrind."""
    with tempfile.TemporaryDirectory() as folder:
        done = subprocess.run(
            ["valgrind", "--tool=cachegrind", "--cache-sim=no", f"--cachegrind-out-file={folder}/out",
             sys.executable, __file__, "--child", mode, ruleset_name, str(matches), str(move_time or 0)],
            capture_output=True, text=True, env=os.environ, check=False,
        )
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if done.returncode or found is None:
        sys.exit(f"Error: valgrind failed on {mode} {ruleset_name}: {done.stderr.strip()[-500:]}")
    return int(found.group(1).replace(",", "")), int(done.stdout.split()[-1])


def per_decision(mode: str, ruleset_name: str, matches: int, move_time: float | None = None) -> tuple[float, int]:
    """(instructions per decision, decisions counted) from `matches` against 2 x `matches` matches in `mode`
    (`move_time`: timed decisions, as `play`)."""
    if shutil.which("valgrind") is None:
        sys.exit("Error: valgrind is not installed (apt-get install valgrind)")
    (few, few_decisions), (more, more_decisions) = (counted(mode, ruleset_name, n, move_time)
                                                        for n in (matches, 2 * matches))
    return (more - few) / (more_decisions - few_decisions), more_decisions - few_decisions


if __name__ == "__main__" and sys.argv[1:2] == ["--child"]:
    print(play(sys.argv[2], sys.argv[3], int(sys.argv[4]), float(sys.argv[5]) or None))
