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

from runner.game.actions import (
    CHALLENGE,
    DRAW,
    PASS,
    Action,
    Challenge,
    Draw,
    Give,
    NameSuit,
    Pass,
    Play,
    Swap,
    give,
    name_suit,
    play,
    swap,
)
from runner.game.cards import JOKER, JOKER_COLOURS, RANKS, SUITS, Card
from runner.game.round_state import view_of
from runner.game.view import Event, Resume, View

PROTOCOL_VERSION = 2  # 2: every request carries an id its reply echoes; match_start and match_end want `ready`
# The versions a bot may speak: 1 (no ids, nothing answers match_start or match_end) is a published contract that
# bots were written to, so it still plays, checked as it was (runner/seats/external.py BotProcess.request).
SPOKEN_VERSIONS = (1, PROTOCOL_VERSION)
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
        if well_typed(answer):
            more = f", more=({' '.join(card.text for card in answer.more)})" if answer.more else ""
            rank = f", rank={answer.rank!r:.4}" if answer.rank is not None else ""
            return f"Play({answer.card}, suit={answer.suit!r:.12}, announce={answer.announce!r:.12}{more}{rank})"
        return "a Play whose fields are not a Card, strings and a tuple of Cards"
    if kind is NameSuit:
        return f"NameSuit({answer.suit!r:.12})" if type(answer.suit) is str else "a NameSuit without a suit letter"
    if kind is Swap:
        return f"Swap({answer.seat})" if type(answer.seat) is int else "a Swap without a seat number"
    if kind is Give:
        return f"Give({answer.card})" if type(answer.card) is Card else "a Give without a Card"
    if kind in (Draw, Pass, Challenge):
        return f"{kind.__name__}()"
    if kind in (str, bytes, int, float, bool, type(None)):
        text = repr(answer[:60] if kind in (str, bytes) else answer)
        return text[:80]
    if kind in (list, tuple, dict, set):
        return f"a {kind.__name__} of {len(answer)} items"
    return f"a {type.__getattribute__(kind, '__name__')!s:.60} object"


def well_typed(action: object) -> bool:
    """Whether an answer is an action whose fields have exactly their types (checked by exact type, never
    running the answer's own code), so that it can be written as protocol JSON."""
    kind = type(action)
    if kind is Play:
        more = action.more
        return (type(action.card) is Card and all(type(x) in (str, type(None)) for x in (
            action.suit, action.announce, action.rank)) and type(more) is tuple and len(more) <= MAX_MORE
            and all(type(card) is Card for card in more))
    if kind is NameSuit:
        return type(action.suit) is str
    if kind is Swap:
        return type(action.seat) is int
    if kind is Give:
        return type(action.card) is Card
    return kind in (Draw, Pass, Challenge)


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

MAX_MORE = 200  # cards in one play: more than any deck holds is malformed, not a long loop
# The fields each action type may carry (besides "type"); any other field is malformed.
ACTION_FIELDS = {
    "play": frozenset(("card", "suit", "announce", "more", "rank")), "name_suit": frozenset(("suit",)),
    "swap": frozenset(("seat",)), "give": frozenset(("card",)),
    "draw": frozenset(), "pass": frozenset(), "challenge": frozenset(),
}


def action_data(action: Action) -> dict:
    """An action as JSON: {"type": "play", "card": "10H", "suit": null, "announce": null}, {"type": "draw"}, ...

    A play of several cards adds "more" (the further cards, in play order), a rank wish "rank":
    only where they are used, so the actions of rulesets without them read as before.
    """
    kind = type(action)
    if kind is Play:
        data = {"type": "play", "card": action.card.text, "suit": action.suit, "announce": action.announce}
        if action.more:
            data["more"] = _texts(action.more)
        if action.rank is not None:
            data["rank"] = action.rank
        return data
    if kind is NameSuit:
        return {"type": "name_suit", "suit": action.suit}
    if kind is Swap:
        return {"type": "swap", "seat": action.seat}
    if kind is Give:
        return {"type": "give", "card": action.card.text}
    return {"type": {Draw: "draw", Pass: "pass", Challenge: "challenge"}[kind]}


