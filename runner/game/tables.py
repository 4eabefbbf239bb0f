"""Game: the rule tables, a Ruleset turned into the tables the engine reads, once per ruleset (and table size where
the rules change with it).

Every rule the engine looks up during play is here as a flat table keyed by the interned Card
(a power, a set of cards, a number), so that a decision costs dictionary and set look-ups only.
`general` says whether the ruleset uses a rule beyond those of the fast path (runner/game/engine.py);
the general path (runner/game/house_rules.py) plays every rule, the fast one's included.
"""

from __future__ import annotations

from typing import Iterable

from . import selectors
from .actions import Play, play
from .cards import EVERY_CARD, JOKER, RANKS, SUITS, Card
from .powers import NO_POWER, Power
from .ruleset import DeckSpec, Ruleset

RANK_INDEX = {rank: index for index, rank in enumerate(RANKS)}  # the deck's rank order: 2 lowest, A highest
# plays_on's place for a (suit to follow, announcement due) among a top card's tables: the suit by SUITS (None: after
# them), then the announcement due (none, mau, maumau)
SUIT_PLACE: dict[str | None, int] = {**{suit: 3 * index for index, suit in enumerate(SUITS)}, None: 3 * len(SUITS)}
DUE_PLACE: dict[str | None, int] = {None: 0, "mau": 1, "maumau": 2}
PLACES = 3 * (len(SUITS) + 1)


def _cards_of(items, every: Iterable[Card]) -> frozenset[Card]:
    """The cards a list of selectors names (`True`: every card)."""
    if items is True:
        return frozenset(every)
    named: set[Card] = set()
    for item in items:
        named |= selectors.cards(item)
    return frozenset(named)


