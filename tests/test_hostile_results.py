"""Results directories and game logs that are truncated or tampered with: a clear error, never a changed result."""

import gzip
import json
import os
import shutil
import sqlite3

import pytest

from runner.cli import main
from runner.tournament.driver import conduct
from runner.tournament.integrity import ResultsCorrupt, digest, parse_stored_log, read_stored_log, sha256
from runner.tournament.settings import plan

MATCH = "t0-d0-r0"
LOG = f"logs/{MATCH}.jsonl.gz"


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    out = tmp_path_factory.mktemp("results") / "t"
    conduct(
        plan("strafpunten", ["random", "random", "random"], deals=1, seed=3), out, False, backend="serial", quiet=True
    )
    return out


def cli(args, monkeypatch, capsys):
    """(exit code, stdout, stderr) of the console script, run in this process."""
    monkeypatch.setattr("sys.argv", ["maumau", *args])
    code = 0
    try:
        main()
    except SystemExit as exit_:
        code = exit_.code
    out = capsys.readouterr()
    return code, out.out, out.err


def sql(directory, *statements):
    db = sqlite3.connect(directory / "tournament.sqlite")
    for statement in statements:
        db.execute(statement)
    db.commit()
    db.close()


def log_lines(directory):
    return gzip.decompress((directory / LOG).read_bytes()).decode().splitlines()


def write_log(directory, data: bytes):
    (directory / LOG).write_bytes(data)


TAMPERING = {
    "database truncated": lambda d: (d / "tournament.sqlite").write_bytes(
        (d / "tournament.sqlite").read_bytes()[:3000]
    ),
    "database garbage": lambda d: (d / "tournament.sqlite").write_bytes(b"\x00maumau" * 1000),
    "database empty": lambda d: (d / "tournament.sqlite").write_bytes(b""),
    "a table dropped": lambda d: sql(d, "DROP TABLE seats"),
    "config not JSON": lambda d: sql(d, "UPDATE meta SET value = '{oops' WHERE key = 'config'"),
    "config edited": lambda d: sql(d, "UPDATE meta SET value = json_set(value, '$.seed', 4) WHERE key = 'config'"),
    "a place edited": lambda d: sql(d, "UPDATE seats SET place = 1, score = 1 WHERE place = 3"),
    "a place made text": lambda d: sql(d, "UPDATE seats SET place = 'first' WHERE rowid = 1"),
    "a seat deleted": lambda d: sql(d, "DELETE FROM seats WHERE rowid = 1"),
    "a match deleted": lambda d: sql(
        d, f"DELETE FROM seats WHERE match_id = '{MATCH}'", f"DELETE FROM matches WHERE id = '{MATCH}'"
    ),
    "a fault added": lambda d: sql(d, f"INSERT INTO faults VALUES ('{MATCH}', 0, 'random', 'illegal', 'x', 1)"),
    "a seat of no match": lambda d: sql(
        d,
        "INSERT INTO seats SELECT 'zz', seat, entrant, bot, place, score, points, "
        "rounds, rounds_won, faults, forfeited FROM seats WHERE rowid = 1",
    ),
    "log path rewritten": lambda d: sql(d, f"UPDATE matches SET log = '../../../etc/passwd' WHERE id = '{MATCH}'"),
    "log truncated": lambda d: write_log(d, (d / LOG).read_bytes()[:150]),
    "log not gzip": lambda d: write_log(d, b"hello"),
    "log a gzip bomb": lambda d: write_log(d, gzip.compress(b"\n" * (80 << 20))),
    "log last line cut": lambda d: write_log(d, gzip.compress("\n".join(log_lines(d)[:-1]).encode())),
    "log card changed": lambda d: write_log(
        d,
        gzip.compress(
            "\n".join(
                line.replace('"card":"', '"card":"A', 1) if '"type":"play"' in line else line for line in log_lines(d)
            ).encode()
        ),
    ),
    "log of another match": lambda d: write_log(d, (d / "logs" / "t0-d0-r1.jsonl.gz").read_bytes()),
    "log replaced by a directory": lambda d: ((d / LOG).unlink(), (d / LOG).mkdir()),
    "log replaced by a FIFO": lambda d: ((d / LOG).unlink(), os.mkfifo(d / LOG)),
}


