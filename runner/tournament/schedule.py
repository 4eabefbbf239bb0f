"""The schedule of a tournament: tables, duplicate deals, seatings and seeds.

The settings' tables meet (every k-subset of the entrants by default, runner.tournament.tables);
each meeting plays `deals` seeds, and each seed once under every seat rotation of the table
(duplicate deals), so that seat and card luck cancel out; the order round the table changes
from deal to deal, so that no entrant always plays right after the same opponent. With
`seatings: permutations` each seed is played under every one of the k! seating orders instead.
A match's id, `t<table>-d<deal>-r<seating>`, never changes, and its seed is derived (sha256) from
the tournament seed and the id's table and deal, so every seating of a deal sees the same shuffles.
"""

from __future__ import annotations

import hashlib
import itertools
import math
from typing import Iterator, NamedTuple

from .deals import Deal
from .settings import Settings
from .work import WorkUnit


class Slot(NamedTuple):
    """One scheduled match: where it sits in the schedule, and who sits where (a NamedTuple: one per match)."""

    match_id: str
    table: int
    deal: int
    rotation: int
    seed: int
    seats: tuple[int, ...]  # entrant index per seat


def derive_seed(seed: int, key: str) -> int:
    """A 63-bit seed from the tournament seed and a key: stable everywhere (unlike hash())."""
    digest = hashlib.sha256(f"maumau:{seed}:{key}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def deal_key(table: int, deal: int) -> str:
    """A table's deal, `t<table>-d<deal>`: what its seed is derived from, and the block the standings count its
    rotations in (runner/tournament/store.py)."""
    return f"t{table}-d{deal}"


def schedule(settings: Settings, deals: range) -> Iterator[Slot]:
    """The matches of `deals`, deal by deal, then table by table, then rotation by rotation, made as they are taken.

    Rotations keep the order round the table, so with three or more seats each deal also
    takes the next of the (k-1)! orders in turn: over those deals every entrant plays right
    after every other equally often (who follows a strong player suffers from its 7s and 8s).
    """
    k = settings.table_size
    tables = settings.table_list()
    orders = [(0, *rest) for rest in itertools.permutations(range(1, k))]
    every_order = list(itertools.permutations(range(k)))
    for deal in deals:
        if settings.seatings == "permutations":
            seatings = every_order
        else:
            order = orders[deal % len(orders)]
            seatings = [tuple(order[(s + r) % k] for s in range(k)) for r in range(k)]
        for t, members in enumerate(tables):
            # an A/B test pairs NEW's table with BASE's: both play the same deals
            seed = derive_seed(settings.seed, f"d{deal}" if settings.sprt else deal_key(t, deal))
            for r, seating in enumerate(seatings):
                # positional: the driver makes one per match, on the core the workers share
                yield Slot(f"t{t}-d{deal}-r{r}", t, deal, r, seed, tuple([members[i] for i in seating]))


def match_count(entrants: int, table_size: int, deals: int) -> int:
    """The matches of a round robin of `entrants` at tables of `table_size` over `deals` deals."""
    return math.comb(entrants, table_size) * deals * table_size


def unit_of(settings: Settings, slot: Slot, log_dir: str | None = None, book: list[Deal] | None = None) -> WorkUnit:
    """The work unit of `slot`; with `log_dir`, its worker writes the log file into that results directory.

    `book`: the deals of the tournament's deal file, of which the slot's deal plays its decks.
    """
    return Units(settings, log_dir, book)(slot)


class Units:
    """The work units of a tournament's slots (`unit_of`), made cheaply one per match by the driver.

    What the units share is looked up once: the settings' fields, and the bots and entrant labels
    of each seating (a few per table), which the pickled batches then also share.
    """

    def __init__(self, settings: Settings, log_dir: str | None = None, book: list[Deal] | None = None):
        self.settings, self.book = settings, book
        self.shared = (settings.ruleset, settings.ruleset_name, settings.overrides, settings.logs, settings.faults,
                       log_dir)
        self.seated: dict[tuple[int, ...], tuple[tuple[str, ...], tuple[str, ...]]] = {}  # seats: bots, entrants

    def __call__(self, slot: Slot) -> WorkUnit:
        seated = self.seated.get(slot.seats)
        if seated is None:
            bots, entrants = self.settings.bots, self.settings.entrants
            seated = self.seated[slot.seats] = (tuple(bots[e] for e in slot.seats),
                                                tuple(entrants[e] for e in slot.seats))
        decks = self.book[slot.deal].decks if self.book is not None else ()
        return WorkUnit(slot.match_id, slot.seed, *seated, *self.shared, decks, (slot.table, slot.deal, slot.rotation))
