"""A tournament's results directory: an SQLite database committed as results arrive, and gzip game logs.

Layout of `DIR/`: `tournament.sqlite` (the config with the resolved ruleset and seed, one row
per match, per seat and per fault) and `logs/<match id>.jsonl.gz`. A log file is written (by
the worker that played the match, or here) before its match's row is committed, so a committed
match always has its whole log. Each match row carries its log's SHA-256 and a digest of its
rows (runner.integrity), checked whenever the directory is opened: damaged or edited results
are refused, never read. Results are read back as a stream, in schedule order: a tournament of
any length is summed up in constant memory.
"""

from __future__ import annotations

import fcntl
import json
import os
import sqlite3
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Mapping, Sequence

from runner.errors import MaumauError
from runner.table.referee import Fault

from .integrity import (
    META_DIGEST,
    ReadTimeUp,
    check_database,
    check_rows,
    check_schema,
    config_of,
    digest,
    fault_row,
    match_digest,
    meta_digest,
    read_deadline,
    schema_of,
    timed_out,
)
from .logfiles import LOGS, store_log
from .schedule import Slot, deal_key
from .work import MatchOutcome, SeatOutcome

DB_NAME = "tournament.sqlite"
LOCK_NAME = "tournament.lock"  # held (flock) by the one run writing the directory
# 2: each match row carries its log's SHA-256 and a digest of its rows (runner/tournament/integrity.py);
# 3: the meta rows (the count of stored matches included) carry a digest too; 4: a fault row carries the bot's traceback
SCHEMA_VERSION = 4

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS matches (
    id TEXT PRIMARY KEY, tbl INTEGER NOT NULL, deal INTEGER NOT NULL, rotation INTEGER NOT NULL,
    seed INTEGER NOT NULL, rounds INTEGER NOT NULL, decisions INTEGER NOT NULL, log TEXT,
    log_sha256 TEXT, digest TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS seats (
    match_id TEXT NOT NULL REFERENCES matches(id), seat INTEGER NOT NULL, entrant TEXT NOT NULL,
    bot TEXT NOT NULL, place INTEGER NOT NULL, score REAL NOT NULL, points INTEGER NOT NULL,
    rounds INTEGER NOT NULL, rounds_won INTEGER NOT NULL, faults INTEGER NOT NULL, forfeited INTEGER NOT NULL,
    PRIMARY KEY (match_id, seat)
);
-- schedule order, so that reading the results in it needs no sort however many there are
CREATE INDEX IF NOT EXISTS matches_in_order ON matches (deal, tbl, rotation);
CREATE TABLE IF NOT EXISTS faults (
    match_id TEXT NOT NULL REFERENCES matches(id), seat INTEGER NOT NULL, bot TEXT NOT NULL,
    kind TEXT NOT NULL, detail TEXT NOT NULL, round INTEGER NOT NULL, traceback TEXT NOT NULL
);
"""
# The table an analysis keeps beside a tournament's rows (runner/analysis/runs.py): each match's counts. Every reader
# accepts it where it is, so that an analysis' cell reads as any tournament does (standings, replays, the server).
# The meta row that marks an analysis cell (runner/analysis/runs.py FigureStore): the deals it is complete through,
# or '' while it is not
ANALYSIS = "analysis_deals"
FIGURES_SCHEMA = "CREATE TABLE IF NOT EXISTS figures (match_id TEXT PRIMARY KEY, data TEXT NOT NULL);"


# The longest text or blob a read takes from the database (SQLITE_LIMIT_LENGTH): far above any row maumau writes
# (a config with its resolved ruleset is kilobytes, a traceback is cut short), far below what would exhaust memory.
MAX_VALUE_BYTES = 16 << 20
# SQLite calls a request's time check (`read_deadline`) every this many of its virtual machine's steps: tens of
# microseconds apart, a cost of about 1% to the reads of the server only.
PROGRESS_STEPS = 1000
# the seats of the stored matches of the first deals (a bound, `deal_bound`), in schedule order: deal, table, rotation
SEATS_IN_SCHEDULE = """FROM matches m JOIN seats s ON s.match_id = m.id WHERE m.deal < ?
                       ORDER BY m.deal, m.tbl, m.rotation, s.seat"""


def deal_bound(deals: int | None) -> int:
    """The deal a reading of the first `deals` deals stops before: past every deal if None."""
    return deals if deals is not None else 2**62


class Store:
    """The results of one tournament, in `directory`."""

    def __init__(self, directory: Path, db: sqlite3.Connection, lock: int | None = None):
        self.directory, self.db, self.lock = directory, db, lock

    # ------------------------------------------------------------ opening
    @classmethod
    def create(cls, directory: Path, config: dict) -> "Store":
        """A new results directory for a tournament with `config`; refuses to overwrite one, or one in use,
        or to write among files that are not a tournament's."""
        if not (directory / DB_NAME).exists() and _foreign_files(directory):  # results could not be told from them
            raise MaumauError(f"{directory} holds other files and no tournament; choose a new or empty directory "
                              "for --out")
        try:
            (directory / LOGS).mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise MaumauError(f"cannot create the results directory {directory}: {exc.strerror}") from None
        lock = lock_directory(directory)
        try:
            if (directory / DB_NAME).exists():
                raise MaumauError(
                    f"{directory} already holds a tournament; add --resume to continue it, or choose another --out"
                )
            store = cls(directory, connect(directory / DB_NAME), lock)
        except BaseException:
            os.close(lock)
            raise
        with store.writing():
            store.db.executescript(SCHEMA)
            store.db.executemany(
                "INSERT INTO meta VALUES (?, ?)",
                [("schema", str(SCHEMA_VERSION)), ("config", json.dumps(config, sort_keys=True)), ("finished", ""),
                 ("config_digest", digest(json.dumps(config, sort_keys=True))), ("matches", "0")],
            )
            store.seal()
        return store

    @classmethod
    def open(cls, directory: Path, logs: bool = False) -> "Store":
        """The tournament stored in `directory`; with `logs`, its stored log files checked too (each read whole:
        for the standings, --resume and --extend, not for a look at one match)."""
        path = directory / DB_NAME
        if timed_out():
            raise ReadTimeUp(f"reading {path} took longer than this request may take")
        if not path.is_file():
            raise MaumauError(f"{directory} holds no tournament (no {DB_NAME}); run `maumau tournament --out "
                              f"{directory}` first")
        try:
            store = cls(directory, connect(path))
        except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
            raise MaumauError(f"{path} is not a readable maumau results database ({exc})") from None
        try:
            # before any row is read: a view or trigger in place of a table would run whatever query it holds
            check_schema(store.db, path, WRITTEN_SCHEMA, FIGURES_OBJECTS)
            check_database(store.db, directory)
            store.meta("config")
            if store.meta("schema") != str(SCHEMA_VERSION):
                raise MaumauError(
                    f"{path} was written by another version of maumau (schema {store.meta('schema')!r:.10}, "
                    f"this one reads {SCHEMA_VERSION}); run the tournament again with this version"
                )
            check_rows(store.db, directory, logs)  # refuse results changed or damaged since they were written
        except (sqlite3.DatabaseError, KeyError, UnicodeDecodeError) as exc:  # a text that is not UTF-8 any more
            store.close()
            if timed_out():
                raise ReadTimeUp(f"reading {path} took longer than this request may take") from None
            raise MaumauError(f"{path} is not a readable maumau results database ({exc})") from None
        except MaumauError:
            store.close()
            raise
        return store

    @classmethod
    def resume(cls, directory: Path, config: dict) -> "Store":
        """The stored tournament in `directory`, if it is the one `config` describes."""
        if not (directory / DB_NAME).exists():
            raise MaumauError(f"nothing to resume in {directory} (no {DB_NAME}); leave out --resume to start it")
        lock = lock_directory(directory)
        try:
            store = cls.open(directory, logs=True)
        except BaseException:
            os.close(lock)
            raise
        store.lock = lock
        difference = first_difference(store.config(), json.loads(json.dumps(config)))
        if difference:
            store.close()
            raise MaumauError(
                f"{directory} holds another tournament ({difference}); "
                "resume with the options it was started with, or choose another --out"
            )
        return store

    def close(self) -> None:
        self.db.close()
        if self.lock is not None:
            os.close(self.lock)  # releases the flock
            self.lock = None

    @contextmanager
    def writing(self) -> Iterator[None]:
        """One committed transaction; a failure to write (a full disk, say) is one error naming the database."""
        try:
            with self.db:
                yield
        except sqlite3.Error as exc:
            raise MaumauError(
                f"cannot store results in {self.directory / DB_NAME}: {exc}; free some space (or fix the directory), "
                f"then continue with the same command plus --resume --out {self.directory}"
            ) from None

    # ------------------------------------------------------------ reading
    def meta(self, key: str) -> str:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        if row is None:
            raise KeyError(key)
        return row[0]

    def config(self) -> dict:
        return config_of(self.meta("config"), self.directory)

    def done(self) -> set[str]:
        """Ids of the matches already stored (all of them in memory: for checks, not for the driver)."""
        return {row[0] for row in self.db.execute("SELECT id FROM matches")}

    def stored_among(self, match_ids: Sequence[str]) -> set[str]:
        """Which of `match_ids` (a deal's, say) are stored already."""
        marks = ", ".join("?" * len(match_ids))
        return {row[0] for row in self.db.execute(f"SELECT id FROM matches WHERE id IN ({marks})", match_ids)}

    def last_deal(self) -> int:
        """The highest deal with a stored match (-1 if none)."""
        value = self.db.execute("SELECT MAX(deal) FROM matches").fetchone()[0]
        return -1 if value is None else value

    def count(self, deals: range | None = None) -> int:
        """Matches stored (of `deals` only, if given)."""
        if deals is None:
            return self.db.execute("SELECT COUNT(*) FROM matches").fetchone()[0]
        query = "SELECT COUNT(*) FROM matches WHERE deal >= ? AND deal < ?"
        return self.db.execute(query, (deals.start, deals.stop)).fetchone()[0]

    def scored(self, deals: int | None = None) -> Iterator[tuple[str, list[SeatOutcome]]]:
        """Each stored match (of the first `deals` deals) as its deal's block (`deal_key`) and its
        seats, in schedule order (deal, table, rotation): read from the database as it goes, never all held."""
        query = """SELECT s.match_id, m.tbl, m.deal, s.seat, s.entrant, s.bot, s.place, s.score, s.points,
                          s.rounds, s.rounds_won, s.faults, s.forfeited """ + SEATS_IN_SCHEDULE
        current, block, seats = None, "", []
        make = SeatOutcome._make  # the standings read every seat twice, one after another: the fewest steps a row
        for row in self.db.execute(query, (deal_bound(deals),)):
            if row[0] != current:
                if seats:
                    yield block, seats
                current, block, seats = row[0], deal_key(row[1], row[2]), []
            seats.append(make((*row[3:12], row[12] != 0)))  # forfeited: SQLite gives an integer
        if seats:
            yield block, seats

    def placings(self, deals: int | None = None) -> Iterator[tuple[str, tuple[str, ...], tuple[int, ...],
                                                                   tuple[float, ...]]]:
        """Each stored match (of the first `deals` deals) as its block (as `scored` names it) and its seats' entrants,
        places and scores, in schedule order: the standings' second reading, three of a seat's columns, not eleven."""
        query = "SELECT m.rowid, m.tbl, m.deal, s.entrant, s.place, s.score " + SEATS_IN_SCHEDULE
        current, block = None, ""
        labels: list[str] = []
        places: list[int] = []
        scores: list[float] = []
        for match, table, deal, entrant, place, score in self.db.execute(query, (deal_bound(deals),)):
            if match != current:  # a match's rowid: an integer, cheaper to read and compare than its id
                if labels:
                    yield block, tuple(labels), tuple(places), tuple(scores)
                current, block, labels, places, scores = match, deal_key(table, deal), [], [], []
            labels.append(entrant)
            places.append(place)
            scores.append(score)
        if labels:
            yield block, tuple(labels), tuple(places), tuple(scores)

    @contextmanager
    def snapshot(self) -> Iterator[None]:
        """One read transaction: every read inside sees the same matches, even while a tournament adds more."""
        if self.db.in_transaction:
            yield
            return
        self.db.execute("BEGIN")
        try:
            yield
        finally:
            self.db.execute("COMMIT")

    def results(self, deals: int | None = None) -> list[tuple[str, list[SeatOutcome]]]:
        """`scored(deals)` as a list: for a tournament small enough to hold."""
        return list(self.scored(deals))

    def match_row(self, match_id: str) -> dict | None:
        cursor = self.db.execute("SELECT * FROM matches WHERE id = ?", (match_id,))
        row = cursor.fetchone()
        if row is None:
            return None
        return dict(zip([c[0] for c in cursor.description], row))

    def match_ids(self, limit: int = 3) -> list[str]:
        return [r[0] for r in self.db.execute("SELECT id FROM matches ORDER BY deal, tbl, rotation LIMIT ?", (limit,))]

    def finished(self) -> bool:
        return self.meta("finished") == "yes"

    # ------------------------------------------------------------ writing
    def add(self, outcomes: list[MatchOutcome], slots: Mapping[str, Slot]) -> None:
        """Store finished matches: their logs first (unless their worker wrote them), then their rows in one
        committed transaction.

        `slots` maps each match id to its place in the schedule (table, deal, rotation, seed). A match's
        digest is the one its worker computed, if it did (runner/tournament/work.py), else computed here.
        """
        matches, seats, faults = [], [], []
        for outcome in outcomes:
            slot = slots[outcome.match_id]
            log_name, log_hash = outcome.log_name, outcome.log_sha256
            if outcome.log is not None:
                log_name, log_hash = store_log(self.directory, outcome.match_id, outcome.log)
            row = (outcome.match_id, slot.table, slot.deal, slot.rotation, slot.seed, outcome.rounds,
                   outcome.decisions, log_name, log_hash)
            matches.append((*row, outcome.digest or match_digest(row, outcome.seats, outcome.faults)))
            # a seat's row as integrity.seat_row makes it, `forfeited` the integer SQLite stores: handed a bool,
            # Python's sqlite3 first looks for an adapter (3,000 instructions a row), then stores the same 0 or 1;
            # written out, not called: calling seat_row costs the driver 0.6 us a four-seat match (timeit), on the
            # cores the workers share
            seats.extend((outcome.match_id, *seat[:9], 1 if seat[9] else 0) for seat in outcome.seats)
            faults.extend((outcome.match_id, *fault_row(fault)) for fault in outcome.faults)
        with self.writing():
            self.db.executemany("INSERT INTO matches VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", matches)
            self.db.executemany("INSERT INTO seats VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", seats)
            self.db.executemany("INSERT INTO faults VALUES (?, ?, ?, ?, ?, ?, ?)", faults)
            self.db.execute("UPDATE meta SET value = CAST(value AS INTEGER) + ? WHERE key = 'matches'", (len(matches),))
            self.seal()

    def replace_config(self, config: dict) -> None:
        """Store `config` (a tournament extended by entrants) in place of the config: it is unfinished again."""
        text = json.dumps(config, sort_keys=True)
        with self.writing():
            self.db.executemany("UPDATE meta SET value = ? WHERE key = ?",
                                [(text, "config"), (digest(text), "config_digest"), ("", "finished")])
            self.seal()

    def mark_finished(self, deals: int, looks: int = 1) -> None:
        """The tournament is over after `deals` deals, decided at its `looks`-th look at the standings."""
        with self.writing():
            self.db.execute("UPDATE meta SET value = 'yes' WHERE key = 'finished'")
            self.db.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)",
                                [("deals_played", str(deals)), ("looks", str(looks))])
            self.seal()

    def seal(self) -> None:
        """Inside a write transaction: the digest of the meta rows as they now are (runner/tournament/integrity.py)."""
        rows = dict(self.db.execute("SELECT key, value FROM meta WHERE key != ?", (META_DIGEST,)))
        self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (META_DIGEST, meta_digest(rows)))

    def faults(self) -> list[tuple[str, Fault]]:
        rows = self.db.execute("SELECT match_id, seat, bot, kind, detail, round, traceback FROM faults ORDER BY rowid")
        return [(match_id, Fault(seat=seat, player=bot, kind=kind, detail=detail, round=round_, traceback=traceback))
                for match_id, seat, bot, kind, detail, round_, traceback in rows]


