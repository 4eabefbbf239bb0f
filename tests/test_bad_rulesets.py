"""Malformed rulesets (tests/data/bad) are rejected by `maumau rulesets check`: exit 1, one precise line each."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from runner.cli import app

BAD = Path(__file__).parent / "data" / "bad"

# file -> what the one-line error says after "Error: <file>: "
EXPECTED = {
    "unknown_key": "hand_sise: unknown key 'hand_sise' (hint: did you mean 'hand_size'?)",
    "unknown_nested_key": "powers.8.skipp: unknown key 'skipp' (hint: did you mean 'skip'?)",
    "wrong_type": "hand_size: Input should be a valid integer, unable to parse string as an integer, got 'five' (str)",
    "quoted_number": "hand_size: Input should be a valid integer, got '7' (str) (hint: write a whole number without "
                     "quotes)",
    "string_boolean": "powers.9.reverse: Input should be a valid boolean, got 'true' (str) (hint: write true or false)",
    "number_boolean": "last_card_draws: Input should be a valid boolean, got 1 (int) (hint: write true or false)",
    "duplicate_rank_key": "powers.10: given twice, as 10 (line 5) and as '10' (line 6) (hint: keep one of them)",
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
    "extends_missing_file": "extends: the file 'no-such-file.yaml' does not exist "
                            f"(looked for {BAD / 'no-such-file.yaml'}) (hint: extends takes a path relative to "
                            "extends_missing_file.yaml's folder, or a ruleset name)",
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
@pytest.mark.slow  # slow: the console script in a process of its own
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


def test_every_problem_of_a_file_is_reported_each_on_its_own_line(tmp_path):
    path = tmp_path / "many.yaml"
    path.write_text("name: many\nhand_size: '7'\npowers:\n  j: {wild: true}\n  J: {wild: true, reverse: 'yes'}\n"
                    "  8: {skip: 1, skipp: 2, reverse: 'yes'}\n")  # the first of two keys is read on
    result = CliRunner().invoke(app, ["rulesets", "check", str(path)])
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        f"Error: {path}: powers.J: given twice, as j (line 4) and as J (line 5) (hint: keep one of them)",
        f"Error: {path}: hand_size: Input should be a valid integer, got '7' (str) "
        "(hint: write a whole number without quotes)",
        f"Error: {path}: powers.8.skipp: unknown key 'skipp' (hint: did you mean 'skip'?)",
        f"Error: {path}: powers.8.reverse: Input should be a valid boolean, got 'yes' (str) "
        "(hint: write true or false)",
    ]


@pytest.mark.slow  # slow: the console script in a process of its own
def test_the_console_script_prints_every_problem_as_an_error_line(tmp_path):
    path = tmp_path / "two.yaml"
    path.write_text("extends: standard\nname: two\nhand_size: '7'\nlast_card_draws: 'no'\n")
    done = subprocess.run([sys.executable, "-c", "from runner.cli import main; main()",
                           "play", "-r", str(path), "-b", "random", "-b", "random"], capture_output=True, text=True)
    assert done.returncode == 1
    lines = done.stderr.splitlines()
    assert [line.split(": ")[2] for line in lines] == ["hand_size", "last_card_draws"], done.stderr
    assert all(line.startswith(f"Error: {path}: ") for line in lines)


def test_a_key_given_twice_within_an_extended_file_names_that_file(tmp_path):
    (tmp_path / "base.yaml").write_text("extends: standard\nname: base\npoints:\n  j: 20\n  J: 25\n")
    (tmp_path / "house.yaml").write_text("extends: base.yaml\nname: house\n")
    result = CliRunner().invoke(app, ["rulesets", "check", str(tmp_path / "house.yaml")])
    assert result.exit_code == 1
    assert result.stderr == (f"Error: {tmp_path / 'base.yaml'}: points.J: given twice, as j (line 4) and as J (line 5) "
                             "(hint: keep one of them)\n")


def test_yaml_merge_keys_may_be_overridden(tmp_path):
    path = tmp_path / "merge.yaml"
    text = ("extends: standard\nname: merge\npowers:\n  8: &eight {skip: 1, reverse: false}\n"
            "  9:\n    <<: *eight\n    reverse: true\n")
    path.write_text(text)
    result = CliRunner().invoke(app, ["rulesets", "show", str(path)])
    assert result.exit_code == 0, result.output
    nine = result.stdout.split("'9':")[1]
    assert "skip: 1" in nine.split("wild:")[0] and "reverse: true" in nine.split("wild:")[0]


def test_set_null_removes_a_key_as_null_does_in_a_file(tmp_path):
    house = tmp_path / "no-seven.yaml"
    house.write_text("extends: standard\nname: standard\npowers: {7: null}\n")
    by_file = CliRunner().invoke(app, ["rulesets", "show", str(house)])
    by_set = CliRunner().invoke(app, ["rulesets", "show", "standard", "--set", "powers.7=null"])
    assert by_file.exit_code == by_set.exit_code == 0, by_set.output
    by_set_data, by_file_data = yaml.safe_load(by_set.stdout), yaml.safe_load(by_file.stdout)
    assert "7" not in by_set_data["powers"] and "8" in by_set_data["powers"]
    assert {**by_set_data, "description": ""} == {**by_file_data, "description": ""}


def test_set_merges_into_a_mapping_like_a_file():
    result = CliRunner().invoke(app, ["rulesets", "show", "standard", "--set", "powers.8.reverse=true"])
    assert result.exit_code == 0
    eight = result.stdout.split("'8':")[1].split("\n  ")[1:11]
    assert "skip: 1" in "".join(eight) and "reverse: true" in "".join(eight)
