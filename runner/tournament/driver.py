"""The tournament driver: plays the schedule's matches not yet stored, on a backend, into the results store."""

from __future__ import annotations

import itertools
import time
from pathlib import Path
from typing import Callable, Iterator

from runner.errors import InvalidSetting

from .backends import Backend, make_backend
from .deals import Deal, deal_book
from .progress import Progress, progress_for
from .schedule import Slot, schedule, unit_of
from .settings import Settings
from .standings import Standings, tally
from .store import Store
from .work import MatchOutcome, WorkUnit


class Pending:
    """The work units of `deals` not yet stored, made deal by deal as a backend takes them; their number known up front.

    A deal's stored matches are looked up when the deal comes (a resumed tournament); each unit's
    slot is kept in `slots` from when it is handed out until it is stored, so the driver holds the
    matches in flight, never the whole schedule.
    """

    def __init__(self, settings: Settings, store: Store, deals: range, log_dir: str | None = None,
                 book: list[Deal] | None = None):
        self.settings, self.store, self.deals, self.log_dir, self.book = settings, store, deals, log_dir, book
        self.slots: dict[str, Slot] = {}
        self.stored = store.count(deals)  # before any of them is played here
        self.size = settings.match_count(len(deals)) - self.stored

    def __len__(self) -> int:
        return self.size

    def __iter__(self) -> Iterator[WorkUnit]:
        for _, group in itertools.groupby(schedule(self.settings, self.deals), key=lambda slot: slot.deal):
            slots = list(group)
            stored = self.store.stored_among([slot.match_id for slot in slots]) if self.stored else ()
            for slot in slots:
                if slot.match_id not in stored:
                    self.slots[slot.match_id] = slot
                    yield unit_of(self.settings, slot, self.log_dir, self.book)

    def store_results(self, outcomes: list[MatchOutcome]) -> None:
        """Commit finished matches to the store; their slots are no longer needed."""
        self.store.add(outcomes, self.slots)
        for outcome in outcomes:
            del self.slots[outcome.match_id]


def standings_of(store: Store, deals: int | None = None, looks: int | None = None) -> Standings:
    """The standings of the stored matches (of the first `deals` deals, if given).

    For an --until-confident tournament, adjacent entrants are compared at the level of its
    last look (`looks`, by default the stored one), corrected for the looks before it.
    """
    settings = Settings.from_config(store.config())
    if settings.until_confident and looks is None:
        looks = int(store.meta("looks")) if store.finished() else None
    with store.snapshot():  # the standings read the matches twice: both readings see the same ones
        return tally(list(zip(settings.entrants, settings.bots)), lambda: store.scored(deals), looks, settings.gauntlet)


def run(settings: Settings, store: Store, backend: Backend, progress: Progress | None = None) -> Standings:
    """Play every match of the tournament not yet in `store`; return the final standings.

    With `until_confident`, deals are doubled (up to `max_deals`) until each entrant places
    ahead of the next one down at 95% confidence, corrected for looking after every doubling.
    """
    progress = progress or Progress()
    # a worker that sees the results directory writes the log files: the driver then creates none
    log_dir = str(store.directory.resolve()) if settings.logs and backend.shares_files else None
    first, deals, looks = 0, settings.deals, 0
    book = deal_book(settings, store.directory)
    while True:
        looks += 1
        pending = Pending(settings, store, range(first, deals), log_dir, book)

        def on_results(outcomes: list[MatchOutcome]) -> None:
            pending.store_results(outcomes)
            progress.advance(len(outcomes))

        total = settings.match_count(deals)
        progress.start(total, total - len(pending))
        try:
            backend.run(pending, on_results)
        finally:
            progress.stop()
        # only this stage's deals: a resumed run decides alike
        standings = standings_of(store, deals, looks if settings.until_confident else None)
        if not settings.until_confident or not standings.too_close or deals >= settings.max_deals:
            store.mark_finished(deals, looks)
            return standings
        first, deals = deals, min(settings.max_deals, deals * 2)  # the deals before are all stored now


def stored_standings(directory: Path) -> tuple[Standings, str]:
    """The standings of the tournament stored in `directory`, and a note if it is unfinished."""
    store = Store.open(directory)
    try:
        note = (
            ""
            if store.finished()
            else (
                f"unfinished: {store.count()} matches stored; continue with the tournament's command plus --resume "
                f"--out {directory}"
            )
        )
        return standings_of(store), note
    finally:
        store.close()


def conduct(settings: Settings, out: Path | None, resume: bool, backend: str = "processes",
            workers: int | None = None, quiet: bool = False, scheduler: str | None = None) -> tuple[Standings, Path]:
    """Run (or resume) a tournament into its results directory; return its standings and the directory."""
    if resume and out is None:
        raise InvalidSetting("{0} needs {1}: the results directory of the tournament to continue", "resume", "out")
    if workers is not None and workers < 1:
        raise InvalidSetting(f"{{0}} must be at least 1, got {workers}", "workers")
    out = out if out is not None else default_out(settings)
    progress = progress_for(quiet)
    with make_backend(backend, workers, scheduler) as executor:
        # a cluster worker without a bot is refused before the directory is made
        executor.prepare(settings.bots, settings.faults.isolate)
        store = Store.resume(out, settings.config()) if resume else Store.create(out, settings.config())
        try:
            total = settings.match_count()
            progress.note(f"{settings.summary()} = {total} matches; results in {out}")
            before, started = store.count(), time.perf_counter()
            standings = run(settings, store, executor, progress)
            # wall-clock figures are notes (stderr), never part of the standings: those stay the same bytes
            played, seconds = store.count() - before, time.perf_counter() - started
            progress.note(f"played {played} matches in {seconds:.2f} s ({played / seconds:.0f} matches/s)")
            return standings, out
        except KeyboardInterrupt:
            progress.warn(f"interrupted after {store.count()} matches; continue with the same command plus --resume "
                          f"--out {out}")
            raise
        finally:
            store.close()


def default_out(settings: Settings, root: Path = Path("results"), now: Callable[[], float] = time.time) -> Path:
    """`results/<ruleset>-<date>-<time>`, numbered if that exists already."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(now()))
    base = root / f"{Path(settings.ruleset['name']).name}-{stamp}"
    candidate, n = base, 1
    while candidate.exists():
        n += 1
        candidate = base.with_name(f"{base.name}-{n}")
    return candidate
