"""The Dask backend: the same bytes as the local pool, a worker lost mid-tournament, workers checked up front."""

import json
import logging
import os
import signal
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

import runner
import runner.tournament.backends.dask as dask_backend
from runner.cli import main
from runner.cli.standings import render_standings
from runner.errors import MaumauError
from runner.plugins import BotEntry, registry
from runner.tournament.backends import make_backend
from runner.tournament.driver import conduct, run
from runner.tournament.progress import Progress
from runner.tournament.schedule import match_count, schedule, unit_of
from runner.tournament.settings import plan
from runner.tournament.store import Store

ROOT = Path(__file__).parent.parent


@pytest.fixture(scope="session")
def cluster():
    """A local Dask cluster of 2 single-threaded worker processes, shared by the suite; none outlives it."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
                                  silence_logs=logging.ERROR) as local:
        with distributed.Client(local, set_as_default=False) as client:
            started = set(client.run(os.getpid).values())
            yield client
            pids = started | set(client.run(os.getpid).values())  # a worker restarted by its nanny is new
    assert not [pid for pid in pids if alive(pid)], "a Dask worker outlived its cluster"


def alive(pid: int) -> bool:
    try:
        return "State:\tZ" not in Path(f"/proc/{pid}/status").read_text()  # a zombie has exited
    except FileNotFoundError:
        return False


def dask(client, workers: int | None = None):
    return make_backend("dask", workers, client.scheduler.address)


def test_standings_and_logs_are_the_same_bytes_as_with_the_local_pool(tmp_path, cluster):
    settings = plan("strafpunten", ["random", "random", "random"], deals=3, table_size=2, seed=5)
    local, _ = conduct(settings, tmp_path / "local", False, "processes", 2, quiet=True)
    remote, _ = conduct(settings, tmp_path / "dask", False, "dask", quiet=True, scheduler=cluster.scheduler.address)
    assert render_standings(remote, "json") == render_standings(local, "json")
    logs = sorted(p.name for p in (tmp_path / "local" / "logs").iterdir())
    assert len(logs) == 18 and sorted(p.name for p in (tmp_path / "dask" / "logs").iterdir()) == logs
    assert all((tmp_path / "dask" / "logs" / name).read_bytes() == (tmp_path / "local" / "logs" / name).read_bytes()
               for name in logs)


class KillABusyWorker(Progress):
    """After the first stored batch, kills (SIGKILL) a worker that has batches of this tournament to play."""

    def __init__(self, client):
        self.client, self.killed = client, None

    def advance(self, matches: int = 1) -> None:
        if self.killed is None:
            busy = [address for address, keys in self.client.processing().items() if keys]
            if busy:
                pid = self.client.run(os.getpid, workers=busy[:1])[busy[0]]
                os.kill(pid, signal.SIGKILL)
                self.killed = pid


def test_a_worker_killed_mid_tournament_is_replaced_and_every_match_is_recorded_once(tmp_path, cluster):
    settings = plan("strafpunten", ["random", "random", "random"], deals=20, table_size=2, seed=9)
    store = Store.create(tmp_path / "t", settings.config())
    killer = KillABusyWorker(cluster)
    with dask(cluster) as backend:
        standings = run(settings, store, backend, killer)
    assert killer.killed is not None and not alive(killer.killed)
    total = match_count(3, 2, 20)
    assert store.count() == total == len(store.done())  # the primary key would refuse a match stored twice
    assert len(list((tmp_path / "t" / "logs").iterdir())) == total
    serial, _ = conduct(settings, tmp_path / "serial", False, "serial", quiet=True)
    assert render_standings(standings, "json") == render_standings(serial, "json")
    store.close()
    cluster.wait_for_workers(2, timeout=300)  # the nanny restarts the killed worker for the next tests


def test_a_match_delivered_twice_is_reported_once(cluster):
    settings = plan("strafpunten", ["random", "random"], deals=2, table_size=2)
    units = [unit_of(settings, slot) for slot in schedule(settings, range(2))]
    reported = []
    with dask(cluster) as backend:
        # as if Dask re-ran two matches still in flight: the first batches go out together
        backend.run(units[:2] + units, reported.extend)
    assert sorted(o.match_id for o in reported) == sorted(u.match_id for u in units)


def scheduler_tasks(dask_scheduler) -> int:
    return len(dask_scheduler.tasks)


def test_a_scheduler_with_another_maumau_version_is_refused(cluster, monkeypatch):
    # the test cluster's scheduler runs in this process: give it another version through the function it is sent
    monkeypatch.setattr(dask_backend, "scheduler_version", lambda: "0.0.1")
    with (
        dask(cluster) as backend,
        pytest.raises(
            MaumauError,
            match=r"^the Dask scheduler at tcp://127.0.0.1:\d+ has maumau 0.0.1, this driver maumau \S+; "
            r"install the same maumau on the scheduler's machine",
        ),
    ):
        backend.prepare(["random"])


def test_batches_are_bounded_in_flight_and_several_per_worker(cluster):
    settings = plan("strafpunten", ["random", "random", "random"], deals=10, table_size=2)
    units = [unit_of(settings, slot) for slot in schedule(settings, range(10))]
    batches, known = [], []

    def on_results(outcomes):
        batches.append(len(outcomes))
        known.append(cluster.run_on_scheduler(scheduler_tasks))

    with dask(cluster) as backend:
        backend.run(units, on_results)
    assert sum(batches) == len(units) and len(batches) >= 4 * 2
    # all 60 matches at once would be dozens of tasks; a bounded queue is 2 per worker thread, plus the one just read
    assert max(known) <= dask_backend.IN_FLIGHT_PER_THREAD * 2 + 1


class DriverOnly(runner.Bot):
    name = "driver-only"

    def act(self, view):
        return view.legal[0]


def test_a_worker_without_an_entered_bot_is_refused_before_anything_is_stored(tmp_path, cluster, monkeypatch):
    # registered in this process only: the workers (other processes) build registries without it
    monkeypatch.setitem(registry().bots, "driver-only", BotEntry("driver-only", DriverOnly, "test_dask", ""))
    settings = plan("strafpunten", ["random", "driver-only"], deals=1)
    with pytest.raises(MaumauError) as refused:
        conduct(settings, tmp_path / "t", False, "dask", quiet=True, scheduler=cluster.scheduler.address)
    message = str(refused.value)
    assert message.startswith("Dask worker tcp://127.0.0.1:") and "(and 1 more of the 2 workers)" in message
    assert ": unknown bot 'driver-only'; registered: " in message and "random" in message.split("registered: ")[1]
    assert message.endswith("; install plugin test_dask (no package version) on every worker machine")
    assert not (tmp_path / "t").exists()


def test_an_exec_entrant_naming_a_file_the_workers_cannot_find_is_refused(tmp_path, cluster, monkeypatch):
    (tmp_path / "bot.py").write_text((ROOT / "examples" / "exec_bot.py").read_text())
    monkeypatch.chdir(tmp_path)  # the workers stay in the directory they started in
    settings = plan("strafpunten", ["random", f"exec:{sys.executable} bot.py"], deals=1)
    with pytest.raises(
        MaumauError, match=r"^Dask worker .*: cannot find bot.py from its directory .*give it as an absolute path"
    ):
        conduct(settings, tmp_path / "t", False, "dask", quiet=True, scheduler=cluster.scheduler.address)


def test_a_worker_with_another_maumau_version_is_refused(cluster, monkeypatch):
    monkeypatch.setattr(runner, "__version__", "9.9")
    with (
        dask(cluster) as backend,
        pytest.raises(MaumauError, match=r"runs maumau \d[^ ]*, this driver 9.9; install the same"),
    ):
        backend.prepare(["random"])


@pytest.mark.parametrize("args, message", [
    (["--backend", "processes", "--scheduler", "tcp://127.0.0.1:8786"], "--scheduler is the address of a Dask cluster"),
    (["--backend", "dask", "--scheduler", "tcp://127.0.0.1:8786", "--workers", "2"], "--workers sizes a local cluster"),
])
def test_option_mistakes_are_one_line_errors(args, message, tmp_path, capsys, monkeypatch):
    pytest.importorskip("distributed")
    monkeypatch.setattr(sys, "argv", ["maumau", "tournament", "-r", "strafpunten", "-b", "random", "-b", "random",
                                      "--out", str(tmp_path / "t"), *args])
    with pytest.raises(SystemExit) as exited:
        main()
    error = capsys.readouterr().err
    assert exited.value.code == 1 and error.startswith(f"Error: {message}") and error.count("\n") == 1
    assert not (tmp_path / "t").exists()


def test_an_unreachable_scheduler_is_a_one_line_error(monkeypatch):
    pytest.importorskip("distributed")
    monkeypatch.setattr(dask_backend, "CONNECT_SECONDS", 1)
    with pytest.raises(MaumauError, match="cannot reach the Dask scheduler at tcp://127.0.0.1:9 .*start one with `dask "
                                          "scheduler`"):
        make_backend("dask", None, "tcp://127.0.0.1:9")


def test_without_dask_installed_the_backend_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # makes `import distributed` fail
    with pytest.raises(
        MaumauError,
        match=r"--backend dask needs Dask, which is not installed; install it with: pip install -e '.+\[dask\]'$",
    ):
        make_backend("dask")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_the_cli_on_its_own_local_cluster_matches_the_local_run_and_leaves_no_process(tmp_path):
    pytest.importorskip("distributed")
    options = ["tournament", "-r", "strafpunten", "-b", "random", "-b", "random", "--deals", "3", "--seed", "4",
               "--format", "json"]
    mark = f"maumau-test-{uuid.uuid4()}"  # inherited by every process the command starts
    env = dict(os.environ, MAUMAU_TEST_MARK=mark)
    dasked = subprocess.run([sys.executable, "-m", "runner.cli", *options, "--backend", "dask", "--workers", "1",
                             "--out", str(tmp_path / "dask")], cwd=ROOT, env=env, capture_output=True, text=True)
    assert dasked.returncode == 0, dasked.stderr
    local, _ = conduct(
        plan("strafpunten", ["random", "random"], deals=3, seed=4), tmp_path / "local", False, quiet=True
    )
    assert dasked.stdout == render_standings(local, "json") + "\n" and json.loads(dasked.stdout)["standings"]
    assert not marked(mark), "a process of the local Dask cluster outlived the command"
    assert dasked.stderr.splitlines()[-1].endswith(" on Dask: a local cluster of 1 worker process"), dasked.stderr


def marked(mark: str) -> list[int]:
    """Processes whose environment holds `mark`."""
    found = []
    for proc in Path("/proc").iterdir():
        try:
            if proc.name.isdigit() and mark.encode() in (proc / "environ").read_bytes() and alive(int(proc.name)):
                found.append(int(proc.name))
        except OSError:  # gone, or not ours to read
            pass
    return found


def test_bot_options_travel_in_the_work_unit_to_the_cluster(tmp_path, cluster):
    settings = plan("standard-single", ["hard:rollouts=12", "hard:rollouts=40", "medium"], deals=2, table_size=3,
                    seed=3)
    assert settings.bots[:2] == ("hard:rollouts=12", "hard:rollouts=40")
    local, _ = conduct(settings, tmp_path / "local", False, "serial", quiet=True)
    remote, _ = conduct(settings, tmp_path / "dask", False, "dask", quiet=True, scheduler=cluster.scheduler.address)
    assert render_standings(remote, "json") == render_standings(local, "json")
    assert {r.entrant for r in remote.rows} == {"hard:rollouts=12", "hard:rollouts=40", "medium"}


def test_a_worker_that_cannot_sandbox_is_refused_under_sandbox(monkeypatch):
    pytest.importorskip("distributed")
    monkeypatch.setattr(dask_backend, "why_not_sandboxed", lambda: "--sandbox needs bwrap: apt-get install bubblewrap")
    there = dask_backend.worker_report(["random"], sandbox=True)
    assert there == {"version": runner.__version__, "sandbox": "--sandbox needs bwrap: apt-get install bubblewrap"}
    here = {"version": runner.__version__, "bots": {"random": (True, "plugin builtin")}}
    assert dask_backend.problem_of(there, here) == \
        "--sandbox needs bwrap: apt-get install bubblewrap (on that worker's machine)"
    assert "sandbox" not in dask_backend.worker_report(["random"])  # without --sandbox the worker need not make one
