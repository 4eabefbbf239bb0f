"""Selectors: strings that name cards in a ruleset (`7`, `J`, `X`, `KH`, `XR`, `"JC JS"`, `"2, 3"`).

A selector is one or more terms separated by spaces or commas; a term is a rank (every card of
that rank) or a card (rank and suit; a joker's colour). YAML's `7:` is the integer 7, read as
the rank `7`. Where several keys name one card, the most specific wins: a key that is a single
card, then a key naming several cards among which this card by name, then a key naming its rank.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Iterable, Mapping

from .cards import EVERY_CARD, JOKER, JOKER_COLOURS, RANKS, Card

_TERM = re.compile(r"(10|[2-9JQKA])([CDHS])?|X([RB])?")
_SPLIT = re.compile(r"[\s,]+")
RANK_TERMS = (*RANKS, JOKER)

# What an editor is told about a selector (the JSON Schema); the model checks it exactly.
TERM_PATTERN = r"(10|[2-9jqkaJQKA])[cdhsCDHS]?|[xX][rbRB]?"
PATTERN = rf"^\s*({TERM_PATTERN})([\s,]+({TERM_PATTERN}))*\s*$"
SCHEMA = {
    "anyOf": [
        {"type": "integer", "minimum": 2, "maximum": 10},
        {"type": "string", "pattern": PATTERN},
    ],
    "description": "Cards: a rank (7, J, X for the jokers), a card (KH, XR) or several, e.g. \"JC JS\".",
}

HELP = "ranks 2-10 J Q K A, X (the jokers); cards like KH, 10C, XR; several like \"JC JS\""


def normalize(value: Any) -> str:
    """The canonical text of a selector (terms upper-cased, one space apart); ValueError if it is not one."""
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise ValueError(f"expected a rank or card ({HELP}), got {type(value).__name__}")
    terms = [term for term in _SPLIT.split(str(value).strip().upper()) if term]
    if not terms:
        raise ValueError(f"names no card ({HELP})")
    for term in terms:
        if not _TERM.fullmatch(term):
            raise ValueError(f"{term!r} is not a rank or card ({HELP})")
    return " ".join(terms)


def terms(selector: str) -> tuple[str, ...]:
    """The terms of a normalized selector."""
    return tuple(selector.split(" "))


def is_card(term: str) -> bool:
    return term not in RANK_TERMS


def rank_of(term: str) -> str:
    """The rank a term names, or the rank of the card it names."""
    return term if term in RANK_TERMS else term[:-1]


@lru_cache(maxsize=4096)
def cards(selector: str) -> frozenset[Card]:
    """Every card (of all there are: EVERY_CARD) that a normalized selector names."""
    named = set()
    for term in terms(selector):
        if is_card(term):
            named.add(Card(term[:-1], term[-1]))
        else:
            named.update(card for card in EVERY_CARD if card.rank == term)
    return frozenset(named)


def specificity(selector: str, card: Card) -> int:
    """How specifically `selector` names `card`: 3 a single-card key, 2 by name among several, 1 by rank, 0 not."""
    parts = terms(selector)
    if card.text in parts:
        return 3 if len(parts) == 1 else 2
    return 1 if card.rank in parts else 0


def missing_from(selector: str, ranks: Iterable[str], joker_count: int) -> str | None:
    """The first term naming a rank or card a deck of `ranks` and `joker_count` jokers does not have."""
    have = set(ranks)
    for term in terms(selector):
        rank = rank_of(term)
        if rank == JOKER:
            colours = JOKER_COLOURS[:joker_count]
            if not colours or is_card(term) and term[-1] not in colours:
                return term
        elif rank not in have:
            return term
    return None


class Conflict(Exception):
    """Two keys that name one card with the same specificity."""

    def __init__(self, first: str, second: str, card: Card):
        super().__init__(f"{second!r} names {card} as {first!r} does, equally specifically")
        self.first, self.second, self.card = first, second, card


def resolve(mapping: Mapping[str, Any]) -> dict[Card, str]:
    """For each card some key names, the most specific key; Conflict for two keys of the same specificity."""
    best: dict[Card, tuple[int, str]] = {}
    for key in mapping:
        for card in sorted(cards(key)):  # in card order, so that the error names the same card every time
            level = specificity(key, card)
            held = best.get(card)
            if held is None or level > held[0]:
                best[card] = (level, key)
            elif level == held[0]:
                raise Conflict(held[1], key, card)
    return {card: key for card, (_, key) in best.items()}


def shadowed(mapping: Mapping[str, Any]) -> list[tuple[str, str, list[Card]]]:
    """(key, less specific key, cards) for each key that takes cards away from a less specific one."""
    chosen = resolve(mapping)
    found = []
    for key in mapping:
        for other in mapping:
            if other == key:
                continue
            taken = sorted(card for card in cards(other) if chosen.get(card) == key)
            if taken:
                found.append((key, other, taken))
    return found

