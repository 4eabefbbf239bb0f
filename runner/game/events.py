"""The game log's vocabulary: each event type's name and a builder of its line, the one place a log event is made.

A game log is one JSON object per line, each with a "type" (README: Game logs). The engine
writes the events of a round, the match those around its rounds, the referee its faults;
readers (the verifier, replay, check-bot) compare against the names here. The builders keep
the order of the keys, which is part of the log's bytes.

The engine does not build its events: it records each as its builder and the builder's arguments,
one tuple (`(play, seat, card, suit, announce)`), and `made` builds the dict from that when it is
read. A `GameLog` keeps those records as they are (a match's log for a tournament file or a
benchmark: runner/logs/codec.py encodes the records without their dicts); any other list given as
a round's log (a watcher's, a test's) gets each event as a dict the moment it is written (`sink`).
A record's arguments are never changed after it is made (cards, strings, ints, tuples and lists
the engine drops), so its event reads the same later as it would have then.
"""

from __future__ import annotations

from typing import Iterable, Iterator, Sequence

from .cards import Card

# Event types.
MATCH_START, MATCH_END = "match_start", "match_end"
ROUND_START, ROUND_END = "round_start", "round_end"
PLAY, NAME_SUIT, DRAW, PASS, SKIP, RESHUFFLE, CHALLENGE = (
    "play",
    "name_suit",
    "draw",
    "pass",
    "skip",
    "reshuffle",
    "challenge",
)
FAULT, FORFEIT = "fault", "forfeit"
ELIMINATED, JOIN, LEAVE = "eliminated", "join", "leave"
# Event types of the house rules, written only where a ruleset uses them (README: Game logs).
OUT, SHOW, SWAP, GIVE, PASS_HANDS = "out", "show", "swap", "give", "pass_hands"

# Why a seat draws.
STUCK = "stuck"  # cannot (or, where drawing by choice is allowed, will not) play
CHOICE = "choice"  # draws by choice although it could play
SEVEN = "seven"  # takes a pending draw penalty
PENALTY = "penalty"  # a missed announcement
ACE = "ace"  # draws instead of following its own play-again card
OTHERS = "others"  # a power that makes every other seat draw
SELF = "self"  # a power that makes its own player draw (self_draw)
FALSE_CALL = "false_call"  # an announcement made when it was not due
AGAIN = "again"  # draws instead of following its own play-again card that is not an Ace


def _texts(cards: Iterable[Card]) -> list[str]:
    return [card.text for card in cards]


def made(entry) -> dict:
    """The event of a log entry: a dict as it is; an engine's record (its builder, then the builder's arguments)
    built by its builder."""
    return entry if type(entry) is dict else entry[0](*entry[1:])


class GameLog:
    """A game log as it is written: the engine's records and the match's dicts, in order; reading it gives each
    event as its dict, made when it is read (`list(log)`, `log[i]`, iteration)."""

    __slots__ = ("records",)

    def __init__(self) -> None:
        self.records: list = []  # what a round appends to: dicts and records (runner/game/engine.py)

    def append(self, event: dict) -> None:
        self.records.append(event)

    def __len__(self) -> int:
        return len(self.records)

    def __iter__(self) -> Iterator[dict]:
        return map(made, self.records)

    def __getitem__(self, index: int) -> dict:
        return made(self.records[index])

    def __repr__(self) -> str:
        return f"GameLog({len(self.records)} events)"


class DictFeed:
    """A reader's own list as a round's log: each record becomes its dict as it is written, so that a watcher
    (runner/seats/human.py's EventFeed, the web host's log) sees every event at once."""

    __slots__ = ("target",)

    def __init__(self, target: list) -> None:
        self.target = target

    def append(self, entry) -> None:
        self.target.append(made(entry))


def sink(log: GameLog | list | None) -> list | DictFeed | None:
    """What a round appends its records to, for the log it is given: a GameLog's records, or a feed of dicts to any
    other list."""
    if log is None:
        return None
    if isinstance(log, GameLog):
        return log.records
    return DictFeed(log)


def match_start(match: str, ruleset: str, overrides: dict, rules: dict, limit: int | None, seed: int | str,
                players: Sequence[str]) -> dict:
    return {"type": MATCH_START, "match": match, "ruleset": ruleset, "overrides": dict(overrides), "rules": rules,
            "limit": limit, "seed": seed, "players": list(players)}


