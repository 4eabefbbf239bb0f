"""The exec: protocol under the house rules: views with their new fields, plays of several cards, rank wishes,
swaps, gives and jump-ins, both ways, checked exactly; isolated bots play the same matches as in-process ones."""

import json
import random
import sys
from pathlib import Path

import pytest

from maumau.rulesets.builtin import gallery_paths
from runner.game.actions import DRAW, PASS, Give, Play, Swap, give, play, swap
from runner.game.cards import Card
from runner.game.engine import Round
from runner.plugins import registry
from runner.seats.botmaker import BotMaker
from runner.seats.faults import FaultSettings
from runner.seats.isolation import answer_data
from runner.seats.protocol import ProtocolViolation, action_data, parse_action, parse_view, view_data
from runner.table.match import Match
from runner.table.referee import Referee

EVERY_PHASE = Path(__file__).parent.parent / "runner" / "botkit" / "every-phase.yaml"
RULESETS = [EVERY_PHASE, *gallery_paths()]


def views_of(path: Path, seed: int, players: int = 3):
    """Every view of a round played at random under the ruleset at `path`."""
    ruleset = registry().load_ruleset(str(path))
    rng = random.Random(seed)
    rnd = Round.deal(ruleset, rng, players)
    while not rnd.over:
        view = rnd.view()
        yield view
        rnd.apply(view.legal[int(rng.random() * len(view.legal))])


@pytest.mark.parametrize("path", RULESETS, ids=lambda path: path.stem)
def test_every_view_crosses_the_protocol_unchanged(path):
    """What a hosted bot rebuilds from the JSON is the view itself: every field of the house rules included."""
    phases = set()
    for seed in range(4):
        histories: dict[int, list] = {}  # per seat, as each seat's own process keeps it (a give is hidden)
        for view in views_of(path, seed):
            history = histories.setdefault(view.seat, [])
            wire = json.loads(json.dumps(view_data(view, len(history))))
            assert parse_view(wire, view.ruleset, history) == view
            phases.add(view.phase)
    assert "play" in phases


def test_the_every_phase_rules_reach_each_new_decision_and_field():
    """check-bot's house rules ask for every new kind of action, and the views carry each new field."""
    kinds, fields = set(), set()
    for seed in range(6):
        for view in views_of(EVERY_PHASE, seed):
            for action in view.legal:
                data = action_data(action)
                kinds.add(data["type"] + ("+more" if "more" in data else "") + ("+rank" if "rank" in data else ""))
            fields |= {name for name in ("wish", "pending_skip", "shown", "resume") if getattr(view, name)}
            fields |= {"jump_in"} if view.phase == "jump_in" else set()
    assert {"play", "play+more", "play+rank", "swap", "give", "draw", "pass"} <= kinds
    assert fields == {"wish", "pending_skip", "shown", "resume", "jump_in"}


C7, S7, JD = Card("7", "C"), Card("7", "S"), Card("J", "D")


@pytest.mark.parametrize("action, data", [
    (play(C7, more=(S7,)), {"type": "play", "card": "7C", "suit": None, "announce": None, "more": ["7S"]}),
    (play(JD, rank="9"), {"type": "play", "card": "JD", "suit": None, "announce": None, "rank": "9"}),
    (play(Card("X", "R")), {"type": "play", "card": "XR", "suit": None, "announce": None}),
    (swap(2), {"type": "swap", "seat": 2}),
    (give(C7), {"type": "give", "card": "7C"}),
    (PASS, {"type": "pass"}),
])
def test_new_actions_are_written_and_read_back(action, data):
    assert action_data(action) == data
    assert parse_action(data) is action  # the engine's shared instance
    assert answer_data(action) == data  # what the isolation host sends for a Python bot's answer


def test_a_single_card_play_may_carry_more_empty_and_rank_null():
    assert parse_action({"type": "play", "card": "7C", "more": [], "rank": None}) is play(C7)


