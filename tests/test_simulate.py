"""The engine as a simulator (runner.simulate): sampled rounds agree with the view, inferred voids with the truth."""

import random
from collections import Counter

import pytest

from bots.medium import MediumBot
from bots.random_bot import RandomBot
from runner.cards import make_deck
from runner.engine import Round
from runner.simulate import Sampler, determinize, known_voids, playout, quick_policy, unseen_cards

from scenario import cards, load

RULESETS = ["standard", "strafpunten", "elimination", "standard-challenge", "standard-seven-limit", "standard-ace-skip"]


def seeded_views(name: str, rounds: int = 6, seed: int = 5):
    """(round, view) at every decision of a few seeded rounds, half played by medium bots, half by random ones."""
    ruleset = load(name)
    rng = random.Random(seed)
    for number in range(rounds):
        rnd = Round.deal(ruleset, rng, 4, dealer=number % 4)
        kind = MediumBot if number % 2 else RandomBot
        bots = [kind(rng=random.Random(seat)) for seat in range(4)]
        while not rnd.over and rnd.turns < 400:
            view = rnd.view()
            yield rnd, view
            rnd.apply(rnd.canonical(bots[rnd.current].act(view)))


@pytest.mark.parametrize("name", RULESETS)
def test_a_sampled_round_shows_the_seat_exactly_its_view(name):
    for rnd, view in seeded_views(name):
        sampled = determinize(view, random.Random(1))
        again = sampled.view(view.seat)
        for field in view._fields:
            assert getattr(again, field) == getattr(view, field), (name, field)
        for part in ("chain", "again", "drawn", "missed", "idle", "current", "pending", "direction"):
            assert getattr(sampled, part) == getattr(rnd, part), (name, part)
        everything = Counter(sampled.stock) + Counter(sampled.discard)
        for hand in sampled.hands:
            everything.update(hand)
        deck = make_deck(view.ruleset.deck.ranks, view.ruleset.deck.copies_for(len(view.active)))
        assert everything == Counter(deck)


@pytest.mark.parametrize("name", RULESETS)
def test_the_true_hands_satisfy_every_inferred_void(name):
    checked = 0
    for rnd, view in seeded_views(name):
        for seat, layers in known_voids(view, Sampler(view).rules).items():
            hand = rnd.hands[seat]
            needed = 0
            for count, excluded in layers:  # most excluded first: Hall's condition for nested sets
                needed += count
                assert sum(1 for card in hand if card not in excluded) >= needed, (name, seat, hand)
                checked += 1
    assert checked > 0


def test_a_seat_that_drew_for_want_of_a_heart_is_dealt_no_heart():
    ruleset = load("standard")
    deck = make_deck(ruleset.deck.ranks)
    hands = [cards("4H 10C KD 2D 3D"), cards("2C 3C 5S 6S 9C"), cards("2H 3H 5H 6H 9D"), cards("QC QS KC KS AD")]
    pile = cards("9H")
    stock = [card for card in deck if card not in set(pile) | {c for hand in hands for c in hand}]
    rnd = Round.from_parts(ruleset, random.Random(0), hands, stock, pile, "H", 0)
    rnd.apply(next(a for a in rnd.legal() if getattr(a, "card", None) == cards("4H")[0]))
    drew = len(rnd.stock)
    rnd.apply(rnd.legal()[-1])  # seat 1 has no heart, no 4, no Jack: it must draw
    assert len(rnd.stock) == drew - 1
    while rnd.current != 0:
        rnd.apply(rnd.legal()[0])
    view = rnd.view()
    sampler = Sampler(view)
    forbidden = {card for card in unseen_cards(view) if card.suit == "H" or card.rank in ("4", "J")}
    (count, excluded), = sampler.voids[1]
    assert excluded == forbidden and count >= 5  # its five dealt cards (and the drawn one, if unplayable)
    for seed in range(50):
        hand = sampler.sample(random.Random(seed)).hands[1]
        assert sum(1 for card in hand if card not in forbidden) >= count


def test_from_parts_rebuilds_a_round_that_plays_on_identically():
    for rnd, view in seeded_views("standard", rounds=2):
        if rnd.turns == 7:
            copy = Round.from_parts(
                view.ruleset, random.Random(3), rnd.hands, list(reversed(rnd.stock)), rnd.discard, rnd.suit,
                rnd.current, rnd.phase, rnd.pending, rnd.direction, active=rnd.active, chain=rnd.chain,
                again=rnd.again, history=rnd.history,
            )
            twin = rnd.clone(random.Random(3))
            for sim in (copy, twin):
                playout(sim, random.Random(9))
            assert copy.points() == twin.points() and copy.winner == twin.winner


def test_sampling_depends_on_the_rng_alone():
    view = next(v for _, v in seeded_views("strafpunten", rounds=1) if len(v.history) > 10)
    first = Sampler(view).sample(random.Random(42))
    second = Sampler(view).sample(random.Random(42))
    assert first.hands == second.hands and first.stock == second.stock
    assert Sampler(view).sample(random.Random(43)).hands != first.hands


@pytest.mark.parametrize("name", RULESETS)
def test_playouts_end_every_round_with_legal_moves(name):
    for _, view in seeded_views(name, rounds=1):
        rnd = determinize(view, random.Random(0))
        rng = random.Random(1)
        while not rnd.over:
            action = quick_policy(rnd, rng)
            assert action in rnd.legal()
            rnd.apply(action)
        assert len(rnd.points()) == len(view.hand_sizes)


def test_an_inconsistent_view_is_refused():
    _, view = next(seeded_views("standard", rounds=1))
    broken = view._replace(stock_size=view.stock_size + 1)
    with pytest.raises(ValueError, match="inconsistent"):
        determinize(broken, random.Random(0))
