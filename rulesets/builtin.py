"""The built-in rulesets, registered through the same hook as any plugin's."""

from pathlib import Path

import runner


@runner.hookimpl
def register_rulesets(register):
    for path in sorted(Path(__file__).parent.glob("*.yaml")):
        register(path)
