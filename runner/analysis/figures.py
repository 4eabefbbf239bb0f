"""The figures of one analysed cell (a ruleset at a table size) from its matches' counts, and cells compared.

Each match's counts (runner/analysis/metrics.py) become terms of ratios (intervals.py): a figure is
the ratio of its totals over the matches, with a 95% interval clustered by deal. The values
returned are frozen dataclasses, the typed surface of `runner.analysis`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from statistics import quantiles
from typing import Iterable, Sequence

from .intervals import (
    Difference,
    Estimate,
    Term,
    chi_square_uniform,
    difference,
    quantile_differences,
    quantile_intervals,
    ratio,
    share,
)
from .metrics import MAX_ROUNDS, ROUND_ENDS, STALLS

LENGTH, ENDINGS, SEATS, DRAMA, RULES, SKILL = "length", "endings", "seats", "drama", "rules", "skill"
SEEING = "seeing every hand"  # in the name of the hidden-information figure (runner/analysis/runs.py hidden_name)
MATCH_ENDS = ("single", "limit", "target", "rounds", "wins", "elimination", MAX_ROUNDS)


@dataclass(frozen=True)
class Figure:
    """One figure of a cell: its group and name, its estimate; `quantiles` (10%, 50%, 90%) where it has a spread."""

    group: str
    name: str
    estimate: Estimate
    quantiles: tuple[float, float, float] | None = None
    note: str = ""  # what it counts, where the name does not say (a rule's sizes)
    # each quantile's 95% interval, resampling whole deals (intervals.quantile_intervals)
    quantile_intervals: tuple[tuple[float, float], ...] | None = None


@dataclass(frozen=True)
class Rule:
    """What one rule did: how often it fired per round, the mean size of a firing, and whether it never fired."""

    key: str
    fires_per_round: Estimate
    fires: int
    mean_size: float | None
    size_label: str
    never_fired: bool  # it could fire with these bots, and did not
    # it fires only on a seat's mistake, which none of these bots makes (metrics.MISTAKES): not fired, not flagged
    not_exercised: bool = False


@dataclass(frozen=True)
class Stall:
    """A match that stalled or hit a bound (a blocked round, the turn limit, match.max_rounds), with the command that
    replays it."""

    match_id: str
    seed: int
    why: str
    command: str


@dataclass(frozen=True)
class SeatTest:
    """The test of no seat advantage: round wins per position against equal shares (chi-square, deals clustered)."""

    statistic: float
    degrees: int
    p_value: float

    @property
    def advantage(self) -> bool:
        return self.p_value < 0.05


@dataclass(frozen=True)
class Cell:
    """The figures of one ruleset (with its overrides) at one table size."""

    label: str
    ruleset: str
    overrides: dict
    players: int
    matches: int
    rounds: int
    directory: str
    figures: tuple[Figure, ...]
    rules: tuple[Rule, ...]
    seat_test: SeatTest
    stalls: tuple[Stall, ...]
    deck: str = ""  # the deck shuffled at this table size: cells with the same deck played the same deals
    spreads: dict = field(default_factory=dict, repr=False, compare=False)  # figure name -> per-round values
    terms: dict = field(default_factory=dict, repr=False, compare=False)  # figure name -> match id -> Term
    # figure name -> deal -> its rounds' values (per match for rounds per match): what the quantiles resample
    by_deal: dict = field(default_factory=dict, repr=False, compare=False)

    def figure(self, name: str) -> Figure:
        for figure in self.figures:
            if figure.name == name:
                return figure
        raise KeyError(name)


@dataclass(frozen=True)
class Compared:
    """One figure of a cell against the same figure of the first cell at its table size."""

    name: str
    group: str
    base: str
    other: str
    players: int
    base_value: float
    other_value: float
    difference: Difference
    # where the figure has quantiles (10%, 50%, 90%): each one's difference and its 95% interval, whole deals
    # resampled, the same deals for both where they played the same (intervals.quantile_differences)
    quantile_differences: tuple[tuple[float, float, float], ...] | None = None


def block_of(match_id: str) -> str:
    """The deal a match belongs to, `t0-d3` of `t0-d3-r1`: its rotations share the cards."""
    return match_id.rpartition("-")[0]


def summarise(label: str, ruleset: str, overrides: dict, players: int, directory: str,
              matches: Iterable[tuple[str, int, dict]], replay: str, labels: dict[str, str], deck: str = "",
              extra: Iterable[tuple[str, str, dict[str, Term]]] = (), unexercised: Iterable[str] = ()) -> Cell:
    """The cell's figures from its matches (id, seed, counts), in schedule order; `replay` the replay command's
    start, to which `--match ID` is added; `labels`: each rule key's size label (metrics.rule_keys); `extra`:
    figures measured in other tournaments of the cell (group, name, terms by match id), the skill's; `unexercised`:
    rule keys the cell's bots cannot make fire (metrics.MISTAKES with careful bots)."""
    rows = list(matches)
    terms: dict[str, dict[str, Term]] = {}
    groups: dict[str, str] = {}
    spreads: dict[str, list[float]] = {}
    by_deal: dict[str, dict[str, list[float]]] = {}  # figure name -> deal -> its rounds' values
    bounded: set[str] = set()

    def column(group: str, name: str, share_of: bool = False) -> dict[str, Term]:
        """The terms of the figure `name` by match, made when first named: the figures keep that order."""
        by_match = terms.get(name)
        if by_match is None:
            by_match = terms[name] = {}
            groups[name] = group
            if share_of:
                bounded.add(name)
        return by_match

    n = players
    rule_keys = dict(labels)
    stalls = []
    if rows:  # the figures every match has, named once here (a match at a time took a tenth of an analysis' time)
        decisions, turns, rounds_of, drawn, reshuffles = (
            column(LENGTH, name) for name in ("decisions per round", "turns per round", "rounds per match",
                                              "cards drawn per round", "reshuffles per round"))
        round_ends = [(reason, column(ENDINGS, f"rounds ending {reason}", True)) for reason in ROUND_ENDS]
        match_ends = [(how, column(ENDINGS, f"matches ending {how}", True)) for how in MATCH_ENDS]
        seats = [(column(SEATS, f"seat {p} round wins", True), column(SEATS, f"seat {p} match wins", True),
                  column(SEATS, f"seat {p} points")) for p in range(n)]
        lead_changes = column(DRAMA, "lead changes per match")
        fewest_changes = column(DRAMA, "fewest-cards changes per round")
        spread_names = ("decisions per round", "turns per round", "cards drawn per round", "reshuffles per round",
                        "rounds per match")
        spread_lists = [spreads.setdefault(name, []) for name in spread_names]
        spread_deals = [by_deal.setdefault(name, {}) for name in spread_names]
    rule_names: dict[str, tuple[str, str]] = {}
    for match_id, seed, f in rows:
        block = block_of(match_id)
        rounds = f["rounds"]
        decisions[match_id] = (block, sum(f["decisions"]), rounds)
        turns[match_id] = (block, sum(f["turns"]), rounds)
        rounds_of[match_id] = (block, rounds, 1)
        drawn[match_id] = (block, sum(f["drawn"]), rounds)
        reshuffles[match_id] = (block, sum(f["reshuffles"]), rounds)
        for values, spread, deals in zip((f["decisions"], f["turns"], f["drawn"], f["reshuffles"], [rounds]),
                                         spread_lists, spread_deals):
            spread.extend(values)
            deals.setdefault(block, []).extend(values)
        ends = f["round_ends"]
        all_rounds = sum(ends.values())
        for reason, by_match in round_ends:
            by_match[match_id] = (block, ends[reason], all_rounds)
        for how, by_match in match_ends:
            by_match[match_id] = (block, 1 if f["match_end"] == how else 0, 1)
        round_wins, match_wins, points = f["round_wins"], f["match_wins"], f["points"]
        won = sum(round_wins)
        for p, (wins, matches_won, points_of) in enumerate(seats):
            wins[match_id] = (block, round_wins[p], won)
            matches_won[match_id] = (block, match_wins[p], 1)
            points_of[match_id] = (block, points[p], 1)
        lead_changes[match_id] = (block, f["lead_changes"], 1)
        fewest_changes[match_id] = (block, sum(f["fewest_changes"]), rounds)
        if f["comeback"] is not None:
            column(DRAMA, "comebacks", True)[match_id] = (block, 1 if f["comeback"] else 0, 1)
        if f["decided_round"] is not None:
            column(DRAMA, "decided from round")[match_id] = (block, f["decided_round"], 1)
        for key, (fires, size, sized) in f["rules"].items():
            names = rule_names.get(key)
            if names is None:
                names = rule_names[key] = (f"{key} fires per round", f"{key} size")
            column(RULES, names[0])[match_id] = (block, fires, rounds)
            terms.setdefault(names[1], {})[match_id] = (block, size, sized)
        if f["bound"]:
            why = ", ".join([f"{f['round_ends'][reason]} round(s) {reason}" for reason in STALLS
                             if f["round_ends"][reason]] + (["match.max_rounds"] if f["match_end"] == MAX_ROUNDS
                                                            else []))
            stalls.append(Stall(match_id, seed, why, f"{replay} --match {match_id}"))
    for group, name, by_match in extra:
        terms[name], groups[name] = by_match, group
    figures = []
    for name, by_match in terms.items():
        if name.endswith(" size"):
            continue
        values = list(by_match.values())
        if groups[name] in (SEATS, DRAMA, ENDINGS) and name in bounded and all(t[2] == 1 for t in values):
            estimate = share([(t[0], t[1]) for t in values])
        else:
            estimate = ratio(values, bounded=name in bounded)
        spread = spreads.get(name)
        cuts = spans = None
        if spread and len(spread) > 1:
            cuts = deciles(spread)
            spans = quantile_intervals(list(by_deal[name].values()), ascending_deciles)
        figures.append(Figure(groups[name], name, estimate, cuts, quantile_intervals=spans))
    rules = []
    total_rounds = sum(f["rounds"] for _, _, f in rows)
    for key in rule_keys:
        fired = terms.get(f"{key} fires per round", {})
        fires = int(sum(t[1] for t in fired.values()))
        sized = terms.get(f"{key} size", {}).values()
        size_count = sum(t[2] for t in sized)
        idle = fires == 0 and key in unexercised
        rules.append(Rule(key, ratio(list(fired.values())), fires,
                          sum(t[1] for t in sized) / size_count if size_count else None, rule_keys[key],
                          fires == 0 and not idle, idle))
    return Cell(label, ruleset, overrides, players, len(rows), total_rounds, directory, tuple(figures), tuple(rules),
                seat_test(rows, n), tuple(stalls), deck, spreads, terms, by_deal)


