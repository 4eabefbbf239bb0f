"""A human seat: the person at the terminal follows the match as it is played and picks each move by number.

The match is told from its game log as it is written (`HumanSeat.feed()`, the log the match
keeps) by runner/logs/narration.py's Narrator, in what this seat may know; the seat adds the
wait for Enter before each next deal, so that the end of a round stays on the screen. On its
turn it shows the table, its hand sorted by suit and rank, and the legal moves, numbered.
"""

from __future__ import annotations

import random
import sys
from typing import Sequence, TextIO

from runner.errors import UserInterrupt
from runner.game import events as ev
from runner.game.actions import Action
from runner.game.bot import Bot
from runner.game.view import View
from runner.logs.narration import Narrator, action_text, ordered_actions, phase_text, suit_name
from runner.words import counted

QUIT_WORDS = ("q", "quit", "exit")


class HumanQuit(UserInterrupt):
    """The person left the match (typed q, or the input ended).

    A UserInterrupt, so that the referee lets it through like Ctrl-C instead of taking it for a
    bot's fault.
    """

    def __init__(self, message: str, input_ended: bool = False):
        super().__init__(message)
        self.input_ended = input_ended


class EventFeed(list):
    """A game log that hands each event to `listener` as it is written (the engine and the match append to it)."""

    def __init__(self, listener):
        super().__init__()
        self.listener = listener

    def append(self, event: dict) -> None:
        super().append(event)
        self.listener(event)


class HumanSeat(Bot):
    """Narrates the match on `output` and reads a move number (or Enter between rounds) from `input`."""

    name = "human"
    description = "The person at the terminal (maumau play --human)."

    def __init__(self, rng: random.Random | None = None, names: Sequence[str] = (), input: TextIO | None = None,
                 output: TextIO | None = None, seat: int | None = None, **options):
        super().__init__(rng, **options)
        self.names = list(names)
        self.input, self.output = input, output
        self.seat = seat
        self.narrator: Narrator | None = None
        self.rounds_shown = 0

    def feed(self) -> EventFeed:
        """The log to give the match: each event is told as it is written."""
        self.narrator = Narrator(self.seat, self.names)
        return EventFeed(self.on_event)

    def act(self, view: View) -> Action:
        self.seat = self.told().seat = view.seat
        legal = ordered_actions(view.legal)
        self.show(view, legal)
        return self.ask(legal)

    # ------------------------------------------------------------------ display

    def say(self, text: str = "") -> None:
        print(text, file=self.output or sys.stdout, flush=True)

    def prompt(self, text: str) -> str:
        """Ask and read a line; at a terminal the answer is typed after the question, on its line."""
        stream = self.input or sys.stdin
        at_terminal = stream.isatty() and (self.output or sys.stdout).isatty()
        print(text, file=self.output or sys.stdout, end="" if at_terminal else "\n", flush=True)
        line = stream.readline()
        if not line:
            raise HumanQuit("the input ended: the human seat left the match", input_ended=True)
        if line.strip().lower() in QUIT_WORDS:
            raise HumanQuit("you left the match")
        return line

    def who(self, seat: int) -> str:
        """`you`, or a seat's player and number (`hard#2`)."""
        return self.told().who(seat)

    def told(self) -> Narrator:
        """The narrator of the match, made at the first event (or question) if the match did not take our feed."""
        if self.narrator is None:
            self.narrator = Narrator(self.seat, self.names)
        return self.narrator

    def show(self, view: View, legal: Sequence[Action]) -> None:
        """The table, our hand and the legal moves, numbered."""
        suit = suit_name(view.suit)
        pending = f"   draw penalty waiting: {view.pending}" if view.pending else ""
        self.say(f"\ntop card: {view.top}   suit to follow: {suit}{pending}   stock: {view.stock_size}")
        others = [s for s in view.active if s != view.seat]
        self.say("players: " + "   ".join(
            f"{self.who(s)} {counted(view.hand_sizes[s], 'card')} (total {view.totals[s]})" for s in others
        ))
        self.say(f"your hand: {' '.join(str(card) for card in sorted(view.hand))}   (your total "
                 f"{view.totals[view.seat]})")
        asked = phase_text(view, self.who)
        if asked and not (view.phase == "play" and view.pending):  # a waiting draw penalty is said above
            self.say(asked)
        for number, action in enumerate(legal, 1):
            self.say(f"  {number:>2}) {action_text(action, view, self.who)}")

    # ------------------------------------------------------------------ the match as it is played

    def on_event(self, event: dict) -> None:
        """Tell one event of the game log, only what this seat may know; before each next deal, wait for Enter."""
        if event["type"] == ev.ROUND_START:
            if self.rounds_shown:
                self.pause("press Enter for the next deal")
            self.rounds_shown += 1
            self.say()
        for line in self.told().tell(event):
            self.say(line)

    # ------------------------------------------------------------------ input

    def pause(self, prompt: str) -> None:
        """Wait for Enter (q quits)."""
        self.say()
        self.prompt(f"{prompt} (q quits): ")

    def ask(self, legal: Sequence[Action]) -> Action:
        """Read lines until one names a legal action by number; q quits."""
        while True:
            line = self.prompt(f"your move [1-{len(legal)}, q to quit]: ")
            text = line.strip()
            if text.isdigit() and 1 <= int(text) <= len(legal):
                return legal[int(text) - 1]
            self.say(f"{line.strip()!r} is not a move: type a number from 1 to {len(legal)}, or q to quit")
