"""Narration for people: a match round by round, its final table, and a stored log event by event."""

from __future__ import annotations

from runner.game import events as ev
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


def cards(items) -> str:
    return " ".join(items) if items else "-"


ONE_LINERS = {  # events whose line is their own fields
    ev.NAME_SUIT: "  {who} names {suit}",
    ev.PASS: "  {who} keeps the drawn card and passes",
    ev.SKIP: "  {who} is skipped",
    ev.FORFEIT: "  {who} forfeits",
    ev.LEAVE: "  {who} leaves",
    ev.FAULT: "  FAULT {who} ({kind}): {detail}",
    ev.ELIMINATED: "{who} is eliminated with {total}",
    ev.JOIN: "{player} joins as seat {seat} with {total}",
}


def event_line(event: dict, players: list[str]) -> str:
    """One readable line for one log event; `players` names each seat."""
    kind = event["type"]

    def who(seat: int | None) -> str:
        return players[seat] if seat is not None and seat < len(players) else f"seat {seat}"

    if kind == ev.MATCH_START:
        limit = f", to {event['limit']}" if event.get("limit") is not None else ""
        seats = ", ".join(f"seat {s} {who(s)}" for s in range(len(event["players"])))
        return f"match {event['match']}: {event['ruleset']}{limit}, seed {event['seed']}; {seats}"
    if kind == ev.ROUND_START:
        hands = "; ".join(f"{who(s)}: {cards(h)}" for s, h in enumerate(event["hands"]) if h)
        label = "deciding round" if event.get("deciding") else "round"
        return (f"{label} {event['round']}: {who(event['dealer'])} deals, {who(event['first'])} leads; "
                f"upcard {cards(event['upcards'])}; hands {hands}; stock {len(event['stock'])} cards")
    if kind == ev.PLAY:
        extra = (f" naming {event['suit']}" if event.get("suit") else "") + (
            f", says {event['announce']}" if event.get("announce") else ""
        )
        return f"  {who(event['seat'])} plays {event['card']}{extra}"
    if kind == ev.DRAW:
        return f"  {who(event['seat'])} draws {cards(event['cards'])} ({event['reason']})"
    if kind == ev.RESHUFFLE:
        return f"  the discards are reshuffled into a stock of {len(event['stock'])}"
    if kind == ev.ROUND_END:
        winner = who(event["winner"]) if event["winner"] is not None else "nobody (blocked)"
        return f"round {event['round']} over: {winner} went out; points {event['points']}; totals {event['totals']}"
    if kind in ONE_LINERS:
        return ONE_LINERS[kind].format_map({**event, "who": who(event.get("seat"))})
    if kind == ev.MATCH_END:
        order = ", ".join(who(s) for s in event["ranking"])
        winners = " and ".join(who(s) for s in event["winners"])
        return f"match over: winner {winners}; ranking {order}; totals {event['totals']}"
    fields = ", ".join(f"{k}={v}" for k, v in event.items() if k != "type")
    return f"  {kind}: {fields}"
