"""--isolate: each bot in its own process, seeing a copy of its view; hangs killed, memory capped."""

import random

import pytest

from runner.cli.options import parse_memory
from runner.errors import MaumauError
from runner.seats.botmaker import BotMaker
from runner.seats.faults import FaultSettings
from runner.seats.isolation import worker_command
from runner.table.match import Match
from runner.table.referee import Referee
from support import misbehaving_bots
from support.faults import MOVE_TIME, WALL_TIME, moves, play

ISOLATED_FAULTS = {  # bot: (fault kind, words in the detail)
    "t-crash": ("exception", "ZeroDivisionError: on purpose"),
    "t-exit": ("exception", "SystemExit"),
    "t-hard-exit": ("exception", "exited with code 3"),
    "t-sleep": ("timeout", "killed"),
    "t-spin": ("timeout", "killed"),
    "t-garbage": ("illegal", "'play the ace, please' is not legal now"),
    "t-illegal": ("illegal", "is not legal now"),
    "t-hog": ("exception", "MemoryError"),
    "t-unbuildable": ("exception", "could not be built"),
}


@pytest.fixture(scope="module")
def isolated():
    """One isolated BotMaker for the module: healthy worker processes are reused between tests."""
    with BotMaker(misbehaving_bots.registry(), isolate=True, memory=512 << 20) as make_bot:
        yield make_bot


def test_an_isolated_match_is_the_in_process_match(isolated):
    players = ["random", "t-honest", "random"]
    assert play(players, make_bot=isolated)[1] == play(players)[1]


@pytest.mark.parametrize("bad", sorted(ISOLATED_FAULTS))
def test_each_fault_is_caught_in_the_worker_process(bad, isolated):
    kind, words = ISOLATED_FAULTS[bad]
    result, log = play(["t-honest", bad, "random"], make_bot=isolated)
    assert [(f.seat, f.kind) for f in result.faults] == [(1, kind)]
    assert words in result.faults[0].detail
    assert result.forfeited == (1,) and result.ranking[-1] == 1 and log[-1]["type"] == "match_end"


@pytest.mark.parametrize("bad", ["t-hard-exit", "t-sleep"])
def test_autoplay_takes_over_a_dead_or_killed_bot(bad, isolated):
    result, log = play(["t-honest", bad, "random"], policy="autoplay", make_bot=isolated)
    assert len(result.faults) == 1 and not result.forfeited
    after = log[next(i for i, e in enumerate(log) if e["type"] == "fault") + 1:]
    assert any(e.get("seat") == 1 and e["type"] == "play" for e in after)  # its turns go on, played for it


def test_the_cheater_cannot_reach_the_engine_and_plays_like_random(isolated):
    cheated, _ = play(["random", "t-cheat", "random"])
    assert cheated.winners == (1,)  # in-process it rigs its hand (see test_faults)
    log = play(["random", "t-cheat", "random"], make_bot=isolated)[1]
    assert moves(log) == moves(play(["random", "random", "random"])[1])


def test_a_killed_bot_is_restarted_for_the_next_match_and_healthy_ones_are_kept():
    reg = misbehaving_bots.registry()
    ruleset = reg.load_ruleset("strafpunten")
    with BotMaker(reg, isolate=True) as make_bot:
        pids = []
        for seed in (1, 2):
            match = Match(ruleset, ["t-sleep", "random"], seed, make_bot,
                          referee=Referee(FaultSettings(move_time=MOVE_TIME, wall_time=WALL_TIME),
                                          rng=random.Random(seed)))
            result = match.run()
            pids.append([bot.process.proc.pid for bot in match.bots])
            assert [f.kind for f in result.faults] == ["timeout"]  # it played 2 decisions, then hung again
            make_bot.end_match(result)
        assert pids[0][0] != pids[1][0] and pids[0][1] == pids[1][1]
        killed = make_bot.pool.idle
    assert all(p.dead for processes in killed.values() for p in processes)  # closed with the maker


def test_memory_sizes_parse_and_bad_ones_are_refused():
    assert parse_memory("1G") == 1 << 30 and parse_memory("512M") == 512 << 20 and parse_memory("0") is None
    assert parse_memory("2GiB") == 2 << 30
    for bad in ("lots", "-1G", "1K"):
        with pytest.raises(MaumauError, match="--bot-memory"):
            parse_memory(bad)


def test_a_class_defined_in_a_function_cannot_be_isolated():
    import runner

    class Local(runner.Bot):
        name = "local"

    with pytest.raises(MaumauError, match="--isolate needs a class importable"):
        worker_command("local", f"{Local.__module__}:{Local.__qualname__}")
