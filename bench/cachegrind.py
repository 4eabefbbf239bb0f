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
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

# what a match does with its log: off (none), memory (the events kept, as a tournament and `peers.py --logs memory`
# keep them: measure.py `kept_log`), encode (also as JSON lines, runner/logs/codec.py `encode`), gzip (also
# compressed as a tournament stores it, `compress`)
MODES = ("off", "memory", "encode", "gzip")


def play(mode: str, ruleset_name: str, matches: int, move_time: float | None = None, general: bool = False) -> int:
    """Play `matches` seeded matches of four random bots with the log in `mode`; the decisions made. `move_time`:
    each decision timed under that CPU budget in seconds, as a tournament's `--move-time` (None: untimed);
    `general`: every ruleset played by the engine's general path (`force_general`)."""
    from measure import kept_log

    if general:
        force_general()

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
        log = None if mode == "off" else kept_log()
        referee = None if move_time is None else Referee(FaultSettings(move_time=move_time), seed=seed)
        decisions += Match(ruleset, ["random"] * 4, seed, make_bot, log=log, referee=referee).run().decisions
        if mode == "encode":
            encode(log or [])
        elif mode == "gzip":
            compress(log or [])
    return decisions


def force_general() -> None:
    """Make every ruleset compiled from now on play through the engine's general path (runner/game/house_rules.py), as
    tests/test_golden.py does: what the classic rules would cost without the fast path."""
    import runner.game.tables

    runner.game.tables._needs_general = lambda game, ruleset, with_power: True


def play_openspiel(games: int, count: bool = False) -> int:
    """Play `games` games of OpenSpiel's `crazy_eights` at four players as bench/peers.py's row `OpenSpiel
    evaluate_bots, Python bot` does (its UniformRandomBot on Python's random.Random, seeds from 0); with `count`,
    the decisions they made (counted by a wrapper, so in a run of its own, outside the count of instructions)."""
    import pyspiel
    from open_spiel.python.bots.uniform_random import UniformRandomBot

    decisions = 0

    class Counting(UniformRandomBot):
        def step(self, state):
            nonlocal decisions
            decisions += 1
            return super().step(state)

    game = pyspiel.load_game("crazy_eights", {"players": 4})
    bots = [(Counting if count else UniformRandomBot)(p, random.Random(p)) for p in range(4)]
    for seed in range(games):
        pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)
    return decisions


def counted(child: list[str], what: str) -> tuple[int, str]:
    """The instructions of a child process (this file with `child` as its arguments) under cachegrind, and what it
    printed."""
    with tempfile.TemporaryDirectory() as folder:
        done = subprocess.run(
            ["valgrind", "--tool=cachegrind", "--cache-sim=no", f"--cachegrind-out-file={folder}/out",
             sys.executable, __file__, *child],
            capture_output=True, text=True, env=os.environ, check=False,
        )
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if done.returncode or found is None:
        sys.exit(f"Error: valgrind failed on {what}: {done.stderr.strip()[-500:]}")
    return int(found.group(1).replace(",", "")), done.stdout


def per_decision(mode: str, ruleset_name: str, matches: int, move_time: float | None = None,
                 general: bool = False) -> tuple[float, int]:
    """(instructions per decision, decisions counted) from `matches` against 2 x `matches` matches in `mode`
    (`move_time`: timed decisions, `general`: through the general path, as `play`)."""
    need_valgrind()
    (few, few_out), (more, more_out) = (counted(["--child", mode, ruleset_name, str(n), str(move_time or 0),
                                                 str(int(general))],
                                                f"{mode} {ruleset_name}") for n in (matches, 2 * matches))
    decisions = int(more_out.split()[-1]) - int(few_out.split()[-1])
    return (more - few) / decisions, decisions


def openspiel_per_decision(games: int) -> tuple[float, int]:
    """(instructions per decision, decisions counted) of OpenSpiel's evaluate_bots row from `games` against
    2 x `games` games (`play_openspiel`)."""
    need_valgrind()
    few, more = (counted(["--openspiel", str(n)], "OpenSpiel")[0] for n in (games, 2 * games))
    decisions = [play_openspiel(n, count=True) for n in (games, 2 * games)]  # here: the counting costs instructions
    return (more - few) / (decisions[1] - decisions[0]), decisions[1] - decisions[0]


def need_valgrind() -> None:
    if shutil.which("valgrind") is None:
        sys.exit("Error: valgrind is not installed (apt-get install valgrind)")


if __name__ == "__main__" and sys.argv[1:2] == ["--child"]:
    print(play(sys.argv[2], sys.argv[3], int(sys.argv[4]), float(sys.argv[5]) or None, sys.argv[6:7] == ["1"]))
elif __name__ == "__main__" and sys.argv[1:2] == ["--openspiel"]:
    play_openspiel(int(sys.argv[2]))
