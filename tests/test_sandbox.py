"""--sandbox against hostile bots: each attack of tests/hostile_bot.py is refused inside the sandbox (the file
and network attacks succeed outside it, so that those tests can fail; outside, the PID namespace of every bot
process, runner/seats/containment.py, already hides the runner); a sandboxed Python bot plays as it does
unsandboxed.

MAUMAU_REQUIRE_SANDBOX=1 (set by .ci/run) turns a machine without bubblewrap from a skip into a failure.
"""

import json
import os
import shlex
import signal
import socket
import sys
from pathlib import Path

import pytest

from console import maumau
from runner.seats import sandbox
from runner.seats.faults import FaultSettings
from runner.table.play import play_match
from test_plugin_containment import HONEST

HOSTILE = Path(__file__).parent / "hostile_bot.py"
WHY_NOT = sandbox.why_not()
if WHY_NOT and os.environ.get("MAUMAU_REQUIRE_SANDBOX") == "1":
    raise RuntimeError(f"MAUMAU_REQUIRE_SANDBOX=1, but: {WHY_NOT}")
needs_sandbox = pytest.mark.skipif(WHY_NOT is not None, reason=str(WHY_NOT))


def attack(*args, sandboxed: bool = True) -> str:
    """What the hostile bot reports (its fault's detail) after trying `args` at its first decision."""
    player = f"exec:{shlex.quote(sys.executable)} {HOSTILE} {' '.join(map(shlex.quote, map(str, args)))}"
    result, _ = play_match("strafpunten", [player, "random"], 1, {},
                           faults=FaultSettings(move_time=120.0, sandbox=sandboxed))
    (fault,) = result.faults
    return fault.detail


@pytest.fixture
def results(tmp_path):
    """A results directory with a secret in it."""
    directory = tmp_path / "results"
    directory.mkdir()
    (directory / "secret.txt").write_text("the seed is 42")
    return directory


@pytest.fixture
def listener():
    """A TCP port listening on the host's loopback."""
    server = socket.create_server(("127.0.0.1", 0))
    yield server.getsockname()[1]
    server.close()


@needs_sandbox
@pytest.mark.parametrize("how", ["read", "list", "write"])
def test_no_file_outside_its_own_code(how, results):
    target = {"read": "/etc/passwd", "list": results, "write": results / "pwned.txt"}[how]
    assert attack(how, target) == "refused: ENOENT"
    assert attack("read", results / "secret.txt") == "refused: ENOENT"
    assert not (results / "pwned.txt").exists()
    assert not attack(how, target, sandboxed=False).startswith("refused")


@needs_sandbox
def test_no_network(listener):
    assert attack("connect", listener) == "refused: ECONNREFUSED"  # its own loopback: nobody listens there
    assert attack("route") == "refused: ENETUNREACH"
    assert attack("connect", listener, sandboxed=False) == "connected"


@needs_sandbox
def test_no_view_of_other_processes():
    assert attack("proc", os.getpid()) == "refused: ENOENT"  # this process runs the match: the runner
    assert attack("procs") == "sees 2 processes"  # the sandbox's init and the bot itself


@needs_sandbox
def test_a_fork_bomb_stops_at_the_process_limit():
    # the bomb's own budget (500 forks) stops it on a machine where the limit does not hold; 64 do
    assert attack("fork", 500) == "fork bomb stopped: EAGAIN"


@needs_sandbox
def test_the_cpu_limit_ends_a_process_that_spins_past_it(monkeypatch):
    # an hour by default (a process serves many matches); one second here, far below the move time of 120 s
    monkeypatch.setattr(sandbox, "CPU_SECONDS", 1)
    assert attack("spin") == f"the bot process exited with code {128 + signal.SIGXCPU}"  # SIGXCPU, under bwrap


@needs_sandbox
def test_a_sandboxed_python_bot_plays_as_it_does_unsandboxed():
    players = ["medium", "random", "exec:" + shlex.quote(sys.executable) + " " + str(Path(__file__).parent.parent
                                                                                      / "examples" / "exec_bot.py")]
    plain, plain_log = play_match("strafpunten", players, 5, {}, with_log=True, faults=FaultSettings(move_time=60.0))
    boxed, boxed_log = play_match("strafpunten", players, 5, {}, with_log=True,
                                  faults=FaultSettings(move_time=60.0, sandbox=True))
    assert boxed.faults == () and boxed_log == plain_log


