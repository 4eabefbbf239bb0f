"""docs/house-rules.md: drawing until a card can be played (or up to `max`), a drawn card that must be played, drawing
and going on, and a stock that is not refilled from the pile."""

from runner.game.actions import DRAW, PASS
from runner.game.engine import BLOCKED, Outcome
from support.scenario import deal, do, hand, plays


def draws(rnd):
    return [(event.seat, event.count, event.reason) for event in rnd.history if event.kind == "draw"]


def test_until_playable_draws_one_card_after_another_until_one_fits():
    log: list[dict] = []
    rnd = deal("standard", ["2C 3D", "8S 9S"], "10H", "4C 5C 6H 7C", overrides={"drawing.until_playable": True},
               log=log)
    do(rnd, "draw")
    assert hand(rnd, 0) == ["2C", "3D", "4C", "5C", "6H"] and rnd.phase == "drawn"
    assert [event for event in log if event["type"] == "draw"] == [
        {"type": "draw", "seat": 0, "cards": ["4C", "5C", "6H"], "reason": "stuck"}]  # one event
    assert plays(rnd) == {"6H"} and PASS in rnd.legal()  # the card that fits, as drawn_card says


def test_until_playable_stops_at_max_cards():
    overrides = {"drawing.until_playable": True, "drawing.max": 2}
    rnd = deal("standard", ["2C 3D", "8S 9S"], "10H", "4C 5C 6H 7C", overrides=overrides)
    do(rnd, "draw")
    assert hand(rnd, 0) == ["2C", "3D", "4C", "5C"] and rnd.current == 1


def test_until_playable_goes_on_across_a_reshuffle_written_as_two_draws_around_it():
    log: list[dict] = []
    rnd = deal("standard", ["5H 2C 3D", "8S 9S 6S"], "10H", "4C 7C", overrides={"drawing.until_playable": True},
               log=log)
    do(rnd, "5H", "draw")  # 4C, 7C; the stock is out: the pile under the 5H (the 10H) is turned over; 10H fits
    assert [(event["type"], event.get("cards")) for event in log[-3:]] == [
        ("draw", ["4C", "7C"]), ("reshuffle", None), ("draw", ["10H"])]
    assert rnd.phase == "drawn" and plays(rnd) == {"10H"}


def test_a_drawn_card_that_fits_must_be_played():
    rnd = deal("standard", ["2C 3D", "8S 9S"], "10H", "6H 7C", overrides={"drawing.drawn_card": "must_play"})
    do(rnd, "draw")
    assert rnd.phase == "drawn" and PASS not in rnd.legal() and plays(rnd) == {"6H"}


def test_a_drawn_card_that_does_not_fit_ends_the_turn_as_usual_under_must_play():
    rnd = deal("standard", ["2C 3D", "8S 9S"], "10H", "6C 7C", overrides={"drawing.drawn_card": "must_play"})
    do(rnd, "draw")
    assert rnd.current == 1


def test_go_on_after_drawing_by_choice_any_card_of_the_hand_may_be_played():
    overrides = {"drawing.when": "any", "drawing.drawn_card": "go_on"}
    rnd = deal("standard", ["2H 3D", "8S 9S"], "10H", "6C 7C", overrides=overrides)
    assert DRAW in rnd.legal()  # drawing by choice, though 2H fits
    do(rnd, "draw")
    assert rnd.phase == "drawn" and rnd.current == 0
    assert plays(rnd) == {"2H"} and PASS in rnd.legal() and DRAW not in rnd.legal()  # no second draw
    do(rnd, "2H")
    assert rnd.current == 1


def test_go_on_the_turn_ends_with_pass():
    overrides = {"drawing.when": "any", "drawing.drawn_card": "go_on"}
    rnd = deal("standard", ["2H 3D", "8S 9S"], "10H", "6C 7C", overrides=overrides)
    do(rnd, "draw", "pass")
    assert rnd.current == 1 and [e.kind for e in rnd.history] == ["draw", "pass"]


def test_without_reshuffle_an_empty_stock_stays_empty_and_the_round_may_end_blocked():
    rnd = deal("standard", ["2C 3D", "8S 9S"], "10H", "4C", overrides={"drawing.reshuffle": False})
    do(rnd, "draw", "draw", "draw")  # the 4C; then nothing for seat 1 and for seat 0: a turn each, blocked
    assert draws(rnd) == [(0, 1, "stuck"), (1, 0, "stuck"), (0, 0, "stuck")]
    assert rnd.outcome == Outcome(None, BLOCKED)
    assert not [event for event in rnd.history if event.kind == "reshuffle"]


def test_without_reshuffle_a_penalty_takes_what_is_left():
    rnd = deal("standard", ["7H 3D", "8S 9S"], "10H", "4C", overrides={"drawing.reshuffle": False})
    do(rnd, "7H", "draw")
    assert draws(rnd)[-1] == (1, 1, "seven") and rnd.current == 0
