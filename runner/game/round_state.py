"""The state of one round: every field a Round holds, typed (the engine's methods are in runner/game/engine.py
and runner/game/house_rules.py)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence

from runner.accel import compiled

from .actions import Action
from .cards import Card
from .snapshot import shared
from .view import SHARED_FROM, Event, Resume, View

if TYPE_CHECKING:
    from .events import DictFeed
    from .tables import Game


# runner.accel.LINKED: the engine's modules run compiled together or not at all.
COMPILED = compiled(__spec__)


def slot_offset(cls: type, name: str) -> int:
    """Where instances of `cls` hold its __slots__ field `name`, for the compiled engine to read it there
    (runner/game/round_state.pxd: _slot) instead of looking it up by name; -1 in pure Python, which looks it up."""
    if COMPILED:
        return _slot_offset(cls.__dict__[name])  # type: ignore[name-defined]  # noqa: F821  # round_state.pxd
    return -1


def view_of(seat, hand, top, suit, phase, pending, direction, hand_sizes, stock_size, discard, totals, rounds_won,
            round, active, ruleset, history, legal, again=False, chain=0, missed=None, turns=0, idle=0, out=(),
            wish=None, wish_left=0, pending_skip=0, free=False, next_rank=None, waits=(), shown=(), out_order=(),
            pending_card=None, pending_from=-1, skip_card=None, deferred=0, resume=None, move_time=None,
            time_bank=None) -> View:
    """The View of these fields, each given by name: the one place a View's fields are put in order (the engine's
    Views, `RoundState._view`, and the protocol's, runner/seats/protocol.py). The parameters are the View's fields in
    its order, with its defaults (tests/test_view_sharing.py checks both); compiled, a call by name is a C call."""
    if COMPILED:  # the View filled from the arguments: no tuple of them made and freed (round_state.pxd)
        return _view_new(  # type: ignore[name-defined]  # noqa: F821  # runner/game/round_state.pxd
            View, seat, hand, top, suit, phase, pending, direction, hand_sizes, stock_size, discard, totals,
            rounds_won, round, active, ruleset, history, legal, again, chain, missed, turns, idle, out, wish, wish_left,
            pending_skip, free, next_rank, waits, shown, out_order, pending_card, pending_from, skip_card, deferred,
            resume, move_time, time_bank)
    return tuple.__new__(View, (seat, hand, top, suit, phase, pending, direction, hand_sizes, stock_size, discard,
                                totals, rounds_won, round, active, ruleset, history, legal, again, chain, missed,
                                turns, idle, out, wish, wish_left, pending_skip, free, next_rank, waits, shown,
                                out_order, pending_card, pending_from, skip_card, deferred, resume, move_time,
                                time_bank))


def _instance(cls, fields: tuple):
    """`tuple.__new__(cls, fields)`: an Event (or any NamedTuple) from the tuple of its fields, without the
    NamedTuple's Python-level __new__; compiled, the instance allocated and filled in C as tuple's own constructor
    does it (runner/game/round_state.pxd), without a look-up of `tuple.__new__` and a call through its wrapper."""
    if COMPILED:
        return _tuple_new(cls, fields)  # type: ignore[name-defined]  # noqa: F821  # runner/game/round_state.pxd
    return tuple.__new__(cls, fields)



def _sizes(hands: list) -> tuple[int, ...]:
    """The length of each hand, for a View; compiled, a tuple filled in C (runner/game/round_state.pxd), without the
    list a comprehension makes and frees."""
    if COMPILED:
        return _sizes_of(hands)  # type: ignore[name-defined]  # noqa: F821  # runner/game/round_state.pxd
    return tuple([len(hand) for hand in hands])

@dataclass(frozen=True, slots=True)
class Outcome:
    """How a round ended: the seat that won it (None: nobody), and why it ended.

    `reason` is `went_out` (the winner played its last card; under round.play_on, the first to),
    `blocked` (a turn of every seat in play passed without a card played or drawn), `turn_limit`
    (the ruleset's turn_limit was reached), `forfeited` (all seats but at most one were taken out
    by the fault policy; the one left, if any, wins) or `hand_limit` (a seat held more cards than
    round.hand_limit allows).
    """

    winner: int | None
    reason: str


class RoundState:
    """The fields of a Round, in __slots__: plain values a compiled accelerator could hold as typed struct members."""

    __slots__ = (
        "rules", "rng", "n_seats", "active", "hands", "stock", "discard", "suit", "current", "phase",
        "pending", "chain", "direction", "again", "drawn", "missed", "idle", "turns", "winner",
        "dealer", "number", "totals", "rounds_won", "history", "log", "_legal", "out", "_after",
        "single_deck", "outcome", "general", "_seated",
        # the state of the house rules (runner/game/house_rules.py; at their defaults otherwise)
        "pending_card", "pending_from", "skip_pending", "skip_card", "waits", "deferred", "wish", "wish_left",
        "next_rank", "shown", "finished", "resume", "again_card", "out_card",
    )
    rules: Game
    rng: random.Random
    n_seats: int
    active: list[int]  # the seats dealt in, in seat order
    hands: list[list[Card]]  # per seat of the match; [] for a seat not dealt in
    stock: list[Card]  # top card last
    discard: list[Card]  # top card last
    suit: str | None  # the suit to follow (None after a joker)
    current: int
    phase: str
    pending: int  # a draw penalty waiting
    chain: int  # how often it was passed on
    direction: int
    again: bool  # the current seat takes an extra turn
    drawn: Card | None  # phase drawn: the card drawn (None under drawing.drawn_card go_on)
    missed: tuple[int, str] | None  # phase challenge: the seat that missed its announcement, and which
    idle: int
    turns: int
    winner: int | None
    dealer: int
    number: int
    totals: tuple[int, ...]
    rounds_won: tuple[int, ...]
    history: list[Event]
    log: list | DictFeed | None  # what the events are appended to (runner/game/events.py `sink`)
    _legal: tuple[Action, ...] | None
    out: set[int]  # forfeited
    _after: dict[int, tuple[int, ...]] | None
    _seated: tuple | None  # (the list `active`, its tuple): what a View holds of it, made once per list
    single_deck: bool
    outcome: Outcome | None
    general: bool  # the ruleset is played by the general path
    pending_card: Card | None  # the card whose draw penalty is pending
    pending_from: int  # the seat that played it (-1: none)
    skip_pending: int  # skips waiting to be answered or taken
    skip_card: Card | None
    waits: tuple[int, ...]  # per seat, turns still to miss; () while none
    deferred: int  # skips of a play-again card waiting for the turn to pass on
    wish: str | None  # a rank wished
    wish_left: int  # plays the wish still binds
    next_rank: tuple[str, str] | None
    shown: tuple[tuple[int, tuple[Card, ...]], ...]
    finished: tuple[int, ...]  # round.play_on: the seats out, in order
    resume: Resume | None  # a play being carried out while a seat decides
    again_card: Card | None  # the card whose extra turn it is
    out_card: Card | None  # the winner's last card

    def _made(self, cls, fields: tuple):
        """`tuple.__new__(cls, fields)`: an Event from the tuple of its fields (`_instance`)."""
        return _instance(cls, fields)

    def _view(self, seat: int, legal: tuple[Action, ...], move_time: float | None, time_bank: float | None) -> View:
        """The View of `seat` now, whose legal actions are `legal` (runner/game/engine.py `view`), on both paths."""
        rules, hands, discard, events = self.rules, self.hands, self.discard, self.history
        history: Sequence[Event]
        if rules.give or rules.take:  # a card given (or taken) is seen by the giver and the receiver only
            history = tuple([event if event.kind != "give" or seat in (event.seat, event.to)
                             else event._replace(card=None) for event in events])
        else:
            history = self._seen(events)  # shared (runner/game/snapshot.py)
        # By name, a C call where compiled (no comment inside the call: Cython then calls it as Python, by keyword).
        # The fast path tracks no pending_card: its Views say None, as they always did.
        return view_of(
            seat=seat, hand=tuple(hands[seat]), top=discard[-1], suit=self.suit, phase=self.phase,
            pending=self.pending, direction=self.direction, hand_sizes=_sizes(hands),
            stock_size=len(self.stock), discard=self._seen(discard), totals=self.totals, rounds_won=self.rounds_won,
            round=self.number, active=self._active_seen(), ruleset=rules.ruleset, history=history, legal=legal,
            again=self.again, chain=self.chain, missed=self.missed, turns=self.turns, idle=self.idle,
            out=tuple(sorted(self.out)) if self.out else (), wish=self.wish, wish_left=self.wish_left,
            pending_skip=self.skip_pending, free=bool(rules.free) and discard[-1] in rules.free,
            next_rank=self.next_rank, waits=self.waits, shown=self.shown, out_order=self.finished,
            pending_card=self.pending_card if self.pending and self.general else None, pending_from=self.pending_from,
            skip_card=self.skip_card if self.skip_pending else None, deferred=self.deferred, resume=self.resume,
            move_time=move_time, time_bank=time_bank,
        )

    def _active_seen(self) -> tuple[int, ...]:
        """`tuple(self.active)`, made once per list (the seats dealt in do not change during a round)."""
        seated = self._seated
        if seated is None or seated[0] is not self.active:
            seated = self._seated = (self.active, tuple(self.active))
        return seated[1]

    def _seen(self, items: list) -> Sequence:
        """What a View holds of the round's history or discard pile: a Prefix sharing the list (snapshot.py),
        or in pure Python, while the list is shorter than SHARED_FROM, a copy (cheaper there than a Prefix)."""
        if COMPILED or len(items) >= SHARED_FROM:
            return shared(items, len(items))  # type: ignore[return-value]  # a Sequence by registration (snapshot.py)
        return tuple(items)
