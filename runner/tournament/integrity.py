"""Tamper evidence for a results directory: digests of what was stored, and careful reading of it.

Every match row carries the SHA-256 of its own fields, its seats, its faults and its log file;
the config carries one, and the meta rows (the config, the count of stored matches, the deals
played and the looks of a finished tournament) one over them all. Reading a directory
(standings, replay, resume) first checks that its schema is the one maumau writes (tables of
those columns, no view or trigger that would run a query of its own), then runs SQLite's own
integrity check (which also finds an index that no longer matches its table: the standings read
the matches through one), then recomputes the digests and counts the matches (and for the
standings, --resume and --extend, hashes every stored log), so a truncated, corrupted or edited
result is refused with a clear error instead of changing the standings. This detects damage and
casual edits, not a forger who recomputes the digests: they are not keyed.
"""

from __future__ import annotations

import hashlib
import json
import time
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Iterator

from runner.errors import MaumauError
from runner.logs import codec
from runner.logs.codec import LogError
from runner.words import counted

from .tables import matches_in

META_DIGEST = "meta_digest"  # the meta row holding the digest of all the others

# The end (time.monotonic()) of the reads of the current request, if it has one: runner/web/watch.py sets it
# (`time_limit`), so that a request of `maumau serve` reading results stops when its time is up instead of holding a
# thread (runner/tournament/store.py's connections check it from SQLite's progress handler).
read_deadline: ContextVar[float | None] = ContextVar("read_deadline", default=None)


class ReadTimeUp(MaumauError):
    """Reading a results database took longer than the time the request allows (`read_deadline`)."""


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Every results database opened inside stops reading `seconds` from now: ReadTimeUp from then on."""
    token = read_deadline.set(time.monotonic() + seconds)
    try:
        yield
    finally:
        read_deadline.reset(token)


def timed_out() -> bool:
    """Whether the current request's time for reading results is up (`read_deadline`)."""
    deadline = read_deadline.get()
    return deadline is not None and time.monotonic() > deadline


class ResultsCorrupt(MaumauError):
    """A results directory whose contents are not what the tournament wrote."""


def digest(*parts) -> str:
    """SHA-256 of `parts` as canonical JSON (booleans as the integers SQLite gives back)."""
    return plain_digest(*[_plain(part) for part in parts])


def plain_digest(*parts) -> str:
    """`digest(*parts)` of parts that hold no booleans (rows as SQLite stores them), without walking them first."""
    return hashlib.sha256(_canonical(parts).encode("utf-8")).hexdigest()


# built once: json.dumps with options builds an encoder per call; tuples encode as lists
_canonical = json.JSONEncoder(sort_keys=True, separators=(",", ":")).encode


def seat_row(seat) -> tuple:
    """A seat's fields (a SeatOutcome, runner/tournament/work.py) in the order of the seats table, `forfeited` as the
    integer SQLite stores."""
    return (*seat[:9], int(seat[9]))


def fault_row(fault) -> tuple:
    """A fault's fields (runner/table/referee.py) in the order of the faults table, after its match id."""
    return (fault.seat, fault.player, fault.kind, fault.detail, fault.round, fault.traceback)


def match_digest(row: tuple, seats, faults) -> str:
    """The digest a match row stores: of `row` (id, table, deal, rotation, seed, rounds, decisions, log, log_sha256),
    its seats' rows and its faults' rows, as `check_rows` recomputes it from the database."""
    return plain_digest(row, [seat_row(seat) for seat in seats], [fault_row(fault) for fault in faults])


def _plain(value):
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    return value


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def meta_digest(rows: dict[str, str]) -> str:
    """The digest of the meta rows `rows` (key: value, the digest's own row left out)."""
    return plain_digest(sorted(rows.items()))


def schema_of(db) -> dict[tuple[str, str], tuple[str, str]]:
    """{(type, name): (table, its SQL with the white space folded)} of every object of a database's schema."""
    return {(kind, name): (table, " ".join((sql or "").split()))
            for kind, name, table, sql in db.execute("SELECT type, name, tbl_name, sql FROM sqlite_master")}


def check_schema(db, path: Path, written: dict[tuple[str, str], tuple[str, str]],
                 optional: dict[tuple[str, str], tuple[str, str]] | None = None) -> None:
    """The database holds the tables and indexes maumau writes (`written`, as `schema_of` gives them), as it writes
    them, and nothing else but those of `optional` (as written, where present): no view, no trigger, no table of
    another shape. A view named `meta` (an endless
    WITH RECURSIVE, say) would otherwise stand in for the table and run its query at every read; ResultsCorrupt
    names the first difference."""
    found = schema_of(db)
    allowed = {**written, **(optional or {})}
    problem = ""
    for kind, name in sorted(found, key=lambda object_: (object_[0] in ("table", "index"), object_)):  # views first
        if (kind, name) not in allowed:
            table = next((other for other, same in allowed if same == name), None)
            problem = (f"{name!r} is a {kind}, not the {table} maumau writes" if table else
                       f"it holds {'an' if kind == 'index' else 'a'} {kind} {name!r}, which maumau never writes")
            break
        if found[kind, name] != allowed[kind, name]:
            problem = f"the {kind} {name!r} is not as maumau writes it (another version of maumau, or changed since)"
            break
    else:
        missing = sorted(set(written) - set(found))
        if missing:
            problem = f"the {missing[0][0]} {missing[0][1]!r} is missing"
    if problem:
        raise ResultsCorrupt(f"{path} is not a results database as maumau writes it: {problem}; {_ADVICE}")


