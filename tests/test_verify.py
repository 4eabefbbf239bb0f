"""`runner.verify` accepts the logs the runner writes and rejects tampered ones; `maumau verify` on the CLI."""

from __future__ import annotations

import copy
import gzip
import json
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from maumau.rulesets.builtin import classic_names
from runner.cli import app
from runner.logs.follow import LogTable
from runner.logs.verify import LogError, verify
from runner.table.match import TableChange
from support.games import VARIANTS, play, player_counts
from support.scenario import load


def logged(name: str, players: int, seed: int, sloppy: bool = False, policy: str = "forfeit",
           overrides: dict | None = None, changes=()) -> list[dict]:
    log: list[dict] = []
    play(load(name, overrides), players, seed, sloppy=sloppy, policy=policy, changes=changes, log=log)
    return log


def test_logs_of_random_matches_of_every_builtin_ruleset_verify(reg):
    checked = 0
    for name in classic_names(reg):  # the gallery: tests/test_gallery.py
        ruleset = load(name)
        for players in player_counts(ruleset):
            for seed in range(2):
                summary = verify(logged(name, players, seed))
                assert summary.rounds >= 1
                checked += 1
    assert checked > 100


@pytest.mark.parametrize("policy", ["forfeit", "autoplay"])
def test_logs_with_missed_announcements_faults_and_table_changes_verify(reg, policy):
    """Sloppy bots forget announcements and fault: penalties, challenges and forfeits all verify.

    Four seats too: at two or three a forfeit in the first round can end the match before the
    table changes of its second."""
    kinds: set[str] = set()
    for name in ("standard", "standard-challenge", "strafpunten-ace-skips", "standard-ace-draw", "elimination"):
        ruleset = load(name)
        for players in sorted({2, 3, 4, ruleset.players.max}):
            for seed in range(4):
                changes = ()
                if ruleset.match.table_changes and players < ruleset.players.max:
                    changes = (TableChange(2, "join", player="random"), TableChange(2, "leave", seat=0))
                log = logged(name, players, seed, sloppy=True, policy=policy, changes=changes)
                verify(log)
                kinds |= {event["type"] for event in log} | {event.get("reason") for event in log}
    assert {"fault", "challenge", "penalty", "others", "ace", "join", "leave"} <= kinds
    assert ("forfeit" in kinds) == (policy == "forfeit")


@pytest.mark.parametrize("overrides", VARIANTS, ids=lambda o: ",".join(o))
def test_logs_under_rule_variants_verify(overrides):
    for name in ("standard", "elimination", "standard-challenge"):
        for players in (2, 3, 5):
            verify(logged(name, players, players, sloppy=True, policy="autoplay", overrides=overrides))


# ---------------------------------------------------------------- tampered logs


@pytest.fixture(scope="module")
def sample() -> list[dict]:
    """A short match with draws, a reshuffle, skips and penalties in it."""
    for seed in range(100):
        log = logged("standard", 3, seed, sloppy=True, policy="autoplay")
        kinds = {event["type"] for event in log} | {event.get("reason") for event in log}
        if {"reshuffle", "skip", "penalty", "pass", "seven"} <= kinds and len(log) < 2000:
            return log
    raise AssertionError("no sample match found")


def first(log: list[dict], kind: str, where=lambda event: True) -> int:
    return next(i for i, event in enumerate(log) if event["type"] == kind and where(event))


def rejects(log: list[dict], at: int | None = None) -> str:
    with pytest.raises(LogError) as caught:
        verify(log)
    message = str(caught.value)
    if at is not None:
        assert message.startswith(f"event {at + 1} "), message
    return message


def not_in_hand(log: list[dict], index: int, seat: int) -> str:
    """A card that seat does not hold at event `index` (it is in no hand dealt to it and never drawn)."""
    start = max(i for i in range(index) if log[i]["type"] == "round_start")
    seen = set(log[start]["hands"][seat])
    seen |= {c for e in log[start:index] if e["type"] == "draw" and e["seat"] == seat for c in e["cards"]}
    return next(f"{r}{s}" for s in "CDHS" for r in ("2", "3", "4", "5", "6", "Q", "K") if f"{r}{s}" not in seen)


def test_a_played_card_changed_is_rejected(sample):
    log = copy.deepcopy(sample)
    i = first(log, "play", lambda e: not e["card"].startswith("J"))
    log[i]["card"] = not_in_hand(log, i, log[i]["seat"])
    assert "not in its hand" in rejects(log, at=i)


def test_a_drawn_card_changed_is_rejected(sample):
    log = copy.deepcopy(sample)
    i = first(log, "draw", lambda e: e["cards"])
    log[i]["cards"][0] = "AS" if log[i]["cards"][0] != "AS" else "AH"
    assert "stock's top" in rejects(log, at=i)


def test_a_dealt_card_changed_is_rejected(sample):
    log = copy.deepcopy(sample)
    hand = log[1]["hands"][0]
    hand[0] = next(card for card in log[1]["hands"][1] if card != hand[0])
    assert "not the full deck" in rejects(log, at=1)


def test_a_reshuffled_stock_changed_is_rejected(sample):
    log = copy.deepcopy(sample)
    i = first(log, "reshuffle")
    log[i]["stock"][0] = log[i - 1]["cards"][0] if log[i - 1].get("cards") else "AS"
    rejects(log)


