"""Rendering the standings: a table with head-to-head and too-close notes, or JSON, or CSV."""

from __future__ import annotations

import json

from runner.tournament.standings import Comparison, Standings

from .output import render_rows


def rows(standings: Standings) -> list[dict]:
    """One flat dict per entrant, best first, numbers rounded for machines (JSON, CSV)."""
    return [
        {
            "rank": i + 1, "entrant": r.entrant, "bot": r.bot, "matches": r.matches, "wins": r.wins,
            "draws": r.draws, "losses": r.losses, "score": round(r.score, 4), "win_rate": round(r.win_rate, 4),
            "win_rate_low": round(r.win_rate_low, 4), "win_rate_high": round(r.win_rate_high, 4),
            "points_per_round": round(r.points_per_round, 4), "rounds_won": r.rounds_won, "faults": r.faults,
            "rating": round(r.rating, 4), "rating_sigma": round(r.rating_sigma, 4),
        }
        for i, r in enumerate(standings.rows)
    ]


def comparison_dict(c: Comparison) -> dict:
    return {"above": c.above, "below": c.below, "matches": c.matches, "ahead": round(c.ahead, 4),
            "low": round(c.low, 4), "high": round(c.high, 4), "separated": c.separated}


def render_standings(standings: Standings, fmt: str) -> str:
    """The standings as a table (with head-to-head and too-close notes), JSON or CSV."""
    if fmt == "json":
        return json.dumps({
            "standings": rows(standings),
            "head_to_head": [
                {"entrant": a, "opponent": b, "matches": n, "score": round(score, 4)}
                for (a, b), (n, score) in standings.head_to_head.items()
            ],
            "adjacent": [comparison_dict(c) for c in standings.adjacent],
            "looks": standings.looks,
        }, indent=2)
    if fmt != "table":
        return render_rows(rows(standings), fmt)
    parts = [render_rows(table_rows(standings), "table")]
    if standings.head_to_head:
        parts.append("Head to head (row's score against column, over their matches):\n" + head_to_head_table(standings))
    parts.append(closeness_note(standings))
    return "\n\n".join(parts)


def table_rows(standings: Standings) -> list[dict]:
    return [
        {
            "#": i + 1, "entrant": r.entrant, "matches": r.matches, "W": r.wins, "D": r.draws, "L": r.losses,
            "score": f"{r.score:g}", "win rate": f"{r.win_rate:.3f}",
            "95% CI": f"{r.win_rate_low:.3f}–{r.win_rate_high:.3f}", "pts/round": f"{r.points_per_round:.2f}",
            "rounds_won": r.rounds_won, "faults": r.faults, "rating": f"{r.rating:.2f} ± {r.rating_sigma:.2f}",
        }
        for i, r in enumerate(standings.rows)
    ]


def head_to_head_table(standings: Standings) -> str:
    names = [r.entrant for r in standings.rows]
    lines = []
    for a in names:
        line = {"": a}
        for b in names:
            n, score = standings.head_to_head.get((a, b), (0, 0.0))
            line[b] = f"{score:g}/{n}" if n else "-"
        lines.append(line)
    return render_rows(lines, "table")


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
