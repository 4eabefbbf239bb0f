"""The engine's state protocol on every built-in ruleset, in the spirit of OpenSpiel's random simulation test.

Seeded random rounds at every table size; at every state: a clone is independent of its
original, `legal()` is `view().legal`, every legal action is its own canonical form and is
accepted by `play`, and a state sampled from the view (uniformly, or with the simulator's
beliefs) has that very view again. Now and then a seat forfeits, as under the fault policy. A
round ends with an outcome and no legal action.
"""

from __future__ import annotations

import random

import pytest

from runner.game.actions import Play
from runner.game.engine import Outcome, Round
from runner.simulate import Sampler
from support.scenario import load

SEEDS = 2
SAMPLED = 3  # every third state is also sampled from its view


def builtin_cases():
    from maumau.rulesets.builtin import classic_names
    from runner.plugins import registry

    reg = registry()
    for name in classic_names(reg):
        ruleset = reg.load_ruleset(name)
        for size in range(ruleset.players.min, min(ruleset.players.max, 6) + 1):
            yield name, size


def state_of(rnd: Round) -> tuple:
    """Everything a state holds, as plain values."""
    return (rnd.current, rnd.phase, rnd.suit, rnd.pending, rnd.chain, rnd.direction, rnd.again, rnd.missed,
            rnd.turns, rnd.idle, [list(hand) for hand in rnd.hands], list(rnd.stock), list(rnd.discard),
            list(rnd.history), sorted(rnd.out), rnd.rng.getstate())


def check_clone_is_independent(rnd: Round, rng: random.Random) -> None:
    before = state_of(rnd)
    copy = rnd.clone()
    assert state_of(copy) == before and copy.view() == rnd.view()
    copy.apply(rng.choice(copy.legal()))
    for hand in copy.hands:
        hand.append(copy.discard[0])
    copy.stock.clear()
    copy.rng.random()
    assert state_of(rnd) == before, "playing on a clone changed its original"


def check_actions(rnd: Round) -> None:
    legal = rnd.legal()
    assert legal and legal == rnd.view().legal
    assert len(set(legal)) == len(legal)
    for action in legal:
        assert rnd.canonical(action) is action
        copy = rnd.clone()
        assert copy.play(action) is action


def check_sampling(rnd: Round, rng: random.Random) -> None:
    view = rnd.view()
    for sampled in (Round.sample(view, rng), Sampler(view).sample(rng), Sampler(view, sensible=True).sample(rng)):
        again = sampled.view()
        assert again == view  # every field: the public ones, the seat's own hand, the counters, legal
        assert sorted(map(str, sampled.stock + [c for h in sampled.hands for c in h])) == \
            sorted(map(str, rnd.stock + [c for h in rnd.hands for c in h]))  # the same cards, dealt otherwise


@pytest.mark.parametrize("name, size", list(builtin_cases()))
def test_random_rounds_keep_the_state_protocol(name, size):
    ruleset = load(name)
    for seed in range(SEEDS):
        rng = random.Random(f"{name}:{size}:{seed}")
        rnd = Round.deal(ruleset, random.Random(seed), size, dealer=seed % size)
        states = 0
        while not rnd.over:
            assert rnd.outcome is None
            check_actions(rnd)
            check_clone_is_independent(rnd, rng)
            if states % SAMPLED == 0:
                check_sampling(rnd, rng)
            action = rng.choice(rnd.legal())
            if type(action) is Play and action.announce and rng.random() < 0.2:
                action = Play(action.card, action.suit)  # a forgotten announcement: legal, and penalised
            if len(rnd.in_play()) > 2 and rng.random() < 0.01:
                rnd.forfeit(rng.choice(rnd.in_play()))  # as the fault policy does: the view's `out` says so
            else:
                rnd.play(action)
            states += 1
        assert rnd.legal() == () and isinstance(rnd.outcome, Outcome)
        assert rnd.outcome.winner == rnd.winner
        assert rnd.outcome.reason in ("went_out", "blocked", "turn_limit", "forfeited")
        assert all(points >= 0 for points in rnd.points()) and (rnd.winner is None or rnd.points()[rnd.winner] == 0)
