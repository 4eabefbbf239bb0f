"""Loading the plugins: a PluginManager with the hookspecs, the built-in plugins and the entry-point group `maumau`."""

from __future__ import annotations

import sys

import pluggy

from runner.errors import PluginError

from . import hookspecs

BUILTIN_PLUGINS = ("bots.random_bot", "bots.medium", "bots.hard", "rulesets.builtin")


def make_manager(entry_points: bool = True) -> pluggy.PluginManager:
    """A PluginManager with the hookspecs, the built-in plugins and (optionally) entry-point plugins."""
    pm = pluggy.PluginManager("maumau")
    pm.add_hookspecs(hookspecs)
    for module_name in BUILTIN_PLUGINS:
        __import__(module_name)
        pm.register(sys.modules[module_name], name=module_name)
    if entry_points:
        try:
            pm.load_setuptools_entrypoints("maumau")
        except Exception as exc:  # a broken third-party plugin: name it, do not crash with a traceback
            raise PluginError(f"a plugin of entry-point group 'maumau' failed to load: {exc}") from exc
    check_hooks(pm)
    return pm


def check_hooks(pm: pluggy.PluginManager) -> None:
    """Fail at start-up, naming the plugin, when a plugin implements a hook that does not exist (a typo)."""
    try:
        pm.check_pending()
    except pluggy.PluginValidationError as exc:
        problem = str(exc).split(" in plugin ")[0]
        hooks = ", ".join(name for name in dir(hookspecs) if name.startswith("register_"))
        raise PluginError(f"plugin {pm.get_name(exc.plugin)!r}: {problem}; the hooks are {hooks}") from None
