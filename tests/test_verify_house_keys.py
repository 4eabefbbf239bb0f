"""The verifier on the later house-rule keys (docs/house-rules.md, entries 52-59): a card only as the last,
going out by table size, cards taken unseen, upcards taken by the dealer, and the scoring keys."""

from __future__ import annotations

from support.logbuilder import Log, accepted, rejected


def test_a_last_only_card_is_played_only_in_the_play_that_empties_the_hand():
    log = Log({"going_out.last_only": ["9"]})
    log.deal(["9H 10H", "QS KS"], up="8H", stock="7C 8C")
    early = log.play(0, "9H")
    rejected(log.events, early, "only in the play that empties the hand (going_out.last_only)")
    log = Log({"going_out.last_only": ["9"]})
    log.deal(["9H 10H", "QS KS"], up="8H", stock="7C 8C")
    log.play(0, "10H")
    log.draw(1, "7C")
    log.play(0, "9H")
    log.finish(0, [0, 14])
    accepted(log.events)


def test_going_out_by_players_applies_at_its_table_size_only():
    changes = {"going_out_by_players": {2: {"forbidden": ["9"]}}, "hand_size": 1}
    log = Log(changes)
    log.deal(["9H", "QS"], up="8H", stock="7C 8C")
    out = log.play(0, "9H")
    rejected(log.events, out, "may not be the last card (going_out.forbidden)")
    log = Log(changes, players=3)
    log.deal(["9H", "QS", "KS"], up="8H", stock="7C 8C")
    log.play(0, "9H")
    log.finish(0, [0, 3, 4])
    accepted(log.events)


def test_a_card_taken_comes_from_the_previous_player_marked_taken():
    def game(**taken):
        log = Log({"powers": {"Q": {"take": 1}}}, players=3)
        log.deal(["QH 10H", "7S 8S", "9D KD"], up="8H", stock="7C 8C")
        log.play(0, "QH")
        event = {"type": "give", "seat": 2, "to": 0, "card": "9D", "taken": True, **taken}
        return log, log.add(event)
    log, taken = game(seat=1)
    rejected(log.events, taken, "takes a card from the previous player, seat 2")
    rejected(game(taken=False)[0].events, taken, "expected a taken card to seat 0")
    rejected(game(card="KS")[0].events, taken, "gives KS, which is not in its hand")


def test_upcards_go_to_the_dealer_only_if_they_have_a_power_and_the_rules_say_so():
    def game(changes, hands, taken):
        log = Log({"powers": {"8": {"skip": 1}}, **changes})
        start = log.deal(hands, up="9H", stock="7C 7D")
        return log.changed(start, taken=taken), start
    log = Log({"powers": {"8": {"skip": 1}}, "upcard.effects": "to_dealer"})
    start = log.deal(["10H 10S", "QS KS 8C"], up="9H", stock="7C 7D")
    log.events[start]["taken"] = ["8C"]
    log.play(0, "10H")
    log.draw(1, "7C")
    log.play(0, "10S")
    log.finish(0, [0, 22])
    accepted(log.events)
    events, start = game({}, ["10H 10S", "QS KS 8C"], ["8C"])
    rejected(events, start, "the rules do not (upcard.effects to_dealer)")
    events, start = game({"upcard.effects": "to_dealer"}, ["10H 10S", "QS KS 7S"], ["7S"])
    rejected(events, start, "the upcard 7S, which has no power")
    events, start = game({"upcard.effects": "to_dealer"}, ["10H 10S", "QS KS 7S"], ["8C"])
    rejected(events, start, "its hand does not hold them")
