"""One unit of tournament work: a match described as plain data, played in whichever process receives it.

A `WorkUnit` holds only names, numbers and the resolved ruleset as a dict, so any backend
(serial, a process pool, a cluster) can ship it; `play_unit` rebuilds everything else from the
process-wide plugin registry, which each worker builds once.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Callable, NamedTuple

from runner.errors import MaumauError
from runner.game.events import GameLog
from runner.game.ruleset import Ruleset
from runner.logs.codec import compress
from runner.rules import ruleset_of
from runner.seats.botmaker import shared_maker
from runner.seats.external import RemoteBot, stderr_name
from runner.seats.faults import FaultSettings
from runner.table.match import Match, MatchResult
from runner.table.referee import Fault, Referee

from .integrity import match_digest, sha256
from .logfiles import log_name, store_log


class WorkUnit(NamedTuple):
    """Everything needed to play one scheduled match, in picklable plain data.

    A NamedTuple, as frozen as a frozen dataclass and made in half its time: the driver makes one per match,
    on the core the workers share.
    """

    match_id: str
    seed: int
    bots: tuple[str, ...]  # registered bot name per seat
    entrants: tuple[str, ...]  # entrant label per seat (distinct when a bot is entered twice)
    ruleset: dict  # the resolved ruleset, Ruleset.to_data()
    ruleset_name: str = ""
    overrides: dict | None = None  # the --set overrides the ruleset was resolved with
    logs: bool = True
    faults: FaultSettings = FaultSettings()
    log_dir: str | None = None  # the results directory, if the worker writes the log file there itself
    decks: tuple[str, ...] = ()  # from a deal file: each round's deck, its cards top first, space-separated
    place: tuple[int, int, int] | None = None  # (table, deal, rotation) in the schedule: the worker digests the rows
    # what the worker measures of the match from its in-memory events (runner/analysis/metrics.py `measure`): a
    # module-level function, pickled by name, given (unit, ruleset, result, log); its plain-data value comes back
    measure: Callable | None = None
    # how the match's bots and referee are made, where not as in a tournament: given (unit, make_bot, referee), a
    # module-level function (or a partial of one) returns the two to use; set only by runner/analysis/runs.py, for
    # its hidden-information tournament (runner/analysis/seeing.py), never from a tournament's settings
    seating: Callable | None = None

    def __repr__(self) -> str:  # without the ruleset, pages long
        return f"WorkUnit(match_id={self.match_id!r}, seed={self.seed}, bots={self.bots})"


class SeatOutcome(NamedTuple):
    """How one seat of one match did; `place` is 1 for every seat sharing first.

    A NamedTuple (frozen, typed, as a frozen dataclass is): the standings read every stored seat of a tournament,
    twice, one after another at its end, and a tuple is made from a row in a fifth of a frozen dataclass's time.
    """

    seat: int
    entrant: str
    bot: str
    place: int
    score: float  # 1 for a sole winner, 1/w for each of w seats sharing first, else 0
    points: int
    rounds: int  # scoring rounds the seat was dealt into
    rounds_won: int
    faults: int
    forfeited: bool

    @classmethod
    def from_row(cls, row) -> "SeatOutcome":
        """A seat from its fields in the order of the store's seats table."""
        return cls._make(row)


@dataclass(frozen=True, kw_only=True)
class MatchOutcome:
    """The stored result of one match, with its gzip game log if logs are on: its bytes or the file the worker wrote."""

    match_id: str
    rounds: int
    decisions: int
    seats: tuple[SeatOutcome, ...]
    faults: tuple[Fault, ...]
    log: bytes | None = field(default=None, repr=False)
    log_name: str | None = None  # written by the worker: its path in the results directory
    log_sha256: str | None = None
    # of the match's rows as the store writes them (runner/tournament/integrity.py), computed by the worker that played
    # it: in parallel, not in the one driver
    digest: str | None = None
    figures: object = field(default=None, repr=False)  # what `WorkUnit.measure` made of the match, if it was set


def make_bot(unit: WorkUnit, name: str, seat: int, rng: random.Random):
    """The bot for `seat`: the one place a worker constructs bots (in-process, isolated or `exec:`)."""
    return shared_maker(unit.faults.isolate, unit.faults.bot_memory, unit.faults.sandbox)(name, seat, rng)


def seat_bot(unit: WorkUnit, remote: list, name: str, seat: int, rng: random.Random):
    """make_bot, noting each seat whose bot is a process (in `remote`) and where its stderr is kept."""
    bot = make_bot(unit, name, seat, rng)
    if isinstance(bot, RemoteBot) and unit.log_dir is not None:
        bot.stderr_name = stderr_name(unit.match_id, seat)
        remote.append(bot)
    return bot


