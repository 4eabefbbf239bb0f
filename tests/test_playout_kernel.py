"""The playout kernel (runner/botkit/_playout.pyx) plays as the Python playout does: the same moves, points,
winner, turns and generator state, over sampled mid-game states of every ruleset it covers.

The Python code of runner/botkit/simulate.py is the reference; the kernel stands in for it where
it is built (`pip install -e .` with a C compiler). Without it these tests skip, unless
MAUMAU_REQUIRE_ACCEL=1 (as in .ci/run) makes that a failure.
"""

from __future__ import annotations

import dataclasses
import os
import pickle
import random
import subprocess
import sys
from pathlib import Path

import pytest

from maumau.bots.hard import HardBot, heuristic_policy, place_value
from runner.botkit import fuzz, simulate
from runner.game.actions import Play
from runner.game.engine import CHALLENGING, DRAWN, NAME_SUIT, Round
from runner.game.tables import Game

ROOT = Path(__file__).resolve().parent.parent
# A policy per seat too: each seat by another of the three twins (the list repeated over the seats beyond it).
SEATS = simulate.SeatPolicies([heuristic_policy, simulate.random_policy, simulate.quick_policy])
POLICIES = (simulate.quick_policy, heuristic_policy, simulate.random_policy, SEATS)


@pytest.fixture(scope="module")
def kernel():
    if simulate.kernel is None:
        if os.environ.get("MAUMAU_REQUIRE_ACCEL"):
            pytest.fail("the playout kernel is required (MAUMAU_REQUIRE_ACCEL) but not built")
        pytest.skip("the playout kernel is not built here")
    return simulate.kernel


def covered_rulesets(reg) -> list[tuple[str, int]]:
    """(ruleset, players) for every built-in and gallery ruleset at each table size up to 5 the kernel covers (without
    the kernel, as for the Sampler's tests: those of the engine's fast path)."""
    kernel = simulate.kernel
    found = []
    for name in sorted(reg.rulesets):  # the gallery's too
        ruleset = reg.load_ruleset(name)
        for players in range(ruleset.players.min, min(ruleset.players.max, 5) + 1):
            game = Game.of(ruleset, players)
            if (kernel.table_of(game) is not None) if kernel is not None else not game.general:
                found.append((name, players))
    return found


def walk(ruleset, players: int, seed: int, moves: int) -> list[Round]:
    """The states of a seeded round played at random for up to `moves` decisions (an announcement now and then
    left out, so that penalties and challenges come up)."""
    rng, rnd = random.Random(seed), Round.deal(ruleset, random.Random(-seed), players)
    states = []
    while not rnd.over and len(states) < moves:
        states.append(rnd.clone(random.Random(0)))
        legal = rnd.legal()
        action = legal[int(rng.random() * len(legal))]
        if type(action) is Play and action.announce and rng.random() < 0.3:
            action = dataclasses.replace(action, announce=None)
        rnd.apply(action)
    return states


def corpus(reg, per_ruleset: int = 6) -> list[tuple[str, Round]]:
    """Mid-game states over every covered ruleset and table size, a few rounds each, at several depths."""
    states = []
    for name, players in covered_rulesets(reg):
        ruleset = reg.load_ruleset(name)
        for seed in range(1, per_ruleset + 1):
            found = walk(ruleset, players, seed * 101 + players, 60)
            states += [(f"{name}/{players}/{seed}/{index}", state) for index, state in enumerate(found)
                       if index % 7 == seed % 7 or state.phase != "play"]
    return states


def python_playout(rnd: Round, rng: random.Random, policy):
    """The reference: a clone played by simulate.playout, every action it took, and how it ended."""
    copy, taken = rnd.clone(rng), []
    while not copy.over:
        action = policy(copy, rng)
        taken.append(action)
        copy.apply(action)
    return taken, simulate.Rollout(copy.points(), copy.winner, copy.turns)


def on_both_paths(monkeypatch, compute):
    """`compute()` with the kernel, then again with simulate's Python code alone: (kernel's, Python's)."""
    with_kernel = compute()
    monkeypatch.setattr(simulate, "kernel", None)
    return with_kernel, compute()


@pytest.fixture(scope="module")
def states(reg):
    return corpus(reg)


def test_the_corpus_covers_the_classic_rulesets_and_every_phase(kernel, reg, states):
    names = {key.split("/")[0] for key, _ in states}
    assert {"standard", "strafpunten", "standard-challenge", "elimination", "standard-two-decks"} <= names
    phases = {state.phase for _, state in states}
    assert {"play", DRAWN, NAME_SUIT, CHALLENGING} <= phases
    assert any(state.pending for _, state in states) and any(state.direction == -1 for _, state in states)
    assert len(states) > 500


