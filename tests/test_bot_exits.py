"""SystemExit and KeyboardInterrupt raised by bot or plugin code: a fault, or one `Error:` line naming the plugin.

Never a silent exit, never exit 0 without results, and a bot's own KeyboardInterrupt is not the
user's Ctrl-C (which still stops a run with exit code 130).
"""

import json
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from support import misbehaving_bots
from support.console import maumau
from support.plugins import install

TOURNAMENT = ["tournament", "-r", "strafpunten", "--deals", "1", "--seed", "2", "-q", "--format", "json",
              "--move-time", "0"]


@pytest.fixture
def misbehaving(monkeypatch):
    misbehaving_bots.install(monkeypatch)


@pytest.mark.parametrize("options", [["--backend", "serial"], ["--backend", "processes", "--workers", "2"],
                                     ["--isolate", "--backend", "serial"]])
@pytest.mark.parametrize("bot, detail", [("t-exit-init", "SystemExit: 3"), ("t-interrupt", "KeyboardInterrupt")])
def test_a_bot_that_exits_or_interrupts_commits_a_fault_and_the_run_ends_with_results(
        bot, detail, options, misbehaving, capsys, monkeypatch, tmp_path):
    code, out, err = maumau(capsys, monkeypatch, *TOURNAMENT, "-b", "random", "-b", bot, "-b", "t-honest",
                            *options, "--out", tmp_path / "t")
    assert code == 0, err
    rows = {row["entrant"]: row for row in json.loads(out)["standings"]}
    assert rows[bot]["faults"] == rows[bot]["matches"] == 3 and rows[bot]["wins"] == 0
    replayed = maumau(capsys, monkeypatch, "replay", tmp_path / "t", "--match", "t0-d0-r0")[1]
    assert detail in replayed


def test_a_bot_that_exits_from_its_constructor_in_play_is_a_fault(misbehaving, capsys, monkeypatch):
    code, out, err = maumau(capsys, monkeypatch, "play", "-r", "strafpunten", "-b", "t-exit-init", "-b", "random",
                            "--seed", "1")
    assert code == 0 and "fault" in out and "SystemExit: 3" in out, (out, err)


# ---------------------------------------------------------------- plugins that exit at import

def run_with_plugin(tmp_path, source, *args):
    site = tmp_path / "site"
    site.mkdir(exist_ok=True)
    install(site, "leaving_plugin", textwrap.dedent(source), "leaving")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), *sys.path])}
    return subprocess.run([sys.executable, "-m", "runner.cli", *args], capture_output=True, text=True, env=env,
                          timeout=600)


@pytest.mark.parametrize("raised, words", [("SystemExit(0)", "SystemExit: 0"), ("SystemExit", "SystemExit"),
                                           ("KeyboardInterrupt", "KeyboardInterrupt")])
@pytest.mark.parametrize("isolate", [[], ["--isolate"]])
def test_a_plugin_that_exits_at_import_is_one_error_line_naming_it(raised, words, isolate, tmp_path):
    """Even a tournament of built-ins only: a CI job must not read exit 0 without results as success."""
    done = run_with_plugin(tmp_path, f"raise {raised}\n", *TOURNAMENT, "-b", "random", "-b", "medium",
                           "--out", str(tmp_path / "t"), *isolate)
    assert done.returncode == 1, (done.returncode, done.stdout, done.stderr)
    assert done.stderr.startswith("Error: plugin 'leaving' (leaving_plugin") and done.stderr.count("\n") == 1
    assert words in done.stderr and done.stdout == ""


def test_a_plugin_hook_that_exits_is_one_error_line_naming_it(tmp_path):
    source = """
        import runner

        @runner.hookimpl
        def register_bots(register):
            raise SystemExit(0)
    """
    done = run_with_plugin(tmp_path, source, "bots")
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == "Error: plugin 'leaving', hook register_bots: raised SystemExit: 0\n"


def test_the_users_ctrl_c_still_interrupts_a_run(tmp_path):
    """SIGINT to the runner, as the terminal sends it on Ctrl-C: exit 130, and the run can be resumed."""
    args = ["tournament", "-r", "strafpunten", "-b", "hard", "-b", "hard", "--deals", "50", "--move-time", "0",
            "--backend", "serial", "-q", "--out", str(tmp_path / "t")]
    process = subprocess.Popen([sys.executable, "-m", "runner.cli", *args], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 300
    while not (tmp_path / "t" / "tournament.sqlite").exists():  # it is playing
        assert time.monotonic() < deadline and process.poll() is None, process.communicate()
        time.sleep(0.05)
    time.sleep(0.5)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=300)
    assert process.returncode == 130, err
    assert "--resume" in err and "Error" not in err  # the resume hint alone says what happened
