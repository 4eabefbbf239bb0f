"""95% intervals of the analysis' figures, with the design effect of shared deals the standings use.

Every figure is a ratio of sums over matches (decisions per round: the matches' decisions over their
rounds; a share of matches: a sum of 0/1 over the matches), estimated as the ratio of the totals.
Its standard error comes from the linearised values u = (y - R x) / mean(x), one per match, and is
widened by the design effect of the deals: the rotations of one deal share their cards, so their
values go together. The design effect is the standings' own (runner/tournament/standings.py
`Clustered`: Kish's n / deff, deff from the spread of the block totals, kept between 1 and the
largest block), fed the linearised values. Proportions of matches take the standings' clustered
Wilson interval itself.

Two cells that played the same deals (same match ids, same deck) are compared match by match: the
difference's linearised values are the differences of the two cells' values, so what the deals
share cancels out; otherwise the two errors add.
"""

from __future__ import annotations

import math
import random
import sys
from array import array
from bisect import bisect_right
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate, repeat, starmap
from typing import Callable, Hashable, Mapping, Sequence

from runner.tournament.standings import Z95, Clustered, clustered_wilson

# A match's contribution to a ratio: its block (its deal), its numerator, its denominator.
Term = tuple[Hashable, float, float]


@dataclass(frozen=True)
class Estimate:
    """A figure and its 95% interval, over `matches` matches."""

    value: float
    low: float
    high: float
    matches: int

    def excludes(self, value: float) -> bool:
        return not self.low <= value <= self.high


@dataclass(frozen=True)
class Difference:
    """A figure of one cell against the first: the difference, its interval, and the same as a relative change."""

    value: float
    low: float
    high: float
    relative: float | None  # (b - a) / a, None where a is 0
    relative_low: float | None
    relative_high: float | None
    paired: bool  # compared match by match over the same deals

    @property
    def significant(self) -> bool:
        """The interval excludes 0."""
        return self.low > 0 or self.high < 0


def design_effect(blocked: Sequence[tuple[Hashable, float]]) -> float:
    """The design effect of values (block, value) whose blocks come together, as the standings' `Clustered` finds
    it: the spread of the block totals against the values' own variance, between 1 and the largest block."""
    n = len(blocked)
    if n < 2:
        return 1.0
    mean = sum(value for _, value in blocked) / n
    variance = sum((value - mean) ** 2 for _, value in blocked) / (n - 1)
    widest = max(abs(value - mean) for _, value in blocked)
    if variance <= 0 or widest == 0:
        return 1.0
    # Clustered takes values in [0, 1]: fed them scaled round 1/2, its sum of squared block deviations is the
    # values' own times scale squared
    scale = 0.5 / widest
    scaled = [(block, 0.5 + scale * (value - mean)) for block, value in blocked]
    clustered = Clustered(n, sum(value for _, value in scaled))
    for block, value in scaled:
        clustered.add(block, value)
    clustered.interval()  # closes the last block
    squares = clustered.squares / scale**2
    blocks = clustered.blocks
    if not 1 < blocks < n:
        return 1.0
    spread = squares * blocks / (blocks - 1) / n**2
    return min(max(spread / (variance / n), 1.0), clustered.largest)


def _error(blocked: Sequence[tuple[Hashable, float]]) -> float:
    """The standard error of the mean of `blocked` values, widened by their design effect."""
    n = len(blocked)
    if n < 2:
        return math.inf
    mean = sum(value for _, value in blocked) / n
    variance = sum((value - mean) ** 2 for _, value in blocked) / (n - 1)
    return math.sqrt(variance * design_effect(blocked) / n)


def _linearised(terms: Sequence[Term]) -> tuple[float, list[tuple[Hashable, float]]]:
    """The ratio of the totals, and each match's linearised value."""
    numerator, denominator = sum(t[1] for t in terms), sum(t[2] for t in terms)
    if denominator == 0:
        return 0.0, [(block, 0.0) for block, _, _ in terms]
    ratio = numerator / denominator
    scale = denominator / len(terms)
    return ratio, [(block, (y - ratio * x) / scale) for block, y, x in terms]


def ratio(terms: Sequence[Term], bounded: bool = False) -> Estimate:
    """The ratio of totals of `terms` with its clustered 95% interval (`bounded`: a share, kept in [0, 1])."""
    value, linear = _linearised(terms)
    half = Z95 * _error(linear)
    low, high = value - half, value + half
    if bounded:
        low, high = max(0.0, low), min(1.0, high)
    return Estimate(value, low, high, len(terms))


