"""One round of Mau Mau as a pure state machine: deal, legal actions, play, events. Seeded, no I/O.

As OpenSpiel and python-chess shape theirs: `Game` is a ruleset compiled (`Game.of(ruleset)`),
`Round` one state of it. `legal()` lists the actions of the seat to act, `play(action)` checks
one and carries it out, `apply(action)` carries out one of `legal()` unchecked (the fast path
of playouts), `over` and `outcome` say whether and how the round ended, `points()` scores it.
The engine is also the simulator for search bots: `clone()` copies a state cheaply, and
`Round.from_view(view, rng, hands, stock)` (or `Round.sample(view, rng)`) makes the state a View
describes with its hidden cards filled in; docs/bots.md describes the protocol.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Sequence

from . import events
from .actions import CHALLENGE, DRAW, PASS, Action, Challenge, Draw, NameSuit, Pass, Play, name_suit, play
from .cards import SUITS, Card, make_deck
from .events import ACE, CHOICE, OTHERS, PENALTY, SEVEN, STUCK
from .ruleset import Ruleset
from .view import Event, View

PLAY, DRAWN, NAME_SUIT, CHALLENGING, OVER = "play", "drawn", "name_suit", "challenge", "over"

# `_new(View, fields)` is `View(*fields)` without the NamedTuple's Python-level __new__: the
# engine builds a View per decision and an Event per move, so the call is worth saving.
_new = tuple.__new__


class IllegalAction(ValueError):
    """An action `Round.play` was given that is not legal in the state."""


# Why a round ended (Outcome.reason).
WENT_OUT, BLOCKED, TURN_LIMIT, FORFEITED = "went_out", "blocked", "turn_limit", "forfeited"


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a round ended: the seat that won it (None: nobody), and why it ended.

    `reason` is `went_out` (the winner played its last card), `blocked` (a turn of every seat in
    play passed without a card played or drawn), `turn_limit` (the ruleset's turn_limit was
    reached) or `forfeited` (all seats but at most one were taken out by the fault policy; the
    one left, if any, wins).
    """

    winner: int | None
    reason: str


class Game:
    """A Ruleset compiled into flat lookups for the hot path: `Game.of(ruleset)`, built once per Ruleset."""

    def __init__(self, ruleset: Ruleset):
        self.ruleset = ruleset
        powers = ruleset.powers
        self.draw = {rank: p.draw for rank, p in powers.items() if p.draw}
        self.stack = {rank for rank, p in powers.items() if p.draw and p.stack}
        self.chain_limit = {rank: p.chain_limit for rank, p in powers.items() if p.draw}
        self.skip = {rank: p.skip for rank, p in powers.items() if p.skip}
        self.reverse = {rank for rank, p in powers.items() if p.reverse}
        self.wild = {rank for rank, p in powers.items() if p.wild}
        self.wild_on_wild = {rank for rank, p in powers.items() if p.wild and p.wild_on_wild}
        self.again = {rank for rank, p in powers.items() if p.play_again or p.skip_others}
        self.skip_others = {rank for rank, p in powers.items() if p.skip_others}
        self.others_draw = {rank: p.others_draw for rank, p in powers.items() if p.others_draw}
        self.action_ranks = frozenset(rank for rank, p in powers.items() if p.is_action)
        self.points: dict[str, int] = {rank: value for rank, value in ruleset.points.items()}
        self.stuck_only = ruleset.drawing.when == "stuck"
        self.play_drawn = ruleset.drawing.drawn_card == "play_or_keep"
        mau, maumau = ruleset.announcements.mau, ruleset.announcements.maumau
        self.mau_penalty = mau.penalty if mau.required else None
        self.maumau_penalty = maumau.penalty if maumau.required else None
        self.challenge = ruleset.announcements.enforcement == "challenge"
        self.last_card_draws = ruleset.last_card_draws
        self.turn_limit = ruleset.turn_limit
        # The announcement due with a play that leaves 0 or 1 cards (None: not required).
        self.due_after = ("maumau" if self.maumau_penalty is not None else None,
                          "mau" if self.mau_penalty is not None else None)
        self.deck_cards = tuple(make_deck(ruleset.deck.ranks))
        self.play_tables: dict[tuple, dict[Card, tuple[Play, ...]]] = {}

    def playable(self, card: Card, top_rank: str, suit: str) -> bool:
        """The legal-move rule: may `card` go on a `top_rank` card with `suit` to follow (ignoring a pending draw)?"""
        if card.rank in self.wild:
            return top_rank not in self.wild or card.rank in self.wild_on_wild
        return card.rank == top_rank or card.suit == suit

    def plays_on(self, due: str | None, top_rank: str, suit: str) -> dict[Card, tuple[Play, ...]]:
        """Each card playable on `top_rank` with `suit` to follow, with its plays (a wild card: one per suit).

        Built once per (announcement due, top rank, suit), so that finding the legal plays of a
        hand is one dictionary look-up per card.
        """
        key = (due, top_rank, suit)
        table = self.play_tables.get(key)
        if table is None:
            table = self.play_tables[key] = {
                card: tuple(play(card, named, due) for named in SUITS)
                if card.rank in self.wild
                else (play(card, None, due),)
                for card in self.deck_cards
                if self.playable(card, top_rank, suit)
            }
        return table

    @classmethod
    def of(cls, ruleset: Ruleset) -> "Game":
        """The compiled rules of `ruleset`, built once and kept with it (`Ruleset.derived`)."""
        return ruleset.derived("game", cls)


