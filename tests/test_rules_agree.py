"""Engine and verifier agree where they did not (issue 29's bugs): two skip_others cards of one play, a round
nobody won under winner_collects, a hand emptied by give or take, a hand shown beside skip_others, a suit wish
still binding after a play of several cards. Each is played by the engine and its logs verified."""

from __future__ import annotations

from pathlib import Path

import pytest

from runner.errors import MaumauError
from runner.logs.verify import verify
from runner.table.play import play_match
from support.scenario import deal, do

ROOT = Path(__file__).resolve().parent.parent
STOCK = "2C 3C 4C 5C 6C 2S 3S 4S 5S 6S"


def kinds(rnd, start=0):
    return [(event.kind, event.seat) for event in rnd.history[start:]]


def verified(tmp_path: Path, text: str, seeds, players: int = 3) -> list[list[dict]]:
    """The logs of matches of the house rule `text` between random bots, each verified."""
    path = tmp_path / "house.yaml"
    path.write_text(text)
    logs = []
    for seed in seeds:
        _, log = play_match(str(path), ["random"] * players, seed, {}, with_log=True)
        verify(log)
        logs.append(log)
    return logs


# ---------------------------------------------------------------- 1. power: each, two skip_others cards

EACH = {"multiple.same_rank": True, "multiple.power": "each"}


def test_two_skip_others_aces_skip_every_other_player_twice_so_their_player_plays_twice_more():
    rnd = deal("standard-ace-skip", ["AH AS KS QS 4H", "4C 5D 6D 9D 8C", "9C 10D QD KD 8D"], "10H", STOCK,
               overrides=EACH)
    do(rnd, "AH+AS")
    assert kinds(rnd) == [("play", 0), ("skip", 1), ("skip", 2)] and rnd.current == 0 and rnd.again
    do(rnd, "KS")  # the second Ace: each other player misses a second turn
    assert kinds(rnd, 3) == [("play", 0), ("skip", 1), ("skip", 2)] and rnd.current == 0
    do(rnd, "QS")
    assert kinds(rnd, 6) == [("play", 0)] and rnd.current == 1


def test_two_skip_others_aces_played_together_verify(tmp_path):
    text = "extends: standard-ace-skip\nname: aces\nmultiple: {same_rank: true, power: each}\n"
    logs = verified(tmp_path, text, (2, 3, 5))
    assert any(event["type"] == "play" and event["card"][0] == "A" and event.get("more")
               for log in logs for event in log)


# ---------------------------------------------------------------- 2. a round nobody won, the winner collecting

WINNER_COLLECTS = {"scoring.winner_collects": True, "match.format": "target", "match.limit": 100}


def test_a_blocked_round_scores_nothing_when_the_winner_collects():
    rnd = deal("strafpunten", ["9C", "QD"], "10H", overrides=WINNER_COLLECTS)
    do(rnd, "draw", "draw")
    assert rnd.over and rnd.winner is None and rnd.points() == [0, 0]  # not each holder its own hand


def test_a_round_ended_by_the_hand_limit_pays_the_lowest_hand_the_differences():
    rnd = deal("strafpunten", ["9C 8C", "QD 10D"], "KH", "7S 7C AS AC",
               overrides={**WINNER_COLLECTS, "scoring.blocked": "difference", "round.hand_limit": 2})
    do(rnd, "draw")
    assert rnd.over and rnd.winner is None and rnd.outcome.reason == "hand_limit"
    held = [sum(rnd.rules.points[card.rank] for card in hand) for hand in rnd.hands]
    low = min(held)
    assert rnd.points() == [sum(value - low for value in held) if value == low else 0 for value in held]
    assert rnd.points() != [0, 0]


def test_crazy_eights_blocked_round_pays_the_lowest_hand_and_the_verifier_checks_it():
    _, log = play_match(str(ROOT / "rulesets/gallery/crazy-eights.yaml"), ["random"] * 4, 2, {}, with_log=True)
    verify(log)
    start = next(i for i, event in enumerate(log) if event["type"] == "round_start")
    end = next(i for i, event in enumerate(log) if event["type"] == "round_end")
    assert log[end]["winner"] is None and log[end]["points"] == [0, 62, 0, 0]  # the lowest hand collects
    assert start < end
    holders = [dict(event) for event in log]
    holders[end]["points"] = [43, 0, 50, 20]  # each holder its own hand, as before
    with pytest.raises(MaumauError, match="points"):
        verify(holders)


# ---------------------------------------------------------------- 3. a hand emptied by give or take

