"""The `medium` bot: each strategy tip (docs: Built-in bots) as a heuristic, checked on a small stacked deal."""

import random

from maumau.bots import medium
from maumau.bots.medium import MediumBot
from runner.game.actions import DRAW, NameSuit, Play
from support.midround import table
from support.scenario import cards, deal, do

STOCK = "2C 3C 4C 5C 6C 2S 3S 4S 5S 6S 9S 10S"


def choose(rnd):
    """The medium bot's action for the seat to act."""
    return MediumBot(rng=random.Random(0)).act(rnd.view())


def played(rnd) -> str:
    action = choose(rnd)
    assert isinstance(action, Play), action
    return action.card.text


def test_keeps_a_jack_back_while_another_card_can_be_played():
    rnd = deal("standard", ["JD 5H 2S", "3D 4D 6D", "8C 9C 10C"], "9H", STOCK)
    view = rnd.view()
    wild = medium.powers(view)[0]
    assert medium.keep_jack_back(view, cards("JD")[0], wild) < 0
    assert medium.keep_jack_back(view, cards("5H")[0], wild) == 0
    assert played(rnd) == "5H"


def test_plays_the_jack_when_it_is_the_only_escape():
    rnd = deal("standard", ["JD 5C 2S", "3D 4D 6D", "8C 9C 10C"], "9H", STOCK)
    assert medium.keep_jack_back(rnd.view(), cards("JD")[0], medium.powers(rnd.view())[0]) == 0
    assert played(rnd) == "JD"


def test_answers_a_seven_with_a_seven():
    rnd = deal("standard", ["7H 2D 3D", "7S 5D 6D", "8D 9D 10D"], "10H", STOCK)
    do(rnd, "7H")
    answer = medium.answer_seven(rnd.view())
    assert answer.card.text == "7S"
    assert choose(rnd) == answer


def test_takes_the_penalty_without_a_seven():
    rnd = deal("standard", ["7H 2D 3D", "4S 5D 6D", "8D 9D 10D"], "10H", STOCK)
    do(rnd, "7H")
    assert medium.answer_seven(rnd.view()) is None
    assert choose(rnd) == DRAW


def test_times_an_eight_against_the_next_player_about_to_go_out():
    rnd = table("standard", ["8H 4H 3D KC", "6C", "2D 3S 5D", "4C 5S 10D"], "9H")  # seat 1 holds one card
    view = rnd.view()
    assert medium.time_eight(view, cards("8H")[0], medium.powers(view)[2]) > 0
    assert played(rnd) == "8H"


def test_holds_an_eight_that_would_bring_a_threat_on_sooner():
    # The seat after next is about to go out; skipping seat 1 would bring its turn on sooner.
    rnd = table("standard", ["8H 4H 3D KC", "5D 6C 2C 3C", "2D", "4C 5S 10D"], "9H")
    view = rnd.view()
    assert medium.time_eight(view, cards("8H")[0], medium.powers(view)[2]) < 0
    assert played(rnd) == "4H"


def test_times_a_seven_surely_when_no_seven_is_left_hidden():
    # Every other 7 is in our hand or on the pile, so the next player cannot pass it on.
    rnd = table("standard", ["7H 4H 3D 7C 7D", "6C", "2D 3S 4C"], "7S 5H")
    view = rnd.view()
    assert medium.unseen_count(view, "7") == 0
    assert medium.time_seven(view, cards("7H")[0], medium.powers(view)[1]) == medium.TIMING
    assert played(rnd) == "7H"


def test_names_the_suit_it_holds_most():
    rnd = table("standard", ["JD 2S 3S 4H", "5D 6D 2C 3C", "8D 9D 10D 5C"], "9C")
    view = rnd.view()
    assert medium.name_suit_held_most(view, cards("JD")[0]) == "S"
    action = choose(rnd)
    assert action.card.text == "JD" and action.suit == "S"


def test_names_the_suit_held_most_as_dealer_after_a_turned_up_jack():
    rnd = deal("standard", ["2S 3D 4D", "5C 6C 2H", "8D 9D 2S"], "JC", STOCK)
    assert rnd.phase == "name_suit" and rnd.current == 2  # the dealer
    assert choose(rnd) == NameSuit("D")


def test_sheds_a_jack_worth_twenty_when_an_opponent_is_about_to_go_out():
    hands = ["JH 3H 5C", "6D 8D 9D", "4C 5D 6S"]
    under = {}
    for name in ("standard", "strafpunten"):
        rnd = table(name, [hands[0], "6D", hands[2]], "9H")  # seat 1 is about to go out
        under[name] = played(rnd)
    assert under == {"standard": "3H", "strafpunten": "JH"}  # a Jack is 10 points there, 20 here
    view = deal("strafpunten", hands, "9H", STOCK).view()
    assert medium.shed_high_value(view, cards("JH")[0]) > medium.shed_high_value(view, cards("3H")[0])


def test_keeps_suits_spread():
    rnd = deal("standard", ["5H 6H 9C", "2D 3D 4D", "8C 10C QC"], "9H", STOCK)
    view = rnd.view()
    assert medium.keep_suits_spread(view, cards("5H")[0]) > medium.keep_suits_spread(view, cards("9C")[0])
    assert played(rnd) in ("5H", "6H")


def test_counts_the_action_cards_on_the_pile():
    rnd = deal("standard", ["7H 2D 3D", "7S 5D 6D", "8D 9D 10D"], "10H", STOCK)
    assert medium.unseen_count(rnd.view(), "7") == 3  # 7H in the hand
    do(rnd, "7H", "7S")
    do(rnd, "draw")
    assert rnd.current == 0
    assert medium.unseen_count(rnd.view(), "7") == 2  # 7H and 7S on the pile
