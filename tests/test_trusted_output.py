"""In-process (trusted) bots cannot spoil the runner's output or keep it running.

A bot that prints at every decision, writes to file descriptor 1 and leaves a thread running
(not a daemon thread) is played from the command line; the output must still be exactly the
runner's (JSON that parses), and the runner must exit when it is done.
"""

import json
import os
import subprocess
import sys
import textwrap

import pytest

from support.plugins import install

NOISY = '''
import os, sys, threading, time
import runner


class Noisy(runner.Bot):
    name = "noisy"

    def act(self, view):
        print("garbage from the bot")
        os.write(1, b"more garbage, below Python\\n")
        if not any(t.name == "noisy-leftover" for t in threading.enumerate()):
            threading.Thread(target=time.sleep, args=(3600,), name="noisy-leftover").start()  # not a daemon
        return view.legal[0]


@runner.hookimpl
def register_bots(register):
    register(Noisy)
'''


@pytest.fixture
def site(tmp_path):
    site = tmp_path / "noisy-site"
    site.mkdir()
    install(site, "noisy_plugin", textwrap.dedent(NOISY), "noisy")
    return site


COMMANDS = {
    "play": ["play", "-r", "strafpunten", "-b", "noisy", "-b", "random", "--seed", "3"],
    "tournament serial": ["tournament", "-r", "strafpunten", "-b", "noisy", "-b", "random", "--deals", "2",
                          "--seed", "3", "-q", "--backend", "serial"],
    "tournament processes": ["tournament", "-r", "strafpunten", "-b", "noisy", "-b", "random", "--deals", "2",
                             "--seed", "3", "-q", "--workers", "2"],
    "sprt serial": ["sprt", "-r", "standard-single", "noisy", "random", "--max-deals", "3", "--seed", "3", "-q",
                    "--backend", "serial"],
    "sprt processes": ["sprt", "-r", "standard-single", "noisy", "random", "--max-deals", "3", "--seed", "3", "-q",
                       "--workers", "2"],
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_bots_prints_and_threads_stay_out_of_the_runners_output_and_exit(site, tmp_path, command):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), *sys.path])}
    out = ["--out", str(tmp_path / "t")] if command.startswith(("tournament", "sprt")) else []
    runner = subprocess.Popen([sys.executable, "-m", "runner.cli", *COMMANDS[command], "--format", "json", *out],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        stdout, stderr = runner.communicate(timeout=120)  # generous: reached only if the thread keeps it alive
    except subprocess.TimeoutExpired:
        runner.kill()
        runner.communicate()
        pytest.fail("the runner did not exit: the bot's thread kept it running")
    assert runner.returncode == 0, stderr
    assert "garbage" not in stdout
    json.loads(stdout)  # the runner's output, whole
