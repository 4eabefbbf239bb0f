"""docs/house-rules.md: hand size and deck by table size, who leads, who deals next, a round ended by a hand limit."""

import random
from dataclasses import dataclass

import pytest

from runner.game.cards import RANKS
from runner.game.engine import HAND_LIMIT, Outcome, Round
from runner.plugins import registry
from runner.table.match import Match
from runner.table.play import make_bot_factory
from support.games import play
from support.scenario import all_cards, deal, do, load

STOCK = "2C 3C 4C 5C 6C 2S 3S 4S 5S 6S"


@pytest.mark.parametrize("players, size", [(2, 7), (3, 7), (4, 5), (6, 5)])
def test_hand_size_by_players_deals_that_many_from_the_table_size_on(players, size):
    ruleset = load("standard", {"hand_size": 7, "hand_size_by_players": {4: 5}})
    rnd = Round.deal(ruleset, random.Random(players), players)
    assert [len(hand) for hand in rnd.hands] == [size] * players


@pytest.mark.parametrize("players, ranks", [(2, RANKS[5:]), (4, RANKS[5:]), (5, RANKS)])
def test_the_decks_ranks_by_players_a_skat_deck_below_five_players(players, ranks):
    ruleset = load("standard", {"deck.ranks": "skat", "deck.ranks_by_players": {5: "full"}, "hand_size": 5})
    rnd = Round.deal(ruleset, random.Random(players), players)
    assert {card.rank for card in all_cards(rnd)} == set(ranks)
    assert sum(all_cards(rnd).values()) == 4 * len(ranks)


@pytest.mark.parametrize("first, lead", [(1, 1), (0, 0), (-1, 3), (2, 2), (-2, 2)])
def test_first_player_counts_from_the_dealer_clockwise_and_negative_counts_to_the_right(first, lead):
    rnd = deal("standard", ["2D", "3D", "4D", "5D"], "10H", STOCK, dealer=0, overrides={"deal.first_player": first})
    assert rnd.current == lead


@pytest.mark.parametrize("players", [2, 3, 5])
def test_the_player_right_of_the_dealer_leads_at_any_table_size(players):
    hands = [f"{rank}D" for rank in "2345678"[:players]]
    rnd = deal("standard", hands, "10H", STOCK, dealer=1, overrides={"deal.first_player": -1})
    assert rnd.current == 0  # right of seat 1, counting seats up clockwise


# ---------------------------------------------------------------- who deals next


def dealers(log: list[dict]) -> list[int]:
    return [event["dealer"] for event in log if event["type"] == "round_start"]


def round_ends(log: list[dict]) -> list[dict]:
    return [event for event in log if event["type"] == "round_end"]


def test_the_dealer_rotates_by_default():
    log: list[dict] = []
    play(load("strafpunten"), 3, 4, log=log)
    found = dealers(log)
    assert found == [(2 + k) % 3 for k in range(len(found))]


def test_with_next_dealer_loser_the_seat_with_the_most_points_deals_the_next_round():
    log: list[dict] = []
    play(load("strafpunten", {"deal.next_dealer": "loser"}), 4, 5, log=log)
    found, ends = dealers(log), round_ends(log)
    assert len(found) >= 3 and len(set(found)) > 1
    for dealer, previous, end in zip(found[1:], found, ends):
        most = max(end["points"])
        losers = [seat for seat, points in enumerate(end["points"]) if points == most and seat != end["winner"]]
        clockwise = [(previous + step) % 4 for step in range(1, 5)]
        assert dealer == next(seat for seat in clockwise if seat in losers)


def test_with_next_dealer_winner_the_winner_deals_the_next_round():
    log: list[dict] = []
    play(load("strafpunten", {"deal.next_dealer": "winner"}), 3, 6, log=log)
    found, ends = dealers(log), round_ends(log)
    for dealer, previous, end in zip(found[1:], found, ends):
        assert dealer == (end["winner"] if end["winner"] is not None else (previous + 1) % 3)


@dataclass
class Ended:
    """A round as the match sees it when it is over, scripted."""

    winner: int | None
    scored: list[int]
    active: list[int]
    dealer: int
    direction: int = 1
    out: tuple = ()

    def points(self) -> list[int]:
        return self.scored

    def scores(self) -> list[int]:
        return self.scored


class Scripted(Match):
    def __init__(self, players: int, script, overrides):
        super().__init__(load("strafpunten", overrides), ["random"] * players, 0, make_bot_factory(registry()))
        self.script, self.dealt = list(script), []

    def play_round(self, number, dealer, active, deciding=False):
        self.dealt.append(dealer)
        winner, points = self.script.pop(0)
        return Ended(winner, points, list(active), dealer)


def test_a_tie_for_the_most_points_goes_to_the_first_of_them_clockwise_from_the_dealer():
    match = Scripted(4, [(0, [0, 10, 30, 30]), (1, [40, 0, 40, 10]), (2, [70, 70, 0, 0])],
                     {"deal.next_dealer": "loser"})
    match.run()
    assert match.dealt == [3, 2, 0]  # seat 3 deals first; then 2 (before 3, clockwise from 3); then 0 (from 2: 3, 0)


# ---------------------------------------------------------------- a round ends above a hand limit


def test_a_round_ends_at_once_when_a_hand_holds_more_than_the_hand_limit():
    rnd = deal("standard", ["7H 2D 3D", "4S 5D 6D", "8C 9C 10C"], "10H", STOCK, overrides={"round.hand_limit": 4})
    do(rnd, "7H")
    assert rnd.current == 1 and not rnd.over
    do(rnd, "draw")  # 3 + 2 = 5 cards: more than 4
    assert rnd.over and rnd.outcome == Outcome(None, HAND_LIMIT) and rnd.winner is None
    assert rnd.points() == [5, 2 + 3 + 4 + 5 + 6, 27]


def test_holding_exactly_the_hand_limit_goes_on():
    rnd = deal("standard", ["7H 2D", "4S 5D", "8C 9C"], "10H", STOCK, overrides={"round.hand_limit": 4})
    do(rnd, "7H", "draw")
    assert not rnd.over and len(rnd.hands[1]) == 4
