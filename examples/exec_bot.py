#!/usr/bin/env python3
"""A complete maumau bot as a standalone program: the JSON-lines protocol of docs/protocol.md.

It needs nothing but Python's standard library. Run it in a match with
    maumau play -r standard -b 'exec:python3 examples/exec_bot.py' -b random
and check it with
    maumau check-bot 'exec:python3 examples/exec_bot.py'

Strategy: keep wild cards for last, shed the play worth the most points (a play of several cards
counts them all), name the suit (or wish the rank) held most, swap hands with the player closest
to going out, give away the card worth most, and always make the announcement that the `legal`
list already carries.
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


def points(action):
    """The penalty points a play sheds: every card it puts down (a play of several cards lists the rest in "more")."""
    return sum(POINTS.get(rank(card), 0) for card in [action["card"], *action.get("more", [])])


def longest_suit(hand, leaving):
    """The suit we hold most of once the cards of `leaving` are played (sorted: a set's order changes between runs)."""
    suits = [card[-1] for card in hand if card not in leaving] or [card[-1] for card in hand] or ["H"]
    return max(sorted(set(suits)), key=suits.count)


def choose(view, rng):
    """One of view["legal"], returned as it was given (announcement included)."""
    legal = view["legal"]
    plays = [a for a in legal if a["type"] == "play"]
    if view["phase"] == "name_suit":
        best = longest_suit(view["hand"], [])
        return next(a for a in legal if a["suit"] == best)
    if view["phase"] == "swap":  # take the hand of the player closest to going out
        return min(legal, key=lambda a: (view["hand_sizes"][a["seat"]], a["seat"]))
    if view["phase"] == "give":  # give away the card worth most
        return max(legal, key=lambda a: (POINTS.get(rank(a["card"]), 0), a["card"]))
    if not plays:
        return next((a for a in legal if a["type"] in ("challenge",)), legal[-1] if legal else {"type": "draw"})
    # A wild card is one whose plays name a suit or wish a rank: keep it for last.
    wild = {a["card"] for a in plays if a["suit"] is not None or a.get("rank") is not None}
    pool = [a for a in plays if a["card"] not in wild and not set(a.get("more", [])) & wild] or plays
    best = max(points(a) for a in pool)
    choice = rng.choice([a for a in pool if points(a) == best])
    same = [a for a in plays if a["card"] == choice["card"] and a.get("more", []) == choice.get("more", [])]
    if any(a["suit"] is not None for a in same):  # a wild card naming a suit: our longest one
        suit = longest_suit(view["hand"], [choice["card"], *choice.get("more", [])])
        choice = next((a for a in same if a["suit"] == suit), choice)
    elif any(a.get("rank") is not None for a in same):  # a wish for a rank: the one we hold most of
        held = [rank(card) for card in view["hand"]]
        choice = max(same, key=lambda a: (held.count(a["rank"]), a["rank"]))
    return choice


def main():
    send({"type": "hello", "name": "example-exec", "protocol": 2})
    rng = random.Random(0)
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "match_start":
            rng = random.Random(message["seed"])  # the runner's seed: the match replays exactly
            POINTS.clear()
            POINTS.update(message["rules"]["points"])
            send({"type": "ready", "id": message["id"]})
        elif kind == "act":
            try:
                send({"type": "action", "id": message["id"], "action": choose(message["view"], rng)})
            except Exception as exc:  # tell the runner rather than die: it counts an exception fault
                send({"type": "error", "id": message["id"], "message": f"{type(exc).__name__}: {exc}"})
        elif kind == "match_end":
            send({"type": "ready", "id": message["id"]})
        elif kind == "bye":
            break
        # a message type added later: ignore it (every request the bot must answer is listed above)


if __name__ == "__main__":
    main()
