"""The ruleset model's keys: defaults, bounds, selectors and precedence, jokers, table sizes, formats, notes.

Each bad value is refused as `rulesets check` refuses it: a RulesetError naming the file, the key and the fix.
"""

from __future__ import annotations

import pytest

from runner.errors import RulesetError
from runner.game.cards import RANKS, Card, make_deck, parse_card
from runner.game.ruleset import NO_POWER, Ruleset
from runner.game.selectors import normalize
from runner.plugins import registry
from runner.rules import build

SOURCE = "house.yaml"


def rules(**data) -> Ruleset:
    return build({"name": "house", **data}, SOURCE)


def refused(**data) -> RulesetError:
    with pytest.raises(RulesetError) as caught:
        rules(**data)
    assert caught.value.source == SOURCE
    return caught.value


C = parse_card
WITH_JOKERS = {**Ruleset(name="x").points, "X": 50}

# ---------------------------------------------------------------------------- defaults and the logs


NEW_TOP_KEYS = {"hand_size_by_players", "powers_by_players", "multiple", "going_out", "scoring", "round", "jump_in"}


@pytest.mark.parametrize("name", sorted(registry().rulesets))
def test_a_builtin_keeps_its_log_data_and_shows_the_new_keys_with_defaults(name):
    ruleset = registry().load_ruleset(name)
    assert Ruleset.model_validate(ruleset.to_data()) == ruleset
    shown = ruleset.model_dump(mode="json")
    assert NEW_TOP_KEYS <= shown.keys() and "max_rounds" in shown["match"]
    if not (NEW_TOP_KEYS & ruleset.to_data().keys()):  # a ruleset without the new keys logs none
        assert "max_rounds" not in ruleset.to_data()["match"]
        assert all("stack_with" not in power for power in ruleset.to_data()["powers"].values())


def test_defaults_keep_todays_rules():
    ruleset = rules()
    power = ruleset.powers_for()
    assert power == {} and ruleset.power_of(C("JC")) is NO_POWER
    assert ruleset.deck_for(4) == (tuple("2 3 4 5 6 7 8 9 10 J Q K A".split()), 1, 0)
    assert ruleset.hand_size_for(4) == 5
    assert ruleset.match.max_rounds == 1000 and ruleset.deal.next_dealer == "rotate"
    assert (ruleset.drawing.until_playable, ruleset.drawing.reshuffle, ruleset.drawing.max) == (False, True, None)
    assert ruleset.scoring.count == "points" and ruleset.jump_in == "none" and not ruleset.round.play_on
    seven = rules(powers={7: {"draw": 2}}).power_of(C("7H"))
    assert (seven.ends_turn, seven.target, seven.stack_with, seven.cancels, seven.wish) == (
        True,
        "next",
        (),
        (),
        "suit",
    )
    assert rules().to_data().keys() == {
        "name",
        "description",
        "players",
        "deck",
        "hand_size",
        "deal",
        "upcard",
        "powers",
        "drawing",
        "announcements",
        "last_card_draws",
        "points",
        "match",
        "turn_limit",
    }


def test_a_new_key_set_appears_in_the_log_data_and_reads_back():
    ruleset = rules(powers={"JC JS": {"draw": 5, "stack_with": ["JC JS"], "ends_turn": False}},
                    deck={"jokers": 2}, points=WITH_JOKERS, multiple={"same_rank": True},
                    match={"format": "rounds", "rounds": 10}, hand_size_by_players={3: 4})
    data = ruleset.to_data()
    assert data["powers"]["JC JS"] == {**{k: v for k, v in rules(powers={8: {}}).to_data()["powers"]["8"].items()},
                                       "draw": 5, "stack_with": ["JC JS"], "ends_turn": False}
    assert data["deck"]["jokers"] == 2 and data["multiple"] == {"same_rank": True, "runs": "none", "run_min": 3,
                                                               "chain": False, "suit_with": [], "power": "last"}
    assert data["match"]["rounds"] == 10 and "max_rounds" not in data["match"]
    assert data["hand_size_by_players"] == {"3": 4}
    assert Ruleset.model_validate(data) == ruleset


# ---------------------------------------------------------------------------- selectors and precedence


@pytest.mark.parametrize(
    "written, canonical",
    [
        (7, "7"),
        ("j", "J"),
        ("kh", "KH"),
        ("JC, JS", "JC JS"),
        ("  2 ,3 ", "2 3"),
        ("x", "X"),
        ("xr", "XR"),
        ("10c", "10C"),
    ],
)
def test_a_selector_is_read_case_blind_and_ints_as_ranks(written, canonical):
    assert normalize(written) == canonical


