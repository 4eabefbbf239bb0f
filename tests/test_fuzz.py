"""The ruleset fuzzer (runner/botkit/fuzz.py, `maumau rulesets fuzz`): it draws every key of the schema, and a
fixed sample of its files checks, plays and verifies on the compiled and the pure engine alike."""

from __future__ import annotations

import random

from typer.testing import CliRunner

from runner.botkit import fuzz
from runner.cli.app import app
from runner.errors import MaumauError
from runner.logs.codec import LogError


def test_every_key_of_the_schema_is_drawn():
    assert fuzz.schema_keys() == fuzz.drawn_keys()


def test_each_file_is_drawn_from_its_seed_alone():
    assert fuzz.draw_ruleset(random.Random("7/3")) == fuzz.draw_ruleset(random.Random("7/3"))


def test_a_fixed_sample_finds_nothing_on_either_engine(tmp_path):
    """Before issue 29's fixes, files 10 and 26 of this sample failed (a draw's reason, going_out.follow_suit
    after a binding suit wish)."""
    report = fuzz.fuzz(30, 2, tmp_path, matches=4, engine="both")
    assert report.files == 30 and report.refused <= 10 and report.matches >= 4 * (30 - 10)
    assert not report.failures, [(str(f.file), f.what, f.command) for f in report.failures]
    assert not list(tmp_path.iterdir())  # only failing files are kept


def test_a_failing_file_is_kept_and_reported_with_the_command_that_shows_it(tmp_path, monkeypatch):
    def refuse(events):
        raise LogError("event 3 (play): planted")

    monkeypatch.setattr("runner.logs.verify.verify", refuse)
    result = CliRunner().invoke(app, ["rulesets", "fuzz", "--count", "3", "--seed", "29", "--engine", "here",
                                      "--out", str(tmp_path)])
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert lines[0].startswith("3 files,") and lines[0].endswith("failures")
    failed = [line for line in lines if line.startswith("failed: ")]
    assert failed and all("planted" in line for line in failed)
    kept = sorted(tmp_path.iterdir())
    assert len(kept) == len(failed) and all(path.suffix == ".yaml" for path in kept)
    assert f"maumau play -r {kept[0]} -b " in result.output and "maumau verify" in result.output


def test_bad_counts_are_refused_with_one_error():
    result = CliRunner().invoke(app, ["rulesets", "fuzz", "--count", "0"])
    assert isinstance(result.exception, MaumauError)  # printed as one `Error: ...` line by the CLI's entry point
    assert str(result.exception) == "--count and --matches must be at least 1, got 0 and 3"
