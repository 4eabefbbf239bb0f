"""The shared core and drawing (docs: Rulesets): matching, the wild Jack, upcards, drawing, reshuffles, blocking."""

from runner.game.actions import DRAW, PASS
from support.scenario import can, deal, do, hand, plays, texts

# ---------------------------------------------------------------- matching


def test_a_card_of_the_top_cards_rank_may_be_played():
    rnd = deal("standard", ["10C 2D 3D", "4S 5S 6S"], "10H")
    assert can(rnd, "10C")


def test_a_card_of_the_active_suit_may_be_played():
    rnd = deal("standard", ["2H 3D 4D", "4S 5S 6S"], "10H")
    assert can(rnd, "2H")


def test_a_card_matching_neither_rank_nor_suit_may_not_be_played():
    rnd = deal("standard", ["2C 3D 4D", "4S 5S 6S"], "10H")
    assert plays(rnd) == set()
    assert not can(rnd, "2C")


def test_after_a_play_the_next_player_matches_the_new_top_card():
    rnd = deal("standard", ["10C 2D 3D", "4C 5S 10S"], "10H")
    do(rnd, "10C")
    assert rnd.current == 1 and rnd.suit == "C"
    assert plays(rnd) == {"4C", "10S"}


# ---------------------------------------------------------------- the wild Jack


def test_jack_is_wild_on_any_card_and_names_any_suit():
    rnd = deal("standard", ["JC 2D 3D", "4S 5S 6S"], "10H")
    assert {f"JC>{suit}" for suit in "CDHS"} <= plays(rnd)
    do(rnd, "JC>S")
    assert rnd.suit == "S" and rnd.top.text == "JC"


def test_jack_may_name_the_suit_already_in_play():
    rnd = deal("standard", ["JH 2D 3D", "4S 5S 6S"], "10H")
    do(rnd, "JH>H")
    assert rnd.suit == "H"


def test_after_a_jack_the_named_suit_must_be_matched():
    rnd = deal("standard", ["JH 2D 3D", "4S 5H 6C"], "10H")
    do(rnd, "JH>C")
    assert plays(rnd) == {"6C"}  # not 5H: the Jack's own suit no longer counts


def test_jack_may_be_played_on_a_jack():
    rnd = deal("standard", ["JH 2D 3D", "JS 5C 6C"], "10H")
    do(rnd, "JH>D")
    assert "JS>C" in plays(rnd)


def test_jack_on_jack_is_refused_when_wild_on_wild_is_off():
    rnd = deal("standard", ["JH 2D 3D", "JS 5C 6C"], "10H", overrides={"powers.J.wild_on_wild": False})
    do(rnd, "JH>D")
    assert not any(play.startswith("JS") for play in plays(rnd))


def test_a_jack_names_no_suit_it_is_not_asked_for():
    rnd = deal("standard", ["JH 2D 3D", "4S 5S 6S"], "10H")
    assert not can(rnd, "JH")  # a Jack without a suit is not a legal play
    assert not can(rnd, "2D>S")  # a plain card names no suit


# ---------------------------------------------------------------- the first upcard


def test_dealer_names_the_suit_after_a_jack_upcard():
    rnd = deal("standard", ["5S 2D 3D", "4S 5C 6C", "9H 9C 9D"], "JH", dealer=2)
    assert rnd.phase == "name_suit" and rnd.current == 2
    do(rnd, "name C")
    assert rnd.phase == "play" and rnd.current == 0 and rnd.suit == "C"
    assert plays(rnd) == set()  # seat 0 has no club: the named suit binds the first player


def test_an_action_upcard_has_no_effect_by_default():
    seven = deal("standard", ["5H 2D 3D", "4S 5C 6C"], "7H")
    assert seven.pending == 0 and seven.current == 0 and DRAW not in seven.legal()
    eight = deal("standard", ["5H 2D 3D", "4S 5C 6C"], "8H")
    assert eight.current == 0 and eight.history == []


def test_an_action_upcard_acts_as_the_dealers_play_when_the_ruleset_says_so():
    seven = deal("standard", ["5H 2D 3D", "4S 5C 6C", "2S 3S 4S"], "7H", "KC QC", dealer=2,
                 overrides={"upcard.effects": "as_dealer_play"})
    assert seven.current == 0 and seven.pending == 2
    do(seven, "draw")
    assert hand(seven, 0) == ["2D", "3D", "5H", "KC", "QC"] and seven.current == 1
    eight = deal("standard", ["5H 2D 3D", "4S 5C 6C", "2S 3S 4S"], "8H", dealer=2,
                 overrides={"upcard.effects": "as_dealer_play"})
    assert eight.current == 1 and [(e.kind, e.seat) for e in eight.history] == [("skip", 0)]


def test_family3_turns_up_another_upcard_while_the_upcard_is_an_action_card():
    rnd = deal("elimination", ["5C 2D 3D", "4S 5H 6H"], "7H 8D 9S JC AS 5S", "KC")
    assert texts(rnd.discard) == ["7H", "8D", "9S", "JC", "AS", "5S"]
    assert rnd.top.text == "5S" and rnd.suit == "S" and texts(rnd.stock) == ["KC"]