def parse_action(data: object) -> Action:
    """The action a bot sent, or ProtocolViolation naming what is malformed (legality is checked later).

    Checked exactly: the type is known, every field is one its type has, and each field has its
    type (a card's notation, a suit letter, a rank, a seat number, a list of cards).
    """
    if not isinstance(data, dict):
        raise ProtocolViolation(f"an action must be an object, got {type(data).__name__}")
    kind = data.get("type")
    fields = ACTION_FIELDS.get(kind) if isinstance(kind, str) else None
    if fields is None:
        raise ProtocolViolation(f"unknown action type {kind!r:.40}; use {', '.join(ACTION_FIELDS)}")
    unknown = sorted(str(key)[:20] for key in data if key != "type" and key not in fields)
    if unknown:
        raise ProtocolViolation(f"{kind}: unknown field {unknown[0]!r}; a {kind} has "
                                f"{', '.join(sorted(fields)) or 'no other fields'}")
    if kind == "play":
        return _parse_play(data)
    if kind == "name_suit":
        suit = data.get("suit")
        if suit not in SUITS:
            raise ProtocolViolation(f"name_suit: suit must be one of {' '.join(SUITS)}, got {suit!r:.40}")
        return name_suit(suit)
    if kind == "swap":
        seat = data.get("seat")
        if type(seat) is not int or not 0 <= seat < 1000:
            raise ProtocolViolation(f"swap: seat must be a seat number (an integer from 0), got {seat!r:.40}")
        return swap(seat)
    if kind == "give":
        return give(_card(data.get("card")))
    return {"draw": DRAW, "pass": PASS, "challenge": CHALLENGE}[kind]


def _parse_play(data: dict) -> Play:
    card = _card(data.get("card"))
    suit = data.get("suit")
    if suit is not None and suit not in SUITS:
        raise ProtocolViolation(f"play: suit must be null or one of {' '.join(SUITS)}, got {suit!r:.40}")
    announce = data.get("announce")
    if announce is not None and not isinstance(announce, str):
        raise ProtocolViolation(f'play: announce must be null, "mau" or "maumau", got {announce!r:.40}')
    more = data.get("more", [])
    if not isinstance(more, list) or len(more) > MAX_MORE:
        raise ProtocolViolation(f"play: more must be a list of cards (the cards after card, in play order), got "
                                f"{type(more).__name__ if not isinstance(more, list) else f'{len(more)} items'}")
    rank = data.get("rank")
    if rank is not None and (not isinstance(rank, str) or rank not in RANKS):
        raise ProtocolViolation(f"play: rank must be null or a rank ({' '.join(RANKS)}), got {rank!r:.40}")
    # as in-process: a wrong announcement is a missed one (a penalty), not a fault
    return play(card, suit, announce if announce in ANNOUNCEMENTS else None, tuple(_card(c) for c in more), rank)


def _card(text: object) -> Card:
    if isinstance(text, str) and len(text) in (2, 3):
        rank, suit = text[:-1], text[-1]
        if rank in RANKS and suit in SUITS or rank == JOKER and suit in JOKER_COLOURS:
            return Card(rank, suit)
    raise ProtocolViolation(f"not a card: {text!r:.40} (rank 2-10 J Q K A, then suit C D H S, e.g. 10H; "
                            "jokers XR, XB)")


# ---------------------------------------------------------------- views