def deciles(values: list[float]) -> tuple[float, float, float]:
    """The 10%, 50% and 90% quantiles."""
    q = quantiles(values, n=10, method="inclusive")
    return q[0], q[4], q[8]


def ascending_deciles(data: Sequence[float]) -> tuple[float, float, float]:
    """`deciles` of values already in ascending order (a list, or intervals.Ascending), at least two: the same
    figures, computed as statistics.quantiles' inclusive method computes them, without sorting again."""
    last = len(data) - 1
    cuts = []
    for i in (1, 5, 9):
        j, delta = divmod(i * last, 10)
        cuts.append((data[j] * (10 - delta) + data[j + 1] * delta) / 10)
    return cuts[0], cuts[1], cuts[2]


def skill_terms(rows: Iterable[tuple[str, int, dict]], strong: str, players: int, by: str = "bots") -> dict[str, Term]:
    """Per match of `strong` among weaker bots, its order index (w - 1/n) / (1 - 1/n), w its share of the win
    (CardStock's "order": 0 as good as the others, 1 winning every match); `by` "entrants": `strong` is an entrant
    (the seeing one of --hidden-info), told by the seats' entrants the match's counts carry."""
    terms = {}
    for match_id, _, f in rows:
        winners = f["winners"]
        won = sum(1 / len(winners) for seat in winners if f[by][seat] == strong)
        terms[match_id] = (block_of(match_id), (won - 1 / players) / (1 - 1 / players), 1.0)
    return terms


