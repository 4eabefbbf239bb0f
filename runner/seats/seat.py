"""The one interface the referee calls for every seat, and the in-process seat: a Bot called under its deadline.

The referee asks each seat `prepare(view)` (start-up, never charged to the bot's clock), then
`act_within(view, budget, started, wall)`: the seat's answer (not yet checked for legality), or a
SeatFailure saying which fault it was and whether to ask the seat again this match; then
`cpu_used(elapsed)`, the bot's CPU time in that decision, which its budget is counted in. A seat
whose bot runs in another process (runner/seats/external.py) implements the same methods.
"""

from __future__ import annotations

import math
import os
from threading import get_ident
from time import thread_time

from runner.errors import exception_text, raised_by_user
from runner.game.bot import Bot
from runner.game.view import View

from .deadline import DecisionTimeout, arm, disarm
from .protocol import exception_traceback

# A decision's CPU time is counted from its thread's CPU clock, a system call (about 0.6 us: with a budget, a sixth of
# what a random bot's decision costs), read at most once per CLOCK_SLACK seconds of wall clock per thread. A decision
# begun sooner after a reading counts from that reading plus the wall time since (`started`, the referee's
# perf_counter): at least the clock at its start, as a thread's CPU time grows no faster than wall time. So no decision
# is charged for time before it began; one may use up to CLOCK_SLACK more CPU time than its budget before it is caught.
CLOCK_SLACK = 0.001
_clock = [0, -math.inf, 0.0]  # the thread the clock was read in, when (perf_counter), what it read (thread_time)


def _forget_clock() -> None:
    _clock[:] = [0, -math.inf, 0.0]  # a forked child's thread counts its CPU time from zero


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_clock)


def cpu_clock(started: float) -> float:
    """This thread's CPU clock at `started` (a perf_counter reading just taken), or at most CLOCK_SLACK above it."""
    thread = get_ident()
    since = started - _clock[1]
    if 0.0 <= since < CLOCK_SLACK and thread == _clock[0]:
        return _clock[2] + since
    now = thread_time()
    _clock[0], _clock[1], _clock[2] = thread, started, now
    return now


class SeatFailure(Exception):
    """A seat's bot failed to answer: `kind` is a fault kind; `give_up`: do not ask it again this match."""

    def __init__(self, kind: str, detail: str, give_up: bool, traceback: str = ""):
        super().__init__(detail)
        self.kind, self.detail, self.give_up, self.traceback = kind, detail, give_up, traceback


class BotUnavailable(Exception):
    """Raised by a stand-in bot that can never act (its constructor failed): a fault, and it is given up.

    `traceback` is the constructor's.
    """

    def __init__(self, message: str, traceback: str = ""):
        super().__init__(message)
        self.traceback = traceback


def bot_failure(exc: BaseException) -> SeatFailure | None:
    """The fault of an exception raised by an in-process bot's `act` outside a timeout of ours, or None for the
    user's Ctrl-C (which the caller raises again). Call it in the `except` clause that caught `exc` around the call
    of the bot: the traceback names the bot's files and lines from the frame below it."""
    if isinstance(exc, BotUnavailable):  # a stand-in for a bot that could not be built: never asked again
        return SeatFailure("exception", str(exc), give_up=True, traceback=exc.traceback)
    if raised_by_user(exc):
        return None
    return SeatFailure("exception", exception_text(exc), give_up=False, traceback=exception_traceback(exc))


class Seat:
    """What the referee asks for a decision."""

    __slots__ = ()  # so that a LocalSeat, made for every seat of every match, has no dict (a subclass may have one)

    # The bot computes in one thread, so its CPU time in a decision is at most the decision's wall time:
    # the referee need not read the CPU clock after a decision shorter than the move time.
    one_thread = False

    def prepare(self, view: View) -> None:
        """Get ready for a decision on `view` (start a process, say hello): not timed."""

    def act_within(self, view: View, budget: float | None, started: float, wall: float | None = None) -> object:
        """The answer to `view`, or SeatFailure: within `budget` seconds of the bot's CPU time and `wall` seconds
        of wall clock from `started` (a perf_counter reading); None: no such limit."""
        raise NotImplementedError

    def cpu_used(self, elapsed: float) -> float:
        """The bot's CPU seconds in the decision just answered, which took `elapsed` seconds of wall clock."""
        return elapsed


class LocalSeat(Seat):
    """A Bot in this process: called directly, and interrupted over its budgets (runner/seats/deadline.py)."""

    __slots__ = ("bot", "act", "cpu_start")
    one_thread = True

    def __init__(self, bot: Bot):
        self.bot = bot
        self.act = bot.act
        self.cpu_start = 0.0  # this thread's CPU clock at the start of the decision (with a CPU budget)

    def act_within(self, view: View, budget: float | None, started: float, wall: float | None = None) -> object:
        # the hot path of every in-process match: no helper layers between the referee and the bot
        cpu_start = 0.0
        if budget is not None:
            cpu_start = self.cpu_start = cpu_clock(started)  # the decision's CPU time is counted from here
        armed = (budget is not None or wall is not None) and arm(budget, wall, started, cpu_start)
        try:
            try:
                return self.act(view)
            except DecisionTimeout:
                raise
            except BaseException as exc:  # SystemExit and its own KeyboardInterrupt too: a bot never stops the runner
                # still within the deadline: __str__ is the bot's code
                failure = bot_failure(exc)
                if failure is None:  # the user's Ctrl-C, which landed in the bot's code
                    raise
            finally:
                if armed:
                    disarm()
        except DecisionTimeout as exc:
            if armed:
                if exc.over == "wall":
                    raise SeatFailure("timeout", f"still deciding after {wall:.3f}s of wall clock, the cap for a bot "
                                      "that sleeps, blocks or waits (--wall-time); interrupted", give_up=True) from None
                raise SeatFailure("timeout", f"used its budget of {budget:.3f}s of CPU time; interrupted",
                                  give_up=True) from None
            failure = bot_failure(exc)  # raised by the bot itself, with no deadline running: an exception
        raise failure

    def cpu_used(self, elapsed: float) -> float:
        return thread_time() - self.cpu_start


def as_seat(bot: Bot | Seat) -> Seat:
    """`bot` as the referee asks it: a Seat as it is, an in-process Bot wrapped in a LocalSeat."""
    return bot if isinstance(bot, Seat) else LocalSeat(bot)
