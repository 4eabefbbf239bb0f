"""Nothing a bot starts outlives it: a daemon (setsid, then a second fork) ends with its bot's match,
at its timeout, and when the runner itself is killed (runner/seats/containment.py)."""

import os
import shlex
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from runner.seats.containment import trial_failure, why_not
from runner.seats.faults import FaultSettings
from runner.table.play import play_match

ROOT = Path(__file__).parent.parent
DEADLINE = 60.0  # seconds; reached only when something is wrong

pytestmark = pytest.mark.skipif(why_not() is not None, reason=f"no PID namespaces here: {why_not()}")

# A protocol bot that, at its first act, leaves a daemon behind: a child that calls setsid() and forks again;
# the grandchild writes the marker file and sleeps (for at most 10 minutes: a failed test leaves nothing for
# long). At its third act the bot then does {then}.
DAEMON_BOT = '''
import json, os, sys, time
marker = sys.argv[2]
def answer(message, **fields):
    sys.stdout.write(json.dumps({{"id": message["id"], **fields}}) + "\\n"); sys.stdout.flush()
sys.stdout.write(json.dumps({{"type": "hello", "name": "daemon", "protocol": 2}}) + "\\n"); sys.stdout.flush()
acts = 0
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] in ("match_start", "match_end"):
        answer(message, type="ready")
    if message["type"] != "act":
        continue
    acts += 1
    if acts == 1 and os.fork() == 0:
        os.setsid()
        if os.fork() > 0:
            os._exit(0)
        for fd in (0, 1, 2):
            os.close(fd)
        open(marker, "w").close()
        time.sleep(600)
        os._exit(0)
    if acts == 3:
        {then}
    answer(message, type="action", action=message["view"]["legal"][0])
'''


def daemon_bot(tmp_path: Path, then: str = "pass") -> tuple[str, str, Path]:
    """(the exec: entrant, its token, the marker file its daemon writes)."""
    token = "TOK" + uuid.uuid4().hex[:16]
    path, marker = tmp_path / "daemon_bot.py", tmp_path / "daemon-started"
    path.write_text(DAEMON_BOT.format(then=then))
    return f"exec:{shlex.quote(sys.executable)} {path} {token} {marker}", token, marker


def carrying(token: str) -> list[int]:
    """Live (not zombie) processes with `token` in their command line: the bot and whatever it forked."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            args = Path(f"/proc/{name}/cmdline").read_bytes().split(b"\0")
            state = Path(f"/proc/{name}/stat").read_bytes().rsplit(b")", 1)[1].split()[0]
        except OSError:
            continue
        if token.encode() in args and state != b"Z":
            found.append(int(name))
    return found


def poll(condition, what: str):
    deadline = time.monotonic() + DEADLINE
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"after {DEADLINE:.0f} s: {what}")
        time.sleep(0.05)


def gone(token: str) -> None:
    poll(lambda: not carrying(token), f"processes of the bot still run: {carrying(token)}")


def test_a_daemon_ends_with_the_match_of_a_bot_that_played_it_through(tmp_path):
    player, token, marker = daemon_bot(tmp_path)
    result, _ = play_match("strafpunten", [player, "random"], 3, {}, faults=FaultSettings(move_time=30.0))
    assert marker.exists() and result.faults == ()
    gone(token)


def test_a_daemon_ends_with_a_bot_killed_at_its_timeout(tmp_path):
    player, token, marker = daemon_bot(tmp_path, then="time.sleep(600)")
    result, _ = play_match("strafpunten", [player, "random"], 3, {}, faults=FaultSettings(move_time=10.0))
    assert marker.exists() and [fault.kind for fault in result.faults] == ["timeout"]
    gone(token)


@pytest.mark.parametrize("command", ["play", "tournament"])
def test_a_daemon_ends_when_the_runner_is_killed(tmp_path, command):
    player, token, marker = daemon_bot(tmp_path, then="time.sleep(600)")
    options = ["--deals", "1", "--out", str(tmp_path / "out")] if command == "tournament" else []
    runner = subprocess.Popen([sys.executable, "-m", "runner.cli", command, "-r", "strafpunten", "-b", player,
                               "-b", "random", "--move-time", "600", *options], cwd=ROOT,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        poll(lambda: marker.exists() or runner.poll() is not None, "the bot's daemon to start")
        assert runner.poll() is None and carrying(token)
    finally:
        runner.send_signal(signal.SIGKILL)
        runner.wait()
    gone(token)


def test_a_trial_command_that_fails_is_told_in_one_line_with_its_reason():
    assert trial_failure(["/bin/true"], "x could not be run", "x failed ({})") is None
    assert trial_failure(["/nonexistent/x"], "x could not be run", "x failed ({})").startswith("x could not be run (")
    told = trial_failure(["/bin/sh", "-c", "echo 'no   such\nthing' >&2; exit 3"], "x could not be run", "x: {}; fix")
    assert told == "x: no such thing; fix"
