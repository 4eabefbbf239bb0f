"""What each third-party plugin registers, found without running its code here: every plugin in a throwaway process.

A run that keeps strangers' code out of the runner (`--isolate`, `--sandbox`) must still know the
names, descriptions and `module:Class` of their bots. `discover` starts one short-lived process
per plugin (`python -m runner.plugins.discovery NAME VALUE`), all at once, which imports that
plugin alone, calls its hooks and prints what they registered as one line of JSON; this process
only checks and reads that data. One process per plugin, so that a plugin cannot misreport
another plugin's bots. Nothing is cached: each run asks again.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from contextlib import ExitStack
from typing import Callable

from runner.errors import PluginError

from .manager import PluginSource

PATH_VARIABLE = "MAUMAU_WORKER_PATH"  # our import path, for a child process to find modules where we found them
DISCOVERY_SECONDS = 120.0  # to import one plugin and report; generous, a machine may be loaded
MAX_REPORT_BYTES = 1 << 20
TYPES = {"int": int, "float": float, "bool": bool, "str": str}  # the option types a report may name
WHERE = re.compile(r"[A-Za-z_][\w.]*:[A-Za-z_][\w.]*")


def child_environment() -> dict[str, str]:
    """A child's environment: ours, with our import path, so that it finds modules where we found them."""
    return {**os.environ, PATH_VARIABLE: os.pathsep.join(path for path in sys.path if path)}


def adopt_parent_path() -> None:
    """In a child process: put the parent's import path (child_environment) in front of ours."""
    extra = os.environ.get(PATH_VARIABLE)
    if extra:
        sys.path[:0] = [path for path in extra.split(os.pathsep) if path not in sys.path]


def contained_registry(confine: Callable | None = None):
    """The built-ins from their hooks, and each third-party plugin as its own process reports it: no plugin code runs
    here. `confine` wraps each discovery process's command (the sandbox of runner/seats/sandbox.py)."""
    from .catalog import BotEntry, Registry
    from .manager import make_manager, plugin_sources

    sources = plugin_sources()
    registry = Registry(make_manager(entry_points=False), sources)
    for source, report in discover(sources, confine):
        for bot in report["bots"]:
            command = tuple(bot["command"]) if bot["command"] is not None else None
            registry.add_entry(BotEntry(bot["name"], None, source.name, bot["description"], bot["where"], command,
                                        registry.versions[source.name], options_of(bot.get("parameters", {}))))
        for path in report["rulesets"]:
            registry.add_ruleset(path, source.name)
    return registry


def options_of(reported: dict) -> dict:
    """The runner.Option of each option a discovery report names (checked by _malformed)."""
    from runner.game.bot import Option

    return {key: Option(TYPES[o["type"]], o["default"], o["help"], o["none"], o["low"]) for key, o in reported.items()}


def option_report(option) -> dict:
    """One runner.Option as JSON data, for options_of to rebuild in the runner."""
    return {"type": option.type.__name__, "default": option.default, "help": option.help, "none": option.none,
            "low": option.low}


def discover(sources: list[PluginSource], confine: Callable | None = None) -> list[tuple[PluginSource, dict]]:
    """(source, report) per plugin: `report["bots"]` (name, description, where, command, parameters) and
    `report["rulesets"]` (paths). `confine(argv, modules)` gives (as a context manager) the argv run confined."""
    if not sources:
        return []
    with ExitStack() as stack:
        running = []
        for source in sources:
            argv = [sys.executable, "-m", "runner.plugins.discovery", source.name, source.value]
            if confine is not None:
                argv = stack.enter_context(confine(argv, [source.module]))
            try:
                process = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                           stderr=subprocess.PIPE, env=child_environment(), start_new_session=True)
            except OSError as exc:
                raise PluginError(f"cannot start the discovery of plugin {source.name!r}: {exc.strerror}") from None
            stack.callback(_end, process)
            running.append((source, process))
        return [(source, _report(source, process)) for source, process in running]


