"""Interrupting an in-process bot at its deadline: a watchdog thread that signals the main thread.

Per decision the main thread only writes its deadline (no system call: arming a timer costs
more than a random bot's whole decision). A daemon thread polls it every few milliseconds and,
once it has passed, sends SIGALRM to the main thread, whose handler raises DecisionTimeout in
the bot's code; it repeats until the bot returns, so swallowing one is not enough. Python
delivers signals only to the main thread and only between bytecodes: a bot stuck in C code is
not interrupted (the referee still records its timeout when it returns).
"""

from __future__ import annotations

import _signal  # signal.getsignal without the enum conversion signal's wrapper adds (~6 µs)
import os
import signal
import threading
import time

POLL = 0.005  # seconds between the watchdog's looks: the precision of an interruption
REPEAT = 0.05  # seconds between repeated interruptions of a bot that swallowed one


class DecisionTimeout(BaseException):
    """Raised inside an in-process bot at its deadline (a BaseException: `except Exception` does not catch it)."""


class _State:
    deadline = 0.0  # time.perf_counter() by which the running decision must end (a monotonic clock)
    armed = False
    main = threading.main_thread().ident
    watchdog: threading.Thread | None = None


def _on_alarm(signum, frame) -> None:
    # the authority is here, in the main thread: a late or stray SIGALRM is ignored
    if _State.armed and time.perf_counter() >= _State.deadline:
        raise DecisionTimeout()


def _watch() -> None:
    while True:
        time.sleep(POLL)
        if _State.armed and time.perf_counter() >= _State.deadline:
            if _signal.getsignal(signal.SIGALRM) is not _on_alarm:
                continue  # someone replaced our handler: SIGALRM's default action would kill the process
            signal.pthread_kill(_State.main, signal.SIGALRM)
            time.sleep(REPEAT)


def _after_fork() -> None:
    _State.main, _State.watchdog, _State.armed = threading.get_ident(), None, False


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork)

AVAILABLE = hasattr(signal, "pthread_kill") and hasattr(signal, "SIGALRM")


def arm(seconds: float, start: float | None = None) -> bool:
    """Interrupt the main thread with DecisionTimeout `seconds` after `start`, until `disarm()`.

    `start` is a `time.perf_counter()` reading (default: now): a caller that has just read the
    clock passes its reading, which saves a second read per decision.

    False (nothing armed) outside the main thread of a POSIX process, where no interruption is possible.
    """
    if not AVAILABLE or threading.get_ident() != _State.main:
        return False
    if _signal.getsignal(signal.SIGALRM) is not _on_alarm:
        signal.signal(signal.SIGALRM, _on_alarm)
    if _State.watchdog is None:
        _State.watchdog = threading.Thread(target=_watch, name="maumau-deadline", daemon=True)
        _State.watchdog.start()
    _State.deadline = (time.perf_counter() if start is None else start) + seconds
    _State.armed = True
    return True


def disarm() -> None:
    """End the deadline set by `arm`: a late SIGALRM is then ignored."""
    _State.armed = False

