"""One round of Mau Mau as a pure state machine: deal, legal actions, play, events. Seeded, no I/O.

As OpenSpiel and python-chess shape theirs: `Game` is a ruleset's rule tables (`Game.of(ruleset)`),
`Round` one state of it. `legal()` lists the actions of the seat to act, `play(action)` checks
one and carries it out, `apply(action)` carries out one of `legal()` unchecked (the fast path
of playouts), `over` and `outcome` say whether and how the round ended, `points()` scores it.
The engine is also the simulator for search bots: `clone()` copies a state cheaply, and
`Round.from_view(view, rng, hands, stock)` (or `Round.sample(view, rng)`) makes the state a View
describes with its hidden cards filled in; docs/bots.md describes the protocol.

Two paths play a round. The fast path below plays the rules of the first rulesets (draw, skip,
reverse, wild, play again, others draw) with precomputed play tables; a ruleset that uses any
other rule (runner/game/tables.py: `Game.general`) is played by the general path
(runner/game/house_rules.py), which plays every rule and gives the same logs for the first ones.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Sequence

from . import events
from .actions import (
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
from .cards import SUITS, Card
from .events import ACE, AGAIN, CHOICE, OTHERS, PENALTY, SEVEN, STUCK, GameLog
from .house_rules import General, known_hands
from .phases import (
    BLOCKED,
    CHALLENGING,
    DRAWN,
    FORFEITED,
    GIVING,
    HAND_LIMIT,
    JUMP_IN,
    NAME_SUIT,
    OVER,
    PLAY,
    SWAPPING,
    TURN_LIMIT,
    WENT_OUT,
    EndReason,
    Phase,
)
from .round_state import Outcome, RoundState, slot_offset
from .ruleset import Ruleset
from .steps import generator_shuffle as generator_shuffle  # whether the deal shuffles in C (tests/test_generator.py)
from .steps import shuffle
from .tables import Game
from .view import Event, Resume, View

__all__ = [
    "BLOCKED", "CHALLENGING", "DRAWN", "FORFEITED", "GIVING", "HAND_LIMIT", "JUMP_IN", "NAME_SUIT", "OVER", "PLAY",
    "SWAPPING", "TURN_LIMIT", "WENT_OUT", "EndReason", "Game", "IllegalAction", "Outcome", "Phase", "Round",
    "hidden_cards", "shuffle", "unseen_cards",
]


class IllegalAction(ValueError):
    """An action `Round.play` was given that is not legal in the state."""


def unseen_cards(view: View) -> list[Card]:
    """The cards `view.seat` cannot see (other hands and the stock): the deck minus its hand and the discard pile."""
    players = len(view.active)
    deck = Counter(Game.of(view.ruleset, players).deck_for(players)[0])
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


# Where a Play and a Card hold the fields a play reads: compiled, they are read there (runner/game/round_state.pxd:
# _slot), at a tenth of the cost of the look-up by name; -1 in pure Python, which looks them up.
PLAY_CARD, PLAY_SUIT, PLAY_ANNOUNCE = (slot_offset(Play, "card"), slot_offset(Play, "suit"),
                                       slot_offset(Play, "announce"))
CARD_SUIT, CARD_ORDINAL, CARD_TEXT = slot_offset(Card, "suit"), slot_offset(Card, "ordinal"), slot_offset(Card, "text")


def _field(obj: object, offset: int):
    """The __slots__ field of `obj` at `offset` (`slot_offset`), read there: compiled only (runner/game/round_state.pxd
    `_slot`, inlined here); the one call of it in this module, so that the rest reads as Python."""
    return _slot(obj, offset)  # type: ignore[name-defined]  # noqa: F821  # a C function of round_state.pxd


def _ordinal(card: Card) -> int:
    """`card.ordinal` (cards.py), the index of its plays in a table of Game.plays_on; compiled, read where the card
    holds it."""
    if CARD_ORDINAL >= 0 and type(card) is Card:
        return _field(card, CARD_ORDINAL)
    return card.ordinal


def _texts(cards) -> list[str]:
    """The texts of `cards` (the log's round_start names every card dealt); compiled, each read where the card holds
    it."""
    if CARD_TEXT >= 0:
        return [_field(card, CARD_TEXT) if type(card) is Card else card.text for card in cards]
    return [card.text for card in cards]


# The log's builder of a play, bound once: compiled, a C global read, where `events.play` would look the name up in the
# module at every play (runner/game/engine.pxd).
PLAY_RECORD = events.play
_DRAW_ONLY = (DRAW,)  # the legal actions of a seat in phase play with no card to play and no penalty pending


class Round(General):
    """The state of one round. Seats are numbered across the match; `active` lists those dealt in."""

    __slots__ = ()  # the state: runner/game/round_state.py

    def __init__(self, rules: Game, rng: random.Random):
        self.rules, self.rng = rules, rng
        self.general = rules.general
        self.single_deck = False  # True when no card can be in a hand twice (set by `deal`)
        self._after = None  # {direction: next seat in play after each seat}, built on first use
        self._seated = None  # the tuple of `active` a View holds, made on first use
        self.pending_card, self.pending_from, self.skip_pending, self.skip_card = None, -1, 0, None
        self.waits: tuple[int, ...] = ()  # empty while no seat must miss turns
        self.deferred, self.wish, self.wish_left, self.next_rank = 0, None, 0, None
        self.shown: tuple = ()
        self.finished: tuple[int, ...] = ()
        self.resume: Resume | None = None
        self.again_card: Card | None = None
        self.out_card: Card | None = None

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
        log: GameLog | list | None = None,
        deciding: bool = False,
    ) -> "Round":
        """Shuffle (or take `deck`, top card first), deal and turn up: a round ready for its first decision."""
        active = list(active) if active is not None else list(range(n_seats))
        self = cls(Game.of(ruleset, len(active)), rng)
        self._deal(ruleset, n_seats, dealer, active, direction, deck, number, totals, rounds_won, log, deciding)
        return self

    def _deal(self, ruleset: Ruleset, n_seats: int, dealer: int, active: list[int], direction: int | None,
              deck: Sequence[Card] | None, number: int, totals: Sequence[int] | None,
              rounds_won: Sequence[int] | None, log: GameLog | list | None, deciding: bool) -> None:
        """`deal` on the new round (a method of it, so that its fields are C struct members where compiled)."""
        rules, rng, players = self.rules, self.rng, len(active)
        self.n_seats, self.active = n_seats, active
        self.direction = direction if direction is not None else rules.initial_direction
        self.number, self.dealer = number, dealer
        self.totals = tuple(totals) if totals is not None else (0,) * n_seats
        self.rounds_won = tuple(rounds_won) if rounds_won is not None else (0,) * n_seats
        self.log = events.sink(log)  # records to keep, or a reader's list fed each event as a dict
        if deck is None:
            unshuffled, copies = rules.deck_for(players)
            cards = list(unshuffled)  # the order of make_deck(ranks, copies, jokers)
            shuffle(rng, cards)
            self.single_deck = copies == 1
        else:
            cards = list(reversed(deck))  # internally the top card is last, so pop() draws it
            self.single_deck = len(set(cards)) == len(cards)
        # One card at a time clockwise from left of the dealer: the seat k-th in dealing order gets
        # the k-th, (k+n)-th, ... cards off the top (the end of `cards`).
        order, size = self._clockwise_from(dealer), rules.hand_size_for(players)
        dealt = cards[:-len(order) * size - 1:-1]
        del cards[-len(order) * size:]
        self.hands = [[] for _ in range(n_seats)]
        for k, seat in enumerate(order):
            self.hands[seat] = dealt[k::len(order)]
        self.out = set()
        upcards = [cards.pop()]
        taken = self._upcards_to_dealer(upcards, cards) if rules.upcard_to_dealer else ()
        if rules.flip_while_action:
            while upcards[-1] in rules.action and cards:
                upcards.append(cards.pop())
        self.stock, self.discard = cards, upcards
        top = upcards[-1]
        self.suit = rules.suit_of[top]
        self.pending = self.chain = self.idle = self.turns = 0
        self.again, self.drawn, self.missed, self.winner, self.outcome = False, None, None, None, None
        self.history, self._legal = [], None
        lead = self._lead_seat()
        if log is not None:
            log.append(events.round_start(number, dealer, lead, self.direction, deciding,
                                          [_texts(hand) for hand in self.hands], _texts(reversed(self.stock)),
                                          _texts(upcards), _texts(taken)))
        self.current, self.phase = lead, PLAY
        if self.general:
            self._upcard(top)
        else:
            if rules.upcard_acts and top in rules.action:
                self._powers(dealer, top)
            if top in rules.wild and rules.dealer_names_suit and self.phase != OVER:
                # After the suit is named, the turn goes where the upcard's effects sent it.
                self.resume = Resume(dealer, played=False, nxt=self.current)
                self.phase, self.current = NAME_SUIT, dealer

    def _upcards_to_dealer(self, upcards: list[Card], cards: list[Card]) -> list[Card]:
        """upcard.effects to_dealer: while the upcard has a power, the dealer (if dealt in) takes it; then the next."""
        taken: list[Card] = []
        if self.dealer in self.active:
            while upcards[-1] in self.rules.action and cards:
                taken.append(upcards.pop())
                upcards.append(cards.pop())
            self.hands[self.dealer] += taken
        return taken

    def clone(self, rng: random.Random | None = None) -> "Round":
        """An independent copy for search (no log); `rng` drives its reshuffles (default: a copy of ours)."""
        other = Round.__new__(Round)
        for name in RoundState.__slots__:
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
        suit: str | None,
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
        wish: str | None = None,
        wish_left: int = 0,
        pending_skip: int = 0,
        next_rank: tuple[str, str] | None = None,
        waits: Sequence[int] = (),
        shown: Sequence[tuple[int, Sequence[Card]]] = (),
        out_order: Sequence[int] = (),
        pending_card: Card | None = None,
        pending_from: int = -1,
        skip_card: Card | None = None,
        deferred: int = 0,
        resume: Resume | None = None,
    ) -> "Round":
        """A round in mid-play from its parts (for search bots): `stock` top card first, `discard` top card last.

        In phase `drawn` the drawn card is the last card of the current hand; in phase
        `challenge`, `missed` is (offending seat, announcement missed); in phase `name_suit`
        the current seat is the dealer. The keywords after `idle` are the state of the house
        rules, as the View has them (runner/game/view.py). No log is written.
        """
        active = list(active) if active is not None else [s for s in range(len(hands)) if hands[s]]
        game = Game.of(ruleset, len(active))
        self = cls(game, rng)
        self.n_seats = len(hands)
        self.active = active
        self.out = set(out)
        self.single_deck = game.deck_for(len(active))[1] == 1
        self.hands = [list(hand) for hand in hands]
        self.stock, self.discard = list(reversed(stock)), list(discard)
        self.suit, self.current, self.phase = suit, current, Phase(phase)  # a View's phase may be a plain str
        self.pending, self.chain, self.direction, self.again = pending, chain, direction, again
        self.drawn = self.hands[current][-1] if phase == DRAWN and game.drawn_card != "go_on" else None
        self.missed = missed
        self.dealer = current if dealer is None else dealer
        self.number, self.turns, self.idle, self.winner, self.outcome = number, turns, idle, None, None
        self.totals = tuple(totals) if totals is not None else (0,) * self.n_seats
        self.rounds_won = tuple(rounds_won) if rounds_won is not None else (0,) * self.n_seats
        self.history, self.log, self._legal = list(history), None, None
        self.wish, self.wish_left, self.skip_pending, self.next_rank = wish, wish_left, pending_skip, next_rank
        self.waits = tuple(waits) if any(waits) else ()
        self.shown = tuple((seat, tuple(cards)) for seat, cards in shown)
        self.finished = tuple(out_order)
        self.pending_card = pending_card if pending_card is not None or not pending else self.discard[-1]
        self.pending_from, self.skip_card, self.deferred, self.resume = pending_from, skip_card, deferred, resume
        if pending_skip and skip_card is None:
            self.skip_card = self.discard[-1]
        if again:
            self.again_card = self._again_card_of(current)
        self.out_card = self._out_card_of()
        return self

    @classmethod
    def from_view(
        cls, view: View, rng: random.Random, hands: Sequence[Sequence[Card]], stock: Sequence[Card]
    ) -> "Round":
        """The state `view` describes, with its hidden cards given: a hand per seat and the stock, top card first.

        `view` is the view of the seat to act, as a bot receives it; everything in it (its own hand,
        the pile, the counters, the history, the state of the house rules) is kept, and
        `hands[view.seat]` is taken from it. Each other hand must have its size in
        `view.hand_sizes`, the stock `view.stock_size` cards.
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
            turns=view.turns, idle=view.idle, wish=view.wish, wish_left=view.wish_left,
            pending_skip=view.pending_skip, next_rank=view.next_rank, waits=view.waits, shown=view.shown,
            out_order=view.out_order, pending_card=view.pending_card, pending_from=view.pending_from,
            skip_card=view.skip_card, deferred=view.deferred, resume=view.resume,
            dealer=view.seat if view.phase == NAME_SUIT else None,
        )

    @classmethod
    def sample(cls, view: View, rng: random.Random) -> "Round":
        """A state consistent with `view`, its hidden cards dealt uniformly at random with `rng` (which goes on to
        drive the state's reshuffles).

        Cards a seat is known to hold (it showed its hand, and has not played them since) stay with it.
        """
        pool = hidden_cards(view)
        known = known_hands(view) if view.shown else {}
        if known:
            left = Counter(pool)
            for seat, cards in known.items():
                cards = [card for card in cards if left[card] > 0 and not left.subtract((card,))]
                known[seat] = cards[:view.hand_sizes[seat]]
            pool = sorted(left.elements())
        rng.shuffle(pool)
        hands: list[list[Card]] = []
        at = 0
        for seat, size in enumerate(view.hand_sizes):
            fixed = known.get(seat, [])
            taken = 0 if seat == view.seat else size - len(fixed)
            hands.append(fixed + pool[at:at + taken])
            at += taken
        return cls.from_view(view, rng, hands, pool[at:])

    # ------------------------------------------------------------------ queries

    @property
    def over(self) -> bool:
        """Whether the round has ended (`outcome` says how)."""
        return self.phase == OVER

    @property
    def game(self) -> Game:
        """The rule tables this round is played under."""
        return self.rules

    @property
    def top(self) -> Card:
        return self.discard[-1]

    def playable(self, card: Card) -> bool:
        """Whether `card` may go on the discard pile now, ignoring a pending draw."""
        if self.general:
            return self._alone(card, self.hands[self.current])
        return self.rules.playable(card, self.discard[-1], self.suit)

    def _playable_now(self) -> tuple[tuple[Play, ...] | None, ...]:
        """The fast path's plays of each card on the pile now, by its ordinal (an index costs less than `playable`):
        the table `legal` finds its plays in (which cards it holds does not depend on the announcement)."""
        return self.rules.plays_on(None, self.discard[-1], self.suit)

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
        if self.general:
            return self._glegal()
        phase = self.phase
        if phase == PLAY:
            hand = self.hands[self.current]
            left = len(hand) - 1
            due = self.rules.due_after[left] if 0 <= left < 2 else None  # announcement_due(left), inlined
            actions: list[Action] = []
            if self.pending:
                rules = self.rules
                top = self.discard[-1]
                limit = rules.chain_limit.get(top)
                if (limit is None or self.chain < limit) and top in rules.stack:
                    rank, wild = top.rank, rules.wild
                    for card in dict.fromkeys(hand):
                        if card.rank == rank:  # only the same rank passes a penalty on
                            if card in wild:  # a wild draw card still names a suit
                                actions.extend([play(card, suit, due) for suit in SUITS])
                            else:
                                actions.append(play(card, None, due))
            else:
                rules = self.rules
                table = rules.plays_on(due, self.discard[-1], self.suit)
                for card in hand if self.single_deck else dict.fromkeys(hand):
                    found = table[_ordinal(card)]
                    if found is not None:
                        if len(found) == 1:  # a card of one play (a wild card has one per suit)
                            actions.append(found[0])
                        else:
                            actions += found
                if actions and rules.stuck_only:
                    return tuple(actions)
            if not actions:  # no card to play: one tuple for every such decision (a View holds it, read only)
                return _DRAW_ONLY
            actions.append(DRAW)
            return tuple(actions)
        if phase == DRAWN:
            left = len(self.hands[self.current]) - 1
            due = self.rules.due_after[left] if 0 <= left < 2 else None  # announcement_due(left), inlined
            drawn: Card = self.drawn  # type: ignore[assignment]  # phase drawn: the card drawn
            plays = self.rules.plays_on(due, self.discard[-1], self.suit)[_ordinal(drawn)]
            return (plays or ()) + (PASS,)
        if phase == NAME_SUIT:
            return tuple([name_suit(suit) for suit in SUITS])
        if phase == CHALLENGING:
            return (CHALLENGE, PASS)
        return ()

    def canonical(self, action: object) -> Action | None:
        """The engine's own legal action that `action` asks for, or None if it is not legal.

        Checks types exactly, so that no look-alike object (a str subclass, a card with a
        rigged `__eq__`, a tuple subclass of cards) reaches the state; a Play's announcement may
        be wrong or missing (that costs the ruleset's penalty, it is not a fault). Where only the
        last card's power applies, the middle cards of a play of several may come in any order.
        """
        legal = self._legal or self.legal()
        for candidate in legal:
            if candidate is action:  # the usual answer: one of `view.legal` itself
                return candidate
        kind = type(action)
        if type(action) is Play:
            return self._canonical_play(action, legal)
        if type(action) is NameSuit:
            if type(action.suit) is str and action.suit in SUITS:
                wanted = name_suit(action.suit)
                return wanted if wanted in legal else None
            return None
        if type(action) is Swap:
            if type(action.seat) is int and 0 <= action.seat < self.n_seats:
                chosen: Action = swap(action.seat)
                return chosen if chosen in legal else None
            return None
        if type(action) is Give:
            if type(action.card) is Card:
                chosen = give(action.card)
                return chosen if chosen in legal else None
            return None
        for singleton in (DRAW, PASS, CHALLENGE):
            if kind is type(singleton):
                return singleton if singleton in legal else None
        return None

    def _canonical_play(self, action: Play, legal: tuple[Action, ...]) -> Play | None:
        card, suit, announce, more, rank = action.card, action.suit, action.announce, action.more, action.rank
        if type(card) is not Card or not (suit is None or type(suit) is str) or not (rank is None or type(rank) is str):
            return None
        if not (announce is None or type(announce) is str) or type(more) is not tuple:
            return None
        for other in more:
            if type(other) is not Card:
                return None
        announce = announce if announce in ("mau", "maumau") else None
        for candidate in legal:
            if (type(candidate) is Play and candidate.card is card and candidate.suit == suit and candidate.rank == rank
                    and candidate.more == more):
                return play(card, suit, announce, more, rank)
        if len(more) > 2 and not self.rules.power_each:  # the same cards, the middle ones in another order
            middle = sorted(more[:-1])
            for candidate in legal:
                if (type(candidate) is Play and candidate.card is card and candidate.suit == suit
                        and candidate.rank == rank and len(candidate.more) == len(more)
                        and candidate.more[-1] is more[-1] and sorted(candidate.more[:-1]) == middle):
                    return play(card, suit, announce, candidate.more, rank)
        return None

    def points(self) -> list[int]:
        """Each seat's points for this round (the scoring keys of the ruleset; 0 for seats not in it)."""
        if not self.rules.plain_scoring:
            return self._gpoints()
        points = [0] * self.n_seats
        values, hands, out, winner = self.rules.points, self.hands, self.out, self.winner
        for seat in self.active:
            if seat != winner and seat not in out:
                total = 0
                for card in hands[seat]:  # a loop, not sum() of a generator: a generator object per seat where compiled
                    total += values[card.rank]
                points[seat] = total
        return points

    def view(self, seat: int | None = None, move_time: float | None = None, time_bank: float | None = None) -> View:
        """What `seat` (default: the seat to act) may know now; the referee adds the seat's clock."""
        if seat is None or seat == self.current:
            seat, legal = self.current, self._legal
            if legal is None:  # the usual case, right after an apply: computed here, one call fewer
                legal = self._legal = self._compute_legal()
        else:
            legal = ()
        return self._view(seat, legal, move_time, time_bank)

    # ------------------------------------------------------------------ transitions

    def play(self, action: object) -> Action:
        """Check `action` and carry it out; IllegalAction if it is not legal now. Returns the action carried out.

        A Play's announcement may be missing or wrong (it costs the ruleset's penalty); the
        action carried out is the engine's own (`canonical(action)`).
        """
        chosen = self.canonical(action)
        if chosen is None:
            what = "the round is over" if self.phase == OVER else f"legal: {', '.join(map(str, self.legal()))}"
            known = (Play, Draw, Pass, NameSuit, Challenge, Swap, Give)
            shown = str(action) if isinstance(action, known) else repr(action)
            raise IllegalAction(f"{shown} is not legal for seat {self.current} in phase {self.phase} ({what})")
        Round.apply(self, chosen)  # the engine's own transition, also under a subclass that wraps apply
        return chosen

    def apply(self, action: Action) -> None:
        """Carry out `action`, one of `legal()`, unchecked: the fast path of playouts (`play` checks it first)."""
        self._legal = None
        self.turns += 1
        if self.general:
            self._gapply(action)
            return
        seat, phase = self.current, self.phase
        if phase == PLAY:
            if type(action) is Draw:
                if self.pending:
                    got = self._draw(seat, self.pending, SEVEN)
                    self.pending = self.chain = 0
                    self._end_turn(seat, got)
                    return
                if self.again:  # the extra turn of a play-again card, which is on top
                    reason = ACE if self.discard[-1].rank == "A" else AGAIN
                else:
                    reason = STUCK if self.rules.stuck_only or not self._can_play(seat) else CHOICE
                got = self._draw(seat, 1, reason)
                if got and self.rules.play_drawn and self._playable_now()[_ordinal(self.hands[seat][-1])] is not None:
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
            self.suit = action.suit  # type: ignore[union-attr]  # phase name_suit: a NameSuit
            self._record("name_suit", seat, suit=self.suit)
            self.phase, self.current = PLAY, self._after_naming()
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

    def _can_play(self, seat: int) -> bool:
        playable = self._playable_now()
        for card in self.hands[seat]:  # a loop, not any(): no generator when compiled
            if playable[_ordinal(card)] is not None:
                return True
        return False

    def _play(self, seat: int, action: Play) -> None:
        if PLAY_CARD >= 0 and type(action) is Play:  # compiled: read where the Play holds each field
            card, named, announce = _field(action, PLAY_CARD), _field(action, PLAY_SUIT), _field(action, PLAY_ANNOUNCE)
        else:
            card, named, announce = action.card, action.suit, action.announce
        hand, rules = self.hands[seat], self.rules
        for at in range(len(hand)):  # hand.remove(card) by identity (cards are interned; == on a Card calls Python)
            if hand[at] is card:
                del hand[at]
                break
        else:
            hand.remove(card)
        self.discard.append(card)
        # a legal play names a suit exactly when its card is wild (Game.plays_on, _compute_legal)
        if named is not None:
            self.suit = named
        elif CARD_SUIT >= 0 and type(card) is Card:
            self.suit = _field(card, CARD_SUIT)
        else:
            self.suit = card.suit
        self.again = False
        self.idle = 0
        self.history.append(self._made(Event, ("play", seat, card, named, 0, announce, (), None, -1)))
        if self.log is not None:
            self.log.append((PLAY_RECORD, seat, card, named, announce))
        left = len(hand)
        due = rules.due_after[left] if left < 2 else None
        missed = due is not None and announce != due
        if missed:
            if rules.challenge:
                self.missed = (seat, due)  # type: ignore[assignment]  # missed: due is set
            else:
                self._draw(seat, self._penalty_for(seat), PENALTY)
        if not hand and not (missed and rules.challenge):  # a penalty with nothing to draw is forgiven: out
            if rules.last_card_draws:
                self._last_card_draws(seat, card)
            self._finish(seat, WENT_OUT)
        elif card in rules.action:
            self._powers(seat, card)
        else:  # a plain card: the turn simply passes on
            self._next_turn(seat, self._step(seat))

    def _powers(self, seat: int, card: Card) -> None:
        """Apply the power of `card`, just played (or turned up) by `seat`, and pass the turn on.

        (A card that both skips and plays again is played by the general path, which keeps the
        skip for when the extra turn is over.)
        """
        rules = self.rules
        if card in rules.draw:
            self.chain = self.chain + 1 if self.pending else 0
            self.pending += rules.draw[card]
        if card in rules.reverse:
            self.direction = -self.direction
        if card in rules.others_draw:
            for other in self._others(seat):
                self._draw(other, rules.others_draw[card], OTHERS)
        if card in rules.again and self.hands[seat]:
            if card in rules.skip_others:
                for other in self._others(seat):
                    self._record("skip", other)
            self._next_turn(seat, seat)
            self.again = True
            return
        nxt = self._step(seat)
        for _ in range(rules.skip.get(card, 0)):
            self._record("skip", nxt)
            nxt = self._step(nxt)
        self._next_turn(seat, nxt)

    def _last_card_draws(self, seat: int, card: Card) -> None:
        rules = self.rules
        if card in rules.draw:
            self._draw(self._step(seat), self.pending + rules.draw[card], SEVEN)
            self.pending = 0
        if card in rules.others_draw:
            for other in self._others(seat):
                self._draw(other, rules.others_draw[card], OTHERS)

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

    def forfeit(self, seat: int) -> None:
        """Take `seat` out of the round (a fault policy's forfeit): its cards stay put, unscored."""
        self._legal = self._after = None
        self.out.add(seat)
        if self.general:
            self._gforfeit(seat)
            return
        remaining = self.in_play()
        if len(remaining) <= 1:
            self._finish(remaining[0] if remaining else None, FORFEITED)
            return
        if self.missed is not None and self.missed[0] == seat:
            self.missed = None
        if self.current == seat:
            self.drawn = None  # a pending draw penalty passes on to the next seat
            self._next_turn(seat, self._step(seat))
