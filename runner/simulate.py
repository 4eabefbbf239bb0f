"""The engine as a simulator for search bots, under its public name: runner/botkit/simulate.py holds the code.

A bot's own playout policies live with the bot: the `hard` bot's `heuristic_policy` (it plays
like `medium`) is imported from bots/hard.py, `from maumau.bots.hard import heuristic_policy`.
"""

from runner.botkit.simulate import *  # noqa: F401,F403
from runner.botkit.simulate import __all__ as __all__  # noqa: F401
