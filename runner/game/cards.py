"""Cards, ranks, suits, decks and the notation of RULES.md (`10H`, `JD`, `7S`)."""

from __future__ import annotations

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS = ("C", "D", "H", "S")
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}


class Card:
    """One playing card; instances are interned, so `is` and `==` agree and are fast."""

    __slots__ = ("rank", "suit", "text")
    _interned: dict[str, "Card"] = {}

    rank: str
    suit: str
    text: str

    def __new__(cls, rank: str, suit: str) -> "Card":
        text = rank + suit
        card = cls._interned.get(text)
        if card is None:
            if rank not in RANKS or suit not in SUITS:
                raise ValueError(f"not a card: {text!r} (ranks {' '.join(RANKS)}; suits {' '.join(SUITS)})")
            card = object.__new__(cls)
            object.__setattr__(card, "rank", rank)
            object.__setattr__(card, "suit", suit)
            object.__setattr__(card, "text", text)
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

    def __lt__(self, other: "Card") -> bool:
        return (SUITS.index(self.suit), RANKS.index(self.rank)) < (SUITS.index(other.suit), RANKS.index(other.rank))


def parse_card(text: str) -> Card:
    """The card a notation string names, e.g. `parse_card("10H")`."""
    text = text.strip().upper()
    if len(text) < 2:
        raise ValueError(f"not a card: {text!r}")
    return Card(text[:-1], text[-1])


def make_deck(ranks: tuple[str, ...], copies: int = 1) -> list[Card]:
    """An unshuffled deck: every suit × rank, `copies` times over."""
    return [Card(rank, suit) for _ in range(copies) for suit in SUITS for rank in ranks]


ALL_CARDS: tuple[Card, ...] = tuple(make_deck(RANKS))
