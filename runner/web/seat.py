"""A browser seat: a Bot whose `act` waits for the person's choice, and what that person has been told so far."""

from __future__ import annotations

import queue
import random
import secrets
from typing import Sequence

from runner.game.actions import Action
from runner.game.bot import Bot
from runner.game.view import View
from runner.logs.narration import Narrator, ordered_actions

HISTORY = 300  # lines kept of what happened since the seat's last move (a long wait between rounds says more)
ACTS_KEPT = 24  # the table's last acts kept for the page to animate (it asks for news after each change)
ACT_TYPES = {"play", "draw", "pass", "skip", "name_suit", "challenge", "reshuffle", "round_start", "give", "swap"}


class GameStopped(KeyboardInterrupt):
    """The hosted game was stopped (its players left, or it sat idle): ends the match's thread.

    A KeyboardInterrupt, like runner/seats/human.py's HumanQuit, so that the referee lets it
    through instead of taking it for a fault of the seat.
    """


_STOP = object()  # put in a seat's answers to end its wait


class WebSeat(Bot):
    """One person's seat at a hosted game; the game (runner/web/host.py) tells it the match and answers its `act`."""

    name = "human"
    description = "A person in a browser (maumau serve)."

    def __init__(self, rng: random.Random | None = None, **options):
        super().__init__(rng, **options)
        self.token = secrets.token_urlsafe(18)
        self.seat: int | None = None  # None while waiting to join at the next round
        self.narrator: Narrator | None = None
        self.since: list[tuple[int, str]] = []  # (round, line) since this seat's last move
        self.acts: list[dict] = []  # the table's last acts, public fields only, numbered (public_act)
        self.acted = 0  # acts heard so far: the number of the next one
        self.view: View | None = None  # what the seat may know, as of the last decision at the table
        self.moves: list[Action] = []  # the legal actions of a decision waiting for the person, in the order shown
        self.turn = 0  # decisions asked of this seat so far; an answer names the one it answers
        self.ready = False  # between rounds: the person asked for the next round
        self.leaving = False  # leaves before the next round; meanwhile its turns are played at random
        self.status = "playing"  # playing, waiting (to join), eliminated, left, forfeit
        self.seen = 0.0  # when the person's page last asked for news (the game's clock)
        self.version = 0  # changes of what this seat is shown (runner/web/app.py's long poll waits for the next)
        self._shown: dict | None = None
        self._answers: queue.Queue = queue.Queue()

    def seat_at(self, seat: int, names: Sequence[str] = (), told: Sequence[dict] = ()) -> None:
        """Take `seat`; the narrator catches up silently on the events `told` before (a player joining late)."""
        self.seat, self.status = seat, "playing"
        self.narrator = Narrator(seat, names)
        for event in told:
            self.narrator.tell(event)

    def hear(self, event: dict) -> None:
        """One event of the game log, told to this seat (only what it may know)."""
        if self.narrator is None:
            return
        lines = self.narrator.tell(event)
        if event["type"] in ACT_TYPES and (lines or event["type"] == "round_start"):  # unsaid is unseen (a jump-in
            # declined out of the others' sight)
            if event["type"] in ("round_start", "reshuffle"):  # the cards played before may now be in the stock
                self.acts = []
            self.acted += 1
            self.acts.append(public_act(event, self.acted))
            del self.acts[:-ACTS_KEPT]
        if event["type"] == "round_end":  # the report shows the rest: hands left, points, totals
            lines = lines[:1]
        number = self.narrator.table.round
        self.since.extend((number, line) for line in lines)
        del self.since[:-HISTORY]

    def numbered(self, state: dict) -> dict:
        """`state` with this seat's version: the same as last time if nothing in it changed, else the next one."""
        if state != self._shown:
            self.version += 1
            self._shown = state
        return {**state, "version": self.version}

    # ------------------------------------------------------------------ the decision

    def act(self, view: View) -> Action:
        """Wait for the person's choice (the game thread blocks here); a seat on its way out plays at random."""
        if self.leaving:
            return view.legal[int(self.rng.random() * len(view.legal))]
        answer = self._answers.get()
        if answer is _STOP:
            raise GameStopped("the game was stopped")
        return answer

    def ask(self, view: View) -> None:
        """A decision is waiting (called by the game, under its lock, just before `act`)."""
        self.view, self.moves = view, ordered_actions(view.legal)
        self.turn += 1

    def answer(self, index: int) -> Action:
        """Choose the `index`-th move shown; the seat's `act` returns it."""
        action = self.moves[index]
        self.moves, self.since = [], []
        self._answers.put(action)
        return action

    def give_up_turn(self) -> None:
        """A seat leaving in the middle of its decision: a random move, as for its later turns this round."""
        if self.moves:
            self.answer(int(self.rng.random() * len(self.moves)))

    def stop(self) -> None:
        self.moves = []
        self._answers.put(_STOP)


def public_act(event: dict, number: int) -> dict:
    """What everyone at the table saw of `event`, for the page's animation: who, what kind, the cards played (face
    up), how many were drawn; never a hand, never the stock, not even a card this seat drew or gave (it may be in
    another hand by now)."""
    kind, seat = event["type"], event.get("seat")
    act: dict = {"n": number, "type": kind, "seat": seat}
    if kind == "play":
        act.update(cards=[event["card"], *event.get("more", ())], suit=event.get("suit"), rank=event.get("rank"),
                   announce=event.get("announce"), jump_in=bool(event.get("jump_in")))
    elif kind == "draw":
        act.update(count=len(event["cards"]), reason=event.get("reason"))
    elif kind == "name_suit":
        act["suit"] = event["suit"]
    elif kind == "challenge":
        act["target"] = event.get("target")
    elif kind in ("give", "swap"):
        act["to"] = event.get("to", event.get("with"))
    elif kind == "round_start":
        act.update(round=event.get("round"), first=event.get("first"))
    return act
