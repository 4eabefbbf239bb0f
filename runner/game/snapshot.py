"""Prefix: the first items of a list that only grows, read like a tuple (a View's history and discard pile)."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import islice
from typing import Any


class Prefix:
    """The first `length` items of a list that only grows (a round's history, its discard pile), read like a tuple.

    The Views of a round share the round's own list instead of a copy per decision: a Prefix
    is what the list held when the View was made, and stays so (the engine only appends to
    these lists, and starts new ones on a reshuffle). It reads as the tuple of its items does:
    index, slice (a tuple), iterate, reverse, `len`, `in`, `count`, `index`, `+`, and it equals,
    hashes and pickles as that tuple. Compiled (runner/game/snapshot.pxd), it is a C type.
    """

    __slots__ = ("_items", "_length")

    def __init__(self, items: list, length: int):
        self._items, self._length = items, length

    def __len__(self) -> int:
        return self._length

    def __getitem__(self, index):
        if type(index) is slice:
            start, stop, step = index.indices(self._length)
            if step == 1:
                return tuple(self._items[start:stop])
            return tuple(self._items[:self._length][index])
        length = self._length
        if index < 0:
            index += length
        if not 0 <= index < length:
            raise IndexError("tuple index out of range")
        return self._items[index]

    def __iter__(self):
        return islice(self._items, self._length)

    def __reversed__(self):
        return reversed(self._items[:self._length])

    def __contains__(self, value: object) -> bool:
        return value in islice(self._items, self._length)

    def index(self, value: object, *bounds: int) -> int:
        """The index of the first item equal to `value` (within `start`, `stop`), as tuple.index."""
        return tuple(self).index(value, *bounds)

    def count(self, value: object) -> int:
        """How many items equal `value`, as tuple.count."""
        return tuple(self).count(value)

    def __eq__(self, other: object) -> bool:
        if type(other) is Prefix:
            return self._length == other._length and self._items[:self._length] == other._items[:other._length]
        if isinstance(other, tuple):
            return tuple(self) == other
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __add__(self, other: Any) -> tuple:
        return tuple(self) + tuple(other)

    def __radd__(self, other: Any) -> tuple:
        return tuple(other) + tuple(self)

    def __repr__(self) -> str:
        return repr(tuple(self))

    def __reduce__(self):
        return tuple, (tuple(self),)


Sequence.register(Prefix)  # a Sequence as the tuple it reads as (compiled, a C type cannot subclass the ABC)


def shared(items: list, length: int) -> Prefix:
    """`Prefix(items, length)`, made without a call of __init__ (compiled, a C call: the engine makes one a View)."""
    prefix = Prefix.__new__(Prefix)
    prefix._items, prefix._length = items, length
    return prefix