@pytest.mark.parametrize("data, words", [
    ({"type": "play", "card": "7C", "more": "7S"}, "more must be a list of cards"),
    ({"type": "play", "card": "7C", "more": ["7S", 7]}, "not a card: 7"),
    ({"type": "play", "card": "7C", "more": ["1Z"]}, "not a card: '1Z'"),
    ({"type": "play", "card": "7C", "more": ["7S"] * 201}, "more must be a list of cards"),
    ({"type": "play", "card": "JD", "rank": "11"}, "rank must be null or a rank"),
    ({"type": "play", "card": "JD", "rank": 9}, "rank must be null or a rank"),
    ({"type": "play", "card": "XG"}, "not a card: 'XG'"),
    ({"type": "play", "card": "7C", "mroe": ["7S"]}, "play: unknown field 'mroe'"),
    ({"type": "draw", "card": "7C"}, "draw: unknown field 'card'; a draw has no other fields"),
    ({"type": "swap"}, "swap: seat must be a seat number"),
    ({"type": "swap", "seat": "1"}, "swap: seat must be a seat number"),
    ({"type": "swap", "seat": True}, "swap: seat must be a seat number"),
    ({"type": "swap", "seat": -1}, "swap: seat must be a seat number"),
    ({"type": "give", "card": None}, "not a card: None"),
    ({"type": "jump_in", "card": "7C"}, "unknown action type 'jump_in'"),
])
def test_malformed_answers_are_refused_with_what_is_wrong(data, words):
    with pytest.raises(ProtocolViolation, match=words.replace("(", r"\(")):
        parse_action(data)


def test_a_python_answer_with_fields_of_the_wrong_type_is_not_sent_as_an_action():
    class Rigged(str):
        pass

    for answer in (Play(C7, more=[S7]), Play(C7, rank=Rigged("9")), Swap(1.0), Swap(True), Give("7C")):
        assert answer_data(answer)["type"] == "invalid"
    assert answer_data(DRAW) == {"type": "draw"}


def match_log(path: Path, players, make_bot, seed=5):
    ruleset = registry().load_ruleset(str(path))
    log: list = []
    referee = Referee(FaultSettings(policy="forfeit", move_time=0), rng=random.Random(f"{seed}:autoplay"))
    Match(ruleset, players, seed, make_bot, referee=referee, log=log).run()
    make_bot.end_match()
    return log


def test_an_isolated_match_under_the_house_rules_is_the_in_process_match(reg):
    players = ["medium", "random", "medium"]
    with BotMaker(reg) as local, BotMaker(reg, isolate=True) as isolated:
        for path in (EVERY_PHASE, gallery_paths()[2]):  # every phase; makao (play on, rank wishes, waits)
            log = match_log(path, players, local)
            assert not [event for event in log if event["type"] == "fault"]
            assert match_log(path, players, isolated) == log


# A protocol bot written before the house rules: it answers each decision with the first legal action,
# except that it knows no swap or give and passes there. (It echoes request ids, and says ready when asked.)
CLASSIC_BOT = '''
import json, sys
def send(message):
    sys.stdout.write(json.dumps(message) + "\\n"); sys.stdout.flush()
send({{"type": "hello", "name": "classic", "protocol": {version}}})
for line in sys.stdin:
    message = json.loads(line)
    reply = None
    if message["type"] == "act":
        view = message["view"]
        action = {{"type": "pass"}} if view["phase"] in ("swap", "give") else view["legal"][0]
        reply = {{"type": "action", "action": action}}
    elif message["type"] in ("match_start", "match_end") and "id" in message:
        reply = {{"type": "ready"}}
    if reply is not None:
        if "id" in message:
            reply["id"] = message["id"]
        send(reply)
'''


def test_check_bot_names_the_new_phases_a_bot_cannot_answer(tmp_path):
    from runner.botkit.checkbot import check_bot, report_lines
    from runner.seats.protocol import PROTOCOL_VERSION

    program = tmp_path / "classic.py"
    program.write_text(CLASSIC_BOT.format(version=PROTOCOL_VERSION))
    report = check_bot(f"exec:{sys.executable} {program}", FaultSettings(move_time=5.0), matches=1)
    assert not report.passed
    assert {v.phase for v in report.violations} == {"swap", "give"}
    assert all(v.kind == "illegal" and "Pass() is not legal now" in v.detail for v in report.violations)
    assert {"swap", "give", "jump_in", "pending skip", "drawn"} <= set(report.phases)
    text = "\n".join(report_lines(report))
    assert "decisions by phase: play " in text and "- illegal (phase swap): Pass() is not legal now" in text
