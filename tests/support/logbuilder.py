"""Hand-made game logs for the verifier's tests: a match_start with full `rules` data, then scripted events.

    log = Log({"powers": {"KH": {"draw": 5}}, "hand_size": 2})
    log.deal(["KH 9H", "10S QS"], up="8H", stock="7C 8C")
    play = log.play(0, "KH")           # the index of the event written, to break it in a test
    log.draw(1, "7C 8C", "seven")

The rules start from a small, plain ruleset (PLAIN: a Skat deck of 32 cards, no powers, no
announcements required, one round) with the changes given as dotted keys (`"drawing.max": 3`; None
removes a key); the ruleset model must accept them, so that every log is of a ruleset one can
write. The stock given to `deal` is its top; the rest of the deck follows in a fixed order, so that
every deal is the whole deck. `finish` writes round_end and match_end from the points given.
"""

from __future__ import annotations

import copy

from runner.game.cards import SUITS
from runner.rules import ruleset_of

SKAT = ["7", "8", "9", "10", "J", "Q", "K", "A"]

PLAIN = {
    "name": "plain",
    "description": "",
    "players": {"min": 2, "max": 6},
    "deck": {"ranks": SKAT, "copies": 1, "copies_by_players": {}},
    "hand_size": 2,
    "deal": {"dealer_rotation": 1, "first_player": 1, "initial_direction": 1, "reset_direction": True},
    "upcard": {"flip_while_action": False, "effects": "none", "dealer_names_suit": True},
    "powers": {},
    "drawing": {"when": "stuck", "drawn_card": "play_or_keep"},
    "announcements": {"mau": {"required": False, "penalty": 2}, "maumau": {"required": False, "penalty": 2},
                      "enforcement": "referee"},
    "last_card_draws": False,
    "points": {"7": 7, "8": 8, "9": 9, "10": 10, "J": 2, "Q": 3, "K": 4, "A": 11},
    "match": {"format": "single", "limit": None, "tie_break": "rounds_won", "max_deciding_rounds": 5,
              "table_changes": False},
    "turn_limit": 5000,
}


def rules(changes: dict | None = None, base: dict = PLAIN) -> dict:
    """`base` with dotted-key changes applied (a value of None removes the key)."""
    data = copy.deepcopy(base)
    for dotted, value in (changes or {}).items():
        *path, last = dotted.split(".")
        node = data
        for key in path:
            node = node.setdefault(key, {})
        if value is None:
            node.pop(last, None)
        else:
            node[last] = copy.deepcopy(value)
    return data


def deck(data: dict, players: int) -> list[str]:
    """The whole deck of `data` for `players`, in a fixed order (only what the tests use: ranks, copies, jokers)."""
    spec = data["deck"]
    ranks = spec["ranks"]
    for threshold, value in sorted((int(k), v) for k, v in spec.get("ranks_by_players", {}).items()):
        if players >= threshold:
            ranks = value
    copies, jokers = spec["copies"], spec.get("jokers", 0)
    for threshold, value in sorted((int(k), v) for k, v in spec.get("copies_by_players", {}).items()):
        if players >= threshold:
            copies = value
    for threshold, value in sorted((int(k), v) for k, v in spec.get("jokers_by_players", {}).items()):
        if players >= threshold:
            jokers = value
    ranks = [str(rank) for rank in ranks]
    cards = [rank + suit for _ in range(copies) for suit in SUITS for rank in ranks]
    return cards + ["X" + "RB"[i % 2] for i in range(jokers)]


REMOVE = object()  # Log.changed(index, key=REMOVE) removes the key


def split(text: str | list[str]) -> list[str]:
    return text.split() if isinstance(text, str) else list(text)