@pytest.mark.parametrize("written", ["1", "Z", "KZ", "11", "", "JC;JS", True, 1.5])
def test_a_bad_selector_is_refused(written):
    with pytest.raises(ValueError):
        normalize(written)


def test_the_most_specific_key_gives_a_cards_power_whole():
    ruleset = rules(powers={"J": {"wild": True}, "JC JS": {"draw": 5}, "JC": {"skip": 1}, "KH KS X": {"draw": 4}},
                    deck={"jokers": 2}, points=WITH_JOKERS)
    assert ruleset.power_of(C("JH")).wild
    assert ruleset.power_of(C("JS")).draw == 5 and not ruleset.power_of(C("JS")).wild  # whole: no merge with J
    assert ruleset.power_of(C("JC")).skip == 1 and not ruleset.power_of(C("JC")).draw
    assert ruleset.power_of(C("XB")).draw == 4 and ruleset.power_of(C("KH")).draw == 4
    assert ruleset.power_of(C("KC")) is NO_POWER
    assert ruleset.cards("jc, js") == {C("JC"), C("JS")}


@pytest.mark.parametrize("powers, key, named", [
    ({"J": {"wild": True}, "J Q": {"skip": 1}}, "powers.J Q", "powers.J"),
    ({"JC JS": {"draw": 5}, "JS JC": {"skip": 1}}, "powers.JS JC", "powers.JC JS"),
    ({"JC JS": {"draw": 5}, "JS JD": {"skip": 1}}, "powers.JS JD", "powers.JC JS"),
])
def test_two_keys_of_the_same_specificity_naming_a_card_are_an_error_naming_both(powers, key, named):
    error = refused(powers=powers)
    assert error.key == key and named in error.problem and "equally specifically" in error.problem
    assert "single-card key wins" in error.hint


@pytest.mark.parametrize("mapping, key", [
    ({"powers": {10: {"skip": 1}, "10": {"reverse": True}}}, "powers.10"),
    ({"points": {10: 10, "10": 5}}, "points.10"),
    ({"powers": {"jc": {"skip": 1}, "JC": {"reverse": True}}}, "powers.JC"),
])
def test_two_spellings_of_one_key_are_an_error(mapping, key):
    error = refused(**mapping)
    assert error.key == key and "one would silently win" in error.problem


def test_a_rank_the_deck_does_not_have_is_an_error_listing_the_decks_ranks():
    error = refused(deck={"ranks": "skat"}, powers={2: {"draw": 2}})
    assert (error.key, error.problem) == ("powers.2", "the deck has no 2 (its ranks: 7 8 9 10 J Q K A)")
    assert refused(deck={"ranks": "skat"}, powers={"2H 7H": {"skip": 1}}).key == "powers.2H 7H"
    assert refused(deck={"ranks": "skat"}, powers={7: {"draw": 2, "stack_with": [8, 3]}}).key == "powers.7.stack_with"
    assert refused(deck={"ranks": "skat"}, going_out={"forbidden": ["6"]}).key == "going_out.forbidden"
    assert refused(deck={"ranks": "skat"}, scoring={"multiplier": {5: 2}}).key == "scoring.multiplier.5"


def test_a_rank_that_some_table_size_deals_is_allowed():
    ruleset = rules(deck={"ranks": "skat", "ranks_by_players": {5: "full"}}, powers={2: {"draw": 2}})
    assert ruleset.deck_for(4).ranks == ("7", "8", "9", "10", "J", "Q", "K", "A")
    assert len(ruleset.deck_for(5).ranks) == 13
    assert ruleset.power_of(C("2C")).draw == 2


def test_lists_of_selectors_take_any_selector_and_a_single_value():
    power = rules(powers={2: {"draw": 2, "stack_with": [3, "X", "KH KS"]}, 3: {"draw": 3, "stack_with": 2}},
                  deck={"jokers": 2}, points=WITH_JOKERS).powers
    assert power["2"].stack_with == ("3", "X", "KH KS") and power["3"].stack_with == ("2",)
    assert rules(powers={"JH JD": {"cancels": True}}).powers["JH JD"].cancels is True
    assert rules(powers={"JH JD": {"cancels": ["JC JS"]}}).powers["JH JD"].cancels == ("JC JS",)


# ---------------------------------------------------------------------------- jokers