def check_database(db, where: Path) -> None:
    """SQLite's own integrity check (pages, records, and every index against its table); ResultsCorrupt if it fails."""
    verdict = db.execute("PRAGMA integrity_check(1)").fetchone()
    if verdict is None or verdict[0] != "ok":
        problem = " ".join(str(verdict[0] if verdict else "no answer").split())[:120]
        raise ResultsCorrupt(f"{where}: the database is damaged (SQLite's integrity check: {problem}); {_ADVICE}")


def check_rows(db, where: Path, logs: bool = False) -> None:
    """Every stored match's digest against its rows, the config's against the config, and with `logs` every stored
    log file's SHA-256 against its row's; ResultsCorrupt if one differs.

    One read transaction (a tournament may be writing meanwhile: a log file is written before its
    row is committed), and the rows streamed match by match, so that a large tournament is checked
    in constant memory.
    """
    db.execute("BEGIN")
    try:
        meta = dict(db.execute("SELECT key, value FROM meta"))
        if meta.pop(META_DIGEST, None) != meta_digest(meta):
            raise ResultsCorrupt(f"{where}: the tournament's record (its meta rows) was changed; {_ADVICE}")
        config = db.execute("SELECT value FROM meta WHERE key = 'config'").fetchone()
        expected = db.execute("SELECT value FROM meta WHERE key = 'config_digest'").fetchone()
        if config is None or expected is None or digest(config[0]) != expected[0]:
            raise ResultsCorrupt(f"{where}: the tournament's config was changed or lost; {_ADVICE}")
        seats = _grouped(db.execute("SELECT * FROM seats ORDER BY match_id, seat"))
        faults = _grouped(db.execute("SELECT * FROM faults ORDER BY match_id, rowid"))
        count = 0
        for *fields, stored in db.execute("SELECT * FROM matches ORDER BY id"):
            count += 1
            match_id = fields[0]
            if stored != plain_digest(fields, seats.take(match_id), faults.take(match_id)):  # SQLite gives no booleans
                raise ResultsCorrupt(f"{where}: match {match_id!r} was changed after it was stored; {_ADVICE}")
            if logs and fields[7] is not None:  # its log: the standings of a changed log's match are not that match's
                if timed_out():
                    raise ReadTimeUp(f"reading {where} took longer than this request may take")
                read_stored_log(where, fields[7], match_id, fields[8])
        orphan = seats.rest() or faults.rest()
        if orphan:
            raise ResultsCorrupt(f"{where}: rows of match {orphan!r:.80} without the match itself; {_ADVICE}")
        _check_complete(db, where, count)
    finally:
        db.execute("COMMIT")


class _grouped:
    """Rows (match_id, *fields) sorted by match_id, taken one match at a time in that order."""

    def __init__(self, rows):
        self.rows = iter(rows)
        self.next = next(self.rows, None)
        self.skipped: str | None = None

    def take(self, match_id: str) -> list:
        taken = []
        while self.next is not None and self.next[0] <= match_id:
            if self.next[0] < match_id:
                self.skipped = self.skipped or self.next[0]  # rows of a match that is not there
            else:
                taken.append(list(self.next[1:]))
            self.next = next(self.rows, None)
        return taken

    def rest(self) -> str | None:
        return self.skipped or (self.next[0] if self.next is not None else None)


def _check_complete(db, where: Path, count: int) -> None:
    """Every match the tournament stored is still there; a finished one holds every match of its schedule."""
    meta = dict(db.execute("SELECT key, value FROM meta"))
    if meta.get("matches") != str(count):
        raise ResultsCorrupt(f"{where}: {counted(count, 'match')} stored, "
                             f"the tournament recorded {meta.get('matches')!r:.20}; {_ADVICE}")
    if meta.get("finished") != "yes":
        return
    config = config_of(meta["config"], where)
    try:
        expected = matches_in(config, int(meta["deals_played"]))
    except (KeyError, TypeError, ValueError):
        raise ResultsCorrupt(f"{where}: the record of the finished tournament is incomplete; {_ADVICE}") from None
    if count != expected:
        raise ResultsCorrupt(f"{where}: {counted(count, 'match')} stored, the finished schedule has {expected}; "
                             f"{_ADVICE}")


def config_of(text: str, where: Path) -> dict:
    """The stored config (`text`, its JSON): an object, or ResultsCorrupt (a forger may recompute its digests, so
    its text is read as a stranger's: nested past Python's recursion limit, say)."""
    try:
        config = json.loads(text)
    except (ValueError, RecursionError):
        config = None
    if not isinstance(config, dict):
        raise ResultsCorrupt(f"{where}: the tournament's config is not a JSON object; {_ADVICE}")
    return config


_ADVICE = "the results cannot be trusted: run the tournament again, or restore the directory from a copy"


# ---------------------------------------------------------------- logs


def read_stored_log(directory: Path, name: str, match_id: str, expected_sha256: str | None) -> bytes:
    """The bytes of a match's stored log, checked: its own file under logs/, regular, bounded, unchanged."""
    if name != f"logs/{match_id}.jsonl.gz":  # a log path rewritten to point elsewhere (../.., /dev/zero)
        raise ResultsCorrupt(f"{directory}: match {match_id!r} names the log {name[:80]!r}; {_ADVICE}")
    path = directory / name
    try:
        data = codec.read_file(path)
    except LogError as exc:
        raise ResultsCorrupt(f"{exc}; {_ADVICE}") from None
    if expected_sha256 is not None and sha256(data) != expected_sha256:
        raise ResultsCorrupt(f"{path}: the log was changed after it was stored; {_ADVICE}")
    return data


def parse_stored_log(data: bytes, source: str = "the log") -> list[dict]:
    """The events of a stored (gzip) log; ResultsCorrupt if it is not one."""
    try:
        return codec.decode(data, source, compressed=True)
    except LogError as exc:
        raise ResultsCorrupt(str(exc)) from None
