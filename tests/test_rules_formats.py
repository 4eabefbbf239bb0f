"""docs/house-rules.md: how a hand scores (count, minimum, round_to, multiplier, winner_collects) and the match
formats target, rounds and wins, with match.max_rounds ending every match."""

from dataclasses import dataclass

from runner.plugins import registry
from runner.table.match import Match
from runner.table.play import make_bot_factory
from support.games import play
from support.scenario import deal, do, load

STOCK = "2C 3C 5C 6C 2S 3S"


def out_on(card: str, overrides: dict) -> list[int]:
    """The points of a round that seat 0 ends with `card`, after 4H and a draw by each other seat:
    they hold 5S 8D 2C (15 points), KC 9C 3C (22) and 2D 10S 5C (17)."""
    rnd = deal("strafpunten", ["4H " + card, "5S 8D", "KC 9C", "2D 10S"], "10H", STOCK, overrides=overrides)
    do(rnd, "4H", "draw", "draw", "draw")
    do(rnd, card + (">H" if card.startswith("J") else "") + "@maumau")
    assert rnd.winner == 0
    return rnd.points()


# ---------------------------------------------------------------- what a hand scores


def test_by_default_a_hand_scores_its_card_points():
    assert out_on("5H", {}) == [0, 15, 22, 17]


def test_scoring_count_cards_scores_one_per_card_left():
    assert out_on("5H", {"scoring.count": "cards"}) == [0, 3, 3, 3]


def test_scoring_count_flat_scores_one_for_any_hand_that_holds_cards():
    assert out_on("5H", {"scoring.count": "flat"}) == [0, 1, 1, 1]


def test_a_minimum_raises_a_small_hand_to_it():
    assert out_on("5H", {"scoring.minimum": 20}) == [0, 20, 22, 20]


def test_round_to_rounds_each_hand_to_the_nearest_multiple_halves_up():
    assert out_on("5H", {"scoring.round_to": 10}) == [0, 20, 20, 20]  # 15 up, 22 down, 17 up
    assert out_on("5H", {"scoring.round_to": 4}) == [0, 16, 24, 16]  # 15 -> 16, 22 (half) -> 24, 17 -> 16


def test_minimum_comes_before_round_to():
    assert out_on("5H", {"scoring.minimum": 26, "scoring.round_to": 10}) == [0, 30, 30, 30]


def test_going_out_on_a_multiplier_card_multiplies_everyones_points():
    overrides = {"scoring.multiplier": {"J": 2}}
    assert out_on("JH", overrides) == [0, 30, 44, 34]
    assert out_on("5H", overrides) == [0, 15, 22, 17]  # another last card: no factor


def test_the_multiplier_applies_after_minimum_and_rounding():
    assert out_on("JH", {"scoring.multiplier": {"JH": 3}, "scoring.round_to": 10}) == [0, 60, 60, 60]


def test_winner_collects_the_others_points_and_they_score_nothing():
    overrides = {"scoring.winner_collects": True, "match.format": "target", "match.limit": 100}
    assert out_on("5H", overrides) == [15 + 22 + 17, 0, 0, 0]


def test_a_blocked_round_without_a_winner_scores_nothing_when_the_winner_collects():
    """Not each hand for its holder: in a match to a target the player stuck with most cards would gain most."""
    rnd = deal("strafpunten", ["9C", "9D"], "10H", overrides={"scoring.winner_collects": True, "match.format": "target",
                                                              "match.limit": 100})
    do(rnd, "draw", "draw")
    assert rnd.over and rnd.winner is None and rnd.points() == [0, 0]


# ---------------------------------------------------------------- match formats


@dataclass
class Ended:
    winner: int | None
    scored: list[int]
    direction: int = 1

    def points(self) -> list[int]:
        return self.scored


class Scripted(Match):
    """A match whose rounds end as scripted: (winner, points by seat), one per round played."""

    def __init__(self, players: int, script, overrides):
        super().__init__(load("strafpunten", overrides), ["random"] * players, 0, make_bot_factory(registry()))
        self.script, self.played = list(script), 0

    def play_round(self, number, dealer, active, deciding=False):
        self.played += 1
        winner, points = self.script.pop(0)
        return Ended(winner, points)


TARGET = {"match.format": "target", "match.limit": 100, "scoring.winner_collects": True}


def test_target_ends_after_the_round_in_which_a_total_reaches_the_limit_and_the_highest_total_wins():
    match = Scripted(3, [(0, [60, 0, 0]), (1, [0, 70, 0]), (2, [0, 0, 40]), (0, [45, 0, 0])], TARGET)
    result = match.run()
    assert match.played == 4 and result.totals == (105, 70, 40)
    assert result.winners == (0,) and result.ranking == (0, 1, 2)


def test_target_ties_go_to_most_rounds_won_then_a_draw():
    result = Scripted(3, [(0, [100, 100, 0])], TARGET).run()
    assert result.totals == (100, 100, 0) and result.winners == (0,) and result.ranking == (0, 1, 2)
    result = Scripted(3, [(None, [100, 100, 0])], TARGET).run()
    assert set(result.winners) == {0, 1}


def test_format_rounds_plays_exactly_that_many_rounds_and_the_fewest_points_win():
    overrides = {"match.format": "rounds", "match.rounds": 3, "match.limit": None}
    match = Scripted(3, [(0, [0, 150, 20]), (1, [30, 0, 40]), (2, [10, 5, 0])], overrides)
    result = match.run()
    assert match.played == 3 and result.totals == (40, 155, 60) and result.winners == (0,)


def test_format_wins_ends_when_a_seat_has_won_that_many_rounds_and_most_wins_win():
    overrides = {"match.format": "wins", "match.wins": 2, "match.limit": None}
    match = Scripted(3, [(0, [0, 10, 20]), (1, [30, 0, 40]), (1, [10, 0, 1]), (0, [0, 0, 0])], overrides)
    result = match.run()
    assert match.played == 3 and result.rounds_won == (1, 2, 0) and result.winners == (1,)
    assert result.ranking == (1, 0, 2)


def test_wins_ties_on_rounds_won_go_to_the_fewest_points():
    overrides = {"match.format": "wins", "match.wins": 1, "match.limit": None, "match.max_rounds": 1}
    result = Scripted(3, [(None, [10, 5, 20])], overrides).run()
    assert result.rounds_won == (0, 0, 0) and result.winners == (1,) and result.ranking == (1, 0, 2)


def test_max_rounds_ends_a_match_that_would_go_on_and_the_standing_totals_decide():
    overrides = {"match.max_rounds": 2}
    match = Scripted(3, [(0, [0, 10, 20]), (1, [30, 0, 40]), (2, [0, 0, 0])], overrides)
    result = match.run()
    assert match.played == 2 and result.totals == (30, 10, 60) and result.winners == (1,)


def test_max_rounds_ends_an_elimination_match_with_several_left():
    overrides = {"match.max_rounds": 2}
    match = Scripted(3, [(0, [0, 10, 20]), (1, [30, 0, 40]), (2, [0, 0, 0])], overrides)
    match.ruleset = load("elimination", overrides)
    result = match.run()
    assert match.played == 2 and result.winners == (1,) and result.ranking == (1, 0, 2)


def test_a_target_match_of_random_bots_ends_with_the_highest_total_first():
    log: list[dict] = []
    result = play(load("strafpunten", TARGET), 3, 1, log=log)
    assert max(result.totals) >= 100 and result.totals[result.ranking[0]] == max(result.totals)
    assert all(sum(1 for p in event["points"] if p) <= 1 for event in log if event["type"] == "round_end")
