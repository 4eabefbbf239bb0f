"""The verifier on pending effects and their answers (docs: Rulesets): answering a draw penalty with other
cards, penalties that do not end the turn or go to the previous player, cancelling and returning them,
and skips that are passed on or grow."""

from __future__ import annotations

from support.logbuilder import REMOVE, Log, accepted, rejected, unfinished

SEVEN_AND_NINE = {"7": {"draw": 2, "stack_with": ["9"]}, "9": {"draw": 1, "stack_with": ["7"]}}


def seven_then_nine(powers: dict, answer: str = "9C") -> tuple[Log, int]:
    log = Log({"powers": powers}, players=3)
    log.deal(["7H 10S", f"{answer} QC", "KD AD"], up="8H", stock="7C 7D 7S 8C")
    log.play(0, "7H")
    at = log.play(1, answer)
    log.draw(2, "7C 7D 7S", "seven")  # 2 + 1
    log.draw(0, "8C")
    log.play(0, "8C")
    log.play(1, "QC")
    log.finish(1, [10, 0, 36])
    return log, at


def test_a_penalty_answered_with_another_rank_adds_its_draw():
    log, _ = seven_then_nine(SEVEN_AND_NINE)
    accepted(log.events)


def test_only_the_answering_cards_go_on_a_pending_penalty():
    log, at = seven_then_nine(SEVEN_AND_NINE, answer="10H")  # a heart on a heart, but no answer
    rejected(log.events, at, "draw penalty of 2 is pending")
    plain, at = seven_then_nine({"7": {"draw": 2}, "9": {"draw": 1}})
    rejected(plain.events, at, "draw penalty of 2 is pending")


def test_stack_match_wants_the_answer_to_match_by_rank_or_suit():
    powers = {"7": {**SEVEN_AND_NINE["7"], "stack_match": True}, "9": SEVEN_AND_NINE["9"]}
    log, at = seven_then_nine(powers)
    rejected(log.events, at, "only if it matches it by rank or the suit H")
    suited = Log({"powers": powers}, players=3)
    suited.deal(["7H 10S", "9H QC", "KD AD"], up="8H", stock="7C 7D 7S")
    suited.play(0, "7H")
    suited.play(1, "9H")
    suited.draw(2, "7C 7D 7S", "seven")
    assert unfinished(suited.events)


def test_a_penalty_that_does_not_end_the_turn_lets_the_victim_play_on():
    def game(ends_turn: bool) -> Log:
        log = Log({"powers": {"7": {"draw": 2, "ends_turn": ends_turn}}})
        log.deal(["7H QS", "9C QH"], up="8H", stock="7C 7D")
        log.play(0, "7H")
        log.draw(1, "7C 7D", "seven")
        log.play(1, "QH")
        log.play(0, "QS")
        log.finish(0, [0, 23])
        return log

    accepted(game(ends_turn=False).events)
    rejected(game(ends_turn=True).events, 4, "seat 1 plays, but it is seat 0's turn")


def test_a_penalty_on_the_previous_player_goes_back_to_it_then_play_goes_on():
    log = Log({"powers": {"7": {"draw": 2, "target": "previous"}}}, players=3)
    log.deal(["9H 10S", "7H 7S", "KD AD"], up="8H", stock="7C 7D")
    log.play(0, "9H")
    log.play(1, "7H")
    draw = log.draw(0, "7C 7D", "seven")  # the player before the seven
    log.play(1, "7S")  # play goes on from seat 0: seat 1
    log.finish(1, [24, 0, 15])
    accepted(log.events)
    rejected(log.changed(draw, seat=2), draw, "a draw by seat 2")


def cancel_log(cancels) -> tuple[Log, int]:
    log = Log({"powers": {"7": {"draw": 2}, "8": {"cancels": cancels}}}, players=3)
    log.deal(["7H KS", "8C QC", "KC AD"], up="9H")
    log.play(0, "7H")
    at = log.play(1, "8C")  # needs not match: it answers the penalty
    log.play(2, "KC")  # nobody draws; seat 2 plays on the 8 as usual
    log.play(0, "KS")
    log.finish(0, [0, 3, 11])
    return log, at


def test_a_cancelling_card_ends_the_penalty_and_play_goes_on_on_it():
    for cancels in (["7"], True, "7"):
        accepted(cancel_log(cancels)[0].events)
    log, at = cancel_log(["7"])
    rejected(log.with_inserted(at + 1, {"type": "draw", "seat": 2, "cards": [], "reason": "seven"}), at + 1,
             "draws but could play")


