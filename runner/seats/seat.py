"""The one interface the referee calls for every seat, and the in-process seat: a Bot called under its deadline.

The referee asks each seat `prepare(view)` (start-up, never charged to the bot's clock), then
`act_within(view, budget, started)`: the seat's answer (not yet checked for legality), or a
SeatFailure saying which fault it was and whether to ask the seat again this match. A seat whose
bot runs in another process (runner/seats/external.py) implements the same two methods.
"""

from __future__ import annotations

from runner.errors import exception_text, raised_by_user
from runner.game.bot import Bot
from runner.game.view import View

from .deadline import DecisionTimeout, arm, disarm


class SeatFailure(Exception):
    """A seat's bot failed to answer: `kind` is a fault kind; `give_up`: do not ask it again this match."""

    def __init__(self, kind: str, detail: str, give_up: bool):
        super().__init__(detail)
        self.kind, self.detail, self.give_up = kind, detail, give_up


class BotUnavailable(Exception):
    """Raised by a stand-in bot that can never act (its constructor failed): a fault, and it is given up."""


class Seat:
    """What the referee asks for a decision."""

    def prepare(self, view: View) -> None:
        """Get ready for a decision on `view` (start a process, say hello): not timed."""

    def act_within(self, view: View, budget: float | None, started: float) -> object:
        """The answer to `view` within `budget` seconds from `started` (a perf_counter reading), or SeatFailure."""
        raise NotImplementedError


class LocalSeat(Seat):
    """A Bot in this process: called directly, and interrupted at its budget (runner/seats/deadline.py)."""

    __slots__ = ("bot", "act")

    def __init__(self, bot: Bot):
        self.bot = bot
        self.act = bot.act

    def act_within(self, view: View, budget: float | None, started: float) -> object:
        # the hot path of every in-process match: no helper layers between the referee and the bot
        armed = budget is not None and arm(budget, started)
        try:
            try:
                return self.act(view)
            except DecisionTimeout:
                raise
            except BotUnavailable as exc:
                failure = SeatFailure("exception", str(exc), give_up=True)
            except BaseException as exc:  # SystemExit and its own KeyboardInterrupt too: a bot never stops the runner
                if raised_by_user(exc):  # the user's Ctrl-C, which landed in the bot's code
                    raise
                failure = SeatFailure("exception", exception_text(exc), give_up=False)  # still within the deadline
            finally:
                if armed:
                    disarm()
        except DecisionTimeout as exc:
            if not armed:  # raised by the bot itself, with no deadline running
                raise SeatFailure("exception", exception_text(exc), give_up=False) from None
            raise SeatFailure("timeout", f"still deciding at the budget of {budget:.3f}s; "
                                         "interrupted", give_up=True) from None
        raise failure


def as_seat(bot: Bot | Seat) -> Seat:
    """`bot` as the referee asks it: a Seat as it is, an in-process Bot wrapped in a LocalSeat."""
    return bot if isinstance(bot, Seat) else LocalSeat(bot)
