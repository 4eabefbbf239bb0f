"""The lobby's choices: every registered ruleset, or a house-rule file checked with the same loader as the CLI's."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

from runner.errors import MaumauError
from runner.game.checks import CHAIN_NOTE
from runner.game.ruleset import Ruleset
from runner.plugins import registry
from runner.rules import read_yaml

from .host import LEVELS, GameSpec, Refused

MAX_RULESET_BYTES = 256 * 1024  # as for a ruleset file (runner/rules/files.py)


def ruleset_summary(name: str, ruleset: Ruleset) -> dict:
    """What the lobby shows of a ruleset: its players' range, format and description."""
    return {"name": name, "description": ruleset.description, "min": ruleset.players.min, "max": ruleset.players.max,
            "format": ruleset.match.format, "limit": ruleset.match.limit, "table_changes": ruleset.match.table_changes}


def registered_rulesets() -> list[dict]:
    reg = registry()
    return [ruleset_summary(name, reg.load_ruleset(name)) for name in sorted(reg.rulesets)]


def house_rules(text: str, filename: str | None) -> tuple[str, Ruleset]:
    """The ruleset of an uploaded or pasted house-rule file: (its name as shown, the validated Ruleset).

    It is written to a private temporary file and read by the registry's loader, so it gets the
    CLI's checks and its one-line errors, naming the file as uploaded. It may extend a registered
    ruleset by name only: `extends: some/file.yaml` would read a file of the server's.
    """
    shown = safe_filename(filename)
    data = text.encode("utf-8")
    if len(data) > MAX_RULESET_BYTES:
        raise Refused(413, f"{shown}: the file is {len(data)} bytes; a ruleset is at most {MAX_RULESET_BYTES} bytes")
    with tempfile.TemporaryDirectory(prefix="maumau-house-") as folder:
        path = Path(folder) / shown
        path.write_bytes(data)
        try:
            parent = _extends_of(path)
            if isinstance(parent, str) and parent.endswith((".yaml", ".yml")):
                raise Refused(400, f"{shown}: extends: an uploaded ruleset extends a registered ruleset by name "
                                   f"(e.g. extends: strafpunten), not the file {parent!r}")
            ruleset = registry().load_ruleset(str(path))
        except MaumauError as exc:
            raise Refused(400, str(exc).replace(f"{folder}/", "")) from None
    chains = dict(ruleset.notes()).get("multiple.chain")
    if chains is not None:  # a game's states (and the page's buttons) hold every play of a turn: bounded here
        raise Refused(400, f"{shown}: multiple.chain: {chains}; this server hosts no game whose turn can list more "
                           f"than {CHAIN_NOTE:,} chains")
    return ruleset.name, ruleset


def _extends_of(path: Path) -> object:
    return read_yaml(path).get("extends")


def safe_filename(filename: str | None) -> str:
    """The uploaded file's own name in letters, digits and `._-`, ending in .yaml (`house-rules.yaml` if none)."""
    name = re.sub(r"[^A-Za-z0-9._-]", "_", Path(filename or "").name)[:64].lstrip(".")
    if not name:
        name = "house-rules.yaml"
    return name if name.endswith((".yaml", ".yml")) else f"{name}.yaml"


def game_spec(ruleset_name: str | None, text: str | None, filename: str | None, level: str, players: int) -> GameSpec:
    """The lobby's New game, validated: a ruleset (registered, or a house-rule file), a level, a table size."""
    if (ruleset_name is None) == (text is None):
        raise Refused(400, "give either ruleset (a registered name) or yaml (a house-rule file), not both or neither")
    if text is not None:
        name, ruleset = house_rules(text, filename)
    else:
        reg = registry()
        if ruleset_name not in reg.rulesets:
            raise Refused(400, f"unknown ruleset {ruleset_name!r}; registered: {', '.join(sorted(reg.rulesets))}")
        name, ruleset = ruleset_name, reg.load_ruleset(ruleset_name)
    if level not in LEVELS:
        raise Refused(400, f"level must be one of {', '.join(LEVELS)}, got {level!r}")
    if not ruleset.players.min <= players <= ruleset.players.max:
        raise Refused(400, f"ruleset {name!r} is played by {ruleset.players.min} to {ruleset.players.max} players, "
                           f"got {players}")
    refusal = ruleset.table_refusal(players)
    if refusal:
        raise Refused(400, f"ruleset {name!r}: {refusal}")
    return GameSpec(ruleset=ruleset, ruleset_name=name, level=level, players=players)

