"""The JSON-lines bot protocol: views and actions as JSON, and checked decoding of what a bot sends.

Both sides use it: the referee's proxy for external and isolated bots (runner.external) and
the worker that hosts a registered Python bot in its own process (runner.isolation).
docs/protocol.md is the reference for bot writers.
"""

from __future__ import annotations

import json
import os
import sys
import traceback
from typing import NamedTuple

from runner.game.actions import CHALLENGE, DRAW, PASS, Action, Challenge, Draw, NameSuit, Pass, Play, name_suit, play
from runner.game.cards import RANKS, SUITS, Card
from runner.game.view import Event, View

PROTOCOL_VERSION = 2  # 2: every request carries an id its reply echoes; match_start and match_end want `ready`
MAX_LINE_BYTES = 1 << 20  # one message; a longer line is a protocol violation, not a memory hazard
MAX_TRACEBACK_CHARS = 4000  # of a fault's traceback, its end kept (where the exception was raised)
MAX_TRACEBACK_FRAMES = 30
ANNOUNCEMENTS = ("mau", "maumau")


class ProtocolViolation(Exception):
    """A message that does not follow docs/protocol.md; the text says what was wrong."""


class NotAnAction(NamedTuple):
    """What a bot answered instead of an action; the referee records `detail` as an illegal fault."""

    detail: str


def describe_answer(answer: object) -> str:
    """A short text for any answer, without running the answer's own code (no user __repr__)."""
    kind = type(answer)
    if kind is Play:
        if type(answer.card) is Card and all(type(x) in (str, type(None)) for x in (answer.suit, answer.announce)):
            return f"Play({answer.card}, suit={answer.suit!r:.12}, announce={answer.announce!r:.12})"
        return "a Play whose fields are not a Card and strings"
    if kind is NameSuit:
        return f"NameSuit({answer.suit!r:.12})" if type(answer.suit) is str else "a NameSuit without a suit letter"
    if kind in (Draw, Pass, Challenge):
        return f"{kind.__name__}()"
    if kind in (str, bytes, int, float, bool, type(None)):
        text = repr(answer[:60] if kind in (str, bytes) else answer)
        return text[:80]
    if kind in (list, tuple, dict, set):
        return f"a {kind.__name__} of {len(answer)} items"
    return f"a {type.__getattribute__(kind, '__name__')!s:.60} object"


def exception_traceback(exc: BaseException, skip: int = 1) -> str:
    """The traceback of a bot's exception, as Python prints it, without the first `skip` frames (the runner's
    call of the bot): the files and lines of the bot's code. At most MAX_TRACEBACK_CHARS, the end kept.

    Files are named relative to the import path they were found on (`cautious.py`, not
    `/home/.../site-packages/cautious.py`), so that a match's log does not depend on where it was installed.
    """
    tb = exc.__traceback__
    for _ in range(skip):
        tb = tb.tb_next if tb is not None else None
    try:
        report = traceback.TracebackException(type(exc), exc, tb, limit=-MAX_TRACEBACK_FRAMES)
        # '' on the import path is the current directory
        roots = sorted({os.path.join(os.path.abspath(entry), "") for entry in sys.path}, key=len, reverse=True)
        chain, seen = [report], set()
        while chain:  # the exception and the ones it was raised from or during
            part = chain.pop()
            if id(part) in seen:
                continue
            seen.add(id(part))
            for frame in part.stack:
                frame.filename = _import_relative(frame.filename, roots)
            chain += [other for other in (part.__cause__, part.__context__) if other is not None]
        text = "".join(report.format())
    except Exception:  # a bot's exception may break even its own formatting
        return ""
    return bounded_traceback(text)


def _import_relative(filename: str, roots: list[str]) -> str:
    for root in roots:
        if filename.startswith(root):
            return filename[len(root):]
    return filename


def bounded_traceback(text: object) -> str:
    """A traceback as stored with a fault: text, at most MAX_TRACEBACK_CHARS, its end kept ('' if not text)."""
    if not isinstance(text, str):
        return ""
    text = text.rstrip("\n")
    return text if len(text) <= MAX_TRACEBACK_CHARS else "...\n" + text[-MAX_TRACEBACK_CHARS:]


