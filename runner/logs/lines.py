"""A game log's events as JSON lines in one pass: the bytes `json.dumps(event, separators=(",", ":"))` gives.

The events the runner writes (runner/game/events.py) are dicts of strings, ints, None, booleans and
lists of them, with one large nested dict, the rules of `match_start`. This module writes those
itself, compiled by the optional accelerator (runner.accel.MODULES) into C loops over the dicts and
lists, and keeps the JSON form of every short string it has met (keys, types, cards, reasons), so a
card is escaped once per process, not once per event. Whatever else an event holds (a float, a
subclass, a set, a key that is not a string) sends that event to the standard library's encoder, whose
bytes are the reference. The rules of a `match_start` are the Ruleset's data, made once per Ruleset
and shared by its logs, never changed (runner/table/match.py): the last one met is encoded once.
"""

from __future__ import annotations

import types
from json.encoder import encode_basestring_ascii
from typing import Callable, Iterable

_MEMO_LENGTH = 24  # longer strings (a fault's detail, a traceback) are escaped each time: they are rare and varied
_MEMO_SIZE = 4096  # a bound on the memo, whatever the strings a log holds
_strings: dict[str, str] = {}  # a short string's JSON form, quotes and escapes included
_keys: dict[str, str] = {}  # a key's JSON form with the colon after it
_later_keys: dict[str, str] = {}  # the same after a comma: the key of an object's second item or later
_ints = {number: str(number) for number in range(-1, 1024)}  # seats, counts, totals: written without a call
_rules: list = [None, ""]  # the last `match_start` rules met, and their JSON form


_INFINITY = float("inf")
_NOTHING = object()  # shared by no event: an event without rules to encode once


class _Other(Exception):
    """A value this module leaves to the standard library's encoder (its event is encoded there whole)."""


def _string(text: str) -> str:
    encoded = _strings.get(text)
    if encoded is None:
        encoded = encode_basestring_ascii(text)
        if len(text) <= _MEMO_LENGTH and len(_strings) < _MEMO_SIZE:
            _strings[text] = encoded
    return encoded


def _key(key: str, memo: dict[str, str], before: str) -> str:
    encoded = memo.get(key)
    if encoded is None:
        encoded = before + encode_basestring_ascii(key) + ":"
        if len(key) <= _MEMO_LENGTH and len(memo) < _MEMO_SIZE:
            memo[key] = encoded
    return encoded


def _value(value: object, parts: list[str]) -> None:
    """Append the JSON of `value` to `parts`; _Other if it is not one of the plain types written here."""
    kind = type(value)
    if kind is str:
        parts.append(_string(value))  # type: ignore[arg-type]  # kind is str
    elif kind is int:  # not a bool: its type is bool
        encoded = _ints.get(value)  # type: ignore[call-overload]  # kind is int
        parts.append(encoded if encoded is not None else int.__repr__(value))  # type: ignore[arg-type]
    elif value is None:
        parts.append("null")
    elif value is True:
        parts.append("true")
    elif value is False:
        parts.append("false")
    elif kind is float:
        parts.append(_float(value))  # type: ignore[arg-type]  # kind is float
    elif kind is list or kind is tuple:
        _array(value, parts)  # type: ignore[arg-type]  # kind is list or tuple
    elif kind is dict:
        _object(value, parts, _NOTHING)  # type: ignore[arg-type]  # kind is dict
    else:
        raise _Other


def _float(number: float) -> str:
    """As the standard encoder writes a float (allow_nan: the JavaScript names of the three that are not finite)."""
    if number != number:
        return "NaN"
    if number == _INFINITY:
        return "Infinity"
    if number == -_INFINITY:
        return "-Infinity"
    return float.__repr__(number)


def _array(items: list | tuple, parts: list[str]) -> None:
    parts.append("[")
    first = True
    for item in items:
        if first:
            first = False
        else:
            parts.append(",")
        _value(item, parts)
    parts.append("]")


def _object(mapping: dict, parts: list[str], shared: object) -> None:
    """Append the JSON of `mapping`; a value that is `shared` (the rules of a match_start) as `_rules` holds it."""
    parts.append("{")
    first = True
    for key, item in mapping.items():
        if type(key) is not str:
            raise _Other  # the standard encoder turns an int or a bool key into a string: left to it
        if first:
            first = False
            parts.append(_key(key, _keys, ""))
        else:
            parts.append(_key(key, _later_keys, ","))
        if item is shared:
            parts.append(_rules[1])
        else:
            _value(item, parts)
    parts.append("}")


def _event(event: dict, parts: list[str]) -> None:
    """An event's object, the rules of a match_start encoded once per rules object."""
    rules = event.get("rules")
    if type(rules) is not dict:
        _object(event, parts, _NOTHING)
        return
    if rules is not _rules[0]:
        encoded: list[str] = []
        _object(rules, encoded, _NOTHING)
        _rules[0], _rules[1] = rules, "".join(encoded)
    _object(event, parts, rules)


def encode(events: Iterable[dict], fallback: Callable[[object], str]) -> str:
    """The events as JSON lines (each followed by a newline); an event with another kind of value goes to
    `fallback`, the standard library's encoder with the same separators."""
    parts: list[str] = []
    for event in events:
        start = len(parts)
        try:
            if type(event) is not dict:
                raise _Other
            _event(event, parts)
        except _Other:
            del parts[start:]
            parts.append(fallback(event))
        parts.append("\n")
    return "".join(parts)


def _probe() -> None:
    """A function of this module: compiled, it is not a Python function (`COMPILED`)."""


COMPILED = not isinstance(_probe, types.FunctionType)  # whether the accelerator compiled this module
