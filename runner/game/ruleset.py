"""The Ruleset model: YAML loading, `extends`, `--set` overrides and clear validation errors."""

from __future__ import annotations

import copy
import difflib
import json
import os
import stat
from pathlib import Path
from typing import Annotated, Any, Callable, Literal, Mapping, get_origin

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from .cards import RANKS, SUITS
from runner.errors import RulesetError

RANK_PRESETS = {"full": RANKS, "skat": RANKS[5:]}
FACE_POINTS = {rank: int(rank) for rank in RANKS[:9]}
MAX_EXTENDS_DEPTH = 16
MAX_FILE_BYTES = 256 * 1024
MAX_DEPTH = 32  # a real ruleset nests 4 levels; deeper data only risks Python's recursion limit

Rank = Literal["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


class Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Inconsistent(ValueError):
    """A value that contradicts another, raised by a validator: names the key to change and the fix."""

    def __init__(self, key: str, problem: str, hint: str):
        super().__init__(problem)
        self.key, self.hint = key, hint


def _rank_keys(value: Any) -> Any:
    """YAML reads `7:` as the integer 7; ranks are strings."""
    if isinstance(value, Mapping):
        return {str(key).upper(): item for key, item in value.items()}
    return value


class Players(Model):
    """How many players the ruleset allows."""

    min: Annotated[int, Field(ge=2, le=16)] = 2
    max: Annotated[int, Field(ge=2, le=16)] = 6


class Deck(Model):
    """Which cards are shuffled: `ranks` of every suit, `copies` times (more from some player count)."""

    ranks: tuple[Rank, ...] = RANKS
    copies: Annotated[int, Field(ge=1, le=8)] = 1
    copies_by_players: dict[Annotated[int, Field(ge=2, le=16)], Annotated[int, Field(ge=1, le=8)]] = Field(
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

    dealer_rotation: Annotated[int, Field(ge=0, le=15)] = Field(
        1, description="Seats the deal moves clockwise after each round."
    )
    first_player: Annotated[int, Field(ge=0, le=15)] = Field(
        1, description="Seats clockwise from the dealer of the player who leads (1: left of the dealer)."
    )
    initial_direction: Literal[1, -1] = 1
    reset_direction: bool = Field(True, description="Each round starts in the initial direction again.")


class Upcard(Model):
    """How the discard pile is started."""

    flip_while_action: bool = Field(
        False, description="While the upcard is an action card, turn up another on top of it."
    )
    effects: Literal["none", "as_dealer_play"] = Field(
        "none", description="none: an action upcard does nothing; as_dealer_play: it acts as if the dealer played it."
    )
    dealer_names_suit: bool = Field(True, description="A wild upcard (Jack): the dealer names the suit to follow.")


class Power(Model):
    """What playing a card of this rank does; several effects may combine."""

    draw: Annotated[int, Field(ge=0, le=52)] = Field(0, description="The next player draws this many and loses the turn.")
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
    required: bool = True
    penalty: Annotated[int, Field(ge=0, le=52)] = 2


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
    limit: Annotated[int, Field(ge=1, le=1_000_000)] | None = None
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
    hand_size: Annotated[int, Field(ge=1, le=52)] = 5
    deal: Deal = Deal()
    upcard: Upcard = Upcard()
    powers: dict[Rank, Power] = Field(default_factory=dict)
    drawing: Drawing = Drawing()
    announcements: Announcements = Announcements()
    last_card_draws: bool = Field(
        False, description="A draw penalty of the last card played (a final 7) is still taken before counting."
    )
    points: dict[Rank, Annotated[int, Field(ge=0, le=1000)]] = Field(
        default_factory=lambda: {**FACE_POINTS, "J": 10, "Q": 10, "K": 10, "A": 10}
    )
    match: MatchFormat = MatchFormat()
    turn_limit: Annotated[int, Field(ge=10, le=1_000_000)] = Field(
        5000, description="A round with this many turns ends as blocked (guards against bots that never play)."
    )

    _rank_keys = field_validator("powers", "points", mode="before")(lambda cls, value: _rank_keys(value))

    @model_validator(mode="after")
    def _consistent(self) -> "Ruleset":
        if self.players.min > self.players.max:
            raise Inconsistent("players.min", f"{self.players.min} is above players.max ({self.players.max})",
                               "make players.min at most players.max")
        if self.match.format != "single" and not any(self.points.get(rank, 0) > 0 for rank in self.deck.ranks):
            raise Inconsistent("points", f"every card is worth 0, so a {self.match.format} match could never end",
                               "give some rank points")
        missing = [rank for rank in self.deck.ranks if rank not in self.points]
        if missing:
            raise Inconsistent("points", f"no value for rank(s) {', '.join(missing)}", "give every rank of the deck a value")
        for players in range(self.players.min, self.players.max + 1):
            needed = players * self.hand_size + 1
            if self.deck.size_for(players) < needed:
                raise Inconsistent(
                    "hand_size", f"{players} players × {self.hand_size} cards + 1 upcard need {needed} cards, "
                    f"the deck has {self.deck.size_for(players)}", "lower hand_size or players.max, or add deck copies"
                )
        return self

    def to_yaml(self) -> str:
        return yaml.safe_dump(self.to_data(), sort_keys=False, allow_unicode=True)

    def to_data(self) -> dict:
        return self.model_dump(mode="json")


def json_schema() -> dict:
    """The JSON Schema editors use for ruleset files, generated from the model."""
    schema = Ruleset.model_json_schema()
    schema["properties"]["extends"] = {
        "type": "string",
        "description": "Name or relative path of the ruleset this file changes; its keys are merged over it.",
    }
    schema["title"] = "maumau ruleset"
    return schema


# ---------------------------------------------------------------- loading


def read_yaml(path: Path) -> dict:
    """The mapping in a ruleset file, or a RulesetError naming the file."""
    raw = _read_capped(path)
    if len(raw) > MAX_FILE_BYTES:
        raise RulesetError(str(path), None, f"the file is {len(raw)} bytes", f"a ruleset is at most {MAX_FILE_BYTES} bytes")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RulesetError(str(path), None, f"not UTF-8 text (byte {exc.start})", "save the file as UTF-8") from None
    data = _safe_load(text, str(path))
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise RulesetError(str(path), None, f"expected a mapping of keys, got {type(data).__name__}", "start with `name: ...`")
    _check_size(path, data)
    return data


def exists(path: Path) -> bool:
    """Path.exists() that is False, not an OSError, for a name too long or otherwise unusable."""
    try:
        return path.exists()
    except (OSError, ValueError):
        return False


def _read_capped(path: Path) -> bytes:
    """At most MAX_FILE_BYTES + 1 bytes of a regular file: never blocks on a FIFO or reads /dev/zero forever."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise RulesetError(str(path), None, f"cannot read the file ({exc.strerror})", "check the path") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise RulesetError(str(path), None, "not a regular file", "give the path of a .yaml file")
        chunks, size = [], 0
        while size <= MAX_FILE_BYTES:
            chunk = os.read(fd, MAX_FILE_BYTES + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        return b"".join(chunks)
    except OSError as exc:
        raise RulesetError(str(path), None, f"cannot read the file ({exc.strerror})", "check the path") from None
    finally:
        os.close(fd)


FAST_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's, if built: ten times faster


MAX_FLOW_DEPTH = 1000  # far below where libyaml crashes (tens of thousands), far above any real ruleset


def _flow_depth(text: str) -> int:
    """The deepest nesting of [ and { in `text` (brackets in strings and comments counted too: an upper bound)."""
    if text.count("[") + text.count("{") <= MAX_FLOW_DEPTH:
        return 0
    depth = deepest = 0
    for char in text:
        if char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def _safe_load(text: str, source: str) -> Any:
    """yaml.safe_load, with every way it can fail turned into a RulesetError naming `source`."""
    if _flow_depth(text) > MAX_FLOW_DEPTH:  # libyaml's parser overflows the C stack (a segfault) on deep [[[[
        raise RulesetError(source, None, "the YAML is nested too deeply", f"a ruleset nests at most {MAX_DEPTH} levels")
    try:
        try:
            return yaml.load(text, Loader=FAST_LOADER)
        except yaml.YAMLError:  # read it again for the pure-Python parser's messages, which users see
            return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        where = getattr(exc, "problem_mark", None)
        at = f" at line {where.line + 1}, column {where.column + 1}" if where else ""
        problem = getattr(exc, "problem", None) or "invalid YAML"
        raise RulesetError(source, None, f"YAML syntax error{at}: {problem}", "fix the YAML syntax") from None
    except RecursionError:
        raise RulesetError(source, None, "the YAML is nested too deeply", f"a ruleset nests at most {MAX_DEPTH} levels") from None
    except (ValueError, OverflowError) as exc:  # e.g. an integer of thousands of digits, a 13th month
        raise RulesetError(source, None, f"a value YAML cannot read: {str(exc)[:120]}", "fix the value") from None


def _check_size(path: Path, data: Any, budget: int = 20_000) -> None:
    """Refuse YAML whose aliases expand into a huge tree (a 'billion laughs' file), or that nests too deeply."""
    stack, seen = [(data, 0)], 0
    while stack:
        node, depth = stack.pop()
        seen += 1
        if seen > budget:
            raise RulesetError(str(path), None, "the document expands to too many values", "remove repeated YAML aliases")
        if depth > MAX_DEPTH:
            raise RulesetError(str(path), None, "the YAML is nested too deeply", f"a ruleset nests at most {MAX_DEPTH} levels")
        if isinstance(node, dict):
            stack.extend((child, depth + 1) for child in node.values())
            stack.extend((key, depth + 1) for key in node.keys())
        elif isinstance(node, list):
            stack.extend((child, depth + 1) for child in node)


def merge(base: dict, change: Mapping) -> dict:
    """`base` with `change` merged over it: mappings merge key by key, a null value removes the key."""
    merged = copy.deepcopy(base)
    for key, value in change.items():
        if value is None and isinstance(merged.get(key), dict):
            del merged[key]
        elif isinstance(value, Mapping) and isinstance(merged.get(key), dict):
            merged[key] = merge(merged[key], value)
        else:
            merged[key] = copy.deepcopy(value)
    return merged


def _normalise_keys(data: Any) -> Any:
    if isinstance(data, dict):
        return {str(key).upper() if str(key).upper() in RANKS else str(key): _normalise_keys(value) for key, value in data.items()}
    if isinstance(data, list):
        return [_normalise_keys(item) for item in data]
    return data


def resolve_raw(path: Path, find: "Callable[[str], Path | None]", chain: tuple[Path, ...] = ()) -> dict:
    """The merged mapping of `path` and every ruleset it `extends`, without validation."""
    resolved = path.resolve()  # for the cycle check; messages show the path as the user gave it
    if resolved in chain:
        cycle = " -> ".join(p.name for p in (*chain, resolved))
        raise RulesetError(str(path), "extends", f"extends itself in a cycle: {cycle}", "break the cycle")
    if len(chain) >= MAX_EXTENDS_DEPTH:
        raise RulesetError(str(path), "extends", f"more than {MAX_EXTENDS_DEPTH} levels of extends", "extend a ruleset nearer the root")
    data = _normalise_keys(read_yaml(path))
    parent = data.pop("extends", None)
    if parent is None:
        return data
    if not isinstance(parent, str):
        raise RulesetError(str(path), "extends", f"expected a ruleset name or path, got {type(parent).__name__}", "e.g. extends: standard")
    candidate = (path.parent / parent) if parent.endswith((".yaml", ".yml")) else None
    parent_path = candidate if candidate is not None and exists(candidate) else find(parent)
    if parent_path is None:
        raise RulesetError(str(path), "extends", f"no ruleset named {parent!r}", "see `maumau rulesets` for the names")
    base = resolve_raw(Path(parent_path), find, (*chain, resolved))
    base.pop("name", None)
    base.pop("description", None)
    return merge(base, data)


def parse_override(text: str) -> tuple[str, Any]:
    """`key.path=value` from the CLI, the value read as a YAML scalar (`150`, `true`, `null`, `skat`)."""
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise RulesetError("--set", text, "expected KEY=VALUE", "e.g. --set match.limit=150")
    try:
        parsed = yaml.safe_load(value) if value.strip() else ""
    except yaml.YAMLError:
        parsed = value
    except (RecursionError, ValueError, OverflowError):
        raise RulesetError("--set", key.strip(), f"cannot read the value {value[:40]!r}", "give a number, word or short list") from None
    if key.count(".") > MAX_DEPTH:
        raise RulesetError("--set", key[:60], "the key nests too deeply", "use a key of `maumau rulesets schema`")
    return key.strip(), parsed


def apply_overrides(data: dict, overrides: Mapping[str, Any]) -> dict:
    data = copy.deepcopy(data)
    for dotted, value in overrides.items():
        node = data
        parts = [part.upper() if part.upper() in RANKS else part for part in dotted.split(".")]
        for part in parts[:-1]:
            child = node.get(part)
            if not isinstance(child, dict):
                child = node[part] = {}
            node = child
        node[parts[-1]] = value
    return data


def build(data: dict, source: str) -> Ruleset:
    """Validate a merged mapping into a Ruleset, turning pydantic's errors into one RulesetError."""
    try:
        return Ruleset.model_validate(data)
    except ValidationError as exc:
        raise _explain(exc, data, source) from None


def _explain(exc: ValidationError, data: dict, source: str) -> RulesetError:
    error = exc.errors(include_url=False)[0]
    loc = [str(part) for part in error["loc"] if not str(part).startswith(("function-", "literal[", "[key]"))]
    key = ".".join(loc) or None
    kind = error["type"]
    given = error.get("input")
    cause = (error.get("ctx") or {}).get("error")
    if isinstance(cause, Inconsistent):
        return RulesetError(source, ".".join([*loc, cause.key]), str(cause), cause.hint)
    if kind == "extra_forbidden":
        parent = _lookup_model(loc[:-1])
        options = list(parent.model_fields) if parent else []
        close = difflib.get_close_matches(loc[-1], options, n=1)
        hint = f"did you mean {close[0]!r}?" if close else f"known keys here: {', '.join(options)}"
        return RulesetError(source, key, f"unknown key {loc[-1]!r}", hint)
    message = error["msg"]
    if message.startswith("Value error, "):
        message = message[len("Value error, "):]
    if kind not in ("value_error", "assertion_error") and not isinstance(given, (dict, list)):
        message += ", got null" if given is None else f", got {_short(repr(given))} ({type(given).__name__})"
    hint = _HINTS.get(kind, "see `maumau rulesets schema` for every key and its type")
    return RulesetError(source, key, message, hint)


def _short(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


_HINTS = {
    "int_parsing": "write a whole number without quotes",
    "int_type": "write a whole number without quotes",
    "bool_parsing": "write true or false",
    "bool_type": "write true or false",
    "literal_error": "use one of the values listed",
    "greater_than_equal": "use a larger number",
    "less_than_equal": "use a smaller number",
    "missing": "add the key",
    "string_pattern_mismatch": "use letters, digits, '-', '_' or '.'",
    "dict_type": "write a mapping of key: value lines",
    "model_type": "write a mapping of key: value lines",
    "tuple_type": "write a list, e.g. [7, 8, 9, 10, J, Q, K, A]",
    "value_error": "",
}


def _lookup_model(loc: list[str]) -> type[BaseModel] | None:
    """The model whose keys are valid at key path `loc` (a mapping's own keys, e.g. ranks, are stepped over)."""
    model: Any = Ruleset
    parts = iter(loc)
    for part in parts:
        field = model.model_fields.get(part)
        if field is None:
            return None
        if get_origin(field.annotation) is dict:
            next(parts, None)  # the mapping's key, e.g. the rank in powers.8.skip
        model = _model_of(field.annotation)
        if model is None:
            return None
    return model


def _model_of(annotation: Any) -> Any:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in getattr(annotation, "__args__", ()) or ():
        found = _model_of(arg)
        if found is not None:
            return found
    return None


def load(path: Path, find: Callable[[str], Path | None] = lambda name: None, overrides: Mapping[str, Any] | None = None) -> Ruleset:
    """Load, merge `extends`, apply `--set` overrides and validate one ruleset file."""
    data = resolve_raw(Path(path), find)
    if overrides:
        data = apply_overrides(data, overrides)
    return build(data, str(path) if not overrides else f"{path} (with --set {', '.join(overrides)})")


def schema_text() -> str:
    return json.dumps(json_schema(), indent=2, sort_keys=True) + "\n"
