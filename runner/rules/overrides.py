"""`--set KEY=VALUE`: overrides of single ruleset options by dotted key, applied over the merged mapping."""

from __future__ import annotations

from typing import Any, Mapping

from runner.errors import RulesetError

from .extends import drop_missing_cards, merge
from .files import MAX_DEPTH, normal_key, read_value


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
    """`data` with each `--set` merged over it as a file extending it would be: `powers.7=null` removes the power,
    and what the ruleset has for cards a `--set deck.ranks=...` takes away is left out (what a `--set` names stays)."""
    given: dict = {}
    for dotted, value in overrides.items():
        change = value
        for part in reversed([normal_key(part) for part in dotted.split(".")]):
            change = {part: change}
        data = merge(data, change)
        given = merge(given, change)
    drop_missing_cards(data, given, "the ruleset")
    return data