class Game:
    """A Ruleset turned into flat lookups for the hot path: `Game.of(ruleset)`, built once per Ruleset.

    `Game.of(ruleset, players)` is the game at a table of that many players: the same object for
    every table size unless the ruleset changes powers, ranks or jokers with it.
    """

    def __init__(self, ruleset: Ruleset, players: int | None = None):
        self.ruleset, self.players = ruleset, players
        sizes = (players,) if players is not None else tuple(ruleset.table_sizes())
        deck: dict[Card, None] = {}
        for size in sizes:
            deck.update(dict.fromkeys(ruleset.deck_for(size).cards()))
        self.deck_cards: tuple[Card, ...] = tuple(deck)  # every distinct card a deal may hold, in deck order
        powers = ruleset.powers_for(players)
        power = self.power = {card: powers.get(card, NO_POWER) for card in self.deck_cards}
        with_power = [(card, p) for card, p in power.items() if p is not NO_POWER]
        # What the fast path looks up, by card.
        self.draw = {card: p.draw for card, p in with_power if p.draw}
        self.stack = frozenset(card for card, p in with_power if p.draw and p.stack)
        self.chain_limit = {card: p.chain_limit for card, p in with_power if p.draw}
        self.skip = {card: p.skip for card, p in with_power if p.skip}
        self.reverse = frozenset(card for card, p in with_power if p.reverse)
        self.wild = frozenset(card for card, p in with_power if p.wild)
        self.wild_on_wild = frozenset(card for card, p in with_power if p.wild and p.wild_on_wild)
        self.again = frozenset(card for card, p in with_power if p.play_again or p.skip_others)
        self.skip_others = frozenset(card for card, p in with_power if p.skip_others)
        self.others_draw = {card: p.others_draw for card, p in with_power if p.others_draw}
        self.action = frozenset(card for card, p in with_power if p.is_action)
        self.points: dict[str, int] = {rank: value for rank, value in ruleset.points.items()}  # by rank (X: joker)
        drawing, announcements = ruleset.drawing, ruleset.announcements
        self.stuck_only = drawing.when == "stuck"
        self.play_drawn = drawing.drawn_card == "play_or_keep"
        mau, maumau = announcements.mau, announcements.maumau
        self.mau_penalty = mau.penalty if mau.required else None
        self.maumau_penalty = maumau.penalty if maumau.required else None
        self.challenge = announcements.enforcement == "challenge"
        self.last_card_draws = ruleset.last_card_draws
        self.turn_limit = ruleset.turn_limit
        # what a deal reads, read once here: a field of the ruleset's pydantic models is read through their
        # __getattr__ hook, at several times the cost of these struct members
        deal, upcard = ruleset.deal, ruleset.upcard
        self.initial_direction, self.first_player = deal.initial_direction, deal.first_player
        self.upcard_to_dealer, self.flip_while_action = upcard.effects == "to_dealer", upcard.flip_while_action
        # The announcement due with a play that leaves 0 or 1 cards (None: not required).
        self.due_after = ("maumau" if self.maumau_penalty is not None else None,
                          "mau" if self.mau_penalty is not None else None)
        # plays_on's tables by top card, each a list by SUIT_PLACE + DUE_PLACE: a look-up by the card (hashed by
        # identity) and an index, with no key tuple to make, hash and compare
        self.tables_by_top: dict[Card, list[tuple[tuple[Play, ...] | None, ...] | None]] = {}
        # plays_on's last answer and its key (top, suit, due); no card is None, so the first call misses
        self._last_top: Card | None = None
        self._last_suit: str | None = None
        self._last_due: str | None = None
        self._last_table: tuple[tuple[Play, ...] | None, ...] = ()
        self._decks: dict[int, tuple[tuple[Card, ...], int]] = {}
        self._hand_sizes: dict[int, int] = {}  # hand_size_for's answers: Ruleset.hand_size_for sorts its table a call
        self._general(ruleset, with_power)
        self.general = _needs_general(self, ruleset, with_power)
        scoring = ruleset.scoring
        self.plain_scoring = (scoring.count == "points" and not scoring.minimum and scoring.round_to == 1
                              and not scoring.multiplier and not scoring.winner_collects and not scoring.alone
                              and not scoring.winner_scores and not scoring.highest_only
                              and scoring.blocked == "hands")

    def _general(self, ruleset: Ruleset, with_power: list[tuple[Card, Power]]) -> None:
        """The tables only the general path reads."""
        every = self.deck_cards
        self.suit_of = {card: (card.suit if card.rank != JOKER else None) for card in every}
        self.free = frozenset(card for card, p in with_power if p.free)
        self.wish = {card: p.wish for card, p in with_power if p.wild}
        players = self.players if self.players is not None else ruleset.players.min
        self.wish_ranks = {card: ruleset.wish_ranks_for(p, players) for card, p in with_power
                           if p.wild and p.wish == "rank"}
        self.wish_binds = {card: p.wish_binds for card, p in with_power if p.wild and p.wish_binds > 1}
        self.wild_follows_suit = frozenset(card for card, p in with_power if p.wild and p.wild_follows_suit)
        self.wild_last_resort = frozenset(card for card, p in with_power if p.wild and p.wild_last_resort)
        self.self_draw = {card: p.self_draw for card, p in with_power if p.self_draw}
        self.next_rank = {card: p.next_rank for card, p in with_power if p.next_rank and card.rank != JOKER}
        self.pass_hands = frozenset(card for card, p in with_power if p.pass_hands)
        self.swap_hands = {card: p.swap_hands for card, p in with_power if p.swap_hands}
        self.show_next = frozenset(card for card, p in with_power if p.show_next)
        self.give = {card: p.give for card, p in with_power if p.give}
        self.take = {card: p.take for card, p in with_power if p.take}
        self.keeps_turn = frozenset(card for card, p in with_power if p.draw and not p.ends_turn)
        self.target_previous = frozenset(card for card, p in with_power if p.draw and p.target == "previous")
        self.stack_with = {card: _cards_of(p.stack_with, every) for card, p in with_power if p.draw and p.stack_with}
        self.stack_match = frozenset(card for card, p in with_power if p.draw and p.stack_match)
        self.cancels = {card: _cards_of(p.cancels, every) for card, p in with_power if p.cancels}
        self.returns = {card: _cards_of(p.returns, every) for card, p in with_power if p.returns}
        self.skip_stack = {card: p.skip_stack for card, p in with_power if p.skip and p.skip_stack != "none"}
        self.skip_with = {card: _cards_of(p.skip_with, every) for card, p in with_power if p.skip and p.skip_with}
        self.answers_penalty = bool(self.stack_with or self.cancels or self.returns)
        multiple = ruleset.multiple
        self.same_rank, self.runs, self.run_min = multiple.same_rank, multiple.runs, multiple.run_min
        self.chain, self.power_each = multiple.chain, multiple.power == "each"
        self.chain_max = multiple.chain_max or 0  # 0: no limit
        self.suit_with = _cards_of(multiple.suit_with, every)
        self.multiple = bool(self.same_rank or self.runs != "none" or self.chain or self.suit_with)
        going = ruleset.going_out_for(self.players)
        self.out_forbidden = _cards_of(going.forbidden, every)
        self.out_only = _cards_of(going.only, every) if going.only else None
        self.out_follow_suit = going.follow_suit
        self.last_only = _cards_of(going.last_only, every)
        self.going_out_rules = bool(self.out_forbidden or self.out_only is not None or self.out_follow_suit
                                    or self.last_only)
        drawing = ruleset.drawing
        self.drawn_card = drawing.drawn_card
        self.until_playable, self.draw_max, self.reshuffle = drawing.until_playable, drawing.max, drawing.reshuffle
        announcements = ruleset.announcements
        self.false_penalty = {"mau": announcements.mau.false_penalty, "maumau": announcements.maumau.false_penalty}
        self.false_calls = any(self.false_penalty.values())
        self.play_on, self.hand_limit = ruleset.round.play_on, ruleset.round.hand_limit
        self.jump_in = ruleset.jump_in
        self.upcard_acts = ruleset.upcard.effects == "as_dealer_play"
        self.dealer_names_suit = ruleset.upcard.dealer_names_suit

    # ------------------------------------------------------------------ the fast path's legal-move rule

    def playable(self, card: Card, top: Card, suit: str | None) -> bool:
        """The fast path's legal-move rule: may `card` go on `top` with `suit` to follow (ignoring a pending draw)?"""
        if card in self.wild:
            return top not in self.wild or card in self.wild_on_wild
        return card.rank == top.rank or card.suit == suit

    def plays_on(self, due: str | None, top: Card, suit: str | None) -> tuple[tuple[Play, ...] | None, ...]:
        """By `card.ordinal` of every card (cards.py: EVERY_CARD), the plays of that card on `top` with `suit` to
        follow (a wild card: one per suit), or None where it is not playable.

        Built once per (announcement due, top card, suit), so that finding the legal plays of a
        hand is one index per card.
        """
        # The table asked for last, again: the usual case (a draw, a pass or a named suit leave the pile as it was),
        # found by three identity checks, without the key tuple, its hash and the look-up (a miss looks it up).
        if top is self._last_top and suit is self._last_suit and due is self._last_due:
            return self._last_table
        at, due_at = SUIT_PLACE.get(suit, -1), DUE_PLACE.get(due, -1)
        if at < 0 or due_at < 0:
            raise ValueError(f"no plays on {top} for suit {suit!r} and announcement {due!r}")
        tables = self.tables_by_top.get(top)
        if tables is None:
            tables = self.tables_by_top[top] = [None] * PLACES
        at += due_at
        found = tables[at]
        if found is None:
            found = tables[at] = _plays_on(self, due, top, suit)
        self._last_top, self._last_suit, self._last_due, self._last_table = top, suit, due, found
        return found

    # ------------------------------------------------------------------ the deal

    def deck_for(self, players: int) -> tuple[tuple[Card, ...], int]:
        """The unshuffled deck for a table of `players` (make_deck's order) and how many copies it holds."""
        found = self._decks.get(players)
        if found is None:
            spec: DeckSpec = self.ruleset.deck_for(players)
            found = self._decks[players] = (tuple(spec.cards()), spec.copies)
        return found

    def hand_size_for(self, players: int) -> int:
        """The cards dealt to each of `players` (Ruleset.hand_size_for), found once per table size."""
        size = self._hand_sizes.get(players)
        if size is None:
            size = self._hand_sizes[players] = self.ruleset.hand_size_for(players)
        return size

    @classmethod
    def of(cls, ruleset: Ruleset, players: int | None = None) -> "Game":
        """The rule tables of `ruleset` at a table of `players`, built once, kept with it (`Ruleset.derived`)."""
        last_ruleset, last_players, last_game = _last_of[0]
        if last_ruleset is ruleset and last_players == players:
            return last_game
        games = ruleset.derived("games", _games)
        key = _key(ruleset, players)
        game = games.get(key)
        if game is None:
            game = games[key] = cls(ruleset, None if key is None else players)
        _last_of[0] = (ruleset, players, game)
        return game