def test_family3_turned_up_action_cards_have_no_effect():
    rnd = deal("elimination", ["5C 2D 3D", "4S 5H 6H"], "7H 8D 5S", "KC")
    assert rnd.pending == 0 and rnd.current == 0 and rnd.direction == 1 and rnd.phase == "play"


def test_the_player_left_of_the_dealer_leads():
    rnd = deal("standard", ["5C 2D 3D", "4S 5H 6H", "2S 3S 4S"], "10H", dealer=1)
    assert rnd.current == 2


# ---------------------------------------------------------------- drawing


def test_drawing_is_allowed_only_when_the_player_cannot_play():
    able = deal("standard", ["5H 2D 3D", "4S 5C 6C"], "10H", "KC")
    assert DRAW not in able.legal()
    stuck = deal("standard", ["5C 2D 3D", "4S 5C 6C"], "10H", "KC")
    assert stuck.legal() == (DRAW,)


def test_a_playable_drawn_card_may_be_played_at_once():
    rnd = deal("standard", ["5C 2D 3D", "4S 5C 6C"], "10H", "KH")
    do(rnd, "draw")
    assert rnd.phase == "drawn" and rnd.current == 0
    assert plays(rnd) == {"KH"}  # only the drawn card, nothing else from the hand
    do(rnd, "KH")
    assert rnd.top.text == "KH" and rnd.current == 1


def test_a_playable_drawn_card_may_be_kept():
    rnd = deal("standard", ["5C 2D 3D", "4S 5C 6C"], "10H", "KH")
    do(rnd, "draw", "pass")
    assert "KH" in hand(rnd, 0) and rnd.current == 1 and rnd.top.text == "10H"


def test_an_unplayable_drawn_card_ends_the_turn():
    rnd = deal("standard", ["5C 2D 3D", "4S 5C 6C"], "10H", "KS")
    do(rnd, "draw")
    assert "KS" in hand(rnd, 0) and rnd.current == 1 and rnd.phase == "play"


def test_family3_a_player_may_draw_by_choice_instead_of_playing():
    rnd = deal("elimination", ["5H 2D 3D", "4S 5C 6C"], "10H", "KS")
    assert DRAW in rnd.legal() and can(rnd, "5H")
    do(rnd, "draw")
    assert rnd.history[-1].reason == "choice" and rnd.current == 1


def test_family3_the_drawn_card_may_not_be_played_this_turn():
    rnd = deal("elimination", ["5C 2D 3D", "4S 5C 6C"], "10H", "KH")
    do(rnd, "draw")
    assert "KH" in hand(rnd, 0) and rnd.current == 1 and PASS not in rnd.legal()


# ---------------------------------------------------------------- the stock


def test_an_empty_stock_is_the_discard_pile_reshuffled_but_its_top_card():
    rnd = deal("standard", ["5C 2D 3D", "2H 3H 4H", "4C 5S 6S"], "10H", "9C")
    do(rnd, "draw", "2H")  # seat 0 takes the last stock card; seat 1 plays on the 10H
    do(rnd, "draw")  # seat 2 cannot play: the pile but its top card (2H) becomes the stock
    assert [e.kind for e in rnd.history][-2:] == ["reshuffle", "draw"]
    assert texts(rnd.discard) == ["2H"] and rnd.stock == []
    assert hand(rnd, 2) == ["10H", "4C", "5S", "6S"]


def test_a_draw_from_an_exhausted_stock_is_skipped():
    rnd = deal("standard", ["5C 2D 3D", "4S 5S 6S"], "10H")
    do(rnd, "draw")
    assert hand(rnd, 0) == ["2D", "3D", "5C"] and rnd.current == 1
    assert rnd.history[-1].count == 0


def test_a_penalty_draw_from_an_exhausted_stock_takes_what_there_is():
    rnd = deal("standard", ["7H 2D 3D", "4S 5S 6S"], "10H")
    do(rnd, "7H", "draw")  # seat 1 owes 2 cards; the stock is empty, the pile under the 7 holds one card
    assert hand(rnd, 1) == ["10H", "4S", "5S", "6S"] and rnd.pending == 0 and rnd.current == 0
    assert texts(rnd.discard) == ["7H"] and rnd.stock == []


def test_a_round_is_blocked_when_nothing_can_be_drawn_and_everyone_passed():
    rnd = deal("standard", ["5C 2D 3D", "4S 5S 6S"], "10H")
    do(rnd, "draw", "draw")
    assert rnd.over and rnd.winner is None
    assert rnd.points() == [10, 15]  # every player adds their hand's points


def test_a_round_is_not_blocked_while_someone_still_plays():
    rnd = deal("standard", ["5C 2D 3H", "4S 5S 6S"], "10H")
    do(rnd, "3H", "draw")
    assert not rnd.over
