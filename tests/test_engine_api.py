"""The engine's API for search and tools: the Game, the checked `play`, a round's `outcome`, a state from a View."""

import random

import pytest

import runner
from runner.game.actions import DRAW, PASS, Play
from runner.game.engine import BLOCKED, FORFEITED, TURN_LIMIT, WENT_OUT, Game, IllegalAction, Outcome, Round
from support.midround import table
from support.scenario import cards, deal, load


def test_the_game_is_public_and_one_per_ruleset():
    ruleset = load("standard")
    assert runner.Game is Game and runner.Outcome is Outcome
    assert Game.of(ruleset) is Game.of(ruleset) is Round.deal(ruleset, random.Random(1), 3).game
    assert Game.of(load("standard", {"hand_size": 4})) is not Game.of(ruleset)  # another ruleset, another game


def test_play_carries_out_a_legal_action_and_refuses_an_illegal_one():
    rnd = table("standard", ["7H 9C", "8D 5S"], "10H")
    with pytest.raises(IllegalAction, match=r"play 9C .*is not legal for seat 0 in phase play \(legal: "):
        rnd.play(Play(cards("9C")[0]))
    assert rnd.current == 0 and len(rnd.hands[0]) == 2  # nothing happened
    assert rnd.play(Play(cards("7H")[0], announce="mau")) == Play(cards("7H")[0], announce="mau")
    assert rnd.current == 1 and rnd.top == cards("7H")[0]


def test_play_takes_a_play_without_its_announcement_which_costs_the_penalty():
    rnd = table("standard", ["7H 9C", "8D 5S"], "10H")
    done = rnd.play(Play(cards("7H")[0]))  # "mau" was due
    assert done == Play(cards("7H")[0]) and len(rnd.hands[0]) == 1 + 2  # the card played, the penalty drawn


def test_the_outcome_says_who_won_and_why():
    rnd = table("standard-single", ["7H", "8D 5S"], "10H")
    assert rnd.outcome is None
    rnd.play(Play(cards("7H")[0], announce="maumau"))
    assert rnd.over and rnd.outcome == Outcome(0, WENT_OUT)


def test_a_round_where_nobody_can_play_or_draw_is_blocked():
    rnd = deal("standard-single", ["9C", "9D"], "10H")  # no stock, one card on the pile: nothing to draw
    while not rnd.over:
        rnd.play(DRAW if DRAW in rnd.legal() else PASS)
    assert rnd.outcome == Outcome(None, BLOCKED)


def test_a_round_at_the_turn_limit_ends_without_a_winner():
    rnd = deal("standard-single", ["9C 9S", "9D 9H"], "10H", "2H 2S 2C 2D 3H 3S 3C 3D 4H 4S 4C 4D",
               overrides={"turn_limit": 10, "drawing.when": "any", "drawing.drawn_card": "keep"})
    while not rnd.over:
        rnd.play(DRAW)
    assert rnd.outcome == Outcome(None, TURN_LIMIT) and rnd.turns == 10


def test_a_round_left_with_one_seat_after_forfeits_goes_to_it():
    rnd = deal("standard-single", ["9C", "9D", "9S"], "10H", "2H 2S")
    rnd.forfeit(1)
    assert not rnd.over
    rnd.forfeit(0)
    assert rnd.outcome == Outcome(2, FORFEITED)


def test_a_state_rebuilt_from_a_view_and_its_hidden_cards_plays_on_like_the_original():
    ruleset = load("strafpunten")
    for seed in range(30):
        rnd = Round.deal(ruleset, random.Random(seed), 3)
        chooser = random.Random(seed)
        for _ in range(chooser.randrange(40)):
            if rnd.over:
                break
            rnd.apply(chooser.choice(rnd.legal()))
        if rnd.over:
            continue
        view = rnd.view()
        copy = Round.from_view(view, random.Random(seed), rnd.hands, list(reversed(rnd.stock)))
        assert copy.view() == view
        rng = random.Random(seed)
        copy.rng.setstate(rnd.rng.getstate())
        while not rnd.over:
            action = rng.choice(rnd.legal())
            rnd.apply(action)
            copy.apply(action)
            assert copy.view() == rnd.view()
        assert copy.outcome == rnd.outcome and copy.points() == rnd.points()


def test_from_view_refuses_hidden_cards_that_do_not_fit_the_view():
    rnd = Round.deal(load("standard"), random.Random(3), 3)
    view = rnd.view()
    with pytest.raises(ValueError, match="do not fit"):
        Round.from_view(view, random.Random(0), rnd.hands[:2] + [rnd.hands[2][:-1]], list(reversed(rnd.stock)))
