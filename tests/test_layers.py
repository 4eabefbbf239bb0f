"""The layer contract of runner/: each layer imports only the layers below it, and no module imports itself in a cycle.

The imports are read with `ast` from the source, function-level and TYPE_CHECKING imports included,
so that an import moved into a function to dodge a cycle still counts.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RUNNER = ROOT / "runner"

# Bottom up; docs/explanation/design.md shows the same order. web (maumau serve) sits at the top beside cli,
# below it only because cli's `serve` command starts it.
LAYERS = ("errors", "game", "rules", "logs", "plugins", "seats", "table", "tournament", "botkit", "analysis", "web",
          "cli")

# Modules in no layer: each counts as the highest layer it imports, so a layer may import it only
# if it could import everything it imports.
UNLAYERED = {
    "runner": "the public surface for bot writers: re-exports of the game layer and plugins.hookimpl",
    "runner.simulate": "the public name of runner.botkit.simulate (and of bots/hard.py's heuristic_policy)",
    "runner.accel": "the optional accelerator's import finder (standard library only), imported first by runner",
    "runner.words": "counted nouns for messages of every layer; imports nothing",
}


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(RUNNER.rglob("*.py"))}


def imports_of(name: str) -> set[str]:
    """The runner modules that module `name` imports, anywhere in its source."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                source = f"{base}.{node.module}" if node.module else base
            else:
                source = node.module or ""
            # `from package import module` imports that module; `from module import name` the module
            targets = [f"{source}.{alias.name}" if f"{source}.{alias.name}" in MODULES else source
                       for alias in node.names]
        else:
            continue
        for target in targets:
            while target and target not in MODULES and "." in target:  # `import runner.x.y as z` and the like
                target = target.rpartition(".")[0]
            if target in MODULES and target != name:
                found.add(target)
    return found


GRAPH = {name: imports_of(name) for name in MODULES}


def layer_of(name: str, seen: frozenset[str] = frozenset()) -> int:
    """The index in LAYERS of module `name` (an unlayered module: the highest layer it imports)."""
    if name in UNLAYERED:
        return max((layer_of(other, seen | {name}) for other in GRAPH[name] - seen), default=0)
    part = name.split(".")[1]
    assert part in LAYERS, \
        f"{name} belongs to no layer: add its package to LAYERS (and docs/explanation/design.md), or to UNLAYERED"
    return LAYERS.index(part)


def test_every_module_is_in_a_layer_or_named_as_outside_them():
    for name in MODULES:
        layer_of(name)
    assert set(UNLAYERED) <= set(MODULES)


@pytest.mark.parametrize("name", sorted(name for name in MODULES if name not in UNLAYERED))
def test_a_module_imports_only_its_own_layer_and_those_below(name):
    upward = sorted(other for other in GRAPH[name] if layer_of(other) > layer_of(name))
    assert not upward, f"{name} ({LAYERS[layer_of(name)]}) imports from above: {upward}"


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
