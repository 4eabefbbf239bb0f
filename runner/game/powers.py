"""The power of a card in a ruleset, and what the ruleset's models share: selectors, the QUIET marker, Inconsistent."""

from __future__ import annotations

from typing import Annotated, Any, Literal, Mapping

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, WithJsonSchema, model_validator

from . import selectors

Rank = Literal["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


class _Quiet:
    """Marks a key added after the first game logs: `to_data()` leaves it out while it holds its default."""

    def __repr__(self) -> str:
        return "QUIET"


QUIET = _Quiet()


class Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Inconsistent(ValueError):
    """A value that contradicts another, raised by a validator: names the key to change and the fix."""

    def __init__(self, key: str, problem: str, hint: str):
        super().__init__(problem)
        self.key, self.hint = key, hint


def _selector(value: Any) -> str:
    return selectors.normalize(value)


Selector = Annotated[str, BeforeValidator(_selector), WithJsonSchema(selectors.SCHEMA)]


def _selector_list(value: Any) -> Any:
    """A list of selectors; one selector alone is a list of one, false or null none."""
    if value is None or value is False:
        return ()
    if isinstance(value, (str, int)) and not isinstance(value, bool):
        return (value,)
    return value


def _rank_list(value: Any) -> Any:
    """YAML reads the rank 7 as an integer; ranks are strings."""
    return tuple(str(rank).upper() for rank in value) if isinstance(value, list) else value


Selectors = Annotated[tuple[Selector, ...], BeforeValidator(_selector_list)]
AnyOrSelectors = Annotated[Literal[True] | tuple[Selector, ...], BeforeValidator(_selector_list)]


def unique_keys(value: Any, normal) -> Any:
    """A mapping with its keys normalized by `normal`; Inconsistent (naming the key) for a bad or repeated key."""
    if not isinstance(value, Mapping):
        return value
    out: dict = {}
    written: dict = {}
    for raw, item in value.items():
        try:
            key = normal(raw)
        except ValueError as exc:
            raise Inconsistent(str(raw), str(exc), "name cards of the deck") from None
        if key in out:
            raise Inconsistent(str(raw), f"the same key as {written[key]!r} (one would silently win)",
                               "write each key once")
        out[key], written[key] = item, raw
    return out


class Power(Model):
    """What playing a card (of a rank, a set of cards, one card) does; several effects may combine."""

    draw: Annotated[int, Field(ge=0, le=52)] = Field(0, description="The next player draws this many and loses the "
                                                                    "turn.")
    stack: bool = Field(True, description="The next player may pass a draw penalty on by playing the same rank.")
    chain_limit: Annotated[int, Field(ge=0, le=100)] | None = Field(
        None, description="How many players may pass the penalty on (null: without limit; 1: at most 4 cards)."
    )
    skip: Annotated[int, Field(ge=0, le=15)] = Field(0, description="This many next players miss their turn.")
    reverse: bool = Field(False, description="The direction of play reverses.")
    wild: bool = Field(False, description="Playable on any card; the player names the suit to follow.")
    wild_on_wild: bool = Field(True, description="A wild card may be played on a wild card.")
    play_again: bool = Field(False, description="The same player takes another turn at once.")
    others_draw: Annotated[int, Field(ge=0, le=52)] = Field(0, description="Every other player draws this many.")
    skip_others: bool = Field(False, description="Every other player is skipped once; the player plays again.")
    # Answering a pending draw penalty
    stack_with: Annotated[Selectors, QUIET] = Field(
        (), description="Cards that may be played on this card's pending draw penalty to pass it on (their own draw "
        "adds to it); with stack: true the same rank always may.")
    stack_match: Annotated[bool, QUIET] = Field(
        False, description="A card passing this penalty on must also match it by rank or by the active suit.")
    ends_turn: Annotated[bool, QUIET] = Field(
        True,
        description="Taking this card's draw penalty ends the victim's turn; false: the victim then plays as usual.",
    )
    target: Annotated[Literal["next", "previous"], QUIET] = Field(
        "next", description="Who faces the draw penalty: the next player, or the one who played before this card.")
    cancels: Annotated[AnyOrSelectors, QUIET] = Field(
        (),
        description="Played on a pending draw penalty of these cards (true: any), this card cancels it: nobody draws.",
    )
    returns: Annotated[AnyOrSelectors, QUIET] = Field(
        (), description="Played on a pending draw penalty of these cards (true: any), this card sends it back, "
        "unchanged, to the player who caused it.")
    # Answering a pending skip
    skip_stack: Annotated[Literal["none", "pass", "add"], QUIET] = Field(
        "none", description="A skip from this card may be answered with the same rank (or skip_with): pass hands the "
        "skip on; add makes it grow (the player who takes it misses that many turns).")
    skip_with: Annotated[Selectors, QUIET] = Field((), description="Other cards that answer this card's pending skip.")
    # Wild cards of other kinds
    wish: Annotated[Literal["suit", "rank", "none"], QUIET] = Field(
        "suit", description="What a wild card names: a suit, a rank (the next card must be of it or a wish card), "
        "or nothing (it goes on anything; the next card is played on it as usual).")
    wish_ranks: Annotated[tuple[Rank, ...] | None, BeforeValidator(_rank_list), QUIET] = Field(
        None, description="The ranks a rank wish may name (null: every rank of the deck without a power).")
    wish_binds: Annotated[int, Field(ge=1, le=52), QUIET] = Field(
        1, description="The wish holds for the next this many cards played, not only the next.")
    wild_follows_suit: Annotated[bool, QUIET] = Field(
        False, description="The wild card must itself match (rank or active suit) to be played; it still names.")
    wild_last_resort: Annotated[bool, QUIET] = Field(
        False, description="The wild card may be played only when no card without wild in the hand could be.")
    free: Annotated[bool, QUIET] = Field(False, description="Any card may be played on this card.")
    # Other effects
    self_draw: Annotated[int, Field(ge=0, le=52), QUIET] = Field(0, description="Its player draws this many.")
    next_rank: Annotated[Literal["at_most", "at_least"] | None, QUIET] = Field(
        None,
        description="The next card must be of this rank or lower (at_most) / higher (at_least); wild cards exempt.",
    )
    pass_hands: Annotated[bool, QUIET] = Field(
        False, description="Every player passes their whole hand to the next player in the direction of play.")
    swap_hands: Annotated[Literal["next", "choose"] | None, QUIET] = Field(
        None, description="Its player swaps hands with the next player, or with a player they choose.")
    show_next: Annotated[bool, QUIET] = Field(False, description="The next player shows their hand to everyone.")
    give: Annotated[int, Field(ge=0, le=52), QUIET] = Field(
        0, description="Its player gives this many cards of their choice to the next player (giving the last one "
        "away, it goes out).")
    take: Annotated[int, Field(ge=0, le=52), QUIET] = Field(
        0, description="Its player takes this many cards, unseen (at random), from the previous player (against the "
        "direction of play; a player whose last card is taken goes out).")

    @property
    def is_action(self) -> bool:
        """Whether the card does anything when played (an action card, e.g. for upcard.flip_while_action)."""
        return any((self.draw, self.skip, self.reverse, self.wild, self.play_again, self.others_draw, self.skip_others,
                    self.cancels, self.returns, self.free, self.self_draw, self.next_rank, self.pass_hands,
                    self.swap_hands, self.show_next, self.give, self.take))

    @model_validator(mode="after")
    def _needs(self) -> "Power":
        for key, is_set in (("stack_with", self.stack_with), ("stack_match", self.stack_match),
                            ("ends_turn", not self.ends_turn), ("target", self.target != "next")):
            if is_set and not self.draw:
                raise Inconsistent(key, f"{key} is about this card's draw penalty, and the card has none",
                                   f"add `draw: N` beside it, or remove {key}")
        for key, is_set in (("skip_stack", self.skip_stack != "none"), ("skip_with", self.skip_with)):
            if is_set and not self.skip:
                raise Inconsistent(key, f"{key} is about this card's skip, and the card skips nobody",
                                   f"add `skip: 1` beside it, or remove {key}")
        for key, is_set in (("wish", self.wish != "suit"), ("wish_ranks", self.wish_ranks is not None),
                            ("wish_binds", self.wish_binds != 1), ("wild_follows_suit", self.wild_follows_suit),
                            ("wild_last_resort", self.wild_last_resort)):
            if is_set and not self.wild:
                raise Inconsistent(key, f"{key} is about a wild card, and this card is not wild",
                                   f"add `wild: true` beside it, or remove {key}")
        if self.wish_ranks is not None and self.wish != "rank":
            raise Inconsistent(
                "wish_ranks",
                f"wish_ranks lists the ranks a rank wish may name, and wish is {self.wish!r}",
                "add `wish: rank`, or remove wish_ranks",
            )
        if self.wish_ranks == ():
            raise Inconsistent("wish_ranks", "no rank to wish", "list at least one rank, or write null for every plain "
                                                                "rank")
        if self.wish_binds != 1 and self.wish == "none":
            raise Inconsistent("wish_binds", "a wild card with `wish: none` names nothing that could bind",
                               "remove wish_binds, or make the wish a suit or a rank")
        return self


NO_POWER = Power()
