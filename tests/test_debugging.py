"""A bot writer's debugging path: the traceback of an exception fault everywhere it is reported, `maumau matches`
to find the matches to look at, and `maumau replay` of a stored match or of a `maumau play --log` file."""

import inspect
import json

import pytest

from runner import plugins
from runner.table.match import Match
from runner.table.referee import Referee
from runner.tournament.store import Store
from support import misbehaving_bots
from support.console import maumau

RAISE_LINE = inspect.getsourcelines(misbehaving_bots.Crasher.misbehave)[1] + 1  # `raise ZeroDivisionError(...)`
CALL_LINE = inspect.getsourcelines(misbehaving_bots.Honest.act)[1] + 3  # `return self.misbehave(view)`


@pytest.fixture(autouse=True)
def with_misbehaving_bots(monkeypatch):
    monkeypatch.setattr(plugins, "_registry", misbehaving_bots.registry())


def crash_traceback_is_the_bots(text: str) -> None:
    """`text` is Python's traceback of Crasher.misbehave, its files named from the import path."""
    assert text.startswith("Traceback (most recent call last):\n"), text
    assert f'  File "support/misbehaving_bots.py", line {CALL_LINE}, in act\n' in text
    raised = (f'  File "support/misbehaving_bots.py", line {RAISE_LINE}, in misbehave\n'
              '    raise ZeroDivisionError("on purpose")')
    assert raised in text
    assert text.endswith("ZeroDivisionError: on purpose") and "runner/" not in text  # none of the runner's frames


@pytest.mark.parametrize("isolate", [False, True])
def test_an_exception_fault_carries_the_bots_traceback_in_the_fault_and_the_log(isolate):
    from runner.seats.botmaker import BotMaker
    from runner.seats.faults import FaultSettings

    reg = plugins.registry()
    log: list[dict] = []
    with BotMaker(reg, isolate) as make_bot:
        match = Match(reg.load_ruleset("strafpunten"), ["t-honest", "t-crash"], 7, make_bot, log=log,
                      referee=Referee(FaultSettings(policy="autoplay"), seed=7))
        result = match.run()
        make_bot.end_match(result)
    (fault,) = result.faults
    assert fault.kind == "exception" and fault.detail == "ZeroDivisionError: on purpose"
    crash_traceback_is_the_bots(fault.traceback)
    (event,) = [event for event in log if event["type"] == "fault"]
    assert event == {"type": "fault", "seat": 1, "kind": "exception", "detail": fault.detail,
                     "traceback": fault.traceback}


def test_a_fault_that_is_no_exception_adds_no_traceback_to_the_log():
    reg = plugins.registry()
    log: list[dict] = []
    players = ["t-honest", "t-illegal"]
    make = lambda player, seat, rng: reg.bot(player).cls(rng=rng)  # noqa: E731
    result = Match(reg.load_ruleset("strafpunten"), players, 7, make, log=log).run()
    assert [fault.kind for fault in result.faults] == ["illegal"] and result.faults[0].traceback == ""
    assert [set(event) for event in log if event["type"] == "fault"] == [{"type", "seat", "kind", "detail"}]


def test_play_prints_the_traceback_under_the_fault(capsys, monkeypatch):
    code, out, _ = maumau(capsys, monkeypatch, "play", "-r", "strafpunten", "-b", "t-honest", "-b", "t-crash",
                          "--seed", "7")
    lines = out.splitlines()
    at = lines.index("fault: t-crash#1 exception in round 1: ZeroDivisionError: on purpose")
    assert code == 0 and lines[at + 1] == "    Traceback (most recent call last):"
    crash_traceback_is_the_bots("\n".join(line[4:] for line in lines[at + 1:at + 8]))


def test_check_bot_reports_the_traceback_of_each_kind_of_violation(capsys, monkeypatch):
    code, out, _ = maumau(capsys, monkeypatch, "check-bot", "t-crash", "--matches", "1", "--in-process")
    lines = out.splitlines()
    first = "  - exception (phase play): ZeroDivisionError: on purpose [first in "
    at = next(i for i, line in enumerate(lines) if line.startswith(first))
    assert code == 1 and lines[at + 1] == "      Traceback (most recent call last):"
    crash_traceback_is_the_bots("\n".join(line[6:] for line in lines[at + 1:at + 8]))


