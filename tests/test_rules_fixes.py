"""Bugs found on the way to the house rules, fixed: a skip kept beside play_again, the turn after a wild upcard
that acts, the draw reason in an extra turn; and a rank's powers replaced whole (`replace: true`)."""

import random

from runner import rules
from runner.game.cards import parse_card
from runner.game.engine import Game, Round
from runner.plugins import registry
from support.scenario import deal, do

STOCK = "2C 3C 4C 5C 6C 2S 3S 4S 5S 6S"


def kinds(rnd, start=0):
    return [(event.kind, event.seat) for event in rnd.history[start:]]


def test_a_skip_beside_play_again_applies_when_the_extra_turn_is_over():
    overrides = {"powers.8": {"skip": 1, "play_again": True}}
    rnd = deal("standard", ["8H 2H 3D", "4C 5D 6D", "9C 9D 10D"], "10H", STOCK, overrides=overrides)
    do(rnd, "8H")
    assert rnd.current == 0 and rnd.again and kinds(rnd) == [("play", 0)]  # the extra turn first
    do(rnd, "2H")
    assert kinds(rnd, 1) == [("play", 0), ("skip", 1)] and rnd.current == 2  # then the skip


def test_the_waiting_skip_also_applies_when_the_extra_turn_ends_with_a_draw():
    overrides = {"powers.8": {"skip": 1, "play_again": True}}
    rnd = deal("standard", ["8H 2C 3D", "4C 5D 6D", "9C 9D 10D"], "10H", STOCK, overrides=overrides)
    do(rnd, "8H", "draw")
    assert kinds(rnd, 1) == [("draw", 0), ("skip", 1)] and rnd.current == 2


def test_skip_others_beside_a_skip_skips_them_once_then_once_more_after_the_extra_turn():
    overrides = {"powers.A": {"skip": 1, "skip_others": True}}
    rnd = deal("standard", ["AH 2H 3D", "4C 5D 6D", "9C 9D 10D"], "10H", STOCK, overrides=overrides)
    do(rnd, "AH")
    assert kinds(rnd) == [("play", 0), ("skip", 1), ("skip", 2)] and rnd.current == 0
    do(rnd, "2H")
    assert kinds(rnd, 3) == [("play", 0), ("skip", 1)] and rnd.current == 2


def test_a_wild_upcard_that_skips_keeps_its_skip_after_the_dealer_names_the_suit():
    overrides = {"upcard.effects": "as_dealer_play", "powers.J": {"wild": True, "skip": 1}}
    rnd = deal("standard", ["2H 3D", "4C 5D", "9C 9D"], "JH", STOCK, overrides=overrides)
    dealer = 2
    assert rnd.phase == "name_suit" and rnd.current == dealer
    do(rnd, "name C")
    assert rnd.current == 1  # seat 0, left of the dealer, was skipped by the upcard
    assert kinds(rnd) == [("skip", 0), ("name_suit", dealer)]


def test_a_wild_upcard_that_reverses_hands_the_turn_to_the_right_of_the_dealer_after_naming():
    overrides = {"upcard.effects": "as_dealer_play", "powers.J": {"wild": True, "reverse": True}}
    rnd = deal("standard", ["2H 3D", "4C 5D", "9C 9D"], "JH", STOCK, overrides=overrides)
    do(rnd, "name C")
    assert rnd.direction == -1 and rnd.current == 1


def test_an_extra_turn_after_an_ace_draws_with_reason_ace():
    rnd = deal("elimination", ["AH 2C 3D", "4C 5D 6D"], "10H", STOCK)
    do(rnd, "AH", "draw")
    assert [(e.kind, e.reason) for e in rnd.history][-1] == ("draw", "ace")


def test_an_extra_turn_after_another_play_again_card_draws_with_reason_again():
    log: list[dict] = []
    rnd = deal("elimination", ["KH 2C 3D", "4C 5D 6D"], "10H", STOCK, overrides={"powers.K.play_again": True}, log=log)
    do(rnd, "KH", "draw")
    assert [(e.kind, e.reason) for e in rnd.history][-1] == ("draw", "again")
    assert log[-1] == {"type": "draw", "seat": 0, "cards": ["2C"], "reason": "again"}


def test_replace_true_gives_a_rank_new_powers_instead_of_adding_to_the_inherited_ones(tmp_path):
    path = tmp_path / "eights-reverse.yaml"
    path.write_text("extends: standard\nname: eights-reverse\npowers:\n  8: {replace: true, reverse: true}\n")
    ruleset = rules.load(path, registry().ruleset_path)
    game = Game.of(ruleset)
    eight = parse_card("8H")
    assert eight in game.reverse and eight not in game.skip
    rnd = Round.deal(ruleset, random.Random(1), 3)
    assert rnd.game is game