def keep_stderr(unit: WorkUnit, remote: list) -> None:
    """Write what each bot process wrote on stderr in the match (capped) to the results directory, if anything."""
    for bot in remote:
        data = bot.process.stderr_of_match()
        if data:
            path = Path(unit.log_dir) / bot.stderr_name
            try:
                path.parent.mkdir(exist_ok=True)
                path.write_bytes(data)
            except OSError as exc:
                raise MaumauError(f"cannot write {path}: {exc.strerror}; free some space or choose another --out") \
                    from None


def make_referee(unit: WorkUnit) -> Referee:
    """The referee of one match, under the tournament's fault settings."""
    return Referee(unit.faults, seed=unit.seed)


def play_unit(unit: WorkUnit) -> MatchOutcome:
    """Play one match and summarise it; the log, gzip-compressed (byte-stable), comes back or goes to `unit.log_dir`,
    and there too what each bot process wrote on stderr in it."""
    # the engine's records, encoded without their dicts; kept in memory, not encoded, for a measure alone
    log = GameLog() if unit.logs or unit.measure is not None else None
    ruleset = ruleset_of(unit.ruleset, "tournament ruleset")
    bots = shared_maker(unit.faults.isolate, unit.faults.bot_memory, unit.faults.sandbox)
    remote: list[RemoteBot] = []
    try:
        make, referee = partial(seat_bot, unit, remote), make_referee(unit)
        if unit.seating is not None:
            make, referee = unit.seating(unit, make, referee)
        match = Match(
            ruleset, list(unit.bots), unit.seed, make, match_id=unit.match_id, referee=referee, log=log,
            overrides=unit.overrides, ruleset_name=unit.ruleset_name,
            decks=unit.decks,
        )
        result = match.run()
    except BaseException:  # an aborted match: its bot processes are released, nothing is returned
        bots.end_match()
        raise
    keep_stderr(unit, remote)
    bots.end_match(result)
    data = compress(log) if log is not None and unit.logs else None
    name = log_hash = None
    if data is not None and unit.log_dir is not None:
        name, log_hash = store_log(unit.log_dir, unit.match_id, data)
        data = None
    seats = seat_outcomes(unit, ruleset, result)
    rows_digest = None
    if unit.place is not None:  # the row as the store writes it: a log sent back is stored under its name, its hash
        logged = (name, log_hash) if data is None else (log_name(unit.match_id), sha256(data))
        row = (unit.match_id, *unit.place, unit.seed, len(result.rounds), result.decisions, *logged)
        rows_digest = match_digest(row, seats, result.faults)
    return MatchOutcome(
        match_id=unit.match_id, rounds=len(result.rounds), decisions=result.decisions, seats=seats,
        faults=result.faults, log=data, log_name=name, log_sha256=log_hash, digest=rows_digest,
        figures=unit.measure(unit, ruleset, result, log) if unit.measure is not None else None,
    )


def play_batch(units: list[WorkUnit]) -> list[MatchOutcome]:
    """Play a batch of units in order: what a backend sends to a worker in one message."""
    return [play_unit(unit) for unit in units]


def seat_outcomes(unit: WorkUnit, ruleset: Ruleset, result: MatchResult) -> tuple[SeatOutcome, ...]:
    winners = set(result.winners)
    position = {seat: i + 1 for i, seat in enumerate(result.ranking)}
    last = len(result.players)
    faults = [sum(1 for f in result.faults if f.seat == seat) for seat in range(last)]
    points, rounds = list(result.totals), rounds_dealt_in(result, ruleset)
    for seat in result.forfeited:  # the worst result of its match in points too: out, as if at the limit
        points[seat] = max(*result.totals, ruleset.match.limit or 0)
        rounds[seat] = sum(1 for summary in result.rounds if not summary.deciding)
    return tuple(
        SeatOutcome(
            seat=seat, entrant=unit.entrants[seat], bot=unit.bots[seat],
            place=1 if seat in winners else position.get(seat, last),
            score=1 / len(winners) if seat in winners else 0.0,
            points=points[seat], rounds=rounds[seat], rounds_won=result.rounds_won[seat], faults=faults[seat],
            forfeited=seat in result.forfeited,
        )
        for seat in range(last)
    )


def rounds_dealt_in(result: MatchResult, ruleset: Ruleset) -> list[int]:
    """Per seat, the scoring rounds it took part in: not after its forfeit or its elimination."""
    n = len(result.players)
    forfeit_round = {f.seat: f.round for f in result.faults if f.seat in result.forfeited}
    limit = ruleset.match.limit if ruleset.match.format == "elimination" else None
    counts, out = [0] * n, [False] * n
    for summary in result.rounds:
        if summary.deciding:
            continue
        for seat in range(n):
            if not out[seat] and summary.number <= forfeit_round.get(seat, summary.number):
                counts[seat] += 1
            if limit is not None and summary.totals[seat] > limit:
                out[seat] = True
    return counts
