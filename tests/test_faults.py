"""Faults in-process: each misbehaving bot is caught, logged, counted and handled by each policy."""


import pytest

from runner.cli import app
from runner.seats.faults import FaultSettings
from runner.table.referee import Referee, TournamentAborted
from support import misbehaving_bots
from support.faults import moves, play

MISBEHAVING = {  # bot: the fault kind it commits
    "t-crash": "exception", "t-exit": "exception", "t-sleep": "timeout", "t-spin": "timeout",
    "t-garbage": "illegal", "t-illegal": "illegal", "t-impostor": "illegal", "t-unbuildable": "exception",
}
def until_first_fault(log):
    return log[:next(i for i, event in enumerate(log) if event["type"] == "fault")]


@pytest.mark.parametrize("bad", sorted(MISBEHAVING))
def test_forfeit_ranks_the_bot_last_and_the_others_play_on(bad):
    result, log = play(["t-honest", bad, "random"])
    _, honest = play(["t-honest", "t-honest", "random"])
    assert [(f.seat, f.player, f.kind) for f in result.faults] == [(1, bad, MISBEHAVING[bad])]
    assert result.forfeited == (1,) and result.ranking[-1] == 1
    assert sorted(result.ranking[:2]) == [0, 2] and result.winners[0] in (0, 2)
    assert [e["type"] for e in log].count("fault") == 1 and log[-1]["type"] == "match_end"
    # nothing before the fault differs from the match in which the bot had played honestly
    before = moves(until_first_fault(log))
    assert len(before) > 2 and before == moves(honest)[:len(before)]


@pytest.mark.parametrize("bad", sorted(MISBEHAVING))
def test_autoplay_plays_for_the_bot_and_the_match_goes_on(bad):
    result, log = play(["t-honest", bad, "random"], policy="autoplay")
    assert result.faults and {f.kind for f in result.faults} == {MISBEHAVING[bad]}
    assert not result.forfeited and sorted(result.ranking) == [0, 1, 2]
    fault_at = next(i for i, e in enumerate(log) if e["type"] == "fault")
    assert log[fault_at + 1]["type"] in ("play", "draw", "name_suit", "pass") and log[fault_at + 1]["seat"] == 1
    if MISBEHAVING[bad] == "timeout" or bad == "t-unbuildable":
        assert len(result.faults) == 1  # a bot that hung or cannot exist is not asked again that match
    assert play(["t-honest", bad, "random"], policy="autoplay")[1] == log  # still reproducible


@pytest.mark.parametrize("bad", sorted(MISBEHAVING))
def test_abort_stops_with_a_message_naming_the_bot(bad):
    with pytest.raises(TournamentAborted, match=f"bot '{bad}' \\(seat 1\\) committed a fault \\({MISBEHAVING[bad]}\\)"):
        play(["t-honest", bad, "random"], policy="abort")


def test_view_mutation_attempts_change_nothing():
    _, mutated = play(["t-honest", "t-mutate", "random"], move_time=None)  # no clock: a loaded machine times nobody out
    _, honest = play(["t-honest", "t-honest", "random"], move_time=None)
    assert moves(mutated) == moves(honest)


def test_in_process_cheating_is_possible_and_isolation_is_what_stops_it():
    """The reason --isolate exists: in-process a bot can reach the engine's state."""
    misbehaving_bots.Cheater.rigged = 0
    result, _ = play(["random", "t-cheat", "random"])
    assert misbehaving_bots.Cheater.rigged > 0 and result.winners == (1,)


def test_time_bank_covers_an_overrun_that_move_time_alone_does_not():
    result, _ = play(["t-honest", "t-dawdle", "random"])
    assert [f.kind for f in result.faults] == ["timeout"]
    result, _ = play(["t-honest", "t-dawdle", "random"], time_bank=2.0)
    assert result.faults == () and not result.forfeited


def test_no_move_time_means_no_timeout():
    result, _ = play(["t-honest", "t-dawdle", "random"], move_time=None)
    assert result.faults == ()


def test_unknown_policy_is_a_clear_error():
    from runner.errors import MaumauError

    with pytest.raises(MaumauError, match="unknown policy 'explode'; use one of forfeit, autoplay, abort"):
        Referee(FaultSettings(policy="explode"))


def run_cli(args, monkeypatch):
    from typer.testing import CliRunner


    misbehaving_bots.install(monkeypatch)
    return CliRunner().invoke(app, args)


def test_play_command_reports_faults_under_each_policy(monkeypatch):
    base = ["play", "-r", "strafpunten", "-b", "t-honest", "-b", "t-crash", "-b", "random", "--seed", "7"]
    forfeit = run_cli(base, monkeypatch)
    assert forfeit.exit_code == 0, forfeit.output
    assert "fault: t-crash#1 exception" in forfeit.output and "forfeit" in forfeit.output
    autoplay = run_cli(base + ["--on-fault", "autoplay"], monkeypatch)
    assert autoplay.exit_code == 0 and "fault: t-crash#1 exception" in autoplay.output
    assert "forfeit" not in autoplay.output
    abort = run_cli(base + ["--on-fault", "abort"], monkeypatch)
    assert abort.exit_code == 1 and "committed a fault (exception)" in str(abort.exception)


def test_play_command_interrupts_a_hang_at_the_wall_clock_cap(monkeypatch):
    result = run_cli(["play", "-r", "strafpunten", "-b", "t-sleep", "-b", "random", "--move-time", "0.3",
                      "--wall-time", "1", "--seed", "1"], monkeypatch)
    assert result.exit_code == 0, result.output
    assert "fault: t-sleep#0 timeout" in result.output


@pytest.mark.parametrize("option, value, words", [
    ("--move-time", "-1", "--move-time must be a number of seconds"), ("--time-bank", "nan", "--time-bank must be"),
    ("--on-fault", "explode", "unknown --on-fault 'explode'"), ("--bot-memory", "lots", "--bot-memory 'lots'")])
def test_play_command_refuses_bad_fault_options(option, value, words, monkeypatch):
    result = run_cli(["play", "-r", "strafpunten", "-b", "random", "-b", "random", option, value], monkeypatch)
    assert result.exit_code == 1 and words in str(result.exception)
