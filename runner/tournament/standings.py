"""Standings from stored match results: counts, scores, Wilson intervals and an OpenSkill rating.

Every figure is computed from the matches in schedule order, so the standings are the same
whatever order the matches finished in, on any backend.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import Callable, Hashable, Iterable, Iterator, Sequence

from .rating import Rating, rate
from .work import SeatOutcome

Z95 = 1.959963984540054  # the two-sided 95% normal quantile


def sequential_z(looks: int, alpha: float = 0.05) -> float:
    """The z of the `looks`-th look of a sequential test: look i spends alpha/2^i, so all looks together keep alpha."""
    return NormalDist().inv_cdf(1 - alpha / 2**looks / 2)


@dataclass(frozen=True, kw_only=True)
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
    # parity 0.5 at any table size: per match, the share of the opponents this entrant placed ahead of
    ahead: float = 0.0
    ahead_low: float = 0.0
    ahead_high: float = 1.0
    mean_place: float = 0.0  # 1 is first (every seat sharing first is placed 1)


@dataclass(frozen=True, kw_only=True)
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


@dataclass(frozen=True, kw_only=True)
class Standings:
    rows: tuple[Standing, ...]  # best first
    head_to_head: dict[tuple[str, str], tuple[int, float]]  # (a, b) -> (matches, a's score), 2-seat tables
    adjacent: tuple[Comparison, ...]  # each entrant against the next one down
    looks: int | None = None  # --until-confident: the intervals of `adjacent` allow for this many looks
    crosstable: dict[tuple[str, str], Comparison] = field(default_factory=dict)  # every pair that met, both ways
    table_sizes: tuple[int, ...] = ()  # the seat counts of the matches
    gauntlet: str | None = None  # the entrant at every table (--gauntlet)

    @property
    def too_close(self) -> list[Comparison]:
        return [c for c in self.adjacent if not c.separated]


def comparison(above: str, below: str, matches: int, ahead: float, interval: tuple[float, float]) -> Comparison:
    low, high = interval
    return Comparison(above=above, below=below, matches=matches, ahead=ahead, low=low, high=high)


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (successes may be fractional: shared wins)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


class Clustered:
    """The Wilson interval of the mean of values (in [0, 1]) whose blocks are not independent, fed one at a time.

    The rotations of one deal share their cards, so their results go together. The interval uses
    Kish's effective sample size n / deff, the design effect deff estimated from the spread of the
    block totals and kept between 1 (never narrower than independent matches) and the largest block.
    The spread needs the mean, so the values come twice: counted first (`n`, their `total`), then
    fed with `add` block after block; it holds a few numbers, not the values.
    """

    def __init__(self, n: int, total: float):
        self.n, self.total = n, total
        self.p = total / n if n else 0.0
        self.block: Hashable = _NO_BLOCK
        self.sum, self.size = 0.0, 0  # of the block being fed
        self.blocks, self.squares, self.largest = 0, 0, 0

    def add(self, block: Hashable, value: float) -> None:
        """The next value; the values of one block come one after another."""
        if block != self.block:
            self._close_block()
            self.block, self.blocks = block, self.blocks + 1
        self.sum += value
        self.size += 1

    def _close_block(self) -> None:
        if self.size:
            deviation = self.sum - self.p * self.size
            self.squares += deviation**2
            self.largest = max(self.largest, self.size)
        self.sum, self.size = 0.0, 0

    def interval(self, z: float = Z95) -> tuple[float, float]:
        self._close_block()
        n, p, blocks = self.n, self.p, self.blocks
        if n == 0:
            return 0.0, 1.0
        deff = 1.0
        if 1 < blocks < n and 0 < p < 1:
            spread = self.squares * blocks / (blocks - 1) / n**2
            deff = min(max(spread / (p * (1 - p) / n), 1.0), self.largest)
        return wilson(self.total / deff, n / deff, z)


_NO_BLOCK = object()


def clustered_wilson(values: Sequence[tuple[Hashable, float]], z: float = Z95) -> tuple[float, float]:
    """The clustered Wilson interval (see `Clustered`) of `values`, (block, value in [0, 1]) pairs."""
    first = {}
    for block, _ in values:
        first.setdefault(block, len(first))
    clustered = Clustered(len(values), sum(value for _, value in values))
    for block, value in sorted(values, key=lambda item: first[item[0]]):  # stable: a block's values in their order
        clustered.add(block, value)
    return clustered.interval(z)


Scored = tuple[Hashable, Sequence[SeatOutcome]]  # a match: its block (its deal) and its seats
# a match: its block, and its seats' entrants, places and scores
Placed = tuple[Hashable, tuple[str, ...], tuple[int, ...], tuple[float, ...]]


def placed(matches: Iterable[Scored]) -> Iterator[Placed]:
    """Each match of `matches` as its block and its seats' entrants, places and scores."""
    for block, match in matches:
        yield (block, tuple([seat.entrant for seat in match]), tuple([seat.place for seat in match]),
               tuple([seat.score for seat in match]))


