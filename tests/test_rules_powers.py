"""Card powers (docs: Rulesets): the 7 penalty and its chain, 8 skips, 9 reverses, and the Ace in every variant."""

from runner.game.actions import DRAW
from support.scenario import can, deal, do, hand, plays

STOCK = "2C 3C 4C 5C 6C 2S 3S 4S 5S 6S"


def events(rnd, start=0):
    return [(e.kind, e.seat, e.count) if e.kind == "draw" else (e.kind, e.seat) for e in rnd.history[start:]]


# ---------------------------------------------------------------- 7: draw two


def test_seven_makes_the_next_player_draw_two_and_lose_the_turn():
    rnd = deal("standard", ["7H 2D 3D", "4H 5D 6D", "8D 9D 10D"], "10H", STOCK)
    do(rnd, "7H")
    assert rnd.current == 1 and rnd.pending == 2
    do(rnd, "draw")
    assert hand(rnd, 1) == ["2C", "3C", "4H", "5D", "6D"]
    assert rnd.current == 2 and rnd.pending == 0  # seat 1 lost its turn, though it held a heart


def test_seven_passes_the_penalty_on_grown_by_two():
    rnd = deal("standard", ["7H 2D 3D", "7S 5D 6D", "8D 9D 10D"], "10H", STOCK)
    do(rnd, "7H", "7S")
    assert rnd.current == 2 and rnd.pending == 4
    do(rnd, "draw")
    assert len(rnd.hands[2]) == 7 and rnd.current == 0


def test_seven_chain_grows_without_limit():
    rnd = deal("standard", ["7H 7C 3D", "7S 7D 6D"], "10H", STOCK)
    do(rnd, "7H", "7S", "7C", "7D")
    assert rnd.pending == 8 and rnd.current == 0
    do(rnd, "draw")
    assert len(rnd.hands[0]) == 9


def test_only_a_seven_may_be_played_while_a_penalty_is_pending():
    rnd = deal("standard", ["7H 2D 3D", "7S JD 5H"], "10H", STOCK)
    do(rnd, "7H")
    assert plays(rnd) == {"7S"}  # not the Jack, not the heart
    assert DRAW in rnd.legal()


def test_seven_chain_limit_one_caps_the_penalty_at_four_cards():
    rnd = deal("standard-seven-limit", ["7H 2D 3D", "7S 5D 6D", "7C 7D 10D"], "10H", STOCK)
    do(rnd, "7H", "7S")
    assert rnd.pending == 4 and rnd.current == 2
    assert plays(rnd) == set() and rnd.legal() == (DRAW,)  # the chain went round once: no third 7
    do(rnd, "draw")
    assert len(rnd.hands[2]) == 7


def test_children_variant_seven_has_no_penalty():
    rnd = deal("standard-kids", ["7H 2D 3D", "4H 5D 6D"], "10H", STOCK)
    do(rnd, "7H")
    assert rnd.pending == 0 and rnd.current == 1 and plays(rnd) == {"4H"}


# ---------------------------------------------------------------- 8 and 9


def test_eight_skips_the_next_player():
    rnd = deal("standard", ["8H 2D 3D", "4H 5D 6D", "9H 9D 10D"], "10H", STOCK)
    do(rnd, "8H")
    assert rnd.current == 2 and events(rnd) == [("play", 0), ("skip", 1)]


def test_eight_between_two_players_gives_the_turn_back():
    rnd = deal("standard", ["8H 2H 3D", "4H 5D 6D"], "10H", STOCK)
    do(rnd, "8H")
    assert rnd.current == 0 and plays(rnd) == {"2H"}


def test_nine_reverses_the_direction():
    rnd = deal("elimination", ["9H 2D 3D", "4S 5D 6D", "4H 5H 10D"], "10H", STOCK)
    do(rnd, "9H")
    assert rnd.direction == -1 and rnd.current == 2
    do(rnd, "4H")
    assert rnd.current == 1