def test_the_kernel_lists_the_engines_legal_actions(kernel, states):
    differ = [key for key, state in states if kernel.legal(state) != state.legal()]
    assert not differ, f"{len(differ)} of {len(states)} states differ, e.g. {differ[:5]}"


@pytest.mark.parametrize("policy", POLICIES, ids=lambda p: getattr(p, "__name__", "seats"))
def test_a_kernel_playout_is_the_python_playout_move_for_move(kernel, states, policy):
    differ = []
    for index, (key, state) in enumerate(states):
        before = ([list(hand) for hand in state.hands], list(state.stock), list(state.discard), state.turns)
        expected_rng, kernel_rng = random.Random(index), random.Random(index)
        expected_moves, expected = python_playout(state, expected_rng, policy)
        assert kernel.actions(state, kernel_rng, policy) == expected_moves, key
        assert kernel_rng.getstate() == expected_rng.getstate(), key
        kernel_rng = random.Random(index)
        found = simulate.rollout(state, kernel_rng, policy)
        if found != expected or kernel_rng.getstate() != expected_rng.getstate():
            differ.append(key)
        assert (state.hands, state.stock, state.discard, state.turns) == before  # played on a copy
    assert not differ, f"{len(differ)} of {len(states)} playouts differ, e.g. {differ[:5]}"


def test_a_first_action_is_applied_as_the_engine_does(kernel, states):
    for index, (key, state) in enumerate(states[::3]):
        for action in state.legal():
            expected_rng, kernel_rng = random.Random(index), random.Random(index)
            copy = state.clone(expected_rng)
            copy.apply(action)
            _, expected = python_playout(copy, expected_rng, heuristic_policy)
            assert simulate.rollout(state, kernel_rng, heuristic_policy, first=action) == expected, (key, action)
            assert kernel_rng.getstate() == expected_rng.getstate()


def test_a_generator_copied_in_and_out_moves_as_one_worked_on_in_place(kernel, states):
    if not kernel.in_place_generator():
        pytest.skip("this Python's random.Random layout is not the one the kernel reads in place")
    try:
        kernel.in_place_generator(False)
        for index, (key, state) in enumerate(states[::5]):
            expected_rng, kernel_rng = random.Random(index), random.Random(index)
            _, expected = python_playout(state, expected_rng, simulate.quick_policy)
            assert simulate.rollout(state, kernel_rng, simulate.quick_policy) == expected, key
            assert kernel_rng.getstate() == expected_rng.getstate(), key
    finally:
        assert kernel.in_place_generator(True)


@pytest.mark.parametrize("sensible", [False, True, frozenset({1, 2})], ids=["facts", "sensible", "seats 1 2"])
def test_sampled_rollouts_are_the_same_with_and_without_the_kernel(kernel, states, monkeypatch, sensible):
    views = [(key, state.view()) for key, state in states[::2] if len(state.legal()) > 1]
    assert len(views) > 100

    def sampled():
        rng, results = random.Random(7), []
        for key, view in views:
            sampler = simulate.Sampler(view, sensible=sensible)
            for _ in range(3):
                results.append((key, sampler.rollouts(rng, list(view.legal), SEATS if sensible else heuristic_policy)))
        return results, rng.getstate()

    (kernel_found, kernel_rng), (python_found, python_rng) = on_both_paths(monkeypatch, sampled)
    differ = [a[0] for a, b in zip(kernel_found, python_found) if a != b]
    assert not differ, f"{len(differ)} of {len(views) * 3} samples differ, e.g. {differ[:5]}"
    assert kernel_rng == python_rng
    if sensible is True:  # the beliefs were exercised: known voids and named suits
        assert any(simulate.Sampler(view, sensible=True).voids for _, view in views)
        assert any(simulate.Sampler(view, sensible=True).named for _, view in views)