def compute(entrants: Sequence[tuple[str, str]], matches: Sequence[Sequence[SeatOutcome]],
            looks: int | None = None, blocks: Sequence[Hashable] | None = None) -> Standings:
    """Standings of `entrants` (label, bot) over `matches` (each a match's seats), in schedule order.

    `blocks` names each match's deal (its table and deal: rotations of one deal share a block, and
    come one after another); without it every match counts as independent. `looks`: see `tally`.
    """
    blocks = list(blocks) if blocks is not None else list(range(len(matches)))
    return tally(entrants, lambda: zip(blocks, matches), looks)


def tally(entrants: Sequence[tuple[str, str]], read: Callable[[], Iterable[Scored]],
          looks: int | None = None, gauntlet: str | None = None,
          reread: Callable[[], Iterable[Placed]] | None = None) -> Standings:
    """Standings of `entrants` (label, bot) over the matches `read()` gives, (block, seats) in schedule order.

    The matches are read twice and never held: first to count, score and rate them, then to
    measure how much each deal's rotations go together, which needs the means the first reading
    gives; memory grows with the entrants (and their pairs), not the matches. The second reading
    needs only each seat's entrant, place and score: `reread()` gives the same matches so
    (runner/tournament/store.py `placings`), or else `read()` is read again. `looks`: the
    standings are the `looks`-th look of a sequential test (--until-confident), and adjacent
    entrants are compared at 95% over all looks together. `gauntlet` is only noted for rendering.
    """
    order = {label: i for i, (label, _) in enumerate(entrants)}
    totals = {label: Totals() for label, _ in entrants}
    met: dict[tuple[str, str], list] = {}  # (a, b) -> [matches both played, matches a placed ahead]
    ratings = {label: Rating() for label, _ in entrants}
    h2h: dict[tuple[str, str], tuple[int, float]] = {}
    sizes: set[int] = set()
    shape = Shapes()
    for _, match in read():
        rate_match(ratings, match)
        sizes.add(len(match))
        shares, aheads = shape.of_places(tuple([seat.place for seat in match]))
        for seat, share in zip(match, shares):
            totals[seat.entrant].add(seat, share)
        for pair, value in zip(shape.pairs(tuple([seat.entrant for seat in match])), aheads):
            count = met.get(pair)
            if count is None:
                count = met[pair] = [0, 0]
            count[0] += 1
            count[1] += value
        if len(match) == 2:
            add_head_to_head(h2h, match)
    ranked = sorted(entrants, key=lambda e: (-totals[e[0]].win_rate, -ratings[e[0]].mu, order[e[0]]))
    spread = {label: Clustered(t.n, t.score) for label, t in totals.items()}
    ahead_spread = {label: Clustered(t.n, t.ahead) for label, t in totals.items()}
    pair_spread = {pair: Clustered(*counts) for pair, counts in met.items()}
    for block, labels, places, scores in (reread or (lambda: placed(read())))():
        shares, aheads = shape.of_places(places)
        for label, score, share in zip(labels, scores, shares):
            spread[label].add(block, score)
            ahead_spread[label].add(block, share)
        for pair, value in zip(shape.pairs(labels), aheads):
            pair_spread[pair].add(block, value)
    rows = tuple(totals[label].standing(label, bot, spread[label].interval(), ratings[label],
                                        ahead_spread[label].interval()) for label, bot in ranked)
    z = sequential_z(looks) if looks else Z95
    pairs = [(a, b) for (a, _), (b, _) in zip(ranked, ranked[1:])]
    adjacent = tuple(pair_comparison(a, b, pair_spread.get((a, b)), z) for a, b in pairs)
    crosstable = {(a, b): pair_comparison(a, b, c) for (a, b), c in pair_spread.items()}
    return Standings(rows=rows, head_to_head=h2h, adjacent=adjacent, looks=looks, crosstable=crosstable,
                     table_sizes=tuple(sorted(sizes)), gauntlet=gauntlet)


