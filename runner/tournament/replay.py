"""Replaying a stored match: its game log (or, without one, the match re-played from its seed), event by event."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from runner.errors import MaumauError
from runner.seats.external import EXEC_PREFIX
from .integrity import parse_log, read_log
from .store import Store
from .driver import Settings, Slot, unit_of
from runner.logs.verify import verify
from .work import play_unit


def events_of(directory: Path, match_id: str) -> tuple[list[dict], list[str], bool]:
    """Match `match_id` of `directory`: its events, its entrants by seat, and whether it was re-played (no log)."""
    store = Store.open(directory)
    try:
        row = store.match_row(match_id)
        if row is None:
            examples = ", ".join(store.match_ids()) or "none stored yet"
            raise MaumauError(f"no match {match_id!r} in {directory}; ids look like {examples}")
        settings = Settings.from_config(store.config())
        seats = tuple(seat_entrants(store, match_id, settings))
        entrants = [settings.entrants[e] for e in seats]
        if row["log"]:
            data = read_log(directory, row["log"], match_id, row["log_sha256"])
            events = parse_log(data, str(directory / row["log"]))
            verify(events)  # a log that breaks the rules is refused, not narrated
            return events, entrants, False
        slot = Slot(match_id, row["tbl"], row["deal"], row["rotation"], row["seed"], seats)
        unit = unit_of(settings, slot)
        commands = [bot for bot in unit.bots if bot.startswith(EXEC_PREFIX)]
        if commands:  # the stored config names them: a doctored directory must not make replay run programs
            raise MaumauError(f"match {match_id!r} has no stored log, and re-playing it would run {commands[0]!r:.80}; "
                              "replay only re-plays registered bots (run the tournament with --logs)")
        outcome = play_unit(replace(unit, logs=True))
        return parse_log(outcome.log), entrants, True
    finally:
        store.close()


def seat_entrants(store: Store, match_id: str, settings: Settings) -> list[int]:
    rows = store.db.execute("SELECT entrant FROM seats WHERE match_id = ? ORDER BY seat", (match_id,))
    return [settings.entrants.index(entrant) for (entrant,) in rows]


def cards(items) -> str:
    return " ".join(items) if items else "-"


ONE_LINERS = {  # events whose line is their own fields
    "name_suit": "  {who} names {suit}",
    "pass": "  {who} keeps the drawn card and passes",
    "skip": "  {who} is skipped",
    "forfeit": "  {who} forfeits",
    "leave": "  {who} leaves",
    "fault": "  FAULT {who} ({kind}): {detail}",
    "eliminated": "{who} is eliminated with {total}",
    "join": "{player} joins as seat {seat} with {total}",
}


def describe(event: dict, players: list[str]) -> str:
    """One readable line for one log event; `players` names each seat."""
    kind = event["type"]

    def who(seat: int | None) -> str:
        return players[seat] if seat is not None and seat < len(players) else f"seat {seat}"

    if kind == "match_start":
        limit = f", to {event['limit']}" if event.get("limit") is not None else ""
        seats = ", ".join(f"seat {s} {who(s)}" for s in range(len(event["players"])))
        return f"match {event['match']}: {event['ruleset']}{limit}, seed {event['seed']}; {seats}"
    if kind == "round_start":
        hands = "; ".join(f"{who(s)}: {cards(h)}" for s, h in enumerate(event["hands"]) if h)
        label = "deciding round" if event.get("deciding") else "round"
        return (f"{label} {event['round']}: {who(event['dealer'])} deals, {who(event['first'])} leads; "
                f"upcard {cards(event['upcards'])}; hands {hands}; stock {len(event['stock'])} cards")
    if kind == "play":
        extra = (f" naming {event['suit']}" if event.get("suit") else "") + (f", says {event['announce']}" if event.get("announce") else "")
        return f"  {who(event['seat'])} plays {event['card']}{extra}"
    if kind == "draw":
        return f"  {who(event['seat'])} draws {cards(event['cards'])} ({event['reason']})"
    if kind == "reshuffle":
        return f"  the discards are reshuffled into a stock of {len(event['stock'])}"
    if kind == "round_end":
        winner = who(event["winner"]) if event["winner"] is not None else "nobody (blocked)"
        return f"round {event['round']} over: {winner} went out; points {event['points']}; totals {event['totals']}"
    if kind in ONE_LINERS:
        return ONE_LINERS[kind].format_map({**event, "who": who(event.get("seat"))})
    if kind == "match_end":
        order = ", ".join(who(s) for s in event["ranking"])
        return f"match over: winner {' and '.join(who(s) for s in event['winners'])}; ranking {order}; totals {event['totals']}"
    fields = ", ".join(f"{k}={v}" for k, v in event.items() if k != "type")
    return f"  {kind}: {fields}"
