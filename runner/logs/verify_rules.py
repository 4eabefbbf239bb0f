"""The rules as a game log's `match_start` states them, read for the verifier: every key with its default.

The verifier's own reading of the resolved ruleset mapping (docs: Rulesets), independent of the
ruleset model: a key a log lacks (a log written before the key existed, or a key left out while it
holds its default) reads as its default. Powers are resolved per card, the most specific selector
winning (a key that is that one card, then a key naming it among others, then its rank), once per
table size.
"""

from __future__ import annotations

from typing import Any, Iterable

from runner.game.cards import RANKS, SUITS, Card

JOKER = "X"
JOKER_COLOURS = ("R", "B")
RANK_ORDER = {rank: index for index, rank in enumerate(RANKS)}
RANK_PRESETS = {"full": RANKS, "skat": RANKS[5:]}


class RulesError(ValueError):
    """The log's rules mapping cannot be read (a key of the wrong type, a selector that names nothing)."""


# ---------------------------------------------------------------------- selectors


def selector_terms(selector: Any) -> list[str]:
    """The terms of a selector: `7`, `"KH"`, `"JC JS"`, `"2, 3"` (YAML's 7 is the rank 7)."""
    if isinstance(selector, bool) or not isinstance(selector, (str, int)):
        raise RulesError(f"{selector!r} is not a selector")
    terms = [term for term in str(selector).upper().replace(",", " ").split()]
    for term in terms:
        if term not in RANKS and term != JOKER and not _is_card_term(term):
            raise RulesError(f"{term!r} in selector {selector!r} is neither a rank nor a card")
    if not terms:
        raise RulesError(f"an empty selector {selector!r}")
    return terms


def _is_card_term(term: str) -> bool:
    rank, suit = term[:-1], term[-1:]
    return rank in RANKS and suit in SUITS or rank == JOKER and suit in JOKER_COLOURS


class CardSet:
    """The cards a list of selectors names (or, for `true`, every card)."""

    __slots__ = ("everything", "cards", "ranks")

    def __init__(self, value: Any):
        self.everything = value is True
        self.cards: set[str] = set()
        self.ranks: set[str] = set()
        if self.everything or value is None or value is False:
            return
        for item in value if isinstance(value, (list, tuple)) else [value]:
            for term in selector_terms(item):
                (self.ranks if term in RANKS or term == JOKER else self.cards).add(term)

    def __contains__(self, card: Card) -> bool:
        return self.everything or card.rank in self.ranks or card.text in self.cards

    def __bool__(self) -> bool:
        return self.everything or bool(self.cards or self.ranks)


class Specific:
    """A mapping keyed by selectors (their terms), looked up by card: the most specific key naming it wins."""

    def __init__(self, mapping: dict[tuple[str, ...], Any]):
        self.alone: dict[str, Any] = {}  # a key that is this one card
        self.among: dict[str, Any] = {}  # a key naming this card among others
        self.rank: dict[str, Any] = {}  # a key naming its rank
        for terms, value in mapping.items():
            for term in terms:
                if term in RANKS or term == JOKER:
                    self.rank[term] = value
                elif len(terms) == 1:
                    self.alone[term] = value
                else:
                    self.among[term] = value

    def of(self, card: Card, default: Any = None) -> Any:
        for level, key in ((self.alone, card.text), (self.among, card.text), (self.rank, card.rank)):
            value = level.get(key)
            if value is not None:
                return value
        return default


# ---------------------------------------------------------------------- powers


