"""The verifier on drawing, false announcements and going out (docs: Rulesets): drawing until a card
fits (at most N), a drawn card that must be played, drawing and going on, no reshuffle, a false call's
penalty, and the cards a round may not (or may only) end on."""

from __future__ import annotations

from support.logbuilder import Log, accepted, rejected, unfinished

UNTIL = {"drawing.until_playable": True}


def until_log(changes: dict = UNTIL, drawn: str = "7C 8D 9H") -> tuple[Log, int]:
    log = Log(changes)
    log.deal(["8S QS", "9C KC"], up="10H", stock="7C 8D 9H")
    draw = log.draw(0, drawn)
    log.play(0, "9H")
    log.play(1, "9C")
    log.play(0, "7C")
    log.play(1, "KC")
    log.finish(1, [19, 0])
    return log, draw


def test_a_draw_until_playable_takes_cards_until_one_fits():
    log, _ = until_log()
    accepted(log.events)


def test_a_draw_until_playable_stops_at_the_first_card_that_fits_and_not_before():
    log, draw = until_log()
    fourth = log.events[1]["stock"][3]
    rejected(log.changed(draw, cards=["7C", "8D", "9H", fourth]), draw, "draws on after 9H, which it can play")
    rejected(log.changed(draw, cards=["7C", "8D"]), draw, "stops drawing at 8D, which it cannot play")
    one_by_one = Log()
    one_by_one.events[1:] = log.events[1:]
    rejected(one_by_one.events, draw, "draws 3 cards, 1 is due")


def test_a_draw_until_playable_takes_at_most_max_cards():
    log = Log({**UNTIL, "drawing.max": 2})
    log.deal(["8S QS", "9C KC"], up="10H", stock="7C 8D 9H")
    log.draw(0, "7C 8D")  # neither fits: the turn ends
    log.draw(1, "9H")
    assert unfinished(log.events)
    rejected(log.changed(2, cards=["7C", "8D", "9H"]), 2, "draws 3 cards, 2 are due")


def test_a_drawn_card_that_fits_must_be_played():
    log = Log({"drawing.drawn_card": "must_play"})
    log.deal(["8S QS", "9C KC"], up="10H", stock="9H")
    log.draw(0, "9H")
    play = log.play(0, "9H")
    log.play(1, "9C")
    assert unfinished(log.events)
    rejected(log.changed(play, type="pass"), play, "the rules say it must be")


def test_after_drawing_by_choice_the_turn_goes_on_with_any_card():
    rules = {"drawing.when": "any", "drawing.drawn_card": "go_on"}
    log = Log(rules)
    log.deal(["9H QS", "9C KC"], up="10H", stock="7D")
    log.draw(0, "7D", "choice")
    log.play(0, "9H")  # not the drawn card: the whole hand may play
    log.play(1, "9C")
    assert unfinished(log.events)
    keep = Log({"drawing.when": "any"})
    keep.events[1:] = log.events[1:]
    rejected(keep.events, 3, "seat 0 plays, but it is seat 1's turn")  # 7D does not fit: the turn ended
    again = log.changed(3, type="draw", cards=["8D"], reason="choice")
    rejected(again, 3, "expected play or pass")


def stock_of_one(changes: dict) -> Log:
    """Fifteen cards each from the 32: one card left in the stock; seat 0 holds no heart, no 7 and no King."""
    seat0 = [rank + suit for suit in "CDS" for rank in ("8", "9", "10", "J", "Q")]
    seat1 = [rank + "H" for rank in ("8", "9", "10", "J", "Q", "K", "A")] + ["7C", "7D", "7S", "KC", "KD", "KS",
                                                                             "AC", "AD"]
    log = Log({"hand_size": 15, "players.max": 2, "turn_limit": 10, **changes})
    log.deal([" ".join(seat0), " ".join(seat1)], up="7H", stock="AS")
    log.draw(0, "AS")  # the last card of the stock
    log.play(1, "KH")
    return log


