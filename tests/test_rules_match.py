"""Match formats (docs: Rulesets): limits, fewest points, tie-breaks, single round, elimination, joins and leaves,
rotation of dealer and first player, and the direction between rounds.

Format rules are about whole rounds, so most tests script each round's outcome (winner and points)
and check what the match makes of it; the rotation and direction tests read a real match's log.
"""

from __future__ import annotations

from dataclasses import dataclass

from runner.plugins import registry
from runner.table.match import Match, TableChange
from runner.table.play import make_bot_factory
from support.games import play
from support.scenario import load


@dataclass
class Outcome:
    """A round as the match sees it when it is over."""

    winner: int | None
    scored: list[int]
    direction: int = 1

    def points(self) -> list[int]:
        return self.scored


class Scripted(Match):
    """A match whose rounds end as scripted: (winner, points by seat), one per round played."""

    def __init__(self, name: str, players: int, script, changes=(), overrides=None):
        super().__init__(load(name, overrides), ["random"] * players, 0, make_bot_factory(registry()), changes=changes)
        self.script, self.played = list(script), []

    def play_round(self, number, dealer, active, deciding=False):
        self.played.append((dealer, tuple(active), deciding))
        winner, points = self.script.pop(0)
        return Outcome(winner, points)


# ---------------------------------------------------------------- penalty points to a limit


def test_the_match_ends_after_the_round_in_which_a_total_reaches_the_limit():
    match = Scripted("strafpunten", 3, [(0, [0, 60, 40]), (1, [40, 0, 60])])
    result = match.run()
    assert result.totals == (40, 60, 100) and len(match.played) == 2  # 100 reaches 100: over


def test_the_match_goes_on_while_every_total_is_below_the_limit():
    match = Scripted("strafpunten", 3, [(0, [0, 60, 40]), (1, [40, 0, 59]), (0, [0, 1, 1])])
    result = match.run()
    assert len(match.played) == 3 and result.totals == (40, 61, 100)


def test_the_fewest_points_win():
    result = Scripted("strafpunten", 3, [(2, [70, 101, 0])]).run()
    assert result.winners == (2,) and result.ranking == (2, 0, 1)


def test_the_limit_may_be_set_to_150():
    match = Scripted("strafpunten", 2, [(0, [0, 120]), (0, [0, 30])], overrides={"match.limit": 150})
    match.run()
    assert len(match.played) == 2
    assert load("strafpunten-150").match.limit == 150


def test_strafpunten_tie_is_won_by_the_most_rounds_won():
    result = Scripted("strafpunten", 3, [(0, [0, 50, 30]), (1, [30, 0, 40]), (0, [20, 0, 40])]).run()
    assert result.totals == (50, 50, 110) and result.rounds_won == (2, 1, 0)
    assert result.winners == (0,) and result.ranking == (0, 1, 2)


def test_strafpunten_tie_on_rounds_won_as_well_is_a_draw():
    result = Scripted("strafpunten", 3, [(0, [0, 50, 30]), (1, [50, 0, 80])]).run()
    assert result.totals == (50, 50, 110) and set(result.winners) == {0, 1}


def test_standard_tie_plays_a_deciding_round_among_the_tied_only_its_points_not_added():
    match = Scripted("standard", 3, [(2, [40, 40, 0]), (2, [10, 10, 100]), (1, [7, 0, 0])])
    result = match.run()
    assert match.played[-1][1:] == ((0, 1), True)  # only the tied seats 0 and 1 play it
    assert result.winners == (1,) and result.ranking == (1, 0, 2)
    assert result.totals == (50, 50, 100)  # the deciding round only decides
    assert result.rounds[-1].deciding


def test_a_blocked_deciding_round_is_played_again():
    match = Scripted("standard", 2, [(None, [50, 50]), (None, [50, 50]), (None, [9, 9]), (0, [0, 9])])
    result = match.run()
    assert [deciding for _, _, deciding in match.played] == [False, False, True, True]
    assert result.winners == (0,)


