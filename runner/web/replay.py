"""A match's game log as frames for the replay viewer: after each event, every hand face up, pile, stock, totals."""

from __future__ import annotations

from typing import Sequence

from runner.game import events as ev
from runner.logs.follow import LogTable
from runner.logs.narration import PowerWords, event_line, sorted_cards


def frames(events: Sequence[dict], players: Sequence[str], numbered: bool = False) -> dict:
    """`{"players": names, "frames": [...]}`: a frame per event, its line (runner/logs/narration.py) and the table
    after it. A frame holds only what changed since the one before: the viewer carries the rest forward.

    `players` are a tournament's entrants as its standings name them (`medium#2`); a game log's players are bot
    names, the same for several seats, so `numbered` names each `name#seat`, as the table's score list does."""
    table = LogTable()
    names = [f"{name}#{seat}" for seat, name in enumerate(players)] if numbered else list(players)
    shown: dict = {}
    out = []
    powers = PowerWords()
    for event in events:
        table.apply(event)
        if event["type"] == ev.JOIN:
            names.append(f"{event['player']}#{len(names)}" if numbered else str(event["player"]))
        state = {
            "round": table.round,
            "hands": [sorted_cards(hand) for hand in table.hands],
            "top": table.pile[-1] if table.pile else None,
            "pile": len(table.pile),
            "stock": len(table.stock),
            "suit": table.suit,
            "totals": list(table.totals),
            "gone": {str(seat): why for seat, why in table.gone.items()},
            "out": list(table.out),
        }
        frame = {"type": event["type"], "seat": event.get("seat"), "text": event_line(event, names, powers).strip()}
        frame.update({key: value for key, value in state.items() if shown.get(key) != value})
        shown = state
        out.append(frame)
    return {"players": names, "frames": out}
