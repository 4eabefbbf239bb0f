"""A results directory in use, a full disk and an alias bomb in `--set`: each is one `Error:` line, not a traceback."""

import os
import shutil
import subprocess
import sys
import textwrap
import time

import pytest

from runner.errors import RulesetError
from runner.rules import parse_override
from runner.tournament import store
from support.console import maumau

SMALL = ["tournament", "-r", "strafpunten", "-b", "random", "-b", "random", "--deals", "3", "--backend", "serial",
         "-q", "--seed", "5"]


def one_error_line(err: str) -> bool:
    return err.startswith("Error: ") and err.count("\n") == 1 and "Traceback" not in err


# ---------------------------------------------------------------- two runs on one --out

GATED_BOT = textwrap.dedent('''
    import json, os, sys, time
    def send(message):
        sys.stdout.write(json.dumps(message) + "\\n"); sys.stdout.flush()
    send({"type": "hello", "name": "gated", "protocol": 2})
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "act":
            if not os.path.exists(sys.argv[1] + ".started"):  # the first decision of all waits for the test
                open(sys.argv[1] + ".started", "w").close()
                while not os.path.exists(sys.argv[1]):
                    time.sleep(0.01)
            send({"type": "action", "id": message["id"], "action": message["view"]["legal"][0]})
        elif message["type"] in ("match_start", "match_end"):
            send({"type": "ready", "id": message["id"]})
        elif message["type"] == "bye":
            break
''')


def wait_for(path, process, timeout=120.0):
    deadline = time.monotonic() + timeout
    while not path.exists():
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, f"{path} never appeared"
        time.sleep(0.02)


@pytest.mark.parametrize("second", [[], ["--resume"]])
def test_a_second_tournament_on_a_directory_in_use_is_refused(tmp_path, capsys, monkeypatch, second):
    script, gate, out = tmp_path / "gated.py", tmp_path / "go", tmp_path / "t"
    script.write_text(GATED_BOT)
    gated = f"exec:{sys.executable} {script} {gate}"
    args = [*SMALL[:5], "-b", gated, "--out", str(out), *SMALL[5:], "--move-time", "0"]
    first = subprocess.Popen([sys.executable, "-m", "runner.cli", *args], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    try:
        wait_for(gate.with_name("go.started"), first)  # the first run is playing its first match
        code, _, err = maumau(capsys, monkeypatch, *args, *second)
        assert code == 1 and one_error_line(err), err
        assert f"{out} is in use by another tournament (process {first.pid})" in err
    finally:
        gate.touch()
        stdout, stderr = first.communicate(timeout=300)
    assert first.returncode == 0, stderr  # the first run was not disturbed
    assert "gated" in stdout
    code, _, err = maumau(capsys, monkeypatch, *args, "--resume")
    assert code == 0, err  # its lock went with it


def test_the_lock_is_released_when_a_run_ends(tmp_path):
    fd = store.lock_directory(tmp_path)
    with pytest.raises(Exception, match="in use by another tournament"):
        store.lock_directory(tmp_path)
    os.close(fd)
    os.close(store.lock_directory(tmp_path))


# ---------------------------------------------------------------- a full disk

def test_a_full_database_is_one_error_line(tmp_path, capsys, monkeypatch):
    """SQLite's own SQLITE_FULL: the database may not grow past the pages it has when the tournament starts."""
    connect = store.connect

    def small(path):
        db = connect(path)
        db.execute("PRAGMA max_page_count = 12")  # the schema and the config fit; the matches do not
        return db

    monkeypatch.setattr(store, "connect", small)
    out = tmp_path / "t"
    code, _, err = maumau(capsys, monkeypatch, *SMALL, "--deals", "40", "--no-logs", "--out", out)
    assert code == 1 and one_error_line(err), err
    assert f"cannot store results in {out / 'tournament.sqlite'}: database or disk is full" in err
    assert f"--resume --out {out}" in err


def can_mount_tmpfs() -> bool:
    if not sys.platform.startswith("linux") or shutil.which("unshare") is None:
        return False
    user = [] if os.geteuid() == 0 else ["--user", "--map-root-user"]
    probe = subprocess.run(["unshare", *user, "--mount", "sh", "-c", "mount -t tmpfs -o size=64k tmpfs /mnt"],
                           capture_output=True)
    return probe.returncode == 0


@pytest.mark.skipif(not can_mount_tmpfs(), reason="cannot mount a private tmpfs here (unshare --mount)")
def test_a_full_file_system_is_one_error_line(tmp_path):
    """A real full disk: the results directory on a 96 KiB tmpfs of a private mount namespace."""
    disk = tmp_path / "disk"
    disk.mkdir()
    user = [] if os.geteuid() == 0 else ["--user", "--map-root-user"]
    command = " ".join(["mount -t tmpfs -o size=96k tmpfs", str(disk), "&& exec", sys.executable, "-m", "runner.cli",
                        *SMALL, "--deals", "300", "--no-logs", "--out", str(disk / "t")])
    done = subprocess.run(["unshare", *user, "--mount", "sh", "-c", command], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 1 and one_error_line(done.stderr), done.stderr
    assert "cannot store results in" in done.stderr and "full" in done.stderr


# ---------------------------------------------------------------- --set under the caps of a file

LAUGHS = "[" + ", ".join(["[" + ", ".join(["[" + ", ".join(["x"] * 9) + "]"] * 9) + "]"] * 9) + "]"
BOMB = "&a [x,x,x,x,x,x,x,x,x]" + "".join(f", &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]" for i in range(8))


@pytest.mark.parametrize("value, words", [
    (f"[{BOMB}]", "expands to too many values"),
    ("[" * 5000 + "]" * 5000, "nested too deeply"),
    ("x" * (300 << 10), "a value is at most"),
    ("9" * 5000, "a value YAML cannot read"),
])
def test_a_set_value_meets_the_caps_of_a_ruleset_file(value, words):
    with pytest.raises(RulesetError, match=words) as error:
        parse_override(f"deck.ranks={value}")
    assert str(error.value).startswith("--set deck.ranks: ")


def test_an_alias_bomb_in_set_is_one_error_line(capsys, monkeypatch):
    code, _, err = maumau(capsys, monkeypatch, "rulesets", "show", "standard", "--set", f"deck.ranks=[{BOMB}]")
    assert code == 1 and one_error_line(err), err
    assert "--set deck.ranks: the document expands to too many values" in err


def test_plain_set_values_still_read_as_before():
    assert parse_override("match.limit=150") == ("match.limit", 150)
    assert parse_override("deck.ranks=skat") == ("deck.ranks", "skat")
    assert parse_override("deck.ranks=[7, 8, 9, 10, J, Q, K, A]")[1] == [7, 8, 9, 10, "J", "Q", "K", "A"]
    assert parse_override("description=a: b: c") == ("description", "a: b: c")  # not YAML: the text itself
    assert parse_override("description=") == ("description", "")


def test_a_big_but_bounded_list_passes():
    assert len(parse_override(f"x={LAUGHS}")[1]) == 9


def test_a_reader_that_leaves_early_is_no_error():
    """`maumau info | head -1`: the pipe closes before maumau writes; that is not code calling sys.exit."""
    child = subprocess.Popen([sys.executable, "-m", "runner.cli", "info"], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)
    child.stdout.close()  # before the child has imported enough to write a line
    _, errors = child.communicate(timeout=120)
    assert b"sys.exit" not in errors, errors.decode()
    assert b"Traceback" not in errors, errors.decode()