def test_a_single_round_is_won_by_the_first_player_out():
    match = Scripted("standard-single", 3, [(1, [20, 0, 5])])
    result = match.run()
    assert len(match.played) == 1 and result.winners == (1,) and result.ranking == (1, 2, 0)


# ---------------------------------------------------------------- elimination


def test_elimination_a_total_over_the_limit_is_out_reaching_it_is_not():
    match = Scripted("elimination", 3, [(0, [0, 100, 101]), (0, [0, 5, 0])])
    result = match.run()
    assert match.played[1][1] == (0, 1)  # seat 2 (101) is out, seat 1 (100) plays on
    assert result.winners == (0,) and result.ranking == (0, 1, 2)


def test_elimination_the_rest_play_on_until_one_player_remains():
    match = Scripted("elimination", 4, [(0, [0, 30, 30, 30])] * 3 + [(0, [0, 20, 30, 0]), (0, [0, 0, 0, 20])])
    result = match.run()
    assert [active for _, active, _ in match.played][-1] == (0, 3)  # seats 1 and 2 went out together
    assert result.winners == (0,) and result.totals == (0, 110, 120, 110)
    assert result.ranking == (0, 3, 1, 2)  # the last out ranks above the earlier; a batch by its totals


def test_a_player_joins_between_rounds_with_the_lowest_current_total_in_the_next_seat():
    changes = [TableChange(2, "join", player="random")]
    match = Scripted("elimination", 3, [(None, [10, 30, 20]), (3, [20, 20, 20, 0]), (3, [80, 80, 80, 0])],
                     changes=changes)
    result = match.run()
    assert result.players == ("random",) * 4
    assert match.played[1][1] == (0, 1, 2, 3)
    assert result.totals == (110, 130, 120, 10)  # seat 3 started on 10, the lowest total then
    assert result.winners == (3,)


def test_a_player_who_leaves_is_removed_from_the_standings():
    changes = [TableChange(2, "leave", seat=1)]
    match = Scripted("elimination", 3, [(0, [0, 30, 20]), (0, [0, 0, 200])], changes=changes)
    result = match.run()
    assert match.played[1][1] == (0, 2)
    assert 1 not in result.ranking and result.left == (1,) and result.winners == (0,)


# ---------------------------------------------------------------- dealer, first player, direction


def test_the_deal_passes_over_seats_that_are_out():
    match = Scripted("elimination", 4, [(1, [101, 0, 5, 5]), (1, [0, 0, 200, 200])])
    match.run()
    assert [dealer for dealer, _, _ in match.played] == [3, 1]  # seat 0, next to deal, is out


def round_starts(name: str, players: int, seed: int, overrides=None) -> list[dict]:
    log: list[dict] = []
    play(load(name, overrides), players, seed, log=log)
    return [event for event in log if event["type"] == "round_start"], log


def test_the_dealer_and_the_first_player_rotate_clockwise_each_round():
    starts, _ = round_starts("strafpunten", 4, 3)
    assert len(starts) >= 3
    for number, start in enumerate(starts):
        assert start["dealer"] == (3 + number) % 4  # seat 0 leads the first round
        assert start["first"] == (start["dealer"] + 1) % 4


def direction_after(log: list[dict], start: dict) -> int:
    """The direction at the end of the round that `start` begins: flipped by every 9 played."""
    index = log.index(start)
    end = next(i for i in range(index, len(log)) if log[i]["type"] == "round_end")
    nines = sum(1 for event in log[index:end] if event["type"] == "play" and event["card"].startswith("9"))
    return start["direction"] * (-1) ** nines


def test_the_direction_goes_back_to_the_initial_direction_each_round():
    starts, log = round_starts("strafpunten-nine-reverses", 3, 6)
    assert any(direction_after(log, start) == -1 for start in starts[:-1])  # a round ended reversed ...
    assert all(start["direction"] == 1 for start in starts)  # ... and the next began clockwise again


def test_without_reset_the_direction_carries_into_the_next_round():
    starts, log = round_starts("strafpunten-nine-reverses", 3, 6, {"deal.reset_direction": False})
    carried = [direction_after(log, start) for start in starts[:-1]]
    assert [start["direction"] for start in starts[1:]] == carried and -1 in carried
