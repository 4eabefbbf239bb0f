"""The engine as a simulator for search bots, under its public name: runner/botkit/simulate.py holds the code.

`heuristic_policy`, the playout policy of the `hard` bot (it plays like `medium`), lives with
that bot in bots/hard.py; it is still importable from here, loaded when first asked for.
"""

from runner.botkit.simulate import *  # noqa: F401,F403
from runner.botkit.simulate import __all__ as _simulate_all

__all__ = [*_simulate_all, "heuristic_policy"]  # noqa: F405 (heuristic_policy: __getattr__ below)


def __getattr__(name: str):
    if name == "heuristic_policy":  # bots/ is above runner/: imported on first use, never at import time
        from maumau.bots.hard import heuristic_policy

        return heuristic_policy
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
