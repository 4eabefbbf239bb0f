"""`--set KEY=VALUE`: overrides of single ruleset options by dotted key, applied over the merged mapping."""

from __future__ import annotations

from typing import Any, Mapping

import yaml

from runner.errors import RulesetError
from .extends import merge
from .files import MAX_DEPTH, normal_key


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
    """`data` with each `--set` merged over it as a file that `extends` it would be: `powers.7=null` removes the 7's power."""
    for dotted, value in overrides.items():
        change = value
        for part in reversed([normal_key(part) for part in dotted.split(".")]):
            change = {part: change}
        data = merge(data, change)
    return data