def view_data(view: View, history_start: int = 0) -> dict:
    """A view as JSON, without the ruleset (sent once, in match_start).

    `history` holds the round's events from index `history_start` on: the earlier ones were
    in this seat's previous views of the round, so a long round does not cost O(n²) to send.
    """
    cards = _texts
    resume = view.resume
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
        # the state of the house rules (docs/house-rules.md), each at its default where its rule is not used
        "wish": view.wish, "wish_left": view.wish_left, "pending_skip": view.pending_skip, "free": view.free,
        "next_rank": list(view.next_rank) if view.next_rank else None, "waits": list(view.waits),
        "shown": [[seat, cards(shown)] for seat, shown in view.shown], "out_order": list(view.out_order),
        "pending_card": _text(view.pending_card), "pending_from": view.pending_from,
        "skip_card": _text(view.skip_card), "deferred": view.deferred,
        "resume": None if resume is None else {
            **resume._asdict(), "cards": cards(resume.cards), "skip_card": _text(resume.skip_card),
            "again": _text(resume.again)},
    }


def _texts(cards) -> list[str]:
    return [card.text for card in cards]


def _text(card: Card | None) -> str | None:
    return card.text if card is not None else None


def _event_data(event: Event) -> dict:
    data = {
        "kind": event.kind, "seat": event.seat, "card": _text(event.card), "suit": event.suit, "count": event.count,
        "reason": event.reason,
    }
    # the fields of the house rules, only where they are used (a play of several cards, a wish, a swap, a give)
    if event.more:
        data["more"] = _texts(event.more)
    if event.rank is not None:
        data["rank"] = event.rank
    if event.to != -1:
        data["to"] = event.to
    return data


def parse_view(data: dict, ruleset, history: list[Event]) -> View:
    """The View a worker rebuilds from view_data (trusted: it comes from the referee).

    `history` is the round's events received so far; the new ones are appended to it.
    """
    card = _card
    if data["history_start"] != len(history):
        if data["history_start"] != 0:
            raise ProtocolViolation(f"history_start {data['history_start']} but {len(history)} events known")
        history.clear()
    history.extend(Event(e["kind"], e["seat"], _maybe_card(e["card"]), e["suit"], e["count"], e["reason"],
                         tuple(card(c) for c in e.get("more", ())), e.get("rank"), e.get("to", -1))
                   for e in data["history"])
    resume = data.get("resume")
    return view_of(
        seat=data["seat"], hand=tuple(card(c) for c in data["hand"]), top=card(data["top"]), suit=data["suit"],
        phase=data["phase"], pending=data["pending"], direction=data["direction"],
        hand_sizes=tuple(data["hand_sizes"]), stock_size=data["stock_size"],
        discard=tuple(card(c) for c in data["discard"]), totals=tuple(data["totals"]),
        rounds_won=tuple(data["rounds_won"]), round=data["round"], active=tuple(data["active"]), ruleset=ruleset,
        history=tuple(history), legal=tuple(parse_action(a) for a in data["legal"]), again=data["again"],
        chain=data.get("chain", 0), missed=tuple(missed) if (missed := data.get("missed")) else None,
        turns=data.get("turns", 0), idle=data.get("idle", 0), out=tuple(data.get("out", ())),
        wish=data.get("wish"), wish_left=data.get("wish_left", 0), pending_skip=data.get("pending_skip", 0),
        free=data.get("free", False), next_rank=tuple(bound) if (bound := data.get("next_rank")) else None,
        waits=tuple(data.get("waits", ())),
        shown=tuple((seat, tuple(card(c) for c in shown)) for seat, shown in data.get("shown", ())),
        out_order=tuple(data.get("out_order", ())), pending_card=_maybe_card(data.get("pending_card")),
        pending_from=data.get("pending_from", -1), skip_card=_maybe_card(data.get("skip_card")),
        deferred=data.get("deferred", 0),
        resume=None if resume is None else Resume(**{
            **resume, "cards": tuple(card(c) for c in resume["cards"]), "skip_card": _maybe_card(resume["skip_card"]),
            "again": _maybe_card(resume["again"])}),
        move_time=data.get("move_time"), time_bank=data.get("time_bank"),
    )


def _maybe_card(text: str | None) -> Card | None:
    return _card(text) if text is not None else None
