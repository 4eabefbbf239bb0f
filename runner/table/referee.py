"""The referee: asks each seat for an action within its time, checks it, and applies the fault policy.

A fault is an exception, an answer that is not one of `view.legal`, or a decision over the
time budget: `move_time` seconds of the bot's CPU time per decision, plus an optional per-match
`time_bank` that covers overruns until it is spent, and a wall-clock cap per decision for a bot
that sleeps, blocks or waits (runner/seats/faults.py). The referee asks every seat through one interface
(runner/seats/seat.py): an in-process bot is interrupted at the budget (main thread, Python code
only); a bot in another process is killed at it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from time import perf_counter

from runner.errors import MaumauError
from runner.game import events
from runner.game.actions import Action
from runner.game.engine import OVER, Round
from runner.seats.faults import FaultSettings
from runner.seats.protocol import NotAnAction, describe_answer
from runner.seats.seat import LocalSeat, Seat, SeatFailure, bot_failure

_DEFAULT_FAULTS = FaultSettings()  # frozen: one for every referee made without settings


@dataclass(frozen=True, kw_only=True)
class Fault:
    """One fault a bot committed: an illegal action, an exception, or a timeout."""

    seat: int
    player: str
    kind: str  # illegal, exception, timeout
    detail: str
    round: int
    traceback: str = ""  # of an exception: where in the bot's code it was raised (file, line)


class TournamentAborted(MaumauError):
    """The `abort` fault policy stopped the run."""


class Forfeit(Exception):
    """Raised inside a match when the policy takes a faulting seat out of it."""

    def __init__(self, fault: Fault):
        self.fault = fault


class Referee:
    """Turns a seat's answer into a legal action, or into a fault handled by the fault settings' policy.

    One referee per match: it keeps the match's faults, each seat's time bank, and the seats
    whose bot was given up (timed out or its process died) and whose turns `autoplay` plays.
    `thinking` (decisions, seconds and the slowest per seat) is kept where a decision is timed:
    under a budget or a wall cap, or always where `times_decisions` is set (check-bot's report).
    """

    times_decisions = False  # read the clock around every decision, even with nothing to enforce (a class attribute)
    # one referee a match: its attributes in slots, set for less than in a dict (a subclass may add its own)
    __slots__ = ("settings", "policy", "move_time", "time_bank", "faults", "banks", "given_up", "thinking",
                 "_rng", "_seed", "_wall", "_walls", "_untimed")

    def __init__(self, faults: FaultSettings | None = None, *, rng: random.Random | None = None,
                 seed: int | str | None = None):
        """`rng` drives `autoplay`; without one it is `random.Random(f"{seed}:autoplay")`, seeded when first needed."""
        self.settings = faults = faults if faults is not None else _DEFAULT_FAULTS
        self.policy, self.move_time, self.time_bank = faults.policy, faults.move_time, faults.time_bank
        self._rng, self._seed = rng, seed
        self.faults: list[Fault] = []
        self.banks: dict[int, float] = {}
        self.given_up: set[int] = set()
        self.thinking: dict[int, list[float]] = {}  # per seat: decisions, seconds, slowest (where timed)
        self._wall = faults.wall_cap(None)  # the wall-clock cap of a decision without a CPU budget
        self._walls: dict[float, float | None] = {}  # the wall-clock cap of each CPU budget seen
        # nothing to time or enforce: an in-process bot is called directly, without its seat's deadline machinery
        self._untimed = self.move_time is None and self._wall is None and not self.times_decisions

    @property
    def rng(self) -> random.Random:
        """The generator of `autoplay` (seeding one costs more than a dozen decisions: only when needed)."""
        if self._rng is None:
            self._rng = random.Random(0 if self._seed is None else f"{self._seed}:autoplay")
        return self._rng

    def decide(self, rnd: Round, seat: Seat, player: str) -> Action:
        """The action for the seat to act, asked of `seat`; raises Forfeit or TournamentAborted per the policy."""
        index = rnd.current
        if index in self.given_up:
            return self._autoplay(rnd)
        if self._untimed and type(seat) is LocalSeat:  # the usual decision: one call of the bot, no clock read
            return _ask(self, rnd, seat, player)
        return _timed(self, rnd, seat, player)

    def play(self, rnd: Round, seats: list[Seat], players: list[str]) -> tuple[int, Forfeit | None]:
        """Ask the seat to act for each decision and carry its action out, until the round is over or a seat
        forfeits: the decisions made, and the Forfeit (None: the round is over). `seats` and `players` by seat."""
        # a subclass's `decide` is asked for every decision; this class's untimed in-process one is made in the loop
        return _play(self, rnd, seats, players, type(self) is Referee and self._untimed)

    def _checked(self, rnd: Round, player: str, answer: object) -> Action:
        """The engine's legal action that `answer` asks for, or the fault of an illegal answer."""
        action = rnd.canonical(answer)
        if action is None:
            detail = answer.detail if type(answer) is NotAnAction else f"{describe_answer(answer)} is not legal now"
            return self._fault(rnd, player, "illegal", detail)
        return action

    def _overrun(self, rnd: Round, seat: Seat, player: str, elapsed: float, budget: float | None,
                 wall: float | None) -> Action | None:
        """The fault of a decision that took `elapsed` seconds of wall clock, over the wall cap or its budget of
        CPU time (the action that replaces the answer), or None."""
        if wall is not None and elapsed > wall:  # not interrupted (a bot in C code, or no watchdog here)
            detail = f"took {elapsed:.3f}s of wall clock, over the cap of {wall:.3f}s (--wall-time)"
            return self._fault(rnd, player, "timeout", detail, give_up=True)
        move_time = self.move_time
        if budget is not None and move_time is not None:
            cpu = seat.cpu_used(elapsed)
            if cpu > move_time and self._charge(rnd.current, cpu):
                detail = f"used {cpu:.3f}s of CPU time, budget {budget:.3f}s"
                return self._fault(rnd, player, "timeout", detail, give_up=True)
        return None

    def _charge(self, seat: int, cpu: float) -> bool:
        """Take an overrun of the move time (in CPU seconds) from the seat's bank; True if the bank cannot cover it."""
        over = cpu - self.move_time
        if over <= 0:
            return False
        self.banks[seat] -= over
        return self.banks[seat] < 0

    def _fault(self, rnd: Round, player: str, kind: str, detail: str, give_up: bool = False,
               traceback: str = "") -> Action:
        fault = Fault(seat=rnd.current, player=player, kind=kind, detail=detail, round=rnd.number, traceback=traceback)
        self.faults.append(fault)
        if rnd.log is not None:
            rnd.log.append(events.fault(fault.seat, kind, detail, traceback))
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


# The two functions below are of the module, not methods, so that where compiled their `rnd` is the engine's C class
# (runner/table/referee.pxd): a decision's view, legal actions and transition are C calls, its fields C reads.

def _play(referee: Referee, rnd: Round, seats: list[Seat], players: list[str],
          untimed: bool) -> tuple[int, Forfeit | None]:
    """`Referee.play`; `untimed`: an in-process bot's decision is `_ask`ed here, not through `referee.decide`."""
    decisions = 0
    given_up = referee.given_up  # the set itself: a fault adds to it
    plain = type(referee) is Referee  # not a subclass, whose `decide` is asked every decision
    over = OVER  # a local (a C variable, referee.pxd), not a global looked up each decision
    while rnd.phase != over:
        index = rnd.current
        seat = seats[index]
        try:
            if untimed and type(seat) is LocalSeat and not given_up:  # the usual decision (`decide` would ask so)
                action = _ask(referee, rnd, seat, players[index])
            elif plain and not given_up:  # a timed one, or another seat's: as `decide` would, without its call
                action = _timed(referee, rnd, seat, players[index])
            else:
                action = referee.decide(rnd, seat, players[index])
        except Forfeit as forfeit:
            return decisions, forfeit
        decisions += 1
        rnd.apply(action)
    return decisions, None


def _ask(referee: Referee, rnd: Round, seat: LocalSeat, player: str) -> Action:
    """An untimed decision of an in-process bot: its `act` called directly, without its seat's deadline machinery."""
    view = rnd.view()
    try:
        answer = seat.act(view)
    except BaseException as exc:  # as LocalSeat.act_within judges it without a deadline
        failure = bot_failure(exc)
        if failure is None:  # the user's Ctrl-C, which landed in the bot's code
            raise
        return referee._fault(rnd, player, failure.kind, failure.detail, give_up=failure.give_up,
                              traceback=failure.traceback)
    return _answered(referee, rnd, player, answer)


def _timed(referee: Referee, rnd: Round, seat: Seat, player: str) -> Action:
    """A decision under the referee's clock: its CPU budget and wall cap, or only its thinking counted."""
    index = rnd.current
    move_time = referee.move_time  # the CPU budget: the move time plus what is left of the seat's bank
    if move_time is None:
        bank = budget = None
        wall = referee._wall  # the cap without a budget: --wall-time, or none
    else:
        try:  # a subscript, not dict.get: no method call on a dict the compiled code does not know as one
            bank = referee.banks[index]
        except KeyError:
            bank = referee.banks[index] = referee.time_bank
        budget = move_time + bank
        try:  # the same budget, the same cap: until a bank pays for an overrun
            wall = referee._walls[budget]
        except KeyError:
            wall = referee._walls[budget] = referee.settings.wall_cap(budget)
    view = rnd.view(None, move_time, bank)  # the bot sees its clock
    # the clock is read only where something is timed: a budget, a wall cap, or the thinking kept for reports
    clocked = budget is not None or wall is not None or referee.times_decisions
    try:
        if type(seat) is not LocalSeat:  # an in-process bot needs no start-up
            seat.prepare(view)  # start-up and handshake of a bot process are not charged to the bot's clock
        started = perf_counter() if clocked else 0.0
        answer = seat.act_within(view, budget, started, wall)
    except SeatFailure as failure:
        return referee._fault(rnd, player, failure.kind, failure.detail, give_up=failure.give_up,
                              traceback=failure.traceback)
    if clocked:
        elapsed = perf_counter() - started
        try:  # counted here, not in a method: a timed decision's every step costs
            stats = referee.thinking[index]
        except KeyError:
            stats = referee.thinking[index] = [0, 0.0, 0.0]
        stats[0] += 1
        stats[1] += elapsed
        if elapsed > stats[2]:
            stats[2] = elapsed
        # an overrun is possible only past the wall cap, or past the move time (a bot's CPU time in one thread,
        # as an in-process bot's is, is at most its wall time)
        if (wall is not None and elapsed > wall) or (budget is not None and (
                elapsed > move_time or (type(seat) is not LocalSeat and not seat.one_thread))):
            overrun = referee._overrun(rnd, seat, player, elapsed, budget, wall)
            if overrun is not None:
                return overrun
    return _answered(referee, rnd, player, answer)


def _answered(referee: Referee, rnd: Round, player: str, answer: object) -> Action:
    """The legal action `answer` asks for, or the fault of an illegal answer: the bot answered the view just made."""
    legal = rnd._legal  # view.legal, as the view just made left it
    if legal is not None:
        for action in legal:  # the usual answer: one of the legal actions itself (rnd.canonical checks it first too)
            if action is answer:
                return action
    return referee._checked(rnd, player, answer)
