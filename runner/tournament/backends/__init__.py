"""Execution backends: where a tournament's work units are played (this process, a process pool, a Dask cluster).

The factory lives here, above the backends it chooses from, so that no backend imports another's module.
"""

from __future__ import annotations

from runner.errors import MaumauError

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
        raise MaumauError(f"--scheduler is the address of a Dask cluster: use it with --backend dask, not {name!r}")
    if name == "serial":
        if workers not in (None, 1):  # silently playing on one core would look like a slow pool
            raise MaumauError(f"--workers {workers} has no effect with --backend serial, which plays every match "
                              "in this process; drop --workers or use --backend processes")
        return SerialBackend()
    if name == "processes":
        return ProcessBackend(workers)
    raise MaumauError(f"unknown --backend {name!r}; use one of {', '.join(BACKENDS)}")


__all__ = ["BACKENDS", "Backend", "BatchSizer", "OnResults", "ProcessBackend", "SerialBackend", "batched",
           "default_workers", "make_backend"]
