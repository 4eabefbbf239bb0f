"""Views share the round's history and discard pile (runner/game/view.py: Prefix) and read as the tuples they were."""

from __future__ import annotations

import gc
import inspect
import pickle
import random
import sys
from pathlib import Path

import pytest

from runner import accel
from runner.game.engine import Round
from runner.game.round_state import view_of
from runner.game.view import Event, Prefix, View
from runner.plugins import registry

GALLERY = Path(__file__).resolve().parent.parent / "rulesets" / "gallery"


def reading(view) -> dict:
    """Everything a bot can read of a view's shared fields, as plain tuples and numbers."""
    out = {}
    for name in ("history", "discard"):
        seq = getattr(view, name)
        n = len(seq)
        out[name] = (tuple(seq), tuple(reversed(seq)), tuple(seq[i] for i in range(n)), seq[1:-1], seq[::-2],
                     seq[-1] if n else None, n)
    return out


def expected(rnd) -> dict:
    """The same reading of the tuples the View held before it shared the round's lists."""
    out = {}
    for name, items in (("history", rnd.history), ("discard", rnd.discard)):
        seq = tuple(items)
        n = len(seq)
        out[name] = (seq, tuple(reversed(seq)), seq, seq[1:-1], seq[::-2], seq[-1] if n else None, n)
    return out


@pytest.mark.parametrize("source", ["strafpunten", "elimination", str(GALLERY / "switch.yaml"),
                                    str(GALLERY / "makao.yaml"), str(GALLERY / "pesten.yaml")])
def test_every_view_of_a_round_reads_as_the_copies_did_at_its_decision_and_after(source):
    ruleset = registry().load_ruleset(source)
    rng = random.Random(7)
    reshuffles = 0
    for seed in range(12):
        rnd = Round.deal(ruleset, random.Random(seed), 4 if ruleset.players.max >= 4 else ruleset.players.max)
        kept = []
        while not rnd.over:
            view = rnd.view()
            then = expected(rnd)
            assert reading(view) == then
            kept.append((view, then))
            legal = rnd.legal()
            rnd.apply(legal[int(rng.random() * len(legal))])
        reshuffles += sum(event.kind == "reshuffle" for event in rnd.history)
        for view, then in kept:  # the round went on, reshuffles included: each view still reads as at its decision
            assert reading(view) == then
    if source == "elimination":
        assert reshuffles, "no reshuffle was played: the test would not cover one"


def test_a_prefix_reads_equals_hashes_and_pickles_as_its_tuple():
    events = [Event("play", 0), Event("draw", 1, count=2), Event("pass", 2)]
    prefix = Prefix(events, 2)
    events.append(Event("skip", 3))  # the list grows; the prefix does not
    as_tuple = (Event("play", 0), Event("draw", 1, count=2))
    assert prefix == as_tuple and as_tuple == prefix and not prefix != as_tuple
    assert prefix != as_tuple[:1] and prefix == Prefix(list(as_tuple), 2)
    assert hash(prefix) == hash(as_tuple)
    assert len(prefix) == 2 and prefix[-1] == as_tuple[-1] and prefix[0] == as_tuple[0]
    with pytest.raises(IndexError):
        prefix[2]
    with pytest.raises(IndexError):
        prefix[-3]
    assert prefix[:] == as_tuple and type(prefix[:]) is tuple and prefix[5:] == ()
    assert list(prefix) == list(as_tuple) and list(reversed(prefix)) == list(reversed(as_tuple))
    assert Event("pass", 2) not in prefix and Event("play", 0) in prefix
    assert prefix.index(Event("draw", 1, count=2)) == 1 and prefix.count(Event("play", 0)) == 1
    assert prefix + (Event("pass", 2),) == (*as_tuple, Event("pass", 2))
    assert (Event("pass", 2),) + prefix == (Event("pass", 2), *as_tuple)
    assert repr(prefix) == repr(as_tuple)
    copy = pickle.loads(pickle.dumps(prefix))
    assert copy == as_tuple and type(copy) is tuple


