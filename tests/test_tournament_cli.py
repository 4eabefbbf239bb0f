"""The tournament, standings and replay commands, and their one-line errors."""

import csv
import io
import json

import pytest

from console import maumau, run_cli

SMALL = ["tournament", "-r", "strafpunten", "-b", "random", "-b", "random", "-b", "random", "--table-size", "2",
         "--deals", "2", "--backend", "serial", "-q"]


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """A small stored tournament (3 entrants, tables of 2, 2 deals = 12 matches) and its JSON standings."""
    out = tmp_path_factory.mktemp("cli") / "t"
    return out, json.loads(run_cli(*SMALL, "--out", out, "--format", "json"))


def test_tournament_prints_standings_and_stores_every_match(played):
    out, data = played
    assert [r["entrant"] for r in sorted(data["standings"], key=lambda r: r["entrant"])] == [
        "random#1",
        "random#2",
        "random#3",
    ]
    assert all(r["matches"] == 8 for r in data["standings"])  # two tables each, 2 deals, 2 rotations
    assert len(data["head_to_head"]) == 6 and len(data["adjacent"]) == 2
    assert len(list((out / "logs").iterdir())) == 12


def test_standings_re_renders_a_stored_tournament(capsys, monkeypatch, played):
    out, data = played
    code, stdout, _ = maumau(capsys, monkeypatch, "standings", out, "--format", "json")
    assert code == 0 and json.loads(stdout) == data
    code, stdout, _ = maumau(capsys, monkeypatch, "standings", out, "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(stdout)))
    assert [r["entrant"] for r in rows] == [r["entrant"] for r in data["standings"]]
    code, stdout, _ = maumau(capsys, monkeypatch, "standings", out)
    assert code == 0 and "win rate" in stdout and "Head to head" in stdout


def test_replay_steps_through_a_stored_match(capsys, monkeypatch, played):
    out, _ = played
    code, stdout, _ = maumau(capsys, monkeypatch, "replay", out, "--match", "t1-d1-r0")
    lines = stdout.splitlines()
    assert code == 0 and lines[0].startswith("match t1-d1-r0: strafpunten, to 100")
    assert lines[1].startswith("round 1: ") and lines[-1].startswith("match over: winner ")
    assert any(" plays " in line for line in lines)


def test_replay_without_a_log_replays_the_match_from_its_seed(capsys, monkeypatch, played, tmp_path):
    out, _ = played
    code, _, _ = maumau(capsys, monkeypatch, *SMALL, "--out", tmp_path / "nologs", "--no-logs")
    assert code == 0 and not list((tmp_path / "nologs" / "logs").iterdir())
    code, replayed, note = maumau(capsys, monkeypatch, "replay", tmp_path / "nologs", "--match", "t1-d1-r0")
    assert code == 0 and "re-played from its seed" in note
    _, stored, _ = maumau(capsys, monkeypatch, "replay", out, "--match", "t1-d1-r0")
    assert replayed == stored


@pytest.mark.parametrize(
    "args, message",
    [
        (["-b", "random", "-b", "nosuch"], "unknown bot 'nosuch'"),
        (["-r", "nosuch", "-b", "random", "-b", "random"], "unknown ruleset 'nosuch'"),
        (["-b", "random", "-b", "random", "--table-size", "9"], "outside the player range 2-6"),
        (["-b", "random", "-b", "random", "--on-fault", "ignore"], "unknown --on-fault 'ignore'"),
        (["-b", "random", "-b", "random", "--deals", "0"], "--deals must be at least 1"),
        (["-b", "random", "-b", "random", "--backend", "cloud"], "unknown --backend 'cloud'"),
        (
            ["-b", "random", "-b", "random", "--backend", "serial", "--workers", "2"],
            "--workers 2 has no effect with --backend serial",
        ),
        (["-b", "random", "-b", "random", "--format", "xml"], "unknown --format 'xml'"),
        (["-b", "random", "-b", "random", "--resume"], "nothing to resume in"),
    ],
)
def test_bad_tournament_input_is_one_error_line(capsys, monkeypatch, tmp_path, args, message):
    if "-r" not in args:
        args = ["-r", "strafpunten", *args]
    code, stdout, stderr = maumau(capsys, monkeypatch, "tournament", *args, "--out", tmp_path / "x", "-q")
    assert code == 1 and stderr.startswith("Error: ") and message in stderr and stderr.count("\n") == 1


def test_resume_of_another_tournament_and_overwrite_are_refused(capsys, monkeypatch, played):
    out, _ = played
    code, _, stderr = maumau(capsys, monkeypatch, *SMALL, "--resume")
    assert (
        code == 1 and stderr == "Error: --resume needs --out DIR: the results directory of the tournament to continue\n"
    )
    code, _, stderr = maumau(capsys, monkeypatch, *SMALL, "--deals", "3", "--out", out, "--resume")
    assert code == 1 and stderr == f"Error: {out} holds another tournament (deals: 2 there, 3 here); " \
        "resume with the options it was started with, or choose another --out\n"
    code, _, stderr = maumau(capsys, monkeypatch, *SMALL, "--out", out)
    assert code == 1 and "already holds a tournament; add --resume" in stderr and stderr.count("\n") == 1


@pytest.mark.parametrize("args, message", [
    (["standings", "{missing}"], "holds no tournament"),
    (["replay", "{out}", "--match", "t9-d9-r9"], "no match 't9-d9-r9'"),
])
def test_bad_standings_and_replay_input_is_one_error_line(capsys, monkeypatch, played, tmp_path, args, message):
    out, _ = played
    args = [a.format(out=out, missing=tmp_path / "missing") for a in args]
    code, _, stderr = maumau(capsys, monkeypatch, *args)
    assert code == 1 and stderr.startswith("Error: ") and message in stderr and stderr.count("\n") == 1


@pytest.mark.parametrize("event, line", [
    ({"type": "fault", "seat": 1, "kind": "illegal", "detail": "Draw() is not legal now"},
     "  FAULT bob (illegal): Draw() is not legal now"),
    ({"type": "draw", "seat": 0, "cards": ["7H", "QS"], "reason": "seven"}, "  ann draws 7H QS (seven)"),
    ({"type": "play", "seat": 0, "card": "JC", "suit": "H", "announce": "mau"}, "  ann plays JC naming H, says mau"),
    ({"type": "round_end", "round": 2, "winner": None, "points": [3, 4], "totals": [9, 9]},
     "round 2 over: nobody (blocked) went out; points [3, 4]; totals [9, 9]"),
    ({"type": "challenge", "seat": 1, "target": 0}, "  challenge: seat=1, target=0"),
])
def test_replay_describes_each_event_in_one_line(event, line):
    from runner.logs.narration import event_line

    assert event_line(event, ["ann", "bob"]) == line
