"""Scenario helpers: a round dealt from a stacked deck written in card notation, and moves as text."""

from __future__ import annotations

import random
from collections import Counter

from runner.game.actions import CHALLENGE, DRAW, PASS, Play, give, name_suit, swap
from runner.game.cards import parse_card
from runner.game.engine import Round
from runner.plugins import registry


def cards(text: str) -> list:
    """`"7H JD 10S"` as cards."""
    return [parse_card(word) for word in text.split()]


def texts(cards_) -> list[str]:
    return [card.text for card in cards_]


def load(name: str, overrides: dict | None = None):
    """A registered ruleset with `--set` style overrides."""
    return registry().load_ruleset(name, overrides or {})


def deal(name: str, hands: list[str], upcards: str, stock: str = "", dealer: int | None = None,
         overrides: dict | None = None, log: list | None = None, seed: int = 0, **options) -> Round:
    """A round of ruleset `name` whose seats hold `hands`, with `upcards` turned up on `stock` (top first).

    The deck is stacked in dealing order (one card at a time, clockwise from left of the dealer),
    so the engine's own deal puts every card where the scenario says. The ruleset's hand size is
    set to the scenario's; the dealer defaults to the last seat, so that seat 0 leads.
    """
    hand_cards = [cards(hand) for hand in hands]
    size = len(hand_cards[0])
    assert all(len(hand) == size for hand in hand_cards), "every hand of a scenario has the same size"
    overrides = dict(overrides or {})
    base = load(name)
    if base.hand_size != size or base.hand_size_by_players:
        overrides.setdefault("hand_size", size)
        overrides.setdefault("hand_size_by_players", {})
    ruleset = load(name, overrides)
    n = len(hands)
    active = options.pop("active", list(range(n)))
    dealer = active[-1] if dealer is None else dealer
    order = sorted(active, key=lambda seat: (seat <= dealer, seat))
    deck = [hand_cards[seat][i] for i in range(size) for seat in order] + cards(upcards) + cards(stock)
    rnd = Round.deal(ruleset, random.Random(seed), n, dealer=dealer, deck=deck, log=log, active=active, **options)
    for seat in active:
        assert texts(sorted(rnd.hands[seat])) == texts(sorted(hand_cards[seat])), "the stacked deal went wrong"
    return rnd


def action(rnd: Round, move: str):
    """The action `move` names: `7H` (with the announcement due), `7H!` (announcement forgotten),
    `JD>S` (a Jack naming spades), `JD=7` (a Jack wishing the rank 7), `7H+7S+7C` (several cards,
    in play order), `7H@mau` (a given announcement), `draw`, `pass`, `name S`, `challenge`,
    `swap 2` (swap hands with seat 2), `give 7H`."""
    if move == "draw":
        return DRAW
    if move == "pass":
        return PASS
    if move == "challenge":
        return CHALLENGE
    if move.startswith("name "):
        return name_suit(move[5:])
    if move.startswith("swap "):
        return swap(int(move[5:]))
    if move.startswith("give "):
        return give(parse_card(move[5:]))
    announce: str | None = "due"
    if move.endswith("!"):
        move, announce = move[:-1], None
    if "@" in move:
        move, announce = move.split("@")
    move, _, rank = move.partition("=")
    cards_text, _, suit = move.partition(">")
    played = [parse_card(text) for text in cards_text.split("+")]
    card, more = played[0], tuple(played[1:])
    if announce == "due":
        due = [a.announce for a in rnd.legal() if isinstance(a, Play) and a.card is card and a.more == more]
        announce = due[0] if due else None
    return Play(card, suit or None, announce, more, rank or None)


def do(rnd: Round, *moves: str) -> Round:
    """Apply `moves` in turn, each of which must be legal for the seat to act."""
    for move in moves:
        wanted = action(rnd, move)
        legal = rnd.canonical(wanted)
        assert legal is not None, f"{move!r} is not legal for seat {rnd.current} ({rnd.phase}): {rnd.legal()}"
        rnd.apply(legal)
    return rnd


def can(rnd: Round, move: str) -> bool:
    """Whether `move` is legal for the seat to act."""
    return rnd.canonical(action(rnd, move)) is not None


def hand(rnd: Round, seat: int) -> list[str]:
    return sorted(texts(rnd.hands[seat]))


def plays(rnd: Round) -> set[str]:
    """The legal plays of the seat to act, as texts: `card`, `card>suit`, `card=rank`, `card+card+...`."""
    return {move_text(a) for a in rnd.legal() if isinstance(a, Play)}


def move_text(action: Play) -> str:
    """A play as `action()` reads it back (without its announcement)."""
    text = "+".join(card.text for card in action.cards)
    if action.suit:
        text += f">{action.suit}"
    if action.rank:
        text += f"={action.rank}"
    return text


def all_cards(rnd: Round) -> Counter:
    """Every card of the round: hands, stock and discard pile."""
    counter = Counter(rnd.stock) + Counter(rnd.discard)
    for held in rnd.hands:
        counter.update(held)
    return counter


