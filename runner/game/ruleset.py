"""The Ruleset model: one Mau Mau variant as a frozen, validated pydantic value (reading files is runner.rules)."""

from __future__ import annotations

import weakref
from typing import Annotated, Any, Callable, Literal, Mapping, TypeVar

import yaml
from pydantic import BaseModel, ConfigDict, Field, Strict, field_validator, model_validator

from .cards import RANKS, SUITS

RANK_PRESETS = {"full": RANKS, "skat": RANKS[5:]}
FACE_POINTS = {rank: int(rank) for rank in RANKS[:9]}

T = TypeVar("T")

# Booleans and numbers are taken only as written: pydantic's lax mode would read `reverse: "true"`,
# `reverse: 1` or `hand_size: "7"` as something the writer may not have meant.
Flag = Annotated[bool, Strict()]
Whole = Annotated[int, Strict()]

Rank = Literal["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


class Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Inconsistent(ValueError):
    """A value that contradicts another, raised by a validator: names the key to change and the fix.

    `also` holds further inconsistencies the same validator found, so that all are reported at once.
    """

    def __init__(self, key: str, problem: str, hint: str, also: tuple["Inconsistent", ...] = ()):
        super().__init__(problem)
        self.key, self.hint, self.also = key, hint, also

    def each(self) -> list["Inconsistent"]:
        return [self, *self.also]

    @staticmethod
    def check(found: list["Inconsistent"]) -> None:
        """Raise every inconsistency in `found` at once (none: nothing happens)."""
        if found:
            raise Inconsistent(found[0].key, str(found[0]), found[0].hint, tuple(found[1:]))


def _rank_keys(value: Any) -> Any:
    """YAML reads `7:` as the integer 7; ranks are strings."""
    if isinstance(value, Mapping):
        return {str(key).upper(): item for key, item in value.items()}
    return value


class Players(Model):
    """How many players the ruleset allows."""

    min: Annotated[Whole, Field(ge=2, le=16)] = 2
    max: Annotated[Whole, Field(ge=2, le=16)] = 6


class Deck(Model):
    """Which cards are shuffled: `ranks` of every suit, `copies` times (more from some player count)."""

    ranks: tuple[Rank, ...] = RANKS
    copies: Annotated[Whole, Field(ge=1, le=8)] = 1
    copies_by_players: dict[Annotated[int, Field(ge=2, le=16)],  # keys arrive as strings (YAML keys are normalised)
                             Annotated[Whole, Field(ge=1, le=8)]] = Field(
        default_factory=dict,
        description="From this many players on, use this many copies, e.g. {7: 2} for two decks at 7+.",
    )

    @field_validator("ranks", mode="before")
    @classmethod
    def _preset_or_list(cls, value: Any) -> Any:
        if isinstance(value, str):
            if value not in RANK_PRESETS:
                raise ValueError(f"a rank list or one of {', '.join(RANK_PRESETS)}")
            return RANK_PRESETS[value]
        if isinstance(value, list):
            return tuple(str(rank).upper() for rank in value)
        return value

    @field_validator("ranks")
    @classmethod
    def _distinct(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        if len(set(value)) != len(value):
            raise ValueError("each rank at most once (use copies for more decks)")
        if not value:
            raise ValueError("at least one rank")
        return tuple(rank for rank in RANKS if rank in value)

    def copies_for(self, players: int) -> int:
        """The number of copies shuffled for a table of `players`."""
        copies = self.copies
        for threshold, count in sorted(self.copies_by_players.items()):
            if players >= threshold:
                copies = count
        return copies

    def size_for(self, players: int) -> int:
        return len(self.ranks) * len(SUITS) * self.copies_for(players)


class Deal(Model):
    """Dealing, leading and direction between rounds."""

    dealer_rotation: Annotated[Whole, Field(ge=0, le=15)] = Field(
        1, description="Seats the deal moves clockwise after each round."
    )
    first_player: Annotated[Whole, Field(ge=0, le=15)] = Field(
        1, description="Seats clockwise from the dealer of the player who leads (1: left of the dealer)."
    )
    initial_direction: Literal[1, -1] = 1
    reset_direction: Flag = Field(True, description="Each round starts in the initial direction again.")


class Upcard(Model):
    """How the discard pile is started."""

    flip_while_action: Flag = Field(
        False, description="While the upcard is an action card, turn up another on top of it."
    )
    effects: Literal["none", "as_dealer_play"] = Field(
        "none", description="none: an action upcard does nothing; as_dealer_play: it acts as if the dealer played it."
    )
    dealer_names_suit: Flag = Field(True, description="A wild upcard (Jack): the dealer names the suit to follow.")


class Power(Model):
    """What playing a card of this rank does; several effects may combine."""

    draw: Annotated[Whole, Field(ge=0, le=52)] = Field(0, description="The next player draws this many and loses the turn.")
    stack: Flag = Field(True, description="The next player may pass a draw penalty on by playing the same rank.")
    chain_limit: Annotated[Whole, Field(ge=0, le=100)] | None = Field(
        None, description="How many players may pass the penalty on (null: without limit; 1: at most 4 cards)."
    )
    skip: Annotated[Whole, Field(ge=0, le=15)] = Field(0, description="This many next players miss their turn.")
    reverse: Flag = Field(False, description="The direction of play reverses.")
    wild: Flag = Field(False, description="Playable on any card; the player names the suit to follow.")
    wild_on_wild: Flag = Field(True, description="A wild card may be played on a wild card.")
    play_again: Flag = Field(False, description="The same player takes another turn at once.")
    others_draw: Annotated[Whole, Field(ge=0, le=52)] = Field(0, description="Every other player draws this many.")
    skip_others: Flag = Field(False, description="Every other player is skipped once; the player plays again.")

    @property
    def is_action(self) -> bool:
        return any((self.draw, self.skip, self.reverse, self.wild, self.play_again, self.others_draw, self.skip_others))


class Drawing(Model):
    """When a player may draw, and what they may do with the drawn card."""

    when: Literal["stuck", "any"] = Field(
        "stuck", description="stuck: only when no card can be played; any: also by choice."
    )
    drawn_card: Literal["play_or_keep", "keep"] = Field(
        "play_or_keep", description="play_or_keep: a playable drawn card may be played at once; keep: the turn ends."
    )


class Announcement(Model):
    required: Flag = True
    penalty: Annotated[Whole, Field(ge=0, le=52)] = 2


class Announcements(Model):
    """`mau` is due with a play that leaves one card, `maumau` with the last card."""

    mau: Announcement = Announcement()
    maumau: Announcement = Announcement()
    enforcement: Literal["referee", "challenge"] = Field(
        "referee", description="referee: every miss is penalised; challenge: only when the next player challenges."
    )


class MatchFormat(Model):
    """How rounds make a match."""

    format: Literal["single", "limit", "elimination"] = Field(
        "single",
        description="single: one round; limit: until a total reaches (>=) the limit, fewest points wins; "
        "elimination: a total over (>) the limit is out, the last one left wins.",
    )
    limit: Annotated[Whole, Field(ge=1, le=1_000_000)] | None = None
    tie_break: Literal["rounds_won", "deciding_round"] = Field(
        "rounds_won",
        description="rounds_won: most rounds won among the tied, then a draw; "
        "deciding_round: an extra round among the tied, its points not added.",
    )
    max_deciding_rounds: Annotated[Whole, Field(ge=1, le=100)] = Field(
        5, description="Blocked deciding rounds are replayed this often; then the tie stands."
    )
    table_changes: Flag = Field(
        False, description="Players may join between rounds with the lowest current total, or leave."
    )

    @model_validator(mode="after")
    def _limit_present(self) -> "MatchFormat":
        if self.format != "single" and self.limit is None:
            raise Inconsistent("limit", f"format {self.format!r} needs a limit", "add e.g. `limit: 100` under match")
        return self


class Ruleset(Model):
    """One Mau Mau variant, validated and frozen."""

    name: Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.-]+$")]
    description: str = ""
    players: Players = Players()
    deck: Deck = Deck()
    hand_size: Annotated[Whole, Field(ge=1, le=52)] = 5
    deal: Deal = Deal()
    upcard: Upcard = Upcard()
    powers: dict[Rank, Power] = Field(default_factory=dict)
    drawing: Drawing = Drawing()
    announcements: Announcements = Announcements()
    last_card_draws: Flag = Field(
        False, description="A draw penalty of the last card played (a final 7) is still taken before counting."
    )
    points: dict[Rank, Annotated[Whole, Field(ge=0, le=1000)]] = Field(
        default_factory=lambda: {**FACE_POINTS, "J": 10, "Q": 10, "K": 10, "A": 10}
    )
    match: MatchFormat = MatchFormat()
    turn_limit: Annotated[Whole, Field(ge=10, le=1_000_000)] = Field(
        5000, description="A round with this many turns ends as blocked (guards against bots that never play)."
    )

    _rank_keys = field_validator("powers", "points", mode="before")(lambda cls, value: _rank_keys(value))

    @model_validator(mode="after")
    def _consistent(self) -> "Ruleset":
        found = []
        if self.players.min > self.players.max:
            found.append(Inconsistent("players.min", f"{self.players.min} is above players.max ({self.players.max})",
                                      "make players.min at most players.max"))
        if self.match.format != "single" and not any(self.points.get(rank, 0) > 0 for rank in self.deck.ranks):
            found.append(Inconsistent("points", f"every card is worth 0, so a {self.match.format} match could never end",
                                      "give some rank points"))
        missing = [rank for rank in self.deck.ranks if rank not in self.points]
        if missing:
            found.append(Inconsistent("points", f"no value for rank(s) {', '.join(missing)}",
                                      "give every rank of the deck a value"))
        for players in range(self.players.min, self.players.max + 1):
            needed = players * self.hand_size + 1
            if self.deck.size_for(players) < needed:
                found.append(Inconsistent(
                    "hand_size", f"{players} players × {self.hand_size} cards + 1 upcard need {needed} cards, "
                    f"the deck has {self.deck.size_for(players)}", "lower hand_size or players.max, or add deck copies"
                ))
                break  # the smallest table that does not fit says it; the larger ones add nothing
        Inconsistent.check(found)
        return self

    def to_yaml(self) -> str:
        return yaml.safe_dump(self.to_data(), sort_keys=False, allow_unicode=True)

    def to_data(self) -> dict:
        """The ruleset as JSON data (a fresh dict: the caller may change it)."""
        return self.model_dump(mode="json")

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


_DERIVED: dict[int, dict[str, Any]] = {}  # id of a live Ruleset -> its derived values by name
