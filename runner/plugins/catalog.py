"""The registry: every bot and ruleset the plugins registered, each with the plugin that registered it."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pluggy

from runner.errors import PluginError, RulesetError, UnknownName

from .botspec import BotSpec, parse, split


@dataclass(frozen=True)
class BotEntry:
    name: str
    cls: type
    plugin: str
    description: str
    parameters: dict = field(default_factory=dict)  # option name -> runner.Option, as the class declares them


@dataclass(frozen=True)
class RulesetEntry:
    name: str
    path: Path
    plugin: str


class Registry:
    """Every registered bot and ruleset, each with the plugin that registered it."""

    def __init__(self, pm: pluggy.PluginManager):
        self.pm = pm
        self.bots: dict[str, BotEntry] = {}
        self.rulesets: dict[str, RulesetEntry] = {}
        for impl in pm.hook.register_bots.get_hookimpls():
            impl.function(register=lambda cls, _p=impl.plugin_name: self._add_bot(cls, _p))
        for impl in pm.hook.register_rulesets.get_hookimpls():
            impl.function(register=lambda path, _p=impl.plugin_name: self._add_ruleset(path, _p))

    def _add_bot(self, cls: type, plugin: str) -> None:
        from runner.game.bot import Bot

        if not (isinstance(cls, type) and issubclass(cls, Bot)):
            raise PluginError(f"plugin {plugin!r}, hook register_bots: {cls!r} is not a runner.Bot subclass")
        name = getattr(cls, "name", "")
        if not isinstance(name, str) or not name:
            raise PluginError(f"plugin {plugin!r}, hook register_bots: {cls.__name__} has no `name`")
        if name in self.bots:
            raise PluginError(
                f"bot name {name!r} is registered twice: by plugin {self.bots[name].plugin!r} and by {plugin!r}"
            )
        if ":" in name or "," in name:
            raise PluginError(f"plugin {plugin!r}, hook register_bots: bot name {name!r} holds ':' or ',', which "
                              "set off a bot's options on the command line; rename it")
        text = (cls.description or cls.__doc__ or "").strip()
        parameters = checked_parameters(cls, plugin)
        self.bots[name] = BotEntry(name, cls, plugin, text.splitlines()[0] if text else "", parameters)

    def _add_ruleset(self, path, plugin: str) -> None:
        from runner.rules import read_yaml

        path = Path(path)
        data = read_yaml(path)
        name = data.get("name")
        if not isinstance(name, str) or not name:
            raise RulesetError(str(path), "name", "a registered ruleset needs a name", "add `name: my-variant`")
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
