"""The engine's general path: a round under every rule of the ruleset model (docs/house-rules.md).

A ruleset that uses a rule beyond the fast path's (`Game.general`, runner/game/tables.py) is
played by these methods of Round (runner/game/engine.py), which this class is a base of; for the
rules both paths know they give the same logs. A play is carried out in steps: the cards leave
the hand, the active suit and any wish follow the last one, the announcements are judged, then
the powers of the cards apply in order (`_effects`: self_draw, draw and its target, cancels or
returns, reverse, others_draw, pass_hands, swap_hands, give, take, then show_next, next_rank, skip,
skip_others, play_again); where a seat must decide in the middle (a swap partner, a card to
give, a chance to jump in), the state holds a `Resume` and the round waits in that phase.
"""

from __future__ import annotations

from typing import Sequence

from . import events
from .actions import CHALLENGE, DRAW, PASS, Action, Challenge, Draw, Pass, Play, give, name_suit, play, swap
from .cards import SUITS, Card
from .events import ACE, AGAIN, CHOICE, FALSE_CALL, OTHERS, PENALTY, SELF, SEVEN, STUCK
from .multiple import sequences
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
)
from .steps import Steps
from .tables import RANK_INDEX
from .view import Event, Resume, View

# How a play answers what is pending (Resume.answer).
STACK, CANCEL, RETURN, SKIP = "stack", "cancel", "return", "skip"

_NONE: frozenset[Card] = frozenset()
_NAMING_NOTHING = ((None, None),)
_SUIT_NAMINGS = tuple((suit, None) for suit in SUITS)


