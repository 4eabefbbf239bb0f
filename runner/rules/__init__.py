"""Reading ruleset files safely, `extends` merging, `--set` overrides and explanations of invalid rulesets."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable, Mapping

from runner.errors import RulesetError
from runner.game.ruleset import Ruleset

from .explain import build
from .extends import MAX_EXTENDS_DEPTH, EmptyOverInherited, Note, merge, resolve_raw
from .files import MAX_DEPTH, MAX_FILE_BYTES, exists, normal_key, read_yaml
from .overrides import apply_overrides, parse_override
from .schema import json_schema, schema_text


def load(
    path: Path, find: Callable[[str], Path | None] = lambda name: None, overrides: Mapping[str, Any] | None = None
) -> Ruleset:
    """Load, merge `extends`, apply `--set` overrides and validate one ruleset file; every problem found is reported."""
    problems: list[RulesetError] = []
    data = resolve_raw(Path(path), find, problems=problems)
    if overrides:
        data = apply_overrides(data, overrides)
    source = str(path) if not overrides else f"{path} (with --set {', '.join(overrides)})"
    return build(data, source, problems, strict=True)


def check(path: Path, find: Callable[[str], Path | None] = lambda name: None) -> tuple[Ruleset, list[Note]]:
    """Load one ruleset file as `load` does, with the notes `rulesets check` prints (they do not fail it)."""
    notes: list[Note] = []
    problems: list[RulesetError] = []
    ruleset = build(resolve_raw(Path(path), find, notes=notes, problems=problems), str(path), problems, strict=True)
    notes = [note for note in notes if not isinstance(note, EmptyOverInherited) or empty_matters(ruleset, note.key)]
    return ruleset, notes + [Note(str(path), key, text) for key, text in ruleset.notes()]


def empty_matters(ruleset: Ruleset, key: str) -> bool:
    """Whether the inherited entries an empty mapping at `key` keeps change anything at a table size `ruleset`
    allows (standard's `copies_by_players: {7: 2}` does nothing in a ruleset of at most 6 players)."""
    sizes = ruleset.table_sizes()
    deck = ruleset.deck
    by_size = {
        "deck.copies_by_players": lambda n: deck.copies_for(n) != deck.copies,
        "deck.ranks_by_players": lambda n: deck.ranks_for(n) != deck.ranks,
        "deck.jokers_by_players": lambda n: deck.jokers_for(n) != deck.jokers,
        "hand_size_by_players": lambda n: ruleset.hand_size_for(n) != ruleset.hand_size,
        "powers_by_players": lambda n: n in ruleset.powers_by_players,
        "going_out_by_players": lambda n: n in ruleset.going_out_by_players,
    }.get(key)
    return by_size is None or any(by_size(size) for size in sizes)


_from_data: dict[str, Ruleset] = {}  # canonical JSON -> the one Ruleset of that data in this process
# the last call's data and Ruleset: encoding a tournament's ruleset as canonical JSON for every match cost a
# serial standard-single tournament about a tenth of its time (cProfile); data handed over is not changed after
_last: list = [None, None]


def ruleset_of(data: dict, source: str = "the ruleset") -> Ruleset:
    """The Ruleset of resolved-ruleset data (`Ruleset.to_data()`, as work units and bot processes receive it).

    Validated once per process: equal data gives the same instance, so what is compiled from it
    (`Ruleset.derived`) is compiled once too.
    """
    last_data, last = _last
    if data is last_data:  # the same dict as the last call's (a tournament's work units share theirs): not encoded
        return last
    key = json.dumps(data, sort_keys=True)
    ruleset = _from_data.get(key)
    if ruleset is None:
        ruleset = _from_data[key] = build(data, source)
    _last[:] = data, ruleset  # the dict held, so that its id is not reused by another
    return ruleset


__all__ = [
    "MAX_DEPTH", "MAX_EXTENDS_DEPTH", "MAX_FILE_BYTES", "Note", "apply_overrides", "build", "check", "exists",
    "json_schema", "load", "merge", "normal_key", "parse_override", "read_yaml", "resolve_raw", "ruleset_of",
    "schema_text",
]
