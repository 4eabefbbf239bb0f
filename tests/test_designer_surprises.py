"""Issue 29, a designer's surprises and bug 4: what `rulesets check` notes, which inherited keys a smaller deck
drops, table changes counted in players, the hand limit's error and its draw, and the narration of powers."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from runner.cli import app
from runner.errors import RulesetError
from runner.logs.narration import Narrator, PowerWords, event_line
from runner.plugins import registry
from support.scenario import deal, do, hand

SHORT_DECK = 'deck: {ranks: ["9", "10", J, Q, K, A]}\nplayers: {max: 4}\n'


def write(directory: Path, name: str, text: str) -> Path:
    path = directory / name
    path.write_text(text)
    return path


def check(*paths: Path):
    return CliRunner().invoke(app, ["rulesets", "check", *map(str, paths)])


def notes_of(path: Path) -> list[str]:
    return [line for line in check(path).stdout.splitlines() if line.startswith("note:")]


# ---------------------------------------------------------------- bug 4: no beside-note under replace


def test_a_power_under_a_replacing_powers_mapping_is_not_noted_as_added_beside_an_inherited_one(tmp_path):
    path = write(tmp_path, "b4.yaml", "extends: standard\nname: b4\npowers: {replace: true, 7: {play_again: true}}\n")
    result = check(path)
    assert result.exit_code == 0 and notes_of(path) == []
    ruleset = registry().load_ruleset(str(path))
    assert ruleset.powers["7"].draw == 0 and ruleset.powers["7"].play_again
    by_players = write(tmp_path, "b4p.yaml", "extends: b4.yaml\nname: b4p\n"
                                             "powers_by_players: {2: {replace: true, 7: {skip: 1}}}\n")
    assert check(by_players).exit_code == 0 and notes_of(by_players) == []


def test_the_cookbooks_entry_3_checks_without_a_note(tmp_path):
    text = (Path(__file__).parent.parent / "docs" / "house-rules.md").read_text()
    entry = text[text.index("### 3. Replacing an inherited power"):text.index("### 4. ")]
    block = entry[entry.index("```yaml\n") + 8:entry.rindex("```")]
    ruleset, notes = registry().check_ruleset(str(write(tmp_path, "e3.yaml", block)))
    assert ruleset.name == "ace-skips-only" and notes == []


# ---------------------------------------------------------------- inherited keys of ranks the deck lost


def test_inherited_powers_of_ranks_the_deck_lost_are_left_out_with_a_note(tmp_path):
    path = write(tmp_path, "short.yaml", f"extends: standard\nname: short\n{SHORT_DECK}")
    result = check(path)
    assert result.exit_code == 0, result.output
    assert notes_of(path) == [
        f"note: {path}: powers.7: inherited from standard and left out: the deck has no 7 (its ranks: 9 10 J Q K A)",
        f"note: {path}: powers.8: inherited from standard and left out: the deck has no 8 (its ranks: 9 10 J Q K A)",
    ]
    ruleset = registry().load_ruleset(str(path))
    assert set(ruleset.powers) == {"J"}
    played = CliRunner().invoke(app, ["play", "-r", str(path), "-b", "random", "-b", "random", "--seed", "1"])
    assert played.exit_code == 0, played.output


def test_a_rank_the_file_itself_names_is_still_an_error(tmp_path):
    path = write(tmp_path, "named.yaml", f"extends: standard\nname: named\n{SHORT_DECK}powers: {{7: {{draw: 3}}}}\n")
    with pytest.raises(RulesetError) as caught:
        registry().load_ruleset(str(path))
    assert (caught.value.key, caught.value.problem) == ("powers.7", "the deck has no 7 (its ranks: 9 10 J Q K A)")


def test_inherited_cards_in_lists_are_left_out_too(tmp_path):
    write(tmp_path, "base.yaml", "extends: standard\nname: base\npowers: {A: {skip: 1, skip_with: [8, A]}}\n"
                                 "going_out: {forbidden: [7, J]}\n")
    path = write(tmp_path, "child.yaml", f"extends: base.yaml\nname: child\n{SHORT_DECK}")
    ruleset, notes = registry().check_ruleset(str(path))
    assert ruleset.powers["A"].skip_with == ("A",) and ruleset.going_out.forbidden == ("J",)
    assert {note.key for note in notes} == {"powers.7", "powers.8", "powers.A.skip_with", "going_out.forbidden"}


# ---------------------------------------------------------------- an empty mapping over an inherited one


def test_an_empty_mapping_over_an_inherited_one_that_matters_gets_a_note_with_the_fix(tmp_path):
    path = write(tmp_path, "one.yaml", "extends: standard\nname: one\ndeck: {copies_by_players: {}}\n")
    assert notes_of(path) == [
        f"note: {path}: deck.copies_by_players: {{}} keeps the inherited {{7: 2}} (from standard): mappings merge "
        "key by key; for an empty one write `copies_by_players: {replace: true}`"]
    assert registry().load_ruleset(str(path)).deck.copies_for(7) == 2  # what the note says: {} merges
    fixed = write(tmp_path, "fixed.yaml",
                  "extends: standard\nname: fixed\ndeck: {copies_by_players: {replace: true}}\n")
    assert notes_of(fixed) == [] and registry().load_ruleset(str(fixed)).deck.copies_for(7) == 1


@pytest.mark.parametrize("name", ["strafpunten", "standard-skat", "standard-two-decks"])
def test_no_note_where_the_inherited_entries_change_nothing(name):
    """Each writes `copies_by_players: {}`; at most 6 (5) players, or with two copies anyway, {7: 2} does nothing."""
    assert registry().check_ruleset(name)[1] == []


# ---------------------------------------------------------------- jump_in: identical with one pack


def test_jump_in_identical_without_identical_cards_gets_a_note(tmp_path):
    path = write(tmp_path, "ji.yaml", "extends: standard\nname: ji\njump_in: identical\n")
    assert notes_of(path) == [
        f"note: {path}: jump_in: identical: at 2 to 6 players the deck holds one of each card, so no card is "
        "identical to another and nobody can jump in; write jump_in: same_rank, or deal two packs (deck.copies: 2)"]
    two = write(tmp_path, "two.yaml", "extends: standard-two-decks\nname: two\njump_in: identical\n")
    same = write(tmp_path, "same.yaml", "extends: standard\nname: same\njump_in: same_rank\n")
    assert notes_of(two) == [] and notes_of(same) == []


# ---------------------------------------------------------------- players, not seat numbers


def test_a_seat_left_makes_room_for_a_player_who_joins(tmp_path):
    log = tmp_path / "m.jsonl"
    bots = [arg for _ in range(6) for arg in ("-b", "random")]
    rules = ["--set", "players.max=6", "--set", "match.table_changes=true"]
    played = CliRunner().invoke(app, ["play", "-r", "standard", *rules, *bots, "--leave", "2:0", "--join", "3:random",
                                      "--seed", "3", "--log", str(log)])
    assert played.exit_code == 0, played.output
    verified = CliRunner().invoke(app, ["verify", str(log)])
    assert verified.exit_code == 0 and verified.stdout.startswith("ok: "), verified.output
    refused = CliRunner().invoke(app, ["play", "-r", "standard", *rules, *bots, "--leave", "3:0", "--join", "2:random",
                                       "--seed", "3"])
    assert str(refused.exception) == "joins would seat 7 players from round 2, more than 6"


# ---------------------------------------------------------------- the hand limit


def test_a_hand_limit_below_every_deal_is_refused_naming_every_table_size():
    with pytest.raises(RulesetError) as caught:
        registry().load_ruleset("standard", {"round.hand_limit": 3})
    assert caught.value.problem == ("5 cards are dealt to each player at every table size (2 to 8 players), more "
                                    "than hand_limit (3): every round would end at once")


LIMITED = ["--set", "round.hand_limit=5", "--set", "hand_size_by_players={4: 6}"]  # 6 cards from 4 players on


def test_a_hand_limit_below_the_deal_at_some_sizes_refuses_the_table_asked_for_and_names_it(tmp_path):
    """The ruleset plays at 2 and 3 players; a match at 5 is refused by its own size, not the smallest one."""
    ruleset = registry().load_ruleset("standard", {"round.hand_limit": 5, "hand_size_by_players": {4: 6}})
    assert ruleset.table_refusal(3) is None
    assert ruleset.table_refusal(5) == (
        "at 5 players 6 cards are dealt to each, more than round.hand_limit (5): every round would end at once; "
        "make hand_limit at least 6, or play at 2 to 3 players")
    three = CliRunner().invoke(app, ["play", "-r", "standard", *LIMITED, *["-b", "random"] * 3, "--seed", "1"])
    assert three.exit_code == 0, three.output
    five = CliRunner().invoke(app, ["play", "-r", "standard", *LIMITED, *["-b", "random"] * 5, "--seed", "1"])
    assert "at 5 players 6 cards are dealt to each" in str(five.exception)
    tournament = CliRunner().invoke(app, ["tournament", "-r", "standard", *LIMITED, *["-b", "random"] * 4,
                                          "--deals", "1", "--out", str(tmp_path / "t")])
    assert "at 4 players 6 cards are dealt to each" in f"{tournament.output}{tournament.exception}"
    path = write(tmp_path, "limited.yaml", "extends: standard\nname: limited\nround: {hand_limit: 5}\n"
                                           "hand_size_by_players: {4: 6}\n")
    assert notes_of(path) == [f"note: {path}: round.hand_limit: below the cards dealt at 4 to 8 players: a match "
                              "there is refused (it plays at 2 to 3 players; make hand_limit at least 6 to play at "
                              "every size)"]


def test_a_draw_penalty_is_drawn_whole_before_the_hand_limit_ends_the_round():
    """As the schema and the docs (Rulesets) say: the limit is checked once the draw is complete."""
    rnd = deal("standard", ["7H 9C 10C", "2D 3D 4D", "5S 6S QS"], "9H", "2C 3C 4C 5C 6C 2S 3S 4S",
               overrides={"round.hand_limit": 4})
    do(rnd, "7H", "draw")
    assert rnd.over and rnd.winner is None and len(hand(rnd, 1)) == 5  # both cards of the penalty, over the 4
    description = registry().load_ruleset("standard").model_json_schema()["$defs"]["RoundEnd"]
    assert "a draw penalty of 5 is drawn whole" in description["properties"]["hand_limit"]["description"]


# ---------------------------------------------------------------- the narration tells what powers do


def narrated(tmp_path: Path, text: str, seed: int) -> tuple[list[dict], list[str], list[str]]:
    """The log of a 3-seat random match of `text`, its replay lines and the narration to seat 0."""
    import json

    path = write(tmp_path, "house.yaml", text)
    log = tmp_path / "m.jsonl"
    played = CliRunner().invoke(app, ["play", "-r", str(path), "-b", "random", "-b", "random", "-b", "random",
                                      "--seed", str(seed), "--log", str(log)])
    assert played.exit_code == 0, played.output
    events = [json.loads(line) for line in log.read_text().splitlines()]
    powers, narrator = PowerWords(), Narrator(0, ["a", "b", "c"])
    lines = [event_line(event, ["a", "b", "c"], powers) for event in events]
    told = [line for event in events for line in narrator.tell(event)]
    return events, lines, told


def test_a_reversing_play_is_told_as_such_and_a_black_jacks_draw_as_a_penalty(tmp_path):
    events, lines, told = narrated(tmp_path, "extends: standard\nname: house\n"
                                             "powers: {9: {reverse: true}, JC JS: {replace: true, draw: 5}}\n", 4)
    nines = [event for event in events if event["type"] == "play" and event["card"].startswith("9")]
    assert nines
    reversing = [line for line in lines if "reversing the direction of play" in line]
    assert len(reversing) == len(nines)
    assert sum("reversing the direction of play" in line for line in told) == len(nines)
    penalties = [line for line in lines if " draws " in line and "penalty" in line]
    assert penalties and not any("(seven)" in line for line in lines)
    replayed = CliRunner().invoke(app, ["replay", str(tmp_path / "m.jsonl")]).stdout
    assert replayed.count("reversing the direction") == len(nines)


def test_a_set_that_takes_ranks_away_leaves_out_what_the_ruleset_has_for_them():
    overrides = {"deck.ranks": ["9", "10", "J", "Q", "K", "A"], "players.max": 4}
    assert set(registry().load_ruleset("standard", overrides).powers) == {"J"}
    with pytest.raises(RulesetError) as caught:  # a power the --set itself names stays an error
        registry().load_ruleset("standard", {**overrides, "powers.7.draw": 3})
    assert caught.value.key == "powers.7"