def test_check_bot_groups_illegal_plays_says_why_and_writes_the_failing_match(capsys, monkeypatch, tmp_path):
    """One finding for the same mistake made with many cards, why it was illegal, what was legal, and the log."""
    log = tmp_path / "failing.jsonl.gz"
    code, out, _ = maumau(capsys, monkeypatch, "check-bot", "t-sloppy", "--matches", "1", "--in-process",
                          "--log", log)
    lines = out.splitlines()
    assert code == 1
    findings = [line for line in lines if line.startswith("  - illegal (phase play): ")]
    count = int(next(line for line in lines if line.startswith("  ") and " violations of " in line).split()[0])
    assert 1 < len(findings) < 8 < count  # grouped by the reason, not listed card by card
    reasons = [lines[lines.index(line) + 1] for line in findings]
    assert all(reason.startswith("      why: ") for reason in reasons)
    assert any("matches neither the suit nor the rank of the top card" in reason for reason in reasons)
    assert any("a draw penalty of" in reason for reason in reasons)  # a 7 to answer, in most rulesets
    assert all(lines[lines.index(line) + 2].startswith("      legal then: ") for line in findings)
    match_id = next(line for line in findings).split("[first in ")[1].split(",")[0]
    assert f"  the first failing match, {match_id}, step by step: maumau replay {log}" in lines
    code, replayed, err = maumau(capsys, monkeypatch, "replay", str(log))
    assert code == 0 and "is not legal now" in replayed, err


@pytest.fixture
def tournament(capsys, monkeypatch, tmp_path):
    out = tmp_path / "t"
    code, _, err = maumau(capsys, monkeypatch, "tournament", "-r", "strafpunten", "-b", "t-honest", "-b", "t-crash",
                          "-b", "random", "--deals", "2", "--backend", "serial", "--seed", "3", "--out", out, "-q")
    assert code == 0, err
    return out


def test_the_faults_table_holds_the_traceback(tournament):
    store = Store.open(tournament)
    try:
        faults = store.faults()
    finally:
        store.close()
    assert len(faults) == 6 and {fault.kind for _, fault in faults} == {"exception"}
    for _, fault in faults:
        crash_traceback_is_the_bots(fault.traceback)


def test_matches_lists_the_matches_with_filters_and_replay_takes_their_ids(capsys, monkeypatch, tournament):
    code, out, err = maumau(capsys, monkeypatch, "matches", tournament, "--format", "json")
    rows = json.loads(out)
    assert code == 0 and [row["match"] for row in rows] == [f"t0-d{d}-r{r}" for d in range(2) for r in range(3)]
    assert all(sorted(row["players"]) == ["random", "t-crash", "t-honest"] for row in rows)
    assert all(row["faults"] == ["t-crash:exception"] for row in rows)
    code, out, _ = maumau(capsys, monkeypatch, "matches", tournament, "--bot", "random", "--lost", "--format", "json")
    lost = json.loads(out)
    assert lost == [row for row in rows if "random" not in row["winners"]] and 0 < len(lost) < 6
    code, out, _ = maumau(capsys, monkeypatch, "matches", tournament, "--bot", "t-honest", "--faults",
                          "--format", "json")
    assert json.loads(out) == []  # the faults are t-crash's
    code, out, _ = maumau(capsys, monkeypatch, "matches", tournament, "--bot", "t-crash", "--faults", "--format", "csv")
    assert out.splitlines()[0] == "match,players,winners,rounds,faults" and len(out.splitlines()) == 7
    assert all(line.endswith(",t-crash:exception") for line in out.splitlines()[1:])
    code, out, err = maumau(capsys, monkeypatch, "matches", tournament)
    assert out.splitlines()[0].split() == ["match", "players", "winners", "rounds", "faults"]
    assert err == f"6 matches; replay one with: maumau replay {tournament} --match ID\n"
    code, out, _ = maumau(capsys, monkeypatch, "replay", tournament, "--match", lost[0]["match"])
    lines = out.splitlines()
    assert code == 0 and lines[0].startswith(f"match {lost[0]['match']}: strafpunten")
    at = next(i for i, line in enumerate(lines) if line.startswith("  FAULT t-crash (exception): ZeroDivisionError"))
    crash_traceback_is_the_bots("\n".join(line[6:] for line in lines[at + 1:at + 8]))