def match_views(ruleset, rounds: int = 20) -> list[tuple[int, object]]:
    """(seed, view): three searched decisions of each of `rounds` seeded rounds at a table of 4, the totals before
    them from a match's start to its last round (the value of an ending weighs the places then)."""
    limit, views = ruleset.match.limit or 100, []
    for seed in range(1, rounds + 1):
        totals = [random.Random(seed * 4 + seat).randrange(0, limit * min(seed, 5) // 5) for seat in range(4)]
        rnd, rng, taken = Round.deal(ruleset, random.Random(-seed), 4, totals=totals), random.Random(seed), 0
        while not rnd.over and taken < 3:
            view = rnd.view()
            if len(view.legal) > 1 and rng.random() < 0.2:
                views.append((seed, view))
                taken += 1
            legal = rnd.legal()
            rnd.apply(legal[int(rng.random() * len(legal))])
    return views


# limit (two scorings, and neunerln's multiplier), elimination, single
FORMATS = ["standard", "strafpunten", "elimination", "standard-single", "neunerln"]


@pytest.mark.parametrize("name", FORMATS)
def test_valued_rollouts_are_the_same_with_and_without_the_kernel(kernel, reg, monkeypatch, name):
    views = match_views(reg.load_ruleset(name))

    def valued():
        rng = random.Random(5)
        return [simulate.Sampler(view, sensible=True).values(rng, list(view.legal), place_value(view),
                                                            heuristic_policy) for _, view in views]

    with_kernel, without = on_both_paths(monkeypatch, valued)
    assert with_kernel == without
    worths = {worth for values in with_kernel for worth, _ in values}
    assert {0.0, 1.0} <= worths or len(worths) > 20  # endings that decide the match, and others weighed


@pytest.mark.parametrize("name", FORMATS)
def test_hard_makes_the_same_choices_with_and_without_the_kernel(kernel, reg, monkeypatch, name):
    decisions = match_views(reg.load_ruleset(name))

    def chosen():
        bots = [(HardBot(rng=random.Random(seed), rollouts=60), view) for seed, view in decisions]
        return [(bot.act(view), bot.moves, bot.rng.getstate()) for bot, view in bots]

    with_kernel, without = on_both_paths(monkeypatch, chosen)
    assert with_kernel == without
    assert len({action for action, _, _ in with_kernel}) > 10


def house_rule_stream(reg, folder: Path, count: int, seed: int = 32):
    """Random house-rule files of the fuzzer's keys and values (runner/botkit/fuzz.py, completed as it completes them)
    but no new powers, the scoring keys drawn most often: (name, ruleset) of those the kernel covers."""
    import yaml

    from runner.errors import MaumauError
    from runner.rules.overrides import apply_overrides

    found = []
    for index in range(count):
        rng = random.Random(f"{seed}/{index}")
        changes = {key: rng.choice(values) for key, values in sorted(fuzz.OPTION_VALUES.items())
                   if rng.random() < (0.5 if key.startswith("scoring.") else 0.08)}
        fuzz._complete(changes)
        data = apply_overrides({"extends": rng.choice(fuzz.BASES), "name": f"stream-{index}"}, changes)
        path = folder / f"stream-{index}.yaml"
        path.write_text(yaml.safe_dump(data, sort_keys=False))
        try:
            ruleset, _ = reg.check_ruleset(str(path))
        except MaumauError:
            continue
        if simulate.kernel.table_of(Game.of(ruleset, ruleset.players.min)) is not None:
            found.append((path.name, ruleset))
    return found


def test_random_house_rules_the_kernel_covers_play_out_as_the_engine_plays_them(kernel, reg, tmp_path):
    """Every key of `scoring` (the kernel scores a round as runner/game/house_rules.py does), and the other keys of the
    fast path, over a stream of random house-rule files: the kernel's playouts end as the engine's, move for move."""
    stream = house_rule_stream(reg, tmp_path, 120)
    assert len(stream) >= 30
    scorings = [ruleset.scoring for _, ruleset in stream]
    assert all(any(getattr(scoring, key) != default for scoring in scorings) for key, default in (
        ("count", "points"), ("minimum", 0), ("round_to", 1), ("multiplier", {}), ("winner_collects", False),
        ("alone", {}), ("winner_scores", {}), ("highest_only", False), ("blocked", "hands")))
    compared = differ = 0
    for name, ruleset in stream:
        players = ruleset.players.min + len(name) % 2
        for seed in (1, 2):
            for index, state in enumerate(walk(ruleset, players, seed, 40)[::6]):
                for policy in (heuristic_policy, simulate.quick_policy):
                    expected_rng, kernel_rng = random.Random(index), random.Random(index)
                    moves, expected = python_playout(state, expected_rng, policy)
                    assert kernel.actions(state, random.Random(index), policy) == moves, (name, seed, index)
                    found = simulate.Rollout(*kernel.rollout(state, kernel_rng, policy))  # the kernel's, never Python's
                    compared += 1
                    differ += found != expected or kernel_rng.getstate() != expected_rng.getstate()
                    assert found == expected, (name, seed, index, policy)
    assert compared > 300 and not differ
    assert sum(not Game.of(ruleset).plain_scoring for _, ruleset in stream) > len(stream) // 2


def test_rules_beyond_the_kernel_play_out_in_python(kernel, reg):
    ruleset = reg.load_ruleset(str(ROOT / "rulesets" / "gallery" / "switch.yaml"))
    rnd = Round.deal(ruleset, random.Random(3), 3)
    assert kernel.table_of(rnd.rules) is None
    expected_rng, rng = random.Random(1), random.Random(1)
    _, expected = python_playout(rnd, expected_rng, heuristic_policy)
    assert simulate.rollout(rnd, rng, heuristic_policy) == expected


def test_a_round_with_more_cards_than_the_kernel_holds_plays_in_python(kernel, reg):
    ruleset = reg.load_ruleset("standard", {"deck.copies": 3})  # 156 cards: more than a pile of the kernel's
    rnd = Round.deal(ruleset, random.Random(4), 4)
    assert kernel.table_of(rnd.rules) is not None
    with pytest.raises(ValueError, match="more cards than the playout kernel holds"):
        kernel.rollout(rnd, random.Random(1), heuristic_policy)
    expected_rng, rng = random.Random(1), random.Random(1)
    _, expected = python_playout(rnd, expected_rng, heuristic_policy)
    assert simulate.rollout(rnd, rng, heuristic_policy) == expected
    assert rng.getstate() == expected_rng.getstate()


def test_a_policy_without_a_twin_plays_in_python(kernel, states):
    def first_legal(rnd, rng):
        return rnd.legal()[0]

    key, state = states[0]
    _, expected = python_playout(state, random.Random(1), first_legal)
    assert simulate.rollout(state, random.Random(1), first_legal) == expected


def test_maumau_pure_leaves_the_kernel_and_the_hard_bots_twins_out():
    script = ("from runner.botkit import simulate; from runner import accel; from maumau.bots import hard; "
              "print(simulate.kernel is None, hard.twins is None, hard.heuristic_policy.kernel is None); "
              "print(accel.status()['runner.botkit._playout']); print(accel.status()['maumau.bots._hard'])")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "MAUMAU_PURE": "1"})
    assert done.stdout.splitlines() == ["True True True", "pure: MAUMAU_PURE=1", "pure: MAUMAU_PURE=1"], \
        done.stderr[-2000:]


