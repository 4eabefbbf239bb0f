"""The verifier's reading of a log's rules (runner/logs/verify_rules.py) against the ruleset model's: two
independent readings of the same keys must agree on every card's power and points, the deck and the hand
size at every table size; and rules it cannot read are one error at match_start."""

from __future__ import annotations

import copy
import json
import random
from collections import Counter

import pytest

from runner.game.cards import RANKS, SUITS
from runner.logs.verify_rules import LogRules
from runner.plugins import registry
from runner.rules import ruleset_of
from support.logbuilder import Log, rejected

COMPARED = ("draw", "stack", "chain_limit", "skip", "reverse", "wild", "wild_on_wild", "play_again", "others_draw",
            "skip_others", "stack_match", "ends_turn", "target", "skip_stack", "wish_binds", "wild_follows_suit",
            "wild_last_resort", "free", "self_draw", "next_rank", "pass_hands", "swap_hands", "show_next", "give",
            "is_action")


def agree(ruleset) -> int:
    """Compare both readings of `ruleset` at every table size; return the cards compared."""
    data = json.loads(json.dumps(ruleset.to_data()))  # as a log file holds it
    mine, compared = LogRules(data), 0
    for players in ruleset.table_sizes():
        table = mine.at(players)
        assert Counter(table.deck) == Counter(ruleset.deck_for(players).cards()), players
        assert table.hand_size == ruleset.hand_size_for(players)
        for card in table.deck:
            theirs, ours = ruleset.power_of(card, players), table.power[card]
            for key in COMPARED:
                assert getattr(ours, key) == getattr(theirs, key), (players, card, key)
            if theirs.wild:
                assert ours.wish == theirs.wish
                if theirs.wish == "rank":
                    assert tuple(ours.wish_ranks or table.plain_ranks) == tuple(ruleset.wish_ranks_for(theirs, players))
            assert table.points[card] == ruleset.points_of(card)
            compared += 1
    return compared


def test_both_readings_agree_on_every_registered_and_gallery_ruleset():
    reg = registry()
    rulesets = [reg.load_ruleset(name) for name in sorted(reg.rulesets)]  # the gallery's too
    assert sum(agree(ruleset) for ruleset in rulesets) > 1000


def random_rules(rng: random.Random) -> dict:
    """Standard Mau Mau with powers under random selectors, jokers and powers by player count."""
    data = copy.deepcopy(registry().load_ruleset("standard").to_data())
    data["deck"]["jokers"] = rng.choice([0, 2, 3])
    data["points"]["X"] = 50
    terms = list(RANKS) + [rank + suit for rank in RANKS for suit in SUITS] + ["X", "XR", "XB"]
    powers: dict = {}
    for _ in range(rng.randint(1, 6)):
        key = " ".join(sorted(set(rng.sample(terms, rng.choice([1, 1, 2, 3])))))
        powers[key] = {rng.choice(["draw", "skip", "others_draw"]): rng.randint(1, 2),
                       "reverse": rng.random() < 0.3, "wild": rng.random() < 0.3}
    if not data["deck"]["jokers"]:
        powers = {key: value for key, value in powers.items() if "X" not in key}
    data["powers"] = powers
    if rng.random() < 0.5:
        data["powers_by_players"] = {2: {"A": {"play_again": True}}, 3: {"8": {"skip": 2}}}
    return data


def test_both_readings_agree_on_random_selectors():
    rng, checked = random.Random(14), 0
    while checked < 60:
        data = random_rules(rng)
        try:
            ruleset = ruleset_of(data)
        except Exception:  # two keys naming one card equally specifically, and the like: the model refuses them
            continue
        agree(ruleset)
        checked += 1


@pytest.mark.parametrize("change,words", [
    ({"powers": {"ZZ": {"skip": 1}}}, "'ZZ' in selector 'ZZ' is neither a rank nor a card"),
    ({"powers": {"8": {"skip": 1, "skip_stack": "twice"}}}, "skip_stack 'twice' is none of none, pass, add"),
    ({"jump_in": "always"}, "jump_in 'always' is none of none, identical, same_rank"),
])
def test_rules_the_verifier_cannot_read_are_one_error_at_match_start(change, words):
    log = Log()
    log.deal(["9H 10H", "7C QC"], up="KH")
    log.events[0]["rules"].update(change)
    rejected(log.events, 0, f"rules: {words}")
