"""The built-in rulesets, registered through the same hook as any plugin's.

`*.yaml` here are standard Mau Mau, Strafpunten and online (elimination) Mau Mau and their variants
(docs: Rulesets). `gallery/` holds the regional cousins (Switch, Last Card, Pesten, ...), each
written from its public rules and registered by its name too (`maumau play -r switch`; docs:
Rulesets; tests/test_gallery.py).
"""

from pathlib import Path

import runner

HERE = Path(__file__).parent
GALLERY = HERE / "gallery"


def classic_paths() -> list[Path]:
    """The ruleset files of Mau Mau and Strafpunten and their variants (the golden corpus's rulesets)."""
    return sorted(HERE.glob("*.yaml"))


def gallery_paths() -> list[Path]:
    """The ruleset files of the gallery of regional cousins."""
    return sorted(GALLERY.glob("*.yaml"))


def classic_names(reg) -> list[str]:
    """The names `reg` (runner/plugins/catalog.py Registry) holds for the classic files, sorted: not the gallery's."""
    classic = {path.resolve() for path in classic_paths()}
    return sorted(name for name, entry in reg.rulesets.items() if Path(entry.path).resolve() in classic)


@runner.hookimpl
def register_rulesets(register):
    for path in classic_paths() + gallery_paths():
        register(path)
