"""Plugins: the hookspecs, the registry of bots and rulesets, and loading the plugins of entry-point group `maumau`."""

from __future__ import annotations

from .catalog import BotEntry, Registry, RulesetEntry
from .hookspecs import hookimpl, hookspec
from .manager import BUILTIN_PLUGINS, check_hooks, make_manager

_registry: Registry | None = None


def registry(refresh: bool = False) -> Registry:
    """The process-wide registry, built on first use (workers rebuild their own)."""
    global _registry
    if _registry is None or refresh:
        _registry = Registry(make_manager())
    return _registry


__all__ = [
    "BUILTIN_PLUGINS", "BotEntry", "Registry", "RulesetEntry", "check_hooks", "hookimpl", "hookspec", "make_manager",
    "registry",
]
