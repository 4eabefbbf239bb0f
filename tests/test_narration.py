"""The game in words (runner/logs/narration.py) and the log followed card by card (runner/logs/follow.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from runner.game.actions import DRAW, PASS, NameSuit, Play
from runner.game.cards import parse_card
from runner.logs.follow import LogTable
from runner.logs.narration import Narrator, action_text, event_line, ordered_actions, phase_text
from runner.plugins import registry
from runner.table.play import play_match
from support.midround import table
from support.scenario import deal, do

ROOT = Path(__file__).parent.parent


@pytest.mark.parametrize("ruleset, bots, seed", [
    ("standard", ["easy", "easy", "easy"], 1),
    ("strafpunten", ["medium", "easy"], 2),
    ("elimination", ["easy", "medium", "easy", "easy"], 3),
    ("standard-two-decks", ["easy"] * 7, 4),
    (str(ROOT / "rulesets" / "gallery" / "switch.yaml"), ["easy"] * 3, 5),  # several cards at once
    (str(ROOT / "tests" / "data" / "every-decision.yaml"), ["easy"] * 4, 6),  # hands swapped, cards given, jumps in
])
def test_the_log_followed_card_by_card_loses_no_card_and_counts_each_hand_as_the_round_did(ruleset, bots, seed):
    rules = registry().load_ruleset(ruleset)
    _, events = play_match(ruleset, bots, seed, {}, with_log=True)
    follow = LogTable()
    rounds = 0
    for event in events:
        follow.apply(event)
        if event["type"] == "round_start":
            deck = sorted(card for hand in follow.hands for card in hand) + sorted(follow.stock + follow.pile)
        if follow.round and event["type"] not in ("match_start", "match_end"):
            now = [card for hand in follow.hands for card in hand] + follow.stock + follow.pile
            assert sorted(now) == sorted(deck), f"a card went missing at {event}"
        if event["type"] == "round_end":
            rounds += 1
            for seat in follow.dealt:
                if seat != event["winner"]:
                    held = follow.hands[seat]
                    assert sum(rules.points[parse_card(card).rank] for card in held) == event["points"][seat]
            assert follow.totals == event["totals"]
    assert rounds >= 1


def test_a_seat_hears_its_own_cards_by_name_and_the_others_by_count():
    _, events = play_match("standard", ["easy", "easy"], 7, {}, with_log=True)
    narrator = Narrator(0, ["easy", "easy"])
    lines = [line for event in events for line in narrator.tell(event)]
    mine = [e for e in events if e["type"] == "draw" and e["seat"] == 0 and e["cards"]]
    theirs = [e for e in events if e["type"] == "draw" and e["seat"] == 1 and e["cards"]]
    assert mine and theirs
    assert any(line.startswith(f"  you drew {' '.join(mine[0]['cards'])}") for line in lines)
    hidden = {card for event in theirs for card in event["cards"]}
    for line in lines:
        if "easy#1 drew" in line:
            assert not any(card in line for card in hidden), line
    assert any(line.startswith("  easy#1 drew a card") or line.startswith("  easy#1 drew 2 cards") for line in lines)
    # the hands left are shown once the round is over: the report names them
    report = narrator.report
    assert report is not None and report.lines(narrator.who)[0].startswith(f"round {report.number}: ")


def test_the_end_of_a_round_tells_who_went_out_with_which_card_and_each_hand_left():
    _, events = play_match("strafpunten", ["easy", "easy", "easy"], 5, {}, with_log=True)
    narrator = Narrator(1, ["easy"] * 3)
    told = []
    for event in events:
        told += narrator.tell(event)
        if event["type"] == "round_end":
            break
    report = narrator.report
    last_play = [e for e in events[:events.index(event)] if e["type"] == "play" and e["seat"] == event["winner"]][-1]
    assert report.winner == event["winner"] and report.card == last_play["card"]
    assert {hand.seat for hand in report.hands} == {0, 1, 2} - {event["winner"]}
    assert [hand.points for hand in report.hands] == [event["points"][hand.seat] for hand in report.hands]
    assert told[-len(report.lines(narrator.who)):] == report.lines(narrator.who)
    assert report.lines(narrator.who)[-1].startswith("totals: ")


def test_an_event_of_a_kind_not_worded_yet_is_named_without_its_fields():
    narrator = Narrator(0, ["human", "easy"])
    assert narrator.tell({"type": "peek", "seat": 1, "cards": ["AS", "KD"]}) == ["  easy#1: peek"]


def test_moves_read_as_a_person_says_them():
    rnd = table("standard", ["7H JD 3C", "2S 3S"], "7C")
    view = rnd.view()
    assert action_text(Play(parse_card("JD"), "S", "mau")) == 'play JD, naming spades, saying "mau"'
    assert action_text(NameSuit("H")) == "name hearts"
    assert action_text(DRAW) == "draw a card" and action_text(PASS) == "keep the card and end the turn"
    texts = [action_text(action, view) for action in ordered_actions(view.legal)]
    assert texts == ["play 3C", "play JD, naming clubs", "play JD, naming diamonds", "play JD, naming hearts",
                     "play JD, naming spades", "play 7H"]  # the sorted hand's order; standard draws only when stuck


def test_a_pending_penalty_is_named_with_the_draw():
    rnd = table("standard", ["2H 3D", "7S 5D"], "7C", pending=2)
    assert action_text(DRAW, rnd.view()) == "draw 2 (penalty)"


def test_a_play_of_several_cards_is_one_line_naming_them_all():
    event = {"type": "play", "seat": 0, "card": "7H", "more": ["7D", "7S"], "suit": None, "announce": None}
    assert event_line(event, ["ann"]) == "  ann plays 7H 7D 7S"
    assert Narrator(1, ["ann", "bob"]).tell(event) == ["  ann#0 played 7H 7D 7S"]


# ---------------------------------------------------------------- the house rules' decisions, in words

HOUSE_STOCK = "2C 3C 4C 5C 6C 2S 3S 4S 5S 6S 9C 9S"


def asked(rnd) -> tuple[str | None, list[str]]:
    """The prompt and the moves the seat to act is shown, as the browser shows them."""
    view = rnd.view()
    names = Narrator(rnd.current, ["ann", "bob", "cy"]).who
    return phase_text(view, names), [action_text(action, view, names) for action in ordered_actions(view.legal)]


def test_a_seat_asked_to_jump_in_is_told_who_played_what_and_may_decline():
    rnd = deal("standard", ["9H 2D 3D", "9S 5S 6S", "4H 8C 7C"], "10H", HOUSE_STOCK, overrides={"jump_in": "same_rank"})
    do(rnd, "9H")
    assert asked(rnd) == ("ann#0 played 9H: you may jump in out of turn", ["jump in with 9S", "do not jump in"])


def test_choosing_a_hand_to_swap_and_a_card_to_give_name_the_card_that_asks():
    rnd = deal("standard", ["QH 2D 3D", "4S 5H 6S", "7C 8C 9C"], "10H", HOUSE_STOCK,
               overrides={"powers.Q.swap_hands": "choose"})
    do(rnd, "QH")
    assert asked(rnd) == ("your QH swaps hands: choose whose hand you take",
                          ["swap hands with bob#1", "swap hands with cy#2"])
    rnd = deal("standard", ["KH 2D 3D", "4S 5H 6S", "7C 8C 9C"], "10H", HOUSE_STOCK, overrides={"powers.K.give": 2})
    do(rnd, "KH")
    assert asked(rnd) == ("your KH gives 2 cards to the next player: choose which", ["give 2D", "give 3D"])


def test_a_rank_wish_a_pending_skip_and_drawing_until_a_card_fits_are_named():
    rnd = deal("standard", ["JH 2D 3D", "4S 5H 6S"], "10H", HOUSE_STOCK,
               overrides={"powers.J": {"wild": True, "wish": "rank", "wish_ranks": ["5", "9"]}})
    assert [text for text in asked(rnd)[1] if text.startswith("play JH")] == ["play JH, wishing for 5",
                                                                             "play JH, wishing for 9"]
    rnd = deal("standard", ["8H 2D 3D", "8S 5H 6S"], "10H", HOUSE_STOCK, overrides={"powers.8.skip_stack": "pass"})
    do(rnd, "8H")
    assert asked(rnd) == ("a skip is waiting for you (1 turn to miss): answer it or take it",
                          ["play 8S", "take the skip"])
    rnd = deal("standard", ["4S 2D 3D", "5C 5H 6S"], "10H", HOUSE_STOCK, overrides={"drawing.until_playable": True})
    assert asked(rnd) == (None, ["draw until a card fits"])
    rnd = deal("standard", ["4S 2D 3D", "5C 5H 6S"], "10H", "9H 2C", overrides={"drawing.drawn_card": "must_play"})
    do(rnd, "draw")
    assert asked(rnd) == ("the card you drew, 9H, can be played: it must be", ["play 9H"])


def test_a_seat_declining_to_jump_in_is_told_to_nobody_else():
    log: list[dict] = [{"type": "match_start", "match": "m", "ruleset": "standard", "overrides": {}, "limit": 100,
                        "rules": {"jump_in": "same_rank"}, "seed": 1, "players": ["ann", "bob", "cy"]}]
    rnd = deal("standard", ["9H 2D 3D", "4S 5S 6S", "9C 8C 7C"], "10H", HOUSE_STOCK, overrides={"jump_in": "same_rank"},
               log=log)
    do(rnd, "9H", "pass")
    assert log[-1] == {"type": "pass", "seat": 2}
    told = {seat: [line for event in log for line in narrator.tell(event)][-1]
            for seat, narrator in ((seat, Narrator(seat, ["ann", "bob", "cy"])) for seat in range(3))}
    assert told == {0: "  you played 9H", 1: "  ann#0 played 9H", 2: "  you did not jump in"}


def test_the_house_rules_events_read_face_up_in_the_replay():
    names = ["ann", "bob", "cy"]
    lines = [event_line(event, names) for event in [
        {"type": "play", "seat": 1, "card": "JH", "suit": None, "announce": None, "rank": "7"},
        {"type": "play", "seat": 2, "card": "9H", "suit": None, "announce": None, "jump_in": True},
        {"type": "give", "seat": 0, "to": 1, "card": "3D"},
        {"type": "swap", "seat": 0, "with": 2},
        {"type": "show", "seat": 1, "cards": ["2C", "KS"]},
        {"type": "pass_hands", "direction": -1},
        {"type": "out", "seat": 2, "place": 1},
    ]]
    assert lines == ["  bob plays JH wishing 7", "  cy jumps in with 9H", "  ann gives 3D to bob",
                     "  ann swaps hands with cy", "  bob shows 2C KS",
                     "  every hand passes to the next player in the direction of play", "  cy is out, in place 1"]


def test_a_card_taken_unseen_and_upcards_taken_by_the_dealer_are_told_as_such():
    names = ["ann", "bob", "cy"]
    taken = {"type": "give", "seat": 2, "to": 0, "card": "9D", "taken": True}
    assert event_line(taken, names) == "  ann takes 9D unseen from cy"
    told = {seat: Narrator(seat, names).tell(taken)[0] for seat in range(3)}
    assert told == {0: "  you took 9D unseen from cy#2", 1: "  ann#0 took a card unseen from cy#2",
                    2: "  ann#0 took 9D unseen from you"}
    start = {"type": "round_start", "round": 1, "dealer": 1, "first": 2, "direction": 1, "deciding": False,
             "hands": [["7H"], ["8C", "JD"], ["2S"]], "stock": ["9D"], "upcards": ["4C"], "taken": ["JD"]}
    assert event_line(start, names).endswith("; the dealer took JD")


def test_a_draw_instead_of_playing_again_names_the_card_that_plays_again():
    pesten = str(Path(__file__).resolve().parent.parent / "rulesets" / "gallery" / "pesten.yaml")  # 7 and K play again
    again_on_seven = table(pesten, ["3C 4D", "5S 6S"], "7H", again=True).view()
    assert action_text(DRAW, again_on_seven) == "draw a card (instead of playing again on 7H)"
    again_on_ace = table("elimination", ["3C 4D", "5S 6S"], "AH", again=True).view()
    assert action_text(DRAW, again_on_ace) == "draw a card (instead of following the Ace)"
    narrator = Narrator(1, ["easy", "easy"])
    told = [narrator.tell({"type": "draw", "seat": seat, "cards": ["5D"], "reason": reason})[0]
            for seat, reason in ((0, "again"), (1, "self"), (1, "false_call"))]
    assert told == ["  easy#0 drew a card (instead of playing again)", "  you drew 5D (the card's own draw)",
                    "  you drew 5D (a call that was not due)"]


def test_a_stock_of_one_card_is_one_card():
    event = {"type": "round_start", "round": 1, "dealer": 1, "first": 0, "hands": [["7H"], ["8C"]], "stock": ["9D"],
             "upcards": ["10S"]}
    assert event_line(event, ["ann", "bob"]).endswith("; stock 1 card")
