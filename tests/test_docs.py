"""Every Python block of the README and of every page of the docs site (docs/) runs as written, and every bot it
defines plays without a fault.

A block that is only a piece of code (not meant to run alone) is marked with an HTML comment
`<!-- fragment -->` on the line before it; every other block is run here.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import runner
from runner.plugins import registry
from runner.seats.external import CommandBot
from runner.table.match import Match

ROOT = Path(__file__).resolve().parent.parent
DOCS = ("README.md", *sorted(str(page.relative_to(ROOT)) for page in (ROOT / "docs").rglob("*.md")))
BLOCK = re.compile(r"(<!-- fragment[^>]*-->[ \t]*\n)?```python\n(.*?)```", re.S)
# rulesets that between them reach every phase: a turned-up Jack, challenges, play-again and choice draws
RULESETS = (("standard", {"match.limit": 30}), ("standard-challenge", {"match.limit": 30}),
            ("elimination", {"match.limit": 30}))


def blocks() -> list:
    """Each Python block of DOCS: its code, whether it is marked a fragment, and where it is (file:line)."""
    found = []
    for doc in DOCS:
        text = (ROOT / doc).read_text()
        for block in BLOCK.finditer(text):
            line = text.count("\n", 0, block.start(2)) + 1
            found.append(pytest.param(block.group(2), bool(block.group(1)), id=f"{doc}:{line}"))
    return found


def test_the_docs_have_python_blocks_to_run():
    assert sum(1 for block in blocks() if not block.values[1]) >= 4
    assert {"README.md", "docs/bots.md", "docs/protocol.md", "docs/tutorials/first-bot.md"} <= set(DOCS)


@pytest.mark.parametrize("code, fragment", blocks())
def test_each_python_block_runs_and_its_bots_play(code, fragment, request):
    if fragment:
        pytest.skip("marked <!-- fragment -->: a piece of code, not meant to run alone")
    module = f"doc_block_{abs(hash(request.node.callspec.id))}"
    namespace = {"__name__": module}
    exec(compile(code, request.node.callspec.id, "exec"), namespace)
    bots = [value for value in namespace.values()
            if isinstance(value, type) and issubclass(value, runner.Bot) and value.__module__ == module]
    if "register_bots" in namespace:  # the hook registers what the block defines
        registered: list[type] = []
        namespace["register_bots"](registered.append)
        assert registered == bots
    reg = registry()
    for cls in bots:
        if issubclass(cls, CommandBot):  # runs a program of the reader's own: its class is what is checked
            assert cls.command and cls.name
            continue
        for seed, (name, overrides) in enumerate(RULESETS):
            ruleset = reg.load_ruleset(name, overrides)

            def make_bot(player, seat, rng):
                return cls(rng=rng) if player == cls.name else reg.bot(player).cls(rng=rng)

            result = Match(ruleset, [cls.name, "random", "random"], seed, make_bot).run()
            assert result.faults == (), (name, result.faults)
