"""Cards, ranks, suits, jokers, decks and their notation, rank then suit (`10H`, `JD`, `7S`; jokers `XR`, `XB`)."""

from __future__ import annotations

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS = ("C", "D", "H", "S")
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
JOKER = "X"
# A joker has a colour, not a suit: it never matches the active suit.
JOKER_COLOURS = ("R", "B")
COLOUR_NAMES = {"R": "red", "B": "black"}


class Card:
    """One playing card; instances are interned, so `is` and `==` agree and are fast.

    A joker is `Card("X", "R")` or `Card("X", "B")`: its `suit` holds its colour.
    """

    __slots__ = ("rank", "suit", "text", "ordinal")
    _interned: dict[str, "Card"] = {}

    rank: str
    suit: str
    text: str
    ordinal: int  # the card's place in EVERY_CARD (0 to 53): tables by card can be tuples indexed by it

    def __new__(cls, rank: str, suit: str) -> "Card":
        text = rank + suit
        card = cls._interned.get(text)
        if card is None:
            if not (rank in RANKS and suit in SUITS or rank == JOKER and suit in JOKER_COLOURS):
                raise ValueError(f"not a card: {text!r} (ranks {' '.join(RANKS)}; suits {' '.join(SUITS)}; "
                                 f"jokers {JOKER}{' or '.join(JOKER_COLOURS)})")
            card = object.__new__(cls)
            object.__setattr__(card, "rank", rank)
            object.__setattr__(card, "suit", suit)
            object.__setattr__(card, "text", text)
            ordinal = (len(SUITS) * len(RANKS) + JOKER_COLOURS.index(suit) if rank == JOKER
                       else SUITS.index(suit) * len(RANKS) + RANKS.index(rank))  # make_deck's order
            object.__setattr__(card, "ordinal", ordinal)
            cls._interned[text] = card
        return card

    def __setattr__(self, name, value):
        raise AttributeError("Card is immutable")

    def __reduce__(self):
        # Unpickle through the constructor so a card crossing a process stays interned.
        return (Card, (self.rank, self.suit))

    def __repr__(self) -> str:
        return self.text

    __str__ = __repr__

    @property
    def is_joker(self) -> bool:
        return self.rank == JOKER

    def __lt__(self, other: "Card") -> bool:
        return _ORDER[self.text] < _ORDER[other.text]


def parse_card(text: str) -> Card:
    """The card a notation string names, e.g. `parse_card("10H")`, `parse_card("XB")`."""
    text = text.strip().upper()
    if len(text) < 2:
        raise ValueError(f"not a card: {text!r}")
    return Card(text[:-1], text[-1])


def jokers(count: int) -> list[Card]:
    """`count` jokers, alternating red and black: XR, XB, XR, ..."""
    return [Card(JOKER, JOKER_COLOURS[i % 2]) for i in range(count)]


def make_deck(ranks: tuple[str, ...], copies: int = 1, joker_count: int = 0) -> list[Card]:
    """An unshuffled deck: every suit × rank, `copies` times over, then `joker_count` jokers."""
    return [Card(rank, suit) for _ in range(copies) for suit in SUITS for rank in ranks] + jokers(joker_count)


ALL_CARDS: tuple[Card, ...] = tuple(make_deck(RANKS))
EVERY_CARD: tuple[Card, ...] = ALL_CARDS + tuple(jokers(2))
"""Every distinct card there is: the 52 of ALL_CARDS and the two jokers (`card.ordinal` is its index here)."""

# Sort order: by suit, then rank (as before jokers existed); jokers after every suit, red first.
_ORDER = {card.text: (SUITS.index(card.suit), RANKS.index(card.rank)) for card in ALL_CARDS}
_ORDER.update({card.text: (len(SUITS), JOKER_COLOURS.index(card.suit)) for card in EVERY_CARD[len(ALL_CARDS):]})
