"""docs/house-rules.md: playing on after the first player is out, hands passed on or swapped, the next
player showing their hand, cards given to the next player, and jumping in out of turn."""

import random

from runner.game.actions import PASS, give, swap
from runner.game.cards import RANKS, make_deck
from runner.game.engine import Round
from support.games import play
from support.scenario import deal, do, hand, load, plays

STOCK = "2C 3C 4C 5C 6C 2S 3S 4S 5S 6S 9C 9S"


def kinds(rnd, start=0):
    return [(event.kind, event.seat) for event in rnd.history[start:]]


# ---------------------------------------------------------------- playing on


def test_with_play_on_the_first_out_leaves_the_round_and_the_others_play_on():
    log: list[dict] = []
    rnd = deal("standard", ["4H", "2D", "9D"], "10H", STOCK, overrides={"round.play_on": True}, log=log)
    do(rnd, "4H@maumau")
    assert not rnd.over and rnd.finished == (0,) and rnd.current == 1 and rnd.view().out_order == (0,)
    assert log[-1] == {"type": "out", "seat": 0, "place": 1}
    do(rnd, "draw", "draw")  # seat 0 is passed over
    assert rnd.current == 1


def test_the_round_ends_when_one_player_is_left_and_the_first_out_wins():
    rnd = deal("standard", ["4H", "5H", "6D"], "10H", STOCK, overrides={"round.play_on": True})
    do(rnd, "4H@maumau", "5H@maumau")
    assert rnd.over and rnd.winner == 0 and rnd.finished == (0, 1)
    assert rnd.points() == [0, 0, 6]  # the seats out score nothing, the last one its hand


def test_a_single_round_played_on_ranks_the_table_in_the_order_they_went_out():
    log: list[dict] = []
    result = play(load("standard-single", {"round.play_on": True}), 4, 3, log=log)
    end = next(event for event in log if event["type"] == "round_end")
    assert list(result.ranking) == end["order"] and result.winners == (end["order"][0],)
    assert end["winner"] == end["order"][0] and sorted(end["order"]) == [0, 1, 2, 3]


# ---------------------------------------------------------------- hands passed, swapped and shown


def test_pass_hands_moves_every_hand_to_the_next_player_in_the_direction_of_play():
    overrides = {"powers.Q.pass_hands": True}
    rnd = deal("standard", ["QH 2D 3D", "4S 5S 6S", "7C 8C 9C"], "10H", STOCK, overrides=overrides)
    do(rnd, "QH")
    assert hand(rnd, 1) == ["2D", "3D"] and hand(rnd, 2) == ["4S", "5S", "6S"] and hand(rnd, 0) == ["7C", "8C", "9C"]
    assert kinds(rnd)[-1] == ("pass_hands", -1) and rnd.history[-1].count == 1


def test_swap_hands_next_swaps_with_the_next_player():
    overrides = {"powers.Q.swap_hands": "next"}
    rnd = deal("standard", ["QH 2D 3D", "4S 5S 6S", "7C 8C 9C"], "10H", STOCK, overrides=overrides)
    do(rnd, "QH")
    assert hand(rnd, 0) == ["4S", "5S", "6S"] and hand(rnd, 1) == ["2D", "3D"] and rnd.current == 1


def test_a_last_card_that_swaps_hands_swaps_nothing_once_its_player_is_out():
    """round.play_on: the seat gone out has no hand to swap (it would take cards back into the round it left)."""
    for kind in ("next", "choose"):
        rnd = deal("standard", ["QH", "4S", "7C"], "10H", STOCK,
                   overrides={"round.play_on": True, "powers.Q.swap_hands": kind})
        do(rnd, "QH@maumau")
        assert rnd.finished == (0,) and rnd.current == 1 and rnd.phase == "play"
        assert hand(rnd, 0) == [] and hand(rnd, 1) == ["4S"] and not any(e.kind == "swap" for e in rnd.history)


def test_a_seat_gone_out_draws_no_card_of_its_own_and_no_penalty_is_returned_to_it():
    rnd = deal("standard", ["6H", "4S", "7C"], "10H", STOCK, overrides={"round.play_on": True, "powers.6.self_draw": 1})
    do(rnd, "6H@maumau")
    assert rnd.finished == (0,) and hand(rnd, 0) == [] and rnd.current == 1
    back = deal("standard", ["5H 7S", "JH 3D", "5S 4D", "KS 5D"], "10H", "2C 3C 4C 5C 6C 9C",
                overrides={"round.play_on": True, "powers.J.returns": [7], "drawing.when": "any"})
    do(back, "5H", "draw", "5S", "KS", "7S")
    assert back.finished == (0,) and back.pending == 2 and plays(back) == set()  # JH would return it to seat 0


def test_swap_hands_choose_asks_the_player_for_a_seat_to_swap_with():
    log: list[dict] = []
    rnd = deal("standard", ["QH 2D 3D", "4S 5S 6S", "7C 8C 9C"], "10H", STOCK,
               overrides={"powers.Q.swap_hands": "choose"}, log=log)
    do(rnd, "QH")
    assert rnd.phase == "swap" and rnd.current == 0 and rnd.legal() == (swap(1), swap(2))
    do(rnd, "swap 2")
    assert hand(rnd, 0) == ["7C", "8C", "9C"] and hand(rnd, 2) == ["2D", "3D"] and rnd.current == 1
    assert log[-1] == {"type": "swap", "seat": 0, "with": 2}


