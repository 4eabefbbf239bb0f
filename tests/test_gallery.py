"""The gallery of regional cousins (rulesets/gallery): each written from its public rules, registered by its name
(from an installed wheel too), loading, and playing and verifying at every table size it allows; every ruleset file,
built-in or of the gallery, checks cleanly and plays a tournament of random bots whose every log verifies."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest
from typer.testing import CliRunner

from maumau.rulesets.builtin import GALLERY, HERE, classic_names, gallery_paths
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


def test_each_cousin_is_registered_by_its_name_beside_the_classic_rulesets():
    reg = registry()
    for name in NAMES:
        entry = reg.rulesets[name]
        assert entry.path.parent == GALLERY and entry.path.stem == name and entry.plugin == "maumau.rulesets.builtin"
    assert not NAMES & set(classic_names(reg))  # no name taken twice (the registry refuses that outright)
    assert set(reg.rulesets) == NAMES | set(classic_names(reg))


def test_the_gallery_plays_shows_and_lists_by_name_and_a_house_rule_extends_it(tmp_path):
    runner = CliRunner()
    listed = runner.invoke(app, ["rulesets", "--format", "json"])
    assert NAMES <= {row["name"] for row in json.loads(listed.stdout)}
    shown = runner.invoke(app, ["rulesets", "show", "switch"])
    assert shown.exit_code == 0 and shown.stdout.startswith("name: switch\n")
    played = runner.invoke(app, ["play", "-r", "prsi", "-b", "random", "-b", "medium", "--seed", "1"])
    assert played.exit_code == 0, played.output
    house = tmp_path / "house.yaml"
    house.write_text("extends: switch\nname: switch-to-50\nmatch: {limit: 50}\n")
    ruleset, notes = registry().check_ruleset(str(house))
    assert ruleset.match.limit == 50 and ruleset.powers == registry().load_ruleset("switch").powers and notes == []


def test_the_browsers_rules_menu_offers_the_gallery():
    from runner.web.lobby import registered_rulesets

    assert NAMES <= {row["name"] for row in registered_rulesets()}


ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow  # slow: builds and installs a wheel
def test_the_gallery_plays_by_name_from_an_installed_wheel(tmp_path):
    """A pure-Python wheel (MAUMAU_PURE=1: no compiler, about 20 s) installed, not editable, into a venv that borrows
    only this environment's dependencies (its paths, not its .pth files: the editable install stays out)."""
    source = tmp_path / "src"
    skip = shutil.ignore_patterns("__pycache__", "*.so", "*.c", "build", "*.egg-info")
    for part in ("runner", "bots", "rulesets"):
        shutil.copytree(ROOT / part, source / part, ignore=skip)
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy(ROOT / name, source / name)
    env = {**os.environ, "MAUMAU_PURE": "1"}
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path / "dist"),
                            str(source)], capture_output=True, text=True, timeout=600, env=env)
    assert built.returncode == 0, built.stderr
    wheel, = (tmp_path / "dist").glob("maumau-*.whl")
    venv.EnvBuilder(with_pip=False).create(tmp_path / "venv")
    python = tmp_path / "venv" / "bin" / "python"
    own = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                         capture_output=True, text=True, check=True).stdout.strip()
    ours = dict.fromkeys(sysconfig.get_paths()[key] for key in ("purelib", "platlib"))
    (Path(own) / "maumau-dependencies.pth").write_text("".join(f"{path}\n" for path in ours))
    installed = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "-q",
                                str(wheel)], capture_output=True, text=True, timeout=300)
    assert installed.returncode == 0, installed.stderr

    def maumau(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([str(tmp_path / "venv" / "bin" / "maumau"), *args], capture_output=True, text=True,
                              timeout=300, cwd=tmp_path)

    where = subprocess.run([str(python), "-c", "import runner; print(runner.__file__)"], capture_output=True,
                           text=True, cwd=tmp_path)
    assert where.stdout.startswith(own), where.stdout + where.stderr  # the wheel's copy, not this checkout
    listed = maumau("rulesets", "--format", "json")
    assert listed.returncode == 0 and NAMES <= {row["name"] for row in json.loads(listed.stdout)}
    for name in sorted(NAMES):
        played = maumau("play", "-r", name, "-b", "random", "-b", "random", "--seed", "1")
        assert played.returncode == 0, (name, played.stderr)
    (tmp_path / "house.yaml").write_text("extends: switch\nname: house\nhand_size: 6\n")
    assert maumau("rulesets", "check", "house.yaml").returncode == 0
