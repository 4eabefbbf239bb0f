"""maumau: the public surface for bot writers and plugin authors."""

from .actions import Action, Challenge, Draw, NameSuit, Pass, Play
from .bot import Bot
from .cards import RANKS, SUITS, Card, parse_card
from .engine import Round
from .hookspecs import hookimpl, hookspec
from .rules import Ruleset
from .view import Event, View

__version__ = "0.1.0"

__all__ = [
    "Action", "Bot", "Card", "Challenge", "Draw", "Event", "NameSuit", "Pass", "Play", "RANKS", "Round",
    "Ruleset", "SUITS", "View", "hookimpl", "hookspec", "parse_card",
]
