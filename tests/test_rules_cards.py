"""docs/house-rules.md: jokers in the deck, powers of single cards and of sets of cards, powers by players."""

import random
from collections import Counter

from runner.game.cards import EVERY_CARD, Card, parse_card
from runner.game.engine import Game, Round
from support.scenario import all_cards, deal, do, hand, load, plays

STOCK = "2C 3C 4C 5C 6C 2S 3S 4S 5S 6S"
JOKERS = {"deck.jokers": 2, "points.X": 50}


def test_a_cards_ordinal_is_its_place_in_every_card():
    """Game.plays_on's tables are indexed by `card.ordinal`, worked out in Card's constructor from make_deck's
    order: it must stay each card's index in EVERY_CARD, jokers included."""
    assert [card.ordinal for card in EVERY_CARD] == list(range(54))
    assert Card("X", "B").ordinal == 53 and Card("2", "C").ordinal == 0


def test_a_deck_with_two_jokers_deals_54_cards_red_and_black():
    ruleset = load("standard", JOKERS)
    rnd = Round.deal(ruleset, random.Random(1), 3)
    deck = all_cards(rnd)
    assert sum(deck.values()) == 54 and deck[parse_card("XR")] == 1 and deck[parse_card("XB")] == 1


def test_two_decks_with_four_jokers_hold_each_joker_twice():
    rnd = Round.deal(load("standard", {"deck.copies": 2, "deck.jokers": 4, "points.X": 50}), random.Random(1), 4)
    deck = all_cards(rnd)
    assert sum(deck.values()) == 108 and deck[Card("X", "R")] == deck[Card("X", "B")] == 2


def test_jokers_by_players_adds_jokers_from_that_table_size_on():
    ruleset = load("standard", {"deck.jokers_by_players": {4: 2}, "points.X": 50})
    assert sum(all_cards(Round.deal(ruleset, random.Random(1), 3)).values()) == 52
    assert sum(all_cards(Round.deal(ruleset, random.Random(1), 4)).values()) == 54


def test_a_joker_without_a_power_goes_only_on_a_joker():
    rnd = deal("standard", ["XR 2D 3D", "XB 5S 6S"], "10H", STOCK, overrides=JOKERS)
    assert plays(rnd) == set()  # no suit to match, and the top card is no joker
    rnd = deal("standard", ["XR 2D 3D", "XB 5S 6S"], "4D", STOCK, overrides=JOKERS)
    do(rnd, "2D")
    assert plays(rnd) == set()


def test_a_joker_on_the_pile_leaves_no_suit_to_follow_only_a_joker_matches_it():
    rnd = deal("standard", ["XR 2D 3D", "XB 5H 6S"], "XB", STOCK, overrides=JOKERS)
    assert rnd.suit is None and plays(rnd) == {"XR"}
    do(rnd, "XR")
    assert rnd.current == 1 and plays(rnd) == {"XB"}


def test_a_wild_joker_goes_on_anything_and_names_a_suit():
    rnd = deal("standard", ["XR 2D 3D", "4S 5H 6S"], "10C", STOCK, overrides={**JOKERS, "powers.X.wild": True})
    assert {"XR>C", "XR>D", "XR>H", "XR>S"} <= plays(rnd)
    do(rnd, "XR>H")
    assert rnd.suit == "H" and plays(rnd) == {"5H"}


def test_a_joker_that_draws_five_is_passed_on_by_a_joker():
    rnd = deal("standard", ["XR 2D 3D", "XB 5H 6S", "4C 4D 4H"], "10C", STOCK + " 7C 7D",
               overrides={**JOKERS, "powers.X": {"wild": True, "draw": 5}})
    do(rnd, "XR>H", "XB>S")
    assert rnd.pending == 10 and rnd.current == 2
    do(rnd, "draw")
    assert len(rnd.hands[2]) == 13


