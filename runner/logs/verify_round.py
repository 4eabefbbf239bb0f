"""One round of a game log checked card by card, and the rules as the log's `match_start` states them.

`RoundCheck` keeps its own picture of the table (hands, stock, discard pile, whose turn, what is
pending) and reads the round's events through the match checker (`take`, `peek`, `fail`), holding
each against the rules: a play comes from the hand and matches, a draw takes the stock's top cards,
a power brings the draws and skips it causes, in order.
"""

from __future__ import annotations

from collections import Counter

from runner.game import events as ev
from runner.game.cards import SUITS, Card


class LogRules:
    """The parts of a resolved ruleset mapping that the checker needs, read once."""

    def __init__(self, data: dict):
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
        self.draw, self.stack, self.chain_limit = (
            int(data.get("draw", 0)),
            data.get("stack", True),
            data.get("chain_limit"),
        )
        self.skip, self.reverse = int(data.get("skip", 0)), bool(data.get("reverse", False))
        self.wild, self.wild_on_wild = bool(data.get("wild", False)), bool(data.get("wild_on_wild", True))
        self.play_again, self.skip_others = bool(data.get("play_again", False)), bool(data.get("skip_others", False))
        self.others_draw = int(data.get("others_draw", 0))
        self.is_action = bool(self.draw or self.skip or self.reverse or self.wild or self.play_again
                              or self.others_draw or self.skip_others)


_NO_POWER = _Power({})


class RoundCheck:
    """The table during one round, as the log's events move the cards."""

    def __init__(self, checker, number: int, active: list[int], dealer: int, direction: int):
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
            self.decision()
            if not self.over and self.phase != "drawn" and self.turns >= self.rules.turn_limit:
                self.finish(None)  # the round's turn limit: it ends as blocked

    def decision(self) -> None:
        c, seat, phase = self.c, self.current, self.phase
        if phase == "name_suit":
            event = c.take(ev.NAME_SUIT)
            c.seat_of(event, seat, "names a suit")
            if event["suit"] not in SUITS:
                self.fail(f"{event['suit']!r} is not a suit")
            self.suit, self.phase, self.current = event["suit"], "play", self.lead
            return
        if phase == "challenge":
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
                self.finish(offender)
                return
            self.phase = "play"
            return
        event = c.take(ev.PLAY, ev.DRAW, ev.RESHUFFLE, ev.PASS if phase == "drawn" else ev.PLAY)
        if event["type"] == ev.PLAY:
            self.play_card(seat, event)
        elif event["type"] == ev.PASS:
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
                self.draw(seat, rules.penalty[due], ev.PENALTY)
        if not self.hands_left(seat) and not (missed and rules.challenge):  # nothing to draw: forgiven, out
            if rules.last_card_draws:
                if power.draw:
                    self.draw(self.step(seat), self.pending + power.draw, ev.SEVEN)
                    self.pending = 0
                for other in self.others(seat) if power.others_draw else ():
                    self.draw(other, power.others_draw, ev.OTHERS)
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
            self.draw(other, power.others_draw, ev.OTHERS)
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
            got = self.draw(seat, self.pending, ev.SEVEN)
            self.pending = self.chain = 0
            self.end_turn(seat, got)
            return
        can_play = any(self.playable(card) for card, count in self.hands[seat].items() if count)
        if can_play and not self.rules.draw_by_choice:
            self.fail(f"seat {seat} draws but could play (the rules allow drawing only when stuck)")
        reasons = (ev.ACE,) if self.again else (ev.STUCK, ev.CHOICE) if can_play else (ev.STUCK,)
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
        event = self.c.take(ev.SKIP, why=f"seat {seat} is skipped")
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
            elif (upcoming := c.peek()) is not None and upcoming["type"] == ev.RESHUFFLE:
                c.take(ev.RESHUFFLE)
                self.fail("a reshuffle while the stock still has cards (or no discard pile to turn over)")
            event = c.take(ev.DRAW, why=why)
            if event["seat"] != seat:
                self.fail(f"a draw by seat {event['seat']}, but {why}")
            if event["reason"] not in reasons:
                self.fail(f"draw reason {event['reason']!r}, expected {' or '.join(reasons)}")
            taken = [c.card(text) for text in event["cards"]]
            if len(taken) > remaining:
                self.fail(f"seat {seat} draws {len(taken)} cards, {remaining} are due")
            top = list(reversed(self.stock[len(self.stock) - len(taken):])) if taken else []
            if taken != top:
                self.fail(f"drawn {_cards(Counter(taken))}, but the stock's top is "
                          f"{' '.join(map(str, top)) or 'empty'}")
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
        event = self.c.take(ev.RESHUFFLE)
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
