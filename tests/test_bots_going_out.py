"""The built-in bots under every going-out rule (issue 29): medium and hard's playouts keep a card they may go out
on (`going_out.only: [8]` no longer sees medium play its one 8 first), over the gallery and check-bot's house rules
with each rule added; random stays uniform. Rounds of `only: [8]` end with a winner."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from maumau.bots import hard
from maumau.bots.medium import MediumBot, may_end, stranded
from maumau.rulesets.builtin import gallery_paths
from runner.game.actions import Play
from runner.game.engine import Round
from runner.plugins import registry
from runner.table.match import Match
from runner.table.play import make_bot_factory
from support.scenario import deal

EVERY_PHASE = Path(__file__).parent.parent / "runner" / "botkit" / "every-phase.yaml"
RULES = {  # each going-out rule, added to a file of the gallery or to every-phase
    "only": {"going_out.only": ["8"]},
    "forbidden": {"going_out.forbidden": ["2", "8", "J"]},
    "last_only": {"going_out.last_only": ["9"]},
    "follow_suit": {"going_out.follow_suit": True},
}
FILES = [*gallery_paths(), EVERY_PHASE]


def rulesets():
    reg = registry()
    for path in FILES:
        for name, overrides in RULES.items():
            try:
                yield f"{path.stem}+{name}", reg.load_ruleset(str(path), overrides)
            except Exception:  # a rank the deck lacks (a 32-card pack has no 2): that rule is not for that file
                continue


def strands(rnd: Round, action) -> bool:
    """Whether `action` leaves the seat's hand with no card to go out on, where it had one."""
    hand = rnd.hands[rnd.current]
    if type(action) is not Play or len(action.cards) == len(hand) or stranded(rnd.rules, hand):
        return False
    rest = list(hand)
    for card in action.cards:
        rest.remove(card)
    return stranded(rnd.rules, rest)


def escapes(rnd: Round) -> bool:
    """Whether the seat to act has a legal action that does not strand it (a draw penalty aside: passing it on
    beats taking it, whatever card it costs)."""
    return not rnd.pending and any(not strands(rnd, action) for action in rnd.legal())


@pytest.mark.parametrize("key, ruleset", list(rulesets()), ids=lambda value: value if isinstance(value, str) else "")
def test_medium_and_hards_playouts_keep_a_card_they_may_go_out_on(key, ruleset):
    """Every decision of 20 rounds at 3 seats: medium (and hard's playout policy, played on the same states) never
    gives up its last card to go out on while another action keeps it."""
    for seed in range(20):
        rng = random.Random(seed)
        rnd = Round.deal(ruleset, random.Random(seed), 3)
        bot = MediumBot(rng=random.Random(seed))
        while not rnd.over and rnd.turns < 400:
            view = rnd.view()
            choice = bot.act(view)
            if escapes(rnd):
                assert not strands(rnd, choice), (key, seed, view.hand, choice)
                assert not strands(rnd, hard.heuristic_policy(rnd, random.Random(seed))), (key, seed, view.hand)
            rnd.apply(choice if rng.random() < 0.8 else view.legal[int(rng.random() * len(view.legal))])


def test_medium_keeps_its_one_eight_when_only_an_eight_may_go_out():
    # seat 0 holds one 8 and may play it or the 9 on the 9D: it keeps the 8 for its last card
    rnd = deal("standard", ["8D 9S 4C", "2H 3H 4H", "5H 6H 7S"], "9D", "2C 3C 5C 6C 2S 3S 4S 5S 6S 10H 10C",
               overrides={"going_out.only": ["8"]})
    assert [may_end(rnd.rules, card) for card in rnd.hands[0]] == [card.rank == "8" for card in rnd.hands[0]]
    choice = MediumBot(rng=random.Random(0)).act(rnd.view())
    assert isinstance(choice, Play) and choice.card.text == "9S"
    assert hard.heuristic_policy(rnd, random.Random(0)).card.text == "9S"


def test_rounds_where_only_an_eight_may_go_out_end_with_a_winner():
    """Before: medium played its 8 first and then held no card it could go out on (issue 29)."""
    reg = registry()
    ruleset = reg.load_ruleset("standard-single", {"going_out.only": ["8"]})
    make = make_bot_factory(reg)
    for bot in ("medium", "hard:rollouts=12", "random"):
        for seed in range(4):
            log: list[dict] = []
            Match(ruleset, [bot] * 3, seed, make, log=log).run()
            ends = [event for event in log if event["type"] == "round_end"]
            assert ends and all(event["winner"] is not None for event in ends), (bot, seed)
