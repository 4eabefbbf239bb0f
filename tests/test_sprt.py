"""The GSPRT of `maumau sprt`: its LLR against fishtest's formula, and its error rates by simulation.

The simulations draw paired scores from known distributions (a fast synthetic model, no games):
under H0 the test must accept H1 at most about alpha of the time, under H1 at least 1 - beta.
They are seeded, so each run of this file draws the same numbers.
"""

import math
import random

import pytest

from runner.errors import MaumauError
from runner.tournament.sprt import Hypotheses, Sprt, check_hypotheses, elo_of_score, score_of_elo


def tilted(base: list[float], mean: float) -> list[float]:
    """`base` (probabilities of the grid values 0..1) exponentially tilted to have `mean`."""
    grid = len(base) - 1
    values = [i / grid for i in range(grid + 1)]
    low, high = -60.0, 60.0
    for _ in range(200):
        theta = (low + high) / 2
        weights = [q * math.exp(theta * a) for q, a in zip(base, values)]
        if sum(w * a for w, a in zip(weights, values)) / sum(weights) < mean:
            low = theta
        else:
            high = theta
    return [w / sum(weights) for w in weights]


def run_test(h: Hypotheses, probs: list[float], rng: random.Random, cap: int = 20000) -> tuple[str | None, int]:
    grid = len(probs) - 1
    test = Sprt(h, grid)
    cumulative, total = [], 0.0
    for p in probs:
        total += p
        cumulative.append(total)
    for n in range(1, cap + 1):
        u = rng.random()
        test.add(next((i for i, c in enumerate(cumulative) if u < c), grid) / grid)
        decision = test.decision()
        if decision:
            return decision, n
    return None, cap


def reference_llr(counts: list[int], s0: float, s1: float) -> float:
    """fishtest's LLR of the expectation statistic, with the secular equation solved by plain bisection."""
    grid = len(counts) - 1
    regular = [c or 1e-3 for c in counts]
    n = sum(regular)
    pdf = [(i / grid, c / n) for i, c in enumerate(regular)]

    def mle(s):
        shifted = [(a - s, p) for a, p in pdf]
        low, high = -1 / max(a for a, _ in shifted) + 1e-12, -1 / min(a for a, _ in shifted) - 1e-12
        for _ in range(400):
            x = (low + high) / 2
            if sum(p * a / (1 + x * a) for a, p in shifted) > 0:
                low = x
            else:
                high = x
        return [p / (1 + x * (a - s)) for a, p in pdf]

    p0, p1 = mle(s0), mle(s1)
    return n * sum(p * (math.log(b) - math.log(a)) for (_, p), a, b in zip(pdf, p0, p1))


def test_elo_and_score_convert_both_ways():
    assert score_of_elo(0) == 0.5
    assert score_of_elo(400) == pytest.approx(10 / 11)
    assert elo_of_score(score_of_elo(35.0)) == pytest.approx(35.0)
    assert elo_of_score(1.0) == math.inf and elo_of_score(0.0) == -math.inf


def test_bounds_are_walds():
    assert Hypotheses(alpha=0.05, beta=0.05).bounds == pytest.approx((-2.944, 2.944), abs=1e-3)
    low, high = Hypotheses(alpha=0.01, beta=0.1).bounds
    assert low == pytest.approx(math.log(0.1 / 0.99)) and high == pytest.approx(math.log(0.9 / 0.01))


@pytest.mark.parametrize("counts", [[100, 400, 1000, 420, 110], [3, 0, 5, 9, 1], [0, 0, 7, 0, 0],
                                    [2, 0, 1, 4, 6, 0, 3, 0, 9]])
def test_llr_is_fishtests_generalized_llr(counts):
    h = Hypotheses(elo0=-2, elo1=8)
    test = Sprt(h, len(counts) - 1)
    for i, count in enumerate(counts):
        for _ in range(count):
            test.add(i / (len(counts) - 1))
    assert test.llr() == pytest.approx(reference_llr(counts, *h.scores), rel=1e-9, abs=1e-9)


def test_scores_off_the_grid_are_refused():
    test = Sprt(Hypotheses(), 4)
    with pytest.raises(ValueError):
        test.add(0.3)
    with pytest.raises(ValueError):
        test.add(1.25)


def test_more_wins_push_the_llr_up_and_ties_down():
    up, down = Sprt(Hypotheses(), 4), Sprt(Hypotheses(), 4)
    for score in [1.0, 0.75, 0.5, 1.0, 0.25, 0.75] * 10:
        up.add(score)
    for score in [0.5, 0.5, 0.25, 0.75] * 15:
        down.add(score)
    assert up.llr() > 0 > down.llr()


# Two models of paired results: game pairs (the pentanomial of a two-seat duplicate deal, most
# pairs split or drawn: strongly correlated games), and deals of three seats against fixed
# opponents, 25 values on the grid of 1/24.
PENTANOMIAL = [0.05, 0.2, 0.5, 0.2, 0.05]
THREE_SEATS = [math.exp(-((i - 12) / 4) ** 2) for i in range(25)]
RUNS = 600
SLACK = 3 * math.sqrt(0.05 * 0.95 / RUNS)  # three standard errors of a rate near 0.05


@pytest.mark.parametrize("base", [PENTANOMIAL, THREE_SEATS], ids=["pentanomial", "three-seats"])
def test_error_rates_hold_by_simulation(base):
    h = Hypotheses(elo0=0, elo1=40, alpha=0.05, beta=0.05)
    rng = random.Random(2024)
    s0, s1 = h.scores
    under_h0 = [run_test(h, tilted(base, s0), rng) for _ in range(RUNS)]
    under_h1 = [run_test(h, tilted(base, s1), rng) for _ in range(RUNS)]
    assert all(decision for decision, _ in under_h0 + under_h1)  # every test decides well before the cap
    false_h1 = sum(d == "H1" for d, _ in under_h0) / RUNS
    false_h0 = sum(d == "H0" for d, _ in under_h1) / RUNS
    assert false_h1 <= h.alpha + SLACK
    assert false_h0 <= h.beta + SLACK
    if base is PENTANOMIAL:
        # and not far below them either: a test that overstated the variance would stop later and err less.
        # (With three seats the test stops after about 25 deals, and overshooting its bounds it errs less.)
        assert false_h1 >= h.alpha / 2 and false_h0 >= h.beta / 2


def test_a_true_difference_halfway_is_decided_either_way_and_takes_longest():
    h = Hypotheses(elo0=0, elo1=40)
    rng = random.Random(5)
    middle = score_of_elo(20)
    results = [run_test(h, tilted(PENTANOMIAL, middle), rng) for _ in range(200)]
    h1 = sum(d == "H1" for d, _ in results) / len(results)
    assert 0.3 < h1 < 0.7
    at_h0 = [run_test(h, tilted(PENTANOMIAL, h.scores[0]), rng)[1] for _ in range(200)]
    assert sum(n for _, n in results) / len(results) > sum(at_h0) / len(at_h0)


@pytest.mark.parametrize("kwargs, message", [
    ({"elo0": 5, "elo1": 5}, "--elo0 5 must be below --elo1 5"),
    ({"alpha": 0.0}, "--alpha must be an error rate"),
    ({"beta": 0.7}, "--beta must be an error rate"),
])
def test_bad_hypotheses_are_one_line_errors(kwargs, message):
    with pytest.raises(MaumauError, match=message):
        check_hypotheses(Hypotheses(**kwargs))
