"""Round-robin tournaments: the schedule (tables, duplicate deals, seeds) and the driver that runs it.

Every k-subset of the entrants meets at a table; each meeting plays `deals` seeds, and each
seed once under every seat rotation of the table (duplicate deals), so that seat and card
luck cancel out; the order round the table changes from deal to deal, so that no entrant
always plays right after the same opponent. A match's id, `t<table>-d<deal>-r<rotation>`,
never changes, and its seed is derived (sha256) from the tournament seed and the id's table
and deal, so every rotation of a deal sees the same shuffles.
"""

from __future__ import annotations

import hashlib
import itertools
import math
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable, Iterator

from .backends import Backend, make_backend
from runner.seats.botmaker import BotMaker
from runner.errors import MaumauError
from runner.seats.external import DEFAULT_MEMORY
from .integrity import ResultsCorrupt
from runner.plugins import registry
from .progress import Progress, progress_for
from runner.table.referee import check_fault_options
from .standings import Standings, tally
from .store import Store
from .work import MatchOutcome, WorkUnit

DEFAULT_TABLE = 4


@dataclass(frozen=True)
class Settings:
    """What defines a tournament: stored with its results, and compared on --resume."""

    ruleset_name: str
    ruleset: dict = field(repr=False)  # resolved, overrides applied
    overrides: dict
    bots: tuple[str, ...]  # one per entrant
    entrants: tuple[str, ...]  # distinct labels, one per entrant
    table_size: int
    deals: int
    seed: int
    on_fault: str = "forfeit"
    move_time: float | None = None
    logs: bool = True
    until_confident: bool = False
    max_deals: int | None = None
    time_bank: float = 0.0
    isolate: bool = False
    bot_memory: int | None = DEFAULT_MEMORY

    def config(self) -> dict:
        return asdict(self)

    @classmethod
    def from_config(cls, config: dict) -> "Settings":
        try:
            config = dict(config, bots=tuple(config["bots"]), entrants=tuple(config["entrants"]))
            return cls(**config)
        except (KeyError, TypeError, ValueError) as exc:  # a stored config is input too: never a traceback
            raise ResultsCorrupt(f"the stored tournament config cannot be read ({type(exc).__name__}: {exc})") from None


@dataclass(frozen=True)
class Slot:
    """One scheduled match: where it sits in the schedule, and who sits where."""

    match_id: str
    table: int
    deal: int
    rotation: int
    seed: int
    seats: tuple[int, ...]  # entrant index per seat


def plan(
    ruleset_name: str, bots: list[str], deals: int = 10, table_size: int | None = None, seed: int = 1,
    overrides: dict | None = None, on_fault: str = "forfeit", move_time: float | None = None, logs: bool = True,
    until_confident: bool = False, max_deals: int | None = None, time_bank: float = 0.0, isolate: bool = False,
    bot_memory: int | None = DEFAULT_MEMORY,
) -> Settings:
    """Validated settings of a tournament from the user's names and numbers."""
    reg = registry()
    overrides = dict(overrides or {})
    ruleset = reg.load_ruleset(ruleset_name, overrides)
    BotMaker(reg, isolate, bot_memory).check(bots)  # registered names, or `exec:` programs that can run
    if len(bots) < 2:
        raise MaumauError(f"a tournament needs at least 2 entrants, got {len(bots)}; repeat -b BOT")
    low, high = ruleset.players.min, ruleset.players.max
    k = table_size if table_size is not None else min(len(bots), DEFAULT_TABLE, high)
    if not low <= k <= high:
        raise MaumauError(
            f"--table-size {k} is outside the player range {low}-{high} of ruleset {ruleset.name!r}; choose a size in it"
        )
    if k > len(bots):
        raise MaumauError(f"--table-size {k} needs at least {k} entrants, got {len(bots)}; add -b BOT or lower it")
    if deals < 1:
        raise MaumauError(f"--deals must be at least 1, got {deals}")
    check_fault_options(on_fault, move_time, time_bank)
    move_time = move_time or None
    if until_confident:
        max_deals = max_deals if max_deals is not None else max(deals, 1000)
        if max_deals < deals:
            raise MaumauError(f"--max-deals {max_deals} is below --deals {deals}; raise it")
    else:
        max_deals = None
    return Settings(
        ruleset_name, ruleset.to_data(), overrides, tuple(bots), labels(bots), k, deals, seed, on_fault,
        move_time, logs, until_confident, max_deals, time_bank, isolate, bot_memory,
    )


def labels(bots: list[str]) -> tuple[str, ...]:
    """Entrant labels: the bot name, numbered (`random#1`, `random#2`) when a bot is entered twice."""
    seen: dict[str, int] = {}
    total = {bot: bots.count(bot) for bot in bots}
    result = []
    for bot in bots:
        seen[bot] = seen.get(bot, 0) + 1
        result.append(f"{bot}#{seen[bot]}" if total[bot] > 1 else bot)
    return tuple(result)


