"""Replaying a match: a stored tournament match (its log, or without one re-played from its seed), or a log file."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

from runner.errors import MaumauError
from runner.logs import codec
from runner.logs.verify import verify
from runner.seats.external import EXEC_PREFIX

from .deals import Deal, load_book
from .integrity import parse_stored_log, read_stored_log
from .schedule import Slot, unit_of
from .settings import Settings
from .store import Store
from .work import play_unit


def events_of(directory: Path, match_id: str) -> tuple[list[dict], list[str], bool]:
    """Match `match_id` of `directory`: its events, its entrants by seat, and whether it was re-played (no log)."""
    store = Store.open(directory)
    try:
        return stored_events(store, Settings.from_config(store.config()), match_id)
    finally:
        store.close()


def stored_events(store: Store, settings: Settings, match_id: str,
                  book: list[Deal] | None = None) -> tuple[list[dict], list[str], bool]:
    """`events_of` in an open store; `book`: the tournament's deals, if it plays a deal file (read when not given)."""
    directory = store.directory
    row = store.match_row(match_id)
    if row is None:
        examples = ", ".join(store.match_ids()) or "none stored yet"
        raise MaumauError(f"no match {match_id!r} in {directory}; ids look like {examples}")
    seats = tuple(seat_entrants(store, match_id, settings))
    entrants = [settings.entrants[e] for e in seats]
    if row["log"]:
        data = read_stored_log(directory, row["log"], match_id, row["log_sha256"])
        events = parse_stored_log(data, str(directory / row["log"]))
        verify(events)  # a log that breaks the rules is refused, not narrated
        return events, entrants, False
    slot = Slot(match_id=match_id, table=row["tbl"], deal=row["deal"], rotation=row["rotation"], seed=row["seed"],
                seats=seats)
    if book is None and settings.deals_file is not None:
        book = load_book(directory, settings.deals_sha256)
    unit = unit_of(settings, slot, book=book)
    commands = [bot for bot in unit.bots if bot.startswith(EXEC_PREFIX)]
    if commands:  # the stored config names them: a doctored directory must not make replay run programs
        raise MaumauError(f"match {match_id!r} has no stored log, and re-playing it would run {commands[0]!r:.80}; "
                          "replay only re-plays registered bots (run the tournament with --logs)")
    outcome = play_unit(unit._replace(logs=True))
    return parse_stored_log(outcome.log), entrants, True


RESERVED = ("true", "false", "null", "yes", "no", "on", "off", "none", "y", "n")  # words YAML reads as not text


def play_command(directory: Path, match_id: str) -> str:
    """The `maumau play` command that plays match `match_id` of `directory` again: its ruleset, overrides, seats
    and seed (a match is a function of them: DESIGN.md), and the fault settings that decide what follows a fault."""
    store = Store.open(directory)
    try:
        settings = Settings.from_config(store.config())
        row = store.match_row(match_id)
        if row is None:
            raise MaumauError(f"no match {match_id!r} in {directory}")
        seats = seat_entrants(store, match_id, settings)
    finally:
        store.close()
    if settings.deals_file is not None:
        return (f"(match {match_id} was dealt from the deal file {settings.deals_file}: `maumau play` deals from "
                "its seed, so it cannot play this match again)")
    words = ["maumau", "play", "-r", settings.ruleset_name]
    words += [w for key, value in settings.overrides.items() for w in ("--set", f"{key}={yaml_scalar(value)}")]
    words += [w for entrant in seats for w in ("-b", settings.bots[entrant])]
    words += ["--seed", str(row["seed"])]
    faults = settings.faults
    if faults.policy != "forfeit":
        words += ["--on-fault", faults.policy]
    if faults.move_time != 1.0:  # play's default
        words += ["--move-time", f"{faults.move_time or 0:g}"]
    words += ["--time-bank", f"{faults.time_bank:g}"] if faults.time_bank else []
    words += ["--sandbox"] if faults.sandbox else ["--isolate"] if faults.isolate else []
    return " ".join(shlex.quote(word) for word in words)


def yaml_scalar(value: object) -> str:
    """A --set value as text that reads back as it (runner/rules/overrides.py reads YAML): a word as it is."""
    plain = isinstance(value, str) and re.fullmatch(r"[A-Za-z][\w-]*", value) and value.lower() not in RESERVED
    return value if plain else json.dumps(value)  # type: ignore[return-value]  # plain: a str


def events_of_file(path: Path) -> tuple[list[dict], list[str]]:
    """The events of the game log file at `path` (`maumau play --log`), checked by the verifier, and its players."""
    events = codec.read_log(path)
    verify(events)  # a log that breaks the rules is refused, not narrated; it begins with match_start
    return events, [str(player) for player in events[0]["players"]]


def seat_entrants(store: Store, match_id: str, settings: Settings) -> list[int]:
    rows = store.db.execute("SELECT entrant FROM seats WHERE match_id = ? ORDER BY seat", (match_id,))
    return [settings.entrants.index(entrant) for (entrant,) in rows]
