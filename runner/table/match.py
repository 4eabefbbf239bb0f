"""A match: rounds under the ruleset's format (single, limit, elimination, target, rounds, wins) and its tie-breaks."""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from typing import Any, Callable, NamedTuple, Sequence

from runner.game import events
from runner.game.cards import Card, parse_card
from runner.game.engine import Round, shuffle
from runner.game.ruleset import Ruleset
from runner.seats.seat import as_seat

from .referee import Fault, Referee

try:  # random.Random(text)'s generator, seeded in C for less (runner/game/_generator.pyx)
    from runner.game._generator import seeded_by_sha256, seeded_together
except ImportError:  # not built, MAUMAU_PURE=1, or stale (runner/accel.py)
    def seeded_by_sha256(text: str) -> random.Random:
        return random.Random(hashlib.sha256(text.encode()).hexdigest())

    def seeded_together(texts: list[str], texts_by_sha256: list[str]) -> list[random.Random]:
        return [random.Random(text) for text in texts] + [seeded_by_sha256(text) for text in texts_by_sha256]


@dataclass(frozen=True)
class TableChange:
    """Between rounds of a match whose format allows it: `player` joins, or `seat` leaves."""

    before_round: int
    kind: str  # join, leave
    player: str | None = None
    seat: int | None = None


# RoundSummary and MatchResult are NamedTuples (frozen, typed), made below by `_made` from all their fields in order:
# tuple.__new__ in C, without the interpreted __new__ that namedtuple writes (a tenth of a frozen dataclass's cost)
class RoundSummary(NamedTuple):
    """How one round ended: its winner, each seat's points, the totals after it."""

    number: int
    winner: int | None
    points: tuple[int, ...]
    totals: tuple[int, ...]
    deciding: bool = False
    order: tuple[int, ...] = ()  # round.play_on: the seats out in order, then those left with cards


class MatchResult(NamedTuple):
    """The outcome of one match; `ranking` lists every seat that stayed, best first."""

    match_id: str
    players: tuple[str, ...]
    ranking: tuple[int, ...]
    winners: tuple[int, ...]
    totals: tuple[int, ...]
    rounds_won: tuple[int, ...]
    rounds: tuple[RoundSummary, ...]
    faults: tuple[Fault, ...] = ()
    forfeited: tuple[int, ...] = ()
    left: tuple[int, ...] = ()
    decisions: int = 0


def _made(cls: type, fields: tuple) -> Any:
    """The NamedTuple `cls` of `fields`, every field in order."""
    return tuple.__new__(cls, fields)


class _MatchRules:
    """What a match reads of its ruleset round after round (match format, deal, round end), read once per ruleset:
    a field of the ruleset's pydantic models is read through their `__getattr__` hook, at several times the cost of
    a slot."""

    __slots__ = ("name", "data", "format", "limit", "rounds", "wins", "max_rounds", "tie_break", "max_deciding_rounds",
                 "exact_totals", "play_on", "dealer_rotation", "next_dealer", "reset_direction")

    def __init__(self, ruleset: Ruleset):
        # the ruleset's data, made once per Ruleset and shared by its logs, which are read, never changed
        self.name, self.data = ruleset.name, ruleset.derived("data", Ruleset.to_data)
        fmt, deal = ruleset.match, ruleset.deal
        self.format, self.limit, self.rounds, self.wins = fmt.format, fmt.limit, fmt.rounds, fmt.wins
        self.max_rounds, self.tie_break = fmt.max_rounds, fmt.tie_break
        self.max_deciding_rounds = fmt.max_deciding_rounds
        self.exact_totals, self.play_on = fmt.exact_totals, ruleset.round.play_on
        self.dealer_rotation, self.next_dealer, self.reset_direction = (deal.dealer_rotation, deal.next_dealer,
                                                                        deal.reset_direction)


# _rules_of's last answer, (ruleset, rules): every match of a tournament asks for the same
_last_rules: list[tuple] = [(None, None)]


