"""The verifier on the cards and the table (docs: Rulesets): selectors and the most specific power,
jokers, powers by player count, hand size and deck by player count, who leads, who deals next.

Each test writes a short log by hand (tests/support/logbuilder.py): the correct log verifies, and each way
of breaking it is rejected at the event that is wrong.
"""

from __future__ import annotations

from support.logbuilder import REMOVE, Log, accepted, rejected

# ---------------------------------------------------------------- selectors


def king_of_hearts_log(powers: dict) -> tuple[Log, dict]:
    """K skips; KH (a card key) draws two instead, its power whole."""
    log = Log({"powers": powers, "hand_size": 3})
    log.deal(["KH KS 9S", "9H 10C 8C"], up="8H", stock="7C 7D")
    at = {"kh": log.play(0, "KH")}
    at["draw"] = log.draw(1, "7C 7D", "seven")
    at["ks"] = log.play(0, "KS")
    at["skip"] = log.skip(1)
    log.play(0, "9S")
    log.finish(0, [0, 41])
    return log, at


def test_a_card_key_gives_that_card_its_own_power_whole():
    log, _ = king_of_hearts_log({"K": {"skip": 1}, "KH": {"draw": 2}})
    assert accepted(log.events).rounds == 1


def test_a_card_key_rejects_the_rank_power_for_that_card():
    log, at = king_of_hearts_log({"K": {"skip": 1}, "KH": {"draw": 2}})
    rejected(log.changed(at["draw"], type="play", card="9H", suit=None, announce=None, cards=REMOVE, reason=REMOVE),
             at["draw"], "draw penalty of 2 is pending")
    rejected(log.without(at["skip"]), at["skip"], "seat 1 is skipped")


def test_without_the_card_key_the_king_of_hearts_skips():
    log, at = king_of_hearts_log({"K": {"skip": 1}})
    rejected(log.events, at["draw"], "expected skip")


def test_a_key_naming_two_cards_beats_the_rank_key():
    powers = {"J": {"wild": True}, "JC JS": {"draw": 2}}
    log = Log({"powers": powers})
    log.deal(["JH 9D", "JC JS"], up="8D", stock="7H 7S")
    log.play(0, "JH", "C")
    jc = log.play(1, "JC")  # not wild: it follows the clubs named, and names nothing
    log.draw(0, "7H 7S", "seven")
    log.play(1, "JS")  # on JC by rank
    log.finish(1, [23, 0])
    accepted(log.events)
    rejected(log.changed(jc, suit="H"), jc, "is not wild and names no suit")


def test_a_black_jack_that_is_not_wild_must_match():
    log = Log({"powers": {"J": {"wild": True}, "JC JS": {"draw": 2}}})
    log.deal(["JC 9D", "10S QS"], up="8H")
    jc = log.play(0, "JC")
    rejected(log.events, jc, "JC matches neither")


# ---------------------------------------------------------------- jokers


def joker_rules(**changes) -> dict:
    return {"deck.jokers": 2, "points.X": 50, **changes}


def test_a_wild_joker_names_a_suit_and_jokers_score_their_points():
    log = Log(joker_rules(powers={"X": {"wild": True}}))
    log.deal(["XR 10S", "10C XB"], up="8H")
    xr = log.play(0, "XR", "C")
    log.play(1, "10C")
    log.play(0, "10S")
    log.finish(0, [0, 50])
    accepted(log.events)
    rejected(log.changed(xr, suit=None), xr, "names a suit")


def test_a_deal_without_the_jokers_is_not_the_full_deck():
    log = Log(joker_rules(powers={"X": {"wild": True}}))
    start = log.deal(["XR 10S", "10C QC"], up="8H")
    log.finish(None, [0, 0])
    events = log.changed(start, stock=[card for card in log.events[start]["stock"] if card != "XB"])
    rejected(events, start, "missing XB")


def test_a_joker_without_a_power_goes_only_on_a_joker():
    log = Log(joker_rules())
    log.deal(["XR 10S", "10C QC"], up="XB", stock="7D 7H")
    log.play(0, "XR")  # rank X on rank X
    log.draw(1, "7D")  # a joker has no suit: nothing but a joker goes on it
    log.draw(0, "7H")
    wrong = Log(joker_rules())
    wrong.deal(["XR 10S", "10C QC"], up="XB", stock="7D")
    wrong.play(0, "XR")
    ten = wrong.play(1, "10C")
    rejected(wrong.events, ten, "10C matches neither")
    on_card = Log(joker_rules())
    on_card.deal(["XR 10S", "10C QC"], up="8H")
    xr = on_card.play(0, "XR")
    rejected(on_card.events, xr, "XR matches neither")


# ---------------------------------------------------------------- powers by player count


def ace_log(players: int, again: bool) -> Log:
    """An Ace played, then its player (two players: plays again) or the next seat after the skip."""
    log = Log({"powers": {"A": {"skip": 1}}, "powers_by_players": {2: {"A": {"play_again": True}}}, "hand_size": 3},
              players=players)
    hands = ["AH 9C 8S", "10S QS KS", "10D QD KD"][:players]
    log.deal(hands, up="10H", stock="7C")
    log.play(0, "AH")
    if again:
        log.draw(0, "7C", "ace")
    else:
        log.skip(1)
        log.draw(0 if players == 2 else 2, "7C", "stuck")
    return log