@pytest.mark.parametrize("args, message", [
    (["--lost"], "--lost needs --bot: the matches which bot lost?"),
    (["--bot", "nobody"], "--bot 'nobody' did not play in {out}; its entrants: t-honest, t-crash, random"),
    (["--format", "xml"], "unknown --format 'xml'"),
])
def test_matches_refuses_what_it_cannot_list(capsys, monkeypatch, tournament, args, message):
    code, out, err = maumau(capsys, monkeypatch, "matches", tournament, *args)
    assert code == 1 and out == "" and err.count("\n") == 1
    assert err.startswith("Error: " + message.format(out=tournament))


@pytest.mark.parametrize("name", ["game.jsonl", "game.jsonl.gz"])
def test_replay_tells_a_log_written_by_play(capsys, monkeypatch, tmp_path, name):
    log = tmp_path / name
    code, _, _ = maumau(capsys, monkeypatch, "play", "-r", "elimination", "-b", "random", "-b", "t-crash",
                        "-b", "random",
                        "--join", "2:random", "--on-fault", "autoplay", "--log", log, "--seed", "1")
    assert code == 0
    code, out, err = maumau(capsys, monkeypatch, "replay", log)
    lines = out.splitlines()
    assert code == 0 and err == "" and lines[0] == "match play-1: elimination, to 100, seed 1; seat 0 random, " \
        "seat 1 t-crash, seat 2 random"
    assert lines[1].startswith("round 1: random deals, random leads; upcard ")
    assert "random joins as seat 3 with " in out and lines[-1].startswith("match over: winner ")
    at = next(i for i, line in enumerate(lines) if line.startswith("  FAULT t-crash (exception)"))
    crash_traceback_is_the_bots("\n".join(line[6:] for line in lines[at + 1:at + 8]))


@pytest.mark.parametrize("content, args, message", [
    ('{"type": "play", "seat": 0}\n', [], "Error: event 1 (play): expected match_start here"),
    ("", [], "Error: the log ends after event 0; expected match_start"),
    (None, [], "Error: cannot read the log {path}: No such file or directory"),
    ("", ["--match", "t0-d0-r0"],
     "Error: --match picks a match of a results directory; {path} is one match's log file"),
])
def test_replay_of_a_file_refuses_what_is_not_a_log(capsys, monkeypatch, tmp_path, content, args, message):
    path = tmp_path / "x.jsonl"
    if content is not None:
        path.write_text(content)
    code, out, err = maumau(capsys, monkeypatch, "replay", path, *args)
    assert code == 1 and out == "" and err == message.format(path=path) + "\n"


def test_replay_of_a_directory_asks_for_the_match(capsys, monkeypatch, tournament):
    code, _, err = maumau(capsys, monkeypatch, "replay", tournament)
    assert code == 1
    assert err == f"Error: {tournament} is a tournament: give --match ID (`maumau matches {tournament}` lists them)\n"


def test_replay_prints_the_play_command_that_plays_the_match_again(capsys, monkeypatch, tmp_path):
    """The printed command, run, plays the stored match move for move (its log, but for the match id)."""
    import shlex

    from runner.logs import codec
    from runner.tournament.replay import events_of

    out = tmp_path / "t"
    code, _, err = maumau(capsys, monkeypatch, "tournament", "-r", "standard", "--set", "match.limit=60",
                          "--set", "points.J=25", "-b", "medium", "-b", "random", "-b", "hard:rollouts=3",
                          "--deals", "1", "--backend", "serial", "--seed", "8", "--out", out, "-q")
    assert code == 0, err
    code, replayed, err = maumau(capsys, monkeypatch, "replay", out, "--match", "t0-d0-r2")
    last = err.splitlines()[-1]
    assert code == 0 and last.startswith("play this match again: maumau play -r standard --set match.limit=60 "), err
    words = shlex.split(last.split(": ", 1)[1])
    log = tmp_path / "again.jsonl"
    assert words[:2] == ["maumau", "play"] and "hard:rollouts=3" in words
    code, _, err = maumau(capsys, monkeypatch, *words[1:], "--log", log)
    assert code == 0, err
    stored, _, _ = events_of(out, "t0-d0-r2")
    again = codec.read_log(log)
    assert [e for e in again if e["type"] != "match_start"] == [e for e in stored if e["type"] != "match_start"]
    assert {**again[0], "match": "t0-d0-r2"} == stored[0]
