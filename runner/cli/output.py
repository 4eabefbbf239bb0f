"""Rendering results for people (tabulate tables, narration) and machines (JSON, CSV)."""

from __future__ import annotations

import csv
import io
import json

import typer
from tabulate import tabulate

from runner.errors import MaumauError
from runner.table.match import MatchResult

FORMATS = ("table", "json", "csv")


def render(rows: list[dict], fmt: str) -> str:
    """`rows` (a list of flat dicts) as a table, JSON or CSV."""
    if fmt == "table":
        return tabulate(rows, headers="keys") if rows else "(none)"
    if fmt == "json":
        return json.dumps(rows, indent=2, sort_keys=False)
    if fmt == "csv":
        buffer = io.StringIO()
        if rows:
            writer = csv.DictWriter(buffer, fieldnames=list(rows[0]), lineterminator="\n")
            writer.writeheader()
            writer.writerows(rows)
        return buffer.getvalue().rstrip("\n")
    raise MaumauError(f"unknown --format {fmt!r}; use one of {', '.join(FORMATS)}")


def emit(rows: list[dict], fmt: str) -> None:
    typer.echo(render(rows, fmt))


def label(result: MatchResult, seat: int) -> str:
    return f"{result.players[seat]}#{seat}"


def narrate(result: MatchResult) -> list[str]:
    """One line per round: who went out, the points, the running totals."""
    lines = []
    for summary in result.rounds:
        who = label(result, summary.winner) if summary.winner is not None else "nobody (blocked)"
        kind = "deciding round" if summary.deciding else "round"
        points = ", ".join(f"{label(result, s)} {p}" for s, p in enumerate(summary.points) if p)
        lines.append(f"{kind} {summary.number}: {who} went out; points: {points or 'none'}; "
                     f"totals: {' '.join(str(t) for t in summary.totals)}")
    for fault in result.faults:
        lines.append(f"fault: {result.players[fault.seat]}#{fault.seat} {fault.kind} in round {fault.round}: {fault.detail}")
    winners = " and ".join(label(result, s) for s in result.winners)
    lines.append(f"{'draw between' if len(result.winners) > 1 else 'winner:'} {winners}")
    return lines


def final_rows(result: MatchResult) -> list[dict]:
    place = {seat: i + 1 for i, seat in enumerate(result.ranking)}
    rows = []
    for seat, player in enumerate(result.players):
        rows.append({
            "seat": seat, "player": player, "total": result.totals[seat], "rounds won": result.rounds_won[seat],
            "place": place.get(seat, "-"), "winner": seat in result.winners,
            "note": "forfeit" if seat in result.forfeited else ("left" if seat in result.left else ""),
        })
    return rows
