"""The tournament, standings and replay commands, and their one-line errors."""

import csv
import io
import json

import pytest

from support.console import maumau, run_cli

SMALL = ["tournament", "-r", "strafpunten", "-b", "random", "-b", "random", "-b", "random", "--table-size", "2",
         "--deals", "2", "--backend", "serial", "-q", "--seed", "1"]


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
    ({"type": "draw", "seat": 0, "cards": ["7H", "QS"], "reason": "seven"}, "  ann draws 7H QS (a draw penalty)"),
    ({"type": "play", "seat": 0, "card": "JC", "suit": "H", "announce": "mau"}, "  ann plays JC naming H, says mau"),
    ({"type": "round_end", "round": 2, "winner": None, "points": [3, 4], "totals": [9, 9]},
     "round 2 over: nobody (blocked) went out; points [3, 4]; totals [9, 9]"),
    ({"type": "challenge", "seat": 1, "target": 0}, "  challenge: seat=1, target=0"),
])
def test_replay_describes_each_event_in_one_line(event, line):
    from runner.logs.narration import event_line

    assert event_line(event, ["ann", "bob"]) == line


def test_out_into_a_directory_of_other_files_is_refused(capsys, monkeypatch, tmp_path):
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "draft.txt").write_text("mine")
    code, _, stderr = maumau(capsys, monkeypatch, *SMALL, "--out", notes)
    assert code == 1 and stderr == f"Error: {notes} holds other files and no tournament; " \
        "choose a new or empty directory for --out\n"
    assert sorted(path.name for path in notes.iterdir()) == ["draft.txt"]
    empty = tmp_path / "empty"
    empty.mkdir()
    code, _, _ = maumau(capsys, monkeypatch, *SMALL, "--out", empty)
    assert code == 0 and (empty / "tournament.sqlite").is_file()


@pytest.mark.parametrize("args, message", [
    (["--leave", "2:7"], "--leave 2:7: the table has no seat 7 before round 2 (seats 0-2)"),
    (["--leave", "2:3", "--join", "3:random"], "--leave 2:3: the table has no seat 3 before round 2 (seats 0-2)"),
])
def test_play_refuses_a_leave_of_a_seat_the_table_does_not_have(capsys, monkeypatch, args, message):
    code, stdout, stderr = maumau(capsys, monkeypatch, "play", "-r", "elimination", "-b", "random", "-b", "random",
                                  "-b", "random", *args)
    assert code == 1 and stdout == "" and stderr.startswith(f"Error: {message}") and stderr.count("\n") == 1


def test_play_lets_a_joined_seat_leave(capsys, monkeypatch):
    code, stdout, _ = maumau(capsys, monkeypatch, "play", "-r", "elimination", "-b", "random", "-b", "random",
                             "-b", "random", "--join", "2:random", "--leave", "3:3", "--seed", "1", "--format", "json")
    rows = json.loads(stdout)
    assert code == 0 and [row["note"] for row in rows] == ["", "", "", "left"]  # seed 1 lasts beyond round 3


def test_counts_in_messages_agree_with_their_nouns():
    from runner.tournament.driver import played_note
    from runner.words import counted, plural

    assert [counted(n, "match") for n in (0, 1, 2)] == ["0 matches", "1 match", "2 matches"]
    assert counted(1, "violation") == "1 violation" and counted(3, "worker process") == "3 worker processes"
    assert plural(1, "match") == "match" and plural(1.5, "match") == "matches"
    assert played_note(1, 1.0, "on 1 worker process") == "played 1 match in 1.00 s (1.0 match/s) on 1 worker process"
    assert played_note(12, 4.0, "in this process") == "played 12 matches in 4.00 s (3.0 matches/s) in this process"
    assert played_note(12, 168.7, "on 2 worker processes").startswith("played 12 matches in 168.70 s (0.1 matches/s)")
    assert played_note(250, 2.0, "in this process") == "played 250 matches in 2.00 s (125 matches/s) in this process"


def test_play_and_tournament_json_spell_their_keys_alike(capsys, monkeypatch, played):
    import re

    _, standings = played
    code, stdout, _ = maumau(capsys, monkeypatch, "play", "-r", "strafpunten", "-b", "random", "-b", "random",
                             "--format", "json")
    rows = json.loads(stdout)
    assert code == 0 and "rounds_won" in rows[0] and "rounds_won" in standings["standings"][0]
    keys = {key for row in rows + standings["standings"] + standings["head_to_head"] for key in row}
    assert all(re.fullmatch(r"[a-z]+(_[a-z]+)*", key) for key in keys), sorted(keys)
    code, table, _ = maumau(capsys, monkeypatch, "play", "-r", "strafpunten", "-b", "random", "-b", "random")
    assert "rounds won" in table.splitlines()[-4]  # a table's headers are words
    winner_column = [line.split()[5:6] for line in table.splitlines()[-2:]]
    assert sorted(winner_column) == [[], ["yes"]] and "True" not in table  # yes/no cells read as words too
    played = maumau(capsys, monkeypatch, "play", "-r", "strafpunten", "-b", "random", "-b", "random", "--seed", "1",
                    "--format", "json")[1]
    assert sorted(row["winner"] for row in json.loads(played)) == [False, True]


def test_a_tournament_says_where_it_played(capsys, monkeypatch, tmp_path):
    code, _, stderr = maumau(capsys, monkeypatch, *[a for a in SMALL if a != "-q"], "--out", tmp_path / "t")
    assert code == 0
    assert stderr.splitlines()[0].startswith("strafpunten: 3 entrants, tables of 2, 3 tables × 2 deals × 2 rotations = "
                                             "12 matches; results in ")
    assert stderr.splitlines()[-1].startswith("played 12 matches in ")
    assert stderr.endswith(" in this process (--backend serial)\n")
