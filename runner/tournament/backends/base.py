"""Execution backends: the interface, and the batching a backend that ships work elsewhere shares.

A backend takes plain-data `WorkUnit`s and hands their `MatchOutcome`s to `on_results` in the
driver's process, a batch at a time, in whatever order they finish; the driver alone stores
them. The units come from an iterable the driver makes as it goes (a long tournament is never
held whole), so a backend takes a batch from it only when it can send it. A new backend (a
cluster, say) implements `Backend.run` the same way: take batches, keep a bounded number in
flight, call `on_results` with each finished batch.
"""

from __future__ import annotations

import os
import time
from itertools import islice
from typing import Callable, Iterable, Iterator, Sequence, Sized

from runner.tournament.work import MatchOutcome, WorkUnit

OnResults = Callable[[list[MatchOutcome]], None]


class Backend:
    """Plays work units and reports each outcome to the driver."""

    name = "backend"
    shares_files = False  # its workers see this machine's files: they may write the game logs themselves

    def run(self, units: Iterable[WorkUnit], on_results: OnResults) -> None:
        """Play every unit; call `on_results` (in this process) with every outcome once, in any order.

        `units` is taken as it is played, not all at once; if it has a length, batches are sized by it.
        """
        raise NotImplementedError

    def where(self) -> str:
        """Where the matches are played, for the person watching: `on 2 worker processes`."""
        return f"on the {self.name} backend"

    def prepare(self, bots: Sequence[str], contained: bool = False, sandbox: bool = False) -> None:
        """Refuse, before anything is stored, a tournament of `bots` this backend cannot play (a worker lacks one).

        `contained`: the run keeps third-party plugins out of the runner's processes (--isolate);
        `sandbox`: it discovers them in the sandbox too, and every worker must be able to make one (--sandbox).
        """

    def close(self) -> None:
        """Release workers; the backend is not used again."""

    def __enter__(self) -> "Backend":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


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

    # 0.5 s as the Dask sizer: the driver's traffic per match (pool messages, one commit per batch) is about a third
    # less than at 0.25 s, CPU the second worker shares on two cores (bench/scaling.md)
    BATCH_SECONDS = 0.5
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
    """`units` in batches of the sizer's sizes, each taken from `units` only when it is asked for.

    `units` may cap the size (`batch_cap`): an A/B test, which stops when it is decided, keeps little in flight.
    """
    left = len(units) if isinstance(units, Sized) else None
    cap = getattr(units, "batch_cap", None) or sizer.LARGEST
    source = iter(units)
    while True:
        batch = list(islice(source, min(cap, sizer.next_size(left))))
        if not batch:
            return
        if left is not None:
            left = max(0, left - len(batch))
        yield batch