def test_giving_the_last_card_away_goes_out_and_wins():
    rnd = deal("standard", ["KH 9H", "4C 5D", "9C 10D"], "10H", STOCK, overrides={"powers.K": {"give": 1}})
    do(rnd, "KH", "give 9H")
    assert rnd.over and rnd.winner == 0 and rnd.outcome.reason == "went_out"


def test_a_player_whose_last_card_is_taken_goes_out_and_wins():
    rnd = deal("standard", ["9H 3D", "KH 8C", "9C 10D"], "10H", STOCK, overrides={"powers.K": {"take": 1}})
    do(rnd, "9H", "KH")
    assert rnd.over and rnd.winner == 0 and rnd.outcome.reason == "went_out"


def test_rounds_ended_by_a_give_or_a_take_verify(tmp_path):
    text = "extends: standard\nname: hands\npowers:\n  9: {take: 1}\n  10: {give: 1}\nhand_size: 3\n"
    logs = verified(tmp_path, text, range(12))
    ended = [log[index - 1]["type"] for log in logs for index, event in enumerate(log)
             if event["type"] == "round_end"]
    assert "give" in ended  # a round ended by a card given or taken


# ---------------------------------------------------------------- 5. more disagreements of random files

def test_the_hand_shown_comes_before_the_skips_of_skip_others():
    rnd = deal("standard", ["4H 2H 3H", "4C 5D 6D", "9C 10D QD"], "10H", STOCK,
               overrides={"powers.4": {"skip_others": True, "show_next": True}})
    do(rnd, "4H")
    assert kinds(rnd) == [("play", 0), ("show", 1), ("skip", 1), ("skip", 2)]


def test_show_next_beside_skip_others_verifies(tmp_path):
    verified(tmp_path, "extends: standard\nname: show\npowers:\n  4: {skip_others: true, show_next: true}\n", (1, 2, 3))


def test_a_suit_wish_still_binding_keeps_its_suit_after_a_play_of_several_cards(tmp_path):
    text = ("extends: standard\nname: bound\npowers:\n  4: {wild: true, wish_binds: 3}\nmultiple: {same_rank: true}\n"
            "going_out: {follow_suit: true}\n")
    verified(tmp_path, text, (10020, 10028, 10040))


def test_skips_of_skip_others_come_after_a_later_cards_swap():
    overrides = {**EACH, "powers.AS": {"skip_others": True, "swap_hands": "next"}}
    rnd = deal("standard-ace-skip", ["AH AS KS", "4C 5D 6D", "9C 10D QD"], "10H", STOCK, overrides=overrides)
    do(rnd, "AH+AS")
    assert kinds(rnd) == [("play", 0), ("swap", 0), ("skip", 1), ("skip", 2)]


def test_skip_others_beside_a_swap_verifies(tmp_path):
    text = ("extends: standard-ace-skip\nname: swap\npowers:\n  AS: {skip_others: true, swap_hands: next}\n"
            "multiple: {same_rank: true, power: each}\n")
    verified(tmp_path, text, range(4))


def test_a_player_gone_out_by_giving_takes_no_card_under_play_on():
    rnd = deal("standard", ["4H 9H", "4C 5D", "9C 10D"], "10H", STOCK,
               overrides={"powers.4": {"give": 1, "take": 1}, "round.play_on": True})
    do(rnd, "4H", "give 9H")
    assert rnd.finished == (0,) and not rnd.over and len(rnd.hands[2]) == 2 and rnd.current == 1


def test_a_file_the_fuzzer_found_verifies(tmp_path):
    """Found by `maumau rulesets fuzz --count 800 --seed 4 --matches 6`: seat 1 gave its last two cards away
    (round.play_on), and the verifier still expected the take of the same card."""
    path = tmp_path / "found.yaml"
    path.write_text("""extends: elimination
name: found
powers:
  AH AS: {ends_turn: false, skip_stack: pass, next_rank: at_most, draw: 2, skip: 1}
  '4': {stack: true, give: 2, take: 2, draw: 2}
  '9': {self_draw: 1}
  '10': {next_rank: at_most, give: 1}
deck: {jokers: 0}
deal: {first_player: -2}
announcements: {maumau: {penalty: 0}}
scoring: {round_to: 5}
multiple: {run_min: 2, power: last}
round: {play_on: true}
match: {max_rounds: 4}
""")
    _, log = play_match(str(path), ["random", "medium", "random", "random", "random"], 244517, {}, with_log=True)
    verify(log)
