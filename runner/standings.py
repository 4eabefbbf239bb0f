"""Standings from stored match results: counts, scores, Wilson intervals, an OpenSkill rating, rendering.

Every figure is computed from the matches in schedule order, so the standings are the same
whatever order the matches finished in, on any backend.
"""

from __future__ import annotations

import json
import math
from collections import Counter, defaultdict
from dataclasses import dataclass
from statistics import NormalDist
from typing import Hashable, Sequence

from openskill.models import PlackettLuce

from . import output
from .work import SeatOutcome

Z95 = 1.959963984540054  # the two-sided 95% normal quantile


def sequential_z(looks: int, alpha: float = 0.05) -> float:
    """The z of the `looks`-th look of a sequential test: look i spends alpha/2^i, so all looks together keep alpha."""
    return NormalDist().inv_cdf(1 - alpha / 2**looks / 2)


@dataclass(frozen=True)
class Standing:
    """One entrant's line of the standings."""

    entrant: str
    bot: str
    matches: int
    wins: int
    draws: int
    losses: int
    score: float
    win_rate: float
    win_rate_low: float
    win_rate_high: float
    points_per_round: float
    rounds_won: int
    faults: int
    rating: float
    rating_sigma: float


@dataclass(frozen=True)
class Comparison:
    """Two entrants over the matches they both played: how often `above` placed ahead of `below`."""

    above: str
    below: str
    matches: int
    ahead: float  # matches where `above` placed ahead; a shared place counts half
    low: float
    high: float

    @property
    def separated(self) -> bool:
        """`above` places ahead of `below` more often than not, at 95% confidence."""
        return self.matches > 0 and self.low > 0.5


@dataclass(frozen=True)
class Standings:
    rows: tuple[Standing, ...]  # best first
    head_to_head: dict[tuple[str, str], tuple[int, float]]  # (a, b) -> (matches, a's score), 2-seat tables
    adjacent: tuple[Comparison, ...]  # each entrant against the next one down
    looks: int | None = None  # --until-confident: the intervals of `adjacent` allow for this many looks

    @property
    def too_close(self) -> list[Comparison]:
        return [c for c in self.adjacent if not c.separated]


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (successes may be fractional: shared wins)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def clustered_wilson(values: Sequence[tuple[Hashable, float]], z: float = Z95) -> tuple[float, float]:
    """The Wilson interval of the mean of `values` (block, value in [0, 1]) whose blocks are not independent.

    The rotations of one deal share their cards, so their results go together. The interval uses
    Kish's effective sample size n / deff, the design effect deff estimated from the spread of the
    block totals and kept between 1 (never narrower than independent matches) and the largest block.
    """
    n = len(values)
    if n == 0:
        return 0.0, 1.0
    total = sum(value for _, value in values)
    p = total / n
    sums: dict[Hashable, float] = defaultdict(float)
    for block, value in values:
        sums[block] += value
    sizes = Counter(block for block, _ in values)
    deff = 1.0
    if 1 < len(sums) < n and 0 < p < 1:
        spread = sum((sums[b] - p * sizes[b]) ** 2 for b in sums) * len(sums) / (len(sums) - 1) / n**2
        deff = min(max(spread / (p * (1 - p) / n), 1.0), max(sizes.values()))
    return wilson(total / deff, n / deff, z)


def compute(entrants: Sequence[tuple[str, str]], matches: Sequence[Sequence[SeatOutcome]],
            looks: int | None = None, blocks: Sequence[Hashable] | None = None) -> Standings:
    """Standings of `entrants` (label, bot) over `matches` (each a match's seats), in schedule order.

    `blocks` names each match's deal (its table and deal: rotations of one deal share a block);
    without it every match counts as independent. `looks`: the standings are the `looks`-th look
    of a sequential test (--until-confident), and adjacent entrants are compared at 95% over all
    looks together.
    """
    blocks = list(blocks) if blocks is not None else list(range(len(matches)))
    ratings = rate(entrants, matches)
    order = {label: i for i, (label, _) in enumerate(entrants)}
    rows = []
    for label, bot in entrants:
        played = [(block, s) for block, match in zip(blocks, matches) for s in match if s.entrant == label]
        seats = [s for _, s in played]
        n = len(seats)
        score = sum(s.score for s in seats)
        rounds = sum(s.rounds for s in seats)
        low, high = clustered_wilson([(block, s.score) for block, s in played])
        mu, sigma = ratings[label]
        rows.append(Standing(
            label, bot, n, sum(1 for s in seats if s.score == 1), sum(1 for s in seats if 0 < s.score < 1),
            sum(1 for s in seats if s.score == 0), score, score / n if n else 0.0, low, high,
            sum(s.points for s in seats) / rounds if rounds else 0.0, sum(s.rounds_won for s in seats),
            sum(s.faults for s in seats), mu, sigma,
        ))
    rows.sort(key=lambda r: (-r.win_rate, -r.rating, order[r.entrant]))
    z = sequential_z(looks) if looks else Z95
    adjacent = tuple(compare(a.entrant, b.entrant, matches, blocks, z) for a, b in zip(rows, rows[1:]))
    return Standings(tuple(rows), head_to_head(matches), adjacent, looks)