def _rules_of(ruleset: Ruleset) -> _MatchRules:
    """The _MatchRules of `ruleset`, made once and kept with it (Ruleset.derived)."""
    last_ruleset, last_rules = _last_rules[0]
    if last_ruleset is ruleset:
        return last_rules
    rules = ruleset.derived("match_rules", _MatchRules)
    _last_rules[0] = (ruleset, rules)
    return rules


class _Table:
    """Who sits where, and how each seat stands, during a match."""

    __slots__ = ("players", "totals", "rounds_won", "eliminated", "forfeited", "left")

    def __init__(self, players: list[str]):
        self.players = players
        self.totals = [0] * len(players)
        self.rounds_won = [0] * len(players)
        self.eliminated: list[list[int]] = []  # batches, in order of elimination
        self.forfeited: list[int] = []
        self.left: list[int] = []

    def seated(self) -> list[int]:
        if not (self.forfeited or self.left or self.eliminated):  # most matches: every seat, every round
            return list(range(len(self.players)))
        gone = set(self.forfeited) | set(self.left) | {s for batch in self.eliminated for s in batch}
        return [seat for seat in range(len(self.players)) if seat not in gone]


def bot_rng(seed: int | str, seat: int) -> random.Random:
    """The random generator of the bot in `seat`, derived one-way (SHA-256) from the match seed.

    An isolated bot is sent its generator's state, and a Mersenne Twister's seeding can be run
    backwards: what it gives back must not name the match seed, which also seeds the deal.
    """
    return seeded_by_sha256(_seat_text(seed, seat))


def _seat_text(seed: int | str, seat: int) -> str:
    return f"maumau:{seed}:seat:{seat}"


def match_generators(seed: int | str, seats: int) -> list[random.Random]:
    """The generators of a match: the deal's (`random.Random(f"{seed}:deal")`), then each seat's bot's (`bot_rng`),
    seeded side by side."""
    return seeded_together([f"{seed}:deal"], [_seat_text(seed, seat) for seat in range(seats)])


