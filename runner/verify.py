"""Verify a game log without the engine: the deal, every card's path, every play's legality, every total.

The checker reads the log (DESIGN.md's JSON lines) as a grammar: a match is rounds and table
changes, a round is decisions, and each decision brings the draws and skips the rules make it
cause. It knows the rules only from the `rules` mapping in `match_start` and RULES.md, and it
keeps its own picture of the table (hands, stock, discard pile, whose turn) to hold every
event against. The first event that does not fit is reported with its number (its line).
"""

from __future__ import annotations

import gzip
import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .cards import SUITS, Card, parse_card
from .errors import MaumauError

DECISIONS = ("play", "draw", "reshuffle", "pass", "name_suit", "challenge")
DRAW_REASONS = ("stuck", "seven", "penalty", "ace", "others", "choice")


class LogError(MaumauError):
    """A game log that breaks the rules or its format; names the event (line) at fault."""


@dataclass(frozen=True)
class Summary:
    """What a verified log holds."""

    events: int
    rounds: int


def read_log(path: Path | str) -> list[dict]:
    """The events of a log file, plain or gzip (recognised by its first bytes)."""
    path = Path(path)
    try:
        raw = path.read_bytes()
        if raw[:2] == b"\x1f\x8b":
            raw = gzip.decompress(raw)
        text = raw.decode("utf-8")
    except OSError as exc:
        raise LogError(f"cannot read the log {path}: {exc.strerror or exc}") from None
    except (EOFError, gzip.BadGzipFile, UnicodeDecodeError) as exc:
        raise LogError(f"{path} is not a (gzip) JSON-lines log: {exc}") from None
    events = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            event = json.loads(line)
        except json.JSONDecodeError as exc:
            raise LogError(f"line {number}: not JSON ({exc.msg})") from None
        if not isinstance(event, dict) or not isinstance(event.get("type"), str):
            raise LogError(f"line {number}: expected an object with a \"type\"")
        events.append(event)
    return events


def verify_file(path: Path | str) -> Summary:
    """Verify the log in `path`; raises LogError at the first event that is wrong."""
    return verify(read_log(path))


def verify(events: list[dict]) -> Summary:
    """Verify a match's events; raises LogError at the first event that is wrong."""
    checker = _Checker(events)
    try:
        checker.match()
    except LogError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        detail = f"missing field {exc}" if isinstance(exc, KeyError) else str(exc)
        checker.fail(f"malformed event: {detail}")
    return Summary(len(events), checker.rounds)


class _Rules:
    """The parts of a resolved ruleset mapping that the checker needs, read once."""

    def __init__(self, data: dict):
        self.data = data
        powers = {str(rank): power for rank, power in data["powers"].items()}
        self.power = {rank: _Power(power) for rank, power in powers.items()}
        self.action_ranks = {rank for rank, power in self.power.items() if power.is_action}
        deck = data["deck"]
        self.ranks = [str(rank) for rank in deck["ranks"]]
        self.copies = int(deck["copies"])
        self.copies_by_players = {int(k): int(v) for k, v in (deck.get("copies_by_players") or {}).items()}
        self.hand_size = int(data["hand_size"])
        self.players_max = int(data["players"]["max"])
        deal = data["deal"]
        self.rotation, self.first_player = int(deal["dealer_rotation"]), int(deal["first_player"])
        self.initial_direction, self.reset_direction = int(deal["initial_direction"]), bool(deal["reset_direction"])
        upcard = data["upcard"]
        self.flip_while_action, self.upcard_acts = upcard["flip_while_action"], upcard["effects"] == "as_dealer_play"
        self.dealer_names_suit = upcard["dealer_names_suit"]
        self.draw_by_choice = data["drawing"]["when"] == "any"
        self.play_drawn = data["drawing"]["drawn_card"] == "play_or_keep"
        announcements = data["announcements"]
        self.penalty = {kind: announcements[kind]["penalty"] for kind in ("mau", "maumau")
                        if announcements[kind]["required"]}
        self.challenge = announcements["enforcement"] == "challenge"
        self.last_card_draws = bool(data["last_card_draws"])
        self.points = {str(rank): int(value) for rank, value in data["points"].items()}
        match = data["match"]
        self.format, self.limit, self.tie_break = match["format"], match["limit"], match["tie_break"]
        self.max_deciding = int(match["max_deciding_rounds"])
        self.table_changes = bool(match["table_changes"])
        self.turn_limit = int(data["turn_limit"])

    def of(self, card: Card) -> "_Power":
        return self.power.get(card.rank, _NO_POWER)

    def deck(self, players: int) -> Counter:
        """The full deck the rules shuffle for `players`."""
        copies = self.copies
        for threshold in sorted(self.copies_by_players):
            if players >= threshold:
                copies = self.copies_by_players[threshold]
        return Counter({Card(rank, suit): copies for suit in SUITS for rank in self.ranks})

    def hand_points(self, hand: Counter) -> int:
        return sum(self.points[card.rank] * count for card, count in hand.items())


