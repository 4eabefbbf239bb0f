"""What one seat may know at a decision: the View, and the public Event history inside it."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from .actions import Action
from .cards import Card

if TYPE_CHECKING:
    from .ruleset import Ruleset


class Event(NamedTuple):
    """One public happening in a round; a draw shows the count, not the cards."""

    kind: str  # play, draw, pass, skip, name_suit, reshuffle, challenge, fault
    seat: int
    card: Card | None = None
    suit: str | None = None
    count: int = 0  # type: ignore[assignment]  # the field shadows tuple.count (public since the first View)
    reason: str | None = None  # draw reason, announcement made, or fault kind


class View(NamedTuple):
    """Everything the seat to act may know (immutable); `legal` lists every legal action.

    Fields may be added at the end, with defaults: a View built by position keeps working.
    """

    seat: int
    hand: tuple[Card, ...]
    top: Card
    suit: str
    phase: str  # play, drawn, name_suit, challenge
    pending: int
    direction: int
    hand_sizes: tuple[int, ...]
    stock_size: int
    discard: tuple[Card, ...]
    totals: tuple[int, ...]
    rounds_won: tuple[int, ...]
    round: int
    active: tuple[int, ...]  # seats in this round, in seat order
    ruleset: "Ruleset"
    history: tuple[Event, ...]
    legal: tuple[Action, ...]
    again: bool = False  # this is an extra turn after a play-again card
    # The engine's public counters, so that a state can be rebuilt from a view (Round.from_view):
    chain: int = 0  # how many times the pending draw penalty has been passed on (for a chain_limit)
    missed: tuple[int, str] | None = None  # in phase challenge: the seat that missed its announcement, and which
    turns: int = 0  # decisions taken so far this round (the ruleset's turn_limit counts them)
    idle: int = 0  # turns in a row that ended without a card gained or played (a blocked round counts them)
    out: tuple[int, ...] = ()  # seats the fault policy took out of this round (forfeited), in seat order
    # The seat's clock, as the referee runs it (None: no limit): seconds this decision may take before the
    # bank is drawn on (--move-time), and what is left of the seat's bank for this match (--time-bank)
    move_time: float | None = None
    time_bank: float | None = None
