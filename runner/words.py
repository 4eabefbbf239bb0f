"""Counted nouns in messages: `1 match`, `2 matches`, `1 violation`."""

from __future__ import annotations


def plural(count: float, noun: str) -> str:
    """`noun`, or its plural when `count` is not 1 (`match`: `matches`, `worker process`: `worker processes`)."""
    if count == 1:
        return noun
    return noun + ("es" if noun.endswith(("s", "x", "ch", "sh")) else "s")


def counted(count: int, noun: str) -> str:
    """`1 match`, `3 matches`: the count and its noun."""
    return f"{count} {plural(count, noun)}"
