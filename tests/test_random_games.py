"""Seeded random matches of every built-in ruleset at every allowed table size: the invariants hold.

After every action no card is lost or duplicated (hands + stock + discard pile is the deck as a
multiset), every action was legal, every match ends, the totals are the sums of the round points,
and the logs verify without the engine.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import chain

import pytest

from maumau.rulesets.builtin import classic_names
from runner.errors import RulesetError
from runner.game.engine import Round
from runner.logs.verify import verify
from support.games import VARIANTS, play, player_counts, random_house_rules, random_overrides
from support.scenario import load

SEEDS = 20  # per ruleset and table size: 2,000 matches in all
VERIFIED = 4  # every fourth log is also verified without the engine (test_verify does more)


class CheckedRound(Round):
    """A Round that checks, after every action, that it was legal and that the cards add up to the deck."""

    @classmethod
    def deal(cls, *args, **kwargs):
        rnd = super().deal(*args, **kwargs)
        rnd.deck = Counter(chain(rnd.stock, rnd.discard, *rnd.hands))
        rnd.actions = 0
        return rnd

    def apply(self, action):
        assert self.play(action) == action  # play raises IllegalAction for an action that is not legal
        self.actions += 1
        cards = Counter(chain(self.stock, self.discard, *self.hands))
        assert dict.__eq__(cards, self.deck), f"cards lost or duplicated by {action}"  # dict's == is C-fast


@pytest.fixture
def checked(monkeypatch):
    monkeypatch.setattr("runner.table.match.Round", CheckedRound)
    return monkeypatch


def check_match(ruleset, players: int, seed: int, verified: bool = True, **options) -> int:
    """Play one match under the checks; return the number of decisions in it."""
    log: list[dict] = []
    result = play(ruleset, players, seed, log=log, **options)
    assert result.winners and set(result.winners) <= set(result.ranking)
    assert sorted(result.ranking) == sorted(set(range(len(result.players))) - set(result.left))
    round_sums = [
        sum(r.points[seat] for r in result.rounds if seat < len(r.points)) for seat in range(len(result.players))
    ]
    joined = [event["total"] for event in log if event["type"] == "join"]
    if not ruleset.match.exact_totals:  # which changes totals at given values, apart from the round points
        assert sum(result.totals) == sum(round_sums) + sum(joined)
        if not joined:
            assert list(result.totals) == round_sums
    if verified:
        verify(log)
    return result.decisions


def test_thousands_of_seeded_random_matches_keep_every_invariant(reg, checked):
    matches = decisions = 0
    sizes = set()
    for name in classic_names(reg):  # the gallery: tests/test_gallery.py
        ruleset = load(name)
        for players in player_counts(ruleset):
            sizes.add(players)
            for seed in range(SEEDS):
                decisions += check_match(ruleset, players, seed, verified=seed % VERIFIED == 0)
                matches += 1
    assert matches >= 2000 and sizes == set(range(2, 9))  # 7 and 8 players: the two-deck rulesets
    print(f"{matches} matches, {decisions} decisions")


@pytest.mark.parametrize("overrides", VARIANTS, ids=lambda o: ",".join(o))
def test_random_matches_under_rule_variants_with_sloppy_bots_keep_every_invariant(checked, overrides):
    for name in ("standard", "standard-challenge", "elimination"):
        ruleset = load(name, overrides)
        for players in (2, 3, 4):
            for seed in range(2):
                check_match(ruleset, players, seed, sloppy=True, policy="autoplay")


def test_random_house_rules_with_sloppy_bots_keep_every_invariant(reg, checked):
    """Random combinations of powers and options (a wild 7 that draws, Aces that skip all, ...)."""
    rng, played = random.Random(2024), 0
    while played < 150:
        name = rng.choice(classic_names(reg))
        try:
            ruleset = load(name, random_overrides(rng))
        except RulesetError:  # e.g. a hand size the deck cannot deal
            continue
        players = rng.randint(ruleset.players.min, ruleset.players.max)
        check_match(ruleset, players, rng.randrange(10**6), sloppy=True, policy=rng.choice(["forfeit", "autoplay"]))
        played += 1


HOUSE_MATCHES = 150  # random combinations of the house rules' keys, per stream of seeds


@pytest.mark.slow  # slow: long random streams; .ci/run runs them under each CPython
@pytest.mark.parametrize("stream", [14, 1414])
def test_random_house_rules_of_the_cookbook_keep_every_invariant_and_verify(checked, stream):
    """Random combinations of the keys of docs/house-rules.md on the three families, with sloppy bots."""
    rng, played, tried = random.Random(stream), 0, 0
    while played < HOUSE_MATCHES:
        tried += 1
        name = rng.choice(["standard", "strafpunten", "elimination"])
        try:
            ruleset = load(name, random_house_rules(rng))
        except RulesetError:  # keys that contradict each other: rulesets check refuses them
            continue
        players = rng.randint(ruleset.players.min, min(ruleset.players.max, 5))
        check_match(ruleset, players, rng.randrange(10**6), sloppy=True, policy=rng.choice(["forfeit", "autoplay"]))
        played += 1
    assert tried < 4 * HOUSE_MATCHES  # most random combinations are valid rulesets
    print(f"{played} matches of {tried} combinations")


class LeakyRound(CheckedRound):
    """A Round that loses a stock card on its sixth action: the checks must notice."""

    def apply(self, action):
        if self.actions == 5 and self.stock:
            self.stock.pop()
        super().apply(action)


def test_the_card_check_notices_a_lost_card(monkeypatch):
    monkeypatch.setattr("runner.table.match.Round", LeakyRound)
    with pytest.raises(AssertionError, match="cards lost or duplicated"):
        check_match(load("standard"), 3, 0)
