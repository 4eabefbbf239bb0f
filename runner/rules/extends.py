"""`extends`: a ruleset file merged over the ruleset it names, key by key, a null removing a key.

A mapping that holds `replace: true` replaces the inherited mapping whole instead of merging
into it (`powers: {8: {replace: true, reverse: true}}` drops the 8's inherited skip).
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any, Callable, Mapping, NamedTuple

from runner.errors import RulesetError
from runner.game.powers import Power

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


def _power_mappings(data: Mapping) -> dict[str, Mapping]:
    """Each raw power mapping of a ruleset by its key path: powers.SEL and powers_by_players.N.SEL."""
    found = {}
    for prefix, powers in [("powers", data.get("powers"))] + [
            (f"powers_by_players.{size}", powers) for size, powers in (data.get("powers_by_players") or {}).items()
            if isinstance(data.get("powers_by_players"), Mapping)]:
        if isinstance(powers, Mapping):
            found.update({f"{prefix}.{key}": power for key, power in powers.items() if isinstance(power, Mapping)})
    return found


def _beside_notes(base: Mapping, change: Mapping, source: str, parent: str) -> list[Note]:
    """A note for each power a file adds beside inherited powers of the same key without `replace`."""
    inherited = _power_mappings(base)
    notes = []
    for key, power in _power_mappings(change).items():
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
    return merge(base, data)