def seat_test(rows: list[tuple[str, int, dict]], n: int) -> SeatTest:
    """Round wins per position against equal shares; the counts' chi-square divided by their design effect.

    A match's rounds (and a deal's matches) are not independent draws: the design effect is the spread of each
    deal's wins per position about its equal share, against the spread independent rounds would have, averaged
    over the positions and never below 1 (Kish's, as the standings' Clustered finds it for matches in deals).
    """
    counts = [sum(f["round_wins"][p] for _, _, f in rows) for p in range(n)]
    deviations: dict[str, list[float]] = {}
    for match_id, _, f in rows:
        won = sum(f["round_wins"])
        block = deviations.setdefault(block_of(match_id), [0.0] * n)
        for p in range(n):
            block[p] += f["round_wins"][p] - won / n
    independent = sum(counts) * (1 / n) * (1 - 1 / n)
    blocks = len(deviations)
    deff = 1.0
    if independent > 0 and blocks > 1:
        spread = sum(d[p] ** 2 for d in deviations.values() for p in range(n)) / n * blocks / (blocks - 1)
        deff = max(1.0, spread / independent)
    statistic, p_value = chi_square_uniform(counts, deff)
    return SeatTest(statistic, n - 1, p_value)


def compare(cells: list[Cell]) -> list[Compared]:
    """Every figure of each cell against the first cell of its table size, paired where they played the same deals."""
    firsts: dict[int, Cell] = {}
    result = []
    for cell in cells:
        base = firsts.setdefault(cell.players, cell)
        if base is cell:
            continue
        for figure in cell.figures:
            a, b = base.terms.get(figure.name), cell.terms.get(figure.name)
            if not a or not b:
                continue
            spans = None
            if figure.quantiles is not None and base.by_deal.get(figure.name) and cell.by_deal.get(figure.name):
                spans = quantile_differences(base.by_deal[figure.name], cell.by_deal[figure.name], deciles,
                                             paired=base.deck == cell.deck)
            result.append(Compared(figure.name, figure.group, base.label, cell.label, cell.players,
                                   base.figure(figure.name).estimate.value, figure.estimate.value,
                                   difference(a, b, paired=base.deck == cell.deck), spans))
    return result