def _foreign_files(directory: Path) -> bool:
    """Whether `directory` holds anything but what a tournament's start leaves (an empty logs/, the lock file)."""
    try:
        entries = list(directory.iterdir())
    except (FileNotFoundError, NotADirectoryError):
        return False
    return any(not (entry.name == LOCK_NAME or (entry.name == LOGS and entry.is_dir() and not any(entry.iterdir())))
               for entry in entries)


def lock_directory(directory: Path) -> int:
    """An exclusive lock on the results directory, held until its descriptor is closed (or the process dies);
    a directory another run holds is refused, naming that run's process."""
    path = directory / LOCK_NAME
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise MaumauError(f"cannot create {path}: {exc.strerror}; choose another --out") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip() or "unknown"
        os.close(fd)
        raise MaumauError(f"{directory} is in use by another tournament (process {holder}); wait for it to end, "
                          "or choose another --out") from None
    os.ftruncate(fd, 0)
    os.pwrite(fd, str(os.getpid()).encode(), 0)
    return fd


def connect(path: Path) -> sqlite3.Connection:
    db = sqlite3.connect(path, timeout=30)
    # a database is a stranger's file too (a bot under --isolate may write the results directory): no value read
    # from it is larger than maumau writes, no function a view or trigger names runs (they are refused anyway),
    # and a request of the server stops reading when its time is up
    db.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, MAX_VALUE_BYTES)
    db.execute("PRAGMA trusted_schema = OFF")
    deadline = read_deadline.get()
    if deadline is not None:
        db.set_progress_handler(lambda: time.monotonic() > deadline, PROGRESS_STEPS)
    # WAL with synchronous=NORMAL: a commit survives kill -9 of this process and costs no fsync
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")
    return db


def _written_schema(script: str) -> dict[tuple[str, str], tuple[str, str]]:
    memory = sqlite3.connect(":memory:")
    try:
        memory.executescript(script)
        return schema_of(memory)
    finally:
        memory.close()


WRITTEN_SCHEMA = _written_schema(SCHEMA)  # the tables and indexes `Store.create` makes, as SQLite records them
FIGURES_OBJECTS = _written_schema(FIGURES_SCHEMA)  # an analysis' table (and its key's index), where there is one


def first_difference(stored: dict, given: dict) -> str:
    """`key: A there, B here` for the first setting that differs, or '' if none does."""
    for key in sorted(set(stored) | set(given)):
        if stored.get(key) != given.get(key):
            there, here = stored.get(key), given.get(key)
            if isinstance(there, (dict, list)) or isinstance(here, (dict, list)):
                return f"{key} differ"
            return f"{key}: {there!r} there, {here!r} here"
    return ""
