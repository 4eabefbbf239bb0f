"""Plugins: the hookspecs, the registry of bots and rulesets, and loading the plugins of entry-point group `maumau`."""

from __future__ import annotations

from typing import Callable

from .catalog import BotEntry, Registry, RulesetEntry
from .discovery import contained_registry
from .hookspecs import hookimpl, hookspec
from .manager import BUILTIN_PLUGINS, PluginSource, check_hooks, make_manager, plugin_sources

_registry: Registry | None = None
_contained: dict[bool, Registry] = {}  # keyed by whether discovery ran confined (sandboxed)


def registry(refresh: bool = False, *, contained: bool = False, confine: Callable | None = None) -> Registry:
    """The process-wide registry, built on first use (workers rebuild their own).

    `contained`: third-party plugins are discovered out of process and never imported here (for
    `--isolate` and `--sandbox`); `confine` then wraps each discovery process (the sandbox).
    """
    global _registry
    if contained:
        key = confine is not None
        if key not in _contained or refresh:
            _contained[key] = contained_registry(confine)
        return _contained[key]
    if _registry is None or refresh:
        _registry = Registry(make_manager())
    return _registry


__all__ = [
    "BUILTIN_PLUGINS", "BotEntry", "PluginSource", "Registry", "RulesetEntry", "check_hooks", "hookimpl", "hookspec",
    "make_manager", "plugin_sources", "registry",
]