def share(values: Sequence[tuple[Hashable, float]]) -> Estimate:
    """The mean of values in [0, 1], one per match, with the standings' clustered Wilson interval."""
    n = len(values)
    low, high = clustered_wilson(values)
    return Estimate(sum(v for _, v in values) / n if n else 0.0, low, high, n)


def difference(base: dict[str, Term], other: dict[str, Term], paired: bool = True) -> Difference:
    """`other`'s ratio minus `base`'s, each a ratio of totals over matches keyed by id; match by match where
    `paired` (the same deals) and both have the same matches."""
    paired = paired and base.keys() == other.keys() and len(base) > 1
    a_value, a_linear = _linearised(list(base.values()))
    b_value, b_linear = _linearised(list(other.values()))
    value = b_value - a_value
    if paired:
        by_id = dict(zip(other, b_linear))
        b_linear = [by_id[match_id] for match_id in base]  # in base's order
        differences = [(block, ub - ua) for (block, ua), (_, ub) in zip(a_linear, b_linear)]
        error = _error(differences)
        relative_error = _error([(block, ub / b_value - ua / a_value) for (block, ua), (_, ub)
                                 in zip(a_linear, b_linear)]) if a_value > 0 and b_value > 0 else math.inf
    else:
        error = math.hypot(_error(a_linear), _error(b_linear))
        relative_error = (math.hypot(_error(a_linear) / a_value, _error(b_linear) / b_value)
                          if a_value > 0 and b_value > 0 else math.inf)
    relative = low_rel = high_rel = None
    if a_value > 0 and b_value > 0 and math.isfinite(relative_error):  # on the log scale: a ratio stays positive
        log_ratio = math.log(b_value / a_value)
        relative = b_value / a_value - 1
        low_rel = math.exp(log_ratio - Z95 * relative_error) - 1
        high_rel = math.exp(log_ratio + Z95 * relative_error) - 1
    elif a_value > 0:
        relative = value / a_value
    return Difference(value, value - Z95 * error, value + Z95 * error, relative, low_rel, high_rel, paired)


RESAMPLES = 100  # of the deals, for the intervals of quantiles: enough for their ends at two digits


def quantile_intervals(blocks: Sequence[Sequence[float]], quantiles_of: Callable[[Sequence[float]], Sequence[float]],
                       resamples: int = RESAMPLES) -> tuple[tuple[float, float], ...] | None:
    """The 95% interval of each quantile `quantiles_of` gives of the pooled values (handed to it in ascending order),
    resampling whole blocks (a deal's rounds go together, as the design effect has it elsewhere): the percentile
    bootstrap, seeded, so that the same matches give the same intervals.

    A resample is counted, not pooled and sorted: how often it holds each distinct value, from how often it took
    each block (resample_counts), read in order through `Ascending`. Every resample is counted at once: a block's
    takings in all of them are one integer, a field of bits a resample (packed_counts), so that adding up the
    integers of the blocks that hold a value counts it in every resample."""
    if len(blocks) < 2:
        return None
    holders: dict[float, list[int]] = {}  # each distinct value: the blocks holding it, once per time they hold it
    for index, block in enumerate(blocks):
        for value in block:
            holders.setdefault(value, []).append(index)
    values = sorted(holders)
    if not values:
        return None
    # no count overflows its field: a resample takes len(blocks) blocks, none holding a value more than the longest
    code = next(code for code in FIELDS if len(blocks) * max(map(len, blocks)) < 1 << 8 * array(code).itemsize)
    packed = packed_counts(len(blocks), resamples, code)
    size = resamples * array(code).itemsize
    counted = [memoryview(sum(map(packed.__getitem__, holders[value])).to_bytes(size, sys.byteorder)).cast(code)
               for value in values]
    draws = []
    for counts in zip(*counted):  # a resample: how often it holds each value
        ends = list(accumulate(counts))
        if ends[-1] > 1:
            draws.append(quantiles_of(Ascending(values, ends)))
    if not draws:
        return None
    low, high = int(0.025 * (len(draws) - 1)), int(0.975 * (len(draws) - 1) + 0.5)
    spans = []
    for i in range(len(draws[0])):
        ordered = sorted(draw[i] for draw in draws)
        spans.append((ordered[low], ordered[high]))
    return tuple(spans)


class Ascending:
    """Pooled values in ascending order, as the distinct values and the running count through each: `[i]` is the
    i-th smallest (i from 0; no slices, no negative indexes), without the list."""

    __slots__ = ("values", "ends")

    def __init__(self, values: Sequence[float], ends: Sequence[int]):
        self.values, self.ends = values, ends

    def __len__(self) -> int:
        return self.ends[-1]

    def __getitem__(self, index: int) -> float:
        if not 0 <= index < self.ends[-1]:
            raise IndexError(index)
        return self.values[bisect_right(self.ends, index)]