def rate(entrants: Sequence[tuple[str, str]], matches: Sequence[Sequence[SeatOutcome]]) -> dict[str, tuple[float, float]]:
    """OpenSkill (Plackett–Luce) rating μ and σ of each entrant, matches taken in schedule order."""
    model = PlackettLuce()
    ratings = {label: model.rating(name=label) for label, _ in entrants}
    for match in matches:
        teams = [[ratings[s.entrant]] for s in match]
        rated = model.rate(teams, ranks=[s.place for s in match])
        for seat, (rating,) in zip(match, rated):
            ratings[seat.entrant] = rating
    return {label: (r.mu, r.sigma) for label, r in ratings.items()}


def compare(above: str, below: str, matches: Sequence[Sequence[SeatOutcome]], blocks: Sequence[Hashable],
            z: float = Z95) -> Comparison:
    """How often `above` placed ahead of `below` in the matches both played, with an interval (95% by default)."""
    values = []
    for block, match in zip(blocks, matches):
        places = {s.entrant: s.place for s in match}
        if above in places and below in places:
            diff = places[below] - places[above]
            values.append((block, 1.0 if diff > 0 else 0.5 if diff == 0 else 0.0))
    low, high = clustered_wilson(values, z)
    return Comparison(above, below, len(values), sum(v for _, v in values), low, high)


def head_to_head(matches: Sequence[Sequence[SeatOutcome]]) -> dict[tuple[str, str], tuple[int, float]]:
    table: dict[tuple[str, str], tuple[int, float]] = {}
    for match in matches:
        if len(match) != 2:
            continue
        for me, other in (match, reversed(match)):
            n, score = table.get((me.entrant, other.entrant), (0, 0.0))
            table[me.entrant, other.entrant] = (n + 1, score + me.score)
    return table


# ---------------------------------------------------------------- rendering
def rows(standings: Standings) -> list[dict]:
    """One flat dict per entrant, best first, numbers rounded for machines (JSON, CSV)."""
    return [
        {
            "rank": i + 1, "entrant": r.entrant, "bot": r.bot, "matches": r.matches, "wins": r.wins,
            "draws": r.draws, "losses": r.losses, "score": round(r.score, 4), "win_rate": round(r.win_rate, 4),
            "win_rate_low": round(r.win_rate_low, 4), "win_rate_high": round(r.win_rate_high, 4),
            "points_per_round": round(r.points_per_round, 4), "rounds_won": r.rounds_won, "faults": r.faults,
            "rating": round(r.rating, 4), "rating_sigma": round(r.rating_sigma, 4),
        }
        for i, r in enumerate(standings.rows)
    ]


def comparison_dict(c: Comparison) -> dict:
    return {"above": c.above, "below": c.below, "matches": c.matches, "ahead": round(c.ahead, 4),
            "low": round(c.low, 4), "high": round(c.high, 4), "separated": c.separated}


def render(standings: Standings, fmt: str) -> str:
    """The standings as a table (with head-to-head and too-close notes), JSON or CSV."""
    if fmt == "json":
        return json.dumps({
            "standings": rows(standings),
            "head_to_head": [
                {"entrant": a, "opponent": b, "matches": n, "score": round(score, 4)}
                for (a, b), (n, score) in standings.head_to_head.items()
            ],
            "adjacent": [comparison_dict(c) for c in standings.adjacent],
            "looks": standings.looks,
        }, indent=2)
    if fmt != "table":
        return output.render(rows(standings), fmt)
    parts = [output.render(table_rows(standings), "table")]
    if standings.head_to_head:
        parts.append("Head to head (row's score against column, over their matches):\n" + head_to_head_table(standings))
    parts.append(closeness_note(standings))
    return "\n\n".join(parts)


def table_rows(standings: Standings) -> list[dict]:
    return [
        {
            "#": i + 1, "entrant": r.entrant, "matches": r.matches, "W": r.wins, "D": r.draws, "L": r.losses,
            "score": f"{r.score:g}", "win rate": f"{r.win_rate:.3f}",
            "95% CI": f"{r.win_rate_low:.3f}–{r.win_rate_high:.3f}", "pts/round": f"{r.points_per_round:.2f}",
            "rounds won": r.rounds_won, "faults": r.faults, "rating": f"{r.rating:.2f} ± {r.rating_sigma:.2f}",
        }
        for i, r in enumerate(standings.rows)
    ]


def head_to_head_table(standings: Standings) -> str:
    names = [r.entrant for r in standings.rows]
    lines = []
    for a in names:
        line = {"": a}
        for b in names:
            n, score = standings.head_to_head.get((a, b), (0, 0.0))
            line[b] = f"{score:g}/{n}" if n else "-"
        lines.append(line)
    return output.render(lines, "table")


def closeness_note(standings: Standings) -> str:
    if not standings.adjacent:
        return "Only one entrant: nothing to separate."
    level = "95%" + (f" over {standings.looks} looks" if standings.looks and standings.looks > 1 else "")
    close = standings.too_close
    if not close:
        return f"Every entrant places ahead of the next one down significantly ({level})."
    pairs = "; ".join(
        f"{c.above} vs {c.below} ({c.ahead:g} of {c.matches} ahead, CI {c.low:.2f}–{c.high:.2f})" for c in close
    )
    return f"Too close to call at {level}: {pairs}."