def test_show_next_makes_the_next_player_show_their_hand_to_everyone():
    log: list[dict] = []
    rnd = deal("standard", ["KH 2D 3D", "4S 5H 6S", "7C 8C 9C"], "10H", STOCK, overrides={"powers.K.show_next": True},
               log=log)
    do(rnd, "KH")
    assert log[-1] == {"type": "show", "seat": 1, "cards": ["4S", "5H", "6S"]}
    assert rnd.view(2).shown == ((1, tuple(rnd.hands[1])),)


def rest_of_deck(*texts: str) -> str:
    """The cards of a 52-card deck that `texts` do not name: a stock that makes the round a whole deck."""
    named = set(" ".join(texts).split())
    return " ".join(card.text for card in make_deck(RANKS) if card.text not in named)


def test_a_sample_from_a_view_keeps_the_cards_a_seat_showed_in_its_hand():
    hands = ["KH 2D 3D", "4S 5H 6S", "7C 8C 9C"]
    rnd = deal("standard", hands, "10H", rest_of_deck(*hands, "10H"), overrides={"powers.K.show_next": True})
    do(rnd, "KH", "5H")
    view = rnd.view()  # seat 2's: seat 1 showed 4S 5H 6S, then played the 5H
    for seed in range(10):
        sampled = Round.sample(view, random.Random(seed))
        assert sorted(card.text for card in sampled.hands[1]) == ["4S", "6S"]


def test_give_hands_cards_of_the_players_choice_to_the_next_player():
    log: list[dict] = []
    rnd = deal("standard", ["KH 2D 3D 4D", "4S 5H 6S 7S", "7C 8C 9C 10C"], "10H", STOCK,
               overrides={"powers.K.give": 2}, log=log)
    do(rnd, "KH")
    assert rnd.phase == "give" and rnd.current == 0 and set(rnd.legal()) == {give(c) for c in rnd.hands[0]}
    do(rnd, "give 3D", "give 2D")
    assert hand(rnd, 0) == ["4D"] and hand(rnd, 1) == ["2D", "3D", "4S", "5H", "6S", "7S"] and rnd.current == 1
    assert log[-2:] == [{"type": "give", "seat": 0, "to": 1, "card": "3D"},
                        {"type": "give", "seat": 0, "to": 1, "card": "2D"}]


def test_a_card_given_is_seen_by_the_giver_and_the_receiver_only():
    rnd = deal("standard", ["KH 2D 3D", "4S 5H 6S", "7C 8C 9C"], "10H", STOCK, overrides={"powers.K.give": 1})
    do(rnd, "KH", "give 3D")
    seen = {seat: [e.card for e in rnd.view(seat).history if e.kind == "give"] for seat in range(3)}
    assert seen[0] == seen[1] == [rnd.hands[1][-1]] and seen[2] == [None]


# ---------------------------------------------------------------- jumping in


def test_a_seat_holding_the_identical_card_may_jump_in_out_of_turn():
    log: list[dict] = []
    overrides = {"deck.copies": 2, "jump_in": "identical"}
    rnd = deal("standard", ["9H 2D 3D", "4S 5S 6S", "9H 8C 7C"], "10H", STOCK, overrides=overrides, log=log)
    do(rnd, "9H")
    assert rnd.phase == "jump_in" and rnd.current == 2 and set(plays(rnd)) == {"9H"} and PASS in rnd.legal()
    do(rnd, "9H")
    assert log[-1] == {"type": "play", "seat": 2, "card": "9H", "suit": None, "announce": None, "jump_in": True}
    assert rnd.current == 0  # the turn order goes on from the seat that jumped in


def test_a_seat_that_lets_the_chance_go_passes_and_the_turn_goes_on_as_before():
    log: list[dict] = []
    overrides = {"deck.copies": 2, "jump_in": "identical"}
    rnd = deal("standard", ["9H 2D 3D", "4S 5S 6S", "9H 8C 7C"], "10H", STOCK, overrides=overrides, log=log)
    do(rnd, "9H", "pass")
    assert rnd.current == 1 and rnd.phase == "play" and log[-1] == {"type": "pass", "seat": 2}
    assert kinds(rnd) == [("play", 0)]  # the pass is left out of the history: it would show who holds a 9H


def test_jump_in_same_rank_asks_in_turn_order_from_the_player():
    rnd = deal("standard", ["9H 2D 3D", "9S 5S 6S", "9C 8C 7C"], "10H", STOCK, overrides={"jump_in": "same_rank"})
    do(rnd, "9H")
    assert rnd.current == 1
    do(rnd, "pass")
    assert rnd.current == 2 and rnd.phase == "jump_in"
    do(rnd, "9C")
    assert rnd.current == 1 and rnd.phase == "jump_in"  # after the 9C, seat 1's 9S may jump in again
