"""The Dask distributed backend (`--backend dask`): a tournament's matches on a cluster, or on a local one.

Dask is an optional extra (from the clone: `pip install -e '.[dask]'`), imported only when this backend is
made. The driver checks every worker before the first match, then sends batches of plain-data
work units sized to about half a second of play, taken from the driver's schedule as they are
sent, keeps a bounded number in flight, and alone hands results on, once per match id sent: a
batch that Dask re-runs after losing a worker cannot record a match twice. Workers on remote
machines send each game log back as bytes; a local cluster's write them into the results
directory, as the process pool's do.
"""

from __future__ import annotations

import logging
import os
import signal
import time
from typing import Iterable, Sequence

import runner
from runner.errors import InvalidSetting, MaumauError, UnknownName, install_hint
from runner.seats.botmaker import BotMaker
from runner.seats.external import EXEC_PREFIX, parse_exec
from runner.seats.sandbox import why_not as why_not_sandboxed
from runner.tournament.work import MatchOutcome, WorkUnit, play_batch
from runner.words import counted

from .base import Backend, BatchSizer, OnResults, batched, default_workers

IN_FLIGHT_PER_THREAD = 2  # one playing, one queued behind it
CONNECT_SECONDS = 10
WORKERS_WAIT_SECONDS = 30


def import_distributed():
    """The `distributed` module, or a one-line error saying how to install it."""
    try:
        import distributed
    except ImportError:
        raise MaumauError("--backend dask needs Dask, which is not installed; install it with: "
                          f"{install_hint('dask')}") from None
    return distributed


class DaskBackend(Backend):
    """Batches of matches on the Dask cluster at `scheduler`, or on a local cluster of `workers` processes."""

    name = "dask"

    def __init__(self, scheduler: str | None = None, workers: int | None = None):
        if scheduler and workers is not None:
            raise InvalidSetting("{0} sizes a local cluster; with {1} the cluster's own workers play: leave out {0}",
                                 "workers", "scheduler")
        self.distributed = import_distributed()
        self.cluster = None
        self.shares_files = scheduler is None  # a local cluster's workers write the game logs themselves
        self.checked: set[str] = set()  # bots already found on every worker
        self.contained = False  # the workers keep third-party plugins out of their processes (--isolate)
        self.sandbox = False  # ... and discover them in the sandbox (--sandbox)
        self.scheduler = scheduler
        if scheduler:
            self.client = connect(self.distributed, scheduler)
        else:
            self.cluster = self.distributed.LocalCluster(
                n_workers=workers or default_workers(), threads_per_worker=1, processes=True,
                dashboard_address=":0", preload=[__name__],  # runs dask_setup below
                # CRITICAL, not ERROR: a worker still beating its heart while the cluster closes logs a traceback at
                # ERROR on a loaded machine; what fails in a worker reaches the driver as the future's exception
                silence_logs=logging.CRITICAL,
            )
            self.client = self.distributed.Client(self.cluster, set_as_default=False)

    def where(self) -> str:
        threads = counted(sum(self.client.nthreads().values()), "worker thread")
        if self.scheduler:
            return f"on the Dask cluster at {self.scheduler} ({threads})"
        return f"on Dask: a local cluster of {counted(len(self.client.nthreads()), 'worker process')}"

    def prepare(self, bots: Sequence[str], contained: bool = False, sandbox: bool = False) -> None:
        """Refuse, before the first match, workers with another maumau, without one of `bots` or (`sandbox`) without
        the sandbox."""
        self.contained = self.contained or contained or sandbox
        self.sandbox = self.sandbox or sandbox
        needed = set(bots) - self.checked
        if needed:
            check_workers(self.client, needed, self.contained, self.sandbox)
            self.checked |= needed

    def run(self, units: Iterable[WorkUnit], on_results: OnResults) -> None:
        slots = Slots(self.client)
        sizer = ClusterBatchSizer(slots.threads())
        batches = batched(units, sizer)
        sent: set[str] = set()  # ids of the matches in flight: what has come back is not reported again
        queue = self.distributed.as_completed(loop=self.client.loop)

        def submit(count: int) -> None:
            for _ in range(count):
                sizer.workers = slots.threads()  # workers may join or leave a cluster while it plays
                batch = next(batches, None)
                if batch is None:
                    return
                self.prepare({bot for unit in batch for bot in unit.bots})
                sent.update(unit.match_id for unit in batch)
                queue.add(self.client.submit(play_on_worker, batch, pure=False))

        try:
            submit(IN_FLIGHT_PER_THREAD * slots.threads())
            for future in queue:
                outcomes = result_of(future, self.distributed)
                sizer.finished(len(outcomes))
                submit(IN_FLIGHT_PER_THREAD * slots.threads() - queue.count())  # before storing: keep workers busy
                fresh = []
                for outcome in outcomes:  # a batch delivered twice reports nothing twice
                    if outcome.match_id in sent:
                        sent.discard(outcome.match_id)
                        fresh.append(outcome)
                if fresh:
                    on_results(fresh)
        except BaseException:
            self.client.cancel(list(queue.futures))
            raise

    def close(self) -> None:
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()


