"""A stored tournament's deals written out as a deal file (runner.tournament.deals), to play again elsewhere."""

from __future__ import annotations

from pathlib import Path

from runner.errors import MaumauError

from .deals import load_book, rounds_of, write_deals
from .replay import stored_events
from .settings import Settings
from .store import Store


def export_deals(directory: Path, out: Path) -> int:
    """Write the deals of the tournament in `directory` to `out`; return how many.

    A deal is every round its first seating (rotation 0) was dealt, read from that match's log
    (or the match re-played from its seed without one): its first round is every seating's, and
    the later rounds of a limit match are the ones that seating met. The deals come in schedule
    order, deal by deal, table by table; a tournament played on the file plays deal i at every table.
    """
    store = Store.open(directory)
    try:
        settings = Settings.from_config(store.config())
        book = load_book(directory, settings.deals_sha256) if settings.deals_file is not None else None
        # an A/B test's tables share their deals: its first table has them all
        only = " AND tbl = 0" if settings.sprt else ""
        query = f"SELECT id, tbl, deal, seed FROM matches WHERE rotation = 0{only} ORDER BY deal, tbl"
        rows = store.db.execute(query).fetchall()
        if not rows:
            raise MaumauError(f"{directory} holds no match yet: play the tournament first")
        deals = []
        for i, (match_id, _, _, seed) in enumerate(rows):
            events, _, _ = stored_events(store, settings, match_id, book)
            deals.append({"deal": i, "match": match_id, "seed": seed, "rounds": rounds_of(events)})
    finally:
        store.close()
    header = {"ruleset": settings.ruleset_name, "players": settings.table_size, "seed": settings.seed,
              "source": str(directory)}
    write_deals(out, header, deals)
    return len(deals)
