"""Pending effects and their answers (docs/house-rules.md): other cards passing a penalty on (stack_with, stack_match),
a penalty that does not end the turn, one aimed at the previous player, cards that cancel or return it, and
skips that are passed on or grow (skip_stack, skip_with)."""

from runner.game.actions import DRAW, PASS
from support.scenario import deal, do, hand, plays

STOCK = "2C 3C 4C 5C 6C 2S 3S 4S 5S 6S 9C 9S"
MAKAO = {"powers.2": {"draw": 2, "stack_with": [3]}, "powers.3": {"draw": 3, "stack_with": [2]}}


def kinds(rnd, start=0):
    return [(event.kind, event.seat) for event in rnd.history[start:]]


# ---------------------------------------------------------------- answering a penalty with other cards


def test_stack_with_lets_another_rank_pass_the_penalty_on_adding_its_own_draw():
    rnd = deal("standard", ["2H 4D 5D", "3D 7D 8D", "9H 10H KC"], "10H", STOCK, overrides=MAKAO)
    do(rnd, "2H")
    assert plays(rnd) == {"3D"}  # a 3 on a 2, whatever its suit; the 7 has no say here
    do(rnd, "3D")
    assert rnd.pending == 5 and rnd.current == 2 and rnd.pending_card.text == "3D"
    do(rnd, "draw")
    assert len(rnd.hands[2]) == 8


def test_without_stack_with_only_the_same_rank_passes_it_on():
    rnd = deal("standard", ["2H 4D 5D", "3H 2D 8D", "9H 10H KC"], "10H", STOCK,
               overrides={"powers.2.draw": 2, "powers.3.draw": 3})
    do(rnd, "2H")
    assert plays(rnd) == {"2D"}


def test_stack_match_asks_the_passing_card_to_match_by_rank_or_the_suit():
    overrides = {"powers.2": {"draw": 2, "stack_with": [3], "stack_match": True}, "powers.3.draw": 3}
    rnd = deal("standard", ["2S 4D 5D", "3S 3H 2H", "9H 10H KC"], "10S", STOCK, overrides=overrides)
    do(rnd, "2S")
    assert plays(rnd) == {"3S", "2H"}  # 3S on 2S (suit), 2H on 2S (rank), not 3H


def test_a_penalty_that_does_not_end_the_turn_lets_the_victim_play_after_drawing():
    overrides = {"powers.2": {"draw": 2, "ends_turn": False}}
    rnd = deal("standard", ["2H 4D 5D", "7C 8D 9D", "9H 10H KC"], "10H", STOCK, overrides=overrides)
    do(rnd, "2H")
    assert rnd.legal() == (DRAW,)
    do(rnd, "draw")
    assert rnd.current == 1 and rnd.pending == 0 and hand(rnd, 1) == ["2C", "3C", "7C", "8D", "9D"]
    assert plays(rnd) == {"2C"}  # its turn goes on: the 2C it drew matches the 2H
    do(rnd, "2C")
    assert rnd.current == 2 and rnd.pending == 2


def test_a_penalty_aimed_at_the_previous_player_sends_the_turn_to_them_then_play_goes_on_from_them():
    overrides = {"powers.K": {"draw": 2, "target": "previous"}}
    rnd = deal("standard", ["4H 5D 6D", "KH 8D 9D", "9C 10C QC"], "10H", STOCK, overrides=overrides)
    do(rnd, "4H", "KH")
    assert rnd.current == 0 and rnd.pending == 2  # seat 0 played before the King
    do(rnd, "draw")
    assert len(rnd.hands[0]) == 4 and rnd.current == 1  # and play goes on from seat 0


def test_a_card_that_cancels_the_penalty_is_played_on_it_and_nobody_draws():
    overrides = {"powers.JC JS": {"draw": 5}, "powers.JH JD": {"cancels": ["JC JS"]}}
    rnd = deal("standard", ["JS 4D 5D", "JH 8D 9D", "9H 10H KC"], "10S", STOCK, overrides=overrides)
    do(rnd, "JS")
    assert plays(rnd) == {"JH"}  # a red Jack goes on the black one though it names nothing
    do(rnd, "JH")
    assert rnd.pending == 0 and rnd.current == 2 and len(rnd.hands[2]) == 3
    assert plays(rnd) == {"9H", "10H"}  # then play goes on, on the red Jack


