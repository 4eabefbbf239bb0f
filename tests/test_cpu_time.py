"""The move time is a budget of the bot's CPU time, with a wall-clock cap for bots that sleep or wait:
results do not depend on how busy the machine is.

Every budget here is far from what the bots need (a spinning bot needs without end, a sleeping
one no CPU at all, the working one a tenth of its budget), so no test depends on the load.
"""

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from runner import plugins
from runner.seats.faults import FaultSettings
from support import misbehaving_bots
from support.console import maumau

TESTS = Path(__file__).resolve().parent
GENEROUS_WALL = 120.0  # a cap no decision comes near however busy the machine: only the CPU budget can act


@pytest.fixture(autouse=True)
def with_misbehaving_bots(monkeypatch):
    monkeypatch.setattr(plugins, "_registry", misbehaving_bots.registry())


def played(players, isolate=False, **faults):
    """One strafpunten match under these fault settings: its faults."""
    from runner.seats.botmaker import BotMaker
    from runner.table.match import Match
    from runner.table.referee import Referee

    reg = misbehaving_bots.registry()
    with BotMaker(reg, isolate) as maker:
        match = Match(reg.load_ruleset("strafpunten"), players, 7, maker,
                      referee=Referee(FaultSettings(policy="autoplay", **faults), seed=7))
        result = match.run()
        maker.end_match(result)
    return result.faults


@pytest.mark.parametrize("isolate", [False, True])
def test_a_cpu_bound_bot_over_its_budget_is_a_timeout(isolate):
    (fault,) = played(["t-honest", "t-spin"], isolate, move_time=0.2, wall_time=GENEROUS_WALL)
    assert fault.kind == "timeout" and fault.player == "t-spin"
    assert fault.detail.startswith("used its budget of 0.200s of CPU time; "), fault.detail
    assert fault.detail.endswith("the bot process was killed" if isolate else "interrupted")


@pytest.mark.parametrize("isolate", [False, True])
def test_a_sleeping_bot_over_the_wall_clock_cap_is_a_timeout(isolate):
    # no CPU used: only the cap acts; 2 s, that the honest seats' answers (on a machine at load 30) stay far below it
    (fault,) = played(["t-honest", "t-sleep"], isolate, move_time=0.2, wall_time=2.0)
    assert fault.kind == "timeout" and fault.player == "t-sleep"
    assert fault.detail.startswith(("still deciding after 2.000s of wall clock",
                                    "no answer after 2.000s of wall clock"))
    assert "the cap for a bot that sleeps, blocks or waits (--wall-time)" in fault.detail


@pytest.mark.parametrize("isolate", [False, True])
def test_a_decision_over_the_move_time_in_wall_clock_but_not_in_cpu_time_is_no_fault(isolate):
    assert played(["t-honest", "t-nap"], isolate, move_time=0.1, wall_time=GENEROUS_WALL) == ()  # naps 0.4 s


def test_the_default_wall_cap_is_ten_cpu_budgets_and_zero_is_none():
    assert FaultSettings(move_time=1.0).wall_cap(1.5) == 15.0
    assert FaultSettings(move_time=1.0, wall_time=30).wall_cap(1.5) == 30
    assert FaultSettings(move_time=1.0, wall_time=0).wall_cap(1.5) is None
    assert FaultSettings().wall_cap(None) is None


def test_the_time_bank_is_counted_in_cpu_time():
    (fault,) = played(["t-honest", "t-dawdle"], move_time=0.3, wall_time=GENEROUS_WALL)  # it spins 0.45 s of CPU once
    assert fault.kind == "timeout" and fault.detail == "used its budget of 0.300s of CPU time; interrupted"
    assert played(["t-honest", "t-dawdle"], move_time=0.3, time_bank=0.5, wall_time=GENEROUS_WALL) == ()


@pytest.mark.parametrize("args, message", [
    (["--wall-time", "-1"], "--wall-time must be a number of seconds (0: no cap), got -1"),
    (["--move-time", "2", "--wall-time", "1"], "--wall-time 1 is below --move-time 2"),
])
def test_a_wall_time_that_makes_no_sense_is_refused(capsys, monkeypatch, args, message):
    code, _, err = maumau(capsys, monkeypatch, "play", "-r", "standard", "-b", "random", "-b", "random", *args)
    assert code == 1 and err.startswith(f"Error: {message}") and err.count("\n") == 1