class General(Steps):
    """The general path of Round (runner/game/engine.py), on the steps both paths take (runner/game/steps.py)."""

    __slots__ = ()

    # ------------------------------------------------------------------ the upcard

    def _upcard(self, top: Card) -> None:
        """An action upcard acts as the dealer's play (upcard.effects); after a wild one, the dealer names the suit."""
        rules = self.rules
        if rules.upcard_acts and top in rules.action:
            self._effects(Resume(self.dealer, (top,), played=False))
        else:
            self._name_after_upcard()

    def _name_after_upcard(self) -> None:
        top, rules = self.discard[-1], self.rules
        if top in rules.wild and rules.wish[top] == "suit" and rules.dealer_names_suit and self.phase != OVER:
            self.resume = Resume(self.dealer, played=False, nxt=self.current)
            self.phase, self.current = NAME_SUIT, self.dealer

    # ------------------------------------------------------------------ legal actions

    def _glegal(self) -> tuple[Action, ...]:
        phase, seat = self.phase, self.current
        if phase == PLAY:
            return self._legal_play(seat)
        if phase == DRAWN:
            hand = self.hands[seat]
            if self.rules.drawn_card == "go_on":
                return tuple(self._plays_alone(seat, hand)) + (PASS,)
            plays = self._plays_from(seat, self.drawn, hand)  # type: ignore[arg-type]  # drawn: a Card
            if self.rules.drawn_card == "must_play" and plays:
                return tuple(plays)
            return tuple(plays) + (PASS,)
        if phase == NAME_SUIT:
            return tuple(name_suit(suit) for suit in SUITS)
        if phase == CHALLENGING:
            return (CHALLENGE, PASS)
        if phase == SWAPPING:
            return tuple(swap(other) for other in self.in_play() if other != seat)
        if phase == GIVING:
            return tuple(give(card) for card in dict.fromkeys(self.hands[seat]))
        if phase == JUMP_IN:
            return tuple(self._jump_plays(seat)) + (PASS,)
        return ()

    def _legal_play(self, seat: int) -> tuple[Action, ...]:
        hand = self.hands[seat]
        actions: list[Action] = []
        if self.pending:
            for card in dict.fromkeys(hand):
                if self._answer(card) is not None:
                    actions += self._plays_from(seat, card, hand)
            # a skip pending beside the penalty (a card that draws and skips) comes first: taking it
            # lets the penalty go on to the next player, as an unanswerable skip does
            actions.append(PASS if self.skip_pending else DRAW)
        elif self.skip_pending:
            for card in dict.fromkeys(hand):
                if self._answers_skip(card):
                    actions += self._plays_from(seat, card, hand)
            actions.append(PASS)  # take the skip
        else:
            actions = self._plays_alone(seat, hand)
            if not (actions and self.rules.stuck_only):
                actions.append(DRAW)
        return tuple(actions)

    def _plays_alone(self, seat: int, hand: list[Card]) -> list[Action]:
        """Every play whose first card is legal on its own (nothing pending)."""
        actions: list[Action] = []
        for card in dict.fromkeys(hand):
            if self._alone(card, hand):
                actions += self._plays_from(seat, card, hand)
        return actions

    def _plays_from(self, seat: int, first: Card, hand: list[Card]) -> list[Action]:
        """The plays of `first` (legal as the first card): alone, and with more cards where `multiple` allows."""
        rules = self.rules
        plays = self._plays_of((first,), hand)
        if rules.multiple:
            for cards in sequences(rules, first, hand):
                plays += self._plays_of(cards, hand)
        return plays

    def _plays_of(self, cards: tuple[Card, ...], hand: list[Card]) -> list[Action]:
        """The Play actions of one card sequence: each naming its last card allows, the announcement due."""
        rules = self.rules
        left = len(hand) - len(cards)
        last = cards[-1]
        if rules.going_out_rules:
            if left == 0 and not self._may_go_out(last):
                return []
            if left and rules.last_only and not rules.last_only.isdisjoint(cards):
                return []  # going_out.last_only: such a card only in the play that empties the hand
        due = rules.due_after[left] if left < 2 else None
        first, more = cards[0], cards[1:]
        if last in rules.wild:
            kind = rules.wish[last]
            if kind == "suit":
                namings: Sequence[tuple[str | None, str | None]] = _SUIT_NAMINGS
            elif kind == "rank":
                namings = [(None, rank) for rank in rules.wish_ranks[last]]
            else:
                namings = _NAMING_NOTHING
        else:
            namings = _NAMING_NOTHING
        return [play(first, suit, due, more, rank) for suit, rank in namings]

    def _matches(self, card: Card, keep_next_rank: bool = True) -> bool:
        """Whether a card that is not wild may go on the pile: the wish, a free top card, or rank or active suit."""
        top = self.discard[-1]
        if self.wish is not None:
            ok = card.rank == self.wish
        elif self.wish_left and top not in self.rules.wild:  # a suit wish binding a further card: the suit only
            ok = card.suit == self.suit
        elif top in self.rules.free:
            ok = True
        else:
            ok = card.rank == top.rank or card.suit == self.suit
        if ok and keep_next_rank and self.next_rank is not None:
            ok = _within(card, self.next_rank)
        return ok

    def _alone(self, card: Card, hand: list[Card]) -> bool:
        """Whether `card` from `hand` may go on the pile, nothing pending (RULES.md, and the power keys)."""
        rules = self.rules
        if card not in rules.wild:
            return self._matches(card)
        if self.discard[-1] in rules.wild and card not in rules.wild_on_wild:
            return False
        if card in rules.wild_follows_suit and not self._matches(card, False):  # wild cards are exempt from next_rank
            return False
        if card in rules.wild_last_resort:
            wild = rules.wild
            for other in hand:
                if other not in wild and self._matches(other):
                    return False
        return True

    def _may_go_out(self, last: Card) -> bool:
        """Whether `last` may be the last card of the hand (going_out)."""
        rules = self.rules
        if last in rules.out_forbidden:
            return False
        if rules.out_only is not None and last not in rules.out_only:
            return False
        if rules.out_follow_suit and (last.suit != self.suit or last in rules.wild):
            return False
        return True

    def _answer(self, card: Card) -> str | None:
        """How `card` answers the pending draw penalty: stack (pass it on), cancel, return; None: it may not."""
        rules = self.rules
        source: Card = self.pending_card  # type: ignore[assignment]  # set while a penalty is pending
        cancels = rules.cancels.get(card)
        if cancels is not None and source in cancels:
            return CANCEL
        returns = rules.returns.get(card)
        if returns is not None and source in returns and self.pending_from not in self.finished:
            return RETURN  # (a sender gone out, round.play_on, is nobody to send it back to)
        if (source in rules.stack and card.rank == source.rank) or card in rules.stack_with.get(source, _NONE):
            limit = rules.chain_limit.get(source)
            if limit is not None and self.chain >= limit:
                return None
            if source in rules.stack_match and not (card.rank == source.rank or card.suit == self.suit):
                return None
            return STACK
        return None

    def _answers_skip(self, card: Card) -> bool:
        source: Card = self.skip_card  # type: ignore[assignment]  # set while a skip is pending
        return card.rank == source.rank or card in self.rules.skip_with.get(source, _NONE)

    def _holds_play(self, seat: int) -> bool:
        """Whether `seat` holds a play (a first card legal on its own, and as its last card if it is one)."""
        hand = self.hands[seat]
        return any(self._legal_alone(card, hand) for card in hand)

    def _legal_alone(self, card: Card, hand: list[Card]) -> bool:
        """`_alone`, and the going_out rules: for the last card of the hand, and for a card only the last may be."""
        rules = self.rules
        if rules.going_out_rules:
            if len(hand) == 1 and not self._may_go_out(card):
                return False
            if len(hand) > 1 and card in rules.last_only:
                return False
        return self._alone(card, hand)

    def _jump_plays(self, seat: int) -> list[Action]:
        """The plays of a card identical to (or of the rank of) the top card, out of turn."""
        top, hand = self.discard[-1], self.hands[seat]
        identical = self.rules.jump_in == "identical"
        plays: list[Action] = []
        for card in dict.fromkeys(hand):
            if card is top if identical else card.rank == top.rank:
                plays += self._plays_of((card,), hand)
        return plays

    # ------------------------------------------------------------------ transitions

    def _gapply(self, action: Action) -> None:
        seat, phase, kind = self.current, self.phase, type(action)
        if phase == PLAY:
            if kind is Draw:
                self._take_draw(seat)
            elif kind is Pass:
                self._take_skip(seat)
            else:
                self._gplay(seat, action, False)  # type: ignore[arg-type]
        elif phase == DRAWN:
            self.drawn = None
            if kind is Pass:
                self._record("pass", seat)
                self.phase = PLAY
                self._gend_turn(seat, 1)
            else:
                self._gplay(seat, action, False)  # type: ignore[arg-type]
        elif phase == NAME_SUIT:
            self.suit = action.suit  # type: ignore[union-attr]
            self._record("name_suit", seat, suit=self.suit)
            binds = self.rules.wish_binds.get(self.discard[-1], 1)
            self.wish, self.wish_left = None, (binds if binds > 1 else 0)
            self.phase, self.current = PLAY, self._after_naming()
        elif phase == CHALLENGING:
            self._challenge_answer(seat, kind is Challenge)
        elif phase == SWAPPING:
            fx = self.resume
            assert fx is not None  # a swap decision waits inside a play
            self._swap(seat, action.seat)  # type: ignore[union-attr]
            self._effects(fx._replace(stage=2, give_left=-1))
        elif phase == GIVING:
            fx = self.resume
            assert fx is not None
            self._give(seat, action.card)  # type: ignore[union-attr]
            if self.phase == OVER or not self.hands[seat] and self._emptied(seat):
                return
            left = fx.give_left - 1
            if left > 0 and self.hands[seat]:
                self.resume = fx._replace(give_left=left)
            else:
                self._effects(fx._replace(stage=3, give_left=0))
        elif phase == JUMP_IN:
            fx = self.resume
            assert fx is not None
            if kind is Pass:  # written to the log, left out of the history: it would show who holds the card
                if self.log is not None:
                    self.log.append((events.pass_, seat))
                self._jump_on(fx, seat)
            else:
                self.resume = None
                self._gplay(seat, action, True)  # type: ignore[arg-type]
        if self.phase != OVER and self.phase != DRAWN and self.turns >= self.rules.turn_limit:
            self._gfinish(None, TURN_LIMIT)

    def _take_draw(self, seat: int) -> None:
        """Draw: the pending penalty, or (stuck, by choice, in an extra turn) one card or until one can be played."""
        rules = self.rules
        if self.pending:
            got = self._gdraw(seat, self.pending, SEVEN)
            source = self.pending_card
            self.pending = self.chain = 0
            self.pending_card, self.pending_from = None, -1
            if self.phase == OVER:
                return
            if source in rules.keeps_turn:  # the penalty does not end the turn: the seat plays (or draws) as usual
                if got:
                    self.idle = 0
                return
            self._gend_turn(seat, got)
            return
        if self.again:
            card = self.again_card or self.discard[-1]
            reason = ACE if card.rank == "A" else AGAIN
        else:
            reason = STUCK if rules.stuck_only or not self._holds_play(seat) else CHOICE
        got = self._draw_until(seat, reason) if rules.until_playable else self._gdraw(seat, 1, reason)
        if self.phase == OVER:
            return
        hand = self.hands[seat]
        if rules.drawn_card == "go_on":
            if got:
                self.drawn, self.phase = None, DRAWN
                return
        elif got and rules.drawn_card != "keep" and self._legal_alone(hand[-1], hand):
            self.drawn, self.phase = hand[-1], DRAWN
            return
        self._gend_turn(seat, got)

    def _take_skip(self, seat: int) -> None:
        """Pass facing a pending skip: take it (a `skip` naming itself); more than one skip is waited out later."""
        self._record("skip", seat)
        if self.skip_pending > 1:
            waits = list(self.waits or (0,) * self.n_seats)
            waits[seat] += self.skip_pending - 1
            self.waits = tuple(waits)
        self.skip_pending, self.skip_card = 0, None
        self._gpass_on(seat)

    def _challenge_answer(self, seat: int, challenged: bool) -> None:
        offender = self.missed[0]  # type: ignore[index]
        self.missed = None
        if challenged:
            self._record("challenge", seat, count=offender)
            self._gdraw(offender, self._penalty_for(offender), PENALTY)
        else:  # logged always, so that a log shows every decision
            self._record("pass", seat)
            if not self.hands[offender]:
                if self.pending and self.rules.last_card_draws:  # the final draw card still counts
                    self._draw(seat, self.pending, SEVEN)
                if self._out(offender, self._last_played(offender, len(self.history)) or self.discard[-1]):
                    return
        if self.phase != OVER:
            self.phase = PLAY

    def _gplay(self, seat: int, action: Play, jump: bool) -> None:
        """`seat` plays the cards of `action` (out of turn if `jump`)."""
        rules = self.rules
        first, more = action.card, action.more
        cards = (first, *more) if more else (first,)
        answer = None
        if not jump:
            if self.pending:
                answer = self._answer(first)
            elif self.skip_pending:
                answer = SKIP
        hand = self.hands[seat]
        for card in cards:
            hand.remove(card)
        self.discard.extend(cards)
        last = cards[-1]
        if last in rules.wild:
            kind = rules.wish[last]
            if kind == "suit":
                binds = rules.wish_binds.get(last, 1)
                self.suit, self.wish, self.wish_left = action.suit, None, (binds if binds > 1 else 0)
            elif kind == "rank":
                self.suit, self.wish, self.wish_left = rules.suit_of[last], action.rank, rules.wish_binds.get(last, 1)
            else:  # a wild card that names nothing ends a wish
                self.suit, self.wish, self.wish_left = rules.suit_of[last], None, 0
        else:
            if self.wish_left:  # the play follows the wish: one card fewer bound
                self.wish_left -= 1
                if not self.wish_left:
                    self.wish = None
            if not self.wish_left or self.wish is not None:  # a suit wish still binding keeps its suit
                self.suit = rules.suit_of[last]
        self.next_rank = None
        self.again, self.again_card, self.drawn, self.idle = False, None, None, 0
        self.history.append(self._made(Event, ("play", seat, first, action.suit, 0, action.announce, more, action.rank,
                                               -1)))
        if self.log is not None:
            self.log.append((events.play_more, seat, first, action.suit, action.announce, more, action.rank, jump))
        left = len(hand)
        due = rules.due_after[left] if left < 2 else None
        missed = due is not None and action.announce != due
        if missed:
            if rules.challenge:
                self.missed = (seat, due)  # type: ignore[assignment]  # missed: due is set
            else:
                self._gdraw(seat, self._penalty_for(seat), PENALTY)
        announce = action.announce
        if announce is not None and rules.false_calls and self.phase != OVER:
            due_here = "maumau" if left == 0 else "mau" if left == 1 else None  # due, whether required or not
            if announce != due_here and rules.false_penalty[announce]:
                self._gdraw(seat, rules.false_penalty[announce], FALSE_CALL)
        if self.phase == OVER:
            return
        if not hand and not (missed and rules.challenge):  # a penalty with nothing to draw is forgiven: out
            if self._goes_out(seat, cards, answer):
                return
        acting = cards if rules.power_each else (last,)
        self._effects(Resume(seat, acting, answer=answer))

    def _goes_out(self, seat: int, cards: tuple[Card, ...], answer: str | None) -> bool:
        """`seat` played its last card: it is out; True if that ends the round (without round.play_on, or one left)."""
        rules = self.rules
        if rules.play_on and len(self.in_play()) > 2:
            self._finish_seat(seat, cards[-1])
            return False  # its cards' powers still apply
        if rules.last_card_draws:
            acting = cards if rules.power_each else cards[-1:]
            drawn = sum(rules.draw.get(card, 0) for card in acting)
            if answer == CANCEL:
                self.pending = 0
            # drawn before counting: the round has ended by going out, whatever the hands then hold
            if drawn or (self.pending and answer == RETURN):
                target = self.pending_from if answer == RETURN else self._step(seat)
                self._draw(target, self.pending + drawn, SEVEN)
                self.pending = 0
            for card in acting:
                count = rules.others_draw.get(card, 0)
                for other in self._others(seat) if count else ():
                    self._draw(other, count, OTHERS)
        return self._out(seat, cards[-1], ends=True)

    def _out(self, seat: int, last: Card, ends: bool = False) -> bool:
        """`seat` holds no card any more: under play_on it leaves the round's turns; True if the round ends."""
        if self.rules.play_on:
            if not ends and len(self.in_play()) > 2:
                self._finish_seat(seat, last)
                return False
            self._finish_seat(seat, last)
        elif self.out_card is None:
            self.out_card = last
        self._gfinish(self.finished[0] if self.finished else seat, WENT_OUT)
        return True

    def _finish_seat(self, seat: int, last: Card) -> None:
        if not self.finished:
            self.out_card = last  # the first out wins the round: its last card multiplies the points
        self.finished += (seat,)
        self._after = None
        place = len(self.finished)
        self.history.append(self._made(Event, ("out", seat, None, None, place, None, (), None, -1)))
        if self.log is not None:
            self.log.append((events.out, seat, place))

    # ------------------------------------------------------------------ powers

    def _effects(self, fx: Resume) -> None:
        """Carry out the powers of `fx.cards` from `fx.index` / `fx.stage` on; wait at a decision; hand the turn on."""
        rules = self.rules
        seat, cards, index, stage = fx.seat, fx.cards, fx.position, fx.stage
        skips, skip_card, again, victim, show, answer = fx.skips, fx.skip_card, fx.again, fx.victim, fx.show, fx.answer
        give_left, skip_all = fx.give_left, fx.skip_all
        if index == 0 and stage == 0 and answer == STACK:
            self.chain += 1
        while index < len(cards):
            card = cards[index]
            if stage == 0:
                if card not in rules.action and not (index == 0 and answer):
                    index += 1
                    continue
                back = self.pending_from  # where a returned penalty goes: to the seat that sent it
                # a seat gone out (round.play_on) takes no cards back into the round it left: no own draw,
                # no swap (below), no card taken, and no penalty is returned to it (_answer)
                count = rules.self_draw.get(card, 0) if seat not in self.finished else 0
                if count:
                    self._gdraw(seat, count, SELF)
                    if self.phase == OVER:
                        return
                count = rules.draw.get(card, 0)
                if count:
                    if not self.pending:
                        self.chain = 0
                    self.pending += count
                    self.pending_card, self.pending_from = card, seat
                    victim = self._step_back(seat) if card in rules.target_previous else -1
                if index == 0 and answer == CANCEL:
                    self.pending = self.chain = 0
                    self.pending_card, self.pending_from, victim = None, -1, -1
                elif index == 0 and answer == RETURN:
                    victim, self.pending_from = back, seat
                if card in rules.reverse:  # before others_draw: the first logs have it so
                    self.direction = -self.direction
                count = rules.others_draw.get(card, 0)
                for other in self._others(seat) if count else ():
                    self._gdraw(other, count, OTHERS)
                    if self.phase == OVER:
                        return
                if card in rules.pass_hands:
                    self._pass_hands()
                stage = 1
            if stage == 1:
                kind = rules.swap_hands.get(card) if seat not in self.finished else None
                if kind == "next":
                    partner = self._step(seat)
                    if partner != seat:
                        self._swap(seat, partner)
                elif kind == "choose" and any(other != seat for other in self.in_play()):
                    self.resume = Resume(seat, cards, index, 2, skips, skip_card, again, victim, show, answer,
                                         fx.played, -1, skip_all=skip_all)
                    self.current, self.phase = seat, SWAPPING
                    return
                stage, give_left = 2, -1
            if stage == 2:
                if give_left < 0:
                    give_left = min(rules.give.get(card, 0), len(self.hands[seat]))
                if give_left > 0:
                    self.resume = Resume(seat, cards, index, 2, skips, skip_card, again, victim, show, answer,
                                         fx.played, give_left, skip_all=skip_all)
                    self.current, self.phase = seat, GIVING
                    return
            count = rules.take.get(card, 0)
            if count and seat not in self.finished:
                self._take(seat, count)
                if self.phase == OVER:
                    return
            if card in rules.show_next:
                show = True
            bound = rules.next_rank.get(card)
            if bound is not None:
                self.next_rank = (bound, card.rank)
            count = rules.skip.get(card, 0)
            if count:
                skips += count
                if card in rules.skip_stack:
                    skip_card = card
            if card in rules.skip_others and self.hands[seat]:
                skip_all += 1
            if card in rules.again:
                again = card
            index, stage = index + 1, 0
        self.resume = None
        self._hand_on(seat, skips, skip_card, again, victim, show, answer, fx.played, skip_all)

    def _hand_on(self, seat: int, skips: int, skip_card: Card | None, again: Card | None, victim: int, show: bool,
                 answer: str | None, played: bool, skip_all: int = 0) -> None:
        """Whose turn it is after a play: its penalty's target, the player again, or the next after the skips.

        The skips come after the hand shown (show_next); `skip_all` skip_others cards skip every
        other seat that many times: once now, the further times as turns it must miss (`waits`).
        """
        rules = self.rules
        skipped = []
        if victim >= 0:  # a penalty sent to a given seat: the turn goes to it
            nxt = victim
        elif again is not None and self.hands[seat]:
            self.deferred += skips  # the skips apply when the turn passes on
            nxt = seat
        else:
            skips += self.deferred
            self.deferred = 0
            nxt = self._step(seat)
            if answer == SKIP:  # the play answered a pending skip: it passes on, or grows
                source: Card = self.skip_card  # type: ignore[assignment]  # set while a skip is pending
                if rules.skip_stack.get(source) == "add":
                    self.skip_pending += skips or rules.skip.get(source, 1)
            elif skip_card is not None:
                self.skip_pending, self.skip_card = skips, skip_card
            else:
                for _ in range(skips):
                    skipped.append(nxt)
                    nxt = self._step(nxt)
        if show:
            self._show(nxt if nxt != seat else self._step(seat))
        if skip_all:
            others = self._others(seat)
            for other in others:
                self._record("skip", other)
            if skip_all > 1:
                waits = list(self.waits or (0,) * self.n_seats)
                for other in others:
                    waits[other] += skip_all - 1
                self.waits = tuple(waits)
        for other in skipped:
            self._record("skip", other)
        if played and rules.jump_in != "none" and self._jump_scan(seat, nxt, again, -1):
            return
        self._turn_to(seat, nxt, again)
        if not played:
            self._name_after_upcard()

    def _turn_to(self, seat: int, nxt: int, again: Card | None) -> None:
        self._gnext_turn(seat, nxt)
        if nxt == seat and again is not None:
            self.again, self.again_card = True, again

    def _step_back(self, seat: int) -> int:
        """The seat in play before `seat` (the previous player)."""
        self._step(seat)  # builds the table of both directions
        return self._after[-self.direction][seat]  # type: ignore[index]

    def _pass_hands(self) -> None:
        """Every hand in play passes to the next player in the direction of play."""
        hands = self.hands
        moved = {self._step(seat): hands[seat] for seat in self.in_play()}
        for seat, hand in moved.items():
            hands[seat] = hand
        self.history.append(self._made(Event, ("pass_hands", -1, None, None, self.direction, None, (), None, -1)))
        if self.log is not None:
            self.log.append((events.pass_hands, self.direction))

    def _swap(self, seat: int, other: int) -> None:
        hands = self.hands
        hands[seat], hands[other] = hands[other], hands[seat]
        self.history.append(self._made(Event, ("swap", seat, None, None, 0, None, (), None, other)))
        if self.log is not None:
            self.log.append((events.swap, seat, other))

    def _give(self, seat: int, card: Card) -> None:
        """`seat` gives `card` to the next player (the other seats see that a card went, not which)."""
        to = self._step(seat)
        self.hands[seat].remove(card)
        self.hands[to].append(card)
        self.history.append(self._made(Event, ("give", seat, card, None, 1, None, (), None, to)))
        if self.log is not None:
            self.log.append((events.give, seat, to, card))
        limit = self.rules.hand_limit
        if limit is not None and len(self.hands[to]) > limit:
            self._gfinish(None, HAND_LIMIT)

    def _take(self, seat: int, count: int) -> None:
        """`seat` takes `count` cards at random from the previous player (the others see that cards went, not which)."""
        source = self._step_back(seat)
        hand, theirs = self.hands[seat], self.hands[source]
        taken = min(count, len(theirs))
        for _ in range(taken):
            card = theirs.pop(self.rng.randrange(len(theirs)))
            hand.append(card)
            self.history.append(self._made(Event, ("give", source, card, None, 1, None, (), None, seat)))
            if self.log is not None:
                self.log.append((events.take, source, seat, card))
        limit = self.rules.hand_limit
        if limit is not None and len(hand) > limit:
            self._gfinish(None, HAND_LIMIT)
        elif taken and not theirs:
            self._emptied(source)

    def _emptied(self, seat: int) -> bool:
        """`seat`'s last card was given or taken away: it goes out as by a play (its last card played
        multiplies the points); True if that ends the round."""
        return self._out(seat, self._last_played(seat, len(self.history)))  # type: ignore[arg-type]

    def _show(self, seat: int) -> None:
        cards = tuple(self.hands[seat])
        self.shown = tuple(sorted([entry for entry in self.shown if entry[0] != seat] + [(seat, cards)],
                                  key=lambda entry: entry[0]))
        self.history.append(self._made(Event, ("show", seat, None, None, len(cards), None, (), None, -1)))
        if self.log is not None:
            self.log.append((events.show, seat, cards))

    # ------------------------------------------------------------------ jumping in

    def _jump_scan(self, seat: int, nxt: int, again: Card | None, after: int) -> bool:
        """Ask, in turn order from `seat` (after `after`, if given), the next seat holding a card that may jump in."""
        top, rules = self.discard[-1], self.rules
        identical = rules.jump_in == "identical"
        n, direction = self.n_seats, self.direction
        past = ((after - seat) * direction) % n if after >= 0 else 0
        for asked in self._others(seat):
            if ((asked - seat) * direction) % n <= past:
                continue
            hand = self.hands[asked]
            if top in hand if identical else any(card.rank == top.rank for card in hand):
                self.resume = Resume(seat, again=again, nxt=nxt)
                self.current, self.phase = asked, JUMP_IN
                return True
        return False

    def _jump_on(self, fx: Resume, asked: int) -> None:
        """`asked` let its chance to jump in go: ask the next seat, or hand the turn on as the play had it."""
        if self._jump_scan(fx.seat, fx.nxt, fx.again, asked):
            return
        self.resume = None
        nxt = fx.nxt
        if nxt in self.out:  # the seat whose turn it was forfeited meanwhile
            nxt = self._step(nxt)
        self._turn_to(fx.seat, nxt, fx.again)

    # ------------------------------------------------------------------ handing the turn on

    def _gend_turn(self, seat: int, gained: int) -> None:
        """A turn without a play: the round is blocked once every seat in play had one and gained nothing."""
        self.idle = 0 if gained else self.idle + 1
        if self.idle >= len(self.in_play()):
            self._gfinish(None, BLOCKED)
            return
        self._gpass_on(seat)

    def _gpass_on(self, seat: int) -> None:
        """The turn passes to the next seat, after the skips a play-again card left waiting."""
        nxt = self._step(seat)
        for _ in range(self.deferred):
            self._record("skip", nxt)
            nxt = self._step(nxt)
        self.deferred = 0
        self._gnext_turn(seat, nxt)

    def _gnext_turn(self, seat: int, nxt: int) -> None:
        if self.waits:  # a seat that must miss turns is passed over
            waits = list(self.waits)
            while waits[nxt] and nxt != seat:
                waits[nxt] -= 1
                self._record("skip", nxt)
                nxt = self._step(nxt)
            self.waits = tuple(waits) if any(waits) else ()
        self.current, self.phase = nxt, PLAY
        if self.missed is not None and self.missed[0] != nxt:
            self.phase = CHALLENGING  # the next player may point out the missed announcement
        if nxt != seat:
            self.again, self.again_card = False, None

    def _gfinish(self, winner: int | None, reason: EndReason) -> None:
        if winner is None and self.finished:  # round.play_on: the first out wins however the round ends
            winner = self.finished[0]
        self._finish(winner, reason)

    def _gforfeit(self, seat: int) -> None:
        remaining = self.in_play()
        if len(remaining) <= 1:
            self._gfinish(remaining[0] if remaining and not self.finished else None, FORFEITED)
            return
        if self.missed is not None and self.missed[0] == seat:
            self.missed = None
        if self.current != seat:
            return
        if self.phase == JUMP_IN:
            self._jump_on(self.resume, seat)  # type: ignore[arg-type]
            return
        self.resume, self.drawn, self.phase = None, None, PLAY  # a play being carried out stops here
        self._gpass_on(seat)

    # ------------------------------------------------------------------ drawing

    def _gdraw(self, seat: int, count: int, reason: str) -> int:
        """`_draw`, then the round ends at once if the seat holds more cards than round.hand_limit."""
        got = self._draw(seat, count, reason)
        limit = self.rules.hand_limit
        if limit is not None and len(self.hands[seat]) > limit:
            self._gfinish(None, HAND_LIMIT)
        return got

    def _draw_until(self, seat: int, reason: str) -> int:
        """drawing.until_playable: draw one card at a time until one can be played (or `max`, or nothing is left).

        One `draw` event (split around a reshuffle); the card that fits is the last one drawn.
        """
        rules, hand = self.rules, self.hands[seat]
        limit = rules.draw_max or len(self.stock) + len(self.discard) + 1
        taken: list[Card] = []
        total = 0
        while total < limit:
            stock = self.stock
            if not stock:
                if len(self.discard) < 2 or not rules.reshuffle:
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
            if self._alone(card, hand) and card not in rules.last_only:  # a drawn card is never the last one
                break
        self._record_draw(seat, taken, reason)
        if rules.hand_limit is not None and len(hand) > rules.hand_limit:
            self._gfinish(None, HAND_LIMIT)
        return total

    # ------------------------------------------------------------------ scoring and views

    def scores(self) -> list[int]:
        """Each seat's hand score for the round, multiplied, before the winner collects (scoring; 0 for seats out)."""
        rules = self.rules
        scoring = rules.ruleset.scoring
        values, count, minimum, step = rules.points, scoring.count, scoring.minimum, scoring.round_to
        factor = 1
        if self.winner is not None and self.out_card is not None and scoring.multiplier:
            factor = rules.ruleset.multiplier_of(self.out_card)
        scores = [0] * self.n_seats
        out, finished = self.out, self.finished
        held: dict[int, int] = {}  # each hand left: its card points (scoring.highest_only)
        for seat in self.active:
            hand = self.hands[seat]
            if seat == self.winner or seat in out or seat in finished or not hand:
                continue
            held[seat] = sum(values[card.rank] for card in hand)
            alone = rules.ruleset.alone_of(hand[0]) if len(hand) == 1 and scoring.alone else None
            if alone is not None:
                value = alone
            elif count == "points":
                value = held[seat]
            else:
                value = len(hand) if count == "cards" else 1
            value = max(value, minimum)
            if step > 1:
                value = (2 * value + step) // (2 * step) * step  # the nearest multiple, halves up
            scores[seat] = value * factor
        if scoring.highest_only and held:
            most = max(held.values())
            for seat, value in held.items():
                if value < most:
                    scores[seat] = 0
        if scoring.blocked == "difference" and self.winner is None and self.outcome is not None and held:
            lowest = min(scores[seat] for seat in held)
            for seat in held:
                scores[seat] -= lowest
        return scores

    def _gpoints(self) -> list[int]:
        """The round's points: the hands' scores, the winner's score or collection (scoring)."""
        points = self.scores()
        scoring = self.rules.ruleset.scoring
        if scoring.winner_collects:
            # a round nobody won: the lowest hands collect (scoring.blocked difference), or nobody scores,
            # not each holder its own hand (in a match to a target, the most cards held would gain most)
            collectors = [self.winner] if self.winner is not None else self._lowest_hands(points)
            total = sum(points)
            points = [0] * self.n_seats
            for seat in collectors:
                points[seat] = total
        if self.winner is not None and scoring.winner_scores and self.out_card is not None:
            bonus = self.rules.ruleset.winner_score_of(self.out_card)
            if bonus is not None:
                points[self.winner] += bonus
        return points

    def _lowest_hands(self, scores: list[int]) -> list[int]:
        """scoring.blocked difference in a round nobody won (blocked, turn or hand limit): the seats holding the
        lowest hand."""
        if self.rules.ruleset.scoring.blocked != "difference" or self.outcome is None:
            return []
        return [seat for seat in self.active if seat not in self.out and self.hands[seat] and not scores[seat]]

    # ------------------------------------------------------------------ a state from a view

    def _again_card_of(self, seat: int) -> Card | None:
        """The play-again card whose extra turn `seat` takes: of its last play, the last card with the power."""
        rules = self.rules
        for event in reversed(self.history):
            if event.kind == "play" and event.seat == seat:
                cards = (event.card, *event.more)
                acting = cards if rules.power_each else cards[-1:]
                for card in reversed(acting):
                    if card in rules.again:
                        return card
                break
        return self.discard[-1]

    def _out_card_of(self) -> Card | None:
        """The last card of the first seat out of the round (round.play_on), from the history."""
        for index, event in enumerate(self.history):
            if event.kind == "out":
                return self._last_played(event.seat, index)
        return None

    def _last_played(self, seat: int, before: int) -> Card | None:
        """The last card `seat` played before the history's event `before` (a jump-in may have covered it since)."""
        for event in reversed(self.history[:before]):
            if event.kind == "play" and event.seat == seat:
                return event.more[-1] if event.more else event.card
        return None


