"""docs/house-rules.md, wild cards of other kinds: a wish that names a rank (wish_ranks, wish_binds), a wild card that
names nothing, one that must follow suit, one only when nothing else fits, and a free card that takes anything."""

from support.scenario import can, deal, do, plays

STOCK = "2C 3C 4C 5C 6C 2S 3S 4S 5S 6S 9C 9S"
RANK_WISH = {"powers.J": {"wild": True, "wish": "rank"}}


def test_a_rank_wish_names_a_rank_of_the_deck_that_has_no_power():
    rnd = deal("standard", ["JH 4D 5D", "5C 8D 9D", "9H 10H KC"], "10H", STOCK, overrides=RANK_WISH)
    wished = {text.split("=")[1] for text in plays(rnd) if text.startswith("JH=")}
    assert wished == {"2", "3", "4", "5", "6", "9", "10", "Q", "K", "A"}  # not 7, 8, J: they have powers


def test_after_a_rank_wish_the_next_card_must_be_of_that_rank_or_a_wild_card():
    rnd = deal("standard", ["JH 4D 5D", "5C 8H 9D", "9H 10H KC"], "10H", STOCK, overrides=RANK_WISH)
    do(rnd, "JH=5")
    assert rnd.wish == "5" and rnd.wish_left == 1 and rnd.view().wish == "5"
    assert plays(rnd) == {"5C"}  # not 8H, though hearts were on top
    do(rnd, "5C")
    assert rnd.wish is None and rnd.wish_left == 0 and plays(rnd) == {"KC"}  # the wish is met: clubs again


def test_wish_ranks_limits_the_ranks_a_wish_may_name():
    overrides = {"powers.J": {"wild": True, "wish": "rank", "wish_ranks": [5, 6, "Q"]}}
    rnd = deal("standard", ["JH 4D 5D", "5C 8D 9D", "9H 10H KC"], "10H", STOCK, overrides=overrides)
    assert {text for text in plays(rnd) if text.startswith("JH")} == {"JH=5", "JH=6", "JH=Q"}


def test_a_wish_that_binds_three_cards_holds_for_each_of_the_next_three_plays():
    overrides = {"powers.J": {"wild": True, "wish": "rank", "wish_binds": 3}}
    rnd = deal("standard", ["JH 5D 5S", "5C 8D 9D", "5H 10H KC"], "10H", STOCK, overrides=overrides)
    do(rnd, "JH=5", "5C", "5H")
    assert rnd.wish == "5" and rnd.wish_left == 1 and plays(rnd) == {"5D", "5S"}
    do(rnd, "5D")
    assert rnd.wish is None


def test_a_suit_wish_that_binds_two_cards_asks_the_second_card_for_the_suit_too():
    overrides = {"powers.J": {"wild": True, "wish_binds": 2}}
    rnd = deal("standard", ["JH 4D 5D", "2C 8D 9D", "9H 2S 3C"], "10H", STOCK, overrides=overrides)
    do(rnd, "JH>C", "2C")
    assert rnd.wish_left == 1 and plays(rnd) == {"3C"}  # not 2S, though it is of the 2C's rank
    do(rnd, "3C")
    assert rnd.wish_left == 0


def test_a_wild_card_that_names_nothing_goes_on_anything_and_is_followed_as_itself():
    overrides = {"powers.J": {"wild": True, "wish": "none"}}
    rnd = deal("standard", ["JH 4D 5D", "2H JC 9D", "9H 10H KC"], "10S", STOCK, overrides=overrides)
    assert "JH" in plays(rnd) and not any(text.startswith("JH>") for text in plays(rnd))
    do(rnd, "JH")
    assert rnd.suit == "H" and plays(rnd) == {"2H", "JC"}


def test_a_wild_card_that_must_follow_suit_is_played_only_where_it_matches():
    overrides = {"powers.J": {"wild": True, "wild_follows_suit": True}}
    rnd = deal("standard", ["JH JS 5D", "2H 8D 9D", "9H 10H KC"], "10H", STOCK, overrides=overrides)
    assert {text.split(">")[0] for text in plays(rnd)} == {"JH"}  # JS matches neither hearts nor the 10
    do(rnd, "JH>D")
    assert rnd.suit == "D"  # it still names


def test_a_wild_card_as_a_last_resort_is_played_only_when_nothing_else_fits():
    overrides = {"powers.J": {"wild": True, "wild_last_resort": True}}
    rnd = deal("standard", ["JH 4H 5D", "JC 8D 9D", "9H 10H KC"], "10H", STOCK, overrides=overrides)
    assert plays(rnd) == {"4H"}
    do(rnd, "4H")
    assert {text.split(">")[0] for text in plays(rnd)} == {"JC"}  # nothing else fits: now the Jack may


def test_a_free_card_takes_any_card():
    overrides = {"powers.Q.free": True}
    rnd = deal("standard", ["QH 4D 5D", "2C 8S 9D", "9H 10H KC"], "10H", STOCK, overrides=overrides)
    do(rnd, "QH")
    assert rnd.view().free and plays(rnd) == {"2C", "8S", "9D"}


def test_a_free_card_goes_on_anything_only_when_it_is_also_wild():
    rnd = deal("standard", ["QC 4D 5D", "2C 8S 9D", "9H 10H KC"], "10H", STOCK, overrides={"powers.Q.free": True})
    assert not can(rnd, "QC")
    overrides = {"powers.Q": {"free": True, "wild": True, "wish": "none"}}
    rnd = deal("standard", ["QC 4D 5D", "2C 8S 9D", "9H 10H KC"], "10H", STOCK, overrides=overrides)
    do(rnd, "QC")
    assert plays(rnd) == {"2C", "8S", "9D"}


def test_a_joker_that_draws_five_takes_any_card_once_the_penalty_is_taken():
    overrides = {"deck.jokers": 2, "points.X": 50, "powers.X": {"draw": 5, "wild": True, "wish": "none", "free": True}}
    rnd = deal("standard", ["XR 4D 5D", "2C 8S 9D", "9H 10H KC"], "10H", STOCK + " 7C 7D 7S", overrides=overrides)
    do(rnd, "XR", "draw")
    assert rnd.current == 2 and plays(rnd) == {"9H", "10H", "KC"}