class Shapes:
    """What the standings derive from a match's places, and its ordered pairs of entrants, each made once.

    A tournament has few of either (the orders of places a table can end in; the seatings of its
    tables), and the standings meet each of them in thousands of matches, twice. Each kind is kept
    up to KEPT shapes (large tables have many orders of places): memory stays flat.
    """

    KEPT = 5000

    def __init__(self):
        self.places: dict[tuple[int, ...], tuple[list[float], list[float]]] = {}
        self.entrants: dict[tuple[str, ...], list[tuple[str, str]]] = {}

    def of_places(self, places: tuple[int, ...]) -> tuple[list[float], list[float]]:
        """The seats' ahead shares (`ahead_shares`), and `ahead` of each ordered pair of seats (in `pairs`' order),
        from the seats' places."""
        found = self.places.get(places)
        if found is None:
            found = (shares_of(places), [ahead(a, b) for a, b in itertools.permutations(places, 2)])
            if len(self.places) < self.KEPT:
                self.places[places] = found
        return found

    def pairs(self, labels: tuple[str, ...]) -> list[tuple[str, str]]:
        """The match's ordered pairs of entrants (from its seats' entrants), as itertools.permutations gives them."""
        found = self.entrants.get(labels)
        if found is None:
            found = list(itertools.permutations(labels, 2))
            if len(self.entrants) < self.KEPT:
                self.entrants[labels] = found
        return found


def pair_comparison(above: str, below: str, clustered: "Clustered | None", z: float = Z95) -> Comparison:
    """How often `above` placed ahead of `below`, from the pair's fed `Clustered` (None: they never met)."""
    if clustered is None:
        return comparison(above, below, 0, 0, (0.0, 1.0))
    return comparison(above, below, clustered.n, clustered.total, clustered.interval(z))


def ahead_shares(match: Sequence[SeatOutcome]) -> list[float]:
    """Per seat, the share of its opponents it placed ahead of (a shared place counts half): 0.5 is parity."""
    return shares_of([seat.place for seat in match])


def shares_of(places: Sequence[int]) -> list[float]:
    """`ahead_shares` from the seats' places."""
    others = len(places) - 1
    if others < 1:
        return [0.5] * len(places)
    # an opponent behind counts 1, one sharing the place a half (the seat itself shares its own: not counted)
    return [(sum(place > mine for place in places) + 0.5 * (places.count(mine) - 1)) / others for mine in places]


class Totals:
    """One entrant's running counts over the matches read so far."""

    def __init__(self):
        self.n = self.wins = self.draws = self.losses = self.points = self.rounds = self.rounds_won = self.faults = 0
        self.score = 0  # summed in schedule order, as the interval's total is
        self.ahead = 0.0  # shares of opponents placed ahead, likewise
        self.places = 0

    def add(self, seat: SeatOutcome, ahead: float) -> None:
        self.n += 1
        self.score += seat.score
        self.ahead += ahead
        self.places += seat.place
        self.wins += seat.score == 1
        self.draws += 0 < seat.score < 1
        self.losses += seat.score == 0
        self.points += seat.points
        self.rounds += seat.rounds
        self.rounds_won += seat.rounds_won
        self.faults += seat.faults

    @property
    def win_rate(self) -> float:
        return self.score / self.n if self.n else 0.0

    def standing(self, label: str, bot: str, interval: tuple[float, float], rating,
                 ahead_interval: tuple[float, float]) -> Standing:
        low, high = interval
        return Standing(
            entrant=label, bot=bot, matches=self.n, wins=self.wins, draws=self.draws, losses=self.losses,
            score=self.score, win_rate=self.win_rate, win_rate_low=low, win_rate_high=high,
            points_per_round=self.points / self.rounds if self.rounds else 0.0, rounds_won=self.rounds_won,
            faults=self.faults, rating=rating.mu, rating_sigma=rating.sigma,
            ahead=self.ahead / self.n if self.n else 0.0, ahead_low=ahead_interval[0], ahead_high=ahead_interval[1],
            mean_place=self.places / self.n if self.n else 0.0,
        )


