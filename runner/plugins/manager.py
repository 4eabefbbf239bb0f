"""Loading the plugins: a PluginManager with the hookspecs, the built-in plugins and the entry-point group `maumau`."""

from __future__ import annotations

import importlib.metadata
import sys
from dataclasses import dataclass

import pluggy

from runner.errors import PluginError, exception_text, raised_by_user

from . import hookspecs

BUILTIN_PLUGINS = ("maumau.bots.random_bot", "maumau.bots.medium", "maumau.bots.hard", "maumau.rulesets.builtin")
GROUP = "maumau"


@dataclass(frozen=True)
class PluginSource:
    """A third-party plugin as its package metadata declares it: read without running any of its code."""

    name: str  # the entry point's name: the plugin's name in the registry
    value: str  # `module` or `module:attribute`
    project: str  # the distribution that declares it
    version: str

    @property
    def module(self) -> str:
        return self.value.partition(":")[0].strip()


def plugin_sources() -> list[PluginSource]:
    """The entry points of group `maumau`, as pluggy loads them: the first one of each name, with its distribution."""
    found: dict[str, PluginSource] = {}
    for dist in importlib.metadata.distributions():
        for ep in dist.entry_points:
            if ep.group == GROUP and ep.name not in found:
                found[ep.name] = PluginSource(ep.name, ep.value, dist.metadata["Name"] or "?", dist.version or "?")
    return list(found.values())


def load_plugin(source: PluginSource) -> object:
    """Import a plugin's module (this runs its code); whatever it raises, SystemExit included, names the plugin."""
    try:
        return importlib.metadata.EntryPoint(source.name, source.value, GROUP).load()
    except BaseException as exc:
        if raised_by_user(exc):
            raise
        raise PluginError(f"plugin {source.name!r} ({source.value}, from {source.project} {source.version}) failed "
                          f"to load: {exception_text(exc)}; fix or uninstall {source.project}") from None


def make_manager(entry_points: bool = True) -> pluggy.PluginManager:
    """A PluginManager with the hookspecs, the built-in plugins and (optionally) entry-point plugins."""
    pm = pluggy.PluginManager(GROUP)
    pm.add_hookspecs(hookspecs)
    for module_name in BUILTIN_PLUGINS:
        __import__(module_name)
        pm.register(sys.modules[module_name], name=module_name)
    if entry_points:
        for source in plugin_sources():
            if not pm.has_plugin(source.name) and not pm.is_blocked(source.name):
                register(pm, load_plugin(source), source.name)
    check_hooks(pm)
    return pm


def register(pm: pluggy.PluginManager, plugin: object, name: str) -> None:
    """`pm.register`, which reads the plugin's attributes (its code may run): a failure names the plugin."""
    try:
        pm.register(plugin, name=name)
    except pluggy.PluginValidationError as exc:
        raise PluginError(f"plugin {name!r}: {exc}") from None
    except BaseException as exc:
        if raised_by_user(exc):
            raise
        raise PluginError(f"plugin {name!r} could not be registered: {exception_text(exc)}") from None


def check_hooks(pm: pluggy.PluginManager) -> None:
    """Fail at start-up, naming the plugin, when a plugin implements a hook that does not exist (a typo)."""
    try:
        pm.check_pending()
    except pluggy.PluginValidationError as exc:
        problem = str(exc).split(" in plugin ")[0]
        hooks = ", ".join(name for name in dir(hookspecs) if name.startswith("register_"))
        raise PluginError(f"plugin {pm.get_name(exc.plugin)!r}: {problem}; the hooks are {hooks}") from None