def spinning(count: int) -> list[subprocess.Popen]:
    """`count` processes that spin at full speed, each seen using CPU before this returns (ended by the caller)."""
    procs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not all(cpu_ticks(proc.pid) > 0 for proc in procs):
        time.sleep(0.05)
    return procs


def cpu_ticks(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_bytes().rsplit(b")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def tournament_in_a_new_process(args: list[str]) -> subprocess.CompletedProcess:
    """`maumau ARGS...` in a new Python process, with tests/support/misbehaving_bots.py's bots registered.

    Two such runs start alike, so the runner's own work in the bots' thread (imports, garbage
    collections) falls in the same decisions in each; in the test process it would depend on
    everything the earlier tests left behind.
    """
    program = ("import sys; from support import misbehaving_bots; from runner import plugins; "
               "plugins._registry = misbehaving_bots.registry(); from runner.cli import main; main()")
    path = os.pathsep.join(filter(None, [str(TESTS), os.environ.get("PYTHONPATH")]))
    return subprocess.run([sys.executable, "-c", program, *args], cwd=TESTS.parent,
                          env={**os.environ, "PYTHONPATH": path}, capture_output=True, text=True)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc to see the spinners spin")
def test_a_tournament_gives_the_same_standings_with_processes_spinning_beside_it(tmp_path):
    command = ["tournament", "-r", "strafpunten", "-b", "t-busy", "-b", "medium", "-b", "random", "--deals", "2",
               "--backend", "serial", "--move-time", "0.05", "--wall-time", str(GENEROUS_WALL), "--format", "json",
               "-q", "--seed", "1"]
    quiet = tournament_in_a_new_process([*command, "--out", str(tmp_path / "quiet")])
    assert quiet.returncode == 0, quiet.stderr
    procs = spinning(3)
    try:
        busy = tournament_in_a_new_process([*command, "--out", str(tmp_path / "busy")])
        assert all(proc.poll() is None for proc in procs)  # they spun all along
    finally:
        for proc in procs:
            proc.kill()
            proc.wait()
    assert busy.returncode == 0, busy.stderr
    assert busy.stdout == quiet.stdout  # byte for byte
    assert [row["faults"] for row in json.loads(busy.stdout)["standings"]] == [0, 0, 0]


def test_the_cpu_clock_is_read_once_per_slack_and_never_counts_from_before_a_decision(monkeypatch):
    from runner.seats import seat

    reads = []
    monkeypatch.setattr(seat, "thread_time", lambda: reads.append(1) or 5.0)  # the clock: 5 s, then stopped
    monkeypatch.setattr(seat, "_clock", [0, -float("inf"), 0.0])
    assert seat.cpu_clock(100.0) == 5.0 and len(reads) == 1
    # 0.4 ms later by the wall clock: the reading plus that, no system call; at least the clock (5.0) at that time
    assert seat.cpu_clock(100.0004) == pytest.approx(5.0004) and len(reads) == 1
    assert seat.cpu_clock(100.0 + 2 * seat.CLOCK_SLACK) == 5.0 and len(reads) == 2  # past the slack: read again
    assert seat.cpu_clock(99.0) == 5.0 and len(reads) == 3  # a reading from after `started`: read again
    monkeypatch.setattr(seat, "get_ident", lambda: -1)  # another thread: its own clock
    assert seat.cpu_clock(100.0 + 2 * seat.CLOCK_SLACK) == 5.0 and len(reads) == 4


def test_a_cpu_bound_bot_is_caught_between_decisions_timed_without_reading_the_clock():
    # the honest bot's decisions come within the slack of each other: the spinning one is still caught
    (fault,) = played(["t-honest", "t-honest", "t-spin"], move_time=0.2, wall_time=GENEROUS_WALL)
    assert fault.kind == "timeout" and fault.player == "t-spin"