class Power:
    """One card's power, from a power mapping of the rules (missing keys: their defaults)."""

    __slots__ = (
        "draw", "stack", "chain_limit", "skip", "reverse", "wild", "wild_on_wild", "play_again", "others_draw",
        "skip_others", "stack_with", "stack_match", "ends_turn", "target", "cancels", "returns", "skip_stack",
        "skip_with", "wish", "wish_ranks", "wish_binds", "wild_follows_suit", "wild_last_resort", "free",
        "self_draw", "next_rank", "pass_hands", "swap_hands", "show_next", "give", "take", "is_action", "again",
        "simple",
    )

    def __init__(self, data: dict):
        get = data.get
        self.draw, self.stack, self.chain_limit = int(get("draw", 0)), bool(get("stack", True)), get("chain_limit")
        self.skip, self.reverse = int(get("skip", 0)), bool(get("reverse", False))
        self.wild, self.wild_on_wild = bool(get("wild", False)), bool(get("wild_on_wild", True))
        self.play_again, self.skip_others = bool(get("play_again", False)), bool(get("skip_others", False))
        self.others_draw = int(get("others_draw", 0))
        self.stack_with, self.stack_match = CardSet(get("stack_with")), bool(get("stack_match", False))
        self.ends_turn, self.target = bool(get("ends_turn", True)), get("target", "next")
        self.cancels, self.returns = CardSet(get("cancels")), CardSet(get("returns"))
        self.skip_stack, self.skip_with = get("skip_stack", "none"), CardSet(get("skip_with"))
        self.wish = get("wish", "suit") if self.wild else None
        ranks = get("wish_ranks")
        self.wish_ranks = None if ranks is None else [str(rank).upper() for rank in ranks]
        self.wish_binds = int(get("wish_binds", 1))
        self.wild_follows_suit, self.wild_last_resort = bool(get("wild_follows_suit")), bool(get("wild_last_resort"))
        self.free, self.self_draw, self.next_rank = bool(get("free")), int(get("self_draw", 0)), get("next_rank")
        self.pass_hands, self.swap_hands = bool(get("pass_hands")), get("swap_hands")
        self.show_next, self.give, self.take = bool(get("show_next")), int(get("give", 0)), int(get("take", 0))
        if self.target not in ("next", "previous"):
            raise RulesError(f"target {self.target!r} is neither next nor previous")
        if self.skip_stack not in ("none", "pass", "add"):
            raise RulesError(f"skip_stack {self.skip_stack!r} is none of none, pass, add")
        if self.wish not in (None, "suit", "rank", "none"):
            raise RulesError(f"wish {self.wish!r} is none of suit, rank, none")
        if self.swap_hands not in (None, "next", "choose"):
            raise RulesError(f"swap_hands {self.swap_hands!r} is none of null, next, choose")
        if self.next_rank not in (None, "at_most", "at_least"):
            raise RulesError(f"next_rank {self.next_rank!r} is none of null, at_most, at_least")
        self.again = self.play_again or self.skip_others
        self.is_action = bool(self.draw or self.skip or self.reverse or self.wild or self.again
                              or self.others_draw or self.cancels or self.returns or self.free or self.self_draw
                              or self.next_rank or self.pass_hands or self.swap_hands or self.show_next or self.give
                              or self.take)
        # Only the powers that logs of the first rulesets knew, so that their checks keep the short path.
        self.simple = not (self.cancels or self.returns or self.self_draw or self.next_rank or self.pass_hands
                           or self.swap_hands or self.show_next or self.give or self.take
                           or self.skip_stack != "none"
                           or self.target != "next")


NO_POWER = Power({})


# ---------------------------------------------------------------------- the rules


def _by_players(default: Any, table: dict, players: int) -> Any:
    """The entry of the largest threshold at most `players` (`{7: 2}`: from 7 players on), else `default`."""
    value = default
    for threshold in sorted(table):
        if players >= threshold:
            value = table[threshold]
    return value