# Game.of's last answer, (ruleset, players, game), one tuple read and replaced whole: every round of a match (and of a
# tournament) asks for the same, and the answer costs a tenth of finding it (the ruleset held here keeps its id its own)
_last_of: list[tuple] = [(None, None, None)]


def _plays_on(game: Game, due: str | None, top: Card, suit: str | None) -> tuple[tuple[Play, ...] | None, ...]:
    """The table of `Game.plays_on`, built (a function of the module: the compiled method may hold no closure)."""
    table: list[tuple[Play, ...] | None] = [None] * len(EVERY_CARD)
    for card in game.deck_cards:
        if game.playable(card, top, suit):
            table[card.ordinal] = (tuple([play(card, named, due) for named in SUITS]) if card in game.wild
                                   else (play(card, None, due),))
    return tuple(table)


def _needs_general(game: Game, ruleset: Ruleset, with_power: list[tuple[Card, Power]]) -> bool:
    """Whether a rule of the ruleset is beyond the fast path (which plays today's rules only).

    A function of the module, not a method: the Game built by Cython is a class whose methods cannot be replaced.
    """
    if any(card.rank == JOKER for card in game.deck_cards):
        return True  # a joker has no suit to follow
    for card, p in with_power:
        if p.skip and (p.play_again or p.skip_others):
            return True  # the skip waits until the extra turn is over
        if (p.stack_with or p.stack_match or not p.ends_turn or p.target != "next" or p.cancels or p.returns
                or p.skip_stack != "none" or p.skip_with or p.wish != "suit" or p.wish_binds != 1
                or p.wild_follows_suit or p.wild_last_resort or p.free or p.self_draw or p.next_rank
                or p.pass_hands or p.swap_hands or p.show_next or p.give or p.take):
            return True
    drawing = ruleset.drawing
    return (game.multiple or game.going_out_rules or game.false_calls or game.play_on
            or game.hand_limit is not None or game.jump_in != "none" or drawing.until_playable
            or drawing.drawn_card in ("must_play", "go_on"))


def _games(ruleset: Ruleset) -> dict:
    return {}


def _key(ruleset: Ruleset, players: int | None) -> tuple | None:
    """What the rule tables at a table of `players` depend on (None: nothing of the table size)."""
    if players is None or not _varies(ruleset):
        return None
    deck = ruleset.deck
    powers = players if players in ruleset.powers_by_players else None
    going = players if players in ruleset.going_out_by_players else None
    return (powers, deck.ranks_for(players), deck.jokers_for(players), going)


def _varies(ruleset: Ruleset) -> bool:
    """Whether the rule tables change with the table size (powers, going out, ranks or jokers by players)."""
    deck = ruleset.deck
    return bool(ruleset.powers_by_players or ruleset.going_out_by_players or deck.ranks_by_players
                or deck.jokers_by_players)
