"""docs/house-rules.md: several cards in one turn (same rank, runs, chains, a card with all of its suit),
whose power applies (the last card's, or each card's), and how announcements and going out judge them."""

from runner.game.actions import Play
from runner.game.cards import parse_card
from runner.game.checks import chain_plays
from support.scenario import deal, do, plays

STOCK = "2C 3C 4C 5C 6C 2S 3S 4S 5S 6S 9C 9S"
SAME_RANK = {"multiple.same_rank": True}


def test_several_cards_of_one_rank_may_be_played_together_the_first_legal_alone():
    rnd = deal("standard", ["5H 5S 5C 9D", "8S 9S 10S KD", "2D 3D 4D QD"], "10H", STOCK, overrides=SAME_RANK)
    assert {"5H", "5H+5S", "5H+5C", "5H+5S+5C", "5H+5C+5S"} <= plays(rnd)
    assert not any(text.startswith(("5S", "5C")) for text in plays(rnd))  # they are not legal on the 10H alone


def test_the_last_card_of_several_is_the_new_top_and_sets_the_suit():
    rnd = deal("standard", ["5H 5S 5C 9D", "8S 9S 10S KD", "2D 3D 4D QD"], "10H", STOCK, overrides=SAME_RANK)
    do(rnd, "5H+5C+5S")
    assert rnd.top.text == "5S" and rnd.suit == "S" and rnd.discard[-3:] == [parse_card(t) for t in ("5H", "5C", "5S")]
    assert plays(rnd) == {"8S", "9S", "10S"}


def test_one_action_per_set_of_middle_cards_in_hand_order():
    rnd = deal("standard", ["5H 5S 5C 5D", "8S 9S 10S KD"], "10H", STOCK, overrides=SAME_RANK)
    four = [text for text in plays(rnd) if text.count("+") == 3]
    assert sorted(four) == ["5H+5C+5D+5S", "5H+5S+5C+5D", "5H+5S+5D+5C"]  # one per last card


def test_a_bot_may_give_the_middle_cards_in_another_order_where_only_the_last_power_applies():
    rnd = deal("standard", ["5H 5S 5C 5D", "8S 9S 10S KD"], "10H", STOCK, overrides=SAME_RANK)
    cards = [parse_card(t) for t in ("5H", "5D", "5S", "5C")]
    chosen = rnd.canonical(Play(cards[0], more=tuple(cards[1:])))
    assert chosen is not None and chosen.more[-1] is cards[-1] and sorted(chosen.more[:-1]) == sorted(cards[1:-1])


def test_with_power_last_only_the_last_cards_power_applies():
    overrides = {**SAME_RANK, "powers.8.skip": 1}
    rnd = deal("standard", ["8H 8S 2D", "4S 5D 6D", "9S 9D 10D", "JC QC KC"], "10H", STOCK, overrides=overrides)
    do(rnd, "8H+8S")
    assert [(e.kind, e.seat) for e in rnd.history] == [("play", 0), ("skip", 1)] and rnd.current == 2


def test_with_power_each_every_card_acts_two_eights_skip_two_players_three_sevens_make_six():
    overrides = {**SAME_RANK, "multiple.power": "each"}
    rnd = deal("standard", ["8H 8S 2D", "4S 5D 6D", "9S 9D 10D", "JC QC KC"], "10H", STOCK, overrides=overrides)
    do(rnd, "8H+8S")
    assert [(e.kind, e.seat) for e in rnd.history] == [("play", 0), ("skip", 1), ("skip", 2)] and rnd.current == 3
    rnd = deal("standard", ["7H 7S 7C 2D", "4S 5D 6D 3D", "9S 9D 10D 4D"], "10H", STOCK, overrides=overrides)
    do(rnd, "7H+7S+7C")
    assert rnd.pending == 6 and rnd.current == 1


def test_several_cards_answer_a_penalty_when_the_first_passes_it_on():
    rnd = deal("standard", ["7H 2D 3D", "7S 7C 6D", "9S 9D 10D"], "10H", STOCK, overrides=SAME_RANK)
    do(rnd, "7H")
    assert "7S+7C" in plays(rnd)
    do(rnd, "7S+7C")
    assert rnd.pending == 4 and rnd.current == 2  # power last: the first passes it on, the last adds its 2


def test_a_run_goes_up_in_one_suit_from_run_min_cards():
    overrides = {"multiple.runs": "up", "multiple.run_min": 3}
    rnd = deal("standard", ["5H 6H 7H 8D", "8S 9S 10S KD"], "10H", STOCK, overrides=overrides)
    assert {text for text in plays(rnd) if "+" in text} == {"5H+6H+7H"}  # 5H 6H is shorter than run_min


def test_a_run_down_and_both_ways():
    overrides = {"multiple.runs": "both", "multiple.run_min": 2}
    rnd = deal("standard", ["9H 8H 10H 2D", "8S 9S 10S KD"], "10H", STOCK, overrides=overrides)
    runs = {text for text in plays(rnd) if "+" in text}
    assert {"9H+10H", "9H+8H", "10H+9H", "10H+9H+8H", "8H+9H", "8H+9H+10H"} == runs


