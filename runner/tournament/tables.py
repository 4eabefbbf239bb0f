"""Which entrants meet: every k-subset (round robin), a gauntlet's tables, a balanced sample, a league extended.

A table is a tuple of entrant indices. A tournament stores its tables explicitly unless it plays
every k-subset, so that its schedule, and every match id, stays the same when it is resumed or
extended. `matches_in` counts a schedule's matches from a stored config alone.
"""

from __future__ import annotations

import itertools
import math
import random

Table = tuple[int, ...]
SEATINGS = ("rotations", "permutations")


def all_tables(n: int, k: int) -> list[Table]:
    """Every k-subset of n entrants, in lexicographic order: the round robin."""
    return list(itertools.combinations(range(n), k))


def gauntlet_tables(n: int, k: int, focus: int) -> list[Table]:
    """The k-subsets that include entrant `focus`."""
    return [table for table in itertools.combinations(range(n), k) if focus in table]


def sampled_tables(n: int, k: int, count: int, rng: random.Random, focus: int | None = None) -> list[Table]:
    """`count` tables in which every pair of entrants meets, and each entrant sits, about equally often.

    Greedy and seeded: each table is a candidate not drawn yet whose pairs have met least so far
    (which keeps the sum of squares of the meeting counts lowest), then whose entrants have sat
    least, ties drawn from `rng`. The candidates are every k-subset when there
    are at most CANDIDATES of them, else that many drawn at random and one built member by
    member. With `focus`, that entrant sits at every table and the others are balanced around it.
    """
    pairs = [[0] * n for _ in range(n)]
    sat = [0] * n
    drawn: set[Table] = set()
    others = [e for e in range(n) if e != focus]
    size = k - (focus is not None)
    every = math.comb(len(others), size) <= CANDIDATES
    tables = []

    def cost(table: Table) -> tuple:
        met = sum(pairs[a][b] for a, b in itertools.combinations(table, 2))
        return (table in drawn, met, sum(sat[e] for e in table), rng.random())

    def with_focus(rest) -> Table:
        return tuple(sorted((*rest, focus))) if focus is not None else tuple(rest)

    for _ in range(count):
        if every:
            candidates = [with_focus(rest) for rest in itertools.combinations(others, size)]
        else:
            candidates = [with_focus(sorted(rng.sample(others, size))) for _ in range(CANDIDATES)]
            candidates.append(_built(n, k, focus, pairs, sat, rng))
        table = min(candidates, key=cost)
        for a, b in itertools.combinations(table, 2):
            pairs[a][b] += 1
            pairs[b][a] += 1
        for e in table:
            sat[e] += 1
        drawn.add(table)
        tables.append(table)
    return tables


CANDIDATES = 2000  # k-subsets weighed per sampled table


def _built(n: int, k: int, focus: int | None, pairs: list[list[int]], sat: list[int], rng: random.Random) -> Table:
    """A table built member by member, each the entrant that has met the chosen ones least (then sat least)."""
    members = [focus if focus is not None else min(range(n), key=lambda e: (sat[e], rng.random()))]
    while len(members) < k:
        members.append(min((e for e in range(n) if e not in members),
                           key=lambda e: (sum(pairs[e][m] for m in members), sat[e], rng.random())))
    return tuple(sorted(members))


def extended_tables(tables: list[Table], n_old: int, n: int, k: int, focus: int | None = None) -> list[Table]:
    """`tables` (of entrants 0..n_old-1), then every k-subset of the n entrants with a new one (and `focus`, if any)."""
    added = [table for table in itertools.combinations(range(n), k)
             if table[-1] >= n_old and (focus is None or focus in table)]
    return list(tables) + added


def seatings_per_deal(k: int, seatings: str) -> int:
    """How many matches a table plays per deal: its k rotations, or all k! seating orders."""
    return math.factorial(k) if seatings == "permutations" else k


def matches_in(config: dict, deals: int) -> int:
    """The matches of the first `deals` deals of the schedule a stored tournament config describes."""
    k = int(config["table_size"])
    tables = config.get("tables")
    count = len(tables) if tables is not None else math.comb(len(config["entrants"]), k)
    return count * deals * seatings_per_deal(k, config.get("seatings", "rotations"))
