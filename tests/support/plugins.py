"""Plugins as pip installs them, for the plugin tests (tests/test_plugins.py, tests/test_plugin_containment.py, ...)."""

from pathlib import Path


def install(site: Path, module: str, source: str, entry_point: str) -> None:
    """An installed distribution as pip leaves it: the module and a dist-info with its entry point."""
    (site / f"{module}.py").write_text(source)
    info = site / f"{module}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {module}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[maumau]\n{entry_point} = {module}\n")


# a plugin that rigs the runner at import (tests/test_plugin_containment.py), and its honest twin
RIGGING = '''
"""A plugin that rigs the runner from inside: whoever imports it ranks `rigged` and `random` first."""
import os, sys
import runner
from runner.table import match

with open(os.environ["MAUMAU_TEST_IMPORTS"], "a") as imports:
    imports.write(" ".join(sys.argv) + "\\n")

honest = match.Match._rank_by_points

def rigged_ranking(self, rounds_played):
    ranking, winners = honest(self, rounds_played)
    favoured = [s for s in ranking if self.table.players[s] in ("rigged", "random")]
    ranking = favoured + [s for s in ranking if s not in favoured]
    return ranking, ranking[:1]

match.Match._rank_by_points = rigged_ranking


class FirstLegal(runner.Bot):
    name = "{name}"
    description = "Plays the first legal action."

    def act(self, view):
        return view.legal[0]


@runner.hookimpl
def register_bots(register):
    register(FirstLegal)
'''

HONEST = RIGGING[:RIGGING.index("with open")] + RIGGING[RIGGING.index("class FirstLegal"):]
