"""Bots with options on the command line: `-b 'hard:rollouts=200,budget=0.05'`, checked against what the bot declares.

A spec is a registered name, optionally followed by `:KEY=VALUE,...`; every key must be one of
the options the bot's class declares in `parameters` (runner.game.bot.Option), and every value
must read as the option's type. `exec:` entrants are commands, never specs: they keep their argv.
The canonical text (the options in declared order, values written back from their types) labels
the entrant and is what a tournament stores.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from runner.errors import MaumauError
from runner.game.bot import Option

EXEC_PREFIX = "exec:"  # as runner.seats.external spells it: an external command, not a spec
TRUE, FALSE = ("true", "yes", "on", "1"), ("false", "no", "off", "0")
TYPE_NAMES = {int: "INT", float: "FLOAT", bool: "BOOL", str: "TEXT"}


@dataclass(frozen=True)
class BotSpec:
    """A registered bot and the options it is built with, in the order the bot declares them."""

    name: str
    options: tuple[tuple[str, object], ...] = ()

    @property
    def text(self) -> str:
        """`hard:rollouts=200`: the canonical spec, which labels the entrant."""
        if not self.options:
            return self.name
        return self.name + ":" + ",".join(f"{key}={value_text(value)}" for key, value in self.options)

    @property
    def kwargs(self) -> dict:
        return dict(self.options)


def bot_name(player: str) -> str:
    """The registered name in a spec (an `exec:` command is its own name)."""
    return player if player.startswith(EXEC_PREFIX) else player.partition(":")[0]


def split(player: str) -> tuple[str, list[tuple[str, str]]]:
    """The name and the raw KEY=VALUE pairs of a spec; MaumauError if it is not NAME[:KEY=VALUE,...]."""
    name, colon, rest = player.partition(":")
    if not colon:
        return name, []
    pairs = []
    for item in rest.split(","):
        key, equals, value = item.partition("=")
        if not equals or not key.strip():
            raise MaumauError(f"bot {player!r}: expected NAME:KEY=VALUE[,KEY=VALUE...], got {item!r:.40}; "
                              f"e.g. -b 'hard:rollouts=200'")
        pairs.append((key.strip(), value.strip()))
    return name, pairs


def parse(player: str, name: str, parameters: dict[str, Option], pairs: list[tuple[str, str]]) -> BotSpec:
    """The spec of `player` (bot `name`, which declares `parameters`), every option checked and converted."""
    given: dict[str, object] = {}
    for key, raw in pairs:
        option = parameters.get(key)
        if option is None:
            raise MaumauError(f"bot {player!r}: {name} takes no option {key!r}; {listing(name, parameters)}")
        if key in given:
            raise MaumauError(f"bot {player!r}: option {key!r} is given twice")
        try:
            given[key] = convert(option, raw)
        except ValueError as exc:
            raise MaumauError(f"bot {player!r}: {key} {exc}; {listing(name, parameters)}") from None
    return BotSpec(name, tuple((key, given[key]) for key in parameters if key in given))


def convert(option: Option, raw: str) -> object:
    """The value `raw` (command-line text) stands for, of the option's type; ValueError saying what was expected."""
    kind = option.type
    if raw.lower() == "none" and (option.none or option.default is None):
        return None
    what = {int: "an integer", float: "a number", bool: "true or false", str: "a text"}[kind] + (
        " or none" if option.none or option.default is None else "")
    try:
        if kind is bool:
            if raw.lower() not in TRUE + FALSE:
                raise ValueError
            value: object = raw.lower() in TRUE
        elif kind is float:
            value = float(raw)
            if not math.isfinite(value):
                raise ValueError
        else:
            value = kind(raw)
    except ValueError:
        raise ValueError(f"must be {what}, got {raw!r:.40}") from None
    if option.low is not None and value < option.low:
        raise ValueError(f"must be at least {option.low:g}, got {raw!r:.40}")
    return value


def value_text(value: object) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value) if isinstance(value, float) else str(value)


def listing(name: str, parameters: dict[str, Option]) -> str:
    """`its options: rollouts=INT (720), budget=FLOAT (none); ...`, or that it takes none."""
    if not parameters:
        return f"{name} takes no options"
    return ("its options: " + ", ".join(f"{key}={usage(option)}" for key, option in parameters.items())
            + " (default in brackets; `maumau bots` says what each does)")


def usage(option: Option) -> str:
    """`INT (720)`: an option's type and default."""
    return f"{TYPE_NAMES[option.type]} ({value_text(option.default)})"
