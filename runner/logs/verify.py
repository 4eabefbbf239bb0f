"""Verify a game log without the engine: the deal, every card's path, every play's legality, every total.

The checker reads the log (the JSON lines of docs: Game logs) as a grammar: a match is rounds
and table changes, a round is decisions, and each decision brings the draws and skips the rules
make it cause. It knows the rules only from the `rules` mapping in `match_start`, and it keeps
its own picture of the table (hands, stock, discard pile, whose turn) to hold every event
against. The first event that does not fit is reported with its number (its line).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from runner.game import events as ev
from runner.game.cards import Card, parse_card

from . import codec
from .codec import LogError
from .verify_round import RoundCheck
from .verify_rules import LogRules, RulesError


@dataclass(frozen=True)
class Summary:
    """What a verified log holds."""

    events: int
    rounds: int


def verify_file(path: Path | str) -> Summary:
    """Verify the log in `path` (plain or gzip); raises LogError if it cannot be read or at the first wrong event."""
    return verify(codec.read_log(path))


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


class _Checker:
    """Reads the events in order, holding each against the rules and the table as they stand."""

    def __init__(self, events: list[dict]):
        self.events, self.i, self.rounds = events, 0, 0
        self.known: dict[str, Card] = {}  # card notation read so far

    # ------------------------------------------------------------------ reading

    def fail(self, message: str) -> None:
        index = max(self.i - 1, 0)
        kind = self.events[index].get("type", "?") if index < len(self.events) else "end"
        raise LogError(f"event {index + 1} ({kind}): {message}")

    def peek(self) -> dict | None:
        return self.events[self.i] if self.i < len(self.events) else None

    def take(self, *types: str, why: Any = "") -> dict:
        """The next event, which must be of one of `types`; `why` (a text, or a function giving it) says what is due."""
        i = self.i
        self.i = i + 1
        if i < len(self.events):
            event = self.events[i]
            if event["type"] in types:
                return event
        why = why() if callable(why) else why
        because = f" ({why})" if why else ""
        if i >= len(self.events):
            raise LogError(f"the log ends after event {len(self.events)}; expected {' or '.join(types)}{because}")
        self.fail(f"expected {' or '.join(types)} here{because}")

    def seat_of(self, event: dict, seat: int, what: str) -> None:
        if event["seat"] != seat:
            self.fail(f"seat {event['seat']} {what}, but it is seat {seat}'s turn")

    def card(self, text: Any) -> Card:
        card = self.known.get(text)
        if card is None:
            try:
                card = self.known[text] = parse_card(text)
            except (ValueError, AttributeError, TypeError):
                self.fail(f"{text!r} is not a card")
        return card

    # ------------------------------------------------------------------ the match

    def match(self) -> None:
        start = self.take(ev.MATCH_START)
        try:
            rules = self.rules = LogRules(start["rules"])
        except RulesError as exc:
            self.fail(f"rules: {exc}")
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
        self.next_dealer: int | None = None  # the seat the last round chose to deal (deal.next_dealer)
        self.direction = rules.initial_direction
        self.last_order: list[int] = []
        number = played = 0
        while True:
            number += 1
            self.table_changes(number)
            if len(self.seated()) < 2:
                break
            winner = self.round(number, self.seated(), deciding=False)
            played += 1
            if winner is not None:
                self.won[winner] += 1
            if self.match_over(played):
                break
        decider = None
        if rules.format in ("limit", "rounds") and rules.tie_break == "deciding_round":
            decider, number = self.deciding_rounds(number)
        self.match_end(decider)
        if self.peek() is not None:
            self.i += 1
            self.fail("an event after match_end")

    def seated(self) -> list[int]:
        gone = self.left | set(self.forfeited) | {seat for batch in self.batches for seat in batch}
        return [seat for seat in range(len(self.players)) if seat not in gone]

    def table_changes(self, number: int) -> None:
        """Joins and leaves between rounds, where the rules allow them (match.table_changes, as in elimination)."""
        while (event := self.peek()) is not None and event["type"] in (ev.JOIN, ev.LEAVE):
            self.take(ev.JOIN, ev.LEAVE)
            if not self.rules.table_changes:
                self.fail("the rules do not allow players to join or leave (match.table_changes)")
            if number == 1:
                self.fail("players join or leave between rounds, not before the first")
            seated = self.seated()
            if event["type"] == ev.LEAVE:
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
        # players at the table, not seat numbers, once the round's changes are made: a seat left makes room
        if len(self.seated()) > self.rules.players_max:
            self.fail(f"more than players.max ({self.rules.players_max}) players at the table")

    def match_over(self, played: int) -> bool:
        """Whether the format ends the match after this round (or match.max_rounds); reads the eliminations."""
        rules = self.rules
        fmt = rules.format
        if fmt == "single":
            return True
        seated = self.seated()
        if fmt == "elimination":
            return self.eliminations() or played >= rules.max_rounds
        if played >= rules.max_rounds:
            return True
        if fmt in ("limit", "target"):
            return any(self.totals[s] >= rules.limit for s in seated)
        if fmt == "rounds":
            return played >= rules.rounds_to_play
        return any(self.won[s] >= rules.wins_needed for s in seated)  # wins

    def eliminations(self) -> bool:
        """The seats over the limit are out (one `eliminated` event each); True if one seat or none is left."""
        rules, seated = self.rules, self.seated()
        out = {s for s in seated if self.totals[s] > rules.limit}
        reported = set()
        while (event := self.peek()) is not None and event["type"] == ev.ELIMINATED:
            self.take(ev.ELIMINATED)
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
        event = self.take(ev.MATCH_END)
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
        elif rules.format in ("target", "wins"):
            expected = self.score_winners(ranked)
        else:
            expected = self.points_winners(ranked, decider)
        if not expected and ranking:
            expected = [ranking[0]]
        if sorted(winners) != sorted(expected):
            self.fail(f"winners {winners}, but the rules make it {sorted(expected)}")

    def points_winners(self, ranked: list[int], decider: int | None) -> list[int]:
        """Fewest points wins; the format's tie-break decides a tie for first."""
        totals = self.totals
        if self.rules.format == "single" and self.rules.play_on and self.last_order:
            place = {seat: index for index, seat in enumerate(self.last_order)}
            key = lambda s: (place.get(s, len(place)),)  # noqa: E731  the round's order out is the ranking
        elif self.rules.format == "single":
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

    def score_winners(self, ranked: list[int]) -> list[int]:
        """target: the highest total wins, then most rounds won; wins: most rounds won, then fewest points."""
        totals, won = self.totals, self.won
        if self.rules.format == "target":
            key = lambda s: (-totals[s], -won[s])  # noqa: E731
        else:
            key = lambda s: (-won[s], totals[s])  # noqa: E731
        self.ordered(ranked, key)
        return [s for s in ranked if key(s) == key(ranked[0])] if ranked else []

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
        start = self.take(ev.ROUND_START)
        rules, n = self.rules, len(self.players)
        if start["round"] != number:
            self.fail(f"round {start['round']}, expected round {number}")
        if bool(start["deciding"]) != deciding:
            self.fail("a deciding round is played only between players tied for the fewest points"
                      if start["deciding"] else "expected a deciding round between the tied players")
        dealer = start["dealer"]
        if self.dealer is not None:
            chosen = self.next_dealer if self.next_dealer is not None else (self.dealer + rules.rotation) % n
            expected = _first_at_or_after(chosen, active, n)
            if dealer != expected:
                how = f"the {rules.next_dealer} of the last round" if self.next_dealer is not None \
                    else "the deal rotates"
                self.fail(f"seat {expected} deals ({how}), not seat {dealer}")
        elif dealer not in active:
            self.fail(f"dealer {dealer} is not at the table")
        self.dealer = dealer
        direction = rules.initial_direction if rules.reset_direction or number == 1 else self.direction
        if start["direction"] != direction:
            self.fail(f"direction {start['direction']}, expected {direction}")
        rnd = RoundCheck(self, number, active, dealer, direction)
        rnd.deal(start)
        if start["first"] != rnd.lead:
            self.fail(f"seat {rnd.lead} leads (first_player {rules.first_player} from dealer {dealer}), not "
                      f"{start['first']}")
        rnd.play()
        self.direction = rnd.direction
        self.round_end(rnd, deciding)
        self.rounds += 1
        if not deciding:
            self.last_winner = rnd.winner
        return rnd.winner

    def round_end(self, rnd: "RoundCheck", deciding: bool) -> None:
        event = self.take(ev.ROUND_END)
        rules = self.rules
        if event["round"] != rnd.number:
            self.fail(f"round {event['round']} ends, but round {rnd.number} is being played")
        if event["winner"] != rnd.winner:
            self.fail(f"winner {event['winner']}, but the plays make it {rnd.winner}")
        if rules.play_on:
            self.round_order(rnd, event)
        elif "order" in event:
            self.fail("an order of the seats out, but the round does not play on (round.play_on)")
        points = [0] * len(self.players)
        scores = {}  # each hand's score, multiplied: the loser is who scores most
        if not deciding:  # a deciding round only decides: its points are not added
            scores = self.hand_scores(rnd)
            for seat, value in scores.items():
                points[seat] = value
            collectors = [rnd.winner] if rnd.winner is not None else []
            if rules.blocked == "difference" and rnd.winner is None:  # blocked, or a turn or hand limit reached
                collectors = [seat for seat, value in scores.items() if not value and sum(rnd.hands[seat].values())]
            if rules.winner_collects:  # nobody won and nobody collects: nobody scores
                points = [0] * len(self.players)
                for seat in collectors:
                    points[seat] = sum(scores.values())
            if rnd.winner is not None and rnd.winner_card is not None:
                points[rnd.winner] += int(rules.winner_scores.of(rnd.winner_card, 0))
        self.choose_next_dealer(rnd, scores)
        if event["points"] != points:
            self.fail(f"points {event['points']}, but the hands hold {points}")
        for seat, value in enumerate(points):
            self.totals[seat] += value
            self.totals[seat] = rules.exact_totals.get(self.totals[seat], self.totals[seat])
        if event["totals"] != self.totals:
            self.fail(f"totals {event['totals']}, expected {self.totals}")

    def hand_scores(self, rnd: "RoundCheck") -> dict[int, int]:
        """Each hand left's score (scoring): counted, multiplied; the highest only; a blocked round's differences."""
        rules = self.rules
        factor = rules.factor(rnd.winner_card) if rnd.winner is not None else 1
        scores = {seat: rules.hand_points(rnd.hands[seat], rnd.table) * factor
                  for seat in rnd.active if seat != rnd.winner and seat not in rnd.out}
        held = {seat: rnd.table.card_points(rnd.hands[seat]) for seat in scores if sum(rnd.hands[seat].values())}
        if rules.highest_only and held:
            most = max(held.values())
            scores.update({seat: 0 for seat, value in held.items() if value < most})
        if rules.blocked == "difference" and rnd.winner is None and held:
            lowest = min(scores[seat] for seat in held)
            scores.update({seat: scores[seat] - lowest for seat in held})
        return scores

    def round_order(self, rnd: "RoundCheck", event: dict) -> None:
        """round.play_on: the seats out, in the order they went out, then those left with cards."""
        order, left = event.get("order"), [s for s in rnd.active if s not in rnd.finished and s not in rnd.out]
        if not isinstance(order, list) or order[:len(rnd.finished)] != rnd.finished or \
                sorted(order[len(rnd.finished):]) != left:
            self.fail(f"order {order}, but the seats went out as {rnd.finished}, then {left}")
        self.last_order = order

    def choose_next_dealer(self, rnd: "RoundCheck", scores: dict[int, int]) -> None:
        """deal.next_dealer: the loser (most points; a tie: the first clockwise from the dealer) or the winner."""
        how = self.rules.next_dealer
        self.next_dealer = None
        if how == "winner":
            self.next_dealer = rnd.winner
        elif how == "loser" and scores:
            most = max(scores.values())
            n = len(self.players)
            self.next_dealer = next(seat for step in range(1, n + 1)
                                    if scores.get(seat := (rnd.dealer + step) % n) == most)

    def forfeit(self, seat: int) -> None:
        self.forfeited.append(seat)


def _first_at_or_after(seat: int, candidates: list[int], n: int) -> int:
    """The first of `candidates` clockwise from `seat` (itself included)."""
    for step in range(n):
        if (seat + step) % n in candidates:
            return (seat + step) % n
    return candidates[0]