def test_jokers_are_written_XR_XB_and_alternate_in_deck_order():
    assert parse_card("xb") is Card("X", "B") and Card("X", "R").is_joker and str(Card("X", "R")) == "XR"
    with pytest.raises(ValueError):
        Card("X", "H")
    with pytest.raises(ValueError):
        Card("7", "R")
    deck = make_deck(("7", "8"), 2, 3)
    assert len(deck) == 19 and [card.text for card in deck[-3:]] == ["XR", "XB", "XR"]
    assert sorted([C("XB"), C("2C"), C("XR"), C("AS")]) == [C("2C"), C("AS"), C("XR"), C("XB")]


def test_a_deck_with_jokers_counts_them_once_whatever_the_copies():
    ruleset = rules(
        deck={"copies": 2, "jokers": 4, "jokers_by_players": {6: 2}}, points=WITH_JOKERS, players={"max": 8}
    )
    assert ruleset.deck_for(4) == (ruleset.deck.ranks, 2, 4) and ruleset.deck_for(4).size == 108
    assert ruleset.deck_for(7).jokers == 2 and ruleset.deck.size_for(7) == 106
    assert ruleset.deck_for(4).cards().count(C("XB")) == 2 and ruleset.points_of(C("XR")) == 50


def test_jokers_need_points():
    error = refused(deck={"jokers": 2}, powers={"X": {"wild": True}})
    assert (error.key, error.hint) == ("points.X", "add e.g. `X: 50` under points")
    # counted as cards or not, a hand's card points decide `highest_only` and `blocked` (runner/game/checks.py):
    # jokers need points under every `scoring.count` (the fuzzer found the engine failing at scoring without them)
    counted = refused(deck={"jokers": 2}, scoring={"count": "cards"})
    assert (counted.key, counted.hint) == ("points.X", "add e.g. `X: 50` under points")
    points = {**{rank: 5 for rank in RANKS}, "X": 50}
    assert rules(deck={"jokers": 2}, scoring={"count": "cards"}, points=points).deck.jokers == 2


def test_a_joker_the_deck_does_not_have_is_an_error():
    assert refused(powers={"X": {"wild": True}}).problem.startswith("the deck has no X")
    error = refused(deck={"jokers": 1}, points=WITH_JOKERS, powers={"XB": {"draw": 5}})
    assert error.key == "powers.XB" and "jokers XR" in error.problem
    assert refused(deck={"jokers": 9}).key == "deck.jokers"


# ---------------------------------------------------------------------------- table sizes


def test_powers_by_players_replace_keys_whole_at_that_table_size():
    ruleset = rules(powers={"A": {"reverse": True}, 8: {"skip": 1}}, powers_by_players={2: {"A": {"play_again": True}}})
    assert ruleset.power_of(C("AH"), 2).play_again and not ruleset.power_of(C("AH"), 2).reverse
    assert ruleset.power_of(C("AH"), 3).reverse and ruleset.power_of(C("AH")).reverse
    assert ruleset.power_of(C("8S"), 2).skip == 1
    error = refused(powers={"J": {"wild": True}}, powers_by_players={2: {"J Q": {"skip": 1}}})
    assert error.key == "powers_by_players.2.J Q" and "powers.J" in error.problem
    assert refused(powers_by_players={2: {"Z": {"skip": 1}}}).key == "powers_by_players.2.Z"
    assert refused(powers_by_players={1: {"A": {"skip": 1}}}).key == "powers_by_players.1"


def test_hand_size_by_players_and_the_deck_is_checked_at_every_table_size():
    ruleset = rules(hand_size=7, hand_size_by_players={3: 5}, players={"max": 7})
    assert [ruleset.hand_size_for(n) for n in range(2, 8)] == [7, 5, 5, 5, 5, 5]
    error = refused(hand_size_by_players={6: 9}, players={"max": 6})
    assert error.key == "hand_size_by_players.6" and error.problem == ("6 players × 9 cards + 1 upcard need 55 cards, "
                                                                      "the deck has 52")
    error = refused(deck={"ranks": "skat", "ranks_by_players": {4: ["7", "8"]}}, players={"max": 4})
    assert error.key == "hand_size" and "4 players × 5 cards + 1 upcard need 21 cards, the deck has 8" in error.problem


def test_first_player_may_count_right_of_the_dealer_and_next_dealer_choices():
    assert rules(deal={"first_player": -1}).deal.first_player == -1
    assert refused(deal={"first_player": 16}).key == "deal.first_player"
    assert rules(deal={"next_dealer": "loser"}).deal.next_dealer == "loser"
    assert refused(deal={"next_dealer": "youngest"}).key == "deal.next_dealer"