def test_cancels_true_cancels_the_penalty_of_any_card():
    overrides = {"powers.Q.cancels": True}
    rnd = deal("standard", ["7H 4D 5D", "QC 8D 9D", "9H 10H KC"], "10H", STOCK, overrides=overrides)
    do(rnd, "7H")
    assert plays(rnd) == {"QC"}
    do(rnd, "QC")
    assert rnd.pending == 0 and rnd.current == 2


def test_a_card_that_returns_the_penalty_sends_it_back_unchanged_to_its_player():
    overrides = {"powers.A.returns": [7]}
    rnd = deal("standard", ["7H 4D 5D", "AC 8D 9D", "9H 10H KC"], "10H", STOCK, overrides=overrides)
    do(rnd, "7H", "AC")
    assert rnd.current == 0 and rnd.pending == 2  # back to seat 0, who played the 7
    assert rnd.legal() == (DRAW,)  # who may answer it as usual (with a 7 or an Ace, if it held one)
    do(rnd, "draw")
    assert len(rnd.hands[0]) == 4 and rnd.current == 1


def test_a_returning_card_that_also_draws_adds_its_draw_and_sends_the_whole_penalty_back():
    overrides = {"powers.A": {"draw": 2, "returns": [7]}}
    rnd = deal("standard", ["7H 4D 5D", "AC 8D 9D", "9H 10H KC"], "10H", STOCK, overrides=overrides)
    do(rnd, "7H", "AC")
    assert rnd.current == 0 and rnd.pending == 4  # to seat 0, who sent the 7, not to seat 1, who returned it
    do(rnd, "draw")
    assert len(rnd.hands[0]) == 6 and rnd.current == 1


def test_a_returned_penalty_may_be_returned_again():
    overrides = {"powers.A.returns": True}
    rnd = deal("standard", ["7H AD 5D", "AC 8D 9D", "9H 10H KC"], "10H", STOCK, overrides=overrides)
    do(rnd, "7H", "AC", "AD")
    assert rnd.current == 1 and rnd.pending == 2


# ---------------------------------------------------------------- answering a skip


def test_a_skip_passed_on_with_the_same_rank_goes_to_the_next_player():
    overrides = {"powers.A": {"skip": 1, "skip_stack": "pass"}}
    rnd = deal("standard", ["AH 4D 5D", "AC 8D 9D", "9H 10H KC"], "10H", STOCK, overrides=overrides)
    do(rnd, "AH")
    assert rnd.current == 1 and rnd.skip_pending == 1
    assert plays(rnd) == {"AC"} and PASS in rnd.legal() and DRAW not in rnd.legal()
    do(rnd, "AC")
    assert rnd.current == 2 and rnd.skip_pending == 1
    assert rnd.legal() == (PASS,)
    do(rnd, "pass")  # takes the skip: a `skip` naming itself
    assert kinds(rnd)[-1] == ("skip", 2) and rnd.current == 0 and rnd.skip_pending == 0


def test_skips_that_add_up_make_the_one_who_takes_them_miss_that_many_turns():
    overrides = {"powers.4": {"skip": 1, "skip_stack": "add"}}
    rnd = deal("standard", ["4H 9C 5D", "4C 8D 9D", "9H 10H KC"], "10H", STOCK, overrides=overrides)
    do(rnd, "4H", "4C")
    assert rnd.current == 2 and rnd.skip_pending == 2
    do(rnd, "pass")  # misses this turn and the next
    assert rnd.waits == (0, 0, 1) and rnd.current == 0
    do(rnd, "9C", "9D")
    assert kinds(rnd)[-2:] == [("play", 1), ("skip", 2)] and rnd.current == 0 and rnd.waits == ()


def test_skip_with_lets_other_cards_answer_a_skip():
    overrides = {"powers.8": {"skip": 1, "skip_stack": "pass", "skip_with": [9]}}
    rnd = deal("standard", ["8H 4D 5D", "9C 8D 2D", "9H 10H KC"], "10H", STOCK, overrides=overrides)
    do(rnd, "8H")
    assert plays(rnd) == {"9C", "8D"}
    do(rnd, "9C")
    assert rnd.current == 2 and rnd.skip_pending == 1


def test_an_unanswerable_skip_skips_at_once_as_before():
    rnd = deal("standard", ["8H 4D 5D", "8C 8D 9D", "9H 10H KC"], "10H", STOCK)
    do(rnd, "8H")
    assert rnd.current == 2 and kinds(rnd)[-1] == ("skip", 1)