def connect(distributed, address: str):
    """A client of the scheduler at `address`, once it has at least one worker."""
    try:
        client = distributed.Client(address, timeout=f"{CONNECT_SECONDS}s", set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise MaumauError(
            f"cannot reach the Dask scheduler at {address} ({exc}); start one with `dask scheduler` "
            "and pass the address it prints, e.g. --scheduler tcp://HOST:8786"
        ) from None
    try:
        client.wait_for_workers(1, timeout=WORKERS_WAIT_SECONDS)
    except TimeoutError:
        client.close()
        raise MaumauError(
            f"the Dask scheduler at {address} has no workers after {WORKERS_WAIT_SECONDS} s; "
            f"start some with `dask worker {address} --nthreads 1`"
        ) from None
    return client


class Slots:
    """The cluster's worker threads, asked of the scheduler at most every few seconds (workers come and go)."""

    EVERY = 2.0

    def __init__(self, client):
        self.client, self.count, self.asked = client, 1, float("-inf")

    def threads(self) -> int:
        if time.monotonic() - self.asked > self.EVERY:
            self.count = max(1, sum(self.client.nthreads().values()))
            self.asked = time.monotonic()
        return self.count


class ClusterBatchSizer(BatchSizer):
    """The process pool's batch sizing, aiming at longer batches: a task costs a round trip to the scheduler."""

    BATCH_SECONDS = 0.5


def result_of(future, distributed) -> list[MatchOutcome]:
    """A finished batch's outcomes; a batch that keeps killing its workers is a one-line error."""
    try:
        return future.result()
    except distributed.KilledWorker as exc:
        raise MaumauError(
            f"a batch of matches killed {exc.allowed_failures + 1} Dask workers in turn, the last "
            f"{exc.last_worker.address} "
            "(a bot crashing its process or running out of memory?); find the match with --backend processes"
        ) from None


# ---------------------------------------------------------------- worker side
def dask_setup(worker) -> None:
    """Start-up of a local cluster's worker (its preload): Ctrl-C is the driver's, which closes the cluster."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the terminal sends it to every process of the group


def play_on_worker(units: list[WorkUnit]) -> list[MatchOutcome]:
    """Play a batch on a worker; a bot missing there (a worker that joined after the check) names the worker."""
    try:
        return play_batch(units)
    except UnknownName as exc:
        raise UnknownName(f"Dask worker {worker_address()}: {exc}; install the bot's plugin package there") from None


def worker_report(bots: Sequence[str], files: Sequence[str] = (), contained: bool = False,
                  sandbox: bool = False) -> dict:
    """This process's maumau version; per bot, where it comes from here or why it cannot be played here;
    which of the relative `files` (named by `exec:` entrants) it cannot find from its directory.

    `contained`: look the bots up as an --isolate run does, without importing a third-party plugin;
    `sandbox`: as a --sandbox run does, each plugin discovered in the sandbox (or why none can be made here).
    """
    version = runner.__version__
    cannot = why_not_sandboxed() if sandbox else None
    if cannot is not None:
        return {"version": version, "sandbox": cannot}
    # the registry is built once per process: a worker keeps it for every batch
    maker = BotMaker(isolate=contained or sandbox, sandbox=sandbox)
    return {"version": version, "bots": {bot: bot_source(maker, bot) for bot in bots},
            "missing": [file for file in files if not os.path.exists(file)], "directory": os.getcwd()}


def bot_source(maker: BotMaker, bot: str) -> tuple[bool, str]:
    """(True, the plugin and package version `bot` comes from) or (False, why it cannot be played here)."""
    try:
        maker.check([bot])  # also finds the program of an `exec:` entrant or a CommandBot
    except MaumauError as exc:
        return False, str(exc)
    if bot.startswith(EXEC_PREFIX):
        return True, "its program"
    entry = maker.reg.bot(maker.spec(bot).name)
    return True, f"plugin {entry.plugin} ({entry.version or 'no package version'})"


def scheduler_version() -> str:
    """The maumau version of the process this runs in (the scheduler's, sent with `run_on_scheduler`)."""
    return runner.__version__


def worker_address() -> str:
    from distributed import get_worker

    try:
        return get_worker().address
    except ValueError:  # not on a worker
        return "(not a worker)"


# ---------------------------------------------------------------- driver side
def check_workers(client, bots: set[str], contained: bool = False, sandbox: bool = False) -> None:
    """The scheduler and every worker run this maumau, the workers play each of `bots` from the same package."""
    here = worker_report(sorted(bots), contained=contained, sandbox=sandbox)
    if "sandbox" in here:
        raise MaumauError(here["sandbox"])
    # the scheduler unpickles the work units (maumau classes), so it needs the same maumau too
    try:
        there = f"maumau {client.run_on_scheduler(scheduler_version)}"
    except Exception as exc:  # it cannot even unpickle a maumau function
        there = f"no maumau it can load ({type(exc).__name__}: {exc})"
    if there != f"maumau {here['version']}":
        raise MaumauError(
            f"the Dask scheduler at {client.scheduler.address} has {there}, this driver maumau {here['version']}; "
            "install the same maumau on the scheduler's machine and restart the scheduler"
        )
    reports = client.run(worker_report, sorted(bots), relative_files(bots), contained, sandbox, on_error="return")
    problems = [(address, problem_of(report, here)) for address, report in sorted(reports.items())]
    problems = [(address, problem) for address, problem in problems if problem]
    if problems:
        address, problem = problems[0]
        others = f" (and {len(problems) - 1} more of the {len(reports)} workers)" if len(problems) > 1 else ""
        raise MaumauError(f"Dask worker {address}{others}: {problem}")


def problem_of(report, here: dict) -> str:
    """What keeps a worker with `report` from playing the bots as this process would, or ''."""
    if isinstance(report, BaseException):
        return (f"cannot run maumau's check ({type(report).__name__}: {report}); install maumau, the same version as "
                "here, and every bot plugin package on it, then restart it")
    if report["version"] != here["version"]:
        return (
            f"runs maumau {report['version']}, this driver {here['version']}; install the same maumau on every machine"
        )
    if "sandbox" in report:
        return f"{report['sandbox']} (on that worker's machine)"
    for bot, (_, source) in sorted(here["bots"].items()):
        playable, there = report["bots"][bot]
        if not playable:
            return f"{there}; install {source} on every worker machine"
        if there != source:
            return f"bot {bot!r} comes from {there} there, {source} here; install the same version everywhere"
    if report["missing"]:
        return (f"cannot find {report['missing'][0]} from its directory {report['directory']} (named by an `exec:` "
                "entrant, relative to this driver's directory); give it as an absolute path, the same on every machine")
    return ""


def relative_files(bots: set[str]) -> list[str]:
    """The relative paths in `exec:` entrants' command lines that name files here: a worker resolves them elsewhere."""
    words = [word for bot in sorted(bots) if bot.startswith(EXEC_PREFIX) for word in parse_exec(bot)]
    return [word for word in words if not os.path.isabs(word) and os.path.exists(word)]