def test_powers_by_players_replace_a_key_at_exactly_that_table_size():
    two = ace_log(2, again=True)
    two.finish(None, [0, 0])
    assert len(two.events) > 4
    # two players: the Ace plays again, so its player draws in the extra turn, no skip
    rejected(ace_log(2, again=False).events, 3, "expected play or draw")
    # three players: the rank key applies, the Ace skips
    rejected(ace_log(3, again=True).events, 3, "expected skip")
    three = ace_log(3, again=False)
    assert three.events[3] == {"type": "skip", "seat": 1}


def test_powers_by_players_logs_verify_to_the_end():
    rules = {"powers": {"A": {"skip": 1}}, "powers_by_players": {2: {"A": {"play_again": True}}}}
    two = Log(rules)
    two.deal(["AH 9H", "10S QS"], up="10H")
    two.play(0, "AH")
    two.play(0, "9H")  # the extra turn: out
    two.finish(0, [0, 13])
    accepted(two.events)
    three = Log(rules, players=3)
    three.deal(["AH 9H", "10S QS", "10D QD"], up="10H", stock="KH")
    three.play(0, "AH")
    three.skip(1)
    three.draw(2, "KH")
    three.play(2, "KH")
    three.play(0, "9H")
    three.finish(0, [0, 13, 13])
    accepted(three.events)


# ---------------------------------------------------------------- hand size, deck, lead, deal


def three_seat_round(log: Log, dealer: int = 2, first: int | None = None, hands=None) -> None:
    """Seat `first` (left of the dealer by default) plays 9H, the other two are stuck and draw, holding 23 points
    each; the caller has the first seat go out on 10H."""
    order = [(dealer + k) % 3 for k in (1, 2, 3)] if first is None else [first, (first + 1) % 3, (first + 2) % 3]
    cards = {order[0]: "9H 10H", order[1]: "7C 8C", order[2]: "AD KD"}
    log.deal(hands or [cards[s] for s in range(3)], up="KH", stock="8S 8D", dealer=dealer, first=order[0])
    log.play(order[0], "9H")
    log.draw(order[1], "8S")  # 23 points
    log.draw(order[2], "8D")  # 23 points


def test_hand_size_by_players_deals_that_many_from_that_table_size_on():
    log = Log({"hand_size": 3, "hand_size_by_players": {3: 2}}, players=3)
    three_seat_round(log)
    log.play(0, "10H")
    log.finish(0, [0, 23, 23])
    accepted(log.events)
    plain = Log({"hand_size": 3}, players=3)
    plain.events[1:] = log.events[1:]
    rejected(plain.events, 1, "seat 0 is dealt 2 cards, expected 3")


def test_ranks_by_players_changes_the_deck_from_that_table_size_on():
    six = ["6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    log = Log({"deck.ranks_by_players": {3: six}, "points.6": 6}, players=3)
    three_seat_round(log)
    log.play(0, "10H")
    log.finish(0, [0, 23, 23])
    accepted(log.events)
    assert "6H" in log.events[1]["stock"]
    skat = Log({"points.6": 6}, players=3)
    skat.events[1:] = log.events[1:]
    rejected(skat.events, 1, "extra 6C")


def test_a_negative_first_player_is_counted_right_of_the_dealer():
    log = Log({"deal.first_player": -1}, players=3)
    three_seat_round(log, dealer=0, first=2)  # right of dealer 0 at three seats
    log.play(2, "10H")
    log.finish(2, [23, 23, 0])
    accepted(log.events)
    rejected(log.changed(1, first=1), 1, "seat 2 leads")


def loser_deals_match(second_dealer: int) -> Log:
    log = Log({"deal.next_dealer": "loser", "match.format": "rounds", "match.rounds": 2}, players=3)
    three_seat_round(log, dealer=2)
    log.play(0, "10H")
    log.round_end(0, [0, 23, 23], [0, 23, 23])  # seats 1 and 2 tie for the most: seat 1 is first left of dealer 2
    three_seat_round(log, dealer=second_dealer)
    winner = (second_dealer + 1) % 3
    log.play(winner, "10H")
    points = [0 if s == winner else 23 for s in range(3)]
    totals = [0 + points[0], 23 + points[1], 23 + points[2]]
    log.round_end(winner, points, totals)
    won = [int(s == 0) + int(s == winner) for s in range(3)]
    ranking = sorted(range(3), key=lambda s: (totals[s], -won[s]))
    best = min((totals[s], -won[s]) for s in range(3))
    log.match_end(ranking, [s for s in ranking if (totals[s], -won[s]) == best], totals, won)
    return log


def test_the_loser_deals_next_the_first_of_a_tie_clockwise_from_the_dealer():
    accepted(loser_deals_match(1).events)
    start = next(i for i, e in enumerate(loser_deals_match(0).events) if e["type"] == "round_start" and e["round"] == 2)
    rejected(loser_deals_match(0).events, start, "seat 1 deals (the loser of the last round), not seat 0")


def test_the_winner_deals_next():
    log = Log({"deal.next_dealer": "winner", "match.format": "rounds", "match.rounds": 2}, players=3)
    three_seat_round(log, dealer=2)
    log.play(0, "10H")
    log.round_end(0, [0, 23, 23], [0, 23, 23])
    start = len(log.events)
    three_seat_round(log, dealer=0)
    log.play(1, "10H")
    log.round_end(1, [23, 0, 23], [23, 23, 46])
    log.match_end([0, 1, 2], [0, 1], [23, 23, 46], [1, 1, 0])
    accepted(log.events)
    rejected(log.changed(start, dealer=1, first=2), start, "seat 0 deals (the winner of the last round), not seat 1")
