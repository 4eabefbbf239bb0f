"""The engine's shortcuts (precomputed plays, the inlined shuffle, dealing by slices, drawing by slices)
give exactly what the plain rules give."""

from __future__ import annotations

import random

import pytest

from runner.game.actions import DRAW, Play
from runner.game.cards import SUITS, Card, make_deck
from runner.game.engine import Game, Round, shuffle
from support.scenario import load


@pytest.mark.parametrize("length", [0, 1, 2, 7, 32, 52, 104])
def test_shuffle_makes_the_permutation_and_rng_state_of_random_shuffle(length):
    for seed in range(20):
        ours, theirs = list(range(length)), list(range(length))
        rng_ours, rng_theirs = random.Random(seed), random.Random(seed)
        shuffle(rng_ours, ours)
        rng_theirs.shuffle(theirs)
        assert ours == theirs
        assert rng_ours.getstate() == rng_theirs.getstate()


def test_shuffle_leaves_a_random_subclass_to_its_own_shuffle():
    class Reversing(random.Random):
        def shuffle(self, x):
            x.reverse()

    cards = [1, 2, 3]
    shuffle(Reversing(0), cards)
    assert cards == [3, 2, 1]


def naive_plays(rules: Game, hand: list[Card], top: Card, suit: str, due: str | None) -> list[Play]:
    """The legal-move rule (docs: Rulesets) written out: same rank or suit; a wild card on anything (on a wild
    card only if wild_on_wild), naming each suit; one action per distinct card."""
    plays = []
    for card in dict.fromkeys(hand):
        if card in rules.wild:
            if top not in rules.wild or card in rules.wild_on_wild:
                plays += [Play(card, named, due) for named in SUITS]
        elif card.rank == top.rank or card.suit == suit:
            plays.append(Play(card, None, due))
    return plays


@pytest.mark.parametrize("overrides", [{}, {"powers.J.wild_on_wild": False}, {"powers.8.wild": True},
                                       {"announcements.mau.required": False}])
def test_legal_plays_from_the_tables_are_the_rule_applied_card_by_card(overrides):
    ruleset = load("standard", overrides)
    rules = Game.of(ruleset)
    rng = random.Random(7)
    deck = make_deck(ruleset.deck.ranks)
    for _ in range(400):
        rnd = Round.deal(ruleset, random.Random(rng.random()), 2)
        size = rng.choice([1, 2, 5, 8])
        hand = rng.sample(deck, size)
        rnd.hands[rnd.current] = hand
        rnd.suit, rnd.pending, rnd.phase, rnd._legal = rng.choice(SUITS), 0, "play", None
        due = rnd.announcement_due(size - 1)
        plays = naive_plays(rules, hand, rnd.top, rnd.suit, due)
        expected = plays if plays and rules.stuck_only else plays + [DRAW]
        assert list(rnd.legal()) == expected
        assert all(type(a) is not Play or rnd.canonical(a) is a for a in rnd.legal())


def test_plays_on_keeps_a_table_per_top_suit_and_announcement_and_refuses_any_other_key():
    rules = Game.of(load("standard"))
    top = Card("9", "H")
    hearts, hearts_due = rules.plays_on(None, top, "H"), rules.plays_on("mau", top, "H")
    spades = rules.plays_on(None, top, "S")
    assert rules.plays_on(None, top, "H") is hearts  # kept, not built again, after another key was asked
    assert hearts[Card("7", "H").ordinal] == (Play(Card("7", "H"), None, None),)
    assert hearts_due[Card("7", "H").ordinal] == (Play(Card("7", "H"), None, "mau"),)
    assert spades[Card("7", "H").ordinal] is None and spades[Card("7", "S").ordinal] is not None
    with pytest.raises(ValueError, match="no plays on 9H"):
        rules.plays_on(None, top, "R")  # a joker's colour is never a suit to follow on the fast path


def test_a_two_deck_hand_holding_a_card_twice_gets_one_action_for_it():
    ruleset = load("standard")  # two decks from 7 players on
    rnd = Round.deal(ruleset, random.Random(1), 7)
    assert not rnd.single_deck
    top = rnd.top
    twin = Card("9" if top.rank != "9" else "10", top.suit)
    rnd.hands[rnd.current] = [twin, twin]
    rnd.pending, rnd.phase, rnd._legal = 0, "play", None
    assert [a.card for a in rnd.legal() if type(a) is Play] == [twin]


def test_dealing_by_slices_deals_one_card_at_a_time_clockwise_from_left_of_the_dealer():
    ruleset = load("standard")
    for players, dealer in [(2, 0), (3, 1), (4, 3), (5, 2)]:
        deck = make_deck(ruleset.deck.ranks)
        random.Random(players).shuffle(deck)  # deck[0] is the top card
        rnd = Round.deal(ruleset, random.Random(0), players, dealer=dealer, deck=deck)
        order = [(dealer + k) % players for k in range(1, players + 1)]
        expected = {seat: [] for seat in order}
        cards = iter(deck)
        for _ in range(ruleset.hand_size):
            for seat in order:
                expected[seat].append(next(cards))
        assert {seat: rnd.hands[seat] for seat in order} == expected
        assert rnd.discard[0] is next(cards)


def test_drawing_takes_cards_off_the_top_of_the_stock_in_order_across_a_reshuffle():
    ruleset = load("standard", {"powers.7.draw": 3})
    rnd = Round.deal(ruleset, random.Random(3), 2)
    seat = rnd.current
    top_three = list(reversed(rnd.stock[-3:]))
    before = len(rnd.hands[seat])
    assert rnd._draw(seat, 3, "seven") == 3
    assert rnd.hands[seat][before:] == top_three
    rnd.discard.extend(rnd.stock[:-2])  # leave two cards in the stock: the draw must reshuffle
    del rnd.stock[:-2]
    last_two = list(reversed(rnd.stock))
    before = len(rnd.hands[seat])
    assert rnd._draw(seat, 3, "seven") == 3
    assert rnd.hands[seat][before:before + 2] == last_two
    kinds = [(e.kind, e.count) for e in rnd.history[-3:]]
    assert kinds == [("draw", 2), ("reshuffle", kinds[1][1]), ("draw", 1)]
