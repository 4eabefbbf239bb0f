"""Malformed rulesets (tests/data/bad) are rejected by `maumau rulesets check`: exit 1, one precise line each."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from runner.cli import app

BAD = Path(__file__).parent / "data" / "bad"

# file -> what the one-line error says after "Error: <file>: "
EXPECTED = {
    "unknown_key": "hand_sise: unknown key 'hand_sise' (hint: did you mean 'hand_size'?)",
    "unknown_nested_key": "powers.8.skipp: unknown key 'skipp' (hint: did you mean 'skip'?)",
    "wrong_type": "hand_size: Input should be a valid integer, unable to parse string as an integer, got 'five' (str)",
    "bad_rank": "deck.ranks.0: Input should be '2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K' or 'A', got "
                "'1'",
    "bad_power_rank": "powers.Z: 'Z' is not a rank or card (ranks 2-10 J Q K A, X (the jokers); cards like KH, 10C, "
                      "XR; "
    'several like "JC JS") (hint: name cards of the deck)',
    "deck_too_small": "hand_size: 5 players × 7 cards + 1 upcard need 36 cards, the deck has 32 "
    "(hint: lower hand_size or players.max, or add deck copies)",
    "players_min_above_max": "players.min: 5 is above players.max (3) (hint: make players.min at most players.max)",
    "extends_cycle_a": "extends: extends itself in a cycle: extends_cycle_a.yaml -> extends_cycle_b.yaml -> "
    "extends_cycle_a.yaml (hint: break the cycle)",
    "extends_cycle_b": "extends: extends itself in a cycle: extends_cycle_b.yaml -> extends_cycle_a.yaml -> "
    "extends_cycle_b.yaml (hint: break the cycle)",
    "extends_unknown": "extends: no ruleset named 'no-such-ruleset' (hint: see `maumau rulesets` for the names)",
    "extends_not_a_name": "extends: expected a ruleset name or path, got list (hint: e.g. extends: standard)",
    "missing_limit": "match.limit: format 'limit' needs a limit (hint: add e.g. `limit: 100` under match)",
    "not_a_mapping": "expected a mapping of keys, got list (hint: start with `name: ...`)",
    "yaml_syntax": "YAML syntax error at line 3, column 1: expected ',' or '}', but got '<stream end>'",
    "bad_enum": "drawing.when: Input should be 'stuck' or 'any', got 'sometimes' (str) (hint: use one of the values "
                "listed)",
    "not_utf8": "not UTF-8 text (byte 37) (hint: save the file as UTF-8)",
    "points_missing": "points: no value for rank(s) A (hint: give every rank of the deck a value)",
    "negative_draw": "powers.7.draw: Input should be greater than or equal to 0, got -2 (int)",
    "negative_hand": "hand_size: Input should be greater than or equal to 1, got -5 (int)",
    "bad_name": "name: String should match pattern '^[A-Za-z0-9_.-]+$', got 'my rules!' (str)",
    "bad_direction": "deal.initial_direction: Input should be 1 or -1, got 2 (int) (hint: use one of the values "
                     "listed)",
}


def test_every_bad_file_has_an_expected_message():
    assert sorted(path.stem for path in BAD.glob("*.yaml")) == sorted(EXPECTED)
    assert len(EXPECTED) >= 12


@pytest.mark.parametrize("stem", sorted(EXPECTED))
def test_rulesets_check_rejects_the_file_with_one_precise_line(stem):
    path = BAD / f"{stem}.yaml"
    result = CliRunner().invoke(app, ["rulesets", "check", str(path)])
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.startswith(f"Error: {path}: {EXPECTED[stem]}"), result.stderr
    assert result.stderr.count("\n") == 1 and "(hint: " in result.stderr
    assert "Traceback" not in result.output


def test_rulesets_check_of_many_files_reports_each_and_exits_1():
    good = Path(__file__).parent.parent / "rulesets" / "standard.yaml"
    files = [str(good)] + sorted(str(path) for path in BAD.glob("*.yaml"))
    result = CliRunner().invoke(app, ["rulesets", "check", *files])
    assert result.exit_code == 1
    assert result.stdout == f"ok: {good} (standard; a match ends after at most 1000 rounds)\n"
    assert result.stderr.count("Error: ") == len(EXPECTED) == result.stderr.count("\n")


@pytest.mark.parametrize("args", [
    ["rulesets", "check", str(BAD / "unknown_key.yaml")],
    ["rulesets", "show", str(BAD / "deck_too_small.yaml")],
    ["play", "-r", str(BAD / "not_utf8.yaml"), "-b", "random", "-b", "random"],
])
def test_the_console_script_prints_one_error_line_without_a_traceback(args):
    done = subprocess.run([sys.executable, "-c", "from runner.cli import main; main()", *args],
                          capture_output=True, text=True)
    assert done.returncode == 1
    assert done.stderr.startswith("Error: ") and done.stderr.count("\n") == 1, done.stderr
    assert "Traceback" not in done.stderr


def test_a_bad_value_given_with_set_names_the_key():
    result = CliRunner().invoke(app, ["rulesets", "show", "strafpunten", "--set", "match.limit=lots"])
    assert result.exit_code != 0
    assert "match.limit: Input should be a valid integer" in str(result.exception) + result.output
