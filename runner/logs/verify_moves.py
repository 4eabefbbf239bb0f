"""Which plays the rules allow, as the verifier reads them: matching, wishes, pending penalties and skips,
several cards at once, going out. A part of `RoundCheck` (runner/logs/verify_round.py): it reads the
table the round keeps (hands, discard pile, active suit, what is pending) and moves nothing.
"""

from __future__ import annotations

from collections import Counter

from runner.game.cards import RANKS, SUITS, Card

from .verify_rules import Power, names, rank_index

RUN_ORDER = {rank: index for index, rank in enumerate(RANKS)}


class Moves:
    """The legality half of RoundCheck; the attributes are RoundCheck's (runner/logs/verify_round.py)."""

    # ------------------------------------------------------------------ one card on the pile

    def matches(self, card: Card) -> bool:
        """Whether a card that is not wild may go on the pile: the wish, a free top card, or rank or active suit."""
        top = self.discard[-1]
        wish = self.wish
        if wish is not None:
            kind, value = wish
            if kind == "rank":
                ok = card.rank == value
            elif self.power[top].wild:  # the first card after the wish: as usual (a free wild card: anything)
                ok = self.power[top].free or card.rank == top.rank or card.suit == value
            else:  # a wish that binds further cards: of the suit named
                ok = card.suit == value
        elif self.power[top].free:
            ok = True
        else:
            ok = card.rank == top.rank or card.suit == self.suit
        if ok and self.next_rank is not None:
            ok = self.within_next_rank(card)
        return ok

    def within_next_rank(self, card: Card) -> bool:
        mode, bound = self.next_rank
        index = rank_index(card)
        if index is None:
            return False
        return index <= bound if mode == "at_most" else index >= bound

    def playable(self, card: Card, seat: int) -> bool:
        """Whether `card` from `seat`'s hand may go on the pile, nothing pending (docs: Rulesets)."""
        power = self.power[card]
        if not power.wild:
            if self.wish is None and self.next_rank is None and not self.top_free:  # the rank or the active suit
                return card.rank == self.discard[-1].rank or card.suit == self.suit
            return self.matches(card)
        if self.power[self.discard[-1]].wild and not power.wild_on_wild:
            return False
        if power.wild_follows_suit and not self._matches_ignoring_next_rank(card):
            return False
        if power.wild_last_resort:
            for other, count in self.hands[seat].items():
                if count and not self.power[other].wild and self.matches(other):
                    return False
        return True

    def _matches_ignoring_next_rank(self, card: Card) -> bool:
        held, self.next_rank = self.next_rank, None  # wild cards are exempt from next_rank
        try:
            return self.matches(card)
        finally:
            self.next_rank = held

    def refusal(self, card: Card) -> str:
        """Why `card` may not go on the pile (it is not playable)."""
        top, power = self.discard[-1], self.power[card]
        if power.wild:
            if self.power[top].wild and not power.wild_on_wild:
                return f"the wild {card} may not be played on the wild {top} (wild_on_wild)"
            if power.wild_follows_suit and not self._matches_ignoring_next_rank(card):
                return f"the wild {card} must itself match {top} or the suit {self.suit} (wild_follows_suit)"
            return f"the wild {card} may be played only when no other card can (wild_last_resort)"
        if self.wish is not None:
            kind, value = self.wish
            if kind == "rank":
                return f"{card} is not of the rank {value} wished, nor a wild card"
            if not self.power[top].wild:
                return f"{card} is not of the suit {value} the wish still binds (wish_binds)"
        if self.next_rank is not None and not self.within_next_rank(card):
            mode, bound = self.next_rank
            limit = RANKS[bound]
            return f"{card} is not of the rank {limit} or {'lower' if mode == 'at_most' else 'higher'} (next_rank)"
        return f"{card} matches neither the rank of {top} nor the active suit {self.suit}"

    def answer(self, card: Card) -> str | None:
        """How `card` answers the pending draw penalty: "stack", "cancel", "return", or None (it may not be played)."""
        source = self.pending_card
        power, source_power = self.power[card], self.power[source]
        if source in power.cancels:
            return "cancel"
        if source in power.returns and self.pending_from not in self.finished:  # nobody to send it back to
            return "return"
        if (source_power.stack and card.rank == source.rank) or card in source_power.stack_with:
            if source_power.chain_limit is not None and self.chain >= source_power.chain_limit:
                self.fail(f"the {source.rank} chain is limited to {source_power.chain_limit} pass(es)")
            if source_power.stack_match and not (card.rank == source.rank or card.suit == self.suit):
                self.fail(f"{card} passes the penalty of {source} on only if it matches it by rank or the suit "
                          f"{self.suit}")
            return "stack"
        return None

    def answers_skip(self, card: Card) -> bool:
        source = self.skip_card
        return card.rank == source.rank or card in self.power[source].skip_with

    def may_go_out(self, card: Card, suit_before: str | None) -> str | None:
        """Why `card` may not be the last card of the hand (going_out), or None."""
        going = self.table.going_out
        if card in going.forbidden:
            return f"{card} may not be the last card (going_out.forbidden)"
        if going.only and card not in going.only:
            return f"{card} may not be the last card (going_out.only)"
        if going.follow_suit and (card.suit != suit_before or self.power[card].wild):
            return f"the last card must follow the suit {suit_before} (going_out.follow_suit)"
        return None

    def legal_alone(self, card: Card, seat: int) -> bool:
        """Whether `card` alone is a legal play of `seat` now (nothing pending; going out included)."""
        if not self.playable(card, seat):
            return False
        going = self.table.going_out
        if going.any:
            held = sum(self.hands[seat].values())
            if held == 1:
                return self.may_go_out(card, self.suit) is None
            return card not in going.last_only
        return True

    def can_play(self, seat: int) -> bool:
        """Whether `seat` holds a legal play (a first card legal on its own is one), nothing pending."""
        hand = self.hands[seat]
        legal = self.legal_alone if self.table.going_out.any else self.playable
        for card, count in hand.items():
            if count and legal(card, seat):
                return True
        return False

    # ------------------------------------------------------------------ the play event

    def read_play(self, seat: int, event: dict) -> tuple[list[Card], str | None]:
        """The cards of a play event, checked against the hand and the rules; with how the first answers a penalty."""
        c, rules, hand = self.c, self.rules, self.hands[seat]
        if event["seat"] != seat:
            c.seat_of(event, seat, "plays")
        card = c.card(event["card"])
        more = event.get("more")
        cards = [card] + [c.card(text) for text in more] if more else [card]
        if more:
            if not rules.multiple:
                self.fail("several cards in one play, but the rules allow one (multiple)")
            held = Counter(cards)
            lacking = [c_ for c_, n in held.items() if hand[c_] < n]
            if lacking:
                self.fail(f"seat {seat} plays {names(lacking)}, which is not in its hand")
        elif hand[card] < 1:
            self.fail(f"seat {seat} plays {card}, which is not in its hand")
        phase = self.phase
        if (phase == "jump_in") != bool(event.get("jump_in")):
            self.fail("a jump-in play outside the chance to jump in" if event.get("jump_in")
                      else f"seat {seat} plays out of turn without jump_in")
        kind = None
        if phase == "jump_in":
            top = self.discard[-1]
            if more or not (card is top if rules.jump_in == "identical" else card.rank == top.rank):
                how = "identical to" if rules.jump_in == "identical" else "of the rank of"
                self.fail(f"only a card {how} {top} jumps in")
        else:
            if phase == "drawn" and rules.drawn_card != "go_on" and card is not self.drawn:
                self.fail(f"after drawing {self.drawn} only that card may be played, not {card}")
            if self.pending:
                kind = self.answer(card)
                if kind is None:
                    top = self.pending_card
                    self.fail(f"{card} while a draw penalty of {self.pending} is pending: "
                              f"only a {top.rank} passes it on")
            elif self.skip_pending:
                if not self.answers_skip(card):
                    self.fail(f"{card} does not answer the pending skip of {self.skip_card}")
                kind = "skip"
            elif not self.playable(card, seat):
                self.fail(self.refusal(card))
            if more:
                self.check_several(cards, hand)
        last = cards[-1]
        going = self.table.going_out
        if going.any and sum(hand.values()) == len(cards):
            why = self.may_go_out(last, self.suit)
            if why:
                self.fail(why)
        elif going.last_only:
            barred = [card for card in cards if card in going.last_only]
            if barred:
                self.fail(f"{barred[0]} may be played only in the play that empties the hand (going_out.last_only)")
        if self.power[last].wild or event["suit"] is not None or event.get("rank") is not None:
            self.check_naming(last, event)
        if event["announce"] not in (None, "mau", "maumau"):
            self.fail(f"announce {event['announce']!r} is none of null, mau, maumau")
        return cards, kind

    def check_several(self, cards: list[Card], hand: Counter) -> None:
        """Several cards in one play: a set of one rank, a run, a chain, or a card with all of its suit (multiple)."""
        rules, first = self.rules, cards[0]
        if rules.same_rank and all(card.rank == first.rank for card in cards):
            return
        if rules.runs != "none" and len(cards) >= rules.run_min and self._run(cards):
            return
        if first in rules.suit_with and first.suit in SUITS:  # (beyond chain_max too: it is no chain)
            suited = Counter({card: n for card, n in hand.items() if card.suit == first.suit and n})
            if Counter(cards) == suited:
                return
        if rules.chain and all(b.rank == a.rank or (b.suit == a.suit and b.suit in SUITS)
                               for a, b in zip(cards, cards[1:])):
            if rules.chain_max is not None and len(cards) > rules.chain_max:
                self.fail(f"a chain of {len(cards)} cards, and multiple.chain_max allows {rules.chain_max}")
            return
        self.fail(f"{names(cards)} is no play of several cards the rules allow (multiple)")

    def _run(self, cards: list[Card]) -> bool:
        suit = cards[0].suit
        if suit not in SUITS or any(card.suit != suit for card in cards):
            return False
        steps = {RUN_ORDER[b.rank] - RUN_ORDER[a.rank] for a, b in zip(cards, cards[1:])}
        runs = self.rules.runs
        return steps == {1} and runs in ("up", "both") or steps == {-1} and runs in ("down", "both")

    def check_naming(self, last: Card, event: dict) -> None:
        """A wild last card names what its wish says (a suit, a rank, nothing); any other play names nothing."""
        power: Power = self.power[last]
        suit, rank = event["suit"], event.get("rank")
        wish = power.wish
        if wish == "suit":
            if suit not in SUITS:
                self.fail(f"a wild {last} names a suit, got {suit!r}")
        elif suit is not None:
            self.fail(f"{last} names no suit" if wish else f"{last} is not wild and names no suit")
        if wish == "rank":
            allowed = power.wish_ranks if power.wish_ranks is not None else self.table.plain_ranks
            if rank not in allowed:
                self.fail(f"a wild {last} wishes one of the ranks {' '.join(allowed)}, got {rank!r}")
        elif rank is not None:
            self.fail(f"{last} wishes no rank")
