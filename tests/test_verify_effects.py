"""The verifier on the other effects (docs: Rulesets): a card that makes its own player draw, hands
passed or swapped, the next hand shown, cards given, and jumping in out of turn."""

from __future__ import annotations

from support.logbuilder import Log, accepted, rejected


def test_a_self_draw_card_makes_its_player_draw():
    log = Log({"powers": {"K": {"self_draw": 1}}})
    log.deal(["KH 9H", "10S QS"], up="8H", stock="7H 7D 8C")
    log.play(0, "KH")
    own = log.draw(0, "7H", "self")
    log.draw(1, "7D")
    log.play(0, "9H")
    log.draw(1, "8C")
    log.play(0, "7H")
    log.finish(0, [0, 28])
    accepted(log.events)
    rejected(log.changed(own, reason="stuck"), own, "draw reason 'stuck', expected self")
    rejected(log.without(own), own, "a draw by seat 1")


def test_every_hand_passes_to_the_next_player_in_the_direction_of_play():
    log = Log({"powers": {"K": {"pass_hands": True}}}, players=3)
    log.deal(["KH 9H", "10C QC", "10D QD"], up="8H")
    log.play(0, "KH")
    passing = log.event("pass_hands", direction=1)
    log.play(1, "9H")  # seat 1 now holds what seat 0 held
    log.finish(1, [13, 0, 13])
    accepted(log.events)
    rejected(log.changed(passing, direction=-1), passing, "in the direction of play, 1")
    rejected(log.without(passing), passing, "expected pass_hands")


def test_a_swap_with_the_next_player():
    log = Log({"powers": {"K": {"swap_hands": "next"}}})
    log.deal(["KH 9S", "QH 10H"], up="8H", stock="10D 8C")
    log.play(0, "KH")
    swap = log.event("swap", seat=0, **{"with": 1})
    log.draw(1, "10D")  # seat 1 holds 9S now
    log.play(0, "QH")
    log.draw(1, "8C")
    log.play(0, "10H")
    log.finish(0, [0, 27])
    accepted(log.events)
    rejected(log.changed(swap, **{"with": 0}), swap, "with the next player, seat 1, not 0")


def gone_out_log(power: dict) -> tuple[Log, int]:
    """round.play_on, seat 0 out on a King with `power`, then seat 1 on its last card: the log, and seat 0's `out`."""
    log = Log({"round.play_on": True, "powers": {"K": power}, "hand_size": 1}, players=3)
    log.deal(["KH", "QH", "7S"], up="8H", stock="10D 8C")
    log.play(0, "KH")
    out = log.event("out", seat=0, place=1)
    log.play(1, "QH")
    log.event("out", seat=1, place=2)
    log.finish(0, [0, 0, 7], order=[0, 1, 2])
    return log, out


def test_a_seat_gone_out_under_play_on_takes_no_cards_back_by_a_swap_or_its_own_draw():
    """Its last card's swap or own draw would take cards back into a round it has left."""
    log, out = gone_out_log({"swap_hands": "next"})
    accepted(log.events)
    rejected(log.with_inserted(out + 1, {"type": "swap", "seat": 0, "with": 1}), out + 1, "expected play")
    log, out = gone_out_log({"self_draw": 1})
    accepted(log.events)
    rejected(log.with_inserted(out + 1, {"type": "draw", "seat": 0, "cards": ["10D"], "reason": "self"}), out + 1,
             "draws but could play")


def test_a_swap_with_a_player_of_ones_choice():
    def game(partner: int) -> tuple[Log, int]:
        log = Log({"powers": {"K": {"swap_hands": "choose"}}}, players=3)
        log.deal(["KH 8S", "QC 10C", "QH 9H"], up="8H", stock="7C 7D 8C 8D")
        log.play(0, "KH")
        swap = log.event("swap", seat=0, **{"with": partner})
        return log, swap

    log, _ = game(2)
    log.draw(1, "7C")
    log.draw(2, "7D")
    log.play(0, "9H")  # seat 0 holds QH 9H now
    log.draw(1, "8C")
    log.draw(2, "8D")
    log.play(0, "QH")
    log.finish(0, [0, 28, 23])
    accepted(log.events)
    for partner in (0, 5):
        bad, swap = game(partner)
        rejected(bad.events, swap, f"cannot swap hands with seat {partner}")


def test_the_next_player_shows_its_hand():
    log = Log({"powers": {"K": {"show_next": True}}})
    log.deal(["KH 9H", "10S QS"], up="8H", stock="7C")
    log.play(0, "KH")
    show = log.event("show", seat=1, cards=["10S", "QS"])
    log.draw(1, "7C")
    log.play(0, "9H")
    log.finish(0, [0, 20])
    accepted(log.events)
    rejected(log.changed(show, cards=["10S", "KS"]), show, "seat 1 shows 10S KS, but holds 10S QS")
    rejected(log.changed(show, seat=0), show, "seat 1 shows its hand here, not seat 0")


def test_cards_given_to_the_next_player():
    log = Log({"powers": {"K": {"give": 1}}, "hand_size": 3})
    log.deal(["KH 9H 8S", "10S QS JD"], up="8H", stock="7C")
    log.play(0, "KH")
    give = log.event("give", seat=0, to=1, card="8S")
    log.draw(1, "7C")
    log.play(0, "9H")
    log.finish(0, [0, 30])
    accepted(log.events)
    rejected(log.changed(give, card="AS"), give, "gives AS, which is not in its hand")
    rejected(log.changed(give, to=0), give, "gives to the next player, seat 1, not 0")
    rejected(log.without(give), give, "expected give")


# ---------------------------------------------------------------- jumping in


def jump_log(mode: str = "same_rank", jump: bool = True) -> Log:
    log = Log({"jump_in": mode}, players=3)
    log.deal(["9H 10S", "QC KC", "9S AD"], up="8H", stock="7C")
    log.play(0, "9H")  # seat 1 holds no 9 and is not asked; seat 2 is
    if jump:
        log.play(2, "9S", jump_in=True)
        log.play(0, "10S")  # the turn goes on from seat 2
        log.finish(0, [0, 7, 11])
    return log


def test_a_seat_holding_a_card_of_the_rank_jumps_in_and_play_goes_on_from_it():
    accepted(jump_log().events)


def test_a_jump_in_is_asked_of_the_seats_that_hold_the_card_in_turn_order():
    log = jump_log()
    rejected(log.changed(3, jump_in=False), 3, "plays out of turn without jump_in")
    rejected(log.changed(3, seat=1, card="QC"), 3, "seat 1 acts, but it is seat 2's turn")
    rejected(jump_log("identical").events, 3, "seat 2 plays, but it is seat 1's turn")  # 9S is no 9H: not asked
    passed = jump_log(jump=False)
    passed.pass_(2)
    passed.draw(1, "7C")
    passed.play(2, "9S")
    passed.play(0, "10S")
    passed.finish(0, [0, 14, 11])
    accepted(passed.events)
    rejected(passed.without(3), 3, "seat 2 may jump in with 9H")


def test_identical_cards_jump_in_from_a_double_deck():
    log = Log({"jump_in": "identical", "deck.copies": 2}, players=3)
    log.deal(["9H 9S", "QC KC", "9H AD"], up="8H")
    log.play(0, "9H")
    log.play(2, "9H", jump_in=True)
    log.play(0, "9S")
    log.finish(0, [0, 7, 11])
    accepted(log.events)
