"""Hostile ruleset files: anything at all gives a Ruleset or one clean RulesetError, never a hang or traceback."""

import tempfile
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from runner.errors import RulesetError
from runner.plugins import registry
from runner.rules import MAX_EXTENDS_DEPTH, MAX_FILE_BYTES, load, parse_override

BUILTIN = Path(__file__).parent.parent / "rulesets"
WORKDIR = Path(tempfile.mkdtemp(prefix="maumau-hostile-"))
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
KEYS = ["name", "extends", "players", "min", "max", "deck", "ranks", "copies", "copies_by_players", "hand_size",
        "deal", "upcard", "powers", "7", "J", "A", "draw", "stack", "skip", "wild", "points", "match", "format",
        "limit", "tie_break", "turn_limit", "announcements", "mau", "penalty", "drawing", "when"]


def load_text(content, name="fuzz.yaml", overrides=None):
    """Load `content` (str or bytes) as a ruleset file: a Ruleset, or RulesetError (anything else fails the test)."""
    path = WORKDIR / name
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8", "surrogatepass"))
    try:
        return load(path, registry().ruleset_path, overrides)
    except RulesetError as error:
        assert "\n" not in str(error).strip() or "hint" in str(error)
        return error


scalars = st.one_of(
    st.none(), st.booleans(), st.integers(), st.integers(min_value=10**20, max_value=10**60),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=20), st.sampled_from(["full", "skat", "limit"]),
)
documents = st.recursive(
    scalars,
    lambda children: st.one_of(st.lists(children, max_size=4),
                               st.dictionaries(st.one_of(st.sampled_from(KEYS), scalars), children, max_size=5)),
    max_leaves=30,
)


@FUZZ
@given(st.binary(max_size=3000))
def test_any_bytes(content):
    load_text(content)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents)
def test_any_yaml_document(document):
    load_text(yaml.safe_dump(document, allow_unicode=True))


@FUZZ
@given(st.sampled_from(sorted(BUILTIN.glob("*.yaml"))), st.integers(min_value=0), st.text(
    alphabet=st.sampled_from(list(":{}[],&*!|>-?#%@'\"\n 0123456789.eE~JAQK7xyz")), max_size=12), st.booleans())
def test_mutated_builtin_rulesets(path, where, insert, replace):
    text = path.read_text()
    at = where % (len(text) + 1)
    load_text(text[:at] + insert + text[at + (len(insert) if replace else 0):])


@FUZZ
@given(st.dictionaries(st.sampled_from(["hand_size", "match.limit", "powers.7.draw", "deck.ranks", "players.max",
                                        "points.J", "match.format", "turn_limit", "x.y", "powers"]),
                       st.text(max_size=30), max_size=3))
def test_any_set_overrides(pairs):
    try:
        overrides = dict(parse_override(f"{key}={value}") for key, value in pairs.items())
    except RulesetError:
        return
    load_text((BUILTIN / "strafpunten.yaml").read_text(), overrides=overrides)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(min_value=-1, max_value=7), min_size=1, max_size=6))
def test_any_extends_graph(parents):
    """File i extends file parents[i] (-1: a built-in): chains, cycles and self-references."""
    for i, parent in enumerate(parents):
        target = "strafpunten" if parent < 0 else f"graph{parent % len(parents)}.yaml"
        (WORKDIR / f"graph{i}.yaml").write_text(f"extends: {target}\nname: graph{i}\n")
    for i in range(len(parents)):
        try:
            assert load(WORKDIR / f"graph{i}.yaml", registry().ruleset_path).name == f"graph{i}"
        except RulesetError as error:
            assert "cycle" in str(error)


LAUGHS = "name: x\na: &a [x,x,x,x,x,x,x,x,x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]\n" for i in range(8))

HOSTILE = {
    "a billion laughs": (LAUGHS, "expands to too many values"),
    "an alias to itself": ("name: x\na: &a [*a]\n", "nested too deeply"),
    "deeply nested lists": ("name: x\ndescription: " + "[" * 5000 + "]" * 5000, "nested too deeply"),
    "lists nested deep enough to crash libyaml": ("name: x\nd: " + "[" * 100000 + "]" * 100000, "nested too deeply"),
    "deeply nested maps": ("name: x\npowers: " + "{a: " * 3000 + "1" + "}" * 3000, "nested too deeply"),
    "a 5000-digit number": ("name: x\nhand_size: " + "9" * 5000, "a value YAML cannot read"),
    "a huge hand": ("name: x\nhand_size: 1000000000000000000000", "less than or equal to 52"),
    "an infinite limit": ("name: x\nmatch: {format: limit, limit: .inf}", "match.limit"),
    "an impossible date": ("name: x\ndescription: 2001-13-45", "a value YAML cannot read"),
    "a python tag": ("name: x\nhand_size: !!python/object/apply:os.system ['true']", "YAML syntax error"),
    "non-UTF-8 bytes": (b"name: x\ndescription: \xff\xfe\n", "not UTF-8 text"),
    "a list at the top": ("- a\n- b\n", "expected a mapping"),
    "a match that cannot end": (
        "extends: strafpunten\nname: x\npoints: {"
        + ", ".join(f"{r}: 0" for r in ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"])
        + "}",
        "could never end",
    ),
    "a file too big": ("name: x\n" + "#" * (MAX_FILE_BYTES + 10), "at most"),
    "itself as parent": ("extends: self.yaml\nname: x\n", "cycle"),
}


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_each_hostile_file_gets_a_clear_error(case):
    content, words = HOSTILE[case]
    name = "self.yaml" if case == "itself as parent" else "hostile.yaml"
    error = load_text(content, name)
    assert isinstance(error, RulesetError) and words in str(error) and name in str(error)


def test_a_long_extends_chain_is_refused():
    for i in range(MAX_EXTENDS_DEPTH + 2):
        (WORKDIR / f"chain{i}.yaml").write_text(f"extends: chain{i + 1}.yaml\nname: chain{i}\n")
    (WORKDIR / f"chain{MAX_EXTENDS_DEPTH + 2}.yaml").write_text("extends: strafpunten\nname: end\n")
    with pytest.raises(RulesetError, match="levels of extends"):
        load(WORKDIR / "chain0.yaml", registry().ruleset_path)
    assert (
        load(WORKDIR / f"chain{MAX_EXTENDS_DEPTH // 2}.yaml", registry().ruleset_path).name
        == f"chain{MAX_EXTENDS_DEPTH // 2}"
    )


def test_special_files_are_refused_without_reading(tmp_path):
    import os

    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)
    for path in (fifo, Path("/dev/zero"), tmp_path):
        with pytest.raises(RulesetError, match="not a regular file"):
            load(path)


def test_the_cli_prints_one_error_line_for_hostile_input(tmp_path, monkeypatch, capsys):
    from runner.cli import main

    bad = tmp_path / "bad.yaml"
    bad.write_text(HOSTILE["deeply nested maps"][0])
    for args in (["rulesets", "check", str(bad)], ["rulesets", "check", "x" * 5000],
                 ["rulesets", "show", "standard", "--set", "hand_size=" + "9" * 5000]):
        monkeypatch.setattr("sys.argv", ["maumau", *args])
        with pytest.raises(SystemExit) as exit_:
            main()
        err = capsys.readouterr().err
        assert exit_.value.code == 1 and err.startswith("Error: ") and err.count("\n") == 1, err
