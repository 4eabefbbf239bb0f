"""docs/house-rules.md: a false call's penalty, the cards a round may (not) end on, a card that makes its
own player draw, and a limit on the next card's rank."""

from runner.game.actions import DRAW
from support.scenario import can, deal, do, hand, plays

STOCK = "2C 3C 4C 5C 6C 2S 3S 4S 5S 6S 9C 9S"


def draws(rnd):
    return [(event.seat, event.count, event.reason) for event in rnd.history if event.kind == "draw"]


# ---------------------------------------------------------------- false calls


def test_a_mau_that_was_not_due_costs_the_false_penalty():
    rnd = deal("standard", ["4H 5D 6D", "8S 9S 10S"], "10H", STOCK, overrides={"announcements.mau.false_penalty": 2})
    do(rnd, "4H@mau")  # two cards are left: no Mau was due
    assert draws(rnd) == [(0, 2, "false_call")] and len(rnd.hands[0]) == 4 and rnd.current == 1


def test_a_false_call_costs_nothing_without_a_false_penalty():
    rnd = deal("standard", ["4H 5D 6D", "8S 9S 10S"], "10H", STOCK)
    do(rnd, "4H@mau")
    assert draws(rnd) == []


def test_a_mau_mau_with_one_card_left_is_a_missed_mau_and_a_false_mau_mau():
    overrides = {"announcements.maumau.false_penalty": 1}
    rnd = deal("standard", ["4H 5D", "8S 9S"], "10H", STOCK, overrides=overrides)
    do(rnd, "4H@maumau")
    assert draws(rnd) == [(0, 2, "penalty"), (0, 1, "false_call")]


def test_an_announcement_that_is_due_but_not_required_is_no_false_call():
    overrides = {"announcements.mau.required": False, "announcements.mau.false_penalty": 2}
    rnd = deal("standard", ["4H 5D", "8S 9S"], "10H", STOCK, overrides=overrides)
    do(rnd, "4H@mau")
    assert draws(rnd) == []


# ---------------------------------------------------------------- going out


def test_a_forbidden_last_card_may_not_be_played_the_player_draws_instead():
    rnd = deal("standard", ["8H", "2S"], "10H", STOCK, overrides={"going_out.forbidden": [8, "J"]})
    assert plays(rnd) == set() and rnd.legal() == (DRAW,)
    rnd = deal("standard", ["8H 9H", "2S 3S"], "10H", STOCK, overrides={"going_out.forbidden": [8, "J"]})
    assert plays(rnd) == {"8H", "9H"}  # not the last card: it may be played


def test_going_out_only_on_given_cards():
    rnd = deal("standard", ["9H 9D", "2S 3S"], "10H", STOCK, overrides={"going_out.only": ["Q"]})
    do(rnd, "9H", "draw")
    assert rnd.current == 0 and not can(rnd, "9D") and rnd.legal() == (DRAW,)  # 9D matches, but is no Queen


def test_going_out_only_on_the_given_card_ends_the_round():
    rnd = deal("standard", ["9H QH", "2S 3S"], "10H", STOCK, overrides={"going_out.only": ["Q"]})
    do(rnd, "9H", "draw", "QH")
    assert rnd.winner == 0


def test_the_last_card_must_follow_suit_no_rank_match_no_wild():
    overrides = {"going_out.follow_suit": True}
    rnd = deal("standard", ["10S", "2S"], "10H", STOCK, overrides=overrides)
    assert plays(rnd) == set()  # 10S matches the 10H by rank only
    rnd = deal("standard", ["JH", "2S"], "10H", STOCK, overrides=overrides)
    assert plays(rnd) == set()  # a wild last card does not follow suit
    rnd = deal("standard", ["4H", "2S"], "10H", STOCK, overrides=overrides)
    assert plays(rnd) == {"4H"}


# ---------------------------------------------------------------- self_draw and next_rank


def test_a_self_draw_card_makes_its_own_player_draw():
    rnd = deal("standard", ["KH 5D 6D", "8S 9S 10S"], "10H", STOCK, overrides={"powers.K.self_draw": 1})
    do(rnd, "KH")
    assert draws(rnd) == [(0, 1, "self")] and hand(rnd, 0) == ["2C", "5D", "6D"] and rnd.current == 1


def test_next_rank_at_most_asks_for_that_rank_or_lower():
    overrides = {"powers.5.next_rank": "at_most"}
    rnd = deal("standard", ["5H 4D 6D", "4H 6H 5S", "9C 10C KC"], "10H", STOCK, overrides=overrides)
    do(rnd, "5H")
    assert rnd.view().next_rank == ("at_most", "5") and plays(rnd) == {"4H", "5S"}  # not the 6H, though a heart


def test_next_rank_at_least_asks_for_that_rank_or_higher_and_wild_cards_are_exempt():
    overrides = {"powers.9.next_rank": "at_least"}
    rnd = deal("standard", ["9H 4D 6D", "4H QH JS", "9C 10C KC"], "10H", STOCK, overrides=overrides)
    do(rnd, "9H")
    assert {text.split(">")[0] for text in plays(rnd)} == {"QH", "JS"}


def test_next_rank_holds_for_the_next_card_only():
    overrides = {"powers.5.next_rank": "at_most"}
    rnd = deal("standard", ["5H 4D 6D", "4H 6H 5S", "9C 10C KC"], "10H", STOCK, overrides=overrides)
    do(rnd, "5H", "4H")
    assert rnd.next_rank is None
