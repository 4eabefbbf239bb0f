"""The verifier on the bugs fixed with the house rules, which change what a correct log looks like in those cases:
a skip beside play_again is no longer dropped, a wild upcard that skips keeps its skip after the dealer
names the suit, and a draw in an extra turn has the reason `ace` only after an Ace."""

from __future__ import annotations

from support.logbuilder import Log, rejected, unfinished


def eight_again_log(skip_written: bool) -> Log:
    log = Log({"powers": {"8": {"skip": 1, "play_again": True}}, "hand_size": 3}, players=3)
    log.deal(["8H 9H KS", "10C QC AC", "10D QD AD"], up="7H")
    log.play(0, "8H")
    log.play(0, "9H")  # the extra turn; then the turn passes on, and the skip applies
    if skip_written:
        log.skip(1)
    log.draw(2, "7C")
    return log


def test_a_skip_beside_play_again_applies_when_the_turn_passes_on():
    assert unfinished(eight_again_log(skip_written=True).events)


def test_a_skip_beside_play_again_is_not_dropped():
    rejected(eight_again_log(skip_written=False).events, 4, "expected skip")


def test_a_skip_beside_play_again_applies_after_a_draw_in_the_extra_turn():
    log = Log({"powers": {"8": {"skip": 1, "play_again": True}}}, players=3)
    log.deal(["8H KS", "10C QC", "10D QD"], up="7H", stock="7C 7D")
    log.play(0, "8H")
    log.draw(0, "7C", "again")  # KS does not go on 8H; 7C does not either
    log.skip(1)
    log.draw(2, "7D")
    assert unfinished(log.events)


def test_a_wild_upcard_that_skips_keeps_its_skip_after_the_dealer_names_the_suit():
    log, _ = wild_upcard_log()
    assert unfinished(log.events)


def wild_upcard_log() -> tuple[Log, int]:
    log = Log({"powers": {"J": {"wild": True, "skip": 1}}, "upcard.effects": "as_dealer_play"}, players=3)
    log.deal(["9S 10S", "9C QS", "KD AD"], up="JH", dealer=2)
    log.skip(0)  # the dealer's "play" skips seat 0
    log.event("name_suit", seat=2, suit="S")
    play = log.play(1, "QS")  # seat 1, not the lead seat 0
    return log, play


def test_after_the_naming_the_lead_seat_does_not_get_the_turn_the_upcard_skipped():
    log, play = wild_upcard_log()
    rejected(log.changed(play, seat=0, card="9S"), play, "seat 0 plays, but it is seat 1's turn")


def test_a_draw_in_an_extra_turn_is_for_ace_only_after_an_ace():
    def game(rank: str, reason: str) -> Log:
        log = Log({"powers": {rank: {"play_again": True}}})
        log.deal([f"{rank}H 8S", "10C QC"], up="7H", stock="7C")
        log.play(0, f"{rank}H")
        log.draw(0, "7C", reason)
        return log

    assert unfinished(game("K", "again").events)
    assert unfinished(game("A", "ace").events)
    rejected(game("A", "again").events, 3, "draw reason 'again', expected ace")


def test_a_draw_in_the_extra_turn_of_a_king_is_not_for_ace():
    log = Log({"powers": {"K": {"play_again": True}}})
    log.deal(["KH 8S", "10C QC"], up="7H", stock="7C")
    log.play(0, "KH")
    log.draw(0, "7C", "ace")
    rejected(log.events, 3, "draw reason 'ace', expected again")
