"""The Ruleset model: one Mau Mau variant as a frozen, validated pydantic value (reading files is runner.rules).

The keys, their defaults and the contract between the model, the engine and the verifier are
those of the docs (Rulesets) and docs/house-rules.md. Every key added after the first game logs
(selectors, jokers, the table-size mappings, the keys docs/house-rules.md uses) is marked QUIET:
`to_data()` (what game logs and bots receive) leaves it out while it holds its default, so that
the logs of rulesets that do not use it stay byte for byte the same.
"""

from __future__ import annotations

import weakref
from typing import Annotated, Any, Callable, Literal, Mapping, NamedTuple, TypeVar, cast

import yaml
from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    Field,
    field_validator,
    model_validator,
)

from . import selectors
from .cards import RANKS, SUITS, Card, make_deck
from .checks import check, check_compiled, compile_powers, hand_limit_refusal, notes
from .powers import NO_POWER, QUIET, Inconsistent, Model, Power, Rank, Selector, Selectors, unique_keys

__all__ = ["Inconsistent", "NO_POWER", "Power", "Ruleset", "DeckSpec"]

RANK_PRESETS = {"full": RANKS, "skat": RANKS[5:]}
FACE_POINTS = cast("dict[PointRank, int]", {rank: int(rank) for rank in RANKS[:9]})
MAX_PLAYERS = 16

T = TypeVar("T")

