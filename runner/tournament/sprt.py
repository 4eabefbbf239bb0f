"""A generalized sequential probability ratio test (GSPRT) on paired scores, as fishtest runs it on pentanomial counts.

Each observation is a score in [0, 1] on a grid of `1/grid` steps: for an A/B test, one deal's
paired outcome (runner.tournament.abtest), 0.5 when NEW and BASE did equally well. Pairing makes
the results of one deal go together, so the test does not assume a variance: it takes the
observed distribution of the paired scores (every grid value a category, a small prior in the
empty ones, as fishtest's `regularize`) and compares the maximum-likelihood distributions of
mean s0 and s1 that are closest to it (fishtest's `MLE_expected`: p_i / (1 + x (a_i - s)), with
x solving the secular equation). The log-likelihood ratio of the counts under the two is the
LLR; the test accepts H1 at log((1 - beta) / alpha), H0 at log(beta / (1 - alpha)).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

PRIOR = 1e-3  # the count given to a category not seen yet (fishtest's regularization)


def score_of_elo(elo: float) -> float:
    """The expected score of a logistic Elo difference."""
    return 1 / (1 + 10 ** (-elo / 400))


def elo_of_score(score: float) -> float:
    """The logistic Elo difference of an expected score (infinite at 0 and 1)."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1) + 0.0  # + 0.0: parity is 0, not -0


@dataclass(frozen=True)
class Hypotheses:
    """H0: the Elo difference is elo0; H1: it is elo1; the error rates alpha (accepting H1 under H0) and beta."""

    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05

    @property
    def bounds(self) -> tuple[float, float]:
        """The LLR at which H0, and H1, are accepted."""
        return math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha)

    @property
    def scores(self) -> tuple[float, float]:
        return score_of_elo(self.elo0), score_of_elo(self.elo1)


def check_hypotheses(h: Hypotheses) -> None:
    """Refuse hypotheses the test cannot decide between, naming the option."""
    from runner.errors import MaumauError

    if not h.elo0 < h.elo1:
        raise MaumauError(f"--elo0 {h.elo0:g} must be below --elo1 {h.elo1:g}: H1 says NEW is stronger by elo1")
    for name, rate in (("alpha", h.alpha), ("beta", h.beta)):
        if not 0 < rate < 0.5:
            raise MaumauError(f"--{name} must be an error rate between 0 and 0.5, got {rate:g}")
    if not (-2000 < h.elo0 and h.elo1 < 2000):
        raise MaumauError("--elo0 and --elo1 must be within ±2000 Elo")


class Sprt:
    """The GSPRT of `hypotheses` over observed scores on the grid 0, 1/grid, ..., 1, fed one at a time."""

    def __init__(self, hypotheses: Hypotheses, grid: int):
        self.hypotheses, self.grid = hypotheses, grid
        self.counts = [0] * (grid + 1)
        self.n = 0
        self.total = 0.0
        self._x = [0.0, 0.0]  # the last solutions of the two secular equations: the next ones start there

    def add(self, score: float) -> None:
        """One observation, a score in [0, 1] (rounded to the grid)."""
        i = round(score * self.grid)
        if not 0 <= i <= self.grid or abs(i - score * self.grid) > 1e-6:
            raise ValueError(f"score {score!r} is not on the grid of 1/{self.grid}")
        self.counts[i] += 1
        self.n += 1
        self.total += i / self.grid

    @property
    def mean(self) -> float:
        return self.total / self.n if self.n else 0.5

    def llr(self) -> float:
        """The generalized log-likelihood ratio of H1 against H0 over the observations so far."""
        if self.n == 0:
            return 0.0
        values, probs, weight = self._distribution()
        s0, s1 = self.hypotheses.scores
        x0 = self._x[0] = secular(values, probs, s0, self._x[0])
        x1 = self._x[1] = secular(values, probs, s1, self._x[1])
        # log p1_i - log p0_i = log(1 + x0 (a_i - s0)) - log(1 + x1 (a_i - s1)), averaged over the observed p_i
        jump = sum(p * (math.log1p(x0 * (a - s0)) - math.log1p(x1 * (a - s1))) for a, p in zip(values, probs))
        return weight * jump

    def decision(self, llr: float | None = None) -> str | None:
        """'H1' or 'H0' once the LLR has crossed a bound, else None."""
        llr = self.llr() if llr is None else llr
        low, high = self.hypotheses.bounds
        return "H1" if llr >= high else "H0" if llr <= low else None

    def _distribution(self) -> tuple[list[float], list[float], float]:
        """The grid values, the observed share of each (the empty ones given PRIOR), and the regularized count."""
        weights = [count if count else PRIOR for count in self.counts]
        total = sum(weights)
        return [i / self.grid for i in range(self.grid + 1)], [w / total for w in weights], total


def secular(values: list[float], probs: list[float], s: float, start: float = 0.0) -> float:
    """The x with sum p_i d_i / (1 + x d_i) = 0, d_i = a_i - s: safeguarded Newton where every 1 + x d_i > 0.

    The sum falls strictly with x there, from +inf to -inf, so the root is unique; `start` is a
    guess (the last root, for a distribution that changed by one observation).
    """
    d = [a - s for a in values]
    high_d, low_d = max(d), min(d)
    lo, hi = -1 / high_d, -1 / low_d  # open interval (needs low_d < 0 < high_d)
    x = start if lo < start < hi else 0.0
    for _ in range(200):
        f = df = 0.0
        for p, di in zip(probs, d):
            q = di / (1 + x * di)
            f += p * q
            df -= p * q * q
        if f > 0:
            lo = x
        else:
            hi = x
        if abs(f) < 1e-14:
            return x
        step = x - f / df
        # Newton where it stays inside the bracket, else bisection: never leaves the interval
        x = step if lo < step < hi else (lo + hi) / 2
        if hi - lo < 1e-15:
            return x
    return x
