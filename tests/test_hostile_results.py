"""Results directories and game logs that are truncated or tampered with: a clear error, never a changed result."""

import gzip
import json
import os
import shutil
import sqlite3

import pytest

from runner.cli import main
from runner.errors import MaumauError
from runner.tournament.driver import conduct, stored_standings
from runner.tournament.integrity import ResultsCorrupt, digest, parse_stored_log, read_stored_log, sha256
from runner.tournament.settings import plan

MATCH = "t0-d0-r0"
PAGE = 4096  # SQLite's default page size
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


def flip_in_index(directory, index="matches_in_order", bit=0):
    """Flip one bit in the last cell of an index's root page: a key of the index, changed under SQLite's feet."""
    path = directory / "tournament.sqlite"
    db = sqlite3.connect(path)
    page_size = db.execute("PRAGMA page_size").fetchone()[0]
    root = db.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", (index,)).fetchone()[0]
    db.close()
    data = bytearray(path.read_bytes())
    at = root * page_size - 3  # the cell content area grows down from the page's end: its last bytes are keys
    data[at] ^= 1 << bit
    path.write_bytes(bytes(data))


def set_meta(directory, key, value):
    sql(directory, f"UPDATE meta SET value = '{value}' WHERE key = '{key}'")


def cut_pages(directory, pages=1):
    path = directory / "tournament.sqlite"
    db = sqlite3.connect(path)
    page_size = db.execute("PRAGMA page_size").fetchone()[0]
    db.close()
    path.write_bytes(path.read_bytes()[:-pages * page_size])


