"""An A/B test that stops by itself (`maumau sprt`): NEW and BASE on the same deals, until the SPRT decides.

The test is a tournament of a special schedule, stored like any other. Entrant 0 is NEW, 1 is
BASE, the rest are the opponents. Without opponents NEW meets BASE at a two-seat table (t0),
each deal under both seatings; with opponents, NEW meets them at t0 and BASE meets the same
opponents in the same seats at t1, both on the same deals (the seed of a match depends on
its deal only). Each deal gives one paired score: 1/2 + (NEW's ahead share - BASE's ahead share)/2
over the deal's matches, which at two seats is NEW's mean score on the deal (the pentanomial of
a game pair). The deals are fed to the GSPRT (runner.tournament.sprt) in deal order, so the
decision, the first deal at which the LLR leaves its bounds, does not depend on which match
finished first. Deals are started whole and finished whole: once decided, no deal is scheduled;
the deals in flight when it came (small batches keep them few) are finished, stored, and left
out of the test, and the verdict says how many matches were played in all.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Iterator

from .backends import Backend
from .commits import GroupedCommits
from .deals import Deal, deal_book
from .progress import Progress
from .schedule import Slot, Units, schedule
from .settings import Settings, plan
from .sprt import Hypotheses, Sprt, check_hypotheses, elo_of_score
from .standings import Z95, ahead_shares
from .store import Store
from .work import MatchOutcome, WorkUnit

NEW, BASE = 0, 1
DEFAULT_MAX_DEALS = 20000
# Deals in one batch of work: what is in flight when the test decides is played to its end (2 batches a worker), so
# batches stay small; a batch of a few dozen matches still costs the driver little (one commit)
DEALS_PER_BATCH = 8


def plan_test(ruleset_name: str, new: str, base: str, opponents: list[str], hypotheses: Hypotheses, *,
              max_deals: int | None = DEFAULT_MAX_DEALS, **options) -> Settings:
    """The settings of an A/B test of NEW against BASE (with `opponents` at the table), up to `max_deals` deals."""
    check_hypotheses(hypotheses)
    bots = [new, base, *opponents]
    k = 1 + len(opponents) if opponents else 2
    settings = plan(ruleset_name, bots, max_deals, k, **options)
    others = tuple(range(2, len(bots)))
    tables = ((NEW, *others), (BASE, *others)) if opponents else ((NEW, BASE),)
    return replace(settings, tables=tables, sprt={
        "elo0": hypotheses.elo0, "elo1": hypotheses.elo1, "alpha": hypotheses.alpha, "beta": hypotheses.beta})


def hypotheses_of(settings: Settings) -> Hypotheses:
    return Hypotheses(**settings.sprt)


@dataclass(frozen=True, kw_only=True)
class Verdict:
    """Where the test stands: its decision ('H1', 'H0' or None) after `deals` deals of `matches` matches."""

    decision: str | None
    llr: float
    bounds: tuple[float, float]
    deals: int
    matches: int
    score: float  # the mean paired score, 0.5 when NEW and BASE do equally well
    score_low: float
    score_high: float
    stored_deals: int  # deals stored, the decided ones and any finished after the decision
    played: int = 0  # matches stored in all: those of the decision and those in flight when it came

    @property
    def elo(self) -> tuple[float, float, float]:
        """The logistic Elo difference of the score, with its 95% interval."""
        return elo_of_score(self.score), elo_of_score(self.score_low), elo_of_score(self.score_high)

    def line(self) -> str:
        low, high = self.bounds
        return f"LLR {self.llr:.2f} ({low:.2f}, {high:.2f})"


class PairedTest:
    """The GSPRT over the paired score of each deal, fed deal by deal in deal order as their matches arrive."""

    def __init__(self, settings: Settings):
        self.settings = settings
        self.hypotheses = hypotheses_of(settings)
        k, m = settings.table_size, settings.seatings_per_deal
        self.per_deal = len(settings.table_list()) * m  # the matches of one deal
        # the grid of the paired scores: NEW's mean over m matches at two seats, else the difference of two
        # mean ahead shares, each a multiple of 1 / (2 (k - 1) m)
        direct = len(settings.table_list()) == 1
        self.sprt = Sprt(self.hypotheses, 2 * m if direct else 4 * (k - 1) * m)
        self.sums: dict[int, list[float]] = {}  # deal -> [matches, NEW's ahead shares, BASE's], until fed
        self.fed = 0  # deals fed so far, 0..fed-1
        self.decision: str | None = None
        self.decided_at: tuple[int, int] | None = None  # (deals, matches) when it decided
        self.scores: list[float] = []  # the paired score of every deal fed, for the interval
        self.llr = 0.0
        self.labels = (settings.entrants[NEW], settings.entrants[BASE])

    def add(self, deal: int, seats) -> None:
        """One stored match of `deal` (its seats); a deal whose matches are all in is fed, in deal order."""
        sums = self.sums.setdefault(deal, [0, 0.0, 0.0])
        sums[0] += 1
        for seat, share in zip(seats, ahead_shares(seats)):
            if seat.entrant == self.labels[0]:
                sums[1] += share
            elif seat.entrant == self.labels[1]:
                sums[2] += share
        while self.sums.get(self.fed, [0])[0] == self.per_deal:
            self._feed(self.sums.pop(self.fed))

    def _feed(self, sums: list[float]) -> None:
        self.fed += 1
        if self.decision is not None:
            return  # a deal finished after the decision: stored, not tested
        per_entrant = sums[0] / len(self.settings.table_list())  # matches each of NEW and BASE played
        score = 0.5 + (sums[1] - sums[2]) / per_entrant / 2
        self.sprt.add(score)
        self.scores.append(score)
        self.llr = self.sprt.llr()
        self.decision = self.sprt.decision(self.llr)
        if self.decision is not None:
            self.decided_at = (self.fed, self.fed * self.per_deal)

    @property
    def over(self) -> bool:
        """Decided, or every deal of the cap fed."""
        return self.decision is not None or self.fed >= self.settings.deals

    def verdict(self) -> Verdict:
        deals, matches = self.decided_at or (len(self.scores), len(self.scores) * self.per_deal)
        n = len(self.scores)
        mean = sum(self.scores) / n if n else 0.5
        spread = math.sqrt(sum((x - mean) ** 2 for x in self.scores) / (n - 1) / n) if n > 1 else 0.5
        return Verdict(decision=self.decision, llr=self.llr, bounds=self.hypotheses.bounds, deals=deals,
                       matches=matches, score=mean, score_low=max(0.0, mean - Z95 * spread),
                       score_high=min(1.0, mean + Z95 * spread), stored_deals=self.fed)


class TestPending:
    """The work units of the test, deal by deal, until it is decided; a deal begun is always given whole.

    Like the tournament's Pending (runner.tournament.driver) it holds only the slots in flight;
    it has no length, for where the test stops is not known.
    """

    def __init__(self, settings: Settings, store: Store, test: PairedTest, log_dir: str | None,
                 book: list[Deal] | None):
        self.settings, self.store, self.test, self.log_dir, self.book = settings, store, test, log_dir, book
        self.slots: dict[str, Slot] = {}
        self.begun = store.last_deal()  # deals up to this one were begun before (a resumed test): they are finished
        self.batch_cap = DEALS_PER_BATCH * test.per_deal  # read by the backends' batching (backends/base.py)

    def __iter__(self) -> Iterator[WorkUnit]:
        unit = Units(self.settings, self.log_dir, self.book)
        slots: list[Slot] = []
        for slot in schedule(self.settings, range(self.settings.deals)):
            slots.append(slot)
            if len(slots) < self.test.per_deal:
                continue
            deal, slots = slots, []
            if self.test.over and deal[0].deal > self.begun:
                return  # decided, and no deal from here on begun: nothing more to play
            stored = self.store.stored_among([s.match_id for s in deal])
            for s in deal:
                if s.match_id not in stored:
                    self.slots[s.match_id] = s
                    yield unit(s)

    def count(self, outcomes: list[MatchOutcome]) -> None:
        """Add finished matches to the test as they arrive (their slots kept until they are stored)."""
        for outcome in outcomes:
            self.test.add(self.slots[outcome.match_id].deal, outcome.seats)

    def store_results(self, outcomes: list[MatchOutcome], store: Store | None = None) -> None:
        """Commit counted matches to the store (or to `store`, another connection to it): grouped by the driver
        (runner/tournament/commits.py); their slots are no longer needed."""
        (store or self.store).add(outcomes, self.slots)
        for outcome in outcomes:
            del self.slots[outcome.match_id]


def replayed(settings: Settings, store: Store) -> PairedTest:
    """The test as far as the stored matches take it (a resumed test), fed in deal order."""
    test = PairedTest(settings)
    for block, seats in store.scored():
        test.add(int(block.rsplit("-d", 1)[1]), seats)
    return test


def run_test(settings: Settings, store: Store, backend: Backend, progress: Progress | None = None) -> Verdict:
    """Play the test's deals not yet stored until the SPRT decides or the cap is reached; the verdict."""
    progress = progress or Progress()
    log_dir = str(store.directory.resolve()) if settings.logs and backend.shares_files else None
    test = replayed(settings, store)
    pending = TestPending(settings, store, test, log_dir, deal_book(settings, store.directory))

    commits = GroupedCommits(store, pending.store_results)

    def on_results(outcomes: list[MatchOutcome]) -> None:
        pending.count(outcomes)
        commits.add(outcomes)
        progress.advance(len(outcomes))
        progress.status(test.verdict().line())

    progress.start(None, store.count())
    progress.status(test.verdict().line())
    try:
        backend.run(pending, on_results)
    finally:  # the matches played, interrupted or not, are stored
        try:
            commits.close()
        finally:
            progress.stop()
    store.mark_finished(test.fed)
    return replace(test.verdict(), played=store.count())