def test_a_card_played_that_matches_neither_rank_nor_suit_is_rejected(sample):
    log = copy.deepcopy(sample)
    for i in range(2, len(log)):
        before, event = log[i - 1], log[i]
        if event["type"] == "play" and before["type"] == "play" and not before["card"].startswith("J"):
            start = max(j for j in range(i) if log[j]["type"] == "round_start")
            played = {e["card"] for e in log[start:i] if e["type"] == "play"}
            top = before["card"]
            wrong = [c for c in sorted(log[start]["hands"][event["seat"]]) if c not in played
                     and c[:-1] != top[:-1] and c[-1] != top[-1] and not c.startswith("J")]
            if wrong:
                break
    log[i]["card"] = wrong[0]
    assert "matches neither" in rejects(log, at=i)


@pytest.mark.parametrize("kind", ["play", "draw", "skip", "pass", "reshuffle", "round_start", "round_end",
                                  "match_start", "match_end"])
def test_an_event_dropped_is_rejected(sample, kind):
    log = copy.deepcopy(sample)
    del log[first(log, kind)]
    rejects(log)


def test_every_single_dropped_event_of_a_match_is_rejected():
    log = logged("standard-single", 3, 2, sloppy=True, policy="autoplay")
    for index in range(len(log)):
        with pytest.raises(LogError):
            verify(log[:index] + log[index + 1:])


def test_two_events_swapped_are_rejected(sample):
    log = copy.deepcopy(sample)
    i = first(log, "play")
    log[i], log[i + 1] = log[i + 1], log[i]
    rejects(log)


def test_a_missing_announcement_without_its_penalty_is_rejected(sample):
    log = copy.deepcopy(sample)
    i = due_mau(log)
    log[i]["announce"] = None
    assert "penalty" in rejects(log, at=i + 1)


def due_mau(log: list[dict]) -> int:
    """The first "mau" said when it was due: the play left one card (a sloppy bot also calls one that is not)."""
    table = LogTable()
    for i, event in enumerate(log):
        table.apply(event)
        if event["type"] == "play" and event["announce"] == "mau" and len(table.hand(event["seat"])) == 1:
            return i
    raise AssertionError("no mau said when due")


@pytest.mark.parametrize("field,change", [
    ("points", lambda e: e["points"].__setitem__(0, e["points"][0] + 1)),
    ("totals", lambda e: e["totals"].__setitem__(1, e["totals"][1] + 1)),
    ("winner", lambda e: e.__setitem__("winner", (e["winner"] + 1) % 3 if e["winner"] is not None else 0)),
])
def test_a_round_end_changed_is_rejected(sample, field, change):
    log = copy.deepcopy(sample)
    i = first(log, "round_end")
    change(log[i])
    assert field in rejects(log, at=i)


def test_a_match_end_with_other_winners_is_rejected(sample):
    log = copy.deepcopy(sample)
    end = log[-1]
    end["winners"] = [seat for seat in end["ranking"] if seat not in end["winners"]][:1]
    assert "winners" in rejects(log, at=len(log) - 1)


def test_an_event_after_match_end_is_rejected(sample):
    rejects(copy.deepcopy(sample) + [{"type": "pass", "seat": 0}], at=len(sample))


def test_a_malformed_event_is_rejected_with_its_number(sample):
    log = copy.deepcopy(sample)
    i = first(log, "play")
    del log[i]["card"]
    assert "missing field 'card'" in rejects(log, at=i)


# ---------------------------------------------------------------- the CLI


def write(path, events, gz=False) -> None:
    text = "".join(json.dumps(event) + "\n" for event in events)
    path.write_bytes(gzip.compress(text.encode()) if gz else text.encode())


def test_cli_verify_prints_ok_with_the_counts_for_plain_and_gzip_logs(sample, tmp_path):
    rounds = sum(1 for event in sample if event["type"] == "round_end")
    for name, gz in (("log.jsonl", False), ("log.jsonl.gz", True)):
        write(tmp_path / name, sample, gz)
        result = CliRunner().invoke(app, ["verify", str(tmp_path / name)])
        assert result.exit_code == 0, result.output
        assert result.output == f"ok: {len(sample)} events, {rounds} rounds\n"


def test_cli_verify_of_a_play_log_written_by_maumau_play(tmp_path):
    log = tmp_path / "match.jsonl.gz"
    played = CliRunner().invoke(app, ["play", "-r", "elimination", "-b", "random", "-b", "random", "--seed", "4",
                                      "--log", str(log)])
    assert played.exit_code == 0, played.output
    result = CliRunner().invoke(app, ["verify", str(log)])
    assert result.exit_code == 0 and result.output.startswith("ok: "), result.output


def test_cli_verify_of_a_tampered_log_is_one_error_line_and_exit_1(sample, tmp_path):
    log = copy.deepcopy(sample)
    i = first(log, "draw", lambda e: e["cards"])
    log[i]["cards"][0] = "AS" if log[i]["cards"][0] != "AS" else "AH"
    write(tmp_path / "bad.jsonl", log)
    done = subprocess.run([sys.executable, "-m", "runner.cli", "verify", str(tmp_path / "bad.jsonl")],
                          capture_output=True, text=True)
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr.startswith(f"Error: event {i + 1} (draw): ") and done.stderr.count("\n") == 1, done.stderr


@pytest.mark.parametrize("content,message", [
    (b"not json\n", "line 1: not JSON"),
    (b'{"no_type": 1}\n', "line 1: expected an object"),
    (b"\x1f\x8bbroken", "not a (gzip) JSON-lines log"),
    (b"", "the log ends"),
])
def test_cli_verify_of_a_broken_file_says_what_is_wrong(tmp_path, content, message):
    (tmp_path / "log").write_bytes(content)
    done = subprocess.run([sys.executable, "-m", "runner.cli", "verify", str(tmp_path / "log")],
                          capture_output=True, text=True)
    assert done.returncode == 1
    assert message in done.stderr and "Traceback" not in done.stderr, done.stderr
