"""One round of a game log checked card by card.

`RoundCheck` keeps its own picture of the table (hands, stock, discard pile, whose turn, what is
pending) and reads the round's events through the match checker (`take`, `peek`, `fail`), holding
each against the rules of the log's match_start (runner/logs/verify_rules.py): a play comes from the
hand and is legal (runner/logs/verify_moves.py), a draw takes the stock's top cards, a power brings the
draws, skips and hand moves it causes, in order.

A play and what follows it (its powers, the decisions they ask for, the chance to jump in) is read
by a generator (`play_card` starts it): it pauses where a seat must decide (a swap, a card to give,
a jump-in) so that the main loop reads faults and counts turns there as at any other decision.
"""

from __future__ import annotations

from collections import Counter
from typing import Iterator

from runner.game import events as ev
from runner.game.cards import SUITS, Card
from runner.words import counted

from .verify_moves import Moves
from .verify_rules import LogRules, TableRules, names, rank_index

__all__ = ["LogRules", "RoundCheck"]

Flow = Iterator[None]


class RoundCheck(Moves):
    """The table during one round, as the log's events move the cards."""

    def __init__(self, checker, number: int, active: list[int], dealer: int, direction: int):
        self.c, self.rules = checker, checker.rules
        self.table: TableRules = self.rules.at(len(active))
        self.power = self.table.power  # each card of the deck: its power (NO_POWER for none)
        self.number, self.active, self.dealer, self.direction = number, active, dealer, direction
        self.out: set[int] = set()  # forfeited
        self.finished: list[int] = []  # out of the round by playing their last card (round.play_on), in order
        self.winner: int | None = None
        self.winner_card: Card | None = None  # the last card the winner played (scoring.multiplier)
        self.over = False
        self.last_played: dict[int, Card] = {}  # each seat's last card played
        self.pending = self.chain = self.idle = self.turns = 0
        self.pending_card: Card | None = None  # the card whose draw penalty is pending (the last to add to it)
        self.pending_from = -1  # the seat that sent the penalty to the seat facing it
        self.skip_pending, self.skip_card = 0, None  # a skip waiting to be answered or taken (skip_stack)
        self.waits: dict[int, int] = {}  # turns a seat must still miss (skip_stack: add)
        self.deferred = 0  # skips of a play-again card, applied when the turn passes on
        self.wish: tuple[str, str] | None = None  # ("rank", R) or a binding ("suit", S)
        self.wish_left = 0
        self.next_rank: tuple[str, int] | None = None
        self.again: Card | None = None  # the play-again card whose extra turn this is
        self.drawn, self.missed = None, None
        self.flow: Flow | None = None
        self.phase = "play"
        self._seats: list[int] | None = None

    def fail(self, message: str) -> None:
        self.c.fail(message)

    # ------------------------------------------------------------------ the deal

    def deal(self, start: dict) -> None:
        c, rules, table = self.c, self.rules, self.table
        hands = start["hands"]
        if len(hands) != len(c.players):
            self.fail(f"hands for {len(hands)} seats, the table has {len(c.players)}")
        self.hands = [Counter(c.card(text) for text in hand) for hand in hands]
        taken = self.taken_upcards(start)
        for seat, hand in enumerate(hands):
            want = table.hand_size if seat in self.active else 0
            if seat == self.dealer:
                want += len(taken)
            if len(hand) != want:
                self.fail(f"seat {seat} is dealt {counted(len(hand), 'card')}, expected {want}")
        upcards = [c.card(text) for text in start["upcards"]]
        self.stock = [c.card(text) for text in reversed(start["stock"])]  # top card last, popped first
        dealt = sum(self.hands, Counter()) + Counter(upcards) + Counter(self.stock)
        deck = Counter(table.deck)
        if dealt != deck:
            extra, missing = dealt - deck, deck - dealt
            self.fail(f"the deal is not the full deck for {len(self.active)} players: "
                      f"extra {_cards(extra) or 'none'}, missing {_cards(missing) or 'none'}")
        if not upcards:
            self.fail("no upcard")
        takes = rules.upcard_to_dealer and self.dealer in self.active
        for index, card in enumerate(upcards):
            is_last = index == len(upcards) - 1
            acts = card in table.action
            if not is_last and not (rules.flip_while_action and acts):
                self.fail(f"upcard {card} is covered by another, but only an action card is"
                          if rules.flip_while_action else "one card is turned up")
            if is_last and (rules.flip_while_action or takes) and acts and self.stock:
                self.fail(f"upcard {card} is an action card: another is turned up on it"
                          if rules.flip_while_action else f"upcard {card} is an action card: the dealer takes it")
        self.discard = upcards
        top = upcards[-1]
        self.suit = _suit(top)
        self.top_free = self.power[top].free  # any card goes on the top card
        order = _clockwise_after(self.dealer, self.active)
        self.lead = order[(rules.first_player - 1) % len(order)]
        self.current = self.lead
        self.flow = self.upcard_flow(top)
        self.resume()

    def taken_upcards(self, start: dict) -> list[Card]:
        """upcard.effects to_dealer: the action upcards the dealer took into its hand (round_start.taken)."""
        taken = [self.c.card(text) for text in start.get("taken", ())]
        if taken and not (self.rules.upcard_to_dealer and self.dealer in self.active):
            self.fail("upcards taken into the dealer's hand, but the rules do not (upcard.effects to_dealer)")
        for card in taken:
            if card not in self.table.action:
                self.fail(f"the dealer takes the upcard {card}, which has no power (only action cards are taken)")
        if Counter(taken) - self.hands[self.dealer]:
            self.fail(f"the dealer takes {names(taken)}, but its hand does not hold them")
        return taken

    def upcard_flow(self, top: Card) -> Flow:
        """An action upcard acts as the dealer's play (upcard.effects); after a wild one the dealer names the suit."""
        rules, table = self.rules, self.table
        chosen = self.lead
        if rules.upcard_acts and top in table.action:
            yield from self.power_flow(self.dealer, [top], None)
            chosen = self.current  # the seat the upcard's effects hand the turn to keeps it after the naming
        power = self.power[top]
        if power.wild and power.wish == "suit" and rules.dealer_names_suit and not self.over:
            self.after_naming = chosen
            self.phase, self.current = "name_suit", self.dealer

    # ------------------------------------------------------------------ the turns

    def play(self) -> None:
        """Read decisions until the round is over."""
        c = self.c
        while not self.over:
            event = c.peek()
            if event is not None and event["type"] == ev.FAULT:
                c.take(ev.FAULT)
                c.seat_of(event, self.current, "commits a fault")
                if event["kind"] not in ("illegal", "exception", "timeout"):
                    self.fail(f"unknown fault kind {event['kind']!r}")
                if (after := c.peek()) is not None and after["type"] == ev.FORFEIT:
                    c.take(ev.FORFEIT)
                    c.seat_of(after, self.current, "forfeits")
                    self.forfeit(self.current)
                continue
            self.turns += 1
            if self.flow is not None:
                self.resume()
            else:
                self.decision()
            if not self.over and self.phase != "drawn" and self.turns >= self.rules.turn_limit:
                self.finish(None)  # the round's turn limit: it ends as blocked

    def resume(self) -> None:
        """Run the play being read on to its next decision, or to its end."""
        try:
            next(self.flow)
        except StopIteration:
            self.flow = None

    def decision(self) -> None:
        c, seat, phase = self.c, self.current, self.phase
        if phase == "name_suit":
            event = c.take(ev.NAME_SUIT)
            c.seat_of(event, seat, "names a suit")
            if event["suit"] not in SUITS:
                self.fail(f"{event['suit']!r} is not a suit")
            self.suit, self.phase, self.current = event["suit"], "play", self.after_naming
            binds = self.power[self.discard[-1]].wish_binds
            if binds > 1:
                self.wish, self.wish_left = ("suit", event["suit"]), binds
            return
        if phase == "challenge":
            self.challenge_decision(seat)
            return
        if self.skip_pending:
            event = c.take(ev.PLAY, ev.SKIP, why=lambda: f"seat {seat} answers the pending skip or takes it")
            if event["type"] == ev.SKIP:
                c.seat_of(event, seat, "takes the skip")
                if self.skip_pending > 1:
                    self.waits[seat] = self.waits.get(seat, 0) + self.skip_pending - 1
                self.skip_pending, self.skip_card = 0, None
                self.pass_on(seat)
                return
        elif phase == "drawn":
            event = c.take(ev.PLAY, ev.PASS, why=lambda: f"seat {seat} plays after drawing or passes")
            if event["type"] == ev.PASS:
                c.seat_of(event, seat, "passes")
                if self.rules.drawn_card == "must_play":
                    self.fail(f"the drawn {self.drawn} can be played, and the rules say it must be "
                              "(drawing.drawn_card)")
                self.drawn, self.phase = None, "play"
                self.end_turn(seat, 1)
                return
        else:
            event = c.take(ev.PLAY, ev.DRAW, ev.RESHUFFLE)
            if event["type"] != ev.PLAY:
                c.i -= 1  # the draw (or the reshuffle before it) is read by draw()
                self.voluntary_draw(seat)
                return
        flow = self.play_card(seat, event)
        if flow is not None:
            self.flow = flow
            self.resume()

    def challenge_decision(self, seat: int) -> None:
        c = self.c
        event = c.take(ev.CHALLENGE, ev.PASS)
        c.seat_of(event, seat, "acts")
        offender, self.missed = self.missed, None
        if event["type"] == ev.CHALLENGE:
            if event["target"] != offender:
                self.fail(f"the missed announcement was seat {offender}'s, not seat {event['target']}'s")
            due = "maumau" if not self.hands_left(offender) else "mau"
            self.draw(offender, self.rules.penalty.get(due, 0), ev.PENALTY)
        elif not self.hands_left(offender):
            if self.pending and self.rules.last_card_draws:
                self.draw(seat, self.pending, ev.SEVEN)
            if self.going_out(offender):
                return
        if not self.over:
            self.phase = "play"

    def voluntary_draw(self, seat: int) -> None:
        """The seat to act draws: a pending penalty, or one card when stuck (or by choice, or in an extra turn)."""
        rules = self.rules
        if self.pending:
            got = self.draw(seat, self.pending, ev.SEVEN)
            ends = self.power[self.pending_card].ends_turn
            self.pending = self.chain = 0
            self.pending_card = None
            if self.over:
                return
            if ends:
                self.end_turn(seat, got)
            else:  # the penalty does not end the turn: the seat plays (or draws) as usual
                self.idle = 0 if got else self.idle
            return
        can_play = self.can_play(seat)
        if can_play and not rules.draw_by_choice:
            self.c.i += 1  # the error is the draw (or the reshuffle before it)
            self.fail(f"seat {seat} draws but could play (the rules allow drawing only when stuck)")
        if self.again is not None:
            reasons: tuple[str, ...] = (ev.ACE,) if self.again.rank == "A" else (ev.AGAIN,)
        else:
            reasons = (ev.STUCK, ev.CHOICE) if can_play else (ev.STUCK,)
        if rules.until_playable:
            got = self.draw(seat, rules.draw_max or 10**9, reasons, until=lambda card: self.playable(card, seat)
                            and card not in self.table.going_out.last_only)
        else:
            got = self.draw(seat, 1, reasons)
        if self.over:
            return
        drawn = self.last_drawn if got else None
        if rules.drawn_card == "go_on":
            if got:
                self.drawn, self.phase = None, "drawn"
                return
        elif drawn is not None and rules.drawn_card != "keep" and self.legal_alone(drawn, seat):
            self.drawn, self.phase = drawn, "drawn"
            return
        self.end_turn(seat, got)

    # ------------------------------------------------------------------ a play and what follows it

    def play_card(self, seat: int, event: dict) -> Flow | None:
        """Read a play and its penalties; hand the turn on after a plain card, else return the flow of its powers."""
        rules = self.rules
        cards, answer = self.read_play(seat, event)
        hand = self.hands[seat]
        for card in cards:
            hand[card] -= 1
        self.discard.extend(cards)
        last = cards[-1]
        power = self.power[last]
        self.top_free = power.free
        if power.wild and power.wish == "suit":
            self.suit = event["suit"]
            self.wish = ("suit", self.suit) if power.wish_binds > 1 else None
            self.wish_left = power.wish_binds
        elif power.wild and power.wish == "rank":
            self.suit, self.wish, self.wish_left = _suit(last), ("rank", event["rank"]), power.wish_binds
        else:
            if self.wish is not None and not power.wild:
                self.wish_left -= 1
                if self.wish_left <= 0:
                    self.wish = None
            elif power.wild:  # a wild card that names nothing ends a wish
                self.wish = None
            if self.wish is None or self.wish[0] != "suit":  # a suit wish still binding keeps its suit
                self.suit = _suit(last)
        self.next_rank = None
        self.again = None
        self.drawn, self.phase, self.idle = None, "play", 0
        self.last_played[seat] = last
        left = sum(hand.values())
        missed = self.announcements(seat, event["announce"], left) if left < 2 or event["announce"] else False
        if self.over:
            return None
        if not self.hands_left(seat) and not (missed and rules.challenge):
            if self.last_card(seat, cards, answer):
                return None
        acting = cards if rules.power_each else [last]
        if answer is None and rules.jump_in == "none" and not any(self.power[card].is_action for card in acting):
            self.pass_on(seat)  # a plain card: the turn simply passes on
            return None
        return self.power_flow(seat, acting, answer, played=True)

    def announcements(self, seat: int, announce: str | None, left: int) -> bool:
        """Mau and Mau Mau, judged on the cards left: a missing one's penalty, a false one's; True if one was missed."""
        rules = self.rules
        due = "mau" if left == 1 else "maumau" if left == 0 else None
        missed = due in rules.penalty and announce != due
        if missed:
            if rules.challenge:
                self.missed = seat
            else:  # a penalty for a missing announcement is drawn at once, before anything else
                self.draw(seat, rules.penalty[due], ev.PENALTY)
        if announce is not None and announce != due and rules.false_penalty[announce] and not self.over:
            self.draw(seat, rules.false_penalty[announce], ev.FALSE_CALL)
        return missed

    def last_card(self, seat: int, cards: list[Card], answer: str | None) -> bool:
        """The seat played its last card (nothing to draw: forgiven): it is out; True if that ends the round."""
        rules = self.rules
        if not self.finished:
            self.winner_card = cards[-1]
        if rules.play_on and len(self.in_play()) > 2:
            self.finished.append(seat)
            self.out_event(seat)
            self._seats = None
            return False
        if rules.last_card_draws:
            acting = cards if rules.power_each else cards[-1:]
            drawn = sum(self.power[card].draw for card in acting)
            if answer == "cancel":
                self.pending = 0
            if drawn or (self.pending and answer == "return"):
                target = self.pending_from if answer == "return" else self.step(seat)
                self.draw(target, self.pending + drawn, ev.SEVEN)
                self.pending = 0
            for card in acting:
                others_draw = self.power[card].others_draw
                for other in self.others(seat) if others_draw else ():
                    self.draw(other, others_draw, ev.OTHERS)
        if rules.play_on:
            self.finished.append(seat)
            self.out_event(seat)
        self.finish(self.finished[0] if self.finished else seat)
        return True

    def going_out(self, seat: int) -> bool:
        """A seat left without cards (its missed Mau Mau let go, its last card given or taken); True if that ends the
        round."""
        if not self.finished:
            # covered since, perhaps, by a card jumped in; a hand taken away before it ever played: the top card
            self.winner_card = self.last_played.get(seat, self.discard[-1])
        if self.rules.play_on and len(self.in_play()) > 2:
            self.finished.append(seat)
            self.out_event(seat)
            self._seats = None
            return False
        if self.rules.play_on:
            self.finished.append(seat)
            self.out_event(seat)
        self.finish(self.finished[0] if self.finished else seat)
        return True

    def out_event(self, seat: int) -> None:
        event = self.c.take(ev.OUT, why=lambda: f"seat {seat} is out of the round")
        self.c.seat_of(event, seat, "goes out")
        if event["place"] != len(self.finished):
            self.fail(f"seat {seat} goes out in place {len(self.finished)}, not {event['place']}")

    def power_flow(self, seat: int, cards: list[Card], answer: str | None, played: bool = False) -> Flow:
        """What the cards played (or turned up) by `seat` do, in the order of the rules; then whose turn it is."""
        skips, again, victim, show, skip_all = 0, None, None, False, 0
        skip_card = None
        if answer == "stack":
            self.chain += 1
        for index, card in enumerate(cards):
            power = self.power[card]
            if not power.is_action and not (index == 0 and answer):
                continue
            back = self.pending_from  # a returned penalty goes to the seat that sent it, before this card's draw
            gone = seat in self.finished  # out (round.play_on): it takes no cards back (own draw, swap, take)
            if power.self_draw and not gone:
                self.draw(seat, power.self_draw, ev.SELF)
                if self.over:
                    return
            if power.draw:
                if not self.pending:
                    self.chain = 0
                self.pending += power.draw
                self.pending_card, self.pending_from = card, seat
                victim = self.step(seat, -self.direction) if power.target == "previous" else None
            if index == 0 and answer == "cancel":
                self.pending = self.chain = 0
                self.pending_card, victim = None, None
            elif index == 0 and answer == "return":
                victim, self.pending_from = back, seat
            if power.reverse:  # before others_draw, as the first logs have it
                self.direction = -self.direction
            for other in self.others(seat) if power.others_draw else ():
                self.draw(other, power.others_draw, ev.OTHERS)
                if self.over:
                    return
            if power.pass_hands:
                self.pass_hands()
            if power.swap_hands and not gone:
                yield from self.swap_flow(seat, power.swap_hands)
            if power.give:
                yield from self.give_flow(seat, power.give)
                if self.over:
                    return
            if power.take and seat not in self.finished:  # (nor if it went out giving its last card away)
                self.take(seat, power.take)
                if self.over:
                    return
            show = show or power.show_next
            if power.next_rank:
                index_of = rank_index(card)
                self.next_rank = None if index_of is None else (power.next_rank, index_of)
            if power.skip:
                skips += power.skip
                if power.skip_stack != "none":
                    skip_card = card
            skip_all += power.skip_others and self.hands_left(seat) > 0  # power each: every one skips all once
            if power.again:
                again = card
        yield from self.hand_on(seat, skips, skip_card, again, victim, show, skip_all, answer, played)

    def hand_on(self, seat: int, skips: int, skip_card: Card | None, again: Card | None, victim: int | None,
                show: bool, skip_all: int, answer: str | None, played: bool) -> Flow:
        """Whose turn it is after a play: its target, the seat itself again, or the next after the skips.

        `skip_all` skip_others cards skip every other seat that many times: once now, the further
        times as turns missed when the turn comes round (`waits`).
        """
        skipped: list[int] = []
        if victim is not None:  # a penalty sent to a given seat: the turn goes to it
            nxt = victim
        elif again is not None and self.hands_left(seat):
            self.deferred += skips  # the skips apply when the turn passes on
            nxt = seat
        else:
            nxt = self.step(seat)
            skips += self.take_deferred()
            if answer == "skip":
                mode = self.power[self.skip_card].skip_stack
                if mode == "add":
                    self.skip_pending += skips or self.power[self.skip_card].skip
            elif skip_card is not None:
                self.skip_pending, self.skip_card = skips, skip_card
            else:
                for _ in range(skips):
                    skipped.append(nxt)
                    nxt = self.step(nxt)
        if show:
            shown = nxt if nxt != seat else self.step(seat)
            self.show(shown)
        for other in self.others(seat) if skip_all else ():  # skip_others: every other seat once
            self.skip(other)
            if skip_all > 1:
                self.waits[other] = self.waits.get(other, 0) + skip_all - 1
        for other in skipped:
            self.skip(other)
        if played and self.rules.jump_in != "none":
            jumped = yield from self.jump_in_flow(seat)
            if jumped:
                return
            if nxt in self.out:  # it forfeited when asked to jump in
                nxt = self.step(nxt)
        self.next_turn(seat, nxt)
        if nxt == seat and again is not None:
            self.again = again

    def jump_in_flow(self, seat: int):
        """After a play, each other seat holding a qualifying card, in turn order, jumps in or passes; True if one
        did."""
        top, identical = self.discard[-1], self.rules.jump_in == "identical"
        for asked in self.others(seat):
            hand = self.hands[asked]
            if not (hand[top] if identical else any(n and card.rank == top.rank for card, n in hand.items())):
                continue
            held = self.current, self.phase
            self.current, self.phase = asked, "jump_in"
            yield
            if asked in self.out:  # forfeited when asked
                self.current, self.phase = held
                continue
            event = self.c.take(ev.PLAY, ev.PASS, why=lambda: f"seat {asked} may jump in with {top}")
            self.c.seat_of(event, asked, "acts")
            if event["type"] == ev.PASS:
                self.current, self.phase = held
                continue
            flow = self.play_card(asked, event)
            if flow is not None:
                yield from flow
            return True
        return False

    def swap_flow(self, seat: int, kind: str) -> Flow:
        if kind == "choose":
            self.current, self.phase = seat, "swap"
            yield
        event = self.c.take(ev.SWAP, why=lambda: f"seat {seat} swaps hands")
        self.c.seat_of(event, seat, "swaps")
        partner = event["with"]
        if kind == "next":
            if partner != self.step(seat):
                self.fail(f"seat {seat} swaps hands with the next player, seat {self.step(seat)}, not {partner}")
        elif partner == seat or partner not in self.in_play():
            self.fail(f"seat {seat} cannot swap hands with seat {partner}")
        self.hands[seat], self.hands[partner] = self.hands[partner], self.hands[seat]
        self.phase = "play"

    def give_flow(self, seat: int, count: int) -> Flow:
        to = self.step(seat)
        for _ in range(min(count, self.hands_left(seat))):
            self.current, self.phase = seat, "give"
            yield
            event = self.c.take(ev.GIVE, why=lambda: f"seat {seat} gives a card to seat {to}")
            self.c.seat_of(event, seat, "gives")
            if event.get("taken"):
                self.fail(f"seat {seat} gives a card of its choice here; nobody takes one")
            if event["to"] != to:
                self.fail(f"seat {seat} gives to the next player, seat {to}, not {event['to']}")
            self.move_card(event, seat, to)
            self.check_hand_limit(to)
            if self.over or not self.hands_left(seat) and self.going_out(seat):
                return
        self.phase = "play"

    def take(self, seat: int, count: int) -> None:
        """`seat` takes cards unseen from the previous player: `give` events marked taken (which card, chance chose)."""
        source = self.step(seat, -self.direction)
        taken = min(count, self.hands_left(source))
        for _ in range(taken):
            event = self.c.take(ev.GIVE, why=lambda: f"seat {seat} takes a card from seat {source}")
            if event["seat"] != source or event["to"] != seat or not event.get("taken"):
                self.fail(f"seat {seat} takes a card from the previous player, seat {source}: "
                          f"expected a taken card to seat {seat}")
            self.move_card(event, source, seat)
        self.check_hand_limit(seat)
        if taken and not self.over and not self.hands_left(source):  # its last card taken: it goes out
            self.going_out(source)

    def move_card(self, event: dict, source: int, to: int) -> None:
        """The card of a `give` event goes from `source`, which must hold it, to `to`."""
        card = self.c.card(event["card"])
        if self.hands[source][card] < 1:
            self.fail(f"seat {source} gives {card}, which is not in its hand")
        self.hands[source][card] -= 1
        self.hands[to][card] += 1

    def pass_hands(self) -> None:
        event = self.c.take(ev.PASS_HANDS, why="every hand passes to the next player")
        if event["direction"] != self.direction:
            self.fail(f"hands pass in the direction of play, {self.direction}, not {event['direction']}")
        seats = self.in_play()
        moved = {self.step(seat): self.hands[seat] for seat in seats}
        for seat, hand in moved.items():
            self.hands[seat] = hand

    def show(self, seat: int) -> None:
        event = self.c.take(ev.SHOW, why=lambda: f"seat {seat} shows its hand")
        if event["seat"] != seat:
            self.fail(f"seat {seat} shows its hand here, not seat {event['seat']}")
        shown = Counter(self.c.card(text) for text in event["cards"])
        if shown != +self.hands[seat]:
            self.fail(f"seat {seat} shows {_cards(shown)}, but holds {_cards(self.hands[seat])}")

    # ------------------------------------------------------------------ handing the turn on

    def end_turn(self, seat: int, gained: int) -> None:
        """A turn without a play: the round is blocked once every seat in play had one and drew nothing."""
        self.idle = 0 if gained else self.idle + 1
        if self.idle >= len(self.in_play()):
            self.finish(None)
            return
        self.pass_on(seat)

    def pass_on(self, seat: int) -> None:
        """The turn passes to the next seat, after the skips a play-again card left waiting."""
        nxt = self.step(seat)
        for _ in range(self.take_deferred()):
            self.skip(nxt)
            nxt = self.step(nxt)
        self.next_turn(seat, nxt)

    def take_deferred(self) -> int:
        """The skips a play-again card left waiting, now due."""
        deferred, self.deferred = self.deferred, 0
        return deferred

    def next_turn(self, seat: int, nxt: int) -> None:
        waits = self.waits
        while waits.get(nxt) and nxt != seat:  # a seat that must miss turns is passed over
            waits[nxt] -= 1
            self.skip(nxt)
            nxt = self.step(nxt)
        self.current, self.phase = nxt, "play"
        if self.missed is not None and self.missed != nxt:
            self.phase = "challenge"  # the next player may point out the missed announcement
        if nxt != seat:
            self.again = None

    def forfeit(self, seat: int) -> None:
        """The fault policy takes `seat` out of the match; its cards stay in its hand, unscored."""
        self.out.add(seat)
        self._seats = None
        self.c.forfeit(seat)
        remaining = self.in_play()
        if len(remaining) <= 1:
            self.flow = None
            self.finish(remaining[0] if remaining and not self.finished else None)
            return
        if self.missed == seat:
            self.missed = None
        if self.flow is not None and self.phase == "jump_in":
            self.resume()  # the chance to jump in goes on to the next seat
            return
        self.flow = None
        self.drawn = None
        self.pass_on(seat)

    def finish(self, winner: int | None) -> None:
        if winner is None and self.finished:  # play_on: the first out wins however the round ends
            winner = self.finished[0]
        self.winner, self.over = winner, True

    def check_hand_limit(self, seat: int) -> None:
        limit = self.rules.hand_limit
        if limit is not None and self.hands_left(seat) > limit:
            self.finish(None)

    # ------------------------------------------------------------------ seats

    def in_play(self) -> list[int]:
        seats = self._seats
        if seats is None:
            gone = self.out.union(self.finished)
            seats = self._seats = [seat for seat in self.active if seat not in gone]
            n = len(self.c.players)
            self._after = {direction: [_next_of(seat, direction, seats, n) for seat in range(n)]
                           for direction in (1, -1)}
        return seats

    def step(self, seat: int, direction: int | None = None) -> int:
        """The next seat in play after `seat` (which may be out of play), in the direction of play (or `direction`)."""
        if self._seats is None:
            self.in_play()
        return self._after[self.direction if direction is None else direction][seat]

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
        event = self.c.take(ev.SKIP, why=lambda: f"seat {seat} is skipped")
        if event["seat"] != seat:
            self.fail(f"seat {seat} is skipped here, not seat {event['seat']}")

    def draw(self, seat: int, count: int, reasons, until=None) -> int:
        """Read the draw events of `seat` taking `count` cards from the stock top (reshuffling when it
        runs out; a draw from an exhausted stock takes what there is); return the cards taken.
        With `until`, the draw stops at the first card for which it is true (drawing.until_playable)."""
        if not count:
            return 0
        c, reasons = self.c, (reasons,) if isinstance(reasons, str) else reasons
        why = lambda: f"seat {seat} draws {count if until is None else 'until it can play'} ({reasons[0]})"  # noqa: E731
        remaining, stock, reshuffles = count, self.stock, self.rules.reshuffles
        while True:
            if not stock and reshuffles and len(self.discard) >= 2:
                self.reshuffle()
                stock = self.stock
            event = c.take(ev.DRAW, ev.RESHUFFLE, why=why)
            if event["type"] == ev.RESHUFFLE:
                self.fail("a reshuffle while the stock still has cards (or no discard pile to turn over)"
                          if reshuffles else "a reshuffle, but the rules never turn the pile over (drawing.reshuffle)")
            if event["seat"] != seat:
                self.fail(f"a draw by seat {event['seat']}, but {why()}")
            if event["reason"] not in reasons:
                self.fail(f"draw reason {event['reason']!r}, expected {' or '.join(reasons)}")
            taken = [c.card(text) for text in event["cards"]]
            if len(taken) > remaining:
                due = "is" if remaining == 1 else "are"
                self.fail(f"seat {seat} draws {counted(len(taken), 'card')}, {remaining} {due} due")
            top = list(reversed(stock[len(stock) - len(taken):])) if taken else []
            if taken != top:
                self.fail(f"drawn {_cards(Counter(taken))}, but the stock's top is "
                          f"{' '.join(map(str, top)) or 'empty'}")
            del stock[len(stock) - len(taken):]
            hand = self.hands[seat]
            for card in taken:
                hand[card] += 1
            if taken:
                self.last_drawn = taken[-1]
            remaining -= len(taken)
            if until is not None and taken:
                stops = [index for index, card in enumerate(taken) if until(card)]
                if stops and stops[0] < len(taken) - 1:
                    self.fail(f"seat {seat} draws on after {taken[stops[0]]}, which it can play")
                if stops:
                    break
            if not remaining:
                break
            if stock:
                if until is not None:
                    stop = taken[-1] if taken else "no card"
                    self.fail(f"seat {seat} stops drawing at {stop}, which it cannot play, while the stock has more")
                self.fail(f"seat {seat} draws {len(taken)} of {remaining + len(taken)} cards while the stock has more")
            if not reshuffles or len(self.discard) < 2:  # nothing left to draw: the rest is forgiven
                break
        if self.rules.hand_limit is not None:
            self.check_hand_limit(seat)
        return count - remaining

    def reshuffle(self) -> None:
        event = self.c.take(ev.RESHUFFLE)
        stock = [self.c.card(text) for text in event["stock"]]
        under = Counter(self.discard[:-1])
        if Counter(stock) != under:
            self.fail("the new stock is not the discard pile without its top card")
        self.stock = list(reversed(stock))
        self.discard = self.discard[-1:]


def _next_of(seat: int, direction: int, in_play: list[int], n: int) -> int:
    for k in range(1, n + 1):
        candidate = (seat + k * direction) % n
        if candidate in in_play:
            return candidate
    return seat


def _suit(card: Card) -> str | None:
    """The suit a card on top asks for: its own (a joker has none)."""
    return card.suit if card.suit in SUITS else None


def _clockwise_after(seat: int, active: list[int]) -> list[int]:
    """The seats of `active` clockwise, starting left of `seat` (so `seat` itself, if active, comes last)."""
    order = sorted(active)
    return [s for s in order if s > seat] + [s for s in order if s <= seat]


def _cards(counter: Counter) -> str:
    return names(f"{card}" + (f"×{n}" if n > 1 else "") for card, n in sorted(counter.items()) if n > 0)