def test_a_card_that_cancels_other_cards_does_not_go_on_this_penalty():
    log, at = cancel_log(["9"])
    rejected(log.events, at, "draw penalty of 2 is pending")


def test_a_returned_penalty_goes_back_to_the_player_who_sent_it():
    log = Log({"powers": {"7": {"draw": 2}, "10": {"returns": ["7"]}}}, players=3)
    log.deal(["7H 9S", "10C QC", "KD AD"], up="8H", stock="7C 7D")
    log.play(0, "7H")
    log.play(1, "10C")
    draw = log.draw(0, "7C 7D", "seven")
    log.play(1, "QC")  # the turn went on from seat 0
    log.finish(1, [23, 0, 15])
    accepted(log.events)
    rejected(log.changed(draw, seat=2), draw, "a draw by seat 2")


def test_a_returning_card_that_also_draws_sends_the_penalty_with_its_draw_back_to_the_sender():
    log = Log({"powers": {"7": {"draw": 2}, "10": {"draw": 2, "returns": ["7"]}}}, players=3)
    log.deal(["7H 9S", "10C QC", "KD AD"], up="8H", stock="7C 7D 7S 8C")
    log.play(0, "7H")
    log.play(1, "10C")
    draw = log.draw(0, "7C 7D 7S 8C", "seven")  # the 7's two and the 10's own two, to the seat that sent the 7
    log.play(1, "QC")
    log.finish(1, [38, 0, 15])
    accepted(log.events)
    rejected(log.changed(draw, seat=1), draw, "a draw by seat 1")


def test_a_return_on_a_return_sends_the_penalty_back_again():
    log = Log({"powers": {"7": {"draw": 2}, "10": {"returns": ["7"]}}, "hand_size": 3}, players=3)
    log.deal(["7H 10D KS", "10C QC JC", "KD AD 8S"], up="8H", stock="7C 7D")
    log.play(0, "7H")
    log.play(1, "10C")
    log.play(0, "10D")
    log.draw(1, "7C 7D", "seven")
    log.play(2, "KD")
    log.play(0, "KS")
    log.finish(0, [0, 19, 19])
    accepted(log.events)


# ---------------------------------------------------------------- skips


def skip_pass_log(answer: bool = True) -> Log:
    log = Log({"powers": {"8": {"skip": 1, "skip_stack": "pass", "skip_with": ["J"]}}}, players=3)
    log.deal(["8H 9S", "8S QC", "KD AD"], up="10H")
    log.play(0, "8H")
    if answer:
        log.play(1, "8S")  # the skip passes on
        log.skip(2)  # seat 2 takes it
        log.play(0, "9S")
        log.finish(0, [0, 3, 15])
    return log


def test_a_skip_may_be_answered_and_passes_on():
    accepted(skip_pass_log().events)


def test_a_pending_skip_is_answered_or_taken_by_the_seat_facing_it():
    log = skip_pass_log()
    rejected(log.without(3), 3, "it is seat 1's turn")  # seat 2 does not get past seat 1's decision
    rejected(log.changed(3, type="draw", cards=[], reason="stuck", card=REMOVE, suit=REMOVE, announce=REMOVE), 3,
             "expected play or skip")
    taken = skip_pass_log(answer=False)
    taken.skip(1)
    taken.draw(2, "7C")
    assert unfinished(taken.events)


def test_a_skip_with_card_answers_the_skip():
    log = Log({"powers": {"8": {"skip": 1, "skip_stack": "pass", "skip_with": ["J"]}}}, players=3)
    log.deal(["8H 9C", "JC QC", "KD AD"], up="10H")
    log.play(0, "8H")
    log.play(1, "JC")
    log.skip(2)
    log.play(0, "9C")
    log.finish(0, [0, 3, 15])
    accepted(log.events)
    rejected(log.changed(3, card="QC"), 3, "QC does not answer the pending skip of 8H")


def skip_add_log(mode: str) -> Log:
    log = Log({"powers": {"8": {"skip": 1, "skip_stack": mode}}, "hand_size": 3}, players=3)
    log.deal(["8H 9S 10S", "8S QS JC", "KD AD 7D"], up="10H")
    log.play(0, "8H")
    log.play(1, "8S")  # two skips now wait for seat 2
    log.skip(2)  # it takes them: this turn and its next
    log.play(0, "9S")
    log.play(1, "QS")
    log.skip(2)  # passed over
    log.play(0, "10S")
    log.finish(0, [0, 2, 22])
    return log


def test_skips_that_add_up_make_the_seat_that_takes_them_miss_that_many_turns():
    accepted(skip_add_log("add").events)
    rejected(skip_add_log("pass").events, 7, "expected play or draw")
