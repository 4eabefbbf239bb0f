"""A game log's events as JSON lines in one pass: the bytes `json.dumps(event, separators=(",", ":"))` gives.

The events the runner writes (runner/game/events.py) are dicts of strings, ints, None, booleans and
lists of them, with one large nested dict, the rules of `match_start`. This module writes those
itself, compiled by the optional accelerator (runner.accel.MODULES) into C loops over the dicts and
lists, and keeps the JSON form of every short string it has met (keys, types, cards, reasons), so a
card is escaped once per process, not once per event. Whatever else an event holds (a float, a
subclass, a set, a key that is not a string) sends that event to the standard library's encoder, whose
bytes are the reference. The rules of a `match_start` are the Ruleset's data, made once per Ruleset
and shared by its logs, never changed (runner/table/match.py): the last one met is encoded once.
A flat event (every value a string, an int or None, or a list of strings: a play, a draw, a pass, a
skip) is written from a memo of whole lines, since a match repeats the same few hundred of them:
found by a hash of its keys and values, and taken only if its keys and values are those of the line's
event, of the same types (a bool is never flat: True == 1 would find the line of 1). The engine's
records of its events (runner/game/events.py: a builder and its arguments) are written from a memo of
lines keyed by the record, without building their dicts; a record met first is built and encoded.
"""

from __future__ import annotations

from json.encoder import encode_basestring_ascii
from typing import Callable, Iterable

from runner.accel import compiled
from runner.game.events import made

_MEMO_LENGTH = 24  # longer strings (a fault's detail, a traceback) are escaped each time: they are rare and varied
_MEMO_SIZE = 4096  # a bound on the memo, whatever the strings a log holds
_strings: dict[str, str] = {}  # a short string's JSON form, quotes and escapes included
_keys: dict[str, str] = {}  # a key's JSON form with the colon after it
_later_keys: dict[str, str] = {}  # the same after a comma: the key of an object's second item or later
_later_strings: dict[str, str] = {}  # a short string's JSON form after a comma: an array's second item or later
_lines: dict[int, tuple] = {}  # a flat event's hash: its keys and values in order (a list as a tuple), its line
_record_lines: dict[tuple, str] = {}  # an engine's record (its lists as tuples): its line and the newline
_LINE_LENGTH = 160  # longer lines (a fault's detail) are not kept: they are rare and varied
_HASH_MASK = (1 << 40) - 1  # so that the hash times its multiplier stays within a C long
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


def _later_string(text: str) -> str:
    encoded = _later_strings.get(text)
    if encoded is None:
        encoded = "," + encode_basestring_ascii(text)
        if len(text) <= _MEMO_LENGTH and len(_later_strings) < _MEMO_SIZE:
            _later_strings[text] = encoded
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
    """The bracket opens with the first item; a string after it is one part with its comma."""
    if not items:
        parts.append("[]")
        return
    parts.append("[")
    first = True
    for item in items:
        if first:
            first = False
            _value(item, parts)
        elif type(item) is str:
            parts.append(_later_string(item))  # type: ignore[arg-type]  # its type is str
        else:
            parts.append(",")
            _value(item, parts)
    parts.append("]")


def _object(mapping: dict, parts: list[str], shared: object) -> None:
    """Append the JSON of `mapping`; a value that is `shared` (the rules of a match_start) as `_rules` holds it."""
    if not mapping:
        parts.append("{}")
        return
    first = True
    for key, item in mapping.items():
        if type(key) is not str:
            raise _Other  # the standard encoder turns an int or a bool key into a string: left to it
        if first:
            first = False
            parts.append(_key(key, _keys, "{"))  # the brace opens with the first key
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


def _flat_hash(event: dict) -> int:
    """A hash of a flat event's keys and values in order: every key a string, every value a string, an int (not a
    bool), None or a list of strings; -1 for any other event."""
    mixed = len(event)
    for key, value in event.items():
        if type(key) is not str:
            return -1
        mixed = ((mixed * 1000003) ^ hash(key)) & _HASH_MASK
        kind = type(value)
        if kind is list:
            mixed = ((mixed * 1000003) ^ len(value)) & _HASH_MASK  # type: ignore[arg-type]  # kind is list
            for item in value:  # type: ignore[attr-defined]  # kind is list
                if type(item) is not str:
                    return -1
                mixed = ((mixed * 1000003) ^ hash(item)) & _HASH_MASK
        elif kind is str or kind is int or value is None:
            mixed = ((mixed * 1000003) ^ hash(value)) & _HASH_MASK
        else:
            return -1
    return mixed