class Match:
    """Plays one match between bots made by `make_bot(player, seat, rng)`."""

    def __init__(
        self,
        ruleset: Ruleset,
        players: Sequence[str],
        seed: int | str,
        make_bot: Callable,
        *,
        match_id: str = "match",
        referee: Referee | None = None,
        log: list | None = None,
        overrides: dict | None = None,
        changes: Sequence[TableChange] = (),
        ruleset_name: str | None = None,
        decks: Sequence[str] = (),
        between_rounds: Callable[[int], Sequence[TableChange]] | None = None,
    ):
        """`decks`: the deck of each round in turn (its cards top first, space-separated), from a deal file;
        rounds past them shuffle their own. `changes` are known in advance (`maumau play --join/--leave`);
        `between_rounds(number)`, asked before each round after the first, returns the changes decided
        meanwhile (a browser joining or leaving: runner/web)."""
        self.ruleset, self.seed, self.match_id = ruleset, seed, match_id
        self.rules = _rules_of(ruleset)
        self.decks = tuple(decks)
        self.make_bot, self.log, self.changes = make_bot, log, tuple(changes)
        self.between_rounds = between_rounds
        self.referee = referee or Referee(seed=seed)
        self.rng, *rngs = match_generators(seed, len(players))
        self.table = _Table(list(players))
        self.bots = [make_bot(player, seat, rng) for seat, (player, rng) in enumerate(zip(players, rngs))]
        self.seats = [as_seat(bot) for bot in self.bots]  # what the referee asks: one interface for every bot
        self.rounds: list[RoundSummary] = []
        self.decisions = 0
        self.direction: int | None = None  # None: the ruleset's initial direction
        self.dealer = len(players) - 1  # so that seat 0 leads the first round
        self.chosen_dealer: int | None = None  # the seat the last round chose to deal next (deal.next_dealer)
        if log is not None:
            rules = self.rules
            log.append(events.match_start(match_id, ruleset_name or rules.name, overrides or {}, rules.data,
                                          rules.limit, seed, players))

    # ------------------------------------------------------------------ rounds

    def play_round(self, number: int, dealer: int, active: list[int], deciding: bool = False) -> Round:
        """Deal and play one round among `active` seats; faults are handled by the referee."""
        table = self.table
        rnd = Round.deal(
            self.ruleset, self.rng, len(table.players), dealer=dealer, active=active, number=number,
            totals=table.totals, rounds_won=table.rounds_won, log=self.log, deciding=deciding,
            direction=self.direction, deck=self._deck(number, len(active)),
        )
        seats, players, play = self.seats, table.players, self.referee.play
        while True:
            decisions, forfeit = play(rnd, seats, players)  # until the round is over, or a seat forfeits
            self.decisions += decisions
            if forfeit is None:
                return rnd
            table.forfeited.append(forfeit.fault.seat)
            if self.log is not None:  # before what the forfeit sets off (skips waiting for the turn to pass)
                self.log.append(events.forfeit(forfeit.fault.seat))
            rnd.forfeit(forfeit.fault.seat)

    def _deck(self, number: int, players: int) -> list[Card] | None:
        """Round `number`'s deck from the deal file, if it has one of the size this table shuffles."""
        if number > len(self.decks):
            return None
        deck = [parse_card(text) for text in self.decks[number - 1].split()]
        if len(deck) != self.ruleset.deck_for(players).size:
            return None  # a table of another size shuffles another deck (elimination with copies_by_players)
        # the generator moves on as if it had shuffled: later reshuffles draw what they would have, so a
        # tournament played on its own deals is the same tournament
        shuffle(self.rng, [None] * len(deck))
        return deck

    def run(self) -> MatchResult:
        """Play rounds until the format says the match is over (or match.max_rounds were played); return the result."""
        table = self.table
        number = played = 0
        final_batch: list[int] = []
        while True:
            number += 1
            if number > 1 and self.between_rounds is not None:
                self.changes += tuple(self.between_rounds(number))
            self._table_changes(number)
            active = table.seated()
            if len(active) < 2:
                break
            if number > 1:  # rotate over the table as it is now, joined seats included
                self.dealer = self._next_dealer()
            self.dealer = self._dealer_for(self.dealer, active)
            rnd = self.play_round(number, self.dealer, active)
            points = rnd.points()
            exact = self.rules.exact_totals
            for seat in active:
                table.totals[seat] += points[seat]
                table.totals[seat] = exact.get(table.totals[seat], table.totals[seat])  # match.exact_totals
            if rnd.winner is not None:
                table.rounds_won[rnd.winner] += 1
            self._round_end(number, rnd, points, deciding=False)
            self._carry_direction(rnd)
            played += 1
            over, out = self._over(played)
            if out:
                final_batch = out
            if over:
                break
        return self._result(number, final_batch)

    def _over(self, played: int) -> tuple[bool, list[int]]:
        """Whether the format ends the match after `played` rounds; the seats eliminated by this round."""
        fmt, table = self.rules, self.table
        if fmt.format == "single":
            return True, []
        if fmt.format == "elimination":
            out = [s for s in table.seated() if table.totals[s] > fmt.limit]
            if out:
                table.eliminated.append(sorted(out, key=lambda s: (table.totals[s], s)))
                for seat in out:
                    if self.log is not None:
                        self.log.append(events.eliminated(seat, table.totals[seat]))
            return len(table.seated()) <= 1 or played >= fmt.max_rounds, out
        if played >= fmt.max_rounds:  # every match ends: the standing totals decide
            return True, []
        seated = table.seated()
        if fmt.format in ("limit", "target"):
            return any(table.totals[s] >= fmt.limit for s in seated), []
        if fmt.format == "rounds":
            return played >= fmt.rounds, []
        return any(table.rounds_won[s] >= fmt.wins for s in seated), []  # wins

    def _next_dealer(self) -> int:
        """The dealer of the next round: the seat the last round chose (deal.next_dealer), else the rotation."""
        chosen, self.chosen_dealer = self.chosen_dealer, None
        if chosen is not None:
            return chosen
        return (self.dealer + self.rules.dealer_rotation) % len(self.table.players)

    def _choose_dealer(self, rnd: Round) -> None:
        """deal.next_dealer: the round's winner, or its loser (most points; a tie: first clockwise from the dealer)."""
        how = self.rules.next_dealer
        if how == "winner":
            self.chosen_dealer = rnd.winner
        elif how == "loser":
            scores = rnd.scores()
            scored = [s for s in rnd.active if s != rnd.winner and s not in rnd.out]
            if scored:
                most = max(scores[s] for s in scored)
                n = len(self.table.players)
                self.chosen_dealer = next(seat for step in range(1, n + 1)
                                          if (seat := (rnd.dealer + step) % n) in scored and scores[seat] == most)

    def _carry_direction(self, rnd: Round) -> None:
        """The direction the next round starts in: the initial one, or (without reset) where this one ended."""
        self.direction = None if self.rules.reset_direction else rnd.direction

    def _dealer_for(self, dealer: int, active: list[int]) -> int:
        """`dealer` if still seated, else the next seated seat clockwise."""
        n = len(self.table.players)
        for step in range(n):
            seat = (dealer + step) % n
            if seat in active:
                return seat
        return active[0]

    def _round_end(self, number: int, rnd: Round, points: list[int], deciding: bool) -> None:
        order = None
        if self.rules.play_on:  # the seats out of the round in order, then those left with cards
            order = [*rnd.finished, *(seat for seat in rnd.in_play())]
        if not deciding and self.rules.next_dealer != "rotate":
            self._choose_dealer(rnd)
        # number, winner, points, totals, deciding, order
        self.rounds.append(_made(RoundSummary, (number, rnd.winner, tuple(points), tuple(self.table.totals), deciding,
                                                tuple(order or ()))))
        if self.log is not None:
            self.log.append(events.round_end(number, rnd.winner, points, self.table.totals, order))

    def _table_changes(self, number: int) -> None:
        table = self.table
        for change in self.changes:
            if change.before_round != number:
                continue
            if change.kind == "join":
                seated = table.seated()
                total = min((table.totals[s] for s in seated), default=0)
                seat = len(table.players)
                table.players.append(change.player)
                table.totals.append(total)
                table.rounds_won.append(0)
                self.bots.append(self.make_bot(change.player, seat, bot_rng(self.seed, seat)))
                self.seats.append(as_seat(self.bots[-1]))
                if self.log is not None:
                    self.log.append(events.join(seat, change.player, total))
            elif change.seat in table.seated():
                table.left.append(change.seat)
                if self.log is not None:
                    self.log.append(events.leave(change.seat))

    # ------------------------------------------------------------------ outcome

    def _result(self, rounds_played: int, final_batch: list[int]) -> MatchResult:
        fmt = self.rules
        table = self.table
        if fmt.format == "elimination":
            ranking, winners = self._rank_elimination(final_batch)
        elif fmt.format in ("target", "wins"):
            ranking, winners = self._rank_by_score()
        else:
            ranking, winners = self._rank_by_points(rounds_played)
        if table.forfeited:
            ranking = ranking + sorted(table.forfeited, key=lambda s: -table.forfeited.index(s))
        if not winners and ranking:
            winners = [ranking[0]]
        if self.log is not None:
            self.log.append(events.match_end(ranking, winners, table.totals, table.rounds_won))
        return _made(MatchResult, (
            self.match_id, tuple(table.players), tuple(ranking), tuple(winners), tuple(table.totals),
            tuple(table.rounds_won), tuple(self.rounds), tuple(self.referee.faults), tuple(table.forfeited),
            tuple(table.left), self.decisions,
        ))

    def _rank_by_points(self, rounds_played: int) -> tuple[list[int], list[int]]:
        """Fewest points first; the tie for first is broken by the format's tie-break."""
        table, fmt = self.table, self.rules
        seated = table.seated()
        if not seated:
            return [], []
        if fmt.format == "single":
            last = self.rounds[-1] if self.rounds else None
            if last is not None and last.order:  # round.play_on: the order the seats went out in
                place = {seat: index for index, seat in enumerate(last.order)}
                ranking = sorted(seated, key=lambda s: (place.get(s, len(place)), s))
                return ranking, ranking[:1]
            winner = last.winner if last else None
            if winner is not None:  # the winner, then fewest points (a stable sort of the seats in order: then by seat)
                others = sorted([s for s in seated if s != winner], key=table.totals.__getitem__)
                return ([winner, *others] if winner in seated else others), [winner]
            ranking = sorted(seated, key=lambda s: (table.totals[s], s))
            best = min(table.totals[s] for s in seated)
            return ranking, [s for s in ranking if table.totals[s] == best]
        key = lambda s: (table.totals[s], -table.rounds_won[s], s)  # noqa: E731
        best = min(table.totals[s] for s in seated)
        tied = [s for s in seated if table.totals[s] == best]
        if len(tied) > 1 and fmt.tie_break == "deciding_round" and fmt.format in ("limit", "rounds"):
            decider = self._deciding_round(tied, rounds_played)
            seated = table.seated()  # a seat may have forfeited during a deciding round
            if decider is not None:
                rest = sorted((s for s in seated if s != decider), key=key)
                return [decider] + rest, [decider]
            ranking = sorted(seated, key=key)
            return ranking, [s for s in tied if s in seated]
        ranking = sorted(seated, key=key)
        top = key(ranking[0])[:2]
        return ranking, [s for s in ranking if key(s)[:2] == top]

    def _rank_by_score(self) -> tuple[list[int], list[int]]:
        """target: the highest total first, then most rounds won; wins: most rounds won first, then fewest points."""
        table = self.table
        seated = table.seated()
        if self.rules.format == "target":
            key = lambda s: (-table.totals[s], -table.rounds_won[s], s)  # noqa: E731
        else:
            key = lambda s: (-table.rounds_won[s], table.totals[s], s)  # noqa: E731
        ranking = sorted(seated, key=key)
        if not ranking:
            return [], []
        top = key(ranking[0])[:2]
        return ranking, [s for s in ranking if key(s)[:2] == top]

    def _deciding_round(self, tied: list[int], rounds_played: int) -> int | None:
        """Extra rounds among the tied only; the first out wins; points are not added."""
        table = self.table
        for attempt in range(self.rules.max_deciding_rounds):
            number = rounds_played + attempt + 1
            active = [s for s in tied if s in table.seated()]
            self.dealer = self._dealer_for(self._next_dealer(), active)
            rnd = self.play_round(number, self.dealer, active, deciding=True)
            self._carry_direction(rnd)
            self._round_end(number, rnd, [0] * len(table.players), deciding=True)
            if rnd.winner is not None:
                return rnd.winner
            seated_tied = [s for s in tied if s in table.seated()]
            if len(seated_tied) == 1:
                return seated_tied[0]
            if not seated_tied:
                return None
        return None

    def _rank_elimination(self, final_batch: list[int]) -> tuple[list[int], list[int]]:
        """Survivors first, then the eliminated, latest first; a batch out together by total."""
        table = self.table
        survivors = sorted(table.seated(), key=lambda s: (table.totals[s], s))
        eliminated = [seat for batch in reversed(table.eliminated) for seat in batch]
        ranking = survivors + eliminated
        if survivors:
            return ranking, survivors if len(survivors) == 1 else [survivors[0]]
        if not final_batch:
            return ranking, []
        best = min(table.totals[s] for s in final_batch)
        return ranking, [s for s in final_batch if table.totals[s] == best]
