"""Reading ruleset files: the `replace: true` directive of extends, card keys, and the notes of `rulesets check`."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from runner.cli import app
from runner.errors import RulesetError
from runner.game.cards import parse_card
from runner.game.checks import chain_plays
from runner.plugins import registry

C = parse_card


def write(directory: Path, name: str, text: str) -> Path:
    path = directory / name
    path.write_text(text)
    return path


def load(path: Path, overrides=None):
    return registry().load_ruleset(str(path), overrides)


def check(*paths: Path):
    return CliRunner().invoke(app, ["rulesets", "check", *map(str, paths)])


def test_replace_true_drops_the_inherited_mapping_whole(tmp_path):
    merged = load(write(tmp_path, "merged.yaml", "extends: standard\nname: merged\npowers: {8: {reverse: true}}\n"))
    assert merged.powers["8"].skip == 1 and merged.powers["8"].reverse
    replaced = load(write(tmp_path, "replaced.yaml",
                          "extends: standard\nname: replaced\npowers: {8: {replace: true, reverse: true}}\n"))
    assert replaced.powers["8"].skip == 0 and replaced.powers["8"].reverse
    assert replaced.powers["7"].draw == 2  # only the mapping that says replace is replaced


def test_replace_works_for_any_mapping_and_at_any_depth(tmp_path):
    ruleset = load(write(tmp_path, "r.yaml", "extends: standard\nname: r\n"
                                             "powers: {replace: true, Q: {replace: true, skip: 1}}\n"
                                             "points: {replace: true, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1, 7: 1, 8: 1, 9: 1, "
                                             "10: 1, J: 1, Q: 1, K: 1, A: 1}\n"))
    assert list(ruleset.powers) == ["Q"] and ruleset.powers["Q"].skip == 1
    assert set(ruleset.points.values()) == {1}


def test_replace_in_a_file_without_extends_is_read_as_a_plain_mapping(tmp_path):
    ruleset = load(write(tmp_path, "root.yaml", "name: root\npowers: {8: {replace: true, skip: 1}}\n"))
    assert ruleset.powers["8"].skip == 1


@pytest.mark.parametrize("text, key, problem", [
    ("powers: {8: {replace: yes please}}", "powers.8.replace", "expected true or false, got 'yes please'"),
    ("replace: true", "replace", "replace at the top of a file would drop everything inherited"),
])
def test_a_bad_replace_is_an_error_naming_the_key(tmp_path, text, key, problem):
    path = write(tmp_path, "bad.yaml", f"extends: standard\nname: bad\n{text}\n")
    with pytest.raises(RulesetError) as caught:
        load(path)
    assert (caught.value.source, caught.value.key, caught.value.problem) == (str(path), key, problem)


def test_card_keys_merge_whatever_their_spelling(tmp_path):
    base = write(tmp_path, "base.yaml", "extends: standard\nname: base\npowers: {\"JC, JS\": {draw: 5}}\n")
    child = load(write(tmp_path, "child.yaml", "extends: base.yaml\nname: child\npowers: {jc js: {stack: false}}\n"))
    assert child.powers["JC JS"].draw == 5 and not child.powers["JC JS"].stack
    assert load(base, {"powers.kh.draw": 3}).power_of(C("KH")).draw == 3


def test_two_spellings_of_one_key_in_a_file_are_refused(tmp_path):
    path = write(tmp_path, "twice.yaml", "extends: standard\nname: twice\npoints: {10: 10, '10': 5}\n")
    result = check(path)
    assert result.exit_code == 1
    assert result.stderr == (f"Error: {path}: points.10: given twice, as 10 (line 3) and as '10' (line 3) "
                             "(hint: keep one of them)\n")  # found as the YAML is read, both spellings named


def test_check_notes_a_power_added_beside_inherited_ones_and_a_shadowing_card_key(tmp_path):
    path = write(tmp_path, "house.yaml", "extends: standard\nname: house\n"
                                         "powers: {8: {reverse: true}, JD: {skip: 1}, 7: {draw: 3}}\n")
    result = check(path)
    assert result.exit_code == 0 and result.stderr == ""
    assert result.stdout.splitlines() == [
        f"ok: {path} (house; a match ends after at most 1000 rounds)",
        f"note: {path}: powers.8: reverse added beside the inherited skip (from standard); to drop those, "
        "write `replace: true` in it",
        f"note: {path}: powers.JD: replaces the powers of J for JD (a single-card key wins over a key naming several "
        "cards, which wins over a rank; the chosen power applies whole)",
    ]


def test_replace_or_switching_the_inherited_power_off_gives_no_note(tmp_path):
    quiet = [write(tmp_path, "a.yaml", "extends: standard\nname: a\npowers: {8: {replace: true, reverse: true}}\n"),
             write(tmp_path, "b.yaml", "extends: standard\nname: b\npowers: {8: {skip: 0, reverse: true}}\n"),
             write(tmp_path, "c.yaml", "extends: standard\nname: c\npowers: {9: {reverse: true}}\n")]
    result = check(*quiet)
    assert result.exit_code == 0 and "note:" not in result.stdout


def test_check_notes_a_match_that_will_likely_end_at_the_round_bound(tmp_path):
    path = write(
        tmp_path,
        "endless.yaml",
        "extends: standard\nname: endless\nmatch: {limit: 1000000}\n"
        "points: {replace: true, 2: 0, 3: 0, 4: 0, 5: 0, 6: 0, 7: 0, 8: 0, 9: 0, 10: 0, J: 0, Q: 0, K: 0, A: 1}\n",
    )
    result = check(path)
    assert result.exit_code == 0
    note, = [line for line in result.stdout.splitlines() if line.startswith("note:")]
    assert note.startswith(f"note: {path}: match.max_rounds: a losing hand scores about 0.38 points a round")
    assert "it will likely end at max_rounds (1000)" in note


def test_check_notes_a_wild_card_that_is_also_free_as_naming_nothing_that_binds(tmp_path):
    both = write(tmp_path, "both.yaml", "extends: standard\nname: both\npowers:\n  J: {wild: true, free: true}\n"
                 "powers_by_players:\n  3: {Q: {wild: true, free: true}}\n")
    notes = [line for line in check(both).stdout.splitlines() if line.startswith("note:")]
    assert [note.split(": ")[2] for note in notes] == ["powers.J", "powers_by_players.3.Q"], notes
    assert all("wild and free together" in note for note in notes)
    plain = write(tmp_path, "plain.yaml", "extends: standard\nname: plain\npowers:\n  J: {wild: true, wish: none, "
                  "free: true}\n")
    assert not [line for line in check(plain).stdout.splitlines() if line.startswith("note:")]


def test_check_notes_how_many_plays_a_chain_can_list_and_the_cap_that_bounds_them(tmp_path):
    """Hands grow past one suit (standard: 104 cards from 7 players, so 97 in one hand): the figure is of the
    largest hand, and says the engine's cap."""
    chains = write(tmp_path, "chains.yaml", "extends: standard\nname: chains\nmultiple: {chain: true}\n")
    note, = [line for line in check(chains).stdout.splitlines() if line.startswith("note:")]
    assert note == (f"note: {chains}: multiple.chain: a hand can grow to 97 cards, which can list at most "
                    f"{chain_plays(97, None):,} chains in one turn (as many as if every card matched every other), "
                    "each a legal move: bots think longer and matches slow down; a turn lists only the first 25,000 "
                    "plays of several cards it finds (runner/game/multiple.py); cap a chain with multiple.chain_max "
                    "(2: at most 9,409) or hands with round.hand_limit (9: at most 9,225)")
    capped = write(tmp_path, "capped.yaml", "extends: standard\nname: capped\nmultiple: {chain: true, chain_max: 4}\n"
                   "round: {hand_limit: 12}\n")
    assert "note:" not in check(capped).stdout  # 12 cards, 4 a chain: 12 * (1 + 11 + 55 * 2 + 165 * 3) = 7,404
    assert chain_plays(12, 4) == 7_404


def test_check_notes_a_chain_file_whose_hands_grow_past_one_suit(tmp_path):
    """The issue's file: a Skat deck with four jokers, chains and a seven that draws 52 passed with no note (a suit
    of 8 cards lists 3,592 chains) and ran out of memory; its hands grow to 34 cards."""
    bomb = write(tmp_path, "bomb.yaml", "extends: standard\nname: bomb\nplayers: {min: 2, max: 2}\n"
                 "deck: {ranks: skat, jokers: 4}\npoints: {X: 20}\nmultiple: {chain: true}\npowers: {7: {draw: 52}}\n")
    note, = [line for line in check(bomb).stdout.splitlines() if line.startswith("note:")]
    assert "a hand can grow to 34 cards" in note and f"at most {chain_plays(34, None):,} chains" in note
    assert "only the first 25,000 plays" in note


def test_every_builtin_checks_without_a_note():
    names = sorted(registry().rulesets)
    for name in names:
        ruleset, notes = registry().check_ruleset(name)
        assert notes == [], (name, notes)