@pytest.mark.parametrize("case", sorted(TAMPERING))
def test_tampering_gives_one_clear_error_or_the_same_result(case, stored, tmp_path, monkeypatch, capsys):
    baseline = {cmd: cli([cmd, str(stored), *rest], monkeypatch, capsys)
                for cmd, rest in [("standings", ["--format", "json"]), ("replay", ["--match", MATCH])]}
    copy = tmp_path / "copy"
    shutil.copytree(stored, copy)
    TAMPERING[case](copy)
    errors = 0
    for cmd, rest in [("standings", ["--format", "json"]), ("replay", ["--match", MATCH])]:
        code, out, err = cli([cmd, str(copy), *rest], monkeypatch, capsys)
        if code == 0:
            assert out == baseline[cmd][1], f"{case}: {cmd} printed a changed result"
        else:
            assert code == 1 and err.startswith("Error: ") and err.count("\n") == 1, err
            errors += 1
    assert errors, f"{case}: went unnoticed"


def test_resume_refuses_a_tampered_directory(stored, tmp_path):
    copy = tmp_path / "copy"
    shutil.copytree(stored, copy)
    sql(copy, "UPDATE seats SET points = points + 1 WHERE rowid = 1")
    with pytest.raises(ResultsCorrupt, match="was changed after it was stored"):
        conduct(plan("strafpunten", ["random", "random", "random"], deals=1, seed=3), copy, True, backend="serial",
                quiet=True)


def forge(directory, data: bytes):
    """Replace the log and recompute its digests, as a forger would: the log checks must still catch it."""
    write_log(directory, data)
    db = sqlite3.connect(directory / "tournament.sqlite")
    db.execute("UPDATE matches SET log_sha256 = ? WHERE id = ?", (sha256(data), MATCH))
    fields = list(db.execute("SELECT * FROM matches WHERE id = ?", (MATCH,)).fetchone()[:-1])
    seats = [list(row[1:]) for row in db.execute("SELECT * FROM seats WHERE match_id = ? ORDER BY seat", (MATCH,))]
    faults = [list(row[1:]) for row in db.execute("SELECT * FROM faults WHERE match_id = ?", (MATCH,))]
    db.execute("UPDATE matches SET digest = ? WHERE id = ?", (digest(fields, seats, faults), MATCH))
    db.commit()
    db.close()


def play_from_stock(lines):
    """The first play made with a card that is really in the stock, not the player's hand."""
    events = [json.loads(line) for line in lines]
    stock = next(e for e in events if e["type"] == "round_start")["stock"]
    first = next(e for e in events if e["type"] == "play")
    first["card"] = stock[-1]
    return gzip.compress("\n".join(json.dumps(e) for e in events).encode())


@pytest.mark.parametrize("forgery, words", [
    (play_from_stock, "(play)"),
    (lambda lines: gzip.compress(b"[" * 100000 + b"]" * 100000), "line 1: not JSON"),
    (lambda lines: gzip.compress(b"\n" * (80 << 20)), "inflates to over"),
    (lambda lines: gzip.compress("\n".join(lines).encode())[:-20], "truncated"),
])
def test_a_forged_log_is_still_refused_by_its_own_checks(forgery, words, stored, tmp_path, monkeypatch, capsys):
    copy = tmp_path / "copy"
    shutil.copytree(stored, copy)
    forge(copy, forgery(log_lines(copy)))
    code, _, err = cli(["replay", str(copy), "--match", MATCH], monkeypatch, capsys)
    assert code == 1 and err.startswith("Error: ") and words in err, err


def test_reading_a_log_is_bounded_and_checked(stored, tmp_path):
    data = (stored / LOG).read_bytes()
    assert parse_stored_log(read_stored_log(stored, LOG, MATCH, sha256(data)))[0]["type"] == "match_start"
    with pytest.raises(ResultsCorrupt, match="names the log"):
        read_stored_log(stored, "/dev/zero", MATCH, None)
    with pytest.raises(ResultsCorrupt, match="changed after it was stored"):
        read_stored_log(stored, LOG, MATCH, sha256(b"other"))
    for bad, words in [(b"not gzip", "not a gzip file"), (gzip.compress(b"[1, 2]\n"), 'an object with a "type"'),
                       (gzip.compress(b"\xff\n"), "not UTF-8")]:
        with pytest.raises(ResultsCorrupt, match=words):
            parse_stored_log(bad)
    assert json.loads(gzip.decompress(data).splitlines()[-1])["type"] == "match_end"


def test_replay_never_runs_a_command_named_by_a_stored_config(tmp_path, monkeypatch, capsys):
    out = tmp_path / "nolog"
    example = "exec:python3 examples/exec_bot.py"
    conduct(plan("strafpunten", ["random", example], deals=1, seed=3, logs=False), out, False, backend="serial",
            quiet=True)
    code, _, err = cli(["replay", str(out), "--match", MATCH], monkeypatch, capsys)
    assert code == 1 and "re-playing it would run 'exec:python3 examples/exec_bot.py'" in err
    code, out_text, _ = cli(["standings", str(out)], monkeypatch, capsys)
    assert code == 0 and "exec:python3" in out_text
