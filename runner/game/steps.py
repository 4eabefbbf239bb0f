"""The steps both paths of a round take (runner/game/engine.py's fast path, runner/game/house_rules.py's path of every
rule): the seats in play and the next one, drawing and reshuffling, recording an event, ending the round.

`Steps` is the base of both paths' methods, on the state of runner/game/round_state.py; the
deal's shuffle and a reshuffle are `shuffle`.
"""

from __future__ import annotations

import random

from . import events
from .cards import Card
from .phases import OVER, WENT_OUT, EndReason
from .round_state import Outcome, RoundState
from .view import Event

try:  # rng.shuffle in C on the generator's own state (runner/game/_generator.pyx)
    from ._generator import shuffle as generator_shuffle  # type: ignore[import-not-found]  # a .pyx kernel
except ImportError:  # not built, MAUMAU_PURE=1, or stale (runner/accel.py): the loop of `shuffle` below
    generator_shuffle = None


def shuffle(rng: random.Random, cards: list) -> None:
    """`rng.shuffle(cards)`: the same permutation and rng state, without a method call per card."""
    if type(rng) is not random.Random:  # a subclass may draw differently
        rng.shuffle(cards)
        return
    if generator_shuffle is not None:
        generator_shuffle(rng, cards)
        return
    getrandbits = rng.getrandbits
    k = len(cards).bit_length()
    for i in range(len(cards) - 1, 0, -1):  # Fisher-Yates as in random.shuffle / _randbelow
        n = i + 1
        if n < 1 << (k - 1):  # k stays n.bit_length(): n falls by one a step
            k -= 1
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


def _seat_after(order: list[int], seat: int, direction: int) -> int:
    """The seat of `order` (the seats in play) that comes after `seat`, which may itself be out of play."""
    if seat in order:
        return order[(order.index(seat) + direction) % len(order)]
    later = [s for s in order if (s - seat) * direction > 0]
    if later:
        return later[0] if direction > 0 else later[-1]
    return order[0] if direction > 0 else order[-1]


def _seats_after(order: list[int], n_seats: int) -> dict[int, tuple[int, ...]]:
    """{direction: the seat of `order` after each seat of the match}, as Steps._step looks it up.

    Made once per (seats in play, seats of the match) and shared by the rounds that have them (read only)."""
    key = (tuple(order), n_seats)
    after = _AFTER.get(key)
    if after is None:
        after = _AFTER[key] = {
            direction: tuple([_seat_after(order, s, direction) for s in range(n_seats)]) for direction in (1, -1)
        }
    return after


# The log's builders and event types the steps record with, bound once: compiled, each is a C global read, where
# `events.draw` would look the name up in the module at every record (runner/game/steps.pxd).
DRAW_RECORD, NAME_SUIT_RECORD, CHALLENGE_RECORD, PASS_RECORD, SKIP_RECORD = (
    events.draw, events.name_suit, events.challenge, events.pass_, events.skip)
NAME_SUIT_EVENT, CHALLENGE_EVENT, PASS_EVENT = events.NAME_SUIT, events.CHALLENGE, events.PASS
_AFTER: dict[tuple[tuple[int, ...], int], dict[int, tuple[int, ...]]] = {}  # a few entries: seats in play per table


class Steps(RoundState):
    """The steps of a round both paths take (the fast one in runner/game/engine.py, the general one in
    runner/game/house_rules.py)."""

    __slots__ = ()

    def in_play(self) -> list[int]:
        """Seats that still take turns this round (active, not forfeited, not out by going out under play_on)."""
        out, finished = self.out, self.finished
        return [seat for seat in self.active if seat not in out and seat not in finished]

    def _clockwise_from(self, seat: int) -> list[int]:
        """Active seats in dealing order: clockwise, starting left of `seat`."""
        order = sorted(self.active)
        later = [s for s in order if s > seat]
        return later + [s for s in order if s <= seat]

    def _lead_seat(self) -> int:
        """The seat `deal.first_player` seats clockwise from the dealer (0: the dealer; -1: right of the dealer)."""
        order = self._clockwise_from(self.dealer)
        return order[(self.rules.first_player - 1) % len(order)]

    def _after_naming(self) -> int:
        """The seat that plays after the dealer named the suit: where the upcard's effects sent the turn."""
        resume, self.resume = self.resume, None
        return resume.nxt if resume is not None and resume.nxt >= 0 else self._lead_seat()

    def _penalty_for(self, seat: int) -> int:
        rules = self.rules
        return (rules.maumau_penalty if not self.hands[seat] else rules.mau_penalty) or 0

    def _others(self, seat: int) -> list[int]:
        """The other seats in play, in turn order from `seat` (which may itself be out of play)."""
        first = self._step(seat)
        others, nxt = [], first
        while True:
            if nxt != seat:
                others.append(nxt)
            nxt = self._step(nxt)
            if nxt == first:
                return others

    def _step(self, seat: int) -> int:
        """The next seat in play after `seat` in the current direction."""
        after = self._after
        if after is None:
            after = self._after = _seats_after(self.in_play(), self.n_seats)
        return after[self.direction][seat]

    def _draw(self, seat: int, count: int, reason: str) -> int:
        """`seat` draws up to `count` cards, reshuffling the discard pile into the stock as needed."""
        stock, hand = self.stock, self.hands[seat]
        if count == 1 and stock:  # the usual draw: one card, without the slices of several
            taken = [stock.pop()]
            hand.append(taken[0])
            self._record_draw(seat, taken, reason)
            return 1
        if 0 < count <= len(stock):  # no reshuffle on the way
            taken = stock[:-count - 1:-1]  # the top `count` cards, top first
            del stock[-count:]
            hand += taken
            self._record_draw(seat, taken, reason)
            return count
        taken, total = [], 0
        for _ in range(count):
            if not stock:
                if len(self.discard) < 2 or not self.rules.reshuffle:
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
        stock = self.discard[:-1]  # a new list: the Views made so far share the old one (runner/game/view.py)
        top = self.discard[-1]
        shuffle(self.rng, stock)
        self.stock, self.discard = stock, [top]
        self.history.append(self._made(Event, ("reshuffle", -1, None, None, len(stock), None, (), None, -1)))
        if self.log is not None:
            self.log.append(events.reshuffle(reversed(stock)))

    def _record_draw(self, seat: int, cards: list[Card], reason: str) -> None:
        self.history.append(self._made(Event, ("draw", seat, None, None, len(cards), reason, (), None, -1)))
        if self.log is not None:
            self.log.append((DRAW_RECORD, seat, cards, reason))

    def _record(self, kind: str, seat: int, card: Card | None = None, suit: str | None = None,
                count: int = 0, reason: str | None = None) -> None:
        self.history.append(self._made(Event, (kind, seat, card, suit, count, reason, (), None, -1)))
        log = self.log
        if log is None:
            return
        if kind == NAME_SUIT_EVENT:
            log.append((NAME_SUIT_RECORD, seat, suit))
        elif kind == CHALLENGE_EVENT:
            log.append((CHALLENGE_RECORD, seat, count))
        elif kind == PASS_EVENT:
            log.append((PASS_RECORD, seat))
        else:
            log.append((SKIP_RECORD, seat))

    def _finish(self, winner: int | None, reason: EndReason) -> None:
        if reason == WENT_OUT and self.out_card is None:
            self.out_card = self.discard[-1]  # the winner's last card (scoring.multiplier)
        self.winner, self.phase, self._legal = winner, OVER, ()
        self.outcome = Outcome(winner, reason)
