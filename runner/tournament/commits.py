"""Finished matches committed to the results store in groups, never kept from view for long.

A commit per match (its transaction, the meta rows' digest, the database pages written to the
write-ahead log) cost the serial driver about 100 µs of CPU and 340 µs of wall clock a match, as much CPU as a
standard-single match (bench/commands.md). `GroupedCommits` keeps finished matches until COMMIT_MATCHES are
waiting, or until the oldest of them has waited COMMIT_SECONDS: that bound is kept by a thread of
its own, so a backend that pauses between results (a slow match, a cluster waiting for a worker)
holds none of them back from a live view (`maumau serve --results`) for longer, whether or not
another result arrives. The thread costs no bot its time: a decision's CPU time is counted on its own thread's
clock (runner/seats/seat.py), and the thread sleeps on a condition between groups, never polling.

A run killed with kill -9 loses at most the group waiting: its log files are written (each before
its row), its rows not, so `--resume` plays those matches again, to the same results and the same
bytes (every match is seeded by its place in the schedule), overwriting their logs.
"""

from __future__ import annotations

import threading
import time
from typing import Callable

from .store import DB_NAME, Store, connect
from .work import MatchOutcome

COMMIT_MATCHES = 64
COMMIT_SECONDS = 0.5  # a live view refreshes every 3 s (runner/web/static/watch.js)

Commit = Callable[[list[MatchOutcome], Store], None]  # stores the outcomes into the given store, in one transaction


class GroupedCommits:
    """Calls `commit(outcomes, store)` for groups of the outcomes handed to `add`: at COMMIT_MATCHES, or when the
    oldest has waited COMMIT_SECONDS (from a thread with a connection of its own), and at `close`.

    The driver's thread commits into `store`; the timer's thread into a second connection to the same database,
    so that no connection is used by two threads. One lock orders the two: never two commits at once.
    """

    def __init__(self, store: Store, commit: Commit, matches: int | None = None, seconds: float | None = None):
        self.store, self.commit = store, commit
        self.matches = matches if matches is not None else COMMIT_MATCHES
        self.seconds = seconds if seconds is not None else COMMIT_SECONDS
        self.waiting: list[MatchOutcome] = []
        self.since: float | None = None  # when the oldest of `waiting` arrived (time.monotonic)
        self.lock = threading.Condition()
        self.timer: threading.Thread | None = None
        self.stopped = False
        self.failure: BaseException | None = None  # of a commit on the timer's thread: raised on the driver's

    def add(self, outcomes: list[MatchOutcome]) -> None:
        with self.lock:
            self._raise_failure()
            self.waiting.extend(outcomes)
            if len(self.waiting) >= self.matches:
                self._commit(self.store)
            elif self.since is None and self.waiting:
                self.since = time.monotonic()
                if self.timer is None:
                    self.timer = threading.Thread(target=self._time, name="maumau-commits", daemon=True)
                    self.timer.start()
                else:
                    self.lock.notify()

    def flush(self) -> None:
        """Commit whatever is waiting, now (before the standings are read from the store)."""
        with self.lock:
            self._raise_failure()
            self._commit(self.store)

    def close(self) -> None:
        """Commit what is waiting and end the timer's thread; the matches played are stored, interrupted or not."""
        with self.lock:
            self.stopped = True
            self.lock.notify()
        if self.timer is not None:
            self.timer.join()
        self.flush()

    def _commit(self, store: Store) -> None:
        """With the lock held: commit the waiting outcomes (kept, to be committed again, if the commit fails)."""
        if self.waiting:
            self.commit(self.waiting, store)
            self.waiting = []
        self.since = None

    def _raise_failure(self) -> None:
        if self.failure is not None:
            failure, self.failure = self.failure, None
            raise failure

    def _time(self) -> None:
        """The timer's thread: commit a group whose oldest match has waited `seconds`, until `close`."""
        own: Store | None = None
        try:
            with self.lock:
                while not self.stopped and self.failure is None:
                    if self.since is None:
                        self.lock.wait()
                        continue
                    left = self.since + self.seconds - time.monotonic()
                    if left > 0:
                        self.lock.wait(min(left, threading.TIMEOUT_MAX))
                        continue
                    try:
                        if own is None:
                            own = Store(self.store.directory, connect(self.store.directory / DB_NAME))
                        self._commit(own)
                    except BaseException as exc:  # a full disk, say: the driver raises it at its next step
                        self.failure = exc
        finally:
            if own is not None:
                own.db.close()
