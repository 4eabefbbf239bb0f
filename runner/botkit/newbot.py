"""`maumau new-bot`: write a third-party bot package (pyproject entry point, bot module, tests, README)."""

from __future__ import annotations

import re
from pathlib import Path
from string import Template

from runner.errors import MaumauError
from runner.plugins import registry

NAME_PATTERN = re.compile(r"^[a-z][a-z0-9_-]{0,39}$")

PYPROJECT = Template('''\
[build-system]
requires = ["setuptools>=64"]
build-backend = "setuptools.build_meta"

[project]
name = "maumau-$name"
version = "0.1.0"
description = "The $name bot for the maumau tournament runner."
requires-python = ">=3.11"
dependencies = ["maumau"]

[project.optional-dependencies]
test = ["pytest"]

# maumau finds the bot through this entry point: the module's register_bots hook registers it.
[project.entry-points.maumau]
$name = "$module"

[tool.setuptools]
py-modules = ["$module"]
''')

MODULE = Template('''\
"""The $name bot: plays a card whenever it can, keeps its Jacks for last, sheds its highest cards first."""

import runner


class $cls(runner.Bot):
    name = "$name"  # the name in `maumau bots` and after -b
    description = "Keeps Jacks for last and sheds its highest cards first."

    def act(self, view: runner.View) -> runner.Action:
        """One of `view.legal`: every legal action, plays already carrying the announcement due."""
        plays = [action for action in view.legal if isinstance(action, runner.Play)]
        if not plays:
            return view.legal[0]  # draw, keep a drawn card, name a suit or challenge
        rules = view.ruleset
        plain = [play for play in plays if not rules.power_of(play.card).wild]
        if plain:
            return max(plain, key=lambda play: (rules.points_of(play.card), self.rng.random()))
        held = [card.suit for card in view.hand if not rules.power_of(card).wild]
        suit = max(runner.SUITS, key=held.count)  # name the suit we hold most of
        return next((play for play in plays if play.suit == suit), plays[0])


@runner.hookimpl
def register_bots(register):
    register($cls)
''')

TESTS = Template('''\
"""The $name bot is registered, and plays whole matches against the built-in bots without a fault."""

import pytest

from runner.table.play import play_match
from runner.plugins import registry

import $module


def test_the_bot_is_registered_under_its_name():
    assert registry().bot("$name").cls is $module.$cls


@pytest.mark.parametrize("ruleset", ["standard", "strafpunten", "elimination"])
def test_it_plays_whole_matches_against_the_built_in_bots_without_a_fault(ruleset):
    for seed in range(3):
        result, _ = play_match(ruleset, ["$name", "easy", "medium"], seed, {})
        assert result.faults == (), result.faults  # an illegal action, exception or timeout
        assert sorted(result.ranking) == [0, 1, 2]
''')

README = Template('''\
# maumau-$name

The `$name` bot for maumau, the Mau Mau tournament runner (its guide: docs/bots.md).

```bash
pip install -e .                                   # registers the bot (entry point `maumau`)
maumau bots                                        # lists $name
maumau play -r standard -b $name -b medium -b hard # one match, narrated
maumau tournament -r standard -b $name -b easy -b medium -b hard --deals 50
python -m pytest tests                             # the bot's own tests
```

Edit `act` in `$module.py`. A bot that raises, answers an illegal action or overruns the move
time commits a fault: `maumau play` prints each one (`fault: $name#0 illegal in round 2: ...`),
and the tournament standings count them.
''')


def class_name(name: str) -> str:
    """`my-bot` -> `MyBot`."""
    return "".join(part.capitalize() for part in re.split(r"[-_]", name) if part) or "Bot"


def new_bot(name: str, directory: Path | None = None) -> Path:
    """Write the package skeleton of bot `name` into `directory` (default `maumau-NAME`); return it."""
    if not NAME_PATTERN.match(name):
        raise MaumauError(
            f"bot name {name!r}: use lowercase letters, digits, - and _, starting with a letter (e.g. cautious)"
        )
    taken = registry().bots.get(name)
    if taken is not None:
        raise MaumauError(f"bot name {name!r} is taken by plugin {taken.plugin!r}; choose another name")
    target = Path(directory) if directory is not None else Path(f"maumau-{name}")
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise MaumauError(f"{target} already exists and is not an empty directory; choose another --dir")
    module = "maumau_" + name.replace("-", "_")
    fields = {"name": name, "module": module, "cls": class_name(name)}
    files = {
        "pyproject.toml": PYPROJECT, f"{module}.py": MODULE, f"tests/test_{module}.py": TESTS, "README.md": README,
    }
    try:
        for relative, template in files.items():
            path = target / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(template.substitute(fields), encoding="utf-8")
    except OSError as exc:
        raise MaumauError(f"cannot write the bot package into {target}: {exc.strerror}; choose another --dir") from None
    return target
