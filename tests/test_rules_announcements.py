"""Announcements (docs: Rulesets): Mau and Mau Mau, their penalties, challenges, the final 7 of elimination."""

from runner.game.actions import CHALLENGE, PASS, Play
from support.scenario import deal, do, hand

STOCK = "2C 3C 4C 5C 6C 2S 3S 4S 5S 6S"


def log_kinds(rnd, start=0):
    return [(e.kind, e.seat) for e in rnd.history[start:]]


# ---------------------------------------------------------------- family 1


def test_mau_is_due_with_the_play_that_leaves_one_card():
    rnd = deal("standard", ["5H 2D", "4S 5D"], "10H", STOCK)
    assert rnd.legal()[0] == Play(rnd.hands[0][0], None, "mau")


def test_maumau_is_due_with_the_last_card_and_ends_the_round():
    rnd = deal("standard", ["5H 2H", "4S 6D"], "10H", STOCK)
    do(rnd, "5H", "draw", "2H")  # the default move announces what is due
    assert rnd.history[-1].reason == "maumau"
    assert rnd.over and rnd.winner == 0 and rnd.points() == [0, 2 + 4 + 6]


def test_missed_mau_costs_two_cards_drawn_at_once():
    rnd = deal("standard", ["7H 2D", "4S 5D"], "10H", STOCK)
    do(rnd, "7H!")
    assert log_kinds(rnd) == [("play", 0), ("draw", 0)]  # right after the play, before seat 1's 7 penalty
    assert hand(rnd, 0) == ["2C", "2D", "3C"] and rnd.history[-1].reason == "penalty"
    assert rnd.current == 1 and rnd.pending == 2


def test_missed_maumau_costs_two_cards_and_the_round_goes_on():
    rnd = deal("standard", ["5H 2H", "4S 6D"], "10H", STOCK)
    do(rnd, "5H", "draw", "2H!")
    assert not rnd.over and hand(rnd, 0) == ["3C", "4C"]
    assert rnd.current == 1


def test_a_missed_maumau_whose_penalty_draws_nothing_still_goes_out():
    rnd = deal("standard", ["5H 2H", "4S 6D"], "10H", STOCK, overrides={"announcements.maumau.penalty": 0})
    do(rnd, "5H", "draw", "2H!")
    assert rnd.over and rnd.winner == 0 and hand(rnd, 0) == []


def test_an_announcement_that_is_not_due_costs_nothing():
    rnd = deal("standard", ["5H 2D 3D", "4S 5D 6D"], "10H", STOCK)
    do(rnd, "5H@maumau")
    assert hand(rnd, 0) == ["2D", "3D"] and rnd.current == 1


def test_a_wrong_announcement_counts_as_missing():
    rnd = deal("standard", ["5H 2D", "4S 5D"], "10H", STOCK)
    do(rnd, "5H@maumau")  # "Mau Mau" where "Mau" was due
    assert hand(rnd, 0) == ["2C", "2D", "3C"]


def test_the_no_mau_option_has_no_announcement_penalties():
    rnd = deal("strafpunten-no-mau", ["5H 2H", "4S 6D"], "10H", STOCK)
    do(rnd, "5H!", "draw", "2H!")
    assert rnd.over and rnd.winner == 0


# ---------------------------------------------------------------- challenge enforcement


def test_challenge_enforcement_penalises_a_missed_mau_only_when_challenged():
    rnd = deal("standard-challenge", ["5H 2D 3H", "4S 6D 6C", "9C 9D 10C"], "10H", STOCK)
    do(rnd, "5H", "draw", "draw")
    do(rnd, "3H!")  # seat 0 forgets Mau
    assert rnd.phase == "challenge" and rnd.current == 1 and set(rnd.legal()) == {CHALLENGE, PASS}
    do(rnd, "challenge")
    assert hand(rnd, 0) == ["2D", "4C", "5C"] and rnd.current == 1 and rnd.phase == "play"


def test_challenge_enforcement_a_miss_let_go_costs_nothing():
    rnd = deal("standard-challenge", ["5H 2D 3H", "4S 6D 6C", "9C 9D 10C"], "10H", STOCK)
    do(rnd, "5H", "draw", "draw", "3H!", "pass")
    assert hand(rnd, 0) == ["2D"] and rnd.current == 1 and rnd.phase == "play"


def test_challenge_enforcement_a_missed_maumau_let_go_ends_the_round():
    rnd = deal("standard-challenge", ["5H 2H", "4S 6D"], "10H", STOCK)
    do(rnd, "5H", "draw", "2H!")
    assert not rnd.over and rnd.phase == "challenge"
    do(rnd, "pass")
    assert rnd.over and rnd.winner == 0


def test_challenge_enforcement_a_challenged_maumau_costs_two_and_the_round_goes_on():
    rnd = deal("standard-challenge", ["5H 2H", "4S 6D"], "10H", STOCK)
    do(rnd, "5H", "draw", "2H!", "challenge")
    assert not rnd.over and hand(rnd, 0) == ["3C", "4C"]


def test_referee_enforcement_offers_no_challenge():
    rnd = deal("standard", ["5H 2D 3H", "4S 6D 6C"], "10H", STOCK)
    do(rnd, "5H", "draw", "3H!")
    assert rnd.phase == "play" and CHALLENGE not in rnd.legal()


# ---------------------------------------------------------------- family 3


def test_family3_missed_mau_costs_two_cards():
    rnd = deal("elimination", ["5H 2D", "4S 5D"], "10H", STOCK)
    do(rnd, "5H!")
    assert hand(rnd, 0) == ["2C", "2D", "3C"]


def test_family3_needs_no_maumau_with_the_last_card():
    rnd = deal("elimination", ["5H 2H", "4S 6D"], "10H", STOCK)
    do(rnd, "5H", "draw", "2H!")
    assert rnd.over and rnd.winner == 0


def test_family3_early_maumau_costs_nothing():
    rnd = deal("elimination", ["5H 2D 3D", "4S 5D 6D"], "10H", STOCK)
    do(rnd, "5H@maumau")
    assert hand(rnd, 0) == ["2D", "3D"]


def test_family3_a_final_seven_still_makes_the_next_player_draw_before_counting():
    rnd = deal("elimination", ["5H 7H", "4S 6D", "9C 9D"], "10H", STOCK)
    do(rnd, "5H", "draw", "draw", "7H")
    assert rnd.over and rnd.winner == 0
    assert hand(rnd, 1) == ["2C", "4C", "4S", "5C", "6D"]  # drew 2C when stuck, then 4C 5C for the final 7
    assert rnd.points()[1] == 2 + 4 + 4 + 5 + 6


def test_family3_a_final_seven_at_the_end_of_a_chain_passes_the_whole_penalty():
    rnd = deal("elimination", ["5H 7C", "7H 2D"], "10H", STOCK)
    do(rnd, "5H", "7H", "7C")  # seat 1's 7 makes 2; seat 0 goes out with a 7 on it: 4 for seat 1
    assert rnd.over and rnd.winner == 0 and len(rnd.hands[1]) == 1 + 4


def test_family1_a_final_seven_ends_the_round_without_a_draw():
    rnd = deal("standard", ["5H 7H", "4S 6D"], "10H", STOCK)
    do(rnd, "5H", "draw", "7H")
    assert rnd.over and hand(rnd, 1) == ["2C", "4S", "6D"]