PointRank = Literal["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "X"]


def _default_points() -> dict[PointRank, int]:
    """Face value for 2-10, 10 for each picture card and the Ace."""
    return {**FACE_POINTS, "J": 10, "Q": 10, "K": 10, "A": 10}


def _rank_key(raw: Any) -> str:
    """YAML reads `7:` as the integer 7; ranks are strings."""
    return str(raw).upper()


def _player_key(raw: Any) -> Any:
    """`7:` and `'7':` are one table size; pydantic checks the type and the range."""
    return int(raw) if isinstance(raw, str) and raw.strip().isdigit() else raw


# A mapping from a table size (2-16), its keys unique as numbers: Annotated[dict[PlayerCount, V], BY_PLAYERS].
BY_PLAYERS = BeforeValidator(lambda value: unique_keys(value, _player_key))


def _preset_or_list(value: Any) -> Any:
    if isinstance(value, str):
        if value not in RANK_PRESETS:
            raise ValueError(f"a rank list or one of {', '.join(RANK_PRESETS)}")
        return RANK_PRESETS[value]
    if isinstance(value, list):
        return tuple(str(rank).upper() for rank in value)
    return value


def _distinct_ranks(value: tuple[str, ...]) -> tuple[str, ...]:
    if len(set(value)) != len(value):
        raise ValueError("each rank at most once (use copies for more decks)")
    if not value:
        raise ValueError("at least one rank")
    return tuple(rank for rank in RANKS if rank in value)


RankList = Annotated[tuple[Rank, ...], BeforeValidator(_preset_or_list), AfterValidator(_distinct_ranks)]


def by_players(default: Any, table: Mapping[int, Any], players: int) -> Any:
    """The value for a table of `players`: the entry of the largest threshold at most `players`, else `default`."""
    value = default
    for threshold in sorted(table):
        if players >= threshold:
            value = table[threshold]
    return value


PlayerCount = Annotated[int, Field(ge=2, le=MAX_PLAYERS)]


def _total_key(raw: Any) -> int:
    """A total of match.exact_totals: `100:` and `'100':` are one."""
    if isinstance(raw, bool) or not str(raw).strip().isdigit():
        raise ValueError("a total (a whole number, 0 or more)")
    return int(raw)


class Players(Model):
    """How many players the ruleset allows."""

    min: Annotated[int, Field(ge=2, le=MAX_PLAYERS)] = Field(2, description="The smallest table allowed.")
    max: Annotated[int, Field(ge=2, le=MAX_PLAYERS)] = Field(6, description="The largest table allowed.")


class DeckSpec(NamedTuple):
    """The deck shuffled for one table size: `ranks` of every suit, `copies` times, and `jokers` jokers."""

    ranks: tuple[str, ...]
    copies: int
    jokers: int

    @property
    def size(self) -> int:
        return len(self.ranks) * len(SUITS) * self.copies + self.jokers

    def cards(self) -> list[Card]:
        """The unshuffled deck, in the order of make_deck (suit by suit, copy after copy, then the jokers)."""
        return make_deck(self.ranks, self.copies, self.jokers)


class Deck(Model):
    """Which cards are shuffled: `ranks` of every suit, `copies` times, plus jokers; each may vary by table size."""

    ranks: RankList = cast("tuple[Rank, ...]", RANKS)
    copies: Annotated[int, Field(ge=1, le=8)] = 1
    copies_by_players: Annotated[dict[PlayerCount, Annotated[int, Field(ge=1, le=8)]], BY_PLAYERS] = Field(
        default_factory=dict,
        description="From this many players on, use this many copies, e.g. {7: 2} for two decks at 7+.",
    )
    ranks_by_players: Annotated[dict[PlayerCount, RankList], BY_PLAYERS, QUIET] = Field(
        default_factory=dict,
        description="From this many players on, these ranks (full, skat or a list), e.g. {5: full} for a Skat deck "
                    "below 5.",
    )
    jokers: Annotated[int, Field(ge=0, le=8), QUIET] = Field(
        0,
        description="Jokers in the whole deck, whatever `copies` is (a 54-card deck: 2); written XR, XB (red, black, "
                    "...).",
    )
    jokers_by_players: Annotated[dict[PlayerCount, Annotated[int, Field(ge=0, le=8)]], BY_PLAYERS, QUIET] = Field(
        default_factory=dict, description="From this many players on, this many jokers.",
    )

    def copies_for(self, players: int) -> int:
        """The number of copies shuffled for a table of `players`."""
        return by_players(self.copies, self.copies_by_players, players)

    def ranks_for(self, players: int) -> tuple[str, ...]:
        return by_players(self.ranks, self.ranks_by_players, players)

    def jokers_for(self, players: int) -> int:
        return by_players(self.jokers, self.jokers_by_players, players)

    def spec_for(self, players: int) -> DeckSpec:
        return DeckSpec(self.ranks_for(players), self.copies_for(players), self.jokers_for(players))

    def size_for(self, players: int) -> int:
        return self.spec_for(players).size


class Deal(Model):
    """Dealing, leading and direction between rounds."""

    dealer_rotation: Annotated[int, Field(ge=-15, le=15)] = Field(
        1, description="Seats the deal moves clockwise after each round (with next_dealer: rotate; "
        "-1: to the right, at any table size)."
    )
    first_player: Annotated[int, Field(ge=-15, le=15)] = Field(
        1, description="Seats clockwise from the dealer of the player who leads (1: left of the dealer; "
        "0: the dealer; -1: right of the dealer, at any table size)."
    )
    initial_direction: Literal[1, -1] = Field(
        1, description="The direction of play of the first round: 1 to increasing seat numbers, -1 the other way.")
    reset_direction: bool = Field(True, description="Each round starts in the initial direction again.")
    next_dealer: Annotated[Literal["rotate", "loser", "winner"], QUIET] = Field(
        "rotate", description="rotate: dealer_rotation seats on; loser: the round's loser deals next (most points; "
        "a tie: the first of them clockwise from the dealer); winner: the round's winner deals next."
    )


class Upcard(Model):
    """How the discard pile is started."""

    flip_while_action: bool = Field(
        False, description="While the upcard is an action card, turn up another on top of it."
    )
    effects: Literal["none", "as_dealer_play", "to_dealer"] = Field(
        "none", description="none: an action upcard does nothing; as_dealer_play: it acts as if the dealer played it; "
        "to_dealer: the dealer takes it into the hand and turns up the next card, until one without a power."
    )
    dealer_names_suit: bool = Field(True, description="A wild upcard (Jack): the dealer names the suit to follow.")


class Multiple(Model):
    """Several cards in one turn; the first card must be legal on its own."""

    same_rank: bool = Field(False, description="Several cards of one rank at once.")
    runs: Literal["none", "up", "down", "both"] = Field(
        "none",
        description="Consecutive ranks of one suit (2..10 J Q K A, no wrap, never jokers), run_min cards or more.",
    )
    run_min: Annotated[int, Field(ge=2, le=13)] = Field(3, description="The shortest run.")
    chain: bool = Field(False, description="Any number of cards, each matching the one before by rank or suit.")
    chain_max: Annotated[Annotated[int, Field(ge=2, le=52)] | None, QUIET] = Field(
        None, description="With chain: at most this many cards in one play (null: no limit, and the plays a hand "
        "can list grow exponentially with it: 13 cards of a suit, 319,501).")
    suit_with: Selectors = Field(
        (), description="A card these name may be played together with all cards of its suit in the hand.")
    power: Literal["last", "each"] = Field(
        "last", description="last: only the last card's power applies; each: every card's, in play order (two "
        "skips skip two players; two skip_others cards skip every other player twice, so their player plays "
        "twice more).")


class Drawing(Model):
    """When a player may draw, how many, and what they may do with the drawn card."""

    when: Literal["stuck", "any"] = Field(
        "stuck", description="stuck: only when no card can be played; any: also by choice."
    )
    drawn_card: Literal["play_or_keep", "keep", "must_play", "go_on"] = Field(
        "play_or_keep", description="play_or_keep: a playable drawn card may be played at once; keep: the turn ends; "
        "must_play: a playable drawn card is played at once; go_on: after drawing, any legal play of the whole hand, "
        "or pass (no second draw)."
    )
    until_playable: Annotated[bool, QUIET] = Field(
        False, description="A draw takes cards one by one until one can be played (or max, or the stock is out).")
    max: Annotated[Annotated[int, Field(ge=1, le=52)] | None, QUIET] = Field(
        None, description="With until_playable: at most this many cards (null: no limit).")
    reshuffle: Annotated[bool, QUIET] = Field(
        True, description="An empty stock is refilled from the pile; false: a player who cannot draw passes.")

    @model_validator(mode="after")
    def _max_needs_until(self) -> "Drawing":
        if self.max is not None and not self.until_playable:
            raise Inconsistent("max", "max limits a draw until playable, and until_playable is false",
                               "add `until_playable: true`, or remove max")
        return self


class Announcement(Model):
    required: bool = Field(True, description="The announcement is due: a play that owes it and lacks it is penalised.")
    penalty: Annotated[int, Field(ge=0, le=52)] = Field(2, description="The cards a missed announcement costs.")
    false_penalty: Annotated[int, Field(ge=0, le=52), QUIET] = Field(
        0, description="An announcement made when it was not due costs this many cards, drawn at once.")


class Announcements(Model):
    """`mau` is due with a play that leaves one card, `maumau` with the last card."""

    mau: Announcement = Announcement()
    maumau: Announcement = Announcement()
    enforcement: Literal["referee", "challenge"] = Field(
        "referee", description="referee: every miss is penalised; challenge: only when the next player challenges."
    )


class GoingOut(Model):
    """Which cards may end a round as the last card played."""

    forbidden: Selectors = Field((), description="Cards that may not be the last card played (draw instead).")
    only: Selectors = Field((), description="If not empty, only these may be the last card played.")
    follow_suit: bool = Field(False, description="The last card must match the active suit (no rank match, no wild).")
    last_only: Annotated[Selectors, QUIET] = Field(
        (), description="Cards that may be played only in the play that empties the hand (a 9 only as the last card).")


class Scoring(Model):
    """What the hands left score at the end of a round."""

    count: Literal["points", "cards", "flat"] = Field(
        "points", description="A hand left holding cards scores its card points, one per card, or 1.")
    multiplier: Annotated[dict[Selector, Annotated[int, Field(ge=1, le=100)]], BeforeValidator(
        lambda value: unique_keys(value, selectors.normalize))] = Field(
        default_factory=dict, description="The round's points are multiplied when the winner's last card is one of "
        "these, e.g. {J: 2}.")
    round_to: Annotated[int, Field(ge=1, le=1000)] = Field(
        1, description="Each hand's points are rounded to the nearest multiple of this (halves up).")
    minimum: Annotated[int, Field(ge=0, le=1000)] = Field(
        0, description="A hand that holds cards scores at least this."
    )
    winner_collects: bool = Field(
        False, description="The winner scores the sum of the others' points; the others score 0. A round nobody "
        "won (blocked, turn or hand limit) scores 0 for everyone, unless blocked: difference.")
    alone: Annotated[dict[Selector, Annotated[int, Field(ge=0, le=1000)]], BeforeValidator(
        lambda value: unique_keys(value, selectors.normalize)), QUIET] = Field(
        default_factory=dict, description="A hand left holding one card only, one of these, scores this instead "
        "of what count gives, e.g. {J: 20, JS: 40}.")
    winner_scores: Annotated[dict[Selector, Annotated[int, Field(ge=-1000, le=1000)]], BeforeValidator(
        lambda value: unique_keys(value, selectors.normalize)), QUIET] = Field(
        default_factory=dict, description="The winner scores this when its last card is one of these (negative: "
        "taken off its total), e.g. {JS: -40}.")
    highest_only: Annotated[bool, QUIET] = Field(
        False, description="Only the hand with the most card points scores (ties: each of them), as count says: "
        "with count: flat, 1 (a life lost).")
    blocked: Annotated[Literal["hands", "difference"], QUIET] = Field(
        "hands", description="A round nobody won (blocked, turn or hand limit): hands: each hand scores as usual "
        "(nothing, with winner_collects); difference: each scores what it holds above the lowest hand (with "
        "winner_collects, the lowest hand collects those differences).")


class RoundEnd(Model):
    """When a round ends, besides the first player going out."""

    play_on: bool = Field(
        False, description="After the first player goes out the others play on, until one player is left with cards.")
    hand_limit: Annotated[int, Field(ge=1, le=1000)] | None = Field(
        None, description="A round ends when a player holds more than this many cards, once the draw (or give, or "
        "take) that took it over is complete: a draw penalty of 5 is drawn whole, and every card held is scored. "
        "A table size whose deal is above the limit is refused when a match asks for it.")


class MatchFormat(Model):
    """How rounds make a match."""

    format: Literal["single", "limit", "elimination", "target", "rounds", "wins"] = Field(
        "single",
        description="single: one round; limit: until a total reaches (>=) the limit, fewest points wins; "
        "elimination: a total over (>) the limit is out, the last one left wins; target: until a total reaches "
        "the limit, the highest total wins (with scoring.winner_collects); rounds: exactly `rounds` rounds, fewest "
        "points wins; wins: the first to win `wins` rounds wins.",
    )
    limit: Annotated[int, Field(ge=1, le=1_000_000)] | None = Field(
        None, description="The total that ends a limit or target match, or puts a player out of an elimination.")
    rounds: Annotated[Annotated[int, Field(ge=1, le=1_000_000)] | None, QUIET] = Field(
        None, description="format rounds: the number of rounds.")
    wins: Annotated[Annotated[int, Field(ge=1, le=1000)] | None, QUIET] = Field(
        None, description="format wins: the round wins that win the match.")
    max_rounds: Annotated[int, Field(ge=1, le=1_000_000), QUIET] = Field(
        1000,
        description="Every match ends: after this many rounds (deciding rounds not counted) the standing totals "
                    "decide.",
    )
    tie_break: Literal["rounds_won", "deciding_round"] = Field(
        "rounds_won",
        description="rounds_won: most rounds won among the tied, then a draw; "
        "deciding_round: an extra round among the tied, its points not added.",
    )
    max_deciding_rounds: Annotated[int, Field(ge=1, le=100)] = Field(
        5, description="Blocked deciding rounds are replayed this often; then the tie stands."
    )
    table_changes: bool = Field(
        False, description="Players may join between rounds with the lowest current total, or leave."
    )
    exact_totals: Annotated[dict[Annotated[int, Field(ge=0, le=1_000_000)], Annotated[int, Field(
        ge=0, le=1_000_000)]], BeforeValidator(lambda value: unique_keys(value, _total_key)), QUIET] = Field(
        default_factory=dict, description="A total that comes to exactly one of these after a round becomes the "
        "value given, e.g. {100: 50, 101: 0}.")

    @model_validator(mode="after")
    def _format_needs(self) -> "MatchFormat":
        if self.format in ("limit", "elimination", "target") and self.limit is None:
            raise Inconsistent("limit", f"format {self.format!r} needs a limit", "add e.g. `limit: 100` under match")
        for key, value, example in (("rounds", self.rounds, 10), ("wins", self.wins, 5)):
            if self.format == key and value is None:
                raise Inconsistent(key, f"format {key!r} needs match.{key}", f"add e.g. `{key}: {example}` under match")
        if self.format == "rounds" and self.rounds is not None and self.rounds > self.max_rounds:
            raise Inconsistent(
                "max_rounds",
                f"a match of {self.rounds} rounds is longer than max_rounds ({self.max_rounds})",
                f"raise max_rounds to at least {self.rounds}",
            )
        return self


PowerMap = Annotated[dict[Selector, Power], BeforeValidator(lambda value: unique_keys(value, selectors.normalize))]


def _players_power_maps(value: Any) -> Any:
    if not isinstance(value, Mapping):
        return value
    out = {}
    for players, powers in unique_keys(value, _player_key).items():
        try:
            out[players] = unique_keys(powers, selectors.normalize)
        except Inconsistent as exc:
            raise Inconsistent(f"{players}.{exc.key}", str(exc), exc.hint) from None
    return out


class Ruleset(Model):
    """One Mau Mau variant, validated and frozen."""

    name: Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.-]+$")] = Field(
        description="The ruleset's name (letters, digits, '.', '_', '-'), as `maumau rulesets` lists it.")
    description: str = Field("", description="One line on the variant, shown by `maumau rulesets`.")
    players: Players = Players()
    deck: Deck = Deck()
    hand_size: Annotated[int, Field(ge=1, le=52)] = Field(5, description="The cards dealt to each player.")
    hand_size_by_players: Annotated[dict[PlayerCount, Annotated[int, Field(ge=1, le=52)]], BY_PLAYERS, QUIET] = Field(
        default_factory=dict, description="From this many players on, deal this many cards each, e.g. {3: 5}.")
    deal: Deal = Deal()
    upcard: Upcard = Upcard()
    powers: PowerMap = Field(
        default_factory=dict, json_schema_extra={"propertyNames": {"pattern": selectors.PATTERN}},
        description="The power of each card, keyed by selector: a rank (7), a card (KH) or several (\"JC JS\"); "
        "the most specific key naming a card gives its power, whole.")
    powers_by_players: Annotated[dict[PlayerCount, PowerMap], BeforeValidator(_players_power_maps), QUIET] = Field(
        default_factory=dict, description="In a round dealt to exactly this many players, these keys replace "
        "(whole, per key) those of powers, e.g. {2: {A: {play_again: true}}}.")
    multiple: Annotated[Multiple, QUIET] = Multiple()
    drawing: Drawing = Drawing()
    announcements: Announcements = Announcements()
    last_card_draws: bool = Field(
        False, description="A draw penalty of the last card played (a final 7) is still taken before counting."
    )
    going_out: Annotated[GoingOut, QUIET] = GoingOut()
    going_out_by_players: Annotated[dict[PlayerCount, GoingOut], BY_PLAYERS, QUIET] = Field(
        default_factory=dict, description="In a round dealt to exactly this many players, this replaces going_out "
        "whole, e.g. {2: {forbidden: [2, 3]}}.")
    points: dict[PointRank, Annotated[int, Field(ge=0, le=1000)]] = Field(
        default_factory=_default_points,
        description="Points of a card left in the hand, by rank (X: a joker).",
    )
    scoring: Annotated[Scoring, QUIET] = Scoring()
    round: Annotated[RoundEnd, QUIET] = RoundEnd()
    jump_in: Annotated[Literal["none", "identical", "same_rank"], QUIET] = Field(
        "none", description="After each play, a seat holding a card identical to (or of the same rank as) the new "
        "top card may play it out of turn.")
    match: MatchFormat = MatchFormat()
    turn_limit: Annotated[int, Field(ge=10, le=1_000_000)] = Field(
        5000, description="A round with this many turns ends as blocked (guards against bots that never play)."
    )

    @field_validator("points", mode="before")
    @classmethod
    def _point_keys(cls, value: Any) -> Any:
        return unique_keys(value, _rank_key)

    @model_validator(mode="after")
    def _consistent(self) -> "Ruleset":
        check(self)
        check_compiled(self)
        return self

    # ------------------------------------------------------------------ for the engine and the verifier

    def table_sizes(self) -> range:
        return range(self.players.min, self.players.max + 1)

    def table_refusal(self, players: int) -> str | None:
        """Why a table of `players`, within players.min-max, cannot play this ruleset (the hand limit below the
        deal at that size), or None; the callers check the range first, in their own words."""
        return hand_limit_refusal(self, players)

    def playable_sizes(self) -> list[int]:
        """The table sizes a match may ask for: table_sizes without those table_refusal refuses."""
        return [size for size in self.table_sizes() if self.table_refusal(size) is None]

    def deck_for(self, players: int) -> DeckSpec:
        """The deck shuffled for a table of `players`: ranks, copies and jokers."""
        return self.deck.spec_for(players)

    def hand_size_for(self, players: int) -> int:
        """The cards dealt to each of `players`."""
        return by_players(self.hand_size, self.hand_size_by_players, players)

    def going_out_for(self, players: int | None) -> GoingOut:
        """The going-out rules of a round dealt to `players` (going_out_by_players, else going_out)."""
        return self.going_out_by_players.get(players, self.going_out) if players is not None else self.going_out

    def powers_for(self, players: int | None = None) -> Mapping[Card, Power]:
        """Each card with a power, resolved by the most specific key (with powers_by_players for `players`)."""
        tables = self.derived("powers", compile_powers)
        table = tables.get(players)
        return tables[None] if table is None else table

    def power_of(self, card: Card, players: int | None = None) -> Power:
        """The power of `card` at a table of `players` (no power: NO_POWER)."""
        return self.powers_for(players).get(card, NO_POWER)

    def cards(self, selector: str) -> frozenset[Card]:
        """The cards a selector (a key or list item of this ruleset) names."""
        return selectors.cards(selectors.normalize(selector))

    def points_of(self, card: Card) -> int:
        return self.points.get(cast(PointRank, card.rank), 0)

    def multiplier_of(self, card: Card) -> int:
        """The factor of the round's points when the winner goes out on `card` (1: none)."""
        return _by_selector(self.scoring.multiplier, card, 1)

    def alone_of(self, card: Card) -> int | None:
        """What a hand holding `card` alone scores (scoring.alone; None: as count says)."""
        return _by_selector(self.scoring.alone, card, None)

    def winner_score_of(self, card: Card) -> int | None:
        """What the winner scores going out on `card` (scoring.winner_scores; None: 0, as usual)."""
        return _by_selector(self.scoring.winner_scores, card, None)

    def wish_ranks_for(self, power: Power, players: int) -> tuple[str, ...]:
        """The ranks a rank-wish card with `power` may name at a table of `players`."""
        if power.wish_ranks is not None:
            return power.wish_ranks
        powers = self.powers_for(players)
        return tuple(rank for rank in self.deck.ranks_for(players)
                     if not any(powers.get(Card(rank, suit), NO_POWER).is_action for suit in SUITS))

    def notes(self) -> list[tuple[str, str]]:
        """(key, text) of what `rulesets check` should point out without failing: shadowed powers, a likely bound."""
        return notes(self)

    # ------------------------------------------------------------------ output

    def to_yaml(self) -> str:
        """Every key with its value, defaults included (`rulesets show`)."""
        return yaml.safe_dump(self.model_dump(mode="json"), sort_keys=False, allow_unicode=True)

    def to_data(self) -> dict:
        """The resolved ruleset as JSON data for logs and bots (a fresh dict: the caller may change it);
        the keys added since the first logs only where they differ from their defaults."""
        return _compact(self, self.model_dump(mode="json"))

    def derived(self, name: str, make: Callable[["Ruleset"], T]) -> T:
        """What `make(self)` gives, made once per Ruleset and kept while it lives: its compiled Game, its JSON data.

        The one cache of what is compiled from a ruleset. It is keyed by the instance, which is
        frozen (so the value never goes stale), and each entry goes when its instance does (so
        no later object can take over its id). The values are not fields: equality, dumps and
        pickles of the ruleset never see them.
        """
        values = _DERIVED.get(id(self))
        if values is None:
            values = _DERIVED[id(self)] = {}
            weakref.finalize(self, _DERIVED.pop, id(self), None)
        value = values.get(name)
        if value is None:
            value = values[name] = make(self)
        return value


def _by_selector(table: Mapping[str, Any], card: Card, default: Any) -> Any:
    """The value of the most specific selector of `table` naming `card`, else `default`."""
    key = selectors.resolve(table).get(card) if table else None
    return table[key] if key else default


_DERIVED: dict[int, dict[str, Any]] = {}  # id of a live Ruleset -> its derived values by name


def _compact(model: BaseModel, data: dict) -> dict:
    """`data` (the dump of `model`) without the QUIET keys that hold their defaults, at every depth."""
    for name, info in type(model).model_fields.items():
        value = getattr(model, name)
        if QUIET in info.metadata and value == info.get_default(call_default_factory=True):
            del data[name]
        elif isinstance(value, BaseModel):
            _compact(value, data[name])
        elif isinstance(value, dict):
            for (key, item), dumped in zip(value.items(), data[name].values()):
                if isinstance(item, BaseModel):
                    _compact(item, dumped)
                elif isinstance(item, dict):
                    for inner, inner_dumped in zip(item.values(), dumped.values()):
                        if isinstance(inner, BaseModel):
                            _compact(inner, inner_dumped)
    return data