def test_without_reshuffles_an_empty_stock_stays_empty_and_a_stuck_player_passes():
    log = stock_of_one({"drawing.reshuffle": False})
    empty = log.draw(0, "")
    for seat, card in ((1, "AH"), (0, "AS"), (1, "AC"), (0, "8C"), (1, "7C"), (0, "9C"), (1, "9H")):
        log.play(seat, card)
    log.finish(None, [79, 60])  # the turn limit (10) ends it as blocked
    accepted(log.events)
    reshuffling = stock_of_one({})
    reshuffling.events[1:] = log.events[1:]
    rejected(reshuffling.events, empty, "expected reshuffle")
    rejected(log.with_inserted(empty, {"type": "reshuffle", "stock": ["7H"]}), empty,
             "the rules never turn the pile over")


# ---------------------------------------------------------------- false announcements


def test_a_false_call_costs_its_penalty():
    log = Log({"announcements.mau.false_penalty": 1, "announcements.maumau.false_penalty": 2, "hand_size": 3})
    log.deal(["9H 10H KS", "7C 8C QC"], up="8H", stock="7D 8D 9D 10D")
    play = log.play(0, "9H", announce="mau")  # two cards left: not due
    penalty = log.draw(0, "7D", "false_call")
    log.draw(1, "8D")
    log.play(0, "10H", announce="maumau")  # two left
    log.draw(0, "9D 10D", "false_call")
    assert unfinished(log.events)
    rejected(log.without(penalty), penalty, "a draw by seat 1")
    rejected(log.changed(penalty, reason="penalty"), penalty, "expected false_call")
    assert log.events[play]["announce"] == "mau"


def test_a_call_that_is_due_costs_nothing():
    log = Log({"announcements.mau.false_penalty": 1})
    log.deal(["9H 10H", "7C 8C"], up="8H", stock="7D")
    log.play(0, "9H", announce="mau")  # one card left: due (and not required)
    log.draw(1, "7D")
    log.play(0, "10H")
    log.finish(0, [0, 22])
    accepted(log.events)


# ---------------------------------------------------------------- going out


def going_out_log(changes: dict, cards: str = "9H JS", last: str = "JS") -> tuple[Log, int]:
    log = Log({"powers": {"J": {"wild": True}}, **changes})
    log.deal([cards, "10C QC"], up="8H", stock="7D 8D")
    log.play(0, cards.split()[0])
    log.draw(1, "7D")
    at = log.play(0, last, "H" if last.startswith("J") else None)
    log.finish(0, [0, 20])
    return log, at


def test_no_going_out_on_a_forbidden_card_the_player_draws_instead():
    log, at = going_out_log({"going_out.forbidden": ["J"]})
    rejected(log.events, at, "JS may not be the last card (going_out.forbidden)")
    drawing, at = going_out_log({"going_out.forbidden": ["J"]})
    drawing.events[at:] = []
    drawing.draw(0, "8D")  # stuck: the Jack may not be played as the last card
    assert unfinished(drawing.events)
    accepted(going_out_log({})[0].events)


def test_going_out_only_on_given_cards():
    log, at = going_out_log({"going_out.only": ["Q"]}, cards="9H 10H", last="10H")
    rejected(log.events, at, "10H may not be the last card (going_out.only)")
    accepted(going_out_log({"going_out.only": ["10"]}, cards="9H 10H", last="10H")[0].events)


def test_the_last_card_must_follow_suit():
    log, at = going_out_log({"going_out.follow_suit": True}, cards="9H 9S", last="9S")
    rejected(log.events, at, "the last card must follow the suit H")
    wild, at = going_out_log({"going_out.follow_suit": True})
    rejected(wild.events, at, "the last card must follow the suit H")
    accepted(going_out_log({"going_out.follow_suit": True}, cards="9H 10H", last="10H")[0].events)
