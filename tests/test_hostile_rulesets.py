"""Hostile ruleset files: anything at all gives a Ruleset or one clean RulesetError, never a hang or traceback."""

import json
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


# ---------------------------------------------------------------- both engine paths

ENGINE_PATHS = {"compiled": "", "pure": "1"}  # MAUMAU_PURE (runner/accel.py): the compiled modules where built, or not

LOAD_EACH = """
import json, sys
from runner.errors import RulesetError
from runner.plugins import registry
from runner.rules import load
found = {}
for path in sys.argv[1:]:
    try:
        found[path] = "ok: " + load(path, registry().ruleset_path).name
    except RulesetError as error:
        found[path] = str(error)
print(json.dumps(found))
"""


def run_on(path: str, script: str, *args, memory: int | None = None):
    """`python -c script args` on an engine path (a process of its own: the path is chosen at import), with at
    most `memory` bytes of address space."""
    import os
    import resource
    import subprocess
    import sys

    def cap():
        if memory is not None:
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    env = {**os.environ, "MAUMAU_PURE": ENGINE_PATHS[path]}
    return subprocess.run([sys.executable, "-c", script, *map(str, args)], capture_output=True, text=True, env=env,
                          preexec_fn=cap, timeout=600)  # a guard against a hang, not a measure of speed


def test_each_hostile_file_gets_the_same_clear_error_on_both_engine_paths(tmp_path):
    files = []
    for index, case in enumerate(sorted(HOSTILE)):
        if case == "itself as parent":
            continue
        content = HOSTILE[case][0]
        files.append(tmp_path / f"hostile{index}.yaml")
        files[-1].write_bytes(content if isinstance(content, bytes) else content.encode())
    answers = {}
    for path in ENGINE_PATHS:
        done = run_on(path, LOAD_EACH, *files)
        assert done.returncode == 0, done.stderr
        answers[path] = json.loads(done.stdout)
    assert answers["pure"] == answers["compiled"]
    for index, case in enumerate(sorted(HOSTILE)):
        if case != "itself as parent":
            assert HOSTILE[case][1] in answers["pure"][str(tmp_path / f"hostile{index}.yaml")]


CHAIN_BOMB = ("extends: standard\nname: bomb\nplayers: {min: 2, max: 2}\ndeck: {ranks: skat, jokers: 4}\n"
              "points: {X: 20}\nmultiple: {chain: true}\npowers: {7: {draw: 52}}\n")

PLAY_ROUND = """
import json, random, sys
from runner.accel import status
from runner.game.engine import Round
from runner.plugins import registry
from runner.rules import load
rules = load(sys.argv[1], registry().ruleset_path)
rnd, rng = Round.deal(rules, random.Random(1), 2), random.Random(1)
most_hand = most_legal = 0
for _ in range(int(sys.argv[2])):
    if rnd.over:
        break
    most_hand = max(most_hand, len(rnd.hands[rnd.current]))
    legal = rnd.legal()
    most_legal = max(most_legal, len(legal))
    rnd.apply(rng.choice(legal))
print(json.dumps({"hand": most_hand, "legal": most_legal, "engine": status()["runner.game.house_rules"]}))
"""


@pytest.mark.parametrize("path", sorted(ENGINE_PATHS))
def test_a_chain_file_that_rulesets_check_accepts_plays_in_bounded_memory_on_both_engine_paths(path, tmp_path):
    """The issue's file (a Skat deck, four jokers, chains, a seven drawing 52): its hands grow to 30 cards and more
    within a few turns, whose chains ran out of memory; under 1.5 GiB of address space each turn now lists at most
    MAX_PLAYS plays of several cards (each one Play, or four where a Jack or joker goes last and names a suit)."""
    from runner.game.multiple import MAX_PLAYS

    bomb = tmp_path / "bomb.yaml"
    bomb.write_text(CHAIN_BOMB)
    done = run_on(path, PLAY_ROUND, bomb, 40, memory=3 << 29)
    assert done.returncode == 0, done.stderr[-2000:]
    played = json.loads(done.stdout)
    assert played["hand"] >= 30 and played["legal"] <= 4 * MAX_PLAYS + played["hand"] + 1, played
    assert path == "compiled" or played["engine"].startswith("pure"), played
