"""Hook specifications of the `maumau` plugin system."""

from __future__ import annotations

from typing import Callable

import pluggy

hookspec = pluggy.HookspecMarker("maumau")
hookimpl = pluggy.HookimplMarker("maumau")


@hookspec
def register_bots(register: Callable[[type], None]) -> None:
    """Register bot classes.

    :param register: call ``register(bot_class)`` once per `runner.Bot` subclass.
    """


@hookspec
def register_rulesets(register: Callable[[object], None]) -> None:
    """Register ruleset files.

    :param register: call ``register(path_to_yaml)`` once per ruleset file.
    """
