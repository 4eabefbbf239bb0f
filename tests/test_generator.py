"""The generator kernel (runner/game/_generator.pyx) seeds and shuffles as random.Random does: the same states.

A match's generators (the deal's and each bot's) come from it where it is built, and the engine
shuffles with it; every game log depends on their states being random.Random's. Without it these
tests skip, unless MAUMAU_REQUIRE_ACCEL=1 (as in .ci/run) makes that a failure.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from runner.game import engine
from runner.plugins import registry
from runner.table import match
from runner.table.play import make_bot_factory

ROOT = Path(__file__).resolve().parent.parent

# The texts a match seeds from, and the edges of the key: empty, leading zero bytes (they do not count in the int
# Random.seed makes), not ASCII, and lengths round a word (4 bytes) and past the key kept on the stack (64 words).
TEXTS = ["7:deal", "-3:deal", "6086305739457036521:deal", match.hashlib.sha256(b"x").hexdigest(), "", "\x00",
         "\x00\x00\x00\x00\x00abc", "é☃ü",
         *("k" * n for n in (1, 2, 3, 4, 5, 127, 128, 129, 191, 192, 193, 2500, 2501))]


@pytest.fixture(scope="module")
def kernel():
    try:
        from runner.game import _generator
    except ImportError:
        if os.environ.get("MAUMAU_REQUIRE_ACCEL"):
            pytest.fail("the generator kernel is required (MAUMAU_REQUIRE_ACCEL) but not built")
        pytest.skip("the generator kernel is not built here")
    return _generator


@pytest.fixture(scope="module")
def seeded(kernel):
    return kernel.seeded


@pytest.mark.parametrize("text", TEXTS)
def test_a_seeded_generator_is_random_random_of_the_same_text(seeded, text):
    made, expected = seeded(text), random.Random(text)
    assert type(made) is random.Random
    assert made.getstate() == expected.getstate()
    assert [made.random() for _ in range(700)] == [expected.random() for _ in range(700)]  # past a twist
    assert made.gauss(0, 1) == expected.gauss(0, 1) and made.getstate() == expected.getstate()


@pytest.mark.parametrize("text", TEXTS)
def test_a_generator_seeded_by_sha256_is_random_random_of_the_hex_digest(kernel, text):
    made = kernel.seeded_by_sha256(text)
    expected = random.Random(match.hashlib.sha256(text.encode()).hexdigest())
    assert type(made) is random.Random
    assert made.getstate() == expected.getstate()
    assert [made.random() for _ in range(700)] == [expected.random() for _ in range(700)]


@pytest.mark.parametrize("count", [1, 2, 5, 8, 9, 17])
def test_generators_seeded_together_are_random_random_each(kernel, count):
    """Widths of every lane count, more than one group of lanes, and keys too long for the lanes (seeded alone)."""
    texts, by_sha256 = (TEXTS * 2)[:count], (TEXTS * 2)[3:3 + count]
    made = kernel.seeded_together(texts, by_sha256)
    expected = [random.Random(t) for t in texts]
    expected += [random.Random(match.hashlib.sha256(t.encode()).hexdigest()) for t in by_sha256]
    assert [type(m) for m in made] == [random.Random] * len(expected)
    assert [m.getstate() for m in made] == [e.getstate() for e in expected]
    assert [[m.random() for _ in range(700)] for m in made] == [[e.random() for _ in range(700)] for e in expected]


def test_a_match_seeds_its_generators_in_the_kernel(kernel):
    assert match.seeded_together is kernel.seeded_together and match.seeded_by_sha256 is kernel.seeded_by_sha256
    game = match.Match(registry().load_ruleset("standard"), ["random"] * 3, 11, make_bot_factory())
    assert game.rng.getstate() == random.Random("11:deal").getstate()
    for seat in range(3):
        expected = random.Random(match.hashlib.sha256(f"maumau:11:seat:{seat}".encode()).hexdigest())
        assert game.bots[seat].rng.getstate() == expected.getstate() == match.bot_rng(11, seat).getstate()


@pytest.mark.parametrize("size", [0, 1, 2, 3, 4, 5, 31, 32, 33, 52, 64, 65, 104, 700, 1500])
def test_a_shuffle_is_random_shuffle_card_for_card_and_state_for_state(kernel, size):
    """Sizes round the powers of two (the bit length of _randbelow), and past a twist of the state (624 words)."""
    made, expected = random.Random(size), random.Random(size)
    for _ in range(3):
        cards, expected_cards = [f"c{i}" for i in range(size)], [f"c{i}" for i in range(size)]
        kernel.shuffle(made, cards)
        expected.shuffle(expected_cards)
        assert cards == expected_cards
        assert made.getstate() == expected.getstate()


def test_the_engine_shuffles_in_the_kernel(kernel):
    assert engine.generator_shuffle is kernel.shuffle
    made, expected = random.Random(3), random.Random(3)
    cards, expected_cards = list(range(52)), list(range(52))
    engine.shuffle(made, cards)
    expected.shuffle(expected_cards)
    assert cards == expected_cards and made.getstate() == expected.getstate()


def test_maumau_pure_seeds_and_shuffles_with_random_random():
    script = ("from runner.table import match; from runner.game import engine; import random; "
              "deal, *bots = match.match_generators(5, 3); "
              "print(match.seeded_together.__module__, engine.generator_shuffle is None, "
              "deal.getstate() == random.Random('5:deal').getstate(), [b.getstate() for b in bots] == "
              "[random.Random(match.hashlib.sha256(f'maumau:5:seat:{s}'.encode()).hexdigest()).getstate() "
              "for s in range(3)])")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "MAUMAU_PURE": "1"})
    assert done.stdout == "runner.table.match True True True\n", done.stderr[-2000:]
