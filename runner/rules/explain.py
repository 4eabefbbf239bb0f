"""Validating a merged mapping into a Ruleset, with pydantic's errors explained: the key, the problem and the fix."""

from __future__ import annotations

import difflib
from typing import Any, Sequence, get_origin

from pydantic import BaseModel, ValidationError

from runner.errors import RulesetError, combined
from runner.game.ruleset import Inconsistent, Ruleset

# What pydantic's lax mode would read as something else: `reverse: "true"` or `reverse: 1` as true,
# `hand_size: "7"` or `7.0` as 7. A file says booleans and whole numbers as such, or is refused.
STRICT_TYPES = ("bool_type", "int_type", "int_from_float")


def build(data: dict, source: str, problems: Sequence[RulesetError] = (), strict: bool = False) -> Ruleset:
    """Validate a merged mapping into a Ruleset; every problem, `problems` found earlier first, in one RulesetError.

    `strict` (data a person wrote): a boolean or whole number given as anything else is refused
    too (STRICT_TYPES), not read the way pydantic's lax mode would.
    """
    errors, found = list(problems), []
    ruleset = None
    try:
        ruleset = Ruleset.model_validate(data)
    except ValidationError as exc:
        found = exc.errors(include_url=False)
    if strict:
        found += _strict_errors(data, {error["loc"] for error in found})
    errors += [problem for error in sorted(found, key=_order(data)) for problem in _explain(error, source)]
    if errors or ruleset is None:
        raise combined(errors) from None
    return ruleset


def _strict_errors(data: dict, known: set) -> list:
    """pydantic's errors for values lax validation took although they are not of their key's type (STRICT_TYPES),
    but at `known` places; mapping keys aside (YAML's are strings)."""
    try:
        Ruleset.model_validate(data, strict=True)
    except ValidationError as exc:
        return [error for error in exc.errors(include_url=False)
                if error["type"] in STRICT_TYPES and error["loc"] not in known
                and "[key]" not in map(str, error["loc"])]
    return []


def _order(data: dict):
    """Errors in the order of the file's keys (lax and strict ones found apart)."""
    top = {key: index for index, key in enumerate(data)}
    return lambda error: top.get(str(error["loc"][0]) if error["loc"] else "", len(top))


def _explain(error: Any, source: str) -> list[RulesetError]:
    """pydantic's error as RulesetErrors."""
    loc = [str(part) for part in error["loc"] if not str(part).startswith(("function-", "literal[", "[key]"))]
    key = ".".join(loc) or None
    kind = error["type"]
    given = error.get("input")
    cause = (error.get("ctx") or {}).get("error")
    if isinstance(cause, Inconsistent):
        return [RulesetError(source, ".".join([*loc, cause.key]), str(cause), cause.hint)]
    if kind == "extra_forbidden":
        parent = _lookup_model(loc[:-1])
        options = list(parent.model_fields) if parent else []
        close = difflib.get_close_matches(loc[-1], options, n=1)
        hint = f"did you mean {close[0]!r}?" if close else f"known keys here: {', '.join(options)}"
        return [RulesetError(source, key, f"unknown key {loc[-1]!r}", hint)]
    message = error["msg"]
    if message.startswith("Value error, "):
        message = message[len("Value error, "):]
    if kind not in ("value_error", "assertion_error") and not isinstance(given, (dict, list)):
        message += ", got null" if given is None else f", got {_short(repr(given))} ({type(given).__name__})"
    hint = _HINTS.get(kind, "see `maumau rulesets schema` for every key and its type")
    return [RulesetError(source, key, message, hint)]


def _short(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


_HINTS = {
    "int_parsing": "write a whole number without quotes",
    "int_type": "write a whole number without quotes",
    "int_from_float": "write a whole number without quotes or a decimal point",
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