def _ranks(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        if value not in RANK_PRESETS:
            raise RulesError(f"ranks {value!r} is neither a list nor one of {', '.join(RANK_PRESETS)}")
        return RANK_PRESETS[value]
    wanted = {str(rank).upper() for rank in value}
    return tuple(rank for rank in RANKS if rank in wanted)


def _player_table(data: Any, convert=lambda value: value) -> dict[int, Any]:
    return {int(players): convert(value) for players, value in (data or {}).items()}


def _selector_map(data: Any) -> dict[tuple[str, ...], Any]:
    return {tuple(selector_terms(key)): value for key, value in (data or {}).items()}


def _power_map(data: Any) -> dict[tuple[str, ...], Power]:
    return {terms: Power(value or {}) for terms, value in _selector_map(data).items()}


class LogRules:
    """The resolved ruleset mapping of a log's match_start, every key read once with its default."""

    def __init__(self, data: dict):
        self.powers = _power_map(data["powers"])
        self.powers_by_players = _player_table(data.get("powers_by_players"), _power_map)
        deck = data["deck"]
        self.ranks = _ranks(deck["ranks"])
        self.ranks_by_players = _player_table(deck.get("ranks_by_players"), _ranks)
        self.copies = int(deck["copies"])
        self.copies_by_players = _player_table(deck.get("copies_by_players"), int)
        self.jokers = int(deck.get("jokers", 0))
        self.jokers_by_players = _player_table(deck.get("jokers_by_players"), int)
        self.hand_size = int(data["hand_size"])
        self.hand_size_by_players = _player_table(data.get("hand_size_by_players"), int)
        self.players_max = int(data["players"]["max"])
        deal = data["deal"]
        self.rotation, self.first_player = int(deal["dealer_rotation"]), int(deal["first_player"])
        self.initial_direction, self.reset_direction = int(deal["initial_direction"]), bool(deal["reset_direction"])
        self.next_dealer = deal.get("next_dealer", "rotate")
        upcard = data["upcard"]
        self.flip_while_action, self.upcard_acts = upcard["flip_while_action"], upcard["effects"] == "as_dealer_play"
        self.upcard_to_dealer = upcard["effects"] == "to_dealer"
        self.dealer_names_suit = upcard["dealer_names_suit"]
        drawing = data["drawing"]
        self.draw_by_choice = drawing["when"] == "any"
        self.drawn_card = drawing["drawn_card"]
        self.until_playable, self.draw_max = bool(drawing.get("until_playable")), drawing.get("max")
        self.reshuffles = bool(drawing.get("reshuffle", True))
        announcements = data["announcements"]
        self.penalty = {kind: announcements[kind]["penalty"] for kind in ("mau", "maumau")
                        if announcements[kind]["required"]}
        self.false_penalty = {kind: int(announcements[kind].get("false_penalty", 0)) for kind in ("mau", "maumau")}
        self.challenge = announcements["enforcement"] == "challenge"
        self.last_card_draws = bool(data["last_card_draws"])
        self.points = _selector_map(data["points"])
        multiple = data.get("multiple") or {}
        self.same_rank, self.runs = bool(multiple.get("same_rank")), multiple.get("runs", "none")
        self.run_min, self.chain = int(multiple.get("run_min", 3)), bool(multiple.get("chain"))
        self.chain_max = multiple.get("chain_max")
        self.suit_with, self.power_each = CardSet(multiple.get("suit_with")), multiple.get("power", "last") == "each"
        self.multiple = self.same_rank or self.runs != "none" or self.chain or bool(self.suit_with)
        self.going_out = GoingOut(data.get("going_out") or {})
        self.going_out_by_players = _player_table(data.get("going_out_by_players"), GoingOut)
        scoring = data.get("scoring") or {}
        self.count = scoring.get("count", "points")
        self.multiplier = Specific(_selector_map(scoring.get("multiplier")))
        self.round_to, self.minimum = int(scoring.get("round_to", 1)), int(scoring.get("minimum", 0))
        self.winner_collects = bool(scoring.get("winner_collects"))
        self.alone = Specific(_selector_map(scoring.get("alone")))
        self.winner_scores = Specific(_selector_map(scoring.get("winner_scores")))
        self.highest_only, self.blocked = bool(scoring.get("highest_only")), scoring.get("blocked", "hands")
        round_rules = data.get("round") or {}
        self.play_on, self.hand_limit = bool(round_rules.get("play_on")), round_rules.get("hand_limit")
        self.jump_in = data.get("jump_in", "none")
        match = data["match"]
        self.format, self.limit, self.tie_break = match["format"], match["limit"], match["tie_break"]
        self.rounds_to_play, self.wins_needed = match.get("rounds"), match.get("wins")
        self.max_rounds = int(match.get("max_rounds", 1000))
        self.max_deciding = int(match["max_deciding_rounds"])
        self.table_changes = bool(match["table_changes"])
        self.exact_totals = {int(total): int(value) for total, value in (match.get("exact_totals") or {}).items()}
        self.turn_limit = int(data["turn_limit"])
        self._tables: dict[int, TableRules] = {}
        drawn_cards = ("play_or_keep", "keep", "must_play", "go_on")
        for name, value, allowed in (("drawing.drawn_card", self.drawn_card, drawn_cards),
                                     ("multiple.runs", self.runs, ("none", "up", "down", "both")),
                                     ("scoring.count", self.count, ("points", "cards", "flat")),
                                     ("scoring.blocked", self.blocked, ("hands", "difference")),
                                     ("deal.next_dealer", self.next_dealer, ("rotate", "loser", "winner")),
                                     ("jump_in", self.jump_in, ("none", "identical", "same_rank")),
                                     ("match.format", self.format,
                                      ("single", "limit", "elimination", "target", "rounds", "wins"))):
            if value not in allowed:
                raise RulesError(f"{name} {value!r} is none of {', '.join(allowed)}")

    def at(self, players: int) -> "TableRules":
        """What depends on the table size: the deck, the hand size, each card's power and points."""
        table = self._tables.get(players)
        if table is None:
            table = self._tables[players] = TableRules(self, players)
        return table

    def hand_points(self, hand: dict, table: "TableRules") -> int:
        """A hand's score before the round's multiplier: count (or alone), then minimum, then round_to (halves up)."""
        cards = sum(hand.values())
        if not cards:
            return 0
        alone = self.alone.of(next(card for card, count in hand.items() if count)) if cards == 1 else None
        if alone is not None:
            value = int(alone)
        elif self.count == "points":
            value = table.card_points(hand)
        else:
            value = cards if self.count == "cards" else 1
        value = max(value, self.minimum)
        if self.round_to > 1:
            value = (2 * value + self.round_to) // (2 * self.round_to) * self.round_to
        return value

    def factor(self, card: Card | None) -> int:
        """The multiplier of the round's points when the winner went out on `card`."""
        if card is None:
            return 1
        return int(self.multiplier.of(card, 1))


class GoingOut:
    """The going_out mapping: which cards may end a round, and which only may."""

    def __init__(self, data: dict):
        self.forbidden, self.only = CardSet(data.get("forbidden")), CardSet(data.get("only"))
        self.follow_suit, self.last_only = bool(data.get("follow_suit")), CardSet(data.get("last_only"))
        self.any = bool(self.forbidden or self.only or self.follow_suit or self.last_only)


class TableRules:
    """The rules at one table size: the deck shuffled, the cards dealt, each card's power and points, going out."""

    def __init__(self, rules: LogRules, players: int):
        self.going_out: GoingOut = rules.going_out_by_players.get(players, rules.going_out)  # exactly this many
        self.ranks = _by_players(rules.ranks, rules.ranks_by_players, players)
        self.copies = _by_players(rules.copies, rules.copies_by_players, players)
        self.jokers = _by_players(rules.jokers, rules.jokers_by_players, players)
        self.hand_size = _by_players(rules.hand_size, rules.hand_size_by_players, players)
        deck = {Card(rank, suit): self.copies for suit in SUITS for rank in self.ranks}
        for index in range(self.jokers):
            joker = Card(JOKER, JOKER_COLOURS[index % 2])
            deck[joker] = deck.get(joker, 0) + 1
        self.deck = deck
        keys = dict(rules.powers)
        keys.update(rules.powers_by_players.get(players, {}))  # whole keys replaced, at exactly this many players
        powers = Specific(keys)
        points = Specific(rules.points)
        self.power: dict[Card, Power] = {}
        self.points: dict[Card, int] = {}
        for card in deck:
            self.power[card] = powers.of(card, NO_POWER)
            value = points.of(card)
            if value is None:
                raise RulesError(f"points gives no value for {card}")
            self.points[card] = int(value)
        self.action = {card for card, power in self.power.items() if power.is_action}
        plain = [rank for rank in self.ranks if not any(Card(rank, suit) in self.action for suit in SUITS)]
        self.plain_ranks = plain  # what a rank wish may name by default

    def of(self, card: Card) -> Power:
        return self.power.get(card, NO_POWER)

    def card_points(self, hand: dict) -> int:
        return sum(self.points[card] * count for card, count in hand.items())


def rank_index(card: Card) -> int | None:
    """A card's place in 2 < 3 < ... < K < A, None for a joker."""
    return RANK_ORDER.get(card.rank)


def names(cards: Iterable[Card]) -> str:
    return " ".join(map(str, cards))
