"""The verifier on wild cards of other kinds and limits on the next card (docs: Rulesets): a wish that names a
rank or nothing, a wish that binds several cards, a wild card that must follow suit or may be played only as
a last resort, a card anything goes on, and a card after which the next must be lower (or higher)."""

from __future__ import annotations

from support.logbuilder import Log, accepted, rejected

RANK_WISH = {"J": {"wild": True, "wish": "rank"}}


def rank_wish_log(powers: dict = RANK_WISH, answer: str = "9S") -> tuple[Log, int, int]:
    log = Log({"powers": powers})
    log.deal(["JH 9C", f"{answer} QH"], up="8H")
    wish = log.play(0, "JH", rank="9")
    follow = log.play(1, answer)
    log.play(0, "9C")
    log.finish(0, [0, 3])
    return log, wish, follow


def test_a_rank_wish_asks_the_next_card_for_that_rank():
    log, wish, follow = rank_wish_log()
    accepted(log.events)
    heart, _, at = rank_wish_log(answer="10H")  # a heart on the Jack of hearts, but not a 9
    rejected(heart.events, at, "10H is not of the rank 9 wished")


def test_a_rank_wish_names_a_rank_of_the_allowed_ones_and_no_suit():
    log, wish, _ = rank_wish_log()
    rejected(log.changed(wish, suit="H"), wish, "names no suit")
    rejected(log.changed(wish, rank="J"), wish, "wishes one of the ranks 7 8 9 10 Q K A")  # J has a power
    rejected(log.changed(wish, rank=None), wish, "got None")
    limited, wish, _ = rank_wish_log({"J": {"wild": True, "wish": "rank", "wish_ranks": ["7", "8"]}})
    rejected(limited.events, wish, "wishes one of the ranks 7 8, got '9'")


def test_a_wish_that_binds_two_cards_wants_the_suit_of_both():
    def game(binds: int, second: str) -> tuple[Log, int]:
        log = Log({"powers": {"J": {"wild": True, "wish_binds": binds}}})
        log.deal([f"JH {second}", "9S QC"], up="8H")
        log.play(0, "JH", "S")
        log.play(1, "9S")
        at = log.play(0, second)
        log.finish(0, [0, 3])
        return log, at

    accepted(game(2, "KS")[0].events)
    accepted(game(1, "9C")[0].events)  # one card bound: a rank match after it as usual
    log, at = game(2, "9C")
    rejected(log.events, at, "9C is not of the suit S the wish still binds")


def test_a_wild_card_that_names_nothing_goes_on_anything_and_is_played_on_as_usual():
    log = Log({"powers": {"J": {"wild": True, "wish": "none"}}})
    log.deal(["JH 9H", "10S QC"], up="8S", stock="7C")
    wild = log.play(0, "JH")
    draw = log.draw(1, "7C")
    log.play(0, "9H")
    log.finish(0, [0, 20])
    accepted(log.events)
    rejected(log.changed(wild, suit="S"), wild, "names no suit")
    rejected(log.changed(draw, type="play", card="10S", suit=None, announce=None), draw,
             "10S matches neither the rank of JH nor the active suit H")


def wild_then_out(option: str, hand: str) -> tuple[Log, int]:
    """Seat 0 plays its Jack (wild, with `option`) on 8S naming clubs, then goes out on its other card."""
    log = Log({"powers": {"J": {"wild": True, option: True}}})
    log.deal([hand, "10D QD"], up="8S", stock="7H")
    wild = log.play(0, hand.split()[0], "C")
    log.draw(1, "7H")
    log.play(0, hand.split()[1])
    log.finish(0, [0, 20])
    return log, wild


def test_a_wild_card_that_follows_suit_must_match_and_still_names():
    accepted(wild_then_out("wild_follows_suit", "JS 9C")[0].events)
    log, wild = wild_then_out("wild_follows_suit", "JH 9C")
    rejected(log.events, wild, "must itself match")


def test_a_last_resort_wild_card_only_when_nothing_else_fits():
    accepted(wild_then_out("wild_last_resort", "JH 10C")[0].events)
    log, wild = wild_then_out("wild_last_resort", "JH 9S")  # 9S goes on 8S
    rejected(log.events, wild, "only when no other card can")


def test_anything_goes_on_a_free_card():
    def game(powers: dict, first: str = "QH") -> Log:
        log = Log({"powers": powers})
        log.deal([f"{first} 10S", "10C 9D"], up="8H")
        log.play(0, first)
        log.play(1, "10C")
        log.play(0, "10S")
        log.finish(0, [0, 9])
        return log

    accepted(game({"Q": {"free": True}}).events)
    rejected(game({}).events, 3, "10C matches neither the rank of QH")
    makao_queen = {"Q": {"wild": True, "wish": "none", "free": True}}
    accepted(game(makao_queen, first="QS").events)  # on anything, and anything on it


def next_rank_game(mode: str, answer: str, last: str, suit: str | None = None) -> tuple[Log, int]:
    """Seat 0 plays 9H (next_rank `mode`), seat 1 answers, seat 0 goes out on `last`."""
    log = Log({"powers": {"9": {"next_rank": mode}, "J": {"wild": True}}})
    log.deal([f"9H {last}", f"{answer} KC"], up="9S")
    log.play(0, "9H")
    at = log.play(1, answer, suit)
    log.play(0, last)
    log.finish(0, [0, 4])
    return log, at


def test_after_a_next_rank_card_the_next_card_is_of_that_rank_or_lower():
    accepted(next_rank_game("at_most", "8H", "8S")[0].events)
    log, at = next_rank_game("at_most", "10H", "10S")
    rejected(log.events, at, "10H is not of the rank 9 or lower (next_rank)")


def test_after_an_at_least_card_the_next_card_is_of_that_rank_or_higher():
    accepted(next_rank_game("at_least", "10H", "10S")[0].events)
    log, at = next_rank_game("at_least", "8H", "8S")
    rejected(log.events, at, "8H is not of the rank 9 or higher (next_rank)")


def test_wild_cards_are_exempt_from_next_rank():
    accepted(next_rank_game("at_most", "JH", "8S", suit="S")[0].events)