TAMPERING = {
    "an index bit flipped": flip_in_index,
    "an index bit flipped (another)": lambda d: flip_in_index(d, bit=3),
    "the primary key's index bit flipped": lambda d: flip_in_index(d, "sqlite_autoindex_matches_1", bit=1),
    "deals_played edited": lambda d: set_meta(d, "deals_played", "2"),
    "looks edited": lambda d: set_meta(d, "looks", "3"),
    "finished unset": lambda d: set_meta(d, "finished", ""),
    "the match count edited": lambda d: set_meta(d, "matches", "2"),
    "a meta row added": lambda d: sql(d, "INSERT INTO meta VALUES ('notes', 'x')"),
    "the meta digest deleted": lambda d: sql(d, "DELETE FROM meta WHERE key = 'meta_digest'"),
    "database cut by a page": cut_pages,
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
    "a fault added": lambda d: sql(d, f"INSERT INTO faults VALUES ('{MATCH}', 0, 'random', 'illegal', 'x', 1, '')"),
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


def test_a_truncated_tournament_is_refused_even_with_its_record_edited_to_match(tmp_path, monkeypatch, capsys):
    """The issue's attack: half the deals deleted, `deals_played` halved, so the schedule looks complete."""
    out = tmp_path / "t"
    conduct(plan("strafpunten", ["random"] * 3, deals=2, seed=3), out, False, backend="serial", quiet=True)
    assert cli(["standings", str(out)], monkeypatch, capsys)[0] == 0
    sql(out, "DELETE FROM seats WHERE match_id LIKE '%-d1-%'", "DELETE FROM faults WHERE match_id LIKE '%-d1-%'",
        "DELETE FROM matches WHERE deal = 1", "UPDATE meta SET value = '1' WHERE key = 'deals_played'",
        "UPDATE meta SET value = '3' WHERE key = 'matches'")
    code, _, err = cli(["standings", str(out)], monkeypatch, capsys)
    assert code == 1 and "its meta rows) was changed" in err, err


def test_a_deleted_match_of_an_unfinished_tournament_is_noticed(tmp_path, monkeypatch, capsys):
    out = tmp_path / "t"
    conduct(plan("strafpunten", ["random"] * 3, deals=1, seed=3), out, False, backend="serial", quiet=True)
    sql(out, "UPDATE meta SET value = '' WHERE key = 'finished'")
    from runner.tournament.integrity import meta_digest

    db = sqlite3.connect(out / "tournament.sqlite")  # re-sealed, as an interrupted run leaves it
    rows = dict(db.execute("SELECT key, value FROM meta WHERE key != 'meta_digest'"))
    db.execute("UPDATE meta SET value = ? WHERE key = 'meta_digest'", (meta_digest(rows),))
    db.commit()
    db.close()
    assert cli(["standings", str(out)], monkeypatch, capsys)[0] == 0  # unfinished, and whole
    sql(out, f"DELETE FROM seats WHERE match_id = '{MATCH}'", f"DELETE FROM matches WHERE id = '{MATCH}'")
    code, _, err = cli(["standings", str(out)], monkeypatch, capsys)
    assert code == 1 and "2 matches stored, the tournament recorded '3'" in err, err


def test_two_bit_flips_anywhere_are_refused_or_change_nothing(stored, tmp_path):
    """40 seeded two-bit flips in the database's cells: each is refused, or resume and standings are unchanged."""
    import random

    settings = plan("strafpunten", ["random", "random", "random"], deals=1, seed=3)
    expected = stored_standings(stored)[0]
    data = (stored / "tournament.sqlite").read_bytes()
    rng = random.Random(12)
    accepted = 0
    for trial in range(40):
        copy = tmp_path / f"flip{trial}"
        shutil.copytree(stored, copy)
        flipped = bytearray(data)
        for _ in range(2):  # in the last bytes of a page, where SQLite keeps the cells: rows and index keys
            at = (rng.randrange(len(flipped) // PAGE) + 1) * PAGE - 1 - rng.randrange(160)
            flipped[at] ^= 1 << rng.randrange(8)
        (copy / "tournament.sqlite").write_bytes(bytes(flipped))
        try:
            resumed, _ = conduct(settings, copy, True, backend="serial", quiet=True)
        except MaumauError as exc:
            assert "\n" not in str(exc)
            continue
        accepted += 1
        assert resumed == expected and stored_standings(copy)[0] == expected, f"trial {trial} changed the standings"
    assert accepted < 40  # most flips land in data, and are refused


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


ENDLESS = "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r)"
VIEWS = {  # a table renamed away and a view of its name in its place, whose rows never end
    "meta": f"CREATE VIEW meta AS SELECT * FROM meta0 UNION ALL SELECT 'k' || n, 'v' FROM ({ENDLESS} SELECT n FROM r)",
    "faults": f"CREATE VIEW faults AS {ENDLESS} SELECT 'm' || n, 0, 'b', 'illegal', 'x', 1, '' FROM r",
}


@pytest.mark.parametrize("table", sorted(VIEWS))
def test_an_endless_view_in_place_of_a_table_is_refused_by_every_command(table, stored, tmp_path):
    """The issue's attack (run as subprocesses: before the schema check each of them never ended)."""
    import subprocess
    import sys

    copy = tmp_path / "copy"
    shutil.copytree(stored, copy)
    sql(copy, f"ALTER TABLE {table} RENAME TO {table}0", VIEWS[table])
    commands = [["standings", copy], ["replay", copy, "--match", MATCH], ["tournament", "--resume", copy],
                ["tournament", "--extend", copy, "-b", "random"]]
    for command in commands:
        done = subprocess.run([sys.executable, "-m", "runner.cli", *map(str, command)], capture_output=True,
                              text=True, timeout=300)  # a guard against the hang, not a measure of speed
        assert done.returncode == 1 and done.stderr.count("\n") == 1, (command, done.stderr)
        assert done.stderr == (f"Error: {copy / 'tournament.sqlite'} is not a results database as maumau writes it: "
                               f"'{table}' is a view, not the table maumau writes; the results cannot be trusted: "
                               "run the tournament again, or restore the directory from a copy\n"), done.stderr


SCHEMA_CHANGES = {  # each leaves every row, and so every digest, as it was: before the schema check all were read
    "meta a view of its own rows": ("ALTER TABLE meta RENAME TO meta0", "CREATE VIEW meta AS SELECT * FROM meta0"),
    "a trigger on meta": ("CREATE TRIGGER t AFTER UPDATE ON meta BEGIN SELECT 1; END",),
    "an index added": ("CREATE INDEX by_score ON seats (score)",),
    "a table added": ("CREATE TABLE notes (x)",),
    "a view added": ("CREATE VIEW v AS SELECT 1",),
    "a column's type changed": ("ALTER TABLE faults RENAME TO f0", "CREATE TABLE faults (match_id, seat, bot, kind, "
                                "detail, round, traceback)", "INSERT INTO faults SELECT * FROM f0", "DROP TABLE f0"),
}


@pytest.mark.parametrize("case", sorted(SCHEMA_CHANGES))
def test_a_schema_other_than_the_written_one_is_refused(case, stored, tmp_path, monkeypatch, capsys):
    copy = tmp_path / "copy"
    shutil.copytree(stored, copy)
    sql(copy, *SCHEMA_CHANGES[case])
    for command in (["standings", copy], ["replay", copy, "--match", MATCH], ["tournament", "--resume", copy]):
        code, _, err = cli(list(map(str, command)), monkeypatch, capsys)
        assert code == 1 and "is not a results database as maumau writes it" in err and err.count("\n") == 1, err


def test_a_value_larger_than_maumau_writes_is_refused_not_read(stored, tmp_path, monkeypatch, capsys):
    copy = tmp_path / "copy"
    shutil.copytree(stored, copy)
    sql(copy, f"INSERT INTO faults VALUES ('{MATCH}', 0, 'random', 'illegal', zeroblob(20000000), 1, '')")
    code, _, err = cli(["standings", str(copy)], monkeypatch, capsys)
    assert code == 1 and "string or blob too big" in err and err.count("\n") == 1, err


def test_a_read_stops_when_its_time_is_up(stored):
    from runner.tournament.integrity import ReadTimeUp, time_limit
    from runner.tournament.store import Store

    with time_limit(-1), pytest.raises(ReadTimeUp, match="took longer than this request may take"):
        Store.open(stored)
    Store.open(stored).close()  # outside the limit: no deadline


@pytest.mark.parametrize("change", ["edited", "forged", "deleted"])
def test_standings_resume_and_extend_refuse_a_changed_log(change, stored, tmp_path, monkeypatch, capsys):
    """Only replay checked a match's log before: a changed log left the standings of its match standing."""
    copy = tmp_path / "copy"
    shutil.copytree(stored, copy)
    if change == "edited":
        write_log(copy, gzip.compress("\n".join(log_lines(copy)[:-1]).encode()))
    elif change == "forged":
        write_log(copy, (copy / "logs" / "t0-d0-r1.jsonl.gz").read_bytes())
    else:
        (copy / LOG).unlink()
    for command in (["standings", copy], ["tournament", "--resume", copy], ["tournament", "--extend", copy, "-b",
                                                                            "random"]):
        code, _, err = cli(list(map(str, command)), monkeypatch, capsys)
        assert code == 1 and err.count("\n") == 1, (command, err)
        assert ("the log was changed after it was stored" if change != "deleted" else "cannot read the log") in err
    assert cli(["standings", str(stored)], monkeypatch, capsys)[0] == 0


def test_a_query_of_a_request_ends_when_its_time_is_up(stored, monkeypatch):
    """Under the server's time limit a query that would never end (one of an endless view's) is interrupted."""
    import time

    from runner.tournament.integrity import time_limit
    from runner.tournament.store import Store

    with time_limit(3600):
        store = Store.open(stored)
    monotonic = time.monotonic
    monkeypatch.setattr(time, "monotonic", lambda: monotonic() + 7200)
    with pytest.raises(sqlite3.OperationalError, match="interrupted"):
        store.db.execute(f"{ENDLESS} SELECT COUNT(*) FROM r").fetchone()
    store.close()


@pytest.mark.parametrize("config", ['{"a": ' + "[" * 100000 + "]" * 100000 + "}", "[1]", '"text"'])
def test_a_forged_config_that_is_no_json_object_is_one_error(config, stored, tmp_path, monkeypatch, capsys):
    """Its digests recomputed, as a forger would: nested past Python's recursion limit it was a traceback."""
    from runner.tournament.integrity import meta_digest

    copy = tmp_path / "copy"
    shutil.copytree(stored, copy)
    db = sqlite3.connect(copy / "tournament.sqlite")
    db.execute("UPDATE meta SET value = ? WHERE key = 'config'", (config,))
    db.execute("UPDATE meta SET value = ? WHERE key = 'config_digest'", (digest(config),))
    rows = dict(db.execute("SELECT key, value FROM meta WHERE key != 'meta_digest'"))
    db.execute("UPDATE meta SET value = ? WHERE key = 'meta_digest'", (meta_digest(rows),))
    db.commit()
    db.close()
    for command in (["standings", copy], ["replay", copy, "--match", MATCH], ["tournament", "--resume", copy]):
        code, _, err = cli(list(map(str, command)), monkeypatch, capsys)
        assert code == 1 and err.count("\n") == 1 and "the tournament's config is not a JSON object" in err, err