def round_start(number: int, dealer: int, first: int, direction: int, deciding: bool,
                hands: list[list[str]], stock: list[str], upcards: list[str], taken: list[str]) -> dict:
    """The cards by their texts (the engine reads them where its cards hold them: runner/game/engine.py `_texts`):
    `stock` top card first; `upcards` in the order they were turned up, the top one last; `taken`, the upcards
    the dealer took into its hand (upcard.effects to_dealer), in the order turned, written only if there are any."""
    event = {"type": ROUND_START, "round": number, "dealer": dealer, "first": first, "direction": direction,
             "deciding": deciding, "hands": hands, "stock": stock, "upcards": upcards}
    if taken:
        event["taken"] = taken
    return event


def play(seat: int, card: Card, suit: str | None, announce: str | None) -> dict:
    return {"type": PLAY, "seat": seat, "card": card.text, "suit": suit, "announce": announce}


def play_more(seat: int, card: Card, suit: str | None, announce: str | None, more: Sequence[Card] = (),
              rank: str | None = None, jump_in: bool = False) -> dict:
    """A play with the fields of the house rules, each only where used: further cards, the rank wished, a jump-in."""
    event = {"type": PLAY, "seat": seat, "card": card.text, "suit": suit, "announce": announce}
    if more:
        event["more"] = _texts(more)
    if rank is not None:
        event["rank"] = rank
    if jump_in:
        event["jump_in"] = True
    return event


def name_suit(seat: int, suit: str) -> dict:
    return {"type": NAME_SUIT, "seat": seat, "suit": suit}


def draw(seat: int, cards: Iterable[Card], reason: str) -> dict:
    return {"type": DRAW, "seat": seat, "cards": _texts(cards), "reason": reason}


def pass_(seat: int) -> dict:
    return {"type": PASS, "seat": seat}


def skip(seat: int) -> dict:
    return {"type": SKIP, "seat": seat}


def reshuffle(stock: Iterable[Card]) -> dict:
    """`stock`: the whole new stock, top card first."""
    return {"type": RESHUFFLE, "stock": _texts(stock)}


def challenge(seat: int, target: int) -> dict:
    return {"type": CHALLENGE, "seat": seat, "target": target}


def show(seat: int, cards: Iterable[Card]) -> dict:
    return {"type": SHOW, "seat": seat, "cards": _texts(cards)}


def swap(seat: int, other: int) -> dict:
    return {"type": SWAP, "seat": seat, "with": other}


def give(seat: int, to: int, card: Card) -> dict:
    return {"type": GIVE, "seat": seat, "to": to, "card": card.text}


def take(seat: int, to: int, card: Card) -> dict:
    """A card taken unseen by `to` from `seat` (a power's `take`): a `give` that its receiver chose blindly."""
    return {"type": GIVE, "seat": seat, "to": to, "card": card.text, "taken": True}


def pass_hands(direction: int) -> dict:
    return {"type": PASS_HANDS, "direction": direction}


def out(seat: int, place: int) -> dict:
    """round.play_on: `seat` played its last card and is out of the round in `place` (1: the first)."""
    return {"type": OUT, "seat": seat, "place": place}


def fault(seat: int, kind: str, detail: str, traceback: str = "") -> dict:
    """`traceback` (an exception's, in the bot's code) is added only when there is one."""
    event = {"type": FAULT, "seat": seat, "kind": kind, "detail": detail}
    if traceback:
        event["traceback"] = traceback
    return event


def forfeit(seat: int) -> dict:
    return {"type": FORFEIT, "seat": seat}


def round_end(number: int, winner: int | None, points: Sequence[int], totals: Sequence[int],
              order: Sequence[int] | None = None) -> dict:
    """`order` (round.play_on only): the seats that went out, in order, then those left with cards."""
    event = {"type": ROUND_END, "round": number, "winner": winner, "points": list(points), "totals": list(totals)}
    if order is not None:
        event["order"] = list(order)
    return event


def eliminated(seat: int, total: int) -> dict:
    return {"type": ELIMINATED, "seat": seat, "total": total}


def join(seat: int, player: str, total: int) -> dict:
    return {"type": JOIN, "seat": seat, "player": player, "total": total}


def leave(seat: int) -> dict:
    return {"type": LEAVE, "seat": seat}


def match_end(ranking: Sequence[int], winners: Sequence[int], totals: Sequence[int], rounds_won: Sequence[int]) -> dict:
    return {"type": MATCH_END, "ranking": list(ranking), "winners": list(winners), "totals": list(totals),
            "rounds_won": list(rounds_won)}
