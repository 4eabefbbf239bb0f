"""The layer contract of runner/: each layer imports only the layers below it, no module imports itself in a cycle, and
no module of runner/ imports the built-in plugins (bots/, rulesets/), which sit above every layer.

The imports are read from the source of every module, anywhere in it: with `ast` for Python
(function-level, lazy and TYPE_CHECKING imports included, and `importlib.import_module` or
`__import__` of a literal name), so that an import moved into a function to dodge a cycle still
counts; line by line for the Cython kernels (.pyx, and the .pxd declarations they cimport).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RUNNER = ROOT / "runner"

# Bottom up; docs/explanation/design.md shows the same order. web (maumau serve) sits at the top beside cli,
# below it only because cli's `serve` command starts it.
LAYERS = ("errors", "game", "rules", "logs", "plugins", "seats", "table", "tournament", "botkit", "analysis", "web",
          "cli")
# The built-in plugins: packages of their own (setup.py maps their folders), above every layer of runner/. runner
# loads them by name as plugins (runner/plugins/manager.py), never by an import.
PLUGINS = {"maumau.bots": ROOT / "bots", "maumau.rulesets": ROOT / "rulesets"}
ABOVE = len(LAYERS)  # the plugins' layer

# Modules in no layer: each counts as the highest layer it imports, so a layer may import it only
# if it could import everything it imports.
UNLAYERED = {
    "runner": "the public surface for bot writers: re-exports of the game layer and plugins.hookimpl",
    "runner.simulate": "the public name of runner.botkit.simulate",
    "runner.accel": "the optional accelerator's import finder (standard library only), imported first by runner",
    "runner.words": "counted nouns for messages of every layer; imports nothing",
}
SUFFIXES = (".py", ".pyx", ".pxd")


def module_name(path: Path, package: str = "", folder: Path = ROOT) -> str:
    parts = path.relative_to(folder).with_suffix("").parts
    parts = tuple(package.split(".") if package else ()) + parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def sources() -> dict[str, list[Path]]:
    """Every module of runner/ and of the plugins: its source files (a kernel: its .pyx and .pxd)."""
    found: dict[str, list[Path]] = {}
    trees = [("", ROOT, RUNNER)] + [(package, folder, folder) for package, folder in PLUGINS.items()]
    for package, folder, tree in trees:
        for path in sorted(tree.rglob("*")):
            if path.suffix in SUFFIXES and "__pycache__" not in path.parts:
                found.setdefault(module_name(path, package, folder), []).append(path)
    return found


MODULES = sources()
# `import x` / `from x import a, b` / `from x cimport (a, b)` / `cimport x`, in Cython source (read line by line)
CYTHON_IMPORT = re.compile(r"^\s*(?:from\s+([\w.]+)\s+c?import\s+(\([^)]*\)|[^#\n]+)|c?import\s+([^#\n]+))",
                           re.MULTILINE)


def resolved(source: str, names: list[str], modules) -> list[str]:
    """The modules `from source import names` imports: `source.name` where that is a module, else `source`."""
    return [f"{source}.{name}" if f"{source}.{name}" in modules else source for name in names]


def imported(text: str, name: str, is_package: bool, cython: bool = False, modules=None) -> set[str]:
    """The modules of `modules` (default: every module of runner/ and of the plugins) that the source `text` of module
    `name` imports, anywhere in it."""
    modules = MODULES if modules is None else modules
    package = name if is_package else name.rpartition(".")[0]
    targets: list[str] = []

    def relative(level: int, module: str | None) -> str:
        base = package.rsplit(".", level - 1)[0] if level > 1 else package
        return f"{base}.{module}" if module else base

    if cython:
        for match in CYTHON_IMPORT.finditer(text):
            source, names, plain = match.groups()
            if plain is not None:
                targets += [part.split()[0] for part in plain.split(",") if part.strip()]
                continue
            level = len(source) - len(source.lstrip("."))
            source = relative(level, source.lstrip(".") or None) if level else source
            names = [part.split()[0] for part in names.strip("()").split(",") if part.split()]
            targets += resolved(source, names, modules)
    else:
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Import):
                targets += [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                source = relative(node.level, node.module) if node.level else node.module or ""
                # `from package import module` imports that module; `from module import name` the module
                targets += resolved(source, [alias.name for alias in node.names], modules)
            elif (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant)
                  and isinstance(node.args[0].value, str) and _import_call(node.func)):
                targets.append(node.args[0].value)  # importlib.import_module("x"), __import__("x")
    found = set()
    for target in targets:
        while target and target not in modules and "." in target:  # `import runner.x.y as z` and the like
            target = target.rpartition(".")[0]
        if target in modules and target != name:
            found.add(target)
    return found


def _import_call(func: ast.expr) -> bool:
    return ((isinstance(func, ast.Name) and func.id in ("__import__", "import_module"))
            or (isinstance(func, ast.Attribute) and func.attr == "import_module"))


def imports_of(name: str) -> set[str]:
    """The modules that module `name` imports, anywhere in its source (every file of it)."""
    found = set()
    for path in MODULES[name]:
        found |= imported(path.read_text(), name, path.stem == "__init__", cython=path.suffix != ".py")
    return found


GRAPH = {name: imports_of(name) for name in MODULES}


def in_plugins(name: str) -> bool:
    return any(name == package or name.startswith(package + ".") for package in PLUGINS)


def layer_of(name: str, seen: frozenset[str] = frozenset()) -> int:
    """The index in LAYERS of module `name` (an unlayered module: the highest layer it imports)."""
    if name in UNLAYERED:
        return max((layer_of(other, seen | {name}) for other in GRAPH[name] - seen), default=0)
    if in_plugins(name):
        return ABOVE
    part = name.split(".")[1]
    assert part in LAYERS, \
        f"{name} belongs to no layer: add its package to LAYERS (and docs/explanation/design.md), or to UNLAYERED"
    return LAYERS.index(part)


def layer_name(index: int) -> str:
    return LAYERS[index] if index < ABOVE else "the plugins"


def test_every_module_is_in_a_layer_or_named_as_outside_them():
    for name in MODULES:
        layer_of(name)
    assert set(UNLAYERED) <= set(MODULES)
    # the plugins and the Cython kernels are read as well
    read = {"maumau.bots.hard", "maumau.bots._hard", "maumau.rulesets.builtin", "runner.botkit._playout"}
    assert read <= set(MODULES)


@pytest.mark.parametrize("name", sorted(name for name in MODULES if name not in UNLAYERED))
def test_a_module_imports_only_its_own_layer_and_those_below(name):
    upward = sorted(other for other in GRAPH[name] if layer_of(other) > layer_of(name))
    assert not upward, f"{name} ({layer_name(layer_of(name))}) imports from above: {upward}"


@pytest.mark.parametrize("name", sorted(name for name in MODULES if not in_plugins(name)))
def test_no_module_of_the_runner_imports_a_plugin(name):
    """The runner's public names included (runner.simulate): a bot's code lives with the bot."""
    assert not [other for other in GRAPH[name] if in_plugins(other)], name


# runner/simulate.py as it was: hard's policy re-exported by a lazy import in a module __getattr__
LAZY = '''
from runner.botkit.simulate import *

def __getattr__(name):
    if name == "heuristic_policy":
        from maumau.bots.hard import heuristic_policy

        return heuristic_policy
    raise AttributeError(name)
'''


def test_imports_inside_functions_lazy_ones_and_by_name_are_seen():
    assert imported(LAZY, "runner.simulate", False) == {"runner.botkit.simulate", "maumau.bots.hard"}
    by_name = "import importlib\ndef load():\n    return importlib.import_module('maumau.bots.medium')\n"
    assert imported(by_name, "runner.plugins.x", False) == {"maumau.bots.medium"}
    assert imported("def f():\n    __import__('runner.game.engine')\n", "runner.x", False) == {"runner.game.engine"}
    relative = "def f():\n    from . import medium\n    from .hard import HardBot\n"
    assert imported(relative, "maumau.bots.x", False) == {"maumau.bots.medium", "maumau.bots.hard"}


def test_the_cython_kernels_imports_and_cimports_are_seen():
    kernel = "from libc.stdint cimport uint32_t\nfrom runner.botkit._playout cimport (\n    State,\n    Policy,\n)\n" \
             "from runner.game.cards import SUITS\ncimport runner.game.round_state\n"
    assert imported(kernel, "maumau.bots.x", False, cython=True) == {"runner.botkit._playout", "runner.game.cards",
                                                                      "runner.game.round_state"}
    assert "runner.botkit._playout" in GRAPH["maumau.bots._hard"]


def test_no_import_cycle_between_modules():
    state: dict[str, str] = {}

    def visit(name: str, path: list[str]) -> None:
        state[name] = "open"
        for other in sorted(GRAPH[name]):
            if state.get(other) == "open":
                cycle = path[path.index(other):] + [other]
                raise AssertionError(f"import cycle: {' -> '.join(cycle)}")
            if other not in state:
                visit(other, path + [other])
        state[name] = "done"

    for name in sorted(MODULES):
        if name not in state:
            visit(name, [name])


def test_the_verifier_never_reaches_the_engine():
    """runner/logs checks a log from the rules alone: not even indirectly may it use the engine's logic."""
    def reached(name: str, seen: set[str]) -> set[str]:
        for other in GRAPH[name] - seen:
            seen.add(other)
            reached(other, seen)
        return seen

    for name in MODULES:
        if name.startswith("runner.logs"):
            assert "runner.game.engine" not in reached(name, set()), name


def test_the_design_page_shows_the_layer_order():
    design = (ROOT / "docs" / "explanation" / "design.md").read_text()  # moved there from the README
    assert " < ".join(LAYERS) in design