def test_the_views_and_events_the_engine_makes_are_the_namedtuples_their_constructors_make():
    """Compiled, a View or an Event is made by tuple's own constructor from its fields (runner/game/round_state.pxd):
    it must be a View or an Event in every way a bot or a log can tell, and stay one while the round goes on."""
    ruleset = registry().load_ruleset("strafpunten")
    rng = random.Random(3)
    made = []
    for seed in range(6):
        rnd = Round.deal(ruleset, random.Random(seed), 4)
        while not rnd.over:
            view = rnd.view()
            made.append((view, tuple(view)))
            legal = rnd.legal()
            rnd.apply(legal[int(rng.random() * len(legal))])
        made.extend((event, tuple(event)) for event in rnd.history)
    gc.collect()
    kinds = set()
    for value, fields in made:
        cls = type(value)
        kinds.add(cls)
        rebuilt = cls(*fields)
        assert value == rebuilt and tuple(value) == fields and value._asdict() == rebuilt._asdict()
        assert value._replace() == rebuilt and pickle.loads(pickle.dumps(value)) == rebuilt
        assert sys.getsizeof(value) == sys.getsizeof(rebuilt) and gc.is_tracked(value)
        if cls is Event:
            assert hash(value) == hash(rebuilt)
    assert kinds == {View, Event}


def test_a_compiled_view_shares_the_rounds_lists_from_the_first_decision_and_a_pure_one_copies_them_while_short():
    rnd = Round.deal(registry().load_ruleset("strafpunten"), random.Random(1), 4)
    view = rnd.view()
    compiled = accel.status()["runner.game.round_state"] == "compiled"
    shared = Prefix if compiled else tuple  # compiled, a Prefix costs less than a copy of any length
    assert type(view.history) is shared and type(view.discard) is shared
    assert view.history == () and view.discard == tuple(rnd.discard)


def test_a_views_seats_and_hand_sizes_are_the_rounds_at_its_decision():
    """The tuple of `active` is made once per list the round holds (a new list, a new tuple); the sizes each view."""
    rnd = Round.deal(registry().load_ruleset("strafpunten"), random.Random(2), 4)
    first = rnd.view()
    rnd.apply(rnd.legal()[0])
    second = rnd.view()
    assert first.active == second.active == (0, 1, 2, 3) and first.active is second.active
    assert first.hand_sizes != second.hand_sizes and second.hand_sizes == tuple(len(hand) for hand in rnd.hands)
    rnd.active = [0, 1, 3]  # a round rebuilt with fewer seats: its views say so
    assert rnd.view().active == (0, 1, 3)


@pytest.mark.parametrize("source", ["strafpunten", "standard-single", "elimination"])
def test_every_view_is_made_afresh_and_one_held_or_a_part_held_never_changes(source):
    """Every view reads as a view made afresh (a clone's first) at its decision, and a view kept, or its history,
    discard pile or hand sizes kept without it, reads later as it did then (the engine never changes a View)."""
    ruleset = registry().load_ruleset(source)
    rng = random.Random(11)
    for seed in range(10):
        rnd = Round.deal(ruleset, random.Random(seed), 4)
        kept, parts = [], []
        while not rnd.over:
            fresh = tuple(rnd.clone().view())
            view = rnd.view()
            assert tuple(view) == fresh and type(view) is View
            choice = rng.random()
            if choice < 0.2:  # a bot that keeps the view
                kept.append((view, fresh))
            elif choice < 0.5:  # one that keeps only parts of it
                parts.append(((view.history, view.discard, view.hand_sizes, view.legal, view.hand),
                              tuple(tuple(part) for part in (view.history, view.discard, view.hand_sizes,
                                                             view.legal, view.hand))))
            legal = rnd.legal()
            del view
            rnd.apply(legal[int(rng.random() * len(legal))])
        for view, fresh in kept:
            assert tuple(view) == fresh
        for held, then in parts:
            assert tuple(tuple(part) for part in held) == then


def test_view_of_takes_every_field_by_name_in_the_views_order_with_its_defaults():
    """round_state.py `view_of`, the one place a View's fields are put in order: each value given by name lands
    in the field of that name, and a field left out takes the View's default."""
    values = {name: f"value of {name}" for name in View._fields}
    view = view_of(**values)
    assert type(view) is View and view._asdict() == values
    required = {name: values[name] for name in View._fields if name not in View._field_defaults}
    assert view_of(**required) == View(**required)
    assert list(inspect.signature(view_of).parameters) == list(View._fields)