def test_the_kernel_plays_a_bots_policy_through_its_slot(kernel, reg):
    """The kernel holds no strategy of a bot: hard's heuristic and place value are C twins of bots/_hard.pyx, kernel
    Policy and Value objects, as the framework's own quick and random policies are; anything else is refused."""
    from maumau.bots import _hard

    assert isinstance(heuristic_policy.kernel, kernel.Policy) and type(heuristic_policy.kernel) is _hard.Heuristic
    assert simulate.quick_policy.kernel is kernel.QUICK and simulate.random_policy.kernel is kernel.UNIFORM
    assert SEATS.kernel == ("seats", (heuristic_policy.kernel, kernel.UNIFORM, kernel.QUICK))
    assert all(kernel.has_twin(policy) for policy in POLICIES)
    again = pickle.loads(pickle.dumps(SEATS))  # a policy per seat goes to other processes with its twins
    assert kernel.has_twin(again) and again.kernel[1][2] is kernel.QUICK and again == SEATS
    state = corpus(reg, 1)[5][1]
    assert simulate.rollout(state, random.Random(3), again) == simulate.rollout(state, random.Random(3), SEATS)

    def named(rnd, rng):
        return rnd.legal()[0]

    for twin in (("heuristic", (1, 2.0, 3.0, 4.0, 5.0, 6.0)), ("quick",), kernel.Policy(), object()):
        named.kernel = twin  # a name of a policy, or a slot with no C function: no twin
        assert not kernel.has_twin(named)
    assert not hasattr(kernel, "heuristic") and not hasattr(kernel, "PLACE_FORMATS")
    assert _hard.place("target", 0, (0, 1), (0, 0), 100, 15.0, 18.0, 1.7) is None  # a format it has no twin of
    assert kernel.has_value_twin(place_value(match_views(reg.load_ruleset("standard"), 1)[0][1]))


def test_sensible_beliefs_may_be_held_of_some_seats_only(states):
    """Sampler(view, sensible=seats): the beliefs of `sensible` about those seats, the facts alone about the rest."""
    views = [state.view() for _, state in states[::2]]
    compared = 0
    for view in views:
        believed = simulate.Sampler(view, sensible=True)
        facts = simulate.Sampler(view, sensible=False)
        for seat in range(len(view.hand_sizes)):
            some = simulate.Sampler(view, sensible={seat})
            for other in range(len(view.hand_sizes)):
                trusted = believed if other == seat else facts
                assert some.voids.get(other) == trusted.voids.get(other)
                assert some.named.get(other) == trusted.named.get(other)
            compared += believed.voids.get(seat) != facts.voids.get(seat) or seat in believed.named
    assert compared > 50  # the beliefs differ from the facts often enough to tell
