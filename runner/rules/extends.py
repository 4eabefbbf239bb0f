"""`extends`: a ruleset file merged over the ruleset it names, key by key, a null removing a key.

A mapping that holds `replace: true` replaces the inherited mapping whole instead of merging
into it (`powers: {8: {replace: true, reverse: true}}` drops the 8's inherited skip).
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any, Callable, Mapping, NamedTuple

from pydantic import ValidationError

from runner.errors import RulesetError
from runner.game import selectors
from runner.game.cards import RANKS
from runner.game.checks import deck_text
from runner.game.powers import Power
from runner.game.ruleset import Deck, Players

from .files import exists, normal_key, read_yaml

MAX_EXTENDS_DEPTH = 16
REPLACE = "replace"


class Note(NamedTuple):
    """Something `rulesets check` points out without failing: the file, the key and what to know."""

    source: str
    key: str
    text: str

    def __str__(self) -> str:
        return f"{self.source}: {self.key}: {self.text}"


def merge(base: dict, change: Mapping) -> dict:
    """`base` with `change` merged over it: mappings merge key by key, a null value removes the key,
    and a mapping with `replace: true` takes the place of the inherited one whole."""
    merged = copy.deepcopy(base)
    for key, value in change.items():
        if value is None and isinstance(merged.get(key), dict):
            del merged[key]
        elif isinstance(value, Mapping) and isinstance(merged.get(key), dict) and not value.get(REPLACE):
            merged[key] = merge(merged[key], value)
        else:
            merged[key] = strip_directives(value)
    return merged


def strip_directives(data: Any) -> Any:
    """A deep copy of `data` without `replace` keys (they only steer a merge)."""
    if isinstance(data, Mapping):
        return {key: strip_directives(value) for key, value in data.items() if key != REPLACE}
    if isinstance(data, list):
        return [strip_directives(item) for item in data]
    return copy.deepcopy(data)


def _check_directives(data: Any, source: str, path: tuple[str, ...] = ()) -> None:
    """Every `replace` is true or false, and not at the top of a file."""
    if not isinstance(data, Mapping):
        return
    if REPLACE in data:
        key = ".".join((*path, REPLACE))
        if not path:
            raise RulesetError(source, key, "replace at the top of a file would drop everything inherited",
                               "remove `extends` instead, or put replace: true in the mapping to replace")
        if not isinstance(data[REPLACE], bool):
            raise RulesetError(source, key, f"expected true or false, got {data[REPLACE]!r}", "write replace: true")
    for key, value in data.items():
        _check_directives(value, source, (*path, str(key)))


def _normalise_keys(data: Any, source: str, path: tuple[str, ...] = ()) -> Any:
    """Keys that name cards in canonical form (`7:` is rank "7", `jc, js` is "JC JS"); two spellings refused."""
    if isinstance(data, dict):
        out: dict = {}
        written: dict = {}
        for key, value in data.items():
            normal = normal_key(key)
            if normal in out:
                raise RulesetError(
                    source,
                    ".".join((*path, str(key))),
                    f"the same key as {written[normal]!r} (one would silently win)",
                    "write each key once",
                )
            out[normal], written[normal] = _normalise_keys(value, source, (*path, normal)), key
        return out
    if isinstance(data, list):
        return [_normalise_keys(item, source, path) for item in data]
    return data


_POWER_DEFAULTS = {name: field.get_default(call_default_factory=True) for name, field in Power.model_fields.items()}


def _set_keys(power: Mapping) -> set[str]:
    """The keys of a raw power mapping that hold something other than their default."""
    return {key for key, value in power.items() if key != REPLACE and _POWER_DEFAULTS.get(key, object()) != value
            and not (isinstance(value, list) and tuple(value) == _POWER_DEFAULTS.get(key))}


def _power_mappings(data: Mapping, merging: bool = False) -> dict[str, Mapping]:
    """Each raw power mapping of a ruleset by its key path: powers.SEL and powers_by_players.N.SEL.

    `merging` (a file's own mappings): only those that merge into inherited ones, not those under a
    mapping with `replace: true` (which inherits nothing).
    """
    def kept(mapping: Any) -> bool:
        return isinstance(mapping, Mapping) and not (merging and mapping.get(REPLACE))

    by_players = data.get("powers_by_players")
    found = {}
    for prefix, powers in [("powers", data.get("powers"))] + [
            (f"powers_by_players.{size}", powers) for size, powers in (by_players or {}).items() if kept(by_players)]:
        if kept(powers):
            found.update({f"{prefix}.{key}": power for key, power in powers.items() if isinstance(power, Mapping)})
    return found


def _beside_notes(base: Mapping, change: Mapping, source: str, parent: str) -> list[Note]:
    """A note for each power a file adds beside inherited powers of the same key without `replace`."""
    inherited = _power_mappings(base)
    notes = []
    for key, power in _power_mappings(change, merging=True).items():
        if power.get(REPLACE) or key not in inherited:
            continue
        kept = _set_keys(inherited[key]) - set(power)
        added = _set_keys(power) - set(inherited[key])
        if kept and added:
            notes.append(Note(source, key, f"{', '.join(sorted(added))} added beside the inherited "
                              f"{', '.join(sorted(kept))} (from {parent}); to drop those, write `replace: true` in it"))
    return notes


def resolve_raw(path: Path, find: "Callable[[str], Path | None]", chain: tuple[Path, ...] = (),
                notes: list[Note] | None = None, problems: list[RulesetError] | None = None) -> dict:
    """The merged mapping of `path` and every ruleset it `extends`, without validation; merge notes go to `notes`.

    With `problems`, errors that leave the mapping readable (a key given twice) are added to it
    rather than raised, so that they are reported with the validation's.
    """
    resolved = path.resolve()  # for the cycle check; messages show the path as the user gave it
    if resolved in chain:
        cycle = " -> ".join(p.name for p in (*chain, resolved))
        raise RulesetError(str(path), "extends", f"extends itself in a cycle: {cycle}", "break the cycle")
    if len(chain) >= MAX_EXTENDS_DEPTH:
        raise RulesetError(str(path), "extends", f"more than {MAX_EXTENDS_DEPTH} levels of "
                                                 "extends", "extend a ruleset nearer the root")
    data = _normalise_keys(read_yaml(path, problems), str(path))
    _check_directives(data, str(path))
    parent = data.pop("extends", None)
    if parent is None:
        return strip_directives(data)
    if not isinstance(parent, str):
        raise RulesetError(str(path), "extends", "expected a ruleset name or path, got "
                                                 f"{type(parent).__name__}", "e.g. extends: standard")
    candidate = (path.parent / parent) if parent.endswith((".yaml", ".yml")) else None
    parent_path = candidate if candidate is not None and exists(candidate) else find(parent)
    if parent_path is None and candidate is not None:
        raise RulesetError(str(path), "extends",
                           f"the file {parent!r} does not exist (looked for {candidate.absolute()})",
                           f"extends takes a path relative to {path.name}'s folder, or a ruleset name")
    if parent_path is None:
        raise RulesetError(str(path), "extends", f"no ruleset named {parent!r}", "see `maumau rulesets` for the names")
    base = resolve_raw(Path(parent_path), find, (*chain, resolved), notes, problems)
    base.pop("name", None)
    base.pop("description", None)
    if notes is not None:
        notes.extend(_beside_notes(base, data, str(path), parent))
        notes.extend(EmptyOverInherited(str(path), key, text) for key, text in _empty_notes(base, data, parent))
    merged = merge(base, data)
    dropped = drop_missing_cards(merged, data, parent)
    if notes is not None:
        notes.extend(Note(str(path), key, text) for key, text in dropped)
    return merged


class EmptyOverInherited(Note):
    """A note on an empty mapping written over a non-empty inherited one: kept by `runner.rules.check` only where
    the inherited entries change something at a table size the ruleset allows (`empty_matters`)."""


def _flow(value: Any) -> str:
    """A raw value as a file would write it in flow style: {7: 2}, [7, 8]."""
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{key}: {_flow(item)}" for key, item in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_flow(item) for item in value) + "]"
    return "null" if value is None else str(value).lower() if isinstance(value, bool) else str(value)


def _empty_notes(base: Mapping, change: Mapping, parent: str, path: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    """(key, text) for each empty mapping of a file over a non-empty inherited one, which keeps it (mappings merge):
    `copies_by_players: {}` over standard's {7: 2} still deals two packs from 7 players."""
    found = []
    for key, value in change.items():
        inherited = base.get(key)
        if not isinstance(value, Mapping) or not isinstance(inherited, Mapping) or value.get(REPLACE):
            continue
        where = (*path, str(key))
        if not value and inherited:
            found.append((".".join(where), f"{{}} keeps the inherited {_flow(inherited)} (from {parent}): mappings "
                          f"merge key by key; for an empty one write `{key}: {{replace: true}}`"))
        else:
            found += _empty_notes(inherited, value, parent, where)
    return found


def _deck_cards(data: Mapping) -> tuple[tuple[str, ...], int, str] | None:
    """(the ranks any table size's deck has, the most jokers any has, the text of both) of merged raw data;
    None where the deck or players do not validate (validation then says why)."""
    try:
        deck = Deck.model_validate(data.get("deck") or {})
        players = Players.model_validate(data.get("players") or {})
    except ValidationError:
        return None
    sizes = range(players.min, max(players.min, players.max) + 1)
    have = {rank for size in sizes for rank in deck.ranks_for(size)}
    ranks = tuple(rank for rank in RANKS if rank in have)
    jokers = max(deck.jokers_for(size) for size in sizes)
    return ranks, jokers, deck_text(ranks, jokers)


POWER_LISTS = ("stack_with", "skip_with", "cancels", "returns")
GOING_OUT_LISTS = ("forbidden", "last_only")  # not `only`: emptied, it would allow every last card


def drop_missing_cards(merged: dict, own: Mapping, parent: str) -> list[tuple[str, str]]:
    """Drop, from `merged`, what a file inherits (not what `own`, its own mapping, writes) that names only cards its
    deck does not have: a power of a rank the deck lost (`deck: {ranks: skat}` over standard's 2: {...}), a
    card in an inherited list. Such a card never comes up, so nothing changes but that the file is valid;
    (key, text) of a note for each. What the file itself names stays, and fails validation."""
    deck = _deck_cards(merged)
    if deck is None:
        return []
    ranks, jokers, have = deck
    dropped: list[tuple[str, str]] = []

    def gone(selector: Any) -> str | None:
        """The selector's text if it names no card of the deck; None otherwise (or if it is no selector)."""
        try:
            normal = selectors.normalize(selector)
        except ValueError:
            return None
        present = [term for term in selectors.terms(normal) if selectors.missing_from(term, ranks, jokers) is None]
        return None if present else normal

    def written(mapping: Any, key: str) -> Any:
        return mapping.get(key) if isinstance(mapping, Mapping) else None

    def prune_list(holder: dict, field: str, mine: Any, where: str) -> None:
        items = holder.get(field)
        if not isinstance(items, list) or written(mine, field) is not None:
            return
        missing = [item for item in items if gone(item) is not None]
        if missing:
            holder[field] = [item for item in items if gone(item) is None]
            dropped.append((f"{where}.{field}", f"{', '.join(str(gone(item)) for item in missing)} inherited from "
                            f"{parent} and left out: the deck has none ({have})"))

    def prune_map(table: Any, mine: Any, where: str, lists: tuple[str, ...] = ()) -> None:
        if not isinstance(table, dict):
            return
        for key in list(table):
            if written(mine, key) is None and gone(key) is not None:
                del table[key]
                dropped.append((f"{where}.{key}", f"inherited from {parent} and left out: the deck has no "
                                f"{gone(key)} ({have})"))
            elif isinstance(table[key], dict):
                for field in lists:
                    prune_list(table[key], field, written(mine, key), f"{where}.{key}")

    prune_map(merged.get("powers"), own.get("powers"), "powers", POWER_LISTS)
    by_players = merged.get("powers_by_players")
    if isinstance(by_players, dict):
        for size, table in by_players.items():
            prune_map(table, written(own.get("powers_by_players"), size), f"powers_by_players.{size}", POWER_LISTS)
    for field in ("multiplier", "alone", "winner_scores"):
        prune_map(written(merged.get("scoring"), field), written(own.get("scoring"), field), f"scoring.{field}")
    if isinstance(merged.get("multiple"), dict):
        prune_list(merged["multiple"], "suit_with", own.get("multiple"), "multiple")
    if isinstance(merged.get("going_out"), dict):
        for field in GOING_OUT_LISTS:
            prune_list(merged["going_out"], field, own.get("going_out"), "going_out")
    by_size = merged.get("going_out_by_players")
    if isinstance(by_size, dict):
        for size, going in by_size.items():
            if isinstance(going, dict):
                for field in GOING_OUT_LISTS:
                    prune_list(going, field, written(own.get("going_out_by_players"), size),
                               f"going_out_by_players.{size}")
    return dropped