def shuffle(rng: random.Random, cards: list) -> None:
    """`rng.shuffle(cards)`: the same permutation and rng state, without a method call per card."""
    if type(rng) is not random.Random:  # a subclass may draw differently
        rng.shuffle(cards)
        return
    getrandbits = rng.getrandbits
    for i in range(len(cards) - 1, 0, -1):  # Fisher-Yates as in random.shuffle / _randbelow
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


def unseen_cards(view: View) -> list[Card]:
    """The cards `view.seat` cannot see (other hands and the stock): the deck minus its hand and the discard pile."""
    ruleset = view.ruleset
    deck = Counter(make_deck(ruleset.deck.ranks, ruleset.deck.copies_for(len(view.active))))
    deck.subtract(view.hand)
    deck.subtract(view.discard)
    if any(count < 0 for count in deck.values()):
        raise ValueError("the view holds cards its ruleset's deck does not have")
    return sorted(deck.elements())  # sorted: a sample then depends on the rng alone


def hidden_cards(view: View) -> list[Card]:
    """`unseen_cards(view)`, checked to be as many as the other hands and the stock hold."""
    hidden = unseen_cards(view)
    count = sum(size for seat, size in enumerate(view.hand_sizes) if seat != view.seat)
    if count + view.stock_size != len(hidden):
        raise ValueError(
            f"view of seat {view.seat} is inconsistent: {len(hidden)} unseen cards for "
            f"{count} in other hands and {view.stock_size} in the stock"
        )
    return hidden


def _seat_after(order: list[int], seat: int, direction: int) -> int:
    """The seat of `order` (the seats in play) that comes after `seat`, which may itself be out of play."""
    if seat in order:
        return order[(order.index(seat) + direction) % len(order)]
    later = [s for s in order if (s - seat) * direction > 0]
    if later:
        return later[0] if direction > 0 else later[-1]
    return order[0] if direction > 0 else order[-1]