def derive_seed(seed: int, key: str) -> int:
    """A 63-bit seed from the tournament seed and a key: stable everywhere (unlike hash())."""
    digest = hashlib.sha256(f"maumau:{seed}:{key}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def schedule(settings: Settings, deals: range) -> Iterator[Slot]:
    """The matches of `deals`, deal by deal, then table by table, then rotation by rotation, made as they are taken.

    Rotations keep the order round the table, so with three or more seats each deal also
    takes the next of the (k-1)! orders in turn: over those deals every entrant plays right
    after every other equally often (who follows a strong player suffers from its 7s and 8s).
    """
    n, k = len(settings.entrants), settings.table_size
    tables = list(itertools.combinations(range(n), k))
    orders = [(0, *rest) for rest in itertools.permutations(range(1, k))]
    for deal in deals:
        order = orders[deal % len(orders)]
        for t, members in enumerate(tables):
            seed = derive_seed(settings.seed, f"t{t}-d{deal}")
            around = [members[i] for i in order]
            for r in range(k):
                seats = tuple(around[(s + r) % k] for s in range(k))
                yield Slot(f"t{t}-d{deal}-r{r}", t, deal, r, seed, seats)


def match_count(entrants: int, table_size: int, deals: int) -> int:
    return math.comb(entrants, table_size) * deals * table_size


def unit_of(settings: Settings, slot: Slot, log_dir: str | None = None) -> WorkUnit:
    """The work unit of `slot`; with `log_dir`, its worker writes the log file into that results directory."""
    return WorkUnit(
        slot.match_id, slot.seed, tuple(settings.bots[e] for e in slot.seats),
        tuple(settings.entrants[e] for e in slot.seats), settings.ruleset, settings.ruleset_name,
        settings.overrides, settings.on_fault, settings.move_time, settings.logs, settings.time_bank,
        settings.isolate, settings.bot_memory, log_dir,
    )


class Pending:
    """The work units of `deals` not yet stored, made deal by deal as a backend takes them; their number is known up front.

    A deal's stored matches are looked up when the deal comes (a resumed tournament); each unit's
    slot is kept in `slots` from when it is handed out until it is stored, so the driver holds the
    matches in flight, never the whole schedule.
    """

    def __init__(self, settings: Settings, store: Store, deals: range, log_dir: str | None = None):
        self.settings, self.store, self.deals, self.log_dir = settings, store, deals, log_dir
        self.slots: dict[str, Slot] = {}
        self.stored = store.count(deals)  # before any of them is played here
        self.size = match_count(len(settings.entrants), settings.table_size, len(deals)) - self.stored

    def __len__(self) -> int:
        return self.size

    def __iter__(self) -> Iterator[WorkUnit]:
        for _, group in itertools.groupby(schedule(self.settings, self.deals), key=lambda slot: slot.deal):
            slots = list(group)
            stored = self.store.stored_among([slot.match_id for slot in slots]) if self.stored else ()
            for slot in slots:
                if slot.match_id not in stored:
                    self.slots[slot.match_id] = slot
                    yield unit_of(self.settings, slot, self.log_dir)

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
        return tally(list(zip(settings.entrants, settings.bots)), lambda: store.scored(deals), looks)


def run(settings: Settings, store: Store, backend: Backend, progress: Progress | None = None) -> Standings:
    """Play every match of the tournament not yet in `store`; return the final standings.

    With `until_confident`, deals are doubled (up to `max_deals`) until each entrant places
    ahead of the next one down at 95% confidence, corrected for looking after every doubling.
    """
    progress = progress or Progress()
    # a worker that sees the results directory writes the log files: the driver then creates none
    log_dir = str(store.directory.resolve()) if settings.logs and backend.shares_files else None
    first, deals, looks = 0, settings.deals, 0
    while True:
        looks += 1
        pending = Pending(settings, store, range(first, deals), log_dir)

        def on_results(outcomes: list[MatchOutcome]) -> None:
            pending.store_results(outcomes)
            progress.advance(len(outcomes))

        total = match_count(len(settings.entrants), settings.table_size, deals)
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
        note = "" if store.finished() else (
            f"unfinished: {store.count()} matches stored; continue with the tournament's command plus --resume --out {directory}"
        )
        return standings_of(store), note
    finally:
        store.close()


def conduct(settings: Settings, out: Path | None, resume: bool, backend: str = "processes",
            workers: int | None = None, quiet: bool = False, scheduler: str | None = None) -> tuple[Standings, Path]:
    """Run (or resume) a tournament into its results directory; return its standings and the directory."""
    if resume and out is None:
        raise MaumauError("--resume needs --out DIR: the results directory of the tournament to continue")
    if workers is not None and workers < 1:
        raise MaumauError(f"--workers must be at least 1, got {workers}")
    out = out if out is not None else default_out(settings)
    with make_backend(backend, workers, scheduler) as executor:
        executor.prepare(settings.bots)  # a cluster worker without a bot is refused before the directory is made
        store = Store.resume(out, settings.config()) if resume else Store.create(out, settings.config())
        try:
            if not quiet:
                total = match_count(len(settings.entrants), settings.table_size, settings.deals)
                print_note(f"{describe(settings)} = {total} matches; results in {out}")
            before, started = store.count(), time.perf_counter()
            standings = run(settings, store, executor, progress_for(quiet))
            if not quiet:  # wall-clock figures go to stderr only: the standings stay the same bytes
                played, seconds = store.count() - before, time.perf_counter() - started
                print_note(f"played {played} matches in {seconds:.2f} s ({played / seconds:.0f} matches/s)")
            return standings, out
        except KeyboardInterrupt:
            print_note(f"interrupted after {store.count()} matches; continue with the same command plus --resume --out {out}")
            raise
        finally:
            store.close()


def describe(settings: Settings) -> str:
    k = settings.table_size
    deals = f"{settings.deals}" + (f" to {settings.max_deals} (until confident)" if settings.until_confident else "")
    return (f"{settings.ruleset_name}: {len(settings.entrants)} entrants, tables of {k}, "
            f"{math.comb(len(settings.entrants), k)} table(s) × {deals} deals × {k} rotations")


def print_note(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def default_out(settings: Settings, root: Path = Path("results"), now: Callable[[], float] = time.time) -> Path:
    """`results/<ruleset>-<date>-<time>`, numbered if that exists already."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(now()))
    base = root / f"{Path(settings.ruleset['name']).name}-{stamp}"
    candidate, n = base, 1
    while candidate.exists():
        n += 1
        candidate = base.with_name(f"{base.name}-{n}")
    return candidate
