"""The referee: asks each bot for an action within its time, checks it, and applies the fault policy.

A fault is an exception, an answer that is not one of `view.legal`, or a decision over the
time budget: `move_time` per decision, plus an optional per-match `time_bank` that covers
overruns until it is spent. In-process bots are interrupted at the budget (runner.deadline:
main thread, Python code only); bots in other processes (runner.external) are killed at it.
"""

from __future__ import annotations

import random
from time import perf_counter
from dataclasses import dataclass

from runner.game.actions import Action
from .deadline import DecisionTimeout, arm, disarm
from runner.game.engine import Round
from runner.errors import MaumauError
from runner.seats.external import BotFailure, RemoteBot
from runner.seats.botmaker import BotUnavailable
from runner.seats.protocol import NotAnAction, describe_answer, exception_text

POLICIES = ("forfeit", "autoplay", "abort")


@dataclass(frozen=True)
class Fault:
    """One fault a bot committed: an illegal action, an exception, or a timeout."""

    seat: int
    player: str
    kind: str  # illegal, exception, timeout
    detail: str
    round: int


class TournamentAborted(MaumauError):
    """The `abort` fault policy stopped the run."""


class Forfeit(Exception):
    """Raised inside a match when the policy takes a faulting seat out of it."""

    def __init__(self, fault: Fault):
        self.fault = fault


def check_fault_options(policy: str, move_time: float | None, time_bank: float) -> None:
    """Refuse a fault policy or time budget that makes no sense, naming the option."""
    if policy not in POLICIES:
        raise MaumauError(f"unknown --on-fault {policy!r}; use one of {', '.join(POLICIES)}")
    if move_time is not None and not move_time >= 0:
        raise MaumauError(f"--move-time must be a number of seconds (0: no limit), got {move_time:g}")
    if not time_bank >= 0:
        raise MaumauError(f"--time-bank must be a number of seconds, got {time_bank:g}")


class Referee:
    """Turns a bot's answer into a legal action, or into a fault handled by `policy`.

    One referee per match: it keeps the match's faults, each seat's time bank, and the seats
    whose bot was given up (timed out or its process died) and whose turns `autoplay` plays.
    """

    def __init__(self, policy: str = "forfeit", move_time: float | None = None, rng: random.Random | None = None,
                 time_bank: float = 0.0, seed: int | str | None = None):
        """`rng` drives `autoplay`; without one it is `random.Random(f"{seed}:autoplay")`, seeded when first needed."""
        if policy not in POLICIES:
            raise MaumauError(f"unknown fault policy {policy!r}; use one of {', '.join(POLICIES)}")
        if move_time is not None and move_time <= 0:
            move_time = None  # 0 means no limit
        self.policy, self.move_time, self.time_bank = policy, move_time, max(0.0, time_bank or 0.0)
        self._rng, self._seed = rng, seed
        self.faults: list[Fault] = []
        self.banks: dict[int, float] = {}
        self.given_up: set[int] = set()
        self.thinking: dict[int, list[float]] = {}  # per seat: decisions, seconds, slowest (reports only)

    @property
    def rng(self) -> random.Random:
        """The generator of `autoplay` (seeding one costs more than a dozen decisions: only when needed)."""
        if self._rng is None:
            self._rng = random.Random(0 if self._seed is None else f"{self._seed}:autoplay")
        return self._rng

    def decide(self, rnd: Round, bot, player: str) -> Action:
        """The action for the seat to act; raises Forfeit or TournamentAborted per the policy."""
        seat = rnd.current
        if seat in self.given_up:
            return self._autoplay(rnd)
        view = rnd.view()
        move_time = self.move_time  # the budget: the move time plus what is left of the seat's bank
        budget = None if move_time is None else move_time + self.banks.setdefault(seat, self.time_bank)
        if isinstance(bot, RemoteBot):
            try:
                bot.prepare(view)  # start-up and handshake are not charged to the bot's clock
                started = perf_counter()
                answer = bot.act_within(view, budget)
            except BotFailure as failure:
                return self._fault(rnd, player, failure.kind, failure.detail, give_up=failure.give_up)
        else:  # the hot path of every in-process match: the bot called right here, no helper layers
            started = perf_counter()
            armed = budget is not None and arm(budget, started)
            problem = None
            try:
                try:
                    answer = bot.act(view)
                except (DecisionTimeout, KeyboardInterrupt):
                    raise
                except BotUnavailable as exc:
                    problem = ("unavailable", str(exc))
                except BaseException as exc:  # SystemExit too: a bot's own failure never stops the runner
                    problem = ("exception", exception_text(exc))  # still within the deadline: __str__ is the bot's code
                finally:
                    if armed:
                        disarm()
            except DecisionTimeout as exc:
                if armed:
                    problem = ("timeout", f"still deciding at the budget of {budget:.3f}s; interrupted")
                else:  # raised by the bot itself, with no deadline running
                    problem = ("exception", exception_text(exc))
            if problem is not None:
                kind, detail = problem
                if kind == "unavailable":
                    return self._fault(rnd, player, "exception", detail, give_up=True)
                return self._fault(rnd, player, kind, detail, give_up=kind == "timeout")
        elapsed = perf_counter() - started
        stats = self.thinking.get(seat)
        if stats is None:
            stats = self.thinking[seat] = [0, 0.0, 0.0]
        stats[0] += 1
        stats[1] += elapsed
        if elapsed > stats[2]:
            stats[2] = elapsed
        if budget is not None and elapsed > move_time and self._charge(seat, elapsed):
            detail = f"took {elapsed:.3f}s, budget {budget:.3f}s"
            return self._fault(rnd, player, "timeout", detail, give_up=True)
        action = rnd.canonical(answer)
        if action is None:
            detail = answer.detail if type(answer) is NotAnAction else f"{describe_answer(answer)} is not legal now"
            return self._fault(rnd, player, "illegal", detail)
        return action

    def _charge(self, seat: int, elapsed: float) -> bool:
        """Take an overrun of the move time from the seat's bank; True if the bank cannot cover it."""
        over = elapsed - self.move_time
        if over <= 0:
            return False
        self.banks[seat] -= over
        return self.banks[seat] < 0

    def _fault(self, rnd: Round, player: str, kind: str, detail: str, give_up: bool = False) -> Action:
        fault = Fault(rnd.current, player, kind, detail, rnd.number)
        self.faults.append(fault)
        if rnd.log is not None:
            rnd.log.append({"type": "fault", "seat": fault.seat, "kind": kind, "detail": detail})
        if self.policy == "abort":
            raise TournamentAborted(f"bot {player!r} (seat {fault.seat}) committed a fault ({kind}): {detail}")
        if self.policy == "autoplay":
            if give_up:  # a bot that hung or died is not asked again this match
                self.given_up.add(fault.seat)
            return self._autoplay(rnd)
        raise Forfeit(fault)

    def _autoplay(self, rnd: Round) -> Action:
        legal = rnd.legal()
        return legal[int(self.rng.random() * len(legal))]


# ---------------------------------------------------------------- in-process decisions
