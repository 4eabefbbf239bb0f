"""The Bot base class that every strategy, built-in or third-party, subclasses, and CommandBot for programs."""

from __future__ import annotations

import random

from .actions import Action
from .view import View


class Bot:
    """A Mau Mau player: one instance per seat per match; `act` picks one of `view.legal`.

    Draw all randomness from `self.rng` (seeded by the runner from the match seed and seat),
    so that a match replays exactly from its seed.
    """

    name: str = ""
    description: str = ""

    def __init__(self, rng: random.Random | None = None, **options):
        self.rng = rng if rng is not None else random.Random()
        self.options = options

    def act(self, view: View) -> Action:
        """The action to take; must be one of `view.legal` (a Play may leave out its announcement)."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"


class CommandBot(Bot):
    """Register a subclass with `command = ["node", "bot.js"]` to enter an external program by name.

    The program speaks the protocol of docs/protocol.md; the runner never calls `act` of this class.
    """

    command: tuple[str, ...] | list[str] = ()

    def act(self, view: View) -> Action:
        raise RuntimeError(f"{type(self).__name__} runs as a command; build it through runner.seats.botmaker")
