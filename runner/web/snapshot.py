"""The JSON a browser seat is sent: only what that seat may know, the one place it is made.

Its own hand, the pile's top card and size, the suit to follow, a penalty waiting, every seat's
hand size and total, the size of the stock, its legal moves when it is to act, what it was told
since its last move (runner/logs/narration.py), how the last round ended, the score list and
the result. Never another seat's hand, nor the stock: tests/test_web_safety.py scans it for them.
"""

from __future__ import annotations

from runner.game.cards import SUIT_NAMES
from runner.game.view import View
from runner.logs.narration import RoundReport, action_cards, action_text, counted, phase_text, sorted_cards

from .host import HostedGame
from .seat import WebSeat


def seat_state(game: HostedGame, seat: WebSeat) -> dict:
    """What `seat` may know of `game` now (call under the game's lock)."""
    rules, narrator = game.spec.ruleset, seat.narrator
    players = game.public.players
    who = narrator.who if narrator is not None else (lambda s: f"{players[s]}#{s}")
    state = {
        "status": game.status,
        "error": game.error,
        "you": seat.seat,
        "seat_status": seat.status,
        "leaving": seat.leaving,
        "ruleset": {"name": game.spec.ruleset_name, "description": rules.description, "format": rules.match.format,
                    "limit": rules.match.limit, "table_changes": rules.match.table_changes},
        "level": game.spec.level,
        "join": f"/join/{game.token}" if rules.match.table_changes and not game.finished else None,
        "players": [{"seat": s, "name": who(s), "bot": name != seat.name} for s, name in enumerate(players)],
        "next_round": game.next_round if game.status == "between" else None,
        "ready": seat.ready,
        "waiting_for": [who(other.seat) for other in game._seated() if not (other.ready or other.leaving)]
                       if game.status == "between" else [],
        "table": None,
        "moves": [],
        "turn": seat.turn,
        "since": [{"round": number, "text": text} for number, text in seat.since],
        "acts": list(seat.acts),
        "report": report_data(narrator.report, who) if narrator is not None and narrator.report else None,
        "scores": scores(game, who),
        "result": result_data(game, who) if game.status == "over" else None,
    }
    in_round = narrator is not None and narrator.report is None
    if in_round and seat.view is not None and seat.view.round == narrator.table.round:
        state["table"] = table_data(game, seat, who)
    if seat.moves:
        view = seat.view
        state["moves"] = [{"kind": type(action).__name__.lower(), "text": action_text(action, view, who),
                           "cards": list(action_cards(action)), **move_fields(action)} for action in seat.moves]
        state["prompt"] = phase_text(view, who)
    return state


def move_fields(action) -> dict:
    """A move's choices beyond its cards, for the page's pickers: the suit named, the rank wished, the call made,
    the seat a swap takes the hand of (each only where the move has it)."""
    fields = {name: getattr(action, name, None) for name in ("suit", "rank", "announce", "seat")}
    return {name: value for name, value in fields.items() if value is not None}


def table_data(game: HostedGame, seat: WebSeat, who) -> dict:
    """The table as the seat's last view shows it."""
    view = seat.view
    shown = dict(view.shown)
    return {
        "round": view.round,
        "hand": sorted_cards(card.text for card in view.hand),
        "top": view.top.text,
        "suit": view.suit,
        "suit_name": SUIT_NAMES.get(view.suit, view.suit) if view.suit else "any (after a joker)",
        "pending": view.pending,
        "direction": view.direction,
        "stock": view.stock_size,
        "pile": len(view.discard),
        "to_act": game.to_act,
        "notes": house_rule_notes(view, who),
        "seats": [{"seat": s, "name": who(s), "cards": view.hand_sizes[s], "total": view.totals[s],
                   "in_round": s in view.active and s not in view.out and s not in view.out_order,
                   "place": view.out_order.index(s) + 1 if s in view.out_order else None,
                   "shown": [card.text for card in shown.get(s, ())]}
                  for s in range(len(view.hand_sizes))],
    }


def house_rule_notes(view: View, who) -> list[str]:
    """What the house rules have left on the table for the next card or the next turns, in words (none by default)."""
    notes = []
    if view.wish:
        binds = f" (for {counted(view.wish_left, 'card')})" if view.wish_left > 1 else ""
        notes.append(f"wished: {view.wish}{binds}")
    elif view.wish_left > 1:
        notes.append(f"the suit named binds {counted(view.wish_left, 'more card')}")
    if view.pending_skip:
        notes.append(f"skip waiting: {counted(view.pending_skip, 'turn')}")
    if view.free:
        notes.append("any card may follow")
    if view.next_rank:
        bound, rank = view.next_rank
        notes.append(f"next card: {rank} or {'lower' if bound == 'at_most' else 'higher'}")
    for seat, turns in enumerate(view.waits):
        if turns:
            notes.append(f"{who(seat)} {'miss' if who(seat) == 'you' else 'misses'} {counted(turns, 'turn')}")
    return notes


def report_data(report: RoundReport, who) -> dict:
    return {
        "round": report.number, "deciding": report.deciding, "winner": report.winner,
        "winner_name": who(report.winner) if report.winner is not None else None, "card": report.card,
        "hands": [{"seat": hand.seat, "name": who(hand.seat), "cards": list(hand.cards), "points": hand.points}
                  for hand in report.hands],
        "totals": list(report.totals), "lines": report.lines(who),
    }


def scores(game: HostedGame, who) -> dict:
    """The score list: each round's points and the totals; players who left are struck from it."""
    public = game.public
    return {
        "names": [who(s) for s in range(len(public.players))],
        "rounds": [dict(r) for r in game.rounds],
        "totals": list(public.totals),
        "struck": sorted(s for s, why in public.gone.items() if why == "left"),
        "out": sorted(s for s, why in public.gone.items() if why != "left"),
    }


def result_data(game: HostedGame, who) -> dict:
    result = game.result
    return {
        "winners": [who(s) for s in result.winners], "ranking": [who(s) for s in result.ranking],
        "totals": list(result.totals), "you_won": any(who(s) == "you" for s in result.winners),
    }
