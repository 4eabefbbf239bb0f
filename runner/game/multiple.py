"""Several cards in one turn (`multiple`): the card sequences a hand can play after a first card that is legal alone.

Each sequence starts with the first card and ends with the card that goes on top. With
`same_rank` and `suit_with` the middle cards are in hand order (their order does not matter to
the rules where only the last card's power applies); a run goes up or down one rank at a time in
one suit; a chain lists one order in which each card matches the one before, once per set of
cards and last card.

The plays of several cards grow exponentially with the hand under `chain` (a hand of 13 cards of one
suit has 319,501), and hands grow by drawing; so a turn lists at most MAX_PLAYS of them: each
distinct card of the hand, as the first card, at most MAX_PLAYS divided by the number of distinct
cards held (`share`), the first ones listed (same rank, runs, chains, suit_with, in that order; a
chain's walk lists every play of two cards before longer ones). A play beyond the cap is not
legal that turn. runner/game/checks.py's note on multiple.chain states the bound.
"""

from __future__ import annotations

from itertools import product
from typing import TYPE_CHECKING

from .cards import SUITS, Card
from .checks import MAX_PLAYS
from .tables import RANK_INDEX  # the deck's rank order

if TYPE_CHECKING:
    from .tables import Game

Sequence = tuple[Card, ...]

# MAX_PLAYS (runner/game/checks.py, whose notes name it): plays of several cards a turn lists at most


def share(hand: list[Card]) -> int:
    """How many plays of several cards each first card of `hand` lists at most: MAX_PLAYS split evenly among the
    distinct cards held (each may be a first card), at least one."""
    return max(1, MAX_PLAYS // len(set(hand)))


def sequences(game: "Game", first: Card, hand: list[Card]) -> list[Sequence]:
    """Every play of several cards starting with `first` (held in `hand`), without the play of `first` alone."""
    rest = list(hand)
    rest.remove(first)
    found: dict[Sequence, None] = {}
    most = share(hand)
    if game.same_rank:
        _same_rank(first, rest, found, most)
    if game.runs != "none":
        _runs(game, first, rest, found)
    if game.chain and len(found) < most:
        _chains(first, rest, found, game.chain_max, most)
    if first in game.suit_with and first.suit in SUITS:
        _suit_with(first, rest, found)
    listed = list(found)
    return listed if len(listed) <= most else listed[:most]


def _with_last(first: Card, chosen: list[Card], found: dict[Sequence, None]) -> None:
    """`first`, then `chosen` (in hand order) with each distinct card of it as the last one."""
    for last in dict.fromkeys(chosen):
        middle = list(chosen)
        middle.remove(last)
        found[(first, *middle, last)] = None


def _same_rank(first: Card, rest: list[Card], found: dict[Sequence, None], most: int) -> None:
    same = [card for card in rest if card.rank == first.rank]
    if not same:
        return
    kinds = list(dict.fromkeys(same))
    counts = [same.count(card) for card in kinds]
    for taken in product(*(range(count + 1) for count in counts)):
        if len(found) >= most:  # many copies of a rank (several decks): the cap, before the product is walked
            return
        if not any(taken):
            continue
        wanted = dict(zip(kinds, taken))
        chosen = []
        for card in same:  # hand order
            if wanted[card]:
                wanted[card] -= 1
                chosen.append(card)
        _with_last(first, chosen, found)


def _runs(game: "Game", first: Card, rest: list[Card], found: dict[Sequence, None]) -> None:
    if first.suit not in SUITS:
        return  # jokers are never part of a run
    by_index = {RANK_INDEX[card.rank]: card for card in rest if card.suit == first.suit}
    steps = {"up": (1,), "down": (-1,), "both": (1, -1)}[game.runs]
    for step in steps:
        run, index = [first], RANK_INDEX[first.rank] + step
        while index in by_index:
            run.append(by_index[index])
            index += step
        for length in range(max(game.run_min, 2), len(run) + 1):
            found[tuple(run[:length])] = None


def _links(a: Card, b: Card) -> bool:
    """Whether `b` may follow `a` in a chain: the same rank, or the same suit (a joker has none)."""
    return a.rank == b.rank or (a.suit == b.suit and a.suit in SUITS)


def _chains(first: Card, rest: list[Card], found: dict[Sequence, None], longest: int = 0,
            most: int = MAX_PLAYS) -> None:
    """Every set of further cards that can follow `first` each matching the one before, once per last card;
    at most `longest` cards in all (0: any number, multiple.chain_max); the walk stops once `found` holds `most`.

    A depth-first walk over (cards used, last card), each state visited once: the number of
    states is the number of plays listed. The cards used are kept as a bit mask of positions in
    `rest`, and as a multiset (copies of a card, two decks, are alike): a sum of one weight per
    distinct card, a byte each, so that a state is two integers and a card.
    """
    kinds: dict[Card, int] = {}
    weights = [1 << 8 * kinds.setdefault(card, len(kinds)) for card in rest]
    seen: set[tuple[int, Card]] = set()
    stack: list[tuple[tuple[Card, ...], int, int]] = [((first,), 0, 0)]
    while stack:
        path, used, held = stack.pop()
        last = path[-1]
        for position, card in enumerate(rest):
            if used >> position & 1 or not _links(last, card):
                continue
            key = (held + weights[position], card)
            if key in seen:
                continue
            seen.add(key)
            longer = path + (card,)
            found[longer] = None
            if len(found) >= most:  # the cap: what is listed so far, the walk's first plays
                return
            if len(longer) != longest:
                stack.append((longer, used | 1 << position, key[0]))


def _suit_with(first: Card, rest: list[Card], found: dict[Sequence, None]) -> None:
    suited = [card for card in rest if card.suit == first.suit]
    if suited:
        _with_last(first, suited, found)
