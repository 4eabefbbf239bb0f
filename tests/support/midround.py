"""A round in mid-play from a few strings, built with the public `Round.from_parts`."""

import random
from collections import Counter

from runner.game.cards import make_deck
from runner.game.engine import Round
from support.scenario import cards, load


def table(name: str, hands: list[str], pile: str, stock: str | None = None, **parts) -> Round:
    """Seat 0 to act in ruleset `name` on `pile` (top card last); hands of any size.

    The stock is `stock` (top first), or by default the rest of the deck, so that the round
    holds every card exactly once and search bots can sample it.
    """
    ruleset = load(name)
    hand_cards, pile_cards = [cards(hand) for hand in hands], cards(pile)
    if stock is None:
        rest = Counter(make_deck(ruleset.deck.ranks, ruleset.deck.copies_for(len(hands))))
        for held in hand_cards + [pile_cards]:
            rest.subtract(held)
        stock_cards = list(rest.elements())
    else:
        stock_cards = cards(stock)
    suit = parts.pop("suit", pile_cards[-1].suit)
    return Round.from_parts(ruleset, random.Random(0), hand_cards, stock_cards, pile_cards, suit, 0, **parts)
