"""Budgets of an in-process bot's decision: its CPU time, and a wall-clock cap, kept by a watchdog thread.

A decision may use `cpu` seconds of the main thread's CPU time, and take at most `wall` seconds
of wall clock (the cap that catches a bot that sleeps, blocks or waits). CPU time does not grow
while the machine is busy with other work, so a bot's decisions are judged alike on a busy
machine and on an idle one.

Per decision the main thread reads its CPU clock once (the caller passes the reading) and writes
the budgets. A daemon thread looks every few milliseconds, compares the main thread's CPU clock
and the time since the start with them and, once one is passed, sends SIGALRM to the main
thread, whose handler raises DecisionTimeout in the bot's code; it repeats until the bot
returns, so swallowing one is not enough. Python delivers signals only to the main thread and
only between bytecodes: a bot stuck in C code is not interrupted (the referee still records its
timeout when it returns).
"""

from __future__ import annotations

import _signal  # signal.getsignal without the enum conversion signal's wrapper adds (~6 µs)
import math
import os
import signal
import threading
import time

POLL = 0.005  # seconds between the watchdog's looks: the precision of an interruption
REPEAT = 0.05  # seconds between repeated interruptions of a bot that swallowed one


class DecisionTimeout(BaseException):
    """Raised inside an in-process bot over a budget (a BaseException: `except Exception` does not catch it).

    `over` is "cpu" or "wall": which budget the decision passed.
    """

    def __init__(self, over: str = "cpu"):
        super().__init__(over)
        self.over = over


class _State:
    """The running decision's budgets and the watchdog: one instance, `_state` (compiled, a C struct:
    runner/seats/deadline.pxd)."""

    def __init__(self) -> None:
        self.armed = False
        self.wall_at = math.inf  # time.perf_counter() by which the running decision must end: the wall-clock cap
        self.cpu_at = math.inf  # the main thread's CPU clock (time.thread_time()) by which it must end
        self.main = threading.main_thread().ident or 0
        self.clock: int | None = None  # the main thread's CPU-time clock (time.pthread_getcpuclockid)
        self.watchdog: threading.Thread | None = None


_state = _State()
_INFINITY = math.inf
# What arm() calls each decision, bound once: a module's attribute costs a look-up per call (compiled as well)
_get_ident, _getsignal = threading.get_ident, _signal.getsignal
_SIGALRM = getattr(signal, "SIGALRM", 0)  # an int, not signal's enum, which _signal takes as it is


def _over(cpu_now: float) -> str | None:
    """Which budget the running decision has passed ("wall", "cpu"), if any, its thread's CPU clock at `cpu_now`."""
    if time.perf_counter() >= _state.wall_at:
        return "wall"
    return "cpu" if cpu_now >= _state.cpu_at else None


def _on_alarm(signum, frame) -> None:
    # the authority is here, in the main thread: a late or stray SIGALRM is ignored
    if _state.armed:
        over = _over(time.thread_time())
        if over is not None:
            raise DecisionTimeout(over)


def _watch() -> None:
    clock_gettime = time.clock_gettime
    while True:
        time.sleep(POLL)
        if _state.armed and _over(clock_gettime(_state.clock)) is not None:
            if _getsignal(_SIGALRM) is not _on_alarm:
                continue  # someone replaced our handler: SIGALRM's default action would kill the process
            signal.pthread_kill(_state.main, _SIGALRM)
            time.sleep(REPEAT)


def _after_fork() -> None:
    _state.main, _state.watchdog, _state.armed, _state.clock = threading.get_ident(), None, False, None


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork)

AVAILABLE = hasattr(signal, "pthread_kill") and hasattr(signal, "SIGALRM") and hasattr(time, "pthread_getcpuclockid")


def _start_watchdog() -> None:
    """The handler of SIGALRM and the watchdog thread, once a process (again after a fork)."""
    _state.clock = time.pthread_getcpuclockid(_state.main)
    _state.watchdog = threading.Thread(target=_watch, name="maumau-deadline", daemon=True)
    _state.watchdog.start()


def arm(cpu: float | None, wall: float | None, start: float, cpu_start: float = 0.0) -> bool:
    """Interrupt the main thread with DecisionTimeout once the decision begun at `start` (a `time.perf_counter()`
    reading) has used `cpu` seconds of CPU time from `cpu_start` (a `time.thread_time()` reading) or lasted `wall`
    seconds (None: no such budget), until `disarm()`.

    False (nothing armed) outside the main thread of a POSIX process, where no interruption is possible.
    """
    if not AVAILABLE or _get_ident() != _state.main:
        return False
    if _getsignal(_SIGALRM) is not _on_alarm:  # each decision: a bot may have replaced it in the last one
        signal.signal(_SIGALRM, _on_alarm)
    if _state.watchdog is None:
        _start_watchdog()
    _state.wall_at = _INFINITY if wall is None else start + wall
    _state.cpu_at = _INFINITY if cpu is None else cpu_start + cpu
    _state.armed = True
    return True


def disarm() -> None:
    """End the budgets set by `arm`: a late SIGALRM is then ignored."""
    _state.armed = False
