"""In-process matches with tests/support/misbehaving_bots.py's bots at the table, under a fault policy: for the
fault tests (tests/test_faults.py, tests/test_isolation.py, tests/test_fault_tournament.py)."""

import random

from runner.seats.botmaker import BotMaker
from runner.seats.faults import FaultSettings
from runner.table.match import Match
from runner.table.referee import Referee
from support import misbehaving_bots

MOVE_TIME = 0.3  # CPU seconds: thousands of times what an honest seat needs, on any machine
WALL_TIME = 1.0  # the wall-clock cap: a bot that sleeps costs this much; generous for the honest seats under load
SLEEPERS = {"t-sleep"}  # bots that wait without using CPU time: only the wall-clock cap stops them


def wall_cap(players, move_time, time_bank) -> float | None:
    """The wall-clock cap of a test match: none without a sleeper at the table (0), so that a bot spinning on a
    busy machine is stopped by its CPU budget, the same fault on any load, and not by the wall clock first."""
    if move_time is None:
        return None
    return max(WALL_TIME, 10 * time_bank) if SLEEPERS & set(players) else 0


def play(players, policy="forfeit", move_time=MOVE_TIME, time_bank=0.0, seed=7, make_bot=None):
    """One strafpunten match; `make_bot` defaults to a fresh in-process BotMaker."""
    reg = misbehaving_bots.registry()
    log = []
    referee = Referee(FaultSettings(policy=policy, move_time=move_time, time_bank=time_bank,
                                    wall_time=wall_cap(players, move_time, time_bank)),
                      rng=random.Random(f"{seed}:autoplay"))
    maker = make_bot or BotMaker(reg)
    try:
        match = Match(reg.load_ruleset("strafpunten"), players, seed, maker, referee=referee, log=log)
        result = match.run()
    finally:
        maker.end_match()
        if make_bot is None:
            maker.close()
    return result, log


def moves(log):
    """The log without the players' names: what happened, whoever sat there."""
    return [{k: v for k, v in event.items() if k != "players"} for event in log]
