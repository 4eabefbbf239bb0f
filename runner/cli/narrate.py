"""Narration for people: a match round by round and its final table (a log event by event: runner/logs/narration.py)."""

from __future__ import annotations

from runner.logs.narration import indented
from runner.table.match import MatchResult


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
        lines.append(f"fault: {result.players[fault.seat]}#{fault.seat} {fault.kind} in round {fault.round}: "
                     f"{fault.detail}")
        lines += indented(fault.traceback)
    winners = " and ".join(label(result, s) for s in result.winners)
    lines.append(f"{'draw between' if len(result.winners) > 1 else 'winner:'} {winners}")
    return lines


def final_rows(result: MatchResult) -> list[dict]:
    place = {seat: i + 1 for i, seat in enumerate(result.ranking)}
    rows = []
    for seat, player in enumerate(result.players):
        rows.append({
            "seat": seat, "player": player, "total": result.totals[seat], "rounds_won": result.rounds_won[seat],
            "place": place.get(seat, "-"), "winner": seat in result.winners,
            "note": "forfeit" if seat in result.forfeited else ("left" if seat in result.left else ""),
        })
    return rows
