"""What one seat may know at a decision: the View, and the public Event history inside it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from .actions import Action
from .cards import Card
from .snapshot import Prefix as Prefix  # where it was defined first: runner.game.view.Prefix

if TYPE_CHECKING:
    from .ruleset import Ruleset


# In pure Python a View holds a copy of the round's history and discard pile while they are shorter than this,
# and a Prefix sharing the round's list from then on: below it a tuple is cheaper to make than a Prefix (about
# 100 items on Python 3.11), above it the copy grows with the round and the Prefix does not. Compiled, a Prefix
# (a C type, runner/game/snapshot.pxd) costs less than a copy of any length, and a View always shares.
SHARED_FROM = 100


class Event(NamedTuple):
    """One public happening in a round; a draw shows the count, not the cards."""

    kind: str  # play, draw, pass, skip, name_suit, reshuffle, challenge, fault; show, swap, give, pass_hands, out
    seat: int
    card: Card | None = None  # a give: None for the seats that did not see the card
    suit: str | None = None
    # cards drawn, shown or given; the seat challenged; pass_hands: the direction; out: the place
    count: int = 0  # type: ignore[assignment]  # the field shadows tuple.count (public since the first View)
    reason: str | None = None  # draw reason, announcement made, or fault kind
    more: tuple[Card, ...] = ()  # a play of several cards: the cards after `card`, in play order
    rank: str | None = None  # a play of a rank-wish card: the rank wished
    to: int = -1  # a swap: the other seat; a give: the seat given to


class Resume(NamedTuple):
    """A play whose powers are being carried out while a seat decides (phases swap, give, jump_in, name_suit).

    Public, so that a state can be rebuilt from a View: `seat` played `cards` (whose powers apply,
    in order) and the engine stands at `cards[position]`, step `stage`, with what the powers so far
    left to do once the turn passes on (`skips`, `skip_card`, `again`, `victim`, `show`, `skip_all`). In phase
    `give`, `give_left` cards are still to be given; in phases `jump_in` and `name_suit`, `nxt` is
    the seat whose turn comes next (and `again`, if set, gives `seat` its extra turn).
    """

    seat: int
    cards: tuple[Card, ...] = ()
    position: int = 0  # the index in `cards` of the card being carried out
    stage: int = 0
    skips: int = 0
    skip_card: Card | None = None
    again: Card | None = None
    victim: int = -1
    show: bool = False
    answer: str | None = None  # how the play answered what was pending: stack, cancel, return, skip
    played: bool = True  # False: an upcard acting as the dealer's play
    give_left: int = 0
    nxt: int = -1
    skip_all: int = 0  # the skip_others cards carried out so far: each skips every other seat once


class View(NamedTuple):
    """Everything the seat to act may know (immutable); `legal` lists every legal action.

    Fields may be added at the end, with defaults: a View built by position keeps working.
    """

    seat: int
    hand: tuple[Card, ...]
    top: Card
    suit: str | None  # None after a joker (it has no suit)
    phase: str  # play, drawn, name_suit, challenge; swap, give, jump_in
    pending: int
    direction: int
    hand_sizes: tuple[int, ...]
    stock_size: int
    discard: Sequence[Card]  # bottom card first; a tuple, or a Prefix shared by the round's Views (SHARED_FROM)
    totals: tuple[int, ...]
    rounds_won: tuple[int, ...]
    round: int
    active: tuple[int, ...]  # seats in this round, in seat order
    ruleset: "Ruleset"
    history: Sequence[Event]  # this round's public events, oldest first; a tuple, or a Prefix (SHARED_FROM)
    legal: tuple[Action, ...]
    again: bool = False  # this is an extra turn after a play-again card
    # The engine's public counters, so that a state can be rebuilt from a view (Round.from_view):
    chain: int = 0  # how many times the pending draw penalty has been passed on (for a chain_limit)
    missed: tuple[int, str] | None = None  # in phase challenge: the seat that missed its announcement, and which
    turns: int = 0  # decisions taken so far this round (the ruleset's turn_limit counts them)
    idle: int = 0  # turns in a row that ended without a card gained or played (a blocked round counts them)
    out: tuple[int, ...] = ()  # seats the fault policy took out of this round (forfeited), in seat order
    # The state of the house rules (docs/house-rules.md; each at its default where its rule is not used):
    wish: str | None = None  # the rank wished with a rank-wish card: the next card must be of it (or wild)
    wish_left: int = 0  # cards the wish still binds (a suit wish that binds more than one: the suit is `suit`)
    pending_skip: int = 0  # skips waiting to be answered with a card (skip_stack) or taken with Pass
    free: bool = False  # the top card takes any card (`free`)
    next_rank: tuple[str, str] | None = None  # ("at_most" | "at_least", rank) the next card must keep to
    waits: tuple[int, ...] = ()  # per seat, turns it must still miss (empty while no seat must)
    shown: tuple[tuple[int, tuple[Card, ...]], ...] = ()  # (seat, cards) as each seat last showed its hand
    out_order: tuple[int, ...] = ()  # seats out of the round by playing their last card (round.play_on), in order
    pending_card: Card | None = None  # the card whose draw penalty is pending (the last one added to it)
    pending_from: int = -1  # the seat that played it (a `returns` card sends the penalty back there)
    skip_card: Card | None = None  # the card whose skip is pending
    deferred: int = 0  # skips of a play-again card, applied when the turn passes on
    resume: Resume | None = None  # a play being carried out, or the seat that plays after naming (see Resume)
    # The seat's clock, as the referee runs it (None: no limit): seconds this decision may take before the
    # bank is drawn on (--move-time), and what is left of the seat's bank for this match (--time-bank)
    move_time: float | None = None
    time_bank: float | None = None
