"""Execution backends: where a tournament's work units are played (this process, a process pool, a Dask cluster).

The factory lives here, above the backends it chooses from, so that no backend imports another's module.
"""

from __future__ import annotations

from runner.errors import InvalidSetting

from .base import Backend, BatchSizer, OnResults, batched, default_workers
from .processes import ProcessBackend
from .serial import SerialBackend

BACKENDS = ("processes", "serial", "dask")


def make_backend(name: str, workers: int | None = None, scheduler: str | None = None) -> Backend:
    """The backend called `name` (`serial`, `processes`, or `dask` on the cluster at `scheduler`)."""
    if name == "dask":
        from .dask import DaskBackend  # Dask is an optional extra, imported only here

        return DaskBackend(scheduler, workers)
    if scheduler:
        raise InvalidSetting(f"{{0}} is the address of a Dask cluster: use it with {{1}} dask, not {name!r}",
                             "scheduler", "backend")
    if name == "serial":
        if workers not in (None, 1):  # silently playing on one core would look like a slow pool
            raise InvalidSetting(f"{{0}} {workers} has no effect with {{1}} serial, which plays every match "
                                 "in this process; drop {0} or use {1} processes", "workers", "backend")
        return SerialBackend()
    if name == "processes":
        return ProcessBackend(workers)
    raise InvalidSetting(f"unknown {{0}} {name!r}; use one of {', '.join(BACKENDS)}", "backend")


__all__ = ["BACKENDS", "Backend", "BatchSizer", "OnResults", "ProcessBackend", "SerialBackend", "batched",
           "default_workers", "make_backend"]