def sentences(cells: list[Cell], compared: list[Compared]) -> list[str]:
    """A few plain sentences that lead the report: length, seat advantage, rules that never fired, stalls."""
    said = []
    by_name = {(c.other, c.name): c for c in compared}
    for cell in cells:
        head = f"{cell.label} ({cell.players} players)"
        length = cell.figure("decisions per round").estimate
        line = f"{head}: {length.value:.1f} decisions per round ({length.low:.1f} to {length.high:.1f})"
        change = by_name.get((cell.label, "decisions per round"))
        if change is not None and change.difference.relative is not None:
            d = change.difference
            if d.significant and d.relative_low is not None:
                longer = "longer" if d.relative >= 0 else "shorter"
                ends = sorted((abs(d.relative_low), abs(d.relative_high)))
                line += (f", {percent(abs(d.relative))} {longer} than {change.base} ({percent(ends[0])} to "
                         f"{percent(ends[1])})")
            else:
                span = (f" ({signed(d.relative_low)} to {signed(d.relative_high)})" if d.relative_low is not None
                        else "")
                line += f", {signed(d.relative)} against {change.base}{span}, not told apart from no change"
        lead = cell.figure("seat 0 round wins").estimate
        line += (f"; the leading seat wins {percent(lead.value)} of rounds ({percent(lead.low)} to "
                 f"{percent(lead.high)}) against {percent(1 / cell.players)} for equal shares")
        line += (", a seat advantage (p = {:.3f})".format(cell.seat_test.p_value) if cell.seat_test.advantage
                 else ", no clear seat advantage")
        said.append(line + ".")
        for figure in cell.figures:
            if figure.group == SKILL:
                e = figure.estimate
                line = (f"{head}: the {figure.name} is {e.value:.2f} ({e.low:.2f} to {e.high:.2f}; 0: no better "
                        "than them, 1: wins every match)")
                if SEEING in figure.name:  # the same as a win rate: w = 1/n + index (1 - 1/n), its interval alike
                    share = [1 / cell.players + v * (1 - 1 / cell.players) for v in (e.value, e.low, e.high)]
                    line += (f": it wins {percent(share[0])} of matches ({percent(share[1])} to {percent(share[2])}) "
                             f"where not seeing them it would win {percent(1 / cell.players)}")
                said.append(line + ".")
        never = [rule.key for rule in cell.rules if rule.never_fired]
        if never:
            said.append(f"{head}: never fired in {cell.rounds} rounds: {', '.join(never)}.")
        idle = [rule.key for rule in cell.rules if rule.not_exercised]
        if idle:
            said.append(f"{head}: not exercised by these bots (they never miss an announcement or call one "
                        f"falsely; the rule is untested, not idle): {', '.join(idle)}.")
        if cell.stalls:
            said.append(f"{head}: {len(cell.stalls)} of {cell.matches} matches stalled or hit a bound; they are "
                        "listed with their seeds and replay commands.")
    return said


def signed(value: float | None) -> str:
    return "?" if value is None else f"{value * 100:+.0f}%"


def percent(value: float | None) -> str:
    if value is None:
        return "?"
    return f"{value * 100:.0f}%"

