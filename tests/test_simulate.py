"""The engine as a simulator (runner.simulate): sampled rounds agree with the view, inferred voids with the truth."""

import random
from collections import Counter

import pytest

from maumau.bots.hard import heuristic_policy
from maumau.bots.medium import MediumBot
from maumau.bots.random_bot import RandomBot
from runner.game.cards import make_deck
from runner.game.engine import Round
from runner.simulate import Sampler, determinize, known_voids, playout, quick_policy, unseen_cards
from support.scenario import cards, load

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


@pytest.mark.parametrize("policy", [quick_policy, heuristic_policy])
@pytest.mark.parametrize("name", RULESETS)
def test_playouts_end_every_round_with_legal_moves(name, policy):
    for _, view in seeded_views(name, rounds=1):
        rnd = determinize(view, random.Random(0))
        rng = random.Random(1)
        while not rnd.over:
            action = policy(rnd, rng)
            assert action in rnd.legal()
            rnd.apply(action)
        assert len(rnd.points()) == len(view.hand_sizes)


def test_an_inconsistent_view_is_refused():
    _, view = next(seeded_views("standard", rounds=1))
    broken = view._replace(stock_size=view.stock_size + 1)
    with pytest.raises(ValueError, match="inconsistent"):
        determinize(broken, random.Random(0))


def _stacked(hands: list[str], pile: str, suit: str | None = None) -> Round:
    """Seat 0 to act in standard on `pile`, the rest of the deck the stock."""
    ruleset = load("standard")
    held = [cards(hand) for hand in hands]
    pile_cards = cards(pile)
    used = set(pile_cards) | {card for hand in held for card in hand}
    stock = [card for card in make_deck(ruleset.deck.ranks) if card not in used]
    return Round.from_parts(ruleset, random.Random(0), held, stock, pile_cards, suit or pile_cards[-1].suit, 0)


def _play(rnd: Round, text: str, suit: str | None = None) -> None:
    card = cards(text)[0]
    rnd.apply(next(a for a in rnd.legal() if getattr(a, "card", None) == card and (suit is None or a.suit == suit)))


def test_a_sensible_seat_that_took_a_seven_holds_no_seven():
    rnd = _stacked(["7H 2C 3C 4C 5C", "2S 3S 4S 5S 6S", "KD KS QD QS 10D", "AD AS 9D 9S 10S"], "9H")
    _play(rnd, "7H")
    rnd.apply(rnd.legal()[-1])  # seat 1 has no 7: it draws the two
    while rnd.current != 0:
        rnd.apply(rnd.legal()[-1] if rnd.current != 3 else rnd.legal()[0])
    view = rnd.view()
    sevens = {card for card in unseen_cards(view) if card.rank == "7"}
    believed = Sampler(view, sensible=True)
    (count, excluded), = believed.voids[1]
    assert count == 5 and excluded == sevens  # its 7 cards less the 2 it drew were held when it took them
    for seed in range(30):
        hand = believed.sample(random.Random(seed)).hands[1]
        assert len(hand) == 7 and sum(1 for card in hand if card not in sevens) >= 5
    assert 1 not in Sampler(view).voids  # a fact only for sensible players: not assumed by default


def test_a_sensible_seat_that_played_a_jack_had_no_other_play_and_holds_the_suit_it_named_most():
    rnd = _stacked(["9H 2D 3D 4D 5D", "JC 2S 3S 4S 5S", "KD KS QD QS 10D", "AD AS 9D 9S 10S"], "8H")
    _play(rnd, "9H")
    _play(rnd, "JC", suit="S")  # seat 1 names spades; it could play no heart and no 9
    while rnd.current != 0:
        rnd.apply(rnd.legal()[0])
    view = rnd.view()
    sampler = Sampler(view, sensible=True)
    playable_then = {card for card in unseen_cards(view) if card.suit == "H" or card.rank == "9"}
    assert any(excluded >= playable_then - {c for c in unseen_cards(view) if c.rank == "J"}
               for _, excluded in sampler.voids[1])
    assert sampler.named == {1: "S"}
    for seed in range(30):
        hand = sampler.sample(random.Random(seed)).hands[1]
        suits = Counter(card.suit for card in hand)
        assert suits["S"] == max(suits.values())


def test_the_heuristic_policy_keeps_a_jack_back_and_sheds_points_when_an_opponent_is_close():
    close = _stacked(["JH 2H KH 5C 6D", "2S 3S 4S 5S", "6S 7S", "8S 9S 10S"], "9H")
    assert heuristic_policy(close, random.Random(0)).card == cards("KH")[0]  # the king's 10 points shed
    calm = _stacked(["JH 2H KH 5C 6D", "2S 3S 4S 5S", "6S 7S 8C", "8S 9S 10S"], "9H")
    assert heuristic_policy(calm, random.Random(0)).card.rank in ("2", "K")  # not the Jack
    only_jack = _stacked(["JH 5C 6D 5S", "2S 3S 4S 5S", "6S 7S 8C", "8S 9S 10S"], "9H")
    action = heuristic_policy(only_jack, random.Random(0))
    assert (action.card.text, action.suit) == ("JH", "C")  # clubs, diamonds, spades one each: the first in SUITS
