"""`extends`: a ruleset file merged over the ruleset it names, key by key, a null removing a key."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any, Callable, Mapping

from runner.errors import RulesetError

from .files import exists, normal_key, read_yaml

MAX_EXTENDS_DEPTH = 16


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
        return {normal_key(key): _normalise_keys(value) for key, value in data.items()}
    if isinstance(data, list):
        return [_normalise_keys(item) for item in data]
    return data


def resolve_raw(path: Path, find: "Callable[[str], Path | None]", chain: tuple[Path, ...] = (),
                problems: list[RulesetError] | None = None) -> dict:
    """The merged mapping of `path` and every ruleset it `extends`, without validation.

    With `problems`, errors that leave the mapping readable (a key given twice) are added to it
    rather than raised, so that they are reported with the validation's.
    """
    resolved = path.resolve()  # for the cycle check; messages show the path as the user gave it
    if resolved in chain:
        cycle = " -> ".join(p.name for p in (*chain, resolved))
        raise RulesetError(str(path), "extends", f"extends itself in a cycle: {cycle}", "break the cycle")
    if len(chain) >= MAX_EXTENDS_DEPTH:
        raise RulesetError(str(path), "extends", f"more than {MAX_EXTENDS_DEPTH} levels of extends", "extend a ruleset nearer the root")
    data = _normalise_keys(read_yaml(path, problems))
    parent = data.pop("extends", None)
    if parent is None:
        return data
    if not isinstance(parent, str):
        raise RulesetError(str(path), "extends", f"expected a ruleset name or path, got {type(parent).__name__}", "e.g. extends: standard")
    candidate = (path.parent / parent) if parent.endswith((".yaml", ".yml")) else None
    parent_path = candidate if candidate is not None and exists(candidate) else find(parent)
    if parent_path is None and candidate is not None:
        raise RulesetError(str(path), "extends", f"the file {parent!r} does not exist (looked for {candidate.absolute()})",
                           f"extends takes a path relative to {path.name}'s folder, or a ruleset name")
    if parent_path is None:
        raise RulesetError(str(path), "extends", f"no ruleset named {parent!r}", "see `maumau rulesets` for the names")
    base = resolve_raw(Path(parent_path), find, (*chain, resolved), problems)
    base.pop("name", None)
    base.pop("description", None)
    return merge(base, data)
