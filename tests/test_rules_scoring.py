"""Card points and decks (docs: Rulesets): 52 cards, two decks from 7 players, Skat, deal sizes."""

import random
from collections import Counter

import pytest

from runner.game.cards import RANKS, SUITS, Card
from runner.game.engine import Round
from support.scenario import all_cards, deal, do, load

HANDS = ["JC QD KS AH 10C", "2D 3D 4D 5D 6D", "7S 8S 9S 10S 9C"]


def test_standard_points_ace_king_queen_jack_ten_each_others_face_value():
    rnd = deal("standard", HANDS, "10H")
    assert rnd.points() == [50, 20, 43]


@pytest.mark.parametrize("name", ["strafpunten", "elimination"])
def test_strafpunten_and_elimination_points_jack_20_queen_king_10_ace_11(name):
    rnd = deal(name, HANDS, "10H")
    assert rnd.points() == [20 + 10 + 10 + 11 + 10, 20, 43]


def test_with_the_skat_deck_every_card_left_is_worth_at_least_seven():
    ruleset = load("strafpunten-skat")
    assert min(ruleset.points[rank] for rank in ruleset.deck.ranks) == 7
    rnd = deal("strafpunten-skat", ["7C 8C 9C 10C JC", "QD KD AD 7D 8D"], "9H")
    assert rnd.points() == [7 + 8 + 9 + 10 + 20, 10 + 10 + 11 + 7 + 8]


def test_the_player_who_goes_out_scores_zero_and_the_others_their_hands():
    rnd = deal("strafpunten", ["5H 2H", "QS AD", "KC 3C"], "10H", "4S 4C 4D")
    do(rnd, "5H", "draw", "draw", "2H")
    assert rnd.winner == 0 and rnd.points() == [0, 10 + 11 + 4, 10 + 3 + 4]


def test_seats_not_in_the_round_score_nothing():
    rnd = deal("strafpunten", ["5H 2H", "JS AD", "KC 3C"], "10H", active=[0, 2])
    assert rnd.points()[1] == 0 and rnd.hands[1] == []


# ---------------------------------------------------------------- decks


def full_deck(ranks, copies=1) -> Counter:
    return Counter({Card(rank, suit): copies for rank in ranks for suit in SUITS})


def shuffled_round(name: str, players: int) -> Round:
    return Round.deal(load(name), random.Random(players), players)


@pytest.mark.parametrize("players", [2, 6])
def test_standard_deals_one_52_card_deck_up_to_six_players(players):
    rnd = shuffled_round("standard", players)
    assert all_cards(rnd) == full_deck(RANKS)


@pytest.mark.parametrize("players", [7, 8])
def test_standard_shuffles_two_decks_from_seven_players(players):
    rnd = shuffled_round("standard", players)
    assert all_cards(rnd) == full_deck(RANKS, 2) and sum(all_cards(rnd).values()) == 104


def test_the_two_decks_variant_uses_104_cards_at_any_table():
    assert all_cards(shuffled_round("standard-two-decks", 2)) == full_deck(RANKS, 2)


def test_family3_plays_with_two_decks_and_seven_cards_each():
    rnd = shuffled_round("elimination", 5)
    assert all_cards(rnd) == full_deck(RANKS, 2)
    assert [len(hand) for hand in rnd.hands] == [7] * 5


@pytest.mark.parametrize("name", ["standard-skat", "strafpunten-skat"])
def test_the_skat_deck_has_32_cards_seven_to_ace(name):
    rnd = shuffled_round(name, 4)
    assert all_cards(rnd) == full_deck(("7", "8", "9", "10", "J", "Q", "K", "A"))


def test_standard_deals_five_cards_each():
    assert [len(hand) for hand in shuffled_round("standard", 4).hands] == [5] * 4


def test_the_seven_card_deal_variant():
    rnd = shuffled_round("standard-seven-cards", 6)
    assert [len(hand) for hand in rnd.hands] == [7] * 6
    assert len(rnd.stock) + len(rnd.discard) == 52 - 42


def test_the_deal_goes_one_card_at_a_time_clockwise_from_left_of_the_dealer():
    deck = [Card(rank, "H") for rank in RANKS[:9]]  # 2H 3H ... 10H, top card first
    rnd = Round.deal(load("standard", {"hand_size": 2}), random.Random(0), 3, dealer=1, deck=deck)
    assert [[c.text for c in hand] for hand in rnd.hands] == [["3H", "6H"], ["4H", "7H"], ["2H", "5H"]]
    assert rnd.top.text == "8H" and [c.text for c in reversed(rnd.stock)] == ["9H", "10H"]  # top first
