"""A human seat: the person at the terminal sees their View and picks one of the legal actions by number."""

from __future__ import annotations

import random
import sys
from typing import Sequence, TextIO

from runner.game.actions import Action, Challenge, Draw, NameSuit, Pass, Play
from runner.game.bot import Bot
from runner.game.cards import SUIT_NAMES
from runner.game.view import Event, View
from runner.logs.narration import action_text, phase_text, suit_name

QUIT_WORDS = ("q", "quit", "exit")


class HumanQuit(KeyboardInterrupt):
    """The person left the match (typed q, or the input ended).

    A KeyboardInterrupt, so that the referee lets it through like Ctrl-C instead of taking it
    for a bot's fault.
    """

    def __init__(self, message: str, input_ended: bool = False):
        super().__init__(message)
        self.input_ended = input_ended


class HumanSeat(Bot):
    """Shows the seat's hand, the table and the legal actions on `output`; reads a move number from `input`."""

    name = "human"
    description = "The person at the terminal (maumau play --human)."

    def __init__(self, rng: random.Random | None = None, names: Sequence[str] = (), input: TextIO | None = None,
                 output: TextIO | None = None, **options):
        super().__init__(rng, **options)
        self.names = list(names)
        self.input, self.output = input, output
        self.round = None  # the round shown last, and how much of its history
        self.seen = 0
        self.seat: int | None = None

    def act(self, view: View) -> Action:
        self.show(view)
        return self.ask(view.legal)

    # ------------------------------------------------------------------ display

    def say(self, text: str = "") -> None:
        print(text, file=self.output or sys.stdout, flush=True)

    def who(self, seat: int) -> str:
        if seat == self.seat:
            return "you"
        return f"{self.names[seat] if seat < len(self.names) else 'seat'}#{seat}"

    def show(self, view: View) -> None:
        """Print what happened since our last turn, then the table and our hand."""
        self.seat = view.seat
        if view.round != self.round:
            self.round, self.seen = view.round, 0
            totals = "  ".join(f"{self.who(s)} {view.totals[s]}" for s in range(len(view.totals)))
            self.say(f"\n=== round {view.round} === totals: {totals}")
        for event in view.history[self.seen:]:
            self.say(f"  {event_words(event, self.who)}")
        self.seen = len(view.history)
        suit = suit_name(view.suit) if view.suit else "none (a joker)"
        pending = f"   draw penalty waiting: {view.pending}" if view.pending else ""
        self.say(f"\ntop card: {view.top}   suit to follow: {suit}{pending}   stock: {view.stock_size}")
        others = [s for s in view.active if s != view.seat]
        self.say("players: " + "   ".join(
            f"{self.who(s)} {view.hand_sizes[s]} card{'s' if view.hand_sizes[s] != 1 else ''} (total {view.totals[s]})"
            for s in others
        ))
        self.say(f"your hand: {' '.join(str(card) for card in sorted(view.hand))}   (your total "
                 f"{view.totals[view.seat]})")
        if view.phase == "drawn":
            self.say(f"you drew {view.hand[-1]}: play it or keep it")
        elif view.phase in ("name_suit", "challenge", "swap", "give", "jump_in") or view.pending_skip:
            self.say(phase_text(view, self.who) or "")  # the house rules' decisions, worded as the browser words them
        for number, action in enumerate(view.legal, 1):
            self.say(f"  {number:>2}) {choice_text(action, view, self.who)}")

    # ------------------------------------------------------------------ input

    def ask(self, legal: Sequence[Action]) -> Action:
        """Read lines until one names a legal action by number; q quits."""
        stream = self.input or sys.stdin
        while True:
            self.say(f"your move [1-{len(legal)}, q to quit]: ")
            line = stream.readline()
            if not line:
                raise HumanQuit("the input ended: the human seat left the match", input_ended=True)
            text = line.strip().lower()
            if text in QUIT_WORDS:
                raise HumanQuit("you left the match")
            if text.isdigit() and 1 <= int(text) <= len(legal):
                return legal[int(text) - 1]
            self.say(f"{line.strip()!r} is not a move: type a number from 1 to {len(legal)}, or q to quit")


def choice_text(action: Action, view: View, who) -> str:
    """A legal action in words: the house rules' (several cards, a wish, a swap, a give, a pass that takes a skip
    or lets a jump-in go) as runner/logs/narration.py words them for the browser, the classic ones by `label`."""
    kind = type(action)
    house = (kind is Play and (action.more or action.rank is not None)) or kind not in (  # type: ignore[union-attr]
        Play, Draw, Pass, NameSuit, Challenge) or (kind is Pass and (view.phase == "jump_in" or view.pending_skip))
    return action_text(action, view, who) if house else label(action)


def label(action: Action) -> str:
    """An action in words, e.g. `play JD, naming spades, saying "mau"`."""
    if isinstance(action, Play):
        return play_words("play", action.card, action.suit, action.announce)
    if isinstance(action, Draw):
        return "draw"
    if isinstance(action, Pass):
        return "keep the card and end the turn"
    if isinstance(action, NameSuit):
        return f"name {SUIT_NAMES[action.suit]}"
    if isinstance(action, Challenge):
        return "challenge"
    return str(action)


def play_words(verb: str, card, suit: str | None, announce: str | None) -> str:
    """`play JD, naming spades, saying "mau"` (or `played ...`)."""
    text = f"{verb} {card}"
    if suit:
        text += f", naming {SUIT_NAMES[suit]}"
    if announce:
        text += f', saying "{announce}"'
    return text


def event_words(event: Event, who) -> str:
    """One public event in words."""
    kind, seat = event.kind, event.seat
    if kind == "play":
        return f"{who(seat)} {play_words('played', event.card, event.suit, event.reason)}"
    if kind == "draw":
        cards = f"{event.count} card{'s' if event.count != 1 else ''}"
        why = {"seven": " (penalty)", "penalty": " (missed announcement)"}.get(event.reason or "", "")
        return f"{who(seat)} drew {cards}{why}"
    if kind == "pass":
        return f"{who(seat)} kept the drawn card"
    if kind == "skip":
        return f"{who(seat)} is skipped"
    if kind == "name_suit":
        return f"{who(seat)} named {SUIT_NAMES[event.suit]}"
    if kind == "reshuffle":
        return f"the discard pile was shuffled into a new stock of {event.count}"
    if kind == "challenge":
        return f"{who(seat)} challenged {who(event.count)}"
    return f"{who(seat)}: {kind}"