# ---------------------------------------------------------------------------- match formats and scoring


@pytest.mark.parametrize(
    "data, key, hint",
    [
        ({"match": {"format": "target", "limit": 100}}, "match.format", "add `winner_collects: true` under scoring"),
        (
            {"match": {"format": "target"}, "scoring": {"winner_collects": True}},
            "match.limit",
            "add e.g. `limit: 100` under match",
        ),
        ({"match": {"format": "rounds"}}, "match.rounds", "add e.g. `rounds: 10` under match"),
        ({"match": {"format": "wins"}}, "match.wins", "add e.g. `wins: 5` under match"),
        (
            {"match": {"format": "limit", "limit": 100}, "scoring": {"winner_collects": True}},
            "scoring.winner_collects",
            "use `format: target` under match (the highest total wins)",
        ),
        ({"match": {"format": "rounds", "rounds": 2000}}, "match.max_rounds", "raise max_rounds to at least 2000"),
        ({"match": {"max_rounds": 0}}, "match.max_rounds", "use a larger number"),
    ],
)
def test_a_match_format_needs_its_keys(data, key, hint):
    error = refused(**data)
    assert (error.key, error.hint) == (key, hint)


def test_the_match_formats_load():
    assert rules(match={"format": "target", "limit": 100}, scoring={"winner_collects": True}).match.format == "target"
    assert rules(match={"format": "rounds", "rounds": 10}).match.rounds == 10
    assert rules(match={"format": "wins", "wins": 5}).match.wins == 5


def test_scoring_keys_and_the_multiplier_by_last_card():
    ruleset = rules(scoring={"multiplier": {"J": 2, "JH": 3}, "round_to": 5, "minimum": 10, "count": "cards"})
    assert [ruleset.multiplier_of(C(card)) for card in ("JC", "JH", "7C")] == [2, 3, 1]
    assert refused(scoring={"round_to": 0}).key == "scoring.round_to"
    assert refused(scoring={"count": "pips"}).key == "scoring.count"
    assert refused(scoring={"multiplier": {"J": 0}}).key == "scoring.multiplier.J"


def test_an_all_zero_deck_is_refused_unless_the_cards_themselves_count():
    zero = {rank: 0 for rank in "2 3 4 5 6 7 8 9 10 J Q K A".split()}
    assert refused(points=zero, match={"format": "limit", "limit": 100}).key == "points"
    assert (
        rules(points=zero, match={"format": "limit", "limit": 100}, scoring={"count": "cards"}).scoring.count == "cards"
    )
    assert rules(points=zero, match={"format": "limit", "limit": 100}, scoring={"minimum": 5}).scoring.minimum == 5


def test_a_hand_limit_below_the_deal_is_refused():
    assert rules(round={"hand_limit": 15}).round.hand_limit == 15
    error = refused(hand_size=7, round={"hand_limit": 6})
    assert error.key == "round.hand_limit" and error.hint == "make hand_limit at least 7"


# ---------------------------------------------------------------------------- power keys


@pytest.mark.parametrize(
    "power, key, hint",
    [
        ({"skip": 1, "stack_with": [8]}, "stack_with", "add `draw: N` beside it, or remove stack_with"),
        ({"skip": 1, "ends_turn": False}, "ends_turn", "add `draw: N` beside it, or remove ends_turn"),
        ({"skip": 1, "target": "previous"}, "target", "add `draw: N` beside it, or remove target"),
        ({"draw": 2, "skip_stack": "add"}, "skip_stack", "add `skip: 1` beside it, or remove skip_stack"),
        ({"wish": "rank"}, "wish", "add `wild: true` beside it, or remove wish"),
        ({"wild": True, "wish_ranks": [5]}, "wish_ranks", "add `wish: rank`, or remove wish_ranks"),
        (
            {"wild": True, "wish": "none", "wish_binds": 3},
            "wish_binds",
            "remove wish_binds, or make the wish a suit or a rank",
        ),
        ({"wild_last_resort": True}, "wild_last_resort", "add `wild: true` beside it, or remove wild_last_resort"),
        ({"wild": True, "wish_binds": 0}, "wish_binds", "use a larger number"),
        ({"draw": 2, "target": "left"}, "target", "use one of the values listed"),
        (
            {"cancels": [7], "returns": ["7H"]},
            "returns",
            "a penalty is either cancelled or returned: name each card in one list",
        ),
    ],
)
def test_a_power_key_that_needs_another_says_which(power, key, hint):
    error = refused(powers={8: power})
    assert (error.key, error.hint) == (f"powers.8.{key}", hint)