def _within(card: Card, bound: tuple[str, str]) -> bool:
    """Whether `card` keeps to next_rank's (at_most | at_least, rank), in the deck's rank order."""
    index = RANK_INDEX.get(card.rank)
    if index is None:
        return False  # a joker has no place in the rank order
    limit = RANK_INDEX[bound[1]]
    return index <= limit if bound[0] == "at_most" else index >= limit


def known_hands(view: View) -> dict[int, list[Card]]:
    """The cards each other seat is known to hold: those it last showed (`view.shown`), followed through the history.

    A card shown leaves the known set when its holder plays it; hands passed or swapped carry
    their known cards along; a card given that the viewer did not see makes the giver's
    known cards unknown (it cannot tell which went).
    """
    shown = dict(view.shown)
    last_show = {event.seat: index for index, event in enumerate(view.history) if event.kind == "show"}
    known: dict[int, list[Card]] = {}
    gone: set[int] = set(view.out)
    for index, event in enumerate(view.history):
        kind = event.kind
        if kind == "show" and last_show.get(event.seat) == index and event.seat in shown:
            known[event.seat] = list(shown[event.seat])
        elif kind == "play" and event.seat in known:
            for card in (event.card, *event.more):
                if card in known[event.seat]:
                    known[event.seat].remove(card)
        elif kind == "give" and event.seat in known:
            if event.card is None:
                known[event.seat] = []
            elif event.card in known[event.seat]:
                known[event.seat].remove(event.card)
                known.setdefault(event.to, []).append(event.card)
        elif kind == "swap":
            mine, theirs = known.pop(event.seat, None), known.pop(event.to, None)
            if mine is not None:
                known[event.to] = mine
            if theirs is not None:
                known[event.seat] = theirs
        elif kind == "pass_hands":
            order = [seat for seat in view.active if seat not in gone]
            step = event.count
            known = {order[(order.index(seat) + step) % len(order)]: cards
                     for seat, cards in known.items() if seat in order}
        elif kind == "out":
            gone.add(event.seat)
    return {seat: cards for seat, cards in known.items() if seat != view.seat and cards}
