"""The state of one round: every field a Round holds, typed (the engine's methods are in runner/game/engine.py
and runner/game/house_rules.py)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence

from .actions import Action
from .cards import Card
from .snapshot import shared
from .view import SHARED_FROM, Event, Resume, View

if TYPE_CHECKING:
    from .events import DictFeed
    from .tables import Game


def _runs_compiled() -> bool:
    """Whether this module runs compiled, with the C function `_tuple_as` of runner/game/state.pxd."""
    try:
        _tuple_as  # type: ignore[name-defined]  # noqa: F821  # a name the compiled module alone has
    except NameError:
        return False
    return True


# runner.accel.LINKED: the engine's modules run compiled together or not at all.
COMPILED = _runs_compiled()


def slot_offset(cls: type, name: str) -> int:
    """Where instances of `cls` hold its __slots__ field `name`, for the compiled engine to read it there
    (runner/game/state.pxd: _slot) instead of looking it up by name; -1 in pure Python, which looks it up."""
    if COMPILED:
        return _slot_offset(cls.__dict__[name])  # type: ignore[name-defined]  # noqa: F821  # state.pxd
    return -1


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
        "_spare",
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
    _spare: View | None  # compiled: the View made last, refilled for the next decision once nobody holds it

    def _made(self, cls, fields: tuple):
        """`tuple.__new__(cls, fields)`: a View or Event from the tuple of its fields (`View(*fields)` without the
        NamedTuple's Python-level __new__). Compiled, a tuple just built becomes the instance without a copy."""
        if COMPILED:
            return _tuple_as(cls, fields)  # type: ignore[name-defined]  # noqa: F821  # runner/game/state.pxd
        return tuple.__new__(cls, fields)

    def _sizes(self) -> tuple[int, ...]:
        """The number of cards in each hand (a View's hand_sizes); compiled, a tuple made without a list between."""
        if COMPILED:
            return _sizes_of(self.hands)  # type: ignore[name-defined]  # noqa: F821  # runner/game/state.pxd
        return tuple([len(hand) for hand in self.hands])

    def _active_seen(self) -> tuple[int, ...]:
        """`tuple(self.active)`, made once per list (the seats dealt in do not change during a round)."""
        seated = self._seated
        if seated is None or seated[0] is not self.active:
            seated = self._seated = (self.active, tuple(self.active))
        return seated[1]

    def _seen(self, items: list) -> Sequence:
        """What a View holds of the round's history or discard pile: a Prefix sharing the list (runner/game/prefix.py),
        or in pure Python, while the list is shorter than SHARED_FROM, a copy (cheaper there than a Prefix)."""
        if COMPILED or len(items) >= SHARED_FROM:
            return shared(items, len(items))  # type: ignore[return-value]  # a Sequence by registration (snapshot.py)
        return tuple(items)

    def _reseen(self, view: tuple, at: int, items: list) -> None:
        """Field `at` of `view`, a View held by the round alone (compiled only), made `self._seen(items)`: its Prefix
        refilled where nobody else holds it, else a new one."""
        if _sole_at(view, at):  # type: ignore[name-defined]  # noqa: F821  # runner/game/state.pxd
            prefix = _item(view, at)  # type: ignore[name-defined]  # noqa: F821  # a Prefix: `_seen` makes no other
            prefix._items, prefix._length = items, len(items)
        else:
            _put(view, at, shared(items, len(items)))  # type: ignore[name-defined]  # noqa: F821  # state.pxd