def test_a_chain_plays_cards_each_matching_the_one_before():
    rnd = deal("standard", ["5H 5S 6S 8D", "8S 9S 10S KD"], "10H", STOCK, overrides={"multiple.chain": True})
    chains = {text for text in plays(rnd) if "+" in text}
    assert "5H+5S+6S" in chains and "5H+5S" in chains
    assert not any(text.endswith("8D") for text in chains)  # the 8D matches none of them


def test_a_chain_lists_one_play_per_set_of_cards_and_last_card_as_the_cookbook_counts():
    hearts = "2H 3H 4H 5H 6H 9H 10H QH KH AH"  # none of them wild in standard: one play per sequence
    rnd = deal("standard", [hearts, "2S 3S 4S 5S 6S 9S 10S QS KS AS"], "8H", STOCK,
               overrides={"multiple.chain": True, "players.max": 2})
    assert len(rnd.legal()) == 23_050  # each card first, alone or with any set of the nine others, any of them last
    assert len(set(rnd.legal())) == len(rnd.legal())


def test_chain_max_caps_a_chain_and_so_the_plays_a_hand_lists():
    hearts = "2H 3H 4H 5H 6H 9H 10H QH KH AH"
    rnd = deal("standard", [hearts, "2S 3S 4S 5S 6S 9S 10S QS KS AS"], "8H", STOCK,
               overrides={"multiple.chain": True, "multiple.chain_max": 3, "players.max": 2})
    assert max(len(action.cards) for action in rnd.legal()) == 3
    assert len(rnd.legal()) == 10 * (1 + 9 + 36 * 2) == chain_plays(10, 3)  # first; one more; two more, either last


def test_a_play_of_three_cards_or_more_is_not_kept_in_the_cache_of_plays():
    from runner.game import actions

    before = len(actions._plays)
    long = actions.play(parse_card("5H"), more=(parse_card("6H"), parse_card("7H")))
    assert long == actions.play(parse_card("5H"), more=(parse_card("6H"), parse_card("7H")))
    assert len(actions._plays) == before and actions.play(parse_card("5H")) is actions.play(parse_card("5H"))


def test_a_suit_with_card_takes_all_cards_of_its_suit_along_any_of_them_last():
    rnd = deal("standard", ["KH 2H 7H 8D", "8S 9S 10S KD"], "10H", STOCK, overrides={"multiple.suit_with": ["KH"]})
    together = {text for text in plays(rnd) if text.startswith("KH+")}
    assert together == {"KH+7H+2H", "KH+2H+7H"}  # all hearts, never a part of them


def test_the_announcement_is_judged_on_the_cards_left_after_the_whole_play():
    rnd = deal("standard", ["5H 5S 9D", "8S 9S 10S"], "10H", STOCK, overrides=SAME_RANK)
    assert next(a for a in rnd.legal() if isinstance(a, Play) and a.more).announce == "mau"
    do(rnd, "5H+5S")
    assert len(rnd.hands[0]) == 1 and not [e for e in rnd.history if e.kind == "draw"]


def test_going_out_with_several_cards_ends_the_round_and_going_out_rules_judge_the_last():
    rnd = deal("standard", ["5H 5S", "8S 9S"], "10H", STOCK, overrides=SAME_RANK)
    do(rnd, "5H+5S")
    assert rnd.winner == 0
    rnd = deal("standard", ["5H 5D", "8S 9S"], "5D", STOCK, overrides={**SAME_RANK, "going_out.follow_suit": True})
    assert "5H+5D" in plays(rnd) and "5D+5H" not in plays(rnd)  # the last card must be of the suit (diamonds)


def test_the_log_shows_the_further_cards_only_for_a_play_of_several():
    log: list[dict] = []
    rnd = deal("standard", ["5H 5S 9D", "8S 9S 10S"], "10H", STOCK, overrides=SAME_RANK, log=log)
    do(rnd, "5H+5S")
    do(rnd, "8S")
    plays_logged = [event for event in log if event["type"] == "play"]
    assert plays_logged[0] == {"type": "play", "seat": 0, "card": "5H", "suit": None, "announce": "mau", "more": ["5S"]}
    assert "more" not in plays_logged[1]


def test_a_turn_lists_at_most_the_cap_of_plays_of_several_cards_each_first_card_its_share():
    """The issue's attack, scaled down: eleven hearts have 56,320 chains of several cards (hands that grow by drawing
    have millions, and ran out of memory); a turn lists each card held its share of MAX_PLAYS, every play of two
    cards among them."""
    from runner.game.multiple import MAX_PLAYS, share

    hearts = "2H 3H 4H 5H 6H 7H 9H 10H QH KH AH 8D"
    rnd = deal("standard", [hearts, "2S 3S 4S 5S 6S 7S 9S 10S QS KS AS 8S"], "8H", STOCK,
               overrides={"multiple.chain": True, "players.max": 2})
    assert chain_plays(11, None) - 11 == 56_320 > MAX_PLAYS  # what the turn would list without the cap
    legal = rnd.legal()
    several = [action for action in legal if isinstance(action, Play) and action.more]
    assert share(rnd.hands[0]) == MAX_PLAYS // 12 and len(several) <= MAX_PLAYS
    for first in {action.card for action in several}:
        assert sum(1 for action in several if action.card == first) == share(rnd.hands[0])
    pairs = {(action.card.text, action.more[0].text) for action in several if len(action.more) == 1}
    assert len(pairs) == 11 * 10  # each heart first, each other heart second: none of them left out
    assert len(set(legal)) == len(legal)
