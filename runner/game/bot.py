"""The Bot base class that every strategy, built-in or third-party, subclasses, and CommandBot for programs."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import ClassVar

from .actions import Action
from .view import View

OPTION_TYPES = (int, float, bool, str)


@dataclass(frozen=True)
class Option:
    """One keyword option a bot takes from the command line (`-b 'hard:rollouts=200'`), declared in `Bot.parameters`.

    `type` is int, float, bool or str; `default` is what the bot uses when it is not given (None
    allows the value `none`, as `none=True` does); `low` is the least value a number may take.
    """

    type: type
    default: object = None
    help: str = ""
    none: bool = False
    low: float | None = None


_DEFAULTS: dict[type, tuple[dict[str, Option], dict[str, object]]] = {}  # class -> (its parameters, their defaults)


class Bot:
    """A Mau Mau player: one instance per seat per match; `act` picks one of `view.legal`.

    Draw all randomness from `self.rng` (seeded by the runner from the match seed and seat),
    so that a match replays exactly from its seed. `parameters` declares the options the bot
    takes on the command line; the runner passes those given as keyword arguments to the
    constructor, and `self.options` holds every declared option's value (given or default).
    """

    name: str = ""
    description: str = ""
    parameters: ClassVar[dict[str, Option]] = {}

    def __init__(self, rng: random.Random | None = None, **options):
        self.rng = rng if rng is not None else random.Random()
        # the defaults made once per class (a bot is made for every seat of every match), again if its
        # `parameters` was replaced since; each bot its own dict, which it may change
        known = _DEFAULTS.get(type(self))
        if known is None or known[0] is not self.parameters:
            known = _DEFAULTS[type(self)] = (self.parameters, {key: o.default for key, o in self.parameters.items()})
        self.options = known[1] | options if options else known[1].copy()

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