def _items(event: dict) -> tuple:
    """A flat event's keys and values in order, a list as a tuple: what its memo entry compares."""
    items = []
    for key, value in event.items():
        items.append(key)
        items.append(tuple(value) if type(value) is list else value)
    return tuple(items)


def _same(event: dict, items: tuple) -> bool:
    """Whether flat `event` has the keys and values `items` of a memo entry, in order and of the same types."""
    if 2 * len(event) != len(items):
        return False
    at = 0
    for key, value in event.items():  # mostly the very objects of the entry: `is` first
        kept = items[at]
        if key is not kept and key != kept:
            return False
        kept = items[at + 1]
        if value is kept:
            pass
        elif type(value) is list:
            if type(kept) is not tuple or len(value) != len(kept):
                return False
            for index in range(len(value)):
                if value[index] is not kept[index] and value[index] != kept[index]:  # strings both (see _flat_hash)
                    return False
        elif type(kept) is not type(value) or value != kept:
            return False
        at += 2
    return True


def _fresh(event: dict, parts: list[str], fallback: Callable[[object], str]) -> None:
    """Append `event`'s line and its newline, encoded here or (another kind of value) by `fallback`."""
    start = len(parts)
    try:
        _event(event, parts)
    except _Other:
        del parts[start:]
        parts.append(fallback(event))
    parts.append("\n")


def _entry(event: object, parts: list[str], fallback: Callable[[object], str]) -> None:
    """Append the line of a log's dict event: a flat one from the memo of lines where it is there."""
    if type(event) is not dict:
        parts.append(fallback(event))
        parts.append("\n")
        return
    mixed = _flat_hash(event)  # type: ignore[arg-type]  # its type is dict
    if mixed >= 0:
        entry = _lines.get(mixed)
        if entry is not None and _same(event, entry[0]):  # type: ignore[arg-type]  # its type is dict
            parts.append(entry[1])  # its newline included
            return
    start = len(parts)
    _fresh(event, parts, fallback)  # type: ignore[arg-type]  # its type is dict
    if mixed >= 0 and len(_lines) < _MEMO_SIZE and mixed not in _lines:  # a hash met first keeps its line
        line = "".join(parts[start:])
        if len(line) <= _LINE_LENGTH:
            _lines[mixed] = (_items(event), line)  # type: ignore[arg-type]  # its type is dict


def _record_key(record: tuple) -> tuple:
    """An engine's record as the key of its line: the record itself, or a copy with its lists (a draw's cards) as
    tuples."""
    for item in record:
        if type(item) is list:
            return tuple([tuple(part) if type(part) is list else part for part in record])
    return record


def _record(record: tuple, parts: list[str], fallback: Callable[[object], str]) -> None:
    """Append the line of an engine's record (runner/game/events.py): from the memo of records' lines, else made
    from its event. Records of the same builder hold the same types at each place (a seat an int, a card a Card),
    so equal records are equal events."""
    key = _record_key(record)
    line = _record_lines.get(key)
    if line is None:
        start = len(parts)
        _fresh(made(record), parts, fallback)
        line = "".join(parts[start:])
        del parts[start:]
        if len(line) <= _LINE_LENGTH and len(_record_lines) < _MEMO_SIZE:
            _record_lines[key] = line
    parts.append(line)


def encode(events: Iterable[object], fallback: Callable[[object], str]) -> str:
    """The events as JSON lines (each followed by a newline): dicts, or the engine's records of them (a GameLog's
    `records`); an event with another kind of value goes to `fallback`, the standard library's encoder with the
    same separators."""
    parts: list[str] = []
    for event in events:
        if type(event) is tuple:
            _record(event, parts, fallback)  # type: ignore[arg-type]  # its type is tuple
        else:
            _entry(event, parts, fallback)
    return "".join(parts)


COMPILED = compiled(__spec__)  # whether the accelerator compiled this module
