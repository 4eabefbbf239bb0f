"""The registry: every bot and ruleset the plugins registered, each with the plugin that registered it.

Built either in this process, from the plugins' own hooks (`Registry(pm)`), or, for a run that
keeps third-party code out (`--isolate`, `--sandbox`), with the built-ins from their hooks and
every third-party plugin from what its throwaway discovery process reported
(`contained_registry` in runner/plugins/discovery.py): its bots then have no class here, only
the `module:Class` their own process imports.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import pluggy

from runner.errors import MaumauError, PluginError, RulesetError, UnknownName, exception_text, raised_by_user

from .botspec import BotSpec, parse, split
from .manager import BUILTIN_PLUGINS, PluginSource, plugin_sources


@dataclass(frozen=True)
class BotEntry:
    """A registered bot: `where` is the `module:Class` a bot process imports; `cls` is None where it is not imported."""

    name: str
    cls: type | None
    plugin: str
    description: str
    where: str = ""
    command: tuple[str, ...] | None = None  # a CommandBot's program and arguments
    version: str = ""  # the plugin's package and version, e.g. `cautious-bot 1.2` (`maumau 0.1.0` for a built-in)
    parameters: dict = field(default_factory=dict)  # option name -> runner.Option, as the class declares them


@dataclass(frozen=True)
class RulesetEntry:
    name: str
    path: Path
    plugin: str


class Registry:
    """Every registered bot and ruleset, each with the plugin that registered it."""

    def __init__(self, pm: pluggy.PluginManager, sources: list[PluginSource] | None = None):
        self.pm = pm
        self.bots: dict[str, BotEntry] = {}
        self.rulesets: dict[str, RulesetEntry] = {}
        self.versions = versions_of(plugin_sources() if sources is None else sources)
        for impl in pm.hook.register_bots.get_hookimpls():
            _call_hook(impl, "register_bots", lambda cls, _p=impl.plugin_name: self._add_bot(cls, _p))
        for impl in pm.hook.register_rulesets.get_hookimpls():
            _call_hook(impl, "register_rulesets", lambda path, _p=impl.plugin_name: self.add_ruleset(path, _p))

    def _add_bot(self, cls: type, plugin: str) -> None:
        from runner.game.bot import Bot, CommandBot

        if not (isinstance(cls, type) and issubclass(cls, Bot)):
            raise PluginError(f"plugin {plugin!r}, hook register_bots: {cls!r:.80} is not a runner.Bot subclass")
        name = getattr(cls, "name", "")
        if not isinstance(name, str) or not name:
            raise PluginError(f"plugin {plugin!r}, hook register_bots: {cls.__name__} has no `name`")
        if ":" in name or "," in name:
            raise PluginError(f"plugin {plugin!r}, hook register_bots: bot name {name!r} holds ':' or ',', which "
                              "set off a bot's options on the command line; rename it")
        text = (cls.description or cls.__doc__ or "").strip()
        command = tuple(str(part) for part in cls.command) if issubclass(cls, CommandBot) else None
        where = f"{cls.__module__}:{cls.__qualname__}"
        self.add_entry(BotEntry(name, cls, plugin, text.splitlines()[0] if text else "", where, command,
                                self.versions.get(plugin, ""), checked_parameters(cls, plugin)))

    def add_entry(self, entry: BotEntry) -> None:
        """Add a bot found elsewhere (a discovery process); a name taken is an error naming both plugins."""
        if entry.name in self.bots:
            raise PluginError(
                f"bot name {entry.name!r} is registered twice: by plugin {self.bots[entry.name].plugin!r} and by "
                f"{entry.plugin!r}"
            )
        self.bots[entry.name] = entry

    def add_ruleset(self, path, plugin: str) -> None:
        """Add the ruleset file at `path`, registered by `plugin` (read as data, never run)."""
        from runner.rules import read_yaml

        path = Path(path)
        data = read_yaml(path)
        name = data.get("name")
        if not isinstance(name, str) or not name:
            raise RulesetError(str(path), "name", "a registered ruleset needs a name", "add `name: my-variant`")
        taken = self.rulesets.get(name)
        if taken is not None and _yields(taken) != _yields(RulesetEntry(name, path, plugin)):
            # a plugin's ruleset keeps a name the gallery took later (registered by name since issue 29); the
            # gallery's file still plays by its path
            if _yields(taken):
                self.rulesets[name] = RulesetEntry(name, path, plugin)
            return
        if name in self.rulesets:
            raise PluginError(
                f"ruleset name {name!r} is registered twice: by plugin {self.rulesets[name].plugin!r} "
                f"({self.rulesets[name].path}) and by {plugin!r} ({path})"
            )
        self.rulesets[name] = RulesetEntry(name, path, plugin)

    def spec(self, player: str) -> BotSpec:
        """The bot and options `player` names (`hard:rollouts=200`), checked; MaumauError listing the options."""
        name, pairs = split(player)
        entry = self.bot(name)
        return parse(player, name, entry.parameters, pairs)

    def bot(self, name: str) -> BotEntry:
        try:
            return self.bots[name]
        except KeyError:
            raise UnknownName(f"unknown bot {name!r}; registered: {', '.join(sorted(self.bots))}") from None

    def ruleset_path(self, name: str) -> Path | None:
        entry = self.rulesets.get(name)
        return entry.path if entry else None

    def load_ruleset(self, name_or_file: str, overrides=None):
        """The validated Ruleset registered as `name_or_file`, or read from that YAML file."""
        from runner.rules import load

        return load(self._ruleset_file(name_or_file), self.ruleset_path, overrides)

    def check_ruleset(self, name_or_file: str):
        """(the validated Ruleset, the notes `rulesets check` prints) for a registered name or a YAML file."""
        from runner.rules import check

        return check(self._ruleset_file(name_or_file), self.ruleset_path)

    def _ruleset_file(self, name_or_file: str) -> Path:
        from runner.rules import exists

        path = self.ruleset_path(name_or_file)
        if path is None:
            candidate = Path(name_or_file)
            if candidate.suffix in (".yaml", ".yml") or exists(candidate):
                if not exists(candidate):
                    raise RulesetError(name_or_file, None, "no such file", "check the path")
                path = candidate
            else:
                raise UnknownName(
                    f"unknown ruleset {name_or_file!r}; registered: {', '.join(sorted(self.rulesets))} (or give a "
                    ".yaml file)"
                )
        return path


def _yields(entry: RulesetEntry) -> bool:
    """Whether `entry` is one of the built-in gallery's (rulesets/gallery/), which give way to a plugin's name."""
    return entry.plugin == "maumau.rulesets.builtin" and Path(entry.path).parent.name == "gallery"


def versions_of(sources: list[PluginSource]) -> dict[str, str]:
    """Per plugin, the package and version it comes from (read from metadata, no plugin code)."""
    import runner

    versions = {name: f"maumau {runner.__version__}" for name in BUILTIN_PLUGINS}
    versions.update({source.name: f"{source.project} {source.version}" for source in sources})
    return versions


def _call_hook(impl, hook: str, register: Callable) -> None:
    """Call one plugin's hook implementation: whatever its code raises (SystemExit too) is an error naming it."""
    try:
        impl.function(register=register)
    except MaumauError:
        raise  # raised by our own checks of what it registered: already names the plugin
    except BaseException as exc:
        if raised_by_user(exc):
            raise
        raise PluginError(f"plugin {impl.plugin_name!r}, hook {hook}: raised {exception_text(exc)}") from None
def checked_parameters(cls: type, plugin: str) -> dict:
    """The options a bot class declares (`parameters`), each a runner.Option of a type the command line can give."""
    from runner.game.bot import OPTION_TYPES, Option

    declared = getattr(cls, "parameters", {})
    where = f"plugin {plugin!r}, hook register_bots: {cls.__name__}.parameters"
    if not isinstance(declared, dict):
        raise PluginError(f"{where} must be a dict of option name to runner.Option, got {type(declared).__name__}")
    for key, option in declared.items():
        if not isinstance(key, str) or not key.isidentifier():
            raise PluginError(f"{where}: option name {key!r} is not a Python identifier")
        if not isinstance(option, Option) or option.type not in OPTION_TYPES:
            raise PluginError(f"{where}: {key!r} must be a runner.Option of int, float, bool or str")
    return dict(declared)