def encode(message: dict) -> bytes:
    """One message as a line of compact JSON."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode("utf-8") + b"\n"


def decode(line: bytes) -> dict:
    """The JSON object on one line, or ProtocolViolation."""
    try:
        message = json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise ProtocolViolation(f"not a JSON line: {_excerpt(line)}") from None
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise ProtocolViolation(f'expected an object with a "type", got {_excerpt(line)}')
    return message


def _excerpt(line: bytes) -> str:
    text = line[:80].decode("utf-8", "replace")
    return repr(text) + ("..." if len(line) > 80 else "")


# ---------------------------------------------------------------- actions


def action_data(action: Action) -> dict:
    """An action as JSON: {"type": "play", "card": "10H", "suit": null, "announce": null}, {"type": "draw"}, ..."""
    kind = type(action)
    if kind is Play:
        return {"type": "play", "card": action.card.text, "suit": action.suit, "announce": action.announce}
    if kind is NameSuit:
        return {"type": "name_suit", "suit": action.suit}
    return {"type": {Draw: "draw", Pass: "pass", Challenge: "challenge"}[kind]}


def parse_action(data: object) -> Action:
    """The action a bot sent, or ProtocolViolation naming what is malformed (legality is checked later)."""
    if not isinstance(data, dict):
        raise ProtocolViolation(f"an action must be an object, got {type(data).__name__}")
    kind = data.get("type")
    if kind == "play":
        card = _card(data.get("card"))
        suit = data.get("suit")
        if suit is not None and suit not in SUITS:
            raise ProtocolViolation(f"play: suit must be null or one of {' '.join(SUITS)}, got {suit!r:.40}")
        announce = data.get("announce")
        if announce is not None and not isinstance(announce, str):
            raise ProtocolViolation(f'play: announce must be null, "mau" or "maumau", got {announce!r:.40}')
        # as in-process: a wrong announcement is a missed one (a penalty), not a fault
        return play(card, suit, announce if announce in ANNOUNCEMENTS else None)
    if kind == "name_suit":
        suit = data.get("suit")
        if suit not in SUITS:
            raise ProtocolViolation(f"name_suit: suit must be one of {' '.join(SUITS)}, got {suit!r:.40}")
        return name_suit(suit)
    singletons = {"draw": DRAW, "pass": PASS, "challenge": CHALLENGE}
    if isinstance(kind, str) and kind in singletons:
        return singletons[kind]
    raise ProtocolViolation(f"unknown action type {kind!r:.40}; use play, draw, pass, name_suit or challenge")


def _card(text: object) -> Card:
    if not isinstance(text, str) or len(text) not in (2, 3) or text[:-1] not in RANKS or text[-1] not in SUITS:
        raise ProtocolViolation(f"not a card: {text!r:.40} (rank 2-10 J Q K A, then suit C D H S, e.g. 10H)")
    return Card(text[:-1], text[-1])


# ---------------------------------------------------------------- views


def view_data(view: View, history_start: int = 0) -> dict:
    """A view as JSON, without the ruleset (sent once, in match_start).

    `history` holds the round's events from index `history_start` on: the earlier ones were
    in this seat's previous views of the round, so a long round does not cost O(n²) to send.
    """
    cards = _texts
    return {
        "seat": view.seat, "hand": cards(view.hand), "top": view.top.text, "suit": view.suit, "phase": view.phase,
        "pending": view.pending, "direction": view.direction, "hand_sizes": list(view.hand_sizes),
        "stock_size": view.stock_size, "discard": cards(view.discard), "totals": list(view.totals),
        "rounds_won": list(view.rounds_won), "round": view.round, "active": list(view.active),
        "again": view.again, "chain": view.chain, "missed": list(view.missed) if view.missed else None,
        "turns": view.turns, "idle": view.idle, "out": list(view.out), "move_time": view.move_time,
        "time_bank": view.time_bank, "history_start": history_start,
        "history": [_event_data(event) for event in view.history[history_start:]],
        "legal": [action_data(action) for action in view.legal],
    }


def _texts(cards) -> list[str]:
    return [card.text for card in cards]


def _event_data(event: Event) -> dict:
    return {
        "kind": event.kind, "seat": event.seat, "card": event.card.text if event.card else None,
        "suit": event.suit, "count": event.count, "reason": event.reason,
    }


def parse_view(data: dict, ruleset, history: list[Event]) -> View:
    """The View a worker rebuilds from view_data (trusted: it comes from the referee).

    `history` is the round's events received so far; the new ones are appended to it.
    """
    card = _card
    if data["history_start"] != len(history):
        if data["history_start"] != 0:
            raise ProtocolViolation(f"history_start {data['history_start']} but {len(history)} events known")
        history.clear()
    history.extend(Event(e["kind"], e["seat"], card(e["card"]) if e["card"] else None, e["suit"], e["count"],
                         e["reason"]) for e in data["history"])
    return View(
        data["seat"], tuple(card(c) for c in data["hand"]), card(data["top"]), data["suit"], data["phase"],
        data["pending"], data["direction"], tuple(data["hand_sizes"]), data["stock_size"],
        tuple(card(c) for c in data["discard"]), tuple(data["totals"]), tuple(data["rounds_won"]), data["round"],
        tuple(data["active"]), ruleset, tuple(history), tuple(parse_action(a) for a in data["legal"]), data["again"],
        data.get("chain", 0), tuple(missed) if (missed := data.get("missed")) else None, data.get("turns", 0),
        data.get("idle", 0), tuple(data.get("out", ())), move_time=data.get("move_time"),
        time_bank=data.get("time_bank"),
    )