def test_jokers_left_in_a_hand_score_their_points():
    rnd = deal("standard", ["XR 2D 3D", "XB 5H 6S"], "10C", STOCK, overrides=JOKERS)
    assert rnd.points() == [55, 61]


# ---------------------------------------------------------------- powers of single cards


def test_a_power_keyed_by_a_card_applies_to_that_card_only():
    rnd = deal("standard", ["KH KS 3D", "4H 5H 6H", "7D 8D 9D"], "10H", STOCK, overrides={"powers.KH.draw": 5})
    do(rnd, "KH")
    assert rnd.pending == 5 and rnd.current == 1
    rnd = deal("standard", ["KS KH 3D", "4S 5H 6H", "7D 8D 9D"], "10S", STOCK, overrides={"powers.KH.draw": 5})
    do(rnd, "KS")
    assert rnd.pending == 0 and rnd.current == 1


def test_the_black_jacks_draw_five_and_the_red_jacks_stay_wild():
    overrides = {"powers.JC JS": {"draw": 5}}
    rnd = deal("standard", ["JS JH 3D", "4S 5H 6H", "7D 8D 9D"], "10S", STOCK, overrides=overrides)
    assert "JS" in plays(rnd) and "JS>H" not in plays(rnd)  # the black Jack's power replaces the Jack's whole
    assert {"JH>C", "JH>D", "JH>H", "JH>S"} <= plays(rnd)
    do(rnd, "JS")
    assert rnd.pending == 5


def test_a_card_key_beats_a_rank_key_and_replaces_its_power_whole():
    ruleset = load("standard", {"powers.8H": {"reverse": True}})
    game = Game.of(ruleset)
    eight_hearts, eight_spades = parse_card("8H"), parse_card("8S")
    assert eight_hearts in game.reverse and eight_hearts not in game.skip
    assert eight_spades in game.skip and eight_spades not in game.reverse


def test_a_card_power_is_played_as_its_own_card():
    overrides = {"powers.8H": {"reverse": True}}
    rnd = deal("standard", ["8H 2D 3D", "4H 5D 6D", "9H 9D 10D"], "10H", STOCK, overrides=overrides)
    do(rnd, "8H")
    assert rnd.direction == -1 and rnd.current == 2 and not [e for e in rnd.history if e.kind == "skip"]


# ---------------------------------------------------------------- powers by the number of players


def test_powers_by_players_replace_a_key_at_exactly_that_table_size():
    overrides = {"powers_by_players": {2: {"9": {"play_again": True}}}, "powers.9.reverse": True}
    two = deal("standard", ["9H 2H 3D", "4S 5D 6D"], "10H", STOCK, overrides=overrides)
    do(two, "9H")
    assert two.current == 0 and two.again and two.direction == 1  # plays again, and no longer reverses
    three = deal("standard", ["9H 2H 3D", "4S 5D 6D", "7S 8S 9S"], "10H", STOCK, overrides=overrides)
    do(three, "9H")
    assert three.current == 2 and three.direction == -1


def test_a_round_dealt_to_another_table_size_uses_that_sizes_game():
    ruleset = load("standard", {"powers_by_players": {2: {"A": {"play_again": True}}}})
    assert Game.of(ruleset, 2) is not Game.of(ruleset, 3)
    assert Game.of(ruleset, 3) is Game.of(ruleset, 4)  # the same powers and deck: one game
    assert Round.deal(ruleset, random.Random(0), 2).game is Game.of(ruleset, 2)


def test_a_two_player_round_of_three_seats_at_the_table_counts_the_players_dealt_in():
    ruleset = load("standard", {"powers_by_players": {2: {"A": {"play_again": True}}}})
    rnd = Round.deal(ruleset, random.Random(0), 3, active=[0, 2])
    assert parse_card("AH") in rnd.game.again
    assert Counter(len(hand) for hand in rnd.hands) == Counter({5: 2, 0: 1})
    assert hand(rnd, 1) == []