class _Power:
    """One rank's power, from the ruleset mapping."""

    def __init__(self, data: dict):
        self.draw, self.stack, self.chain_limit = int(data.get("draw", 0)), data.get("stack", True), data.get("chain_limit")
        self.skip, self.reverse = int(data.get("skip", 0)), bool(data.get("reverse", False))
        self.wild, self.wild_on_wild = bool(data.get("wild", False)), bool(data.get("wild_on_wild", True))
        self.play_again, self.skip_others = bool(data.get("play_again", False)), bool(data.get("skip_others", False))
        self.others_draw = int(data.get("others_draw", 0))
        self.is_action = bool(self.draw or self.skip or self.reverse or self.wild or self.play_again
                              or self.others_draw or self.skip_others)


_NO_POWER = _Power({})


class _Checker:
    """Reads the events in order, holding each against the rules and the table as they stand."""

    def __init__(self, events: list[dict]):
        self.events, self.i, self.rounds = events, 0, 0

    # ------------------------------------------------------------------ reading

    def fail(self, message: str) -> None:
        index = max(self.i - 1, 0)
        kind = self.events[index].get("type", "?") if index < len(self.events) else "end"
        raise LogError(f"event {index + 1} ({kind}): {message}")

    def peek(self) -> dict | None:
        return self.events[self.i] if self.i < len(self.events) else None

    def take(self, *types: str, why: str = "") -> dict:
        event = self.peek()
        because = f" ({why})" if why else ""
        if event is None:
            self.i += 1
            raise LogError(f"the log ends after event {len(self.events)}; expected {' or '.join(types)}{because}")
        self.i += 1
        if event["type"] not in types:
            self.fail(f"expected {' or '.join(types)} here{because}")
        return event

    def seat_of(self, event: dict, seat: int, what: str) -> None:
        if event["seat"] != seat:
            self.fail(f"seat {event['seat']} {what}, but it is seat {seat}'s turn")

    def card(self, text: Any) -> Card:
        try:
            return parse_card(text)
        except (ValueError, AttributeError):
            self.fail(f"{text!r} is not a card")

    # ------------------------------------------------------------------ the match

    def match(self) -> None:
        start = self.take("match_start")
        rules = self.rules = _Rules(start["rules"])
        players = start["players"]
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players) or len(players) < 2:
            self.fail("players must list at least two bot names")
        if start["limit"] != rules.limit:
            self.fail(f"limit {start['limit']} differs from the rules' match.limit {rules.limit}")
        self.players = list(players)
        self.totals, self.won = [0] * len(players), [0] * len(players)
        self.left: set[int] = set()
        self.forfeited: list[int] = []
        self.batches: list[list[int]] = []  # eliminated together, in order
        self.dealer: int | None = None
        self.direction = rules.initial_direction
        number = 0
        while True:
            number += 1
            self.table_changes(number)
            if len(self.seated()) < 2:
                break
            winner = self.round(number, self.seated(), deciding=False)
            if winner is not None:
                self.won[winner] += 1
            if self.match_over():
                break
        decider = None
        if rules.format == "limit" and rules.tie_break == "deciding_round":
            decider, number = self.deciding_rounds(number)
        self.match_end(decider)
        if self.peek() is not None:
            self.i += 1
            self.fail("an event after match_end")

    def seated(self) -> list[int]:
        gone = self.left | set(self.forfeited) | {seat for batch in self.batches for seat in batch}
        return [seat for seat in range(len(self.players)) if seat not in gone]

    def table_changes(self, number: int) -> None:
        """Joins and leaves between rounds (RULES.md family 3 table management)."""
        while (event := self.peek()) is not None and event["type"] in ("join", "leave"):
            self.take("join", "leave")
            if not self.rules.table_changes:
                self.fail("the rules do not allow players to join or leave (match.table_changes)")
            if number == 1:
                self.fail("players join or leave between rounds, not before the first")
            seated = self.seated()
            if event["type"] == "leave":
                if event["seat"] not in seated:
                    self.fail(f"seat {event['seat']} is not at the table")
                self.left.add(event["seat"])
                continue
            if event["seat"] != len(self.players):
                self.fail(f"a joining player takes the next free seat, {len(self.players)}, not {event['seat']}")
            lowest = min((self.totals[s] for s in seated), default=0)
            if event["total"] != lowest:
                self.fail(f"a joining player starts with the lowest current total, {lowest}, not {event['total']}")
            if not isinstance(event["player"], str):
                self.fail("player must be a bot name")
            self.players.append(event["player"])
            self.totals.append(lowest)
            self.won.append(0)
            if len(self.players) > self.rules.players_max:
                self.fail(f"more than players.max ({self.rules.players_max}) seats")

    def match_over(self) -> bool:
        """Whether the format ends the match after this round; reads the eliminations it causes."""
        rules = self.rules
        if rules.format == "single":
            return True
        seated = self.seated()
        if rules.format == "limit":
            return any(self.totals[s] >= rules.limit for s in seated)
        out = {s for s in seated if self.totals[s] > rules.limit}
        reported = set()
        while (event := self.peek()) is not None and event["type"] == "eliminated":
            self.take("eliminated")
            seat = event["seat"]
            if seat not in out or seat in reported:
                self.fail(f"seat {seat} is not over the limit {rules.limit} (total {self._total(seat)})")
            if event["total"] != self.totals[seat]:
                self.fail(f"seat {seat}'s total is {self.totals[seat]}, not {event['total']}")
            reported.add(seat)
        if reported != out:
            self.i += 1
            self.fail(f"seat(s) {sorted(out - reported)} exceeded the limit {rules.limit} but were not eliminated")
        if out:
            self.batches.append(sorted(out))
        return len(self.seated()) <= 1

    def _total(self, seat: int) -> Any:
        return self.totals[seat] if 0 <= seat < len(self.totals) else "none"

    def deciding_rounds(self, number: int) -> tuple[int | None, int]:
        """Family 1: extra rounds among those tied for the fewest points; the first out wins."""
        seated = self.seated()
        if not seated:
            return None, number
        best = min(self.totals[s] for s in seated)
        tied = [s for s in seated if self.totals[s] == best]
        if len(tied) < 2:
            return None, number
        for _ in range(self.rules.max_deciding):
            active = [s for s in tied if s in self.seated()]
            if len(active) < 2:
                return (active[0] if active else None), number
            number += 1
            winner = self.round(number, active, deciding=True)
            if winner is not None:
                return winner, number
        return None, number

    def match_end(self, decider: int | None) -> None:
        event = self.take("match_end")
        rules, totals = self.rules, self.totals
        if event["totals"] != totals:
            self.fail(f"totals {event['totals']} differ from the sums of the round points {totals}")
        if event["rounds_won"] != self.won:
            self.fail(f"rounds_won {event['rounds_won']} differ from the round winners {self.won}")
        ranking, winners = event["ranking"], event["winners"]
        present = [s for s in range(len(self.players)) if s not in self.left]
        if sorted(ranking) != present:
            self.fail(f"ranking must list every seat that did not leave once: {present}")
        forfeited = list(reversed(self.forfeited))
        if forfeited and ranking[-len(forfeited):] != forfeited:
            self.fail(f"forfeited seats rank last, latest first: {forfeited}")
        ranked = ranking[:len(ranking) - len(forfeited)]
        if rules.format == "elimination":
            expected = self.elimination_winners(ranked)
        else:
            expected = self.points_winners(ranked, decider)
        if not expected and ranking:
            expected = [ranking[0]]
        if sorted(winners) != sorted(expected):
            self.fail(f"winners {winners}, but the rules make it {sorted(expected)}")

    def points_winners(self, ranked: list[int], decider: int | None) -> list[int]:
        """Fewest points wins; the format's tie-break decides a tie for first."""
        totals = self.totals
        if self.rules.format == "single":
            single_winner = self.last_winner
            key = lambda s: (s != single_winner, totals[s])  # noqa: E731
        elif decider is not None:
            key = lambda s: (s != decider, totals[s], -self.won[s])  # noqa: E731
        elif self.rules.tie_break == "rounds_won":
            key = lambda s: (totals[s], -self.won[s])  # noqa: E731
        else:
            key = lambda s: (totals[s],)  # noqa: E731
        self.ordered(ranked, key)
        if not ranked:
            return []
        return [s for s in ranked if key(s) == key(ranked[0])]

    def elimination_winners(self, ranked: list[int]) -> list[int]:
        """The last one left wins; if the last ones go out together, the fewest points among them."""
        totals, survivors = self.totals, self.seated()
        stage = {seat: 0 for seat in survivors}  # survivors first, then the later out before the earlier
        for depth, batch in enumerate(reversed(self.batches), 1):
            stage.update({seat: depth for seat in batch})
        self.ordered(ranked, lambda s: (stage[s], totals[s]))
        if survivors:
            return [ranked[0]] if ranked else []
        if not self.batches:
            return []
        last = self.batches[-1]
        best = min(totals[s] for s in last)
        return [s for s in last if totals[s] == best]

    def ordered(self, ranked: list[int], key) -> None:
        for before, after in zip(ranked, ranked[1:]):
            if key(before) > key(after):
                self.fail(f"ranking puts seat {before} before seat {after}")

    # ------------------------------------------------------------------ a round

    def round(self, number: int, active: list[int], deciding: bool) -> int | None:
        """Read one round from round_start to round_end; return its winner."""
        start = self.take("round_start")
        rules, n = self.rules, len(self.players)
        if start["round"] != number:
            self.fail(f"round {start['round']}, expected round {number}")
        if bool(start["deciding"]) != deciding:
            self.fail("a deciding round is played only between players tied for the fewest points"
                      if start["deciding"] else "expected a deciding round between the tied players")
        dealer = start["dealer"]
        if self.dealer is not None:
            expected = _first_at_or_after((self.dealer + rules.rotation) % n, active, n)
            if dealer != expected:
                self.fail(f"the deal rotates to seat {expected}, not seat {dealer}")
        elif dealer not in active:
            self.fail(f"dealer {dealer} is not at the table")
        self.dealer = dealer
        direction = rules.initial_direction if rules.reset_direction or number == 1 else self.direction
        if start["direction"] != direction:
            self.fail(f"direction {start['direction']}, expected {direction}")
        rnd = _Round(self, number, active, dealer, direction)
        rnd.deal(start)
        if start["first"] != rnd.lead:
            self.fail(f"seat {rnd.lead} leads (first_player {rules.first_player} from dealer {dealer}), not {start['first']}")
        rnd.play()
        self.direction = rnd.direction
        self.round_end(rnd, deciding)
        self.rounds += 1
        if not deciding:
            self.last_winner = rnd.winner
        return rnd.winner

    def round_end(self, rnd: "_Round", deciding: bool) -> None:
        event = self.take("round_end")
        if event["round"] != rnd.number:
            self.fail(f"round {event['round']} ends, but round {rnd.number} is being played")
        if event["winner"] != rnd.winner:
            self.fail(f"winner {event['winner']}, but the plays make it {rnd.winner}")
        points = [0] * len(self.players)
        if not deciding:  # a deciding round only decides: its points are not added
            for seat in rnd.active:
                if seat != rnd.winner and seat not in rnd.out:
                    points[seat] = self.rules.hand_points(rnd.hands[seat])
        if event["points"] != points:
            self.fail(f"points {event['points']}, but the hands hold {points}")
        for seat, value in enumerate(points):
            self.totals[seat] += value
        if event["totals"] != self.totals:
            self.fail(f"totals {event['totals']}, expected {self.totals}")

    def forfeit(self, seat: int) -> None:
        self.forfeited.append(seat)


