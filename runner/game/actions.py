"""The actions a bot may return: Play, Draw, Pass, NameSuit and Challenge (frozen, hashable)."""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card

ANNOUNCEMENTS = (None, "mau", "maumau")


@dataclass(frozen=True, slots=True)
class Play:
    """Play `card`; `suit` is the suit named with a wild card; `announce` is None, "mau" or "maumau"."""

    card: Card
    suit: str | None = None
    announce: str | None = None

    def __str__(self) -> str:
        text = f"play {self.card}"
        if self.suit:
            text += f" naming {self.suit}"
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
    """Keep a just-drawn card and end the turn (or, facing a challenge chance, let it go)."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class NameSuit:
    """The dealer names the suit to follow after a Jack was turned up."""

    suit: str

    def __str__(self) -> str:
        return f"name {self.suit}"


@dataclass(frozen=True, slots=True)
class Challenge:
    """Point out a missed announcement (rulesets whose announcements are enforced by challenge)."""

    def __str__(self) -> str:
        return "challenge"


Action = Play | Draw | Pass | NameSuit | Challenge

DRAW = Draw()
PASS = Pass()
CHALLENGE = Challenge()
_plays: dict[tuple, Play] = {}
_name_suits: dict[str, NameSuit] = {}


def play(card: Card, suit: str | None = None, announce: str | None = None) -> Play:
    """The shared Play instance for these fields (the engine builds legal actions from this cache)."""
    key = (card, suit, announce)
    action = _plays.get(key)
    if action is None:
        action = _plays[key] = Play(card, suit, announce)
    return action


def name_suit(suit: str) -> NameSuit:
    """The shared NameSuit instance for `suit`."""
    action = _name_suits.get(suit)
    if action is None:
        action = _name_suits[suit] = NameSuit(suit)
    return action
