"""The verifier on scoring, rounds and matches (docs: Rulesets): what a hand scores (count, minimum,
round_to, multiplier, winner_collects), playing on to place everyone, a hand limit that ends the round,
and the formats target, rounds and wins, and max_rounds."""

from __future__ import annotations

import pytest

from support.logbuilder import Log, accepted, rejected

SAME_DEALER = {"deal.dealer_rotation": 0}  # so that every round is dealt as the first


def short_round(log: Log, last: str = "10H") -> None:
    """Seat 0 goes out in three turns; seat 1 is left holding 7C QC 7D (17 points, three cards)."""
    log.deal([f"9H {last}", "7C QC"], up="KH", stock="7D")
    log.play(0, "9H")
    log.draw(1, "7D")
    log.play(0, last)


@pytest.mark.parametrize("changes,points", [
    ({}, 17),
    ({"scoring.count": "cards"}, 3),
    ({"scoring.count": "flat"}, 1),
    ({"scoring.minimum": 20}, 20),
    ({"scoring.round_to": 10}, 20),  # 17 to the nearest 10
    ({"scoring.round_to": 5}, 15),
    ({"scoring.round_to": 2}, 18),  # 17 is halfway: up
    ({"scoring.multiplier": {"J": 2}}, 17),  # the winner went out on 10H
])
def test_a_hand_scores_its_count_then_minimum_then_round_to(changes, points):
    log = Log(changes)
    short_round(log)
    at = log.finish(0, [0, points])
    accepted(log.events)
    rejected(log.changed(at, points=[0, points + 1]), at, "points")


@pytest.mark.parametrize("changes,points", [
    ({"scoring.multiplier": {"J": 2}}, 34),
    ({"scoring.multiplier": {"J": 2, "JH": 3}}, 51),  # the most specific key
    ({"scoring.multiplier": {"J": 2}, "scoring.round_to": 10}, 40),
    ({"scoring.multiplier": {"J": 2}, "scoring.winner_collects": True}, 34),
])
def test_going_out_on_a_multiplier_card_multiplies_the_round(changes, points):
    log = Log(changes)
    short_round(log, last="JH")
    collected = changes.get("scoring.winner_collects")
    at = log.round_end(0, [points, 0] if collected else [0, points], [points, 0] if collected else [0, points])
    log.match_end([0, 1], [0], [points, 0] if collected else [0, points], [1, 0])
    accepted(log.events)
    wrong = [17, 0] if collected else [0, 17]
    rejected(log.changed(at, points=wrong, totals=wrong), at, "points")


def test_the_winner_collects_and_the_highest_total_wins_a_target_match():
    log = Log({"scoring.winner_collects": True, "match.format": "target", "match.limit": 30, **SAME_DEALER})
    for total in (17, 34):
        short_round(log)
        log.round_end(0, [17, 0], [total, 0])
    end = log.match_end([0, 1], [0], [34, 0], [2, 0])
    accepted(log.events)
    rejected(log.changed(end, ranking=[1, 0], winners=[1]), end, "ranking puts seat 1 before seat 0")
    short = Log({"scoring.winner_collects": True, "match.format": "target", "match.limit": 30, **SAME_DEALER})
    short.events[1:] = log.events[1:6]
    short.match_end([0, 1], [0], [17, 0], [1, 0])
    rejected(short.events, 6, "expected round_start")


def play_on_log() -> Log:
    log = Log({"round.play_on": True}, players=3)
    log.deal(["9H 9D", "9C 9S", "AD KD"], up="KH", stock="7H")
    log.play(0, "9H")
    log.play(1, "9C")
    log.draw(2, "7H")
    log.play(0, "9D")
    log.event("out", seat=0, place=1)
    log.play(1, "9S")
    log.event("out", seat=1, place=2)  # one player left with cards: the round ends
    log.round_end(0, [0, 0, 22], [0, 0, 22], order=[0, 1, 2])
    log.match_end([0, 1, 2], [0], [0, 0, 22], [1, 0, 0])
    return log


def test_playing_on_places_everyone_and_only_the_last_one_scores():
    log = play_on_log()
    accepted(log.events)
    rejected(log.without(6), 6, "expected out")
    rejected(log.changed(9, order=[1, 0, 2]), 9, "order [1, 0, 2], but the seats went out as [0, 1]")
    rejected(log.changed(8, place=1), 8, "goes out in place 2, not 1")
    rejected(log.changed(10, ranking=[1, 0, 2]), 10, "ranking puts seat 1 before seat 0")


def test_an_order_is_written_only_when_the_round_plays_on():
    log = Log()
    short_round(log)
    at = log.round_end(0, [0, 17], [0, 17], order=[0, 1])
    log.match_end([0, 1], [0], [0, 17], [1, 0])
    rejected(log.events, at, "does not play on")


def test_a_hand_over_the_limit_ends_the_round_at_once():
    log = Log({"powers": {"7": {"draw": 2}}, "round.hand_limit": 3})
    log.deal(["7H 9H", "8C QC"], up="8H", stock="7D 8D")
    log.play(0, "7H")
    draw = log.draw(1, "7D 8D", "seven")  # four cards: more than three
    log.round_end(None, [9, 26], [9, 26])
    log.match_end([0, 1], [0], [9, 26], [0, 0])
    accepted(log.events)
    rejected(log.with_inserted(draw + 1, {"type": "play", "seat": 0, "card": "9H", "suit": None, "announce": None}),
             draw + 1, "expected round_end")


# ---------------------------------------------------------------- match formats


def rounds_of(changes: dict, rounds: int) -> Log:
    log = Log({**changes, **SAME_DEALER})
    for number in range(1, rounds + 1):
        short_round(log)
        log.round_end(0, [0, 17], [0, 17 * number])
    return log


def test_a_wins_match_ends_when_a_seat_has_won_that_many_rounds():
    rules = {"match.format": "wins", "match.wins": 2}
    log = rounds_of(rules, 2)
    log.match_end([0, 1], [0], [0, 34], [2, 0])
    accepted(log.events)
    long = rounds_of(rules, 3)
    long.match_end([0, 1], [0], [0, 51], [3, 0])
    rejected(long.events, len(log.events) - 1, "expected match_end")


def test_a_rounds_match_plays_exactly_that_many_rounds():
    rules = {"match.format": "rounds", "match.rounds": 3}
    log = rounds_of(rules, 3)
    log.match_end([0, 1], [0], [0, 51], [3, 0])
    accepted(log.events)
    short = rounds_of(rules, 2)
    short.match_end([0, 1], [0], [0, 34], [2, 0])
    rejected(short.events, len(short.events) - 1, "expected round_start")


def test_max_rounds_ends_every_match():
    rules = {"match.format": "limit", "match.limit": 100, "match.max_rounds": 2}
    log = rounds_of(rules, 2)
    log.match_end([0, 1], [0], [0, 34], [2, 0])
    accepted(log.events)
    unbounded = Log({"match.format": "limit", "match.limit": 100, **SAME_DEALER})
    unbounded.events[1:] = log.events[1:]
    rejected(unbounded.events, len(log.events) - 1, "expected round_start")