def test_without_bubblewrap_one_error_line_says_what_to_install(capsys, monkeypatch):
    which = sandbox.shutil.which
    monkeypatch.setattr(sandbox.shutil, "which", lambda name: None if name == "bwrap" else which(name))
    sandbox.why_not.cache_clear()
    try:
        code, out, err = maumau(capsys, monkeypatch, "play", "-r", "strafpunten", "-b", "random", "-b", "random",
                                "--sandbox", "--seed", "1")
    finally:
        sandbox.why_not.cache_clear()
    assert (code, out) == (1, "")
    assert err == "Error: --sandbox needs bwrap: apt-get install bubblewrap\n"


def hostile(*args) -> str:
    return f"exec:{shlex.quote(sys.executable)} {HOSTILE} {' '.join(map(shlex.quote, map(str, args)))}"


@needs_sandbox
def test_check_bot_sandboxes_the_bot_it_checks(capsys, monkeypatch):
    check = ["check-bot", hostile("read", "/etc/passwd"), "--matches", "1"]
    code, boxed, _ = maumau(capsys, monkeypatch, *check, "--sandbox")
    assert code == 1 and "exception (phase play): refused: ENOENT" in boxed and "): read " not in boxed
    code, plain, _ = maumau(capsys, monkeypatch, *check)
    assert code == 1 and "exception (phase play): read " in plain  # outside the sandbox the file is there


@needs_sandbox
def test_an_ab_test_sandboxes_its_bots_and_stores_that_it_does(capsys, monkeypatch, tmp_path):
    from runner.tournament.store import Store

    def details(directory):
        store = Store.open(directory)
        try:
            return {detail for detail, in store.db.execute("SELECT detail FROM faults")}
        finally:
            store.close()

    sprt = ["sprt", "-r", "strafpunten", hostile("read", "/etc/passwd"), "random", "--max-deals", "1", "--backend",
            "serial", "--seed", "1", "-q"]
    code, _, err = maumau(capsys, monkeypatch, *sprt, "--sandbox", "--out", tmp_path / "boxed")
    assert code == 0, err
    assert details(tmp_path / "boxed") == {"refused: ENOENT"}
    code, _, err = maumau(capsys, monkeypatch, *sprt, "--out", tmp_path / "plain")
    assert code == 0 and all(d.startswith("read ") for d in details(tmp_path / "plain")), err
    code, _, err = maumau(capsys, monkeypatch, "sprt", "--resume", tmp_path / "boxed", "--sandbox")
    assert code == 1 and "--sandbox would change" in err  # the stored settings sandbox it already


# tests/test_plugin_containment.py's plugin, its bot named by whether the process importing it could read /etc/passwd
SEER = HONEST.replace('"{name}"', '"seer-" + ("hidden" if not os.path.exists("/etc/passwd") else "seen")')


@needs_sandbox
def test_under_dask_each_worker_discovers_the_plugins_in_the_sandbox_too(tmp_path):
    pytest.importorskip("distributed")
    import subprocess
    import textwrap

    from test_plugins import install

    site = tmp_path / "site"
    site.mkdir()
    install(site, "seer_plugin", textwrap.dedent(SEER), "seer")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), *sys.path])}
    done = subprocess.run([sys.executable, "-m", "runner.cli", "tournament", "-r", "strafpunten", "-b", "seer-hidden",
                           "-b", "random", "--deals", "1", "--seed", "1", "--sandbox", "--backend", "dask", "--workers",
                           "1", "-q", "--format", "json", "--out", str(tmp_path / "t")],
                          capture_output=True, text=True, env=env, timeout=600)
    # the driver, the Dask worker's check and the bot's own process all imported the plugin in the sandbox
    assert done.returncode == 0, done.stderr
    rows = {row["entrant"]: row for row in json.loads(done.stdout)["standings"]}
    assert rows["seer-hidden"]["matches"] == 2 and rows["seer-hidden"]["faults"] == 0
