"""The built-in rulesets, registered through the same hook as any plugin's.

`*.yaml` here are standard Mau Mau, Strafpunten and online (elimination) Mau Mau and their variants
(README: Rulesets). `gallery/` holds the regional
cousins (Switch, Last Card, Pesten, ...), each written from its public rules: they play by path and are not
registered by name (README: Rulesets; tests/test_gallery.py).
"""

from pathlib import Path

import runner

HERE = Path(__file__).parent
GALLERY = HERE / "gallery"


def gallery_paths() -> list[Path]:
    """The ruleset files of the gallery of regional cousins."""
    return sorted(GALLERY.glob("*.yaml"))


@runner.hookimpl
def register_rulesets(register):
    for path in sorted(HERE.glob("*.yaml")):
        register(path)
