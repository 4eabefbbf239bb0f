"""`--set KEY=VALUE`: overrides of single ruleset options by dotted key, applied over the merged mapping."""

from __future__ import annotations

import copy
from typing import Any, Mapping

from runner.errors import RulesetError
from runner.game import selectors

from .files import MAX_DEPTH, read_value


def parse_override(text: str) -> tuple[str, Any]:
    """`key.path=value` from the CLI, the value read as a YAML scalar (`150`, `true`, `null`, `skat`)."""
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise RulesetError("--set", text, "expected KEY=VALUE", "e.g. --set match.limit=150")
    if key.count(".") > MAX_DEPTH:
        raise RulesetError("--set", key[:60], "the key nests too deeply", "use a key of `maumau rulesets schema`")
    # the same caps as a ruleset file: a value is input too (an alias bomb, a 5000-digit number)
    parsed = read_value(value, f"--set {key.strip()[:60]}") if value.strip() else ""
    return key.strip(), parsed


def apply_overrides(data: dict, overrides: Mapping[str, Any]) -> dict:
    data = copy.deepcopy(data)
    for dotted, value in overrides.items():
        node = data
        parts = [_key(part) for part in dotted.split(".")]
        for part in parts[:-1]:
            child = node.get(part)
            if not isinstance(child, dict):
                child = node[part] = {}
            node = child
        node[parts[-1]] = value
    return data


def _key(part: str) -> str:
    """A dotted key's part as files spell it once read: a selector (`kh`, `7`) in canonical form, else as given."""
    try:
        return selectors.normalize(part)
    except ValueError:
        return part
