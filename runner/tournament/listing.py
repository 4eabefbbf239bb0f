"""Listing a stored tournament's matches (`maumau matches DIR`), filtered by entrant, by losses and by faults."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from pathlib import Path

from runner.errors import InvalidSetting

from .settings import Settings
from .store import Store


@dataclass(frozen=True, kw_only=True)
class MatchLine:
    """One stored match as listed: its id (what `maumau replay DIR --match ID` takes), who sat where, who won."""

    match: str
    players: tuple[str, ...]  # entrant labels, by seat
    winners: tuple[str, ...]
    rounds: int
    faults: tuple[str, ...]  # `entrant:kind` of each of its faults, in order


def list_matches(directory: Path, bot: str | None = None, lost: bool = False, faults: bool = False) -> list[MatchLine]:
    """The matches stored in `directory`, in schedule order: all, or those where `bot` sat (an entrant label
    or a bot name, all of its entrants), that it lost (`lost`: it did not share first place), or with faults
    (`faults`: `bot`'s own, if given). The matches are read as a stream; only those listed are held."""
    if lost and bot is None:
        raise InvalidSetting("{0} needs {1}: the matches which bot lost?", "lost", "bot")
    store = Store.open(directory)
    try:
        settings = Settings.from_config(store.config())
        if bot is not None and bot not in settings.entrants and bot not in settings.bots:
            raise InvalidSetting(f"{{0}} {bot!r} did not play in {directory}; its entrants: "
                                 f"{', '.join(settings.entrants)}", "bot")
        kinds: dict[str, list[tuple[int, str]]] = {}  # faults are few: held by match
        for match_id, seat, kind in store.db.execute("SELECT match_id, seat, kind FROM faults ORDER BY rowid"):
            kinds.setdefault(match_id, []).append((seat, kind))
        query = """SELECT m.id, m.rounds, s.seat, s.entrant, s.bot, s.place
                   FROM matches m JOIN seats s ON s.match_id = m.id ORDER BY m.deal, m.tbl, m.rotation, s.seat"""
        lines = []
        for match_id, group in itertools.groupby(store.db.execute(query), key=lambda row: row[0]):
            rows = list(group)
            line = _line(rows, kinds.get(match_id, []), bot, lost, faults)
            if line is not None:
                lines.append(line)
        return lines
    finally:
        store.close()


def _line(rows: list[tuple], kinds: list[tuple[int, str]], bot: str | None, lost: bool,
          faults: bool) -> MatchLine | None:
    """The listed line of one match (its seats' rows), or None if the filters leave it out."""
    mine = {seat for _, _, seat, entrant, name, _ in rows if bot is None or bot in (entrant, name)}
    if not mine:
        return None
    if lost and all(place == 1 for _, _, seat, _, _, place in rows if seat in mine):
        return None
    if faults and not any(seat in mine for seat, _ in kinds):
        return None
    players = tuple(row[3] for row in rows)
    return MatchLine(match=rows[0][0], players=players, winners=tuple(row[3] for row in rows if row[5] == 1),
                     rounds=rows[0][1], faults=tuple(f"{players[seat]}:{kind}" for seat, kind in kinds))
