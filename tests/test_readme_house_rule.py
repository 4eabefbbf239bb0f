"""The README's house-rule example, as written: it checks, plays and verifies, and its cards do what the text says."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from runner.cli import app
from support.scenario import deal, do, plays

README = (Path(__file__).resolve().parent.parent / "README.md").read_text()
EXAMPLE = re.search(r"```yaml\n(.*?)```", README, re.S).group(1)


@pytest.fixture
def house(tmp_path) -> Path:
    path = tmp_path / "house.yaml"
    path.write_text(EXAMPLE)
    return path


def test_the_readme_house_rule_checks_plays_and_verifies(house, tmp_path):
    assert yaml.safe_load(EXAMPLE)["name"] == "my-house-rules"
    runner, log = CliRunner(), tmp_path / "match.jsonl"
    checked = runner.invoke(app, ["rulesets", "check", str(house)])
    ok = f"ok: {house} (my-house-rules; a match ends after at most 1000 rounds)"
    assert checked.exit_code == 0 and checked.stdout.splitlines()[0] == ok, checked.output
    played = runner.invoke(app, ["play", "-r", str(house), "-b", "random", "-b", "random", "-b", "random",
                                 "--seed", "3", "--log", str(log)])
    assert played.exit_code == 0, played.output
    verified = runner.invoke(app, ["verify", str(log)])
    assert verified.exit_code == 0 and verified.stdout.startswith("ok: "), verified.output


def test_in_the_readme_house_rule_a_nine_reverses_a_queen_skips_and_the_black_jacks_draw_five(house):
    stock = "2C 3C 4C 5C 6C 2S 3S 4S 5S 6S"
    others = ["KC 8D 9D", "10H 10D KD"]
    nine = do(deal(str(house), ["9H 4D 5D", *others], "10H", stock), "9H")
    assert nine.direction == -1 and nine.current == 2
    queen = do(deal(str(house), ["QH 4D 5D", *others], "10H", stock), "QH")
    assert queen.current == 2  # seat 1 is skipped
    jack = deal(str(house), ["JC 4D 5D", *others], "10C", stock)
    assert "JC" in plays(jack) and not any(text.startswith("JC>") for text in plays(jack))  # names no suit
    do(jack, "JC")
    assert jack.pending == 5 and jack.current == 1
    red = deal(str(house), ["JH 4D 5D", *others], "10C", stock)
    assert {"JH>C", "JH>D", "JH>H", "JH>S"} <= plays(red)  # the red Jacks are still wild
