"""Watching results, read-only: the tournaments under the results directory, their standings, matches and replays,
and `maumau play --log` files there or uploaded.

Everything is read through the tournament layer (runner/tournament: the store with its integrity
checks, the standings, replay) and the log codec with the verifier (runner/logs); nothing here
writes. A tournament or log is named by its path relative to the results directory and found
among what is listed there, so no request can reach outside it.
"""

from __future__ import annotations

import os
from pathlib import Path

from runner.errors import InvalidSetting, MaumauError
from runner.logs import codec
from runner.logs.verify import verify
from runner.tournament.driver import standings_of
from runner.tournament.integrity import ReadTimeUp
from runner.tournament.listing import list_matches
from runner.tournament.replay import events_of
from runner.tournament.settings import Settings
from runner.tournament.standings import standings_data, wilson
from runner.tournament.store import DB_NAME, SEATS_IN_SCHEDULE, Store, deal_bound

from .host import Refused
from .replay import frames

LOG_SUFFIXES = (".jsonl", ".jsonl.gz", ".log", ".log.gz")
CHART_POINTS = 120  # points of each entrant's line in the score chart, however many matches
MAX_LISTED = 500  # tournaments or log files listed at most


class Results:
    """The results directory given to `maumau serve --results`, read-only."""

    def __init__(self, root: Path):
        self.root = root.resolve()
        self._standings: dict[Path, tuple[tuple, dict]] = {}  # per tournament: (its files' stat, the standings)

    # ------------------------------------------------------------------ tournaments

    def tournaments(self) -> list[dict]:
        """Each tournament directory: the results directory itself and those one level below it."""
        found = []
        for path in self._tournament_dirs():
            entry = {"name": self.name_of(path)}
            try:
                store = Store.open(path)
                try:
                    with store.snapshot():
                        settings = Settings.from_config(store.config())
                        entry.update(ruleset=settings.ruleset_name, entrants=list(settings.entrants),
                                     stored=store.count(), planned=settings.match_count(), finished=store.finished())
                finally:
                    store.close()
            except MaumauError as exc:
                entry["error"] = str(exc)
            found.append(entry)
        return found

    def _tournament_dirs(self) -> list[Path]:
        if not self.root.is_dir():
            return []
        below = sorted(child for child in self.root.iterdir() if child.is_dir() and not child.is_symlink())
        candidates = [self.root] + below
        return [path for path in candidates if (path / DB_NAME).is_file()][:MAX_LISTED]

    def name_of(self, path: Path) -> str:
        return path.relative_to(self.root).as_posix() if path != self.root else "."

    def tournament(self, name: str) -> Path:
        """The listed tournament called `name` (never a path made from it)."""
        for path in self._tournament_dirs():
            if self.name_of(path) == name:
                return path
        raise Refused(404, f"no tournament {name!r} in the results directory; see /api/tournaments for the names")

    def standings(self, name: str) -> dict:
        """The standings as `maumau standings DIR --format json` gives them, and how far the tournament is."""
        path = self.tournament(name)
        stamp = _stamp(path)
        cached = self._standings.get(path)
        if cached is not None and cached[0] == stamp:
            return cached[1]
        try:
            # the integrity checks of every read, but the hashing of every log file, which `maumau standings` adds: the
            # page asks again every 3 s while a tournament runs (a match's log is checked when it is replayed)
            store = Store.open(path)
            try:
                with store.snapshot():  # the count beside the standings is of the same matches
                    settings = Settings.from_config(store.config())
                    standings = standings_of(store)
                    progress = {"stored": store.count(), "planned": settings.match_count(),
                                "finished": store.finished()}
            finally:
                store.close()
        except MaumauError as exc:
            raise Refused(503 if isinstance(exc, ReadTimeUp) else 422, str(exc)) from None
        data = {"name": name, "ruleset": settings.ruleset_name, **progress, **standings_data(standings)}
        self._standings[path] = (stamp, data)
        return data

    def history(self, name: str) -> dict:
        """Each entrant's score per match as the matches came in (schedule order), with its 95% band, at most
        CHART_POINTS points a line: the chart of the tournament's page. The band is Wilson's over the matches taken
        as independent, narrower than the standings' (which allows for the rotations of a deal sharing cards)."""
        path = self.tournament(name)
        try:
            store = Store.open(path)
            try:
                with store.snapshot():
                    rows = store.db.execute("SELECT m.id, s.entrant, s.score " + SEATS_IN_SCHEDULE,
                                            (deal_bound(None),)).fetchall()
                    entrants = list(Settings.from_config(store.config()).entrants)
            finally:
                store.close()
        except MaumauError as exc:
            raise Refused(422, str(exc)) from None
        order: list[str] = []
        by_match: dict[str, list[tuple[str, float]]] = {}
        for match_id, entrant, score in rows:
            if match_id not in by_match:
                order.append(match_id)
                by_match[match_id] = []
            by_match[match_id].append((entrant, score))
        every = max(1, -(-len(order) // CHART_POINTS))
        played = {entrant: [0, 0.0] for entrant in entrants}
        series: dict[str, list[list[float]]] = {entrant: [] for entrant in entrants}
        for number, match_id in enumerate(order, 1):
            for entrant, score in by_match[match_id]:
                tally = played.setdefault(entrant, [0, 0.0])
                tally[0] += 1
                tally[1] += score
            if number % every == 0 or number == len(order):
                for entrant, (n, total) in played.items():
                    if n:
                        low, high = wilson(total, n)
                        series.setdefault(entrant, []).append(
                            [number, round(total / n, 4), round(low, 4), round(high, 4)])
        return {"name": name, "matches": len(order), "series": series}

    def matches(self, name: str, bot: str | None, lost: bool, faults: bool, offset: int, limit: int) -> dict:
        """The matches as `maumau matches DIR` lists them, filtered alike; `limit` of them from `offset`."""
        path = self.tournament(name)
        try:
            lines = list_matches(path, bot, lost, faults)
        except MaumauError as exc:
            raise Refused(400 if isinstance(exc, InvalidSetting) else 503 if isinstance(exc, ReadTimeUp) else 422,
                          str(exc)) from None
        return {"total": len(lines), "matches": [
            {"match": line.match, "players": list(line.players), "winners": list(line.winners), "rounds": line.rounds,
             "faults": list(line.faults)} for line in lines[offset:offset + limit]]}

    def match(self, name: str, match_id: str) -> dict:
        """A stored match's frames, every hand face up (re-played from its seed when it has no stored log)."""
        path = self.tournament(name)
        try:
            events, players, replayed = events_of(path, match_id)
        except MaumauError as exc:
            raise Refused(404 if "no match" in str(exc) else 503 if isinstance(exc, ReadTimeUp) else 422,
                          str(exc)) from None
        return {"match": match_id, "tournament": name, "replayed": replayed, **frames(events, players)}

    # ------------------------------------------------------------------ play logs

    def log_files(self) -> list[str]:
        """The game logs under the results directory (`maumau play --log`), not those inside a tournament's logs/."""
        found: list[str] = []
        for folder, subfolders, files in os.walk(self.root):
            here = Path(folder)
            if (here / DB_NAME).is_file():
                subfolders[:] = [name for name in subfolders if name != "logs"]
            subfolders[:] = [name for name in sorted(subfolders) if not (here / name).is_symlink()]
            if len(here.relative_to(self.root).parts) >= 2:
                subfolders[:] = []
            found.extend((here / name).relative_to(self.root).as_posix() for name in sorted(files)
                         if name.endswith(LOG_SUFFIXES) and not (here / name).is_symlink())
            if len(found) >= MAX_LISTED:
                break
        return found[:MAX_LISTED]

    def log_path(self, relative: str) -> Path:
        """The file `relative` names under the results directory: never outside it, never through a link."""
        if not relative or "\x00" in relative or Path(relative).is_absolute():
            raise Refused(400, f"path must be relative to the results directory, got {relative[:80]!r}")
        path = (self.root / relative).resolve()
        if not path.is_relative_to(self.root) or path == self.root:
            raise Refused(403, f"{relative[:80]!r} is outside the results directory")
        if not path.is_file():
            raise Refused(404, f"no file {relative[:80]!r} in the results directory; "
                               "see /api/logs for the game logs there")
        return path

    def log_replay(self, relative: str) -> dict:
        path = self.log_path(relative)
        return log_frames(codec.read_file(path), relative)


def log_frames(data: bytes, source: str) -> dict:
    """The frames of a game log's bytes (plain or gzip), checked by the verifier first."""
    try:
        events = codec.decode(data, source)
        if not events:
            raise MaumauError(f"{source} holds no events")
        verify(events)  # a log that breaks the rules is refused, not shown; it begins with match_start
    except MaumauError as exc:
        raise Refused(422, f"{source}: {exc}" if not str(exc).startswith(source) else str(exc)) from None
    return {"source": source, **frames(events, [str(player) for player in events[0].get("players", [])], numbered=True)}


def _stamp(path: Path) -> tuple:
    """What changes when a tournament stores a match: its database files' sizes and times."""
    stamp = []
    for name in (DB_NAME, DB_NAME + "-wal"):
        try:
            info = (path / name).stat()
            stamp.append((info.st_size, info.st_mtime_ns))
        except OSError:
            stamp.append(None)
    return tuple(stamp)