@lru_cache(maxsize=4)
def resample_counts(blocks: int, resamples: int) -> tuple[tuple[int, ...], ...]:
    """How often each resample of quantile_intervals takes each block (by index): `random.Random(0).choices` of
    them, one resample after the other, counted. The same for every figure of a cell (each has a value list per
    deal), so drawn once per cell size, not once per figure."""
    draw, scale = random.Random(0).random, float(blocks)
    counts = []
    for _ in range(resamples):
        # rng.choices(range(blocks), k=blocks) as the standard library draws it, floor(random() * n), in C
        taken = Counter(map(int, map(scale.__mul__, starmap(draw, repeat((), blocks)))))
        counts.append(tuple(map(taken.get, range(blocks), repeat(0))))
    return tuple(counts)


FIELDS = ("H", "I", "Q")  # array type codes of unsigned fields, narrowest first (packed_counts)


@lru_cache(maxsize=4)
def packed_counts(blocks: int, resamples: int, code: str) -> tuple[int, ...]:
    """Each block's takings in every resample (resample_counts) as one integer: resample r's count in the r-th field
    of the array type `code`, in this machine's byte order."""
    return tuple(int.from_bytes(array(code, takings).tobytes(), sys.byteorder)
                 for takings in zip(*resample_counts(blocks, resamples)))


def quantile_differences(base: Mapping[Hashable, Sequence[float]], other: Mapping[Hashable, Sequence[float]],
                         quantiles_of: Callable[[list[float]], Sequence[float]], paired: bool = True,
                         resamples: int = RESAMPLES) -> tuple[tuple[float, float, float], ...] | None:
    """Each quantile of `other`'s pooled values minus `base`'s, with its 95% interval: whole blocks (deals) resampled,
    the same blocks for both where `paired` (the same deals, as `difference` pairs matches), else each its own; the
    percentile bootstrap, seeded. None where either has fewer than two blocks."""
    if len(base) < 2 or len(other) < 2:
        return None
    paired = paired and base.keys() == other.keys()
    a_blocks, b_blocks = list(base), list(other)

    def pooled(values: Mapping[Hashable, Sequence[float]], keys: Sequence[Hashable]) -> list[float]:
        return [value for key in keys for value in values[key]]

    value = [b - a for a, b in zip(quantiles_of(pooled(base, a_blocks)), quantiles_of(pooled(other, b_blocks)))]
    rng = random.Random(0)
    draws = []
    for _ in range(resamples):
        chosen = rng.choices(a_blocks, k=len(a_blocks))
        a = pooled(base, chosen)
        b = pooled(other, chosen if paired else rng.choices(b_blocks, k=len(b_blocks)))
        if len(a) > 1 and len(b) > 1:
            draws.append([y - x for x, y in zip(quantiles_of(a), quantiles_of(b))])
    if not draws:
        return None
    low, high = int(0.025 * (len(draws) - 1)), int(0.975 * (len(draws) - 1) + 0.5)
    spans = []
    for i, middle in enumerate(value):
        ordered = sorted(draw[i] for draw in draws)
        spans.append((middle, ordered[low], ordered[high]))
    return tuple(spans)


def chi_square_uniform(counts: Sequence[float], deff: float = 1.0) -> tuple[float, float]:
    """The chi-square statistic of `counts` against equal shares, divided by a design effect, and its p-value."""
    total, k = sum(counts), len(counts)
    if total <= 0 or k < 2:
        return 0.0, 1.0
    expected = total / k
    statistic = sum((c - expected) ** 2 for c in counts) / expected / max(deff, 1.0)
    return statistic, chi_square_sf(statistic, k - 1)


def chi_square_sf(x: float, df: int) -> float:
    """P(X > x) for a chi-square X with `df` degrees of freedom: the regularised upper incomplete gamma Q(df/2, x/2)."""
    if x <= 0:
        return 1.0
    a, half = df / 2, x / 2
    if half < a + 1:  # the series of the lower function
        term = total = 1 / a
        k = a
        for _ in range(500):
            k += 1
            term *= half / k
            total += term
            if term < total * 1e-15:
                break
        return max(0.0, 1 - total * math.exp(-half + a * math.log(half) - math.lgamma(a)))
    # the continued fraction of the upper function (Lentz)
    tiny = 1e-300
    b = half + 1 - a
    c, d = 1 / tiny, 1 / b
    h = d
    for i in range(1, 500):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        step = d * c
        h *= step
        if abs(step - 1) < 1e-15:
            break
    return min(1.0, math.exp(-half + a * math.log(half) - math.lgamma(a)) * h)
