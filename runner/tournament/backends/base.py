"""Execution backends: where a tournament's work units are played (in-process, or a process pool).

A backend takes plain-data `WorkUnit`s and hands their `MatchOutcome`s to `on_results` in the
driver's process, a batch at a time, in whatever order they finish; the driver alone stores
them. The units come from an iterable the driver makes as it goes (a long tournament is never
held whole), so a backend takes a batch from it only when it can send it. A new backend (a
cluster, say) implements `Backend.run` the same way: take batches, keep a bounded number in
flight, call `on_results` with each finished batch.
"""

from __future__ import annotations

import ctypes
import gc
import multiprocessing
import os
import signal
import sys
import threading
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from itertools import islice
from typing import Callable, Iterable, Iterator, Sequence, Sized

from runner.errors import MaumauError
from runner.plugins import registry
from runner.tournament.work import MatchOutcome, WorkUnit, play_batch, play_unit

OnResults = Callable[[list[MatchOutcome]], None]
PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>


class Backend:
    """Plays work units and reports each outcome to the driver."""

    name = "backend"
    shares_files = False  # its workers see this machine's files: they may write the game logs themselves

    def run(self, units: Iterable[WorkUnit], on_results: OnResults) -> None:
        """Play every unit; call `on_results` (in this process) with every outcome once, in any order.

        `units` is taken as it is played, not all at once; if it has a length, batches are sized by it.
        """
        raise NotImplementedError

    def prepare(self, bots: Sequence[str]) -> None:
        """Refuse, before anything is stored, a tournament of `bots` this backend cannot play (e.g. a worker lacks one)."""

    def close(self) -> None:
        """Release workers; the backend is not used again."""

    def __enter__(self) -> "Backend":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class SerialBackend(Backend):
    """Every match in this process, one after another."""

    name = "serial"
    shares_files = True

    def run(self, units: Iterable[WorkUnit], on_results: OnResults) -> None:
        for unit in units:
            on_results([play_unit(unit)])


class ProcessBackend(Backend):
    """A pool of worker processes, fed batches of units; at most two batches in flight per worker."""

    name = "processes"
    shares_files = True

    def __init__(self, workers: int | None = None, batch_size: int | None = None):
        self.workers = workers or default_workers()
        self.batch_size = batch_size
        self._pool: ProcessPoolExecutor | None = None
        self._interrupted = False

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            methods = multiprocessing.get_all_start_methods()
            # fork reuses the parent's imports and registry: workers start in milliseconds
            context = multiprocessing.get_context("fork" if "fork" in methods else None)
            gc.freeze()  # forked workers then leave the parent's objects alone instead of copying their pages
            self._pool = ProcessPoolExecutor(
                self.workers, mp_context=context, initializer=init_worker, initargs=(os.getpid(),)
            )
        return self._pool

    def run(self, units: Iterable[WorkUnit], on_results: OnResults) -> None:
        sizer = BatchSizer(self.workers, fixed=self.batch_size)
        batches = batched(units, sizer)
        in_flight = set()
        try:
            while True:
                while len(in_flight) < 2 * self.workers:
                    batch = next(batches, None)
                    if batch is None:
                        break
                    in_flight.add(self._executor().submit(play_batch, batch))
                if not in_flight:
                    return
                done, in_flight = wait(in_flight, return_when=FIRST_COMPLETED)
                for future in done:
                    try:
                        outcomes = future.result()
                    except BrokenProcessPool:
                        raise MaumauError(
                            "a worker process died in the middle of a batch (a bot that ends or crashes its process?); "
                            "the matches stored so far are kept; --isolate runs each bot in a process of its own, "
                            "where a crash is a fault"
                        ) from None
                    sizer.finished(len(outcomes))
                    on_results(outcomes)
        except BaseException:
            self._interrupted = True
            for future in in_flight:
                future.cancel()
            raise

    def close(self) -> None:
        if self._pool is not None:
            # interrupted: leave running batches behind (workers exit with this process) rather than wait
            self._pool.shutdown(wait=not self._interrupted, cancel_futures=True)
            self._pool = None
            gc.unfreeze()


def default_workers() -> int:
    """One worker per core this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


class BatchSizer:
    """Batch sizes that aim at about BATCH_SECONDS of play per batch, learnt from the rate so far.

    Large enough that messages cost little per match, small enough that the progress bar moves,
    an interruption loses little, and the last batches spread over all workers.
    """

    BATCH_SECONDS = 0.25
    FIRST, LARGEST = 4, 512

    def __init__(self, workers: int, fixed: int | None = None):
        self.workers, self.fixed = workers, fixed
        self.started = time.perf_counter()
        self.done = 0

    def finished(self, matches: int) -> None:
        self.done += matches

    def next_size(self, remaining: int | None) -> int:
        """The size of the next batch, with `remaining` units left to send (None: not known)."""
        if self.fixed:
            return max(1, min(self.fixed, remaining if remaining is not None else self.fixed))
        elapsed = time.perf_counter() - self.started
        if not self.done or elapsed <= 0:
            size = self.FIRST
        else:
            per_worker_rate = self.done / elapsed / self.workers
            size = int(per_worker_rate * self.BATCH_SECONDS)
        # the last rounds of batches still reach every worker
        tail = -(-remaining // (2 * self.workers)) if remaining is not None else self.LARGEST
        return max(1, min(size, self.LARGEST, tail))


def batched(units: Iterable[WorkUnit], sizer: BatchSizer) -> Iterator[list[WorkUnit]]:
    """`units` in batches of the sizer's sizes, each taken from `units` only when it is asked for."""
    left = len(units) if isinstance(units, Sized) else None
    source = iter(units)
    while True:
        batch = list(islice(source, sizer.next_size(left)))
        if not batch:
            return
        if left is not None:
            left = max(0, left - len(batch))
        yield batch


# ---------------------------------------------------------------- worker side
def init_worker(parent_pid: int) -> None:
    """Worker start-up: die with the parent, leave Ctrl-C to it, build the registry once."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the driver handles Ctrl-C and shuts the pool down
    die_with_parent(parent_pid)
    registry()


def die_with_parent(parent_pid: int) -> None:
    """Exit when `parent_pid` dies, even by kill -9: the kernel's parent-death signal, plus a watchdog."""
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass  # the watchdog below still covers it
    if os.getppid() != parent_pid:  # the parent died before prctl took effect
        os._exit(1)
    threading.Thread(target=_watch_parent, args=(parent_pid,), name="maumau-watchdog", daemon=True).start()


def _watch_parent(parent_pid: int, every: float = 1.0) -> None:
    event = threading.Event()
    while not event.wait(every):
        if os.getppid() != parent_pid:
            os._exit(1)
