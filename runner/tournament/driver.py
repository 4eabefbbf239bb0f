"""The tournament driver: plays the schedule's matches not yet stored, on a backend, into the results store."""

from __future__ import annotations

import itertools
import shlex
import signal
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator, TypeVar

from runner.errors import InvalidSetting, MaumauError, note_interrupt_reported
from runner.words import counted, plural

from .abtest import Verdict, run_test
from .backends import Backend, make_backend
from .commits import GroupedCommits
from .deals import Deal, deal_book
from .integrity import ResultsCorrupt
from .progress import Progress, progress_for
from .schedule import Slot, Units, schedule
from .settings import Settings, extended, stored_settings, with_deals
from .standings import Standings, tally
from .store import ANALYSIS, DB_NAME, Store
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
        unit = Units(self.settings, self.log_dir, self.book)
        for _, group in itertools.groupby(schedule(self.settings, self.deals), key=lambda slot: slot.deal):
            slots = list(group)
            stored = self.store.stored_among([slot.match_id for slot in slots]) if self.stored else ()
            for slot in slots:
                if slot.match_id not in stored:
                    self.slots[slot.match_id] = slot
                    yield unit(slot)

    def store_results(self, outcomes: list[MatchOutcome], store: Store | None = None) -> None:
        """Commit finished matches to the store (or to `store`, another connection to it); their slots are no
        longer needed. The tournament's driver commits them in groups (runner/tournament/commits.py)."""
        (store or self.store).add(outcomes, self.slots)
        for outcome in outcomes:
            del self.slots[outcome.match_id]


def standings_of(store: Store, deals: int | None = None, looks: int | None = None) -> Standings:
    """The standings of the stored matches (of the first `deals` deals, if given).

    For an --until-confident tournament, adjacent entrants are compared at the level of its
    last look (`looks`, by default the stored one), corrected for the looks before it.
    """
    with store.snapshot():  # the standings read the matches twice, and the meta rows: all see one state
        settings = Settings.from_config(store.config())
        if settings.until_confident and looks is None:
            looks = int(store.meta("looks")) if store.finished() else None
        return tally(list(zip(settings.entrants, settings.bots)), lambda: store.scored(deals), looks, settings.gauntlet,
                     lambda: store.placings(deals))


Report = Callable[[Standings, int, int], None]  # the standings so far, the matches stored, the matches in the stage


