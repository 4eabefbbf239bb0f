"""The verifier on several cards in one turn (docs: Rulesets): sets of one rank, runs, chains, a card with
all of its suit, whose power applies, and announcements and going out judged on the whole play."""

from __future__ import annotations

from support.logbuilder import Log, accepted, rejected

SAME_RANK = {"multiple.same_rank": True, "hand_size": 3}


def set_of_nines(changes: dict = SAME_RANK) -> tuple[Log, int]:
    log = Log(changes)
    log.deal(["9H 9S 10S", "7C 8C QH"], up="8H", stock="7D")
    play = log.play(0, "9H", more="9S")
    log.draw(1, "7D")  # QH went on 9H, but the top card is now 9S
    log.play(0, "10S")
    log.finish(0, [0, 25])
    return log, play


def test_cards_of_one_rank_played_together_the_last_on_top():
    log, play = set_of_nines()
    accepted(log.events)
    rejected(log.changed(play + 1, type="play", card="QH", suit=None, announce=None), play + 1,
             "QH matches neither the rank of 9S")


def test_several_cards_need_the_rules_and_the_hand():
    log, play = set_of_nines()
    rejected(log.changed(play, more=["10S"]), play, "no play of several cards")
    rejected(log.changed(play, more=["9D"]), play, "not in its hand")
    one_card = Log({"hand_size": 3})
    one_card.events[1:] = log.events[1:]
    rejected(one_card.events, play, "the rules allow one")


def eights(power: str, skips: int) -> Log:
    log = Log({"multiple.same_rank": True, "multiple.power": power, "powers": {"8": {"skip": 1}}, "hand_size": 3},
              players=3)
    log.deal(["8H 8S 9S", "10C QC KC", "10D QD KD"], up="8D", stock="7C")
    log.play(0, "8H", more="8S")
    for seat in (1, 2)[:skips]:
        log.skip(seat)
    return log


def test_power_each_applies_every_card_power_in_order():
    log = eights("each", 2)
    log.play(0, "9S")
    log.finish(0, [0, 17, 17])
    accepted(log.events)
    one_skip = eights("each", 1)
    one_skip.play(0, "9S")
    rejected(one_skip.events, 4, "seat 2 is skipped")


def test_power_last_applies_the_last_card_power_only():
    log = eights("last", 1)
    log.draw(2, "7C")
    log.play(0, "9S")
    log.finish(0, [0, 17, 24])
    accepted(log.events)
    rejected(eights("last", 2).events, 4, "expected play or draw")


def sevens(power: str, drawn: str, points: int) -> Log:
    log = Log({**SAME_RANK, "multiple.power": power, "powers": {"7": {"draw": 2}}})
    log.deal(["7H 7S 9S", "8C 9C JC"], up="8H", stock=drawn)
    log.play(0, "7H", more="7S")
    log.draw(1, drawn, "seven")
    log.play(0, "9S")
    log.finish(0, [0, points])
    return log


def test_two_sevens_with_power_each_make_four_to_draw_and_with_last_two():
    each, last = sevens("each", "7C 7D 10C 10D", 53), sevens("last", "7C 7D", 33)
    accepted(each.events)
    accepted(last.events)
    rejected(sevens("last", "7C 7D 10C 10D", 53).events, 3, "draws 4 cards, 2 are due")
    rejected(sevens("each", "7C 7D", 33).events, 3, "draws 2 of 4 cards while the stock has more")


def test_runs_go_up_in_one_suit_and_need_run_min_cards():
    log = Log({"multiple.runs": "up", "hand_size": 4})
    log.deal(["7H 8H 9H 9S", "10C 8C QC KC"], up="KH", stock="7D")
    run = log.play(0, "7H", more="8H 9H")
    log.draw(1, "7D")
    log.play(0, "9S")
    log.finish(0, [0, 32])
    accepted(log.events)
    rejected(log.changed(run, more=["9H", "8H"]), run, "no play of several cards")
    rejected(log.changed(run, more=["8H"]), run, "no play of several cards")  # two cards: below run_min 3
    for runs, ok in (("both", True), ("down", True), ("up", False)):
        down = Log({"multiple.runs": runs, "hand_size": 3})
        down.deal(["9H 8H 7H", "10C 8C QC"], up="KH")
        play = down.play(0, "9H", more="8H 7H")
        down.finish(0, [0, 21])
        if ok:
            accepted(down.events)
        else:
            rejected(down.events, play, "no play of several cards")


def test_a_chain_matches_each_card_to_the_one_before():
    log = Log({"multiple.chain": True, "hand_size": 3})
    log.deal(["9H 9S 10S", "7C 8C QC"], up="8H")
    chain = log.play(0, "9H", more="9S 10S")
    log.finish(0, [0, 18])
    accepted(log.events)
    rejected(log.changed(chain, more=["10S", "9S"]), chain, "no play of several cards")


def test_a_chain_is_at_most_chain_max_cards():
    log = Log({"multiple.chain": True, "multiple.chain_max": 2, "hand_size": 3})
    log.deal(["9H 9S 10S", "7C 8C QC"], up="8H")
    chain = log.play(0, "9H", more="9S 10S")
    rejected(log.events, chain, "a chain of 3 cards, and multiple.chain_max allows 2")


def test_a_card_named_by_suit_with_takes_every_card_of_its_suit_along():
    log = Log({"multiple.suit_with": ["7"], "hand_size": 3})
    log.deal(["7H 9H KH", "7C 8C QC"], up="10H")
    play = log.play(0, "7H", more="KH 9H")  # any of them may be last
    log.finish(0, [0, 18])
    accepted(log.events)
    partial = Log({"multiple.suit_with": ["7"], "hand_size": 4})
    partial.deal(["7H 9H KH 8S", "7C 8C QC AC"], up="10H")
    only_one = partial.play(0, "7H", more="9H")
    rejected(partial.events, only_one, "no play of several cards")
    rejected(log.changed(play, card="9H", more=["7H", "KH"]), play, "no play of several cards")


def test_the_announcement_is_judged_on_the_cards_left_after_the_whole_play():
    rules = {**SAME_RANK, "announcements.mau.required": True}
    log = Log(rules)
    log.deal(["9H 9S 10S", "7C 8C QC"], up="8H", stock="7D")
    play = log.play(0, "9H", announce="mau", more="9S")
    log.draw(1, "7D")
    log.play(0, "10S")
    log.finish(0, [0, 25])
    accepted(log.events)
    rejected(log.changed(play, announce=None), play + 1, "penalty")


def test_going_out_rules_judge_the_last_card_of_the_play():
    log = Log({**SAME_RANK, "going_out.forbidden": ["9"], "hand_size": 2})
    log.deal(["9H 9S", "7C 8C"], up="8H")
    play = log.play(0, "9H", more="9S")
    rejected(log.events, play, "9S may not be the last card")
