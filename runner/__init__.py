"""maumau: the public surface for bot writers and plugin authors."""

from . import accel  # noqa: F401  first, before any engine module: MAUMAU_PURE=1 and stale builds load the .py
from .game.actions import Action, Challenge, Draw, Give, NameSuit, Pass, Play, Swap
from .game.bot import Bot, Option
from .game.cards import RANKS, SUITS, Card, parse_card
from .game.engine import Game, Outcome, Round
from .game.ruleset import Ruleset
from .game.view import Event, View
from .plugins.hookspecs import hookimpl, hookspec

__version__ = "0.1.0"

__all__ = [
    "Action", "Bot", "Card", "Challenge", "Draw", "Event", "Game", "Give", "NameSuit", "Option", "Outcome", "Pass",
    "Play", "RANKS", "Round", "Ruleset", "SUITS", "Swap", "View", "hookimpl", "hookspec", "parse_card",
]