def test_the_new_power_keys_load():
    power = rules(
        powers={
            "J": {
                "wild": True,
                "wish": "rank",
                "wish_ranks": [5, 6, "q"],
                "wish_binds": 2,
                "wild_follows_suit": True,
                "wild_last_resort": True,
            },
            2: {"draw": 2, "stack_with": [3], "stack_match": True, "ends_turn": False, "target": "previous"},
            4: {"skip": 1, "skip_stack": "add", "skip_with": ["QS"]},
            "Q": {
                "free": True,
                "self_draw": 1,
                "next_rank": "at_most",
                "pass_hands": True,
                "swap_hands": "choose",
                "show_next": True,
                "give": 1,
            },
        }
    ).powers
    assert power["J"].wish_ranks == ("5", "6", "Q") and power["2"].target == "previous"
    assert power["4"].skip_stack == "add" and power["Q"].swap_hands == "choose" and power["Q"].is_action


def test_the_ranks_a_rank_wish_may_name_default_to_the_plain_ones():
    ruleset = rules(
        powers={"J": {"wild": True, "wish": "rank"}, 7: {"draw": 2}, "KH": {"draw": 5}}, deck={"ranks": "skat"}
    )
    assert ruleset.wish_ranks_for(ruleset.power_of(C("JC")), 4) == ("8", "9", "10", "Q", "A")
    error = refused(powers={"J": {"wild": True, "wish": "rank", "wish_ranks": ["2"]}}, deck={"ranks": "skat"})
    assert error.key == "powers.J.wish_ranks" and error.problem.startswith("the deck has no 2")
    everything = {rank: {"skip": 1} for rank in ("7", "8", "9", "10", "Q", "K", "A")}
    assert refused(powers={**everything, "J": {"wild": True, "wish": "rank"}}, deck={"ranks": "skat"}).key == \
        "powers.J.wish_ranks"


def test_drawing_going_out_multiple_and_jump_in_keys():
    ruleset = rules(drawing={"until_playable": True, "max": 3, "drawn_card": "must_play", "reshuffle": False},
                    going_out={"forbidden": [2, 8, "J"], "follow_suit": True},
                    multiple={"runs": "up", "run_min": 2, "suit_with": ["QH"], "power": "each"}, jump_in="identical",
                    announcements={"mau": {"false_penalty": 2}})
    assert ruleset.drawing.max == 3 and ruleset.going_out.forbidden == ("2", "8", "J")
    assert ruleset.multiple.suit_with == ("QH",) and ruleset.announcements.mau.false_penalty == 2
    assert refused(drawing={"max": 3}).key == "drawing.max"
    assert refused(drawing={"drawn_card": "throw"}).key == "drawing.drawn_card"
    assert refused(multiple={"run_min": 1}).key == "multiple.run_min"
    assert refused(jump_in="always").key == "jump_in"
    assert refused(going_out={"only": ["Q"], "forbidden": ["QH"]}).key == "going_out.only"


# ---------------------------------------------------------------------------- notes


def test_notes_name_a_card_key_that_shadows_a_ranks_power():
    ruleset = rules(powers={"J": {"wild": True}, "JC JS": {"draw": 5}, "JD": {"skip": 1}})
    assert ruleset.notes() == [
        ("powers.JC JS", "replaces the powers of J for JC, JS (a single-card key wins over a key naming several cards, "
                         "which wins over a rank; the chosen power applies whole)"),
        ("powers.JD", "replaces the powers of J for JD (a single-card key wins over a key naming several cards, "
                      "which wins over a rank; the chosen power applies whole)"),
    ]
    assert rules(powers={"J": {"wild": True}}).notes() == []


def test_a_note_says_when_the_round_bound_will_likely_end_a_match():
    cheap = {rank: 0 for rank in "2 3 4 5 6 7 8 9 10 J Q K".split()} | {"A": 1}
    (key, text), = rules(points=cheap, match={"format": "limit", "limit": 1_000_000}).notes()
    assert key == "match.max_rounds" and "likely end at max_rounds (1000)" in text and "limit is 1000000" in text
    assert rules(match={"format": "limit", "limit": 100}).notes() == []
    assert rules(match={"format": "wins", "wins": 400}, players={"max": 6}).notes()[0][0] == "match.max_rounds"