class Log:
    """A game log written event by event; `events` is the list to verify."""

    def __init__(self, changes: dict | None = None, players: int = 2, base: dict = PLAIN, limit=None):
        self.rules = rules(changes, base)
        ruleset_of(copy.deepcopy(self.rules), "the test's rules")  # a ruleset the model accepts, so a real one
        self.players = players
        self.events: list[dict] = [{
            "type": "match_start", "match": "test", "ruleset": self.rules["name"], "overrides": {},
            "rules": self.rules, "limit": self.rules["match"]["limit"] if limit is None else limit,
            "seed": 0, "players": [f"bot{seat}" for seat in range(players)],
        }]
        self.round_number = 0

    def add(self, event: dict) -> int:
        """Append `event`; return its index in `events`."""
        self.events.append(event)
        return len(self.events) - 1

    def deal(self, hands: list[str], up: str, stock: str = "", dealer: int | None = None,
             first: int | None = None, direction: int = 1, deciding: bool = False, active=None) -> int:
        """round_start: `hands` per seat ("" for a seat out), `up` the upcards (last on top), `stock` its top."""
        n = self.players
        active = list(range(n)) if active is None else active
        dealer = active[-1] if dealer is None else dealer
        later = sorted(s for s in active if s > dealer) + sorted(s for s in active if s <= dealer)
        first = later[0] if first is None else first
        hand_lists = [split(hand) for hand in hands]
        used = [card for hand in hand_lists for card in hand] + split(up) + split(stock)
        rest = deck(self.rules, len(active))
        for card in used:
            if card in rest:
                rest.remove(card)
        self.round_number += 1
        return self.add({"type": "round_start", "round": self.round_number, "dealer": dealer, "first": first,
                         "direction": direction, "deciding": deciding, "hands": hand_lists,
                         "stock": split(stock) + rest, "upcards": split(up)})

    def play(self, seat: int, card: str, suit: str | None = None, announce: str | None = None, **extra) -> int:
        """A play; `more="8S 8D"`, `rank="9"`, `jump_in=True` as the design adds them."""
        event = {"type": "play", "seat": seat, "card": card, "suit": suit, "announce": announce}
        if "more" in extra:
            extra["more"] = split(extra["more"])
        event.update(extra)
        return self.add(event)

    def draw(self, seat: int, cards: str, reason: str = "stuck") -> int:
        return self.add({"type": "draw", "seat": seat, "cards": split(cards), "reason": reason})

    def skip(self, seat: int) -> int:
        return self.add({"type": "skip", "seat": seat})

    def pass_(self, seat: int) -> int:
        return self.add({"type": "pass", "seat": seat})

    def event(self, kind: str, **fields) -> int:
        return self.add({"type": kind, **fields})

    def round_end(self, winner: int | None, points: list[int], totals: list[int], **extra) -> int:
        return self.add({"type": "round_end", "round": self.round_number, "winner": winner, "points": points,
                         "totals": totals, **extra})

    def match_end(self, ranking: list[int], winners: list[int], totals: list[int], rounds_won: list[int]) -> int:
        return self.add({"type": "match_end", "ranking": ranking, "winners": winners, "totals": totals,
                         "rounds_won": rounds_won})

    def finish(self, winner: int | None, points: list[int], **extra) -> int:
        """round_end and match_end of a single-round match: the winner first, then by fewest points."""
        index = self.round_end(winner, points, points, **extra)
        ranking = sorted(range(self.players), key=lambda s: (s != winner, points[s]))
        won = [int(s == winner) for s in range(self.players)]
        self.match_end(ranking, [winner] if winner is not None else [ranking[0]], points, won)
        return index

    def changed(self, index: int, **fields) -> list[dict]:
        """A copy of the log with event `index` changed (a field set to REMOVE is removed)."""
        events = copy.deepcopy(self.events)
        for key, value in fields.items():
            if value is REMOVE:
                events[index].pop(key, None)
            else:
                events[index][key] = value
        return events

    def without(self, index: int) -> list[dict]:
        return copy.deepcopy(self.events[:index] + self.events[index + 1:])

    def with_inserted(self, index: int, event: dict) -> list[dict]:
        return copy.deepcopy(self.events[:index] + [event] + self.events[index:])


def accepted(events: list[dict]):
    """The verifier's summary of `events`, which must verify."""
    from runner.logs.verify import verify

    return verify(events)


def rejected(events: list[dict], at: int, fragment: str = "") -> str:
    """The verifier's message for `events`, which must be rejected at event index `at` with `fragment` in it."""
    import pytest

    from runner.logs.verify import LogError, verify

    with pytest.raises(LogError) as caught:
        verify(events)
    message = str(caught.value)
    assert message.startswith(f"event {at + 1} "), message
    assert fragment in message, message
    return message


def unfinished(events: list[dict]) -> bool:
    """Whether `events`, a log cut off mid-round, fail only because the log ends: everything written was right."""
    import pytest

    from runner.logs.verify import LogError, verify

    with pytest.raises(LogError, match="^the log ends after event"):
        verify(events)
    return True
