"""docs/house-rules.md: every ruleset file of the cookbook loads and checks, and its coverage table adds up."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from runner.cli import app
from runner.plugins import registry
from support.cookbook import ENTRIES, SCENARIOS, failing_entries, writer

COOKBOOK = Path(__file__).resolve().parent.parent / "docs" / "house-rules.md"
TEXT = COOKBOOK.read_text()
FILES = re.findall(r"```yaml\n(.*?)```", TEXT, re.S)
ROW = re.compile(r"^\| (\d+) \| [^|]+ \| (exact|approx\.|not) \| (.+) \|$", re.M)


def test_the_cookbook_has_an_entry_per_concept():
    entries = re.findall(r"^### (\d+)\. ", TEXT, re.M)
    assert [int(n) for n in entries] == list(range(1, len(entries) + 1)) and len(entries) >= 51
    assert len(FILES) == len(entries)  # one ruleset file per entry
    names = [yaml.safe_load(text)["name"] for text in FILES]
    assert len(set(names)) == len(names)


@pytest.mark.parametrize("text", FILES, ids=lambda text: yaml.safe_load(text)["name"])
def test_each_ruleset_of_the_cookbook_loads_and_checks(text, tmp_path):
    path = tmp_path / "house.yaml"
    path.write_text(text)
    ruleset, notes = registry().check_ruleset(str(path))
    assert ruleset.name == yaml.safe_load(text)["name"]
    expected = {"endless": ["match.max_rounds"], "king-of-hearts": [], "jack-follows-suit": [],
                "ace-skips-only": [], "irish-deal": [], "deck-by-table": []}  # replace: true, noted for nothing
    if ruleset.name in expected:
        assert [note.key for note in notes] == expected[ruleset.name]


def test_the_coverage_table_counts_every_researched_rule_once_and_its_summary_adds_up(tmp_path):
    rows = ROW.findall(TEXT)
    # A rule counts as writable through the entries it cites only if each entry's file loads and does what the
    # entry says (tests/support/cookbook.py plays each one).
    cited = {int(n) for _, verdict, how in rows if verdict != "not" for n in re.findall(r"\bentry (\d+)", how)}
    assert cited <= set(SCENARIOS) and len(cited) >= 40
    assert not failing_entries(SCENARIOS, writer(tmp_path))  # every entry, cited or not
    assert [int(number) for number, _, _ in rows] == list(range(1, 157))
    counts = Counter(verdict for _, verdict, _ in rows)
    writable = counts["exact"] + counts["approx."]
    assert f"**Of the 156, {writable} can be written: {counts['exact']} exactly and {counts['approx.']} " \
           f"approximately; {counts['not']} cannot.**" in TEXT
    assert f"That is {round(100 * writable / 156)}%" in TEXT
    table_rules = re.search(r"Of the \d+, (\d+) are rules of the table[^(]*\(([^)]*)\)", TEXT, re.S)
    named = [int(n) for n in re.findall(r"#(\d+)", table_rules.group(2))]
    verdicts = {int(number): verdict for number, verdict, _ in rows}
    assert len(named) == int(table_rules.group(1)) and all(verdicts[n] == "not" for n in named)


@pytest.mark.parametrize("text", FILES, ids=lambda text: yaml.safe_load(text)["name"])
def test_each_ruleset_of_the_cookbook_plays_as_written_and_its_log_verifies(text, tmp_path):
    path, log = tmp_path / "house.yaml", tmp_path / "match.jsonl"
    path.write_text(text)
    ruleset = registry().load_ruleset(str(path))
    players = min(max(3, ruleset.players.min), ruleset.players.max)
    bots = [arg for _ in range(players) for arg in ("-b", "random")]
    played = CliRunner().invoke(app, ["play", "-r", str(path), *bots, "--seed", "14", "--log", str(log)])
    assert played.exit_code == 0, played.output
    verified = CliRunner().invoke(app, ["verify", str(log)])
    assert verified.exit_code == 0 and verified.stdout.startswith("ok: "), verified.output


def test_every_entry_has_a_scenario_named_after_its_file():
    assert sorted(SCENARIOS) == sorted(ENTRIES)
    for number, named in SCENARIOS.items():
        assert named.__name__ == yaml.safe_load(ENTRIES[number])["name"].replace("-", "_")