class Round:
    """The state of one round. Seats are numbered across the match; `active` lists those dealt in."""

    __slots__ = (
        "rules", "rng", "n_seats", "active", "hands", "stock", "discard", "suit", "current", "phase",
        "pending", "chain", "direction", "again", "drawn", "missed", "idle", "turns", "winner",
        "dealer", "number", "totals", "rounds_won", "history", "log", "_legal", "out", "_after",
        "single_deck", "outcome",
    )
    rules: Game
    rng: random.Random
    n_seats: int
    active: list[int]  # the seats dealt in, in seat order
    hands: list[list[Card]]  # per seat of the match; [] for a seat not dealt in
    stock: list[Card]  # top card last
    discard: list[Card]  # top card last
    suit: str
    current: int
    phase: str
    pending: int
    chain: int
    direction: int
    again: bool
    drawn: Card | None
    missed: tuple[int, str] | None
    idle: int
    turns: int
    winner: int | None
    dealer: int
    number: int
    totals: tuple[int, ...]
    rounds_won: tuple[int, ...]
    history: list[Event]
    log: list[dict] | None
    _legal: tuple[Action, ...] | None
    out: set[int]
    _after: dict[int, tuple[int, ...]] | None
    single_deck: bool
    outcome: Outcome | None

    def __init__(self, rules: Game, rng: random.Random):
        self.rules, self.rng = rules, rng
        self.single_deck = False  # True when no card can be in a hand twice (set by `deal`)
        self._after = None  # {direction: next seat in play after each seat}, built on first use

    # ------------------------------------------------------------------ set-up

    @classmethod
    def deal(
        cls,
        ruleset: Ruleset,
        rng: random.Random,
        n_seats: int,
        dealer: int = 0,
        active: Sequence[int] | None = None,
        direction: int | None = None,
        deck: Sequence[Card] | None = None,
        number: int = 1,
        totals: Sequence[int] | None = None,
        rounds_won: Sequence[int] | None = None,
        log: list | None = None,
        deciding: bool = False,
    ) -> "Round":
        """Shuffle (or take `deck`, top card first), deal and turn up: a round ready for its first decision."""
        rules = Game.of(ruleset)
        self = cls(rules, rng)
        self.n_seats = n_seats
        self.active = list(active) if active is not None else list(range(n_seats))
        self.direction = direction if direction is not None else ruleset.deal.initial_direction
        self.number, self.dealer = number, dealer
        self.totals = tuple(totals) if totals is not None else (0,) * n_seats
        self.rounds_won = tuple(rounds_won) if rounds_won is not None else (0,) * n_seats
        self.log = log
        if deck is None:
            copies = ruleset.deck.copies_for(len(self.active))
            cards = list(rules.deck_cards) * copies  # the order of make_deck(ranks, copies)
            shuffle(rng, cards)
            self.single_deck = copies == 1
        else:
            cards = list(reversed(deck))  # internally the top card is last, so pop() draws it
            self.single_deck = len(set(cards)) == len(cards)
        # One card at a time clockwise from left of the dealer: the seat k-th in dealing order gets
        # the k-th, (k+n)-th, ... cards off the top (the end of `cards`).
        order, size = self._clockwise_from(dealer), ruleset.hand_size
        dealt = cards[:-len(order) * size - 1:-1]
        del cards[-len(order) * size:]
        self.hands = [[] for _ in range(n_seats)]
        for k, seat in enumerate(order):
            self.hands[seat] = dealt[k::len(order)]
        self.out = set()
        upcards = [cards.pop()]
        if ruleset.upcard.flip_while_action:
            while upcards[-1].rank in rules.action_ranks and cards:
                upcards.append(cards.pop())
        self.stock, self.discard = cards, upcards
        top = upcards[-1]
        self.suit = top.suit
        self.pending = self.chain = self.idle = self.turns = 0
        self.again, self.drawn, self.missed, self.winner, self.outcome = False, None, None, None, None
        self.history, self._legal = [], None
        if log is not None:
            log.append(events.round_start(number, dealer, self._lead_seat(), self.direction, deciding, self.hands,
                                          reversed(self.stock), upcards))
        self.current, self.phase = self._lead_seat(), PLAY
        if ruleset.upcard.effects == "as_dealer_play" and top.rank in rules.action_ranks:
            self._powers(dealer, top)
        if top.rank in rules.wild and ruleset.upcard.dealer_names_suit and self.phase != OVER:
            self.phase, self.current = NAME_SUIT, dealer
        return self

    def _clockwise_from(self, seat: int) -> list[int]:
        """Active seats in dealing order: clockwise, starting left of `seat`."""
        order = sorted(self.active)
        later = [s for s in order if s > seat]
        return later + [s for s in order if s <= seat]

    def _lead_seat(self) -> int:
        order = self._clockwise_from(self.dealer)
        return order[(self.rules.ruleset.deal.first_player - 1) % len(order)]

    def clone(self, rng: random.Random | None = None) -> "Round":
        """An independent copy for search (no log); `rng` drives its reshuffles (default: a copy of ours)."""
        other = Round.__new__(Round)
        for name in Round.__slots__:
            setattr(other, name, getattr(self, name))
        if rng is None:
            rng = random.Random.__new__(random.Random)  # unseeded: setstate overwrites it, skip os.urandom
            rng.setstate(self.rng.getstate())
        other.rng = rng
        other.hands = [list(hand) for hand in self.hands]
        other.stock, other.discard = list(self.stock), list(self.discard)
        other.active, other.out = list(self.active), set(self.out)
        other.history, other.log = list(self.history), None
        return other

    @classmethod
    def from_parts(
        cls,
        ruleset: Ruleset,
        rng: random.Random,
        hands: Sequence[Sequence[Card]],
        stock: Sequence[Card],
        discard: Sequence[Card],
        suit: str,
        current: int,
        phase: str = PLAY,
        pending: int = 0,
        direction: int = 1,
        *,
        active: Sequence[int] | None = None,
        out: Sequence[int] = (),
        chain: int = 0,
        again: bool = False,
        missed: tuple[int, str] | None = None,
        dealer: int | None = None,
        number: int = 1,
        totals: Sequence[int] | None = None,
        rounds_won: Sequence[int] | None = None,
        history: Sequence[Event] = (),
        turns: int = 0,
        idle: int = 0,
    ) -> "Round":
        """A round in mid-play from its parts (for search bots): `stock` top card first, `discard` top card last.

        In phase `drawn` the drawn card is the last card of the current hand; in phase
        `challenge`, `missed` is (offending seat, announcement missed); in phase `name_suit`
        the current seat is the dealer. No log is written.
        """
        self = cls(Game.of(ruleset), rng)
        self.n_seats = len(hands)
        self.active = list(active) if active is not None else [s for s in range(self.n_seats) if hands[s]]
        self.out = set(out)
        self.single_deck = ruleset.deck.copies_for(len(self.active)) == 1
        self.hands = [list(hand) for hand in hands]
        self.stock, self.discard = list(reversed(stock)), list(discard)
        self.suit, self.current, self.phase = suit, current, phase
        self.pending, self.chain, self.direction, self.again = pending, chain, direction, again
        self.drawn = self.hands[current][-1] if phase == DRAWN else None
        self.missed = missed
        self.dealer = current if dealer is None else dealer
        self.number, self.turns, self.idle, self.winner, self.outcome = number, turns, idle, None, None
        self.totals = tuple(totals) if totals is not None else (0,) * self.n_seats
        self.rounds_won = tuple(rounds_won) if rounds_won is not None else (0,) * self.n_seats
        self.history, self.log, self._legal = list(history), None, None
        return self

    @classmethod
    def from_view(
        cls, view: View, rng: random.Random, hands: Sequence[Sequence[Card]], stock: Sequence[Card]
    ) -> "Round":
        """The state `view` describes, with its hidden cards given: a hand per seat and the stock, top card first.

        `view` is the view of the seat to act, as a bot receives it; everything in it (its own hand,
        the pile, the counters, the history) is kept, and `hands[view.seat]` is taken from it.
        Each other hand must have its size in `view.hand_sizes`, the stock `view.stock_size` cards.
        """
        hands = [list(hand) for hand in hands]
        hands[view.seat] = list(view.hand)  # in order: in phase `drawn` the drawn card is last
        if [len(hand) for hand in hands] != list(view.hand_sizes) or len(stock) != view.stock_size:
            raise ValueError(f"hidden cards of sizes {[len(hand) for hand in hands]} and a stock of {len(stock)} "
                             f"do not fit the view's {list(view.hand_sizes)} and {view.stock_size}")
        return cls.from_parts(
            view.ruleset, rng, hands, stock, view.discard, view.suit, view.seat, view.phase, view.pending,
            view.direction, active=view.active, out=view.out, chain=view.chain, again=view.again, missed=view.missed,
            number=view.round, totals=view.totals, rounds_won=view.rounds_won, history=view.history,
            turns=view.turns, idle=view.idle,
        )

    @classmethod
    def sample(cls, view: View, rng: random.Random) -> "Round":
        """A state consistent with `view`, its hidden cards dealt uniformly at random with `rng` (which goes on to
        drive the state's reshuffles)."""
        pool = hidden_cards(view)
        rng.shuffle(pool)
        hands: list[list[Card]] = []
        at = 0
        for seat, size in enumerate(view.hand_sizes):
            taken = 0 if seat == view.seat else size
            hands.append(pool[at:at + taken])
            at += taken
        return cls.from_view(view, rng, hands, pool[at:])

    # ------------------------------------------------------------------ queries

    @property
    def over(self) -> bool:
        """Whether the round has ended (`outcome` says how)."""
        return self.phase == OVER

    @property
    def game(self) -> Game:
        """The compiled rules this round is played under."""
        return self.rules

    @property
    def top(self) -> Card:
        return self.discard[-1]

    def in_play(self) -> list[int]:
        """Seats that still take turns this round (active and not forfeited)."""
        return [seat for seat in self.active if seat not in self.out]

    def playable(self, card: Card) -> bool:
        """Whether `card` may go on the discard pile now, ignoring a pending draw."""
        return self.rules.playable(card, self.discard[-1].rank, self.suit)

    def announcement_due(self, cards_left: int) -> str | None:
        """The announcement a play leaving `cards_left` cards needs, if the ruleset requires one."""
        return self.rules.due_after[cards_left] if 0 <= cards_left < 2 else None

    def legal(self) -> tuple[Action, ...]:
        """Every legal action of the seat to act, plays carrying the announcement due."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return legal

    def _compute_legal(self) -> tuple[Action, ...]:
        phase = self.phase
        if phase == PLAY:
            hand = self.hands[self.current]
            left = len(hand) - 1
            due = self.rules.due_after[left] if 0 <= left < 2 else None  # announcement_due(left), inlined
            actions: list[Action] = []
            if self.pending:
                rank = self.discard[-1].rank
                limit = self.rules.chain_limit.get(rank)
                if (limit is None or self.chain < limit) and rank in self.rules.stack:
                    suits = SUITS if rank in self.rules.wild else (None,)  # a wild draw card still names a suit
                    for card in dict.fromkeys(hand):
                        if card.rank == rank:  # only the same rank passes a penalty on
                            actions.extend(play(card, suit, due) for suit in suits)
            else:
                rules = self.rules
                top_rank, suit = self.discard[-1].rank, self.suit
                table = rules.play_tables.get((due, top_rank, suit)) or rules.plays_on(due, top_rank, suit)
                for card in hand if self.single_deck else dict.fromkeys(hand):
                    found = table.get(card)
                    if found is not None:
                        actions += found
                if actions and rules.stuck_only:
                    return tuple(actions)
            actions.append(DRAW)
            return tuple(actions)
        if phase == DRAWN:
            due = self.announcement_due(len(self.hands[self.current]) - 1)
            plays = self.rules.plays_on(due, self.discard[-1].rank, self.suit)
            return plays.get(self.drawn, ()) + (PASS,)  # type: ignore[arg-type]  # drawn: a Card in phase drawn
        if phase == NAME_SUIT:
            return tuple(name_suit(suit) for suit in SUITS)
        if phase == CHALLENGING:
            return (CHALLENGE, PASS)
        return ()

    def canonical(self, action: object) -> Action | None:
        """The engine's own legal action that `action` asks for, or None if it is not legal.

        Checks types exactly, so that no look-alike object (a str subclass, a card with a
        rigged `__eq__`) reaches the state; a Play's announcement may be wrong or missing
        (that costs the ruleset's penalty, it is not a fault).
        """
        legal = self._legal or self.legal()
        for candidate in legal:
            if candidate is action:  # the usual answer: one of `view.legal` itself
                return candidate
        kind = type(action)
        if type(action) is Play:
            card, suit, announce = action.card, action.suit, action.announce
            if type(card) is not Card or not (suit is None or type(suit) is str):
                return None
            if not (announce is None or type(announce) is str):
                return None
            for candidate in legal:
                if type(candidate) is Play and candidate.card is card and candidate.suit == suit:
                    return play(card, suit, announce if announce in ("mau", "maumau") else None)
            return None
        if type(action) is NameSuit:
            if type(action.suit) is str and action.suit in SUITS:
                wanted = name_suit(action.suit)
                return wanted if wanted in legal else None
            return None
        for singleton in (DRAW, PASS, CHALLENGE):
            if kind is type(singleton):
                return singleton if singleton in legal else None
        return None

    def points(self) -> list[int]:
        """Each seat's points for this round (0 for the winner and for seats not in it)."""
        points = [0] * self.n_seats
        values = self.rules.points
        for seat in self.active:
            if seat != self.winner and seat not in self.out:
                points[seat] = sum(values[card.rank] for card in self.hands[seat])
        return points

    def view(self, seat: int | None = None, move_time: float | None = None, time_bank: float | None = None) -> View:
        """What `seat` (default: the seat to act) may know now; the referee adds the seat's clock."""
        if seat is None or seat == self.current:
            seat, legal = self.current, self._legal
            if legal is None:  # the usual case, right after an apply: computed here, one call fewer
                legal = self._legal = self._compute_legal()
        else:
            legal = ()
        hands = self.hands
        return _new(View, (
            seat, tuple(hands[seat]), self.discard[-1], self.suit, self.phase, self.pending, self.direction,
            tuple(map(len, hands)), len(self.stock), tuple(self.discard), self.totals,
            self.rounds_won, self.number, tuple(self.active), self.rules.ruleset, tuple(self.history),
            legal, self.again, self.chain, self.missed, self.turns, self.idle,
            tuple(sorted(self.out)) if self.out else (), move_time, time_bank,
        ))

    # ------------------------------------------------------------------ transitions

    def play(self, action: object) -> Action:
        """Check `action` and carry it out; IllegalAction if it is not legal now. Returns the action carried out.

        A Play's announcement may be missing or wrong (it costs the ruleset's penalty); the
        action carried out is the engine's own (`canonical(action)`).
        """
        chosen = self.canonical(action)
        if chosen is None:
            what = "the round is over" if self.phase == OVER else f"legal: {', '.join(map(str, self.legal()))}"
            shown = str(action) if isinstance(action, (Play, Draw, Pass, NameSuit, Challenge)) else repr(action)
            raise IllegalAction(f"{shown} is not legal for seat {self.current} in phase {self.phase} ({what})")
        Round.apply(self, chosen)  # the engine's own transition, also under a subclass that wraps apply
        return chosen

    def apply(self, action: Action) -> None:
        """Carry out `action`, one of `legal()`, unchecked: the fast path of playouts (`play` checks it first)."""
        self._legal = None
        self.turns += 1
        seat, phase = self.current, self.phase
        if phase == PLAY:
            if type(action) is Draw:
                if self.pending:
                    got = self._draw(seat, self.pending, SEVEN)
                    self.pending = self.chain = 0
                    self._end_turn(seat, got)
                    return
                if self.again:
                    reason = ACE
                else:
                    reason = STUCK if self.rules.stuck_only or not self._can_play(seat) else CHOICE
                got = self._draw(seat, 1, reason)
                if got and self.rules.play_drawn and self.playable(self.hands[seat][-1]):
                    self.drawn, self.phase = self.hands[seat][-1], DRAWN
                    return
                self._end_turn(seat, got)
                return
            self._play(seat, action)  # type: ignore[arg-type]  # not a Draw, so a Play
        elif phase == DRAWN:
            self.drawn = None
            if type(action) is Pass:
                self._record("pass", seat)
                self._end_turn(seat, 1)
                return
            self._play(seat, action)  # type: ignore[arg-type]  # not a Pass, so a Play
        elif phase == NAME_SUIT:
            self.suit = action.suit  # type: ignore[union-attr,assignment]  # phase name_suit: a NameSuit
            self._record("name_suit", seat, suit=action.suit)  # type: ignore[union-attr]  # phase name_suit: a NameSuit
            self.phase, self.current = PLAY, self._lead_seat()
        elif phase == CHALLENGING:
            offender, _ = self.missed  # type: ignore[misc]  # phase challenge: missed is set
            self.missed = None
            if type(action) is Challenge:
                self._record("challenge", seat, count=offender)
                self._draw(offender, self._penalty_for(offender), PENALTY)
            else:  # logged always, so that a log shows every decision
                self._record("pass", seat)
                if not self.hands[offender]:
                    if self.pending and self.rules.last_card_draws:  # the final 7 still counts
                        self._draw(seat, self.pending, SEVEN)
                    self._finish(offender, WENT_OUT)
                    return
            self.phase = PLAY
        if self.turns >= self.rules.turn_limit and self.phase != OVER:
            self._finish(None, TURN_LIMIT)

    def _penalty_for(self, seat: int) -> int:
        rules = self.rules
        return (rules.maumau_penalty if not self.hands[seat] else rules.mau_penalty) or 0

    def _can_play(self, seat: int) -> bool:
        return any(self.playable(card) for card in self.hands[seat])

    def _play(self, seat: int, action: Play) -> None:
        card, hand, rules = action.card, self.hands[seat], self.rules
        hand.remove(card)
        self.discard.append(card)
        # a wild card's play names a suit
        self.suit = action.suit if card.rank in rules.wild else card.suit  # type: ignore[assignment]
        self.again = False
        self.idle = 0
        self.history.append(_new(Event, ("play", seat, card, action.suit, 0, action.announce)))
        if self.log is not None:
            self.log.append(events.play(seat, card, action.suit, action.announce))
        left = len(hand)
        due = rules.due_after[left] if left < 2 else None
        missed = due is not None and action.announce != due
        if missed:
            if rules.challenge:
                self.missed = (seat, due)  # type: ignore[assignment]  # due is not None: missed
            else:
                self._draw(seat, self._penalty_for(seat), PENALTY)
        if not hand and not (missed and rules.challenge):  # a penalty with nothing to draw is forgiven: out
            if rules.last_card_draws:
                self._last_card_draws(seat, card)
            self._finish(seat, WENT_OUT)
        elif card.rank in rules.action_ranks:
            self._powers(seat, card)
        else:  # a plain card: the turn simply passes on
            self._next_turn(seat, self._step(seat))

    def _powers(self, seat: int, card: Card) -> None:
        """Apply the power of `card`, just played (or turned up) by `seat`, and pass the turn on."""
        rules, rank = self.rules, card.rank
        if rank in rules.draw:
            self.chain = self.chain + 1 if self.pending else 0
            self.pending += rules.draw[rank]
        if rank in rules.reverse:
            self.direction = -self.direction
        if rank in rules.others_draw:
            for other in self._others(seat):
                self._draw(other, rules.others_draw[rank], OTHERS)
        if rank in rules.again and self.hands[seat]:
            if rank in rules.skip_others:
                for other in self._others(seat):
                    self._record("skip", other)
            self._next_turn(seat, seat)
            self.again = True
            return
        nxt = self._step(seat)
        for _ in range(rules.skip.get(rank, 0)):
            self._record("skip", nxt)
            nxt = self._step(nxt)
        self._next_turn(seat, nxt)

    def _last_card_draws(self, seat: int, card: Card) -> None:
        rules, rank = self.rules, card.rank
        if rank in rules.draw:
            self._draw(self._step(seat), self.pending + rules.draw[rank], SEVEN)
            self.pending = 0
        if rank in rules.others_draw:
            for other in self._others(seat):
                self._draw(other, rules.others_draw[rank], OTHERS)

    def _others(self, seat: int) -> list[int]:
        """The other seats in play, in turn order from `seat`."""
        others, nxt = [], self._step(seat)
        while nxt != seat:
            others.append(nxt)
            nxt = self._step(nxt)
        return others

    def _step(self, seat: int) -> int:
        """The next seat in play after `seat` in the current direction."""
        after = self._after
        if after is None:
            order = self.in_play()
            after = self._after = {
                direction: tuple(_seat_after(order, s, direction) for s in range(self.n_seats))
                for direction in (1, -1)
            }
        return after[self.direction][seat]

    def _end_turn(self, seat: int, gained: int) -> None:
        """A turn ended without a play: count it toward a blocked round, then pass the turn on."""
        self.idle = 0 if gained else self.idle + 1
        playing = len(self.in_play()) if self.out else len(self.active)
        if self.idle >= playing or self.turns >= self.rules.turn_limit:
            self._finish(None, BLOCKED if self.idle >= playing else TURN_LIMIT)
            return
        self._next_turn(seat, self._step(seat))

    def _next_turn(self, seat: int, nxt: int) -> None:
        self.current, self.phase = nxt, PLAY
        if self.missed is not None and self.missed[0] != nxt:
            self.phase = CHALLENGING
        if nxt != seat:
            self.again = False

    def _draw(self, seat: int, count: int, reason: str) -> int:
        """`seat` draws up to `count` cards, reshuffling the discard pile into the stock as needed."""
        stock, hand = self.stock, self.hands[seat]
        if 0 < count <= len(stock):  # the usual case: no reshuffle on the way
            taken = stock[:-count - 1:-1]  # the top `count` cards, top first
            del stock[-count:]
            hand += taken
            self._record_draw(seat, taken, reason)
            return count
        taken, total = [], 0
        for _ in range(count):
            if not stock:
                if len(self.discard) < 2:
                    break
                if taken:
                    self._record_draw(seat, taken, reason)
                    taken = []
                self._reshuffle()
                stock = self.stock
            card = stock.pop()
            hand.append(card)
            taken.append(card)
            total += 1
        if taken or count:
            self._record_draw(seat, taken, reason)
        return total

    def _reshuffle(self) -> None:
        top = self.discard.pop()
        stock = self.discard
        shuffle(self.rng, stock)
        self.stock, self.discard = stock, [top]
        self.history.append(_new(Event, ("reshuffle", -1, None, None, len(stock), None)))
        if self.log is not None:
            self.log.append(events.reshuffle(reversed(stock)))

    def _record_draw(self, seat: int, cards: list[Card], reason: str) -> None:
        self.history.append(_new(Event, ("draw", seat, None, None, len(cards), reason)))
        if self.log is not None:
            self.log.append(events.draw(seat, cards, reason))

    def _record(self, kind: str, seat: int, card: Card | None = None, suit: str | None = None,
                count: int = 0, reason: str | None = None) -> None:
        self.history.append(_new(Event, (kind, seat, card, suit, count, reason)))
        log = self.log
        if log is None:
            return
        if kind == events.NAME_SUIT:
            log.append(events.name_suit(seat, suit))  # type: ignore[arg-type]  # a name_suit event has a suit
        elif kind == events.CHALLENGE:
            log.append(events.challenge(seat, count))
        elif kind == events.PASS:
            log.append(events.pass_(seat))
        else:
            log.append(events.skip(seat))

    def _finish(self, winner: int | None, reason: str) -> None:
        self.winner, self.phase, self._legal = winner, OVER, ()
        self.outcome = Outcome(winner, reason)

    def forfeit(self, seat: int) -> None:
        """Take `seat` out of the round (a fault policy's forfeit): its cards stay put, unscored."""
        self._legal = self._after = None
        self.out.add(seat)
        remaining = self.in_play()
        if len(remaining) <= 1:
            self._finish(remaining[0] if remaining else None, FORFEITED)
            return
        if self.missed is not None and self.missed[0] == seat:
            self.missed = None
        if self.current == seat:
            self.drawn = None  # a pending draw penalty passes on to the next seat
            self._next_turn(seat, self._step(seat))
