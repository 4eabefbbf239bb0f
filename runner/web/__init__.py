"""The browser game and viewers of `maumau serve`: play against the bots, watch tournaments, replay matches.

Needs the `web` extra (Starlette and uvicorn); `require()` says so in one line when it is missing.
"""

from __future__ import annotations

import importlib.util

from runner.errors import MaumauError, install_hint

NEEDS = ("starlette", "uvicorn")


def require() -> None:
    """Refuse, with the fix, when the web extra is not installed."""
    missing = [name for name in NEEDS if importlib.util.find_spec(name) is None]
    if missing:
        verb = "is" if len(missing) == 1 else "are"
        raise MaumauError(f"maumau serve needs {' and '.join(missing)}, which {verb} not installed: "
                          f"{install_hint('web')}")