def _end(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.kill()
    process.wait()


def _report(source: PluginSource, process: subprocess.Popen) -> dict:
    """The checked report of one discovery process, or a PluginError naming the plugin."""
    try:
        out, err = process.communicate(timeout=DISCOVERY_SECONDS)
    except subprocess.TimeoutExpired:
        raise PluginError(f"plugin {source.name!r} ({source.project}) did not finish loading within "
                          f"{DISCOVERY_SECONDS:g} s") from None
    try:
        report = json.loads(out[:MAX_REPORT_BYTES].decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        tail = " | ".join(err.decode("utf-8", "replace").strip().splitlines()[-3:])[-300:]
        raise PluginError(f"plugin {source.name!r} ({source.project} {source.version}): its discovery process "
                          f"ended (code {process.returncode}) without a report" + (f"; stderr: {tail}" if tail else ""))
    if isinstance(report, dict) and isinstance(report.get("error"), str):
        raise PluginError(report["error"][:400])
    problem = _malformed(report)
    if problem:
        raise PluginError(f"plugin {source.name!r} ({source.project}): its discovery report is malformed ({problem})")
    return report


def _malformed(report: object) -> str:
    """What is wrong with a report (it comes from a process that ran the plugin's code), or ''."""
    if not isinstance(report, dict) or not isinstance(report.get("bots"), list) or not isinstance(
            report.get("rulesets"), list):
        return "expected bots and rulesets"
    for bot in report["bots"]:
        fields = ("name", "description", "where")
        if not isinstance(bot, dict) or not all(isinstance(bot.get(key), str) for key in fields):
            return "a bot without a name, description or where"
        if not bot["name"] or len(bot["name"]) > 100 or len(bot["description"]) > 1000:
            return f"bot name {bot['name'][:40]!r}"
        if not WHERE.fullmatch(bot["where"]):
            return f"bot {bot['name']!r}: {bot['where'][:80]!r} is not module:Class"
        problem = _malformed_parameters(bot.get("parameters", {}))
        if problem:
            return f"bot {bot['name']!r}: {problem}"
        command = bot.get("command")
        if command is not None and not (isinstance(command, list) and all(isinstance(x, str) for x in command)):
            return f"bot {bot['name']!r}: its command is not a list of strings"
    if not all(isinstance(path, str) for path in report["rulesets"]):
        return "a ruleset that is not a path"
    return ""


def _malformed_parameters(parameters: object) -> str:
    """What is wrong with a bot's reported options, or ''."""
    if not isinstance(parameters, dict):
        return "its parameters are not an object"
    for key, option in parameters.items():
        if not key.isidentifier() or not isinstance(option, dict) or option.get("type") not in TYPES:
            return f"option {key[:40]!r} is not a name with a type of int, float, bool or str"
        kind, default, low = TYPES[option["type"]], option.get("default"), option.get("low")
        if default is not None and not (isinstance(default, kind) or (kind is float and type(default) is int)):
            return f"option {key!r}: its default is not a {option['type']}"
        if not isinstance(option.get("help"), str) or len(option["help"]) > 1000 or not isinstance(
                option.get("none"), bool) or not (low is None or type(low) in (int, float)):
            return f"option {key!r}: help, none or low of the wrong type"
    return ""


# ---------------------------------------------------------------- the discovery process


def describe(name: str, value: str) -> dict:
    """Load the one plugin `name` (entry point `value`) and report what its hooks register."""
    import pluggy

    from . import hookspecs
    from .catalog import Registry
    from .manager import check_hooks, load_plugin, register

    pm = pluggy.PluginManager("maumau")
    pm.add_hookspecs(hookspecs)
    register(pm, load_plugin(PluginSource(name, value, "?", "?")), name)
    check_hooks(pm)
    registry = Registry(pm, sources=[])
    return {
        "bots": [{"name": e.name, "description": e.description, "where": e.where,
                  "command": list(e.command) if e.command is not None else None,
                  "parameters": {key: option_report(o) for key, o in e.parameters.items()}}
                 for e in registry.bots.values()],
        "rulesets": [str(entry.path) for entry in registry.rulesets.values()],
    }


def main(name: str, value: str) -> None:
    """Print the report of plugin `name` on the original stdout; what the plugin prints goes to stderr."""
    from runner.errors import exception_text

    channel = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    adopt_parent_path()
    try:
        report = describe(name, value)
    except BaseException as exc:  # SystemExit, KeyboardInterrupt and all: reported, never a silent end
        text = str(exc) if isinstance(exc, PluginError) else f"plugin {name!r} failed to load: {exception_text(exc)}"
        report = {"error": text}
    channel.write(json.dumps(report) + "\n")
    channel.flush()
    os._exit(0)  # neither a thread nor an atexit handler the plugin left may keep this process or change its code


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