def test_nine_reverses_in_the_strafpunten_option_but_not_in_standard():
    option = deal("strafpunten-nine-reverses", ["9H 2D 3D", "4S 5D 6D", "4H 5H 10D"], "10H", STOCK)
    do(option, "9H")
    assert option.current == 2
    standard = deal("standard", ["9H 2D 3D", "4S 5D 6D", "4H 5H 10D"], "10H", STOCK)
    do(standard, "9H")
    assert standard.current == 1 and standard.direction == 1


# ---------------------------------------------------------------- the Ace


def test_ace_has_no_power_in_standard():
    rnd = deal("standard", ["AH 2D 3D", "4S 5D 6D", "4H 5H 10D"], "10H", STOCK)
    do(rnd, "AH")
    assert rnd.current == 1 and events(rnd) == [("play", 0)]


def test_family3_ace_lets_the_player_play_again_on_it():
    rnd = deal("elimination", ["AH 5H 3D", "4S 5D 6D"], "10H", STOCK)
    do(rnd, "AH")
    assert rnd.current == 0 and rnd.again
    assert plays(rnd) == {"5H"}  # following the Ace as usual: its suit or rank (or a Jack)
    do(rnd, "5H")
    assert rnd.current == 1 and not rnd.again


def test_family3_ace_player_who_will_not_follow_draws_one_and_the_turn_ends():
    rnd = deal("elimination", ["AH 5H 3D", "4S 5D 6D"], "10H", STOCK)
    do(rnd, "AH", "draw")
    assert rnd.history[-1].reason == "ace" and rnd.history[-1].count == 1
    assert hand(rnd, 0) == ["2C", "3D", "5H"] and rnd.current == 1


def test_family3_ace_player_who_cannot_follow_must_draw():
    rnd = deal("elimination", ["AH 2D 3D", "4S 5D 6D"], "10H", STOCK)
    do(rnd, "AH")
    assert rnd.legal() == (DRAW,)


def test_family3_ace_may_be_followed_by_another_ace():
    rnd = deal("elimination", ["AH AS 3S 4D", "4C 5D 6D 7D"], "10H", STOCK)
    do(rnd, "AH", "AS")
    assert rnd.current == 0 and plays(rnd) == {"3S"}


def test_ace_variant_others_draw_one_card_each():
    rnd = deal("standard-ace-draw", ["AH 2D 3D", "4S 5D 6D", "4H 5H 10D"], "10H", STOCK)
    do(rnd, "AH")
    assert events(rnd) == [("play", 0), ("draw", 1, 1), ("draw", 2, 1)]
    assert hand(rnd, 1) == ["2C", "4S", "5D", "6D"] and hand(rnd, 2) == ["10D", "3C", "4H", "5H"]
    assert rnd.current == 1


def test_ace_variant_skip_others_skips_everyone_once_and_the_player_plays_again():
    rnd = deal("standard-ace-skip", ["AH 5H 3D", "4S 5D 6D", "4H 5C 10D"], "10H", STOCK)
    do(rnd, "AH")
    assert events(rnd) == [("play", 0), ("skip", 1), ("skip", 2)]
    assert rnd.current == 0 and plays(rnd) == {"5H"}
    do(rnd, "5H")
    assert rnd.current == 1


def test_ace_variant_skip_others_player_who_cannot_follow_draws():
    rnd = deal("strafpunten-ace-skips", ["AH 2D 3D", "4S 5D 6D", "4H 5C 10D"], "10H", "KH " + STOCK)
    do(rnd, "AH")
    assert rnd.legal() == (DRAW,)
    do(rnd, "draw")
    assert rnd.phase == "drawn" and can(rnd, "KH")  # the Ace's player draws, and may play a playable card


def test_a_wild_card_that_also_draws_names_a_suit_when_it_passes_the_penalty_on():
    rnd = deal("standard", ["JH 2D 3D", "JS 5D 6D", "8D 9D 10D"], "10H", STOCK, overrides={"powers.J.draw": 2})
    do(rnd, "JH>C")
    assert rnd.pending == 2 and plays(rnd) == {f"JS>{suit}" for suit in "CDHS"}
    do(rnd, "JS>D")
    assert rnd.pending == 4 and rnd.suit == "D" and rnd.current == 2