def ahead(place: int, other: int) -> float:
    """1 if `place` is ahead of `other`, a half if they share it, else 0."""
    return 1.0 if other > place else 0.5 if other == place else 0.0


def rate_match(ratings: dict[str, Rating], match: Sequence[SeatOutcome]) -> None:
    """Update the ratings of the entrants of one match from their places."""
    for seat, rating in zip(match, rate([ratings[s.entrant] for s in match], [s.place for s in match])):
        ratings[seat.entrant] = rating


def compare(above: str, below: str, matches: Sequence[Sequence[SeatOutcome]], blocks: Sequence[Hashable],
            z: float = Z95) -> Comparison:
    """How often `above` placed ahead of `below` in the matches both played, with an interval (95% by default)."""
    values = []
    for block, match in zip(blocks, matches):
        places = {s.entrant: s.place for s in match}
        if above in places and below in places:
            values.append((block, ahead(places[above], places[below])))
    low, high = clustered_wilson(values, z)
    return comparison(above, below, len(values), sum(v for _, v in values), (low, high))


def add_head_to_head(table: dict[tuple[str, str], tuple[int, float]], match: Sequence[SeatOutcome]) -> None:
    """Count a two-seat match in each seat's score against the other."""
    for me, other in (match, reversed(match)):
        n, score = table.get((me.entrant, other.entrant), (0, 0.0))
        table[me.entrant, other.entrant] = (n + 1, score + me.score)


# ---------------------------------------------------------------- as data (JSON, CSV)


def standings_data(standings: Standings) -> dict:
    """The standings as `maumau standings --format json` prints them (and the browser's viewer reads them)."""
    order = {r.entrant: i for i, r in enumerate(standings.rows)}
    return {
        "standings": standing_rows(standings),
        "head_to_head": [
            {"entrant": a, "opponent": b, "matches": n, "score": round(score, 4)}
            for (a, b), (n, score) in standings.head_to_head.items()
        ],
        "adjacent": [comparison_data(c) for c in standings.adjacent],
        "crosstable": [
            {"entrant": a, "opponent": b, **crosstable_data(c)} for (a, b), c in sorted(
                standings.crosstable.items(), key=lambda item: (order[item[0][0]], order[item[0][1]]))
        ],
        "table_sizes": list(standings.table_sizes),
        "gauntlet": standings.gauntlet,
        "looks": standings.looks,
    }


def standing_rows(standings: Standings) -> list[dict]:
    """One flat dict per entrant, best first, numbers rounded for machines (JSON, CSV)."""
    return [
        {
            "rank": i + 1, "entrant": r.entrant, "bot": r.bot, "matches": r.matches, "wins": r.wins,
            "draws": r.draws, "losses": r.losses, "score": round(r.score, 4), "win_rate": round(r.win_rate, 4),
            "win_rate_low": round(r.win_rate_low, 4), "win_rate_high": round(r.win_rate_high, 4),
            "points_per_round": round(r.points_per_round, 4), "rounds_won": r.rounds_won, "faults": r.faults,
            "rating": round(r.rating, 4), "rating_sigma": round(r.rating_sigma, 4),
            "ahead": round(r.ahead, 4), "ahead_low": round(r.ahead_low, 4), "ahead_high": round(r.ahead_high, 4),
            "mean_place": round(r.mean_place, 4),
        }
        for i, r in enumerate(standings.rows)
    ]


def comparison_data(c: Comparison) -> dict:
    return {"above": c.above, "below": c.below, "matches": c.matches, "ahead": round(c.ahead, 4),
            "low": round(c.low, 4), "high": round(c.high, 4), "separated": c.separated}


def crosstable_data(c: Comparison) -> dict:
    share = c.ahead / c.matches if c.matches else 0.0
    return {"matches": c.matches, "ahead": round(c.ahead, 4), "share": round(share, 4), "low": round(c.low, 4),
            "high": round(c.high, 4)}
