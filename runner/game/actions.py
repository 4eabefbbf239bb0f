"""The actions a bot may return: Play, Draw, Pass, NameSuit, Challenge, Swap and Give (frozen, hashable)."""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card

ANNOUNCEMENTS = (None, "mau", "maumau")


@dataclass(frozen=True, slots=True)
class Play:
    """Play `card`, then the cards of `more` in that order (rulesets with `multiple`).

    `suit` is the suit named with a wild card, `rank` the rank wished with a rank-wish card
    (either only when the last card played is wild); `announce` is None, "mau" or "maumau".
    """

    card: Card
    suit: str | None = None
    announce: str | None = None
    more: tuple[Card, ...] = ()
    rank: str | None = None

    @property
    def cards(self) -> tuple[Card, ...]:
        """Every card of the play, in play order: `(card, *more)`; the last one ends on top."""
        return (self.card, *self.more)

    @property
    def last(self) -> Card:
        """The card that ends on top of the pile."""
        return self.more[-1] if self.more else self.card

    def __str__(self) -> str:
        text = f"play {' '.join(card.text for card in self.cards)}"
        if self.suit:
            text += f" naming {self.suit}"
        if self.rank:
            text += f" wishing {self.rank}"
        if self.announce:
            text += f' "{self.announce}"'
        return text


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw from the stock (or take a pending draw penalty)."""

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class Pass:
    """Keep a just-drawn card and end the turn; let a challenge chance go; take a pending skip; decline to jump in."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class NameSuit:
    """The dealer names the suit to follow after a wild card was turned up."""

    suit: str

    def __str__(self) -> str:
        return f"name {self.suit}"


@dataclass(frozen=True, slots=True)
class Challenge:
    """Point out a missed announcement (rulesets whose announcements are enforced by challenge)."""

    def __str__(self) -> str:
        return "challenge"


@dataclass(frozen=True, slots=True)
class Swap:
    """Swap hands with `seat` (phase `swap`, after a card with `swap_hands: choose`)."""

    seat: int

    def __str__(self) -> str:
        return f"swap with seat {self.seat}"


@dataclass(frozen=True, slots=True)
class Give:
    """Give `card` from the hand to the next player (phase `give`, once per card a `give` power asks for)."""

    card: Card

    def __str__(self) -> str:
        return f"give {self.card}"


Action = Play | Draw | Pass | NameSuit | Challenge | Swap | Give

DRAW = Draw()
PASS = Pass()
CHALLENGE = Challenge()
_plays: dict[tuple, Play] = {}
_name_suits: dict[str, NameSuit] = {}
_swaps: dict[int, Swap] = {}
_gives: dict[Card, Give] = {}


def play(card: Card, suit: str | None = None, announce: str | None = None, more: tuple[Card, ...] = (),
         rank: str | None = None) -> Play:
    """The shared Play instance for these fields (the engine builds legal actions from this cache).

    Plays of three cards or more are made anew each time: their kinds are without number under
    `multiple.chain` (any set of a hand's cards), and a cache of them would grow without bound."""
    if len(more) > 1:
        return Play(card, suit, announce, more, rank)
    key = (card, suit, announce, more, rank)
    action = _plays.get(key)
    if action is None:
        action = _plays[key] = Play(card, suit, announce, more, rank)
    return action


def name_suit(suit: str) -> NameSuit:
    """The shared NameSuit instance for `suit`."""
    action = _name_suits.get(suit)
    if action is None:
        action = _name_suits[suit] = NameSuit(suit)
    return action


def swap(seat: int) -> Swap:
    """The shared Swap instance for `seat`."""
    action = _swaps.get(seat)
    if action is None:
        action = _swaps[seat] = Swap(seat)
    return action


def give(card: Card) -> Give:
    """The shared Give instance for `card`."""
    action = _gives.get(card)
    if action is None:
        action = _gives[card] = Give(card)
    return action
