"""The process-pool backend (`--backend processes`, the default): forked workers fed batches of work units."""

from __future__ import annotations

import ctypes
import gc
import multiprocessing
import os
import signal
import sys
import threading
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Iterable

from runner.errors import MaumauError
from runner.seats.bot_output import exit_past_leftover_threads
from runner.tournament.work import WorkUnit, play_batch
from runner.words import counted

from .base import Backend, BatchSizer, OnResults, batched, default_workers

PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>


class ProcessBackend(Backend):
    """A pool of worker processes, fed batches of units; at most two batches in flight per worker."""

    name = "processes"
    shares_files = True

    def __init__(self, workers: int | None = None, batch_size: int | None = None):
        self.workers = workers or default_workers()
        self.batch_size = batch_size
        self._pool: ProcessPoolExecutor | None = None
        self._interrupted = False

    def where(self) -> str:
        return f"on {counted(self.workers, 'worker process')}"

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
            if self._interrupted:
                stop_workers(self._pool)
            else:
                self._pool.shutdown(wait=True)
            self._pool = None
            gc.unfreeze()


def stop_workers(pool: ProcessPoolExecutor) -> None:
    """An interrupted run: give up the running batches (their matches are not stored) and end the workers now.

    Left to the pool's own shutdown, the workers would be stopped by its management thread, which the
    console script's exit past leftover threads (runner/cli/app.py) does not wait for: multiprocessing's
    exit handler then joins workers that never receive the pool's stop sentinel, and the run hangs after
    saying how to resume.
    """
    workers = list(pool._processes.values())  # type: ignore[attr-defined]  # no public handle before Python 3.14
    pool.shutdown(wait=False, cancel_futures=True)
    for process in workers:
        process.terminate()  # the workers keep SIGTERM's default action (init_worker)
    for process in workers:
        process.join()


# ---------------------------------------------------------------- worker side
def init_worker(parent_pid: int) -> None:
    """Worker start-up: die with the parent, leave Ctrl-C to it.

    The registry is the driver's, inherited by fork (or built on first use): a worker imports no
    plugin the driver kept out (--isolate).
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the driver handles Ctrl-C and shuts the pool down
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the driver's handler, inherited through fork
    die_with_parent(parent_pid)
    # at its exit the worker would wait for every thread that is not a daemon, a bot's too; its results are sent by
    # then (the executor's result queue writes synchronously), so it exits past them
    threading._register_atexit(exit_past_leftover_threads)  # type: ignore[attr-defined]


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
