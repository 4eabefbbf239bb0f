"""The gallery of regional cousins (rulesets/gallery): each written from its public rules, loading, and playing
and verifying at every table size it allows; every ruleset file, built-in or of the gallery, checks cleanly and
plays a tournament of random bots whose every log verifies."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from maumau.rulesets.builtin import HERE, gallery_paths
from runner.cli import app
from runner.plugins import registry

NAMES = {"switch", "last-card", "pesten", "tschau-sepp", "neunerln", "prsi", "makao", "crazy-eights"}
PATHS = gallery_paths()
EVERY_FILE = sorted(HERE.glob("*.yaml")) + PATHS


def test_the_gallery_holds_the_eight_cousins():
    assert {registry().load_ruleset(str(path)).name for path in PATHS} == NAMES
    assert {path.stem for path in PATHS} == NAMES


@pytest.mark.parametrize("path", PATHS, ids=lambda path: path.stem)
def test_a_gallery_ruleset_checks_cleanly_and_names_its_source(path):
    result = CliRunner().invoke(app, ["rulesets", "check", str(path)])
    ruleset = registry().load_ruleset(str(path))
    bound = f"a match ends after at most {ruleset.match.max_rounds} rounds"
    assert result.exit_code == 0 and result.stdout.splitlines() == [f"ok: {path} ({path.stem}; {bound})"], result.output
    assert re.search(r"Source: https?://\S+$", ruleset.description), ruleset.description
    text = path.read_text()
    assert text.startswith("# ") and "# The rules in words" in text
    assert "our choice" in text  # where a source is silent, the file says what it picked


@pytest.mark.parametrize("path", PATHS, ids=lambda path: path.stem)
def test_a_gallery_ruleset_deals_at_every_table_size(path):
    ruleset = registry().load_ruleset(str(path))
    for players in ruleset.table_sizes():
        assert ruleset.deck_for(players).size >= players * ruleset.hand_size_for(players) + 1


@pytest.mark.parametrize("path", PATHS, ids=lambda path: path.stem)
def test_a_gallery_ruleset_plays_and_verifies_at_every_table_size(path, tmp_path):
    ruleset = registry().load_ruleset(str(path))
    runner = CliRunner()
    for players in ruleset.table_sizes():
        log = tmp_path / f"{players}.jsonl"
        bots = [arg for _ in range(players) for arg in ("-b", "random")]
        played = runner.invoke(app, ["play", "-r", str(path), *bots, "--seed", str(players), "--log", str(log)])
        assert played.exit_code == 0, (players, played.output)
        verified = runner.invoke(app, ["verify", str(log)])
        assert verified.exit_code == 0 and verified.stdout.startswith("ok: "), (players, verified.output)


@pytest.mark.parametrize("path", EVERY_FILE, ids=lambda path: path.stem)
def test_every_ruleset_file_checks_cleanly_and_a_tournament_of_random_bots_verifies(path, tmp_path):
    checked = CliRunner().invoke(app, ["rulesets", "check", str(path)])
    ruleset = registry().load_ruleset(str(path))
    ok = f"ok: {path} ({path.stem}; a match ends after at most {ruleset.match.max_rounds} rounds)"
    assert checked.exit_code == 0 and checked.stdout.splitlines() == [ok], checked.output
    players = min(max(3, ruleset.players.min), ruleset.players.max)
    out = tmp_path / "t"
    bots = [arg for _ in range(players) for arg in ("-b", "random")]
    played = CliRunner().invoke(app, ["tournament", "-r", str(path), *bots, "--deals", "1", "--backend", "serial",
                                      "--workers", "1", "--quiet", "--out", str(out), "--seed", "14"])
    assert played.exit_code == 0, played.output
    logs = sorted((out / "logs").iterdir())
    assert len(logs) == players  # the deal under every rotation of the table
    for log in logs:
        verified = CliRunner().invoke(app, ["verify", str(log)])
        assert verified.exit_code == 0 and verified.stdout.startswith("ok: "), (log.name, verified.output)