def _first_at_or_after(seat: int, candidates: list[int], n: int) -> int:
    """The first of `candidates` clockwise from `seat` (itself included)."""
    for step in range(n):
        if (seat + step) % n in candidates:
            return (seat + step) % n
    return candidates[0]


class _Round:
    """The table during one round, as the log's events move the cards."""

    def __init__(self, checker: _Checker, number: int, active: list[int], dealer: int, direction: int):
        self.c, self.rules = checker, checker.rules
        self.number, self.active, self.dealer, self.direction = number, active, dealer, direction
        self.out: set[int] = set()
        self.winner: int | None = None
        self.over = False
        self.pending = self.chain = self.idle = self.turns = 0
        self.again, self.drawn, self.missed = False, None, None
        self.phase = "play"

    def fail(self, message: str) -> None:
        self.c.fail(message)

    # ------------------------------------------------------------------ the deal

    def deal(self, start: dict) -> None:
        c, rules = self.c, self.rules
        hands = start["hands"]
        if len(hands) != len(c.players):
            self.fail(f"hands for {len(hands)} seats, the table has {len(c.players)}")
        self.hands = [Counter(c.card(text) for text in hand) for hand in hands]
        for seat, hand in enumerate(hands):
            want = rules.hand_size if seat in self.active else 0
            if len(hand) != want:
                self.fail(f"seat {seat} is dealt {len(hand)} cards, expected {want}")
        upcards = [c.card(text) for text in start["upcards"]]
        self.stock = [c.card(text) for text in reversed(start["stock"])]  # top card last, popped first
        dealt = sum(self.hands, Counter()) + Counter(upcards) + Counter(self.stock)
        deck = rules.deck(len(self.active))
        if dealt != deck:
            extra, missing = dealt - deck, deck - dealt
            self.fail(f"the deal is not the full deck for {len(self.active)} players: "
                      f"extra {_cards(extra) or 'none'}, missing {_cards(missing) or 'none'}")
        if not upcards:
            self.fail("no upcard")
        for index, card in enumerate(upcards):
            is_last = index == len(upcards) - 1
            acts = card.rank in rules.action_ranks
            if not is_last and not (rules.flip_while_action and acts):
                self.fail(f"upcard {card} is covered by another, but only an action card is"
                          if rules.flip_while_action else "one card is turned up")
            if is_last and rules.flip_while_action and acts and self.stock:
                self.fail(f"upcard {card} is an action card: another is turned up on it")
        self.discard = upcards
        top = upcards[-1]
        self.suit = top.suit
        order = _clockwise_after(self.dealer, self.active)
        self.lead = order[(rules.first_player - 1) % len(order)]
        self.current = self.lead
        if rules.upcard_acts and top.rank in rules.action_ranks:
            self.powers(self.dealer, top)
        if rules.of(top).wild and rules.dealer_names_suit and not self.over:
            self.phase, self.current = "name_suit", self.dealer

    # ------------------------------------------------------------------ the turns

    def play(self) -> None:
        """Read decisions until the round is over."""
        c = self.c
        while not self.over:
            event = c.peek()
            if event is not None and event["type"] == "fault":
                c.take("fault")
                c.seat_of(event, self.current, "commits a fault")
                if event["kind"] not in ("illegal", "exception", "timeout"):
                    self.fail(f"unknown fault kind {event['kind']!r}")
                if (after := c.peek()) is not None and after["type"] == "forfeit":
                    c.take("forfeit")
                    c.seat_of(after, self.current, "forfeits")
                    self.forfeit(self.current)
                continue
            self.turns += 1
            self.decision()
            if not self.over and self.phase != "drawn" and self.turns >= self.rules.turn_limit:
                self.finish(None)  # the round's turn limit: it ends as blocked

    def decision(self) -> None:
        c, seat, phase = self.c, self.current, self.phase
        if phase == "name_suit":
            event = c.take("name_suit")
            c.seat_of(event, seat, "names a suit")
            if event["suit"] not in SUITS:
                self.fail(f"{event['suit']!r} is not a suit")
            self.suit, self.phase, self.current = event["suit"], "play", self.lead
            return
        if phase == "challenge":
            event = c.take("challenge", "pass")
            c.seat_of(event, seat, "acts")
            offender, self.missed = self.missed, None
            if event["type"] == "challenge":
                if event["target"] != offender:
                    self.fail(f"the missed announcement was seat {offender}'s, not seat {event['target']}'s")
                due = "maumau" if not self.hands_left(offender) else "mau"
                self.draw(offender, self.rules.penalty.get(due, 0), "penalty")
            elif not self.hands_left(offender):
                if self.pending and self.rules.last_card_draws:
                    self.draw(seat, self.pending, "seven")
                self.finish(offender)
                return
            self.phase = "play"
            return
        event = c.take("play", "draw", "reshuffle", "pass" if phase == "drawn" else "play")
        if event["type"] == "play":
            self.play_card(seat, event)
        elif event["type"] == "pass":
            c.seat_of(event, seat, "passes")
            self.drawn, self.phase = None, "play"
            self.end_turn(seat, 1)
        elif phase == "drawn":
            self.fail("after drawing a playable card the player plays it or passes")
        else:
            c.i -= 1  # the draw (or the reshuffle before it) is read by draw()
            self.voluntary_draw(seat)

    def playable(self, card: Card) -> bool:
        """Whether `card` goes on the discard pile: a wild card, or the top card's rank, or the active suit."""
        top, power = self.discard[-1], self.rules.of(card)
        if power.wild:
            return not self.rules.of(top).wild or power.wild_on_wild
        return card.rank == top.rank or card.suit == self.suit

    def play_card(self, seat: int, event: dict) -> None:
        c, rules = self.c, self.rules
        c.seat_of(event, seat, "plays")
        card = c.card(event["card"])
        hand = self.hands[seat]
        if hand[card] < 1:
            self.fail(f"seat {seat} plays {card}, which is not in its hand")
        if self.phase == "drawn" and card != self.drawn:
            self.fail(f"after drawing {self.drawn} only that card may be played, not {card}")
        power, top = rules.of(card), self.discard[-1]
        if self.pending:
            top_power = rules.of(top)
            if card.rank != top.rank or not top_power.stack:
                self.fail(f"{card} while a draw penalty of {self.pending} is pending: only a {top.rank} passes it on")
            if top_power.chain_limit is not None and self.chain >= top_power.chain_limit:
                self.fail(f"the {top.rank} chain is limited to {top_power.chain_limit} pass(es)")
        elif not self.playable(card):
            self.fail(f"{card} matches neither the rank of {top} nor the active suit {self.suit}")
        suit, announce = event["suit"], event["announce"]
        if power.wild and suit not in SUITS:
            self.fail(f"a wild {card} names a suit, got {suit!r}")
        if not power.wild and suit is not None:
            self.fail(f"{card} is not wild and names no suit")
        if announce not in (None, "mau", "maumau"):
            self.fail(f"announce {announce!r} is none of null, mau, maumau")
        hand[card] -= 1
        self.discard.append(card)
        self.suit = suit if power.wild else card.suit
        self.again = False
        self.drawn, self.phase, self.idle = None, "play", 0
        left = sum(hand.values())
        due = "mau" if left == 1 else "maumau" if left == 0 else None
        missed = due in rules.penalty and announce != due
        if missed:
            if rules.challenge:
                self.missed = seat
            else:  # a penalty for a missing announcement is drawn at once, before anything else
                self.draw(seat, rules.penalty[due], "penalty")
        if left == 0 and not missed:
            if rules.last_card_draws:
                if power.draw:
                    self.draw(self.step(seat), self.pending + power.draw, "seven")
                    self.pending = 0
                for other in self.others(seat) if power.others_draw else ():
                    self.draw(other, power.others_draw, "others")
            self.finish(seat)
            return
        self.powers(seat, card)

    def powers(self, seat: int, card: Card) -> None:
        """What `card`, played (or turned up) by `seat`, does; then whose turn it is."""
        power = self.rules.of(card)
        if power.draw:
            self.chain = self.chain + 1 if self.pending else 0
            self.pending += power.draw
        if power.reverse:
            self.direction = -self.direction
        for other in self.others(seat) if power.others_draw else ():
            self.draw(other, power.others_draw, "others")
        if (power.play_again or power.skip_others) and self.hands_left(seat):
            for other in self.others(seat) if power.skip_others else ():
                self.skip(other)
            self.next_turn(seat, seat)
            self.again = True
            return
        nxt = self.step(seat)
        for _ in range(power.skip):
            self.skip(nxt)
            nxt = self.step(nxt)
        self.next_turn(seat, nxt)

    def voluntary_draw(self, seat: int) -> None:
        """The seat to act draws: a pending penalty, or one card when stuck (or by choice, or after an Ace)."""
        if self.pending:
            got = self.draw(seat, self.pending, "seven")
            self.pending = self.chain = 0
            self.end_turn(seat, got)
            return
        can_play = any(self.playable(card) for card, count in self.hands[seat].items() if count)
        if can_play and not self.rules.draw_by_choice:
            self.fail(f"seat {seat} draws but could play (the rules allow drawing only when stuck)")
        reasons = ("ace",) if self.again else ("stuck", "choice") if can_play else ("stuck",)
        got = self.draw(seat, 1, reasons)
        drawn = self.last_drawn
        if got and self.rules.play_drawn and self.playable(drawn):
            self.drawn, self.phase = drawn, "drawn"
            return
        self.end_turn(seat, got)

    def end_turn(self, seat: int, gained: int) -> None:
        """A turn without a play: the round is blocked once every seat in play had one and drew nothing."""
        self.idle = 0 if gained else self.idle + 1
        if self.idle >= len(self.in_play()):
            self.finish(None)
            return
        self.next_turn(seat, self.step(seat))

    def next_turn(self, seat: int, nxt: int) -> None:
        self.current, self.phase = nxt, "play"
        if self.missed is not None and self.missed != nxt:
            self.phase = "challenge"  # the next player may point out the missed announcement
        if nxt != seat:
            self.again = False

    def forfeit(self, seat: int) -> None:
        """The fault policy takes `seat` out of the match; its cards stay in its hand, unscored."""
        self.out.add(seat)
        self.c.forfeit(seat)
        remaining = self.in_play()
        if len(remaining) <= 1:
            self.finish(remaining[0] if remaining else None)
            return
        if self.missed == seat:
            self.missed = None
        self.drawn = None
        self.next_turn(seat, self.step(seat))

    def finish(self, winner: int | None) -> None:
        self.winner, self.over = winner, True

    # ------------------------------------------------------------------ seats

    def in_play(self) -> list[int]:
        return [seat for seat in self.active if seat not in self.out]

    def step(self, seat: int) -> int:
        """The next seat in play after `seat`, in the direction of play."""
        n, in_play = len(self.c.players), self.in_play()
        for k in range(1, n + 1):
            candidate = (seat + k * self.direction) % n
            if candidate in in_play:
                return candidate
        return seat

    def others(self, seat: int) -> list[int]:
        """Every other seat in play, in turn order from `seat`."""
        result, nxt = [], self.step(seat)
        while nxt != seat and nxt not in result:
            result.append(nxt)
            nxt = self.step(nxt)
        return result

    def hands_left(self, seat: int) -> int:
        return sum(self.hands[seat].values())

    # ------------------------------------------------------------------ moving cards

    def skip(self, seat: int) -> None:
        event = self.c.take("skip", why=f"seat {seat} is skipped")
        if event["seat"] != seat:
            self.fail(f"seat {seat} is skipped here, not seat {event['seat']}")

    def draw(self, seat: int, count: int, reasons) -> int:
        """Read the draw events of `seat` taking `count` cards from the stock top (reshuffling when it
        runs out; a draw from an exhausted stock takes what there is); return the cards taken."""
        if not count:
            return 0
        c, reasons = self.c, (reasons,) if isinstance(reasons, str) else reasons
        why = f"seat {seat} draws {count} ({reasons[0]})"
        remaining = count
        while True:
            if not self.stock and len(self.discard) >= 2:
                self.reshuffle()
            elif (upcoming := c.peek()) is not None and upcoming["type"] == "reshuffle":
                c.take("reshuffle")
                self.fail("a reshuffle while the stock still has cards (or no discard pile to turn over)")
            event = c.take("draw", why=why)
            if event["seat"] != seat:
                self.fail(f"a draw by seat {event['seat']}, but {why}")
            if event["reason"] not in reasons:
                self.fail(f"draw reason {event['reason']!r}, expected {' or '.join(reasons)}")
            taken = [c.card(text) for text in event["cards"]]
            if len(taken) > remaining:
                self.fail(f"seat {seat} draws {len(taken)} cards, {remaining} are due")
            top = list(reversed(self.stock[len(self.stock) - len(taken):])) if taken else []
            if taken != top:
                self.fail(f"drawn {_cards(Counter(taken))}, but the stock's top is {' '.join(map(str, top)) or 'empty'}")
            del self.stock[len(self.stock) - len(taken):]
            self.hands[seat].update(taken)
            if taken:
                self.last_drawn = taken[-1]
            remaining -= len(taken)
            if not remaining:
                return count
            if self.stock:
                self.fail(f"seat {seat} draws {len(taken)} of {remaining + len(taken)} cards while the stock has more")
            if len(self.discard) < 2:  # nothing left to draw: the rest is forgiven
                return count - remaining

    def reshuffle(self) -> None:
        event = self.c.take("reshuffle")
        stock = [self.c.card(text) for text in event["stock"]]
        under = Counter(self.discard[:-1])
        if Counter(stock) != under:
            self.fail("the new stock is not the discard pile without its top card")
        self.stock = list(reversed(stock))
        self.discard = self.discard[-1:]


def _clockwise_after(seat: int, active: list[int]) -> list[int]:
    """The seats of `active` clockwise, starting left of `seat` (so `seat` itself, if active, comes last)."""
    order = sorted(active)
    return [s for s in order if s > seat] + [s for s in order if s <= seat]


def _cards(counter: Counter) -> str:
    return " ".join(f"{card}" + (f"×{n}" if n > 1 else "") for card, n in sorted(counter.items()) if n > 0)
