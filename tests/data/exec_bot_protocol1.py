#!/usr/bin/env python3
"""examples/exec_bot.py as it was written for protocol 1 (no ids, no `ready`): bots like it must still play.

Strategy: keep Jacks for last, shed the highest-scoring card that can go, and always make the
announcement that the `legal` list already carries.
"""

import json
import random
import sys

POINTS = {"J": 20, "A": 11, "K": 4, "Q": 3, "10": 10}  # replaced by the ruleset's at match start


def send(message):
    """One message per line; flush, or the runner waits for it until the time budget runs out."""
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def rank(card):
    return card[:-1]


def choose(view, rng):
    """One of view["legal"], returned as it was given (announcement included)."""
    legal = view["legal"]
    plays = [a for a in legal if a["type"] == "play"]
    if view["phase"] == "name_suit":
        suits = [card[-1] for card in view["hand"]] or ["H"]
        best = max(sorted(set(suits)), key=suits.count)  # sorted: a set's order changes from run to run
        return next(a for a in legal if a["suit"] == best)
    if not plays:
        return next((a for a in legal if a["type"] in ("challenge",)), legal[-1] if legal else {"type": "draw"})
    non_jacks = [a for a in plays if rank(a["card"]) != "J"]
    pool = non_jacks or plays
    best = max(POINTS.get(rank(a["card"]), 0) for a in pool)
    candidates = [a for a in pool if POINTS.get(rank(a["card"]), 0) == best]
    choice = rng.choice(candidates)
    if choice["suit"] is not None or rank(choice["card"]) == "J":  # a wild card: name our longest suit
        suits = [card[-1] for card in view["hand"] if card != choice["card"]] or [choice["card"][-1]]
        best_suit = max(sorted(set(suits)), key=suits.count)
        choice = next(a for a in plays if a["card"] == choice["card"] and a["suit"] == best_suit)
    return choice


def main():
    send({"type": "hello", "name": "example-exec", "protocol": 1})
    rng = random.Random(0)
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "match_start":
            rng = random.Random(message["seed"])  # the runner's seed: the match replays exactly
            POINTS.clear()
            POINTS.update(message["rules"]["points"])
        elif kind == "act":
            try:
                send({"type": "action", "action": choose(message["view"], rng)})
            except Exception as exc:  # tell the runner rather than die: it counts an exception fault
                send({"type": "error", "message": f"{type(exc).__name__}: {exc}"})
        elif kind == "bye":
            break
        # match_end and any message type added later need no answer


if __name__ == "__main__":
    main()