class Reports:
    """Calls `report` with the standings each time another `every` matches are stored (--report-every)."""

    def __init__(self, store: Store, every: int | None, report: Report | None):
        self.store, self.every, self.report = store, every, report
        self.next: int | None = None

    def start(self, stored: int) -> None:
        if self.every:
            self.next = (stored // self.every + 1) * self.every

    def due(self, count: int) -> bool:
        """Whether `stored(count, ...)` reports: the matches waiting for their group's commit are committed first."""
        return self.next is not None and self.report is not None and count >= self.next

    def stored(self, count: int, total: int) -> None:
        if self.next is not None and self.report is not None and count >= self.next:  # due(count), narrowed for mypy
            self.next = (count // self.every + 1) * self.every
            self.report(standings_of(self.store), count, total)


def run(settings: Settings, store: Store, backend: Backend, progress: Progress | None = None, *,
        report_every: int | None = None, report: Report | None = None) -> Standings:
    """Play every match of the tournament not yet in `store`; return the final standings.

    With `until_confident`, deals are doubled (up to `max_deals`) until each entrant places
    ahead of the next one down at 95% confidence, corrected for looking after every doubling.
    `report` is given the standings every `report_every` matches stored.
    """
    progress = progress or Progress()
    # a worker that sees the results directory writes the log files: the driver then creates none
    log_dir = str(store.directory.resolve()) if settings.logs and backend.shares_files else None
    first, deals, looks = 0, settings.deals, 0
    book = deal_book(settings, store.directory)
    reports = Reports(store, report_every, report)
    while True:
        looks += 1
        pending = Pending(settings, store, range(first, deals), log_dir, book)
        total = settings.match_count(deals)
        done = total - len(pending)

        commits = GroupedCommits(store, pending.store_results)

        def on_results(outcomes: list[MatchOutcome]) -> None:
            nonlocal done
            commits.add(outcomes)
            progress.advance(len(outcomes))
            done += len(outcomes)
            if reports.due(done):
                commits.flush()  # the standings reported are read from the store
            reports.stored(done, total)

        progress.start(total, done)
        reports.start(done)
        try:
            backend.run(pending, on_results)
        finally:  # the matches played, interrupted or not, are stored
            try:
                commits.close()
            finally:
                progress.stop()
        # only this stage's deals: a resumed run decides alike
        standings = standings_of(store, deals, looks if settings.until_confident else None)
        if not settings.until_confident or not standings.too_close or deals >= settings.max_deals:
            store.mark_finished(deals, looks)
            return standings
        first, deals = deals, min(settings.max_deals, deals * 2)  # the deals before are all stored now


def stored_standings(directory: Path) -> tuple[Standings, str]:
    """The standings of the tournament stored in `directory`, and a note for people: its ruleset and seed (the one
    chosen at random, when none was given), and how to continue it if it is unfinished."""
    store = Store.open(directory, logs=True)
    try:
        settings = Settings.from_config(store.config())
        note = f"{settings.ruleset_name}, seed {settings.seed}: {counted(store.count(), 'match')} stored"
        analysed = analysis_cell(store)
        if analysed is not None:
            note += analysed
        elif not store.finished():
            note += f"\nunfinished: continue with: {resume_command(directory, settings)}"
        return standings_of(store), note
    finally:
        store.close()


def analysis_cell(store: Store) -> str | None:
    """The note on a cell of `maumau analyze` (None: not one). A cell of equal bots plays one rotation per deal, so it
    is never marked finished as a tournament is: its own meta row (store.ANALYSIS) says whether it is complete."""
    try:
        deals = store.meta(ANALYSIS)
    except KeyError:
        return None
    out = shlex.quote(str(store.directory.parent))
    if deals:
        return f"; a cell of the analysis in {out}, complete after {counted(int(deals), 'deal')}"
    return (f"\nunfinished: a cell of the analysis in {out}; continue it with the same `maumau analyze` command "
            f"plus --resume --out {out}")


def resume_command(directory: Path, settings: Settings | None = None) -> str:
    """The command that continues the tournament (or A/B test) in `directory` with its stored settings."""
    command = "sprt" if settings is not None and settings.sprt else "tournament"
    return f"maumau {command} --resume {shlex.quote(str(directory))}"


def conduct(settings: Settings, out: Path | None, resume: bool, backend: str = "processes",
            workers: int | None = None, quiet: bool = False, scheduler: str | None = None, *,
            report_every: int | None = None, report: Report | None = None,
            notes: tuple[str, ...] = ()) -> tuple[Standings, Path]:
    """Run (or resume) a tournament into its results directory; return its standings and the directory.

    `report` is given the standings every `report_every` matches (neither when `quiet`); `notes` are
    said (unless `quiet`) once the run starts, after its settings and directory are checked.
    """
    if report_every is not None and report_every < 1:
        raise InvalidSetting(f"{{0}} must be at least 1, got {report_every}", "report_every")
    if settings.sprt:
        raise MaumauError(f"{out} holds an A/B test: continue it with `maumau sprt --resume {out}`")

    def play(store: Store, executor: Backend, progress: Progress) -> Standings:
        return run(settings, store, executor, progress, report_every=None if quiet else report_every, report=report)

    return conducted(settings, out, resume, backend, workers, quiet, scheduler, play, notes)


def conduct_test(settings: Settings, out: Path | None, resume: bool, backend: str = "processes",
                 workers: int | None = None, quiet: bool = False,
                 scheduler: str | None = None, notes: tuple[str, ...] = ()) -> tuple[Verdict, Path]:
    """Run (or resume) an A/B test (runner.tournament.abtest) into its results directory; its verdict and directory."""
    if not settings.sprt:
        raise MaumauError(f"{out} holds a tournament, not an A/B test: continue it with "
                          f"`maumau tournament --resume {out}`")
    return conducted(settings, out, resume, backend, workers, quiet, scheduler,
                     lambda store, executor, progress: run_test(settings, store, executor, progress), notes)


T = TypeVar("T")


def conducted(settings: Settings, out: Path | None, resume: bool, backend: str, workers: int | None, quiet: bool,
              scheduler: str | None, play: Callable[[Store, Backend, Progress], T],
              notes: tuple[str, ...] = ()) -> tuple[T, Path]:
    """Open (or create) the results directory, make the backend, `play` into them; say how it went, how to resume."""
    if resume and out is None:
        raise InvalidSetting("{0} needs {1}: the results directory of the tournament to continue", "resume", "out")
    if workers is not None and workers < 1:
        raise InvalidSetting(f"{{0}} must be at least 1, got {workers}", "workers")
    out = out if out is not None else default_out(settings)
    progress = progress_for(quiet)
    with make_backend(backend, workers, scheduler) as executor:
        # a cluster worker without a bot is refused before the directory is made
        executor.prepare(settings.bots, settings.faults.isolate, settings.faults.sandbox)
        store = Store.resume(out, settings.config()) if resume else Store.create(out, settings.config())
        try:
            progress.note(f"{settings.summary()}; results in {out}")
            for note in notes:
                progress.note(note)
            before, started = store.count(), time.perf_counter()
            with sigterm_interrupts():
                result = play(store, executor, progress)
            # wall-clock figures are notes (stderr), never part of the standings: those stay the same bytes
            played, seconds = store.count() - before, time.perf_counter() - started
            progress.note(played_note(played, seconds, executor.where()))
            return result, out
        except KeyboardInterrupt:
            progress.warn(f"interrupted after {counted(store.count(), 'match')}; continue with: "
                          f"{resume_command(out, settings)}")
            note_interrupt_reported()  # that line is the message: no `Error: interrupted` after it
            raise
        finally:
            store.close()


def played_note(played: int, seconds: float, where: str) -> str:
    """`played 1 match in 0.50 s (2 matches/s) on 2 worker processes`; a rate under 10 with one decimal (0.3)."""
    rate = played / seconds if seconds > 0 else 0.0
    shown = f"{rate:.1f}" if rate < 10 else f"{rate:.0f}"
    return f"played {counted(played, 'match')} in {seconds:.2f} s ({shown} {plural(float(shown), 'match')}/s) {where}"


class Terminated(KeyboardInterrupt):
    """SIGTERM (`kill PID`, a CI job out of time): the run stops as on Ctrl-C, and says how to resume."""


@contextmanager
def sigterm_interrupts() -> Iterator[None]:
    """Within: SIGTERM raises Terminated in the main thread (elsewhere a handler cannot be set: left alone)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum, frame):
        raise Terminated

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def stored_config(directory: Path) -> dict:
    """The config of the tournament stored in `directory` (checked, as every opening checks it)."""
    store = Store.open(directory)
    try:
        return store.config()
    finally:
        store.close()


def stored_seed(directory: Path) -> int | None:
    """The seed of the run stored in `directory`, None if it holds none (resuming nothing is refused later)."""
    if not (directory / DB_NAME).exists():
        return None
    seed = stored_config(directory).get("seed")
    if type(seed) is not int:
        raise ResultsCorrupt(f"{directory}: the stored config has no seed")
    return seed


def extend(directory: Path, bots: list[str]) -> Settings:
    """Add the entrants `bots` to the tournament in `directory`: its config gains them and their tables.

    The tournament is then resumed: only the added tables are played (and whatever was left unplayed).
    """
    return grown(directory, lambda settings: extended(settings, bots))


def add_deals(directory: Path, deals: int) -> Settings:
    """Give the tournament in `directory` `deals` deals per table (more than it has): its config says so, and it is
    resumed: only the added deals are played (and whatever was left unplayed)."""
    return grown(directory, lambda settings: settings if deals == settings.deals else with_deals(settings, deals))


def grown(directory: Path, grow: Callable[[Settings], Settings]) -> Settings:
    """The tournament in `directory` with the settings `grow` gives from its own, stored in place of them."""
    config = stored_config(directory)
    old = stored_settings(config)
    settings = grow(old)
    if settings == old:
        return settings
    store = Store.resume(directory, config)  # locked: no run writes the directory meanwhile
    try:
        store.replace_config(settings.config())
        return settings
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
