"""What in-process bots leave: their output kept out of the runner's, their threads kept from holding it up.

An in-process bot shares the runner's `sys.stdout` and file descriptor 1, and so do the worker
processes a tournament starts; with both pointed at stderr for the time the bots play, the
standings (JSON, CSV or a table) on stdout are the runner's alone. A thread a bot started (not
a daemon) would keep a process alive after its work is done: the console script
(runner/cli/app.py) and the pool workers (runner/tournament/backends/processes.py) exit past it.
"""

from __future__ import annotations

import os
import sys
import threading
from contextlib import contextmanager
from typing import Iterator, TextIO


@contextmanager
def bots_print_to_stderr() -> Iterator[TextIO]:
    """While inside: `print` and writes to fd 1 (here and in processes started here) go to stderr.

    Yields the runner's own stdout, for what must reach the user while bots play (a human seat's prompts).
    """
    own = sys.stdout
    own.flush()
    saved = _dup(1)
    if saved is not None:
        os.dup2(2, 1)
    sys.stdout = sys.stderr
    try:
        yield own
    finally:
        sys.stdout.flush()
        sys.stdout = own
        if saved is not None:
            os.dup2(saved, 1)
            os.close(saved)


def _dup(fd: int) -> int | None:
    try:
        return os.dup(fd)
    except OSError:  # no such descriptor (a closed stdout): there is nothing to keep apart
        return None


def leftover_threads() -> list[threading.Thread]:
    """Threads that would keep this process running after the main thread is done (not daemons)."""
    return [t for t in threading.enumerate() if t is not threading.main_thread() and t.is_alive() and not t.daemon]


def exit_past_leftover_threads() -> None:
    """For threading's exit hook in a pool worker: exit at once if a leftover thread would hold the worker up
    (without atexit handlers, which a multiprocessing child never runs: they are its parent's)."""
    if leftover_threads():
        _flush()
        os._exit(0)


def exit_now(code: object) -> None:
    """Exit this (main) process with `code` (a SystemExit's) without waiting for leftover threads; atexit
    handlers still run."""
    import atexit

    _flush()
    atexit._run_exitfuncs()
    _flush()
    os._exit(code if isinstance(code, int) else (0 if code is None else 1))


def _flush() -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
