"""Rendering the standings: a table with head-to-head and too-close notes, or JSON, or CSV."""

from __future__ import annotations

import json

from runner.tournament.standings import Standings, standings_data
from runner.tournament.standings import standing_rows as rows

from .output import render_rows


def render_standings(standings: Standings, fmt: str) -> str:
    """The standings as a table (with head-to-head and too-close notes), JSON or CSV."""
    if fmt == "json":
        return json.dumps(standings_data(standings), indent=2)
    if fmt != "table":
        return render_rows(rows(standings), fmt)
    parts = [render_rows(table_rows(standings), "table"), columns_note(standings)]
    if standings.gauntlet:
        parts.append(gauntlet_table(standings))
    if any(size > 2 for size in standings.table_sizes):
        parts.append("Placed ahead (row's share of the matches it placed ahead of column, a shared place a half; "
                     "matches in brackets):\n" + crosstable(standings))
    elif standings.head_to_head:
        parts.append("Head to head (row's score against column, over their matches):\n" + head_to_head_table(standings))
    parts.append(closeness_note(standings))
    return "\n\n".join(parts)


def columns_note(standings: Standings) -> str:
    """What the columns mean, and where parity lies: a win rate's is 1/k at tables of k, the ahead share's 0.5."""
    sizes = standings.table_sizes
    parity = ", ".join(f"1/{k} = {1 / k:.3f} at tables of {k}" for k in sizes) if sizes else "1/k at tables of k"
    return (f"win rate: the share of first places (parity {parity}).\n"
            "ahead: the share of the opponents it placed ahead of, a shared place a half (parity 0.5); its interval,\n"
            "like the win rate's, counts the rotations of a deal together. place: the average place (1 is first).")


def gauntlet_table(standings: Standings) -> str:
    """The gauntlet entrant's results against each opponent: how often it placed ahead, with the interval."""
    me = standings.gauntlet
    lines = []
    for r in standings.rows:
        c = standings.crosstable.get((me, r.entrant))
        if r.entrant == me or c is None:
            continue
        lines.append({"opponent": r.entrant, "matches": c.matches, f"{me} ahead": f"{c.ahead:g}",
                      "share": f"{c.ahead / c.matches:.3f}", "95% CI": f"{c.low:.3f}–{c.high:.3f}"})
    return f"{me} against each opponent (matches both played; a shared place counts half):\n" + render_rows(
        lines, "table"
    )


def crosstable(standings: Standings) -> str:
    def cell(a: str, b: str) -> str:
        c = standings.crosstable.get((a, b))
        return f"{c.ahead / c.matches:.2f} ({c.matches})" if c is not None and c.matches else "-"

    return square(standings, cell)


def square(standings: Standings, cell) -> str:
    """A table of every entrant against every other, best first both ways; `cell(row, column)` fills it."""
    names = [r.entrant for r in standings.rows]
    return render_rows([{"": a, **{b: cell(a, b) for b in names}} for a in names], "table")


def table_rows(standings: Standings) -> list[dict]:
    return [
        {
            "#": i + 1,
            "entrant": r.entrant,
            "matches": r.matches,
            "W": r.wins,
            "D": r.draws,
            "L": r.losses,
            "score": f"{r.score:g}",
            "win rate": f"{r.win_rate:.3f}",
            "95% CI": f"{r.win_rate_low:.3f}–{r.win_rate_high:.3f}",
            "pts/round": f"{r.points_per_round:.2f}",
            "ahead": f"{r.ahead:.3f}",
            "ahead CI": f"{r.ahead_low:.3f}–{r.ahead_high:.3f}",
            "place": f"{r.mean_place:.2f}",
            "rounds won": r.rounds_won,
            "faults": r.faults,
            "rating": f"{r.rating:.2f} ± {r.rating_sigma:.2f}",
        }
        for i, r in enumerate(standings.rows)
    ]


def head_to_head_table(standings: Standings) -> str:
    def cell(a: str, b: str) -> str:
        n, score = standings.head_to_head.get((a, b), (0, 0.0))
        return f"{score:g}/{n}" if n else "-"

    return square(standings, cell)


def closeness_note(standings: Standings) -> str:
    if not standings.adjacent:
        return "Only one entrant: nothing to separate."
    level = "95%" + (f" over {standings.looks} looks" if standings.looks and standings.looks > 1 else "")
    close = standings.too_close
    if not close:
        return f"Every entrant places ahead of the next one down significantly ({level})."
    pairs = "; ".join(
        f"{c.above} vs {c.below} ({c.ahead:g} of {c.matches} ahead, CI {c.low:.2f}–{c.high:.2f})" for c in close
    )
    return f"Too close to call at {level}: {pairs}."
