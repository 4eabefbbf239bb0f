"""The `hard` bot: search over sampled deals, reproducible from its rng, scoring rounds by their place in the match."""

import random

import pytest

from maumau.bots.hard import HardBot, candidates, choose, match_value
from maumau.bots.medium import MediumBot
from runner.game.engine import Round
from runner.table.match import Match
from runner.table.play import make_bot_factory
from support.midround import table
from support.scenario import cards


def test_the_same_rng_gives_the_same_decisions(reg):
    make = make_bot_factory(reg)
    logs = []
    for _ in range(2):
        def make_bot(player, seat, rng):
            return HardBot(rng=rng, rollouts=12) if player == "hard" else make(player, seat, rng)
        log = []
        Match(reg.load_ruleset("standard-single"), ["hard", "medium", "easy"], 4, make_bot, log=log).run()
        logs.append(log)
    assert logs[0] == logs[1]


@pytest.mark.parametrize("name", ["standard", "strafpunten", "elimination", "standard-challenge"])
def test_it_plays_whole_matches_without_a_fault(reg, name):
    make = make_bot_factory(reg)

    def make_bot(player, seat, rng):
        return HardBot(rng=rng, rollouts=8) if player == "hard" else make(player, seat, rng)

    ruleset = reg.load_ruleset(name, {"match.limit": 30} if name != "standard-challenge" else {})
    result = Match(ruleset, ["hard", "easy", "medium"], 2, make_bot).run()
    assert result.faults == () and sorted(result.ranking) == [0, 1, 2]


def test_it_makes_the_player_about_to_go_out_draw():
    # Seat 1 holds one card; a 7 makes it draw two (no other 7 is hidden), a 3 lets it go out.
    rnd = table("standard", ["7H 3H 10C 7C 7D", "9H", "2D 3S 4C 5C 6C"], "7S 5H")
    bot = HardBot(rng=random.Random(1), rollouts=120)
    action = bot.act(rnd.view())
    assert action.card == cards("7H")[0]


def test_the_search_overrides_the_heuristic_choice_only_when_clearly_better():
    prior = [0.50, 0.52, 0.48, 0.50, 0.51, 0.49]
    clearly = [v + 0.05 for v in prior]
    noisy = [0.60, 0.40, 0.62, 0.41, 0.58, 0.45]  # better on average, but not reliably
    assert choose([prior, clearly], prior=0, confidence=1.5) == 1
    assert choose([prior, noisy], prior=0, confidence=1.5) == 0
    assert choose([clearly, prior], prior=0, confidence=1.5) == 0
    assert choose([[0.1], [0.9]], prior=0, confidence=1.5) == 0  # one sample says nothing


def test_a_jack_is_searched_only_with_the_suits_left_in_the_hand():
    rnd = table("standard", ["JD 2S 3S", "4D 5D", "6D 7D"], "9C")
    options = candidates(rnd.view())
    assert {(a.card.text, a.suit) for a in options} == {("JD", "S")}


def test_a_last_jack_is_searched_once():
    rnd = table("standard", ["JD", "4D 5D", "6D 7D"], "9C")
    assert len(candidates(rnd.view())) == 1


def test_a_round_that_ends_the_match_is_valued_by_the_places():
    # Strafpunten to 100: seat 0 has 60, the others 90 and 95.
    view = table("strafpunten", ["2C", "3C", "4C"], "9C", totals=(60, 90, 95)).view()
    assert match_value(view, [0, 5, 20], winner=0) == 1.0  # the match ends with us first
    assert match_value(view, [45, 0, 0], winner=1) == 0.0  # we pass both: last
    assert match_value(view, [40, 0, 5], winner=1) == 0.25  # 100 against 90 and 100: a tie for last


def test_early_in_a_match_fewer_points_is_better_and_more_for_the_others_too():
    view = table("standard", ["2C", "3C", "4C"], "9C").view()
    assert match_value(view, [0, 10, 10], 0) > match_value(view, [5, 10, 10], 1) > match_value(view, [5, 0, 10], 1)
    assert 0.0 < match_value(view, [5, 0, 10], 1) < 1.0


def test_a_budget_in_seconds_still_searches_one_sample():
    rnd = table("standard", ["7H 3H 10C", "9H 2C", "2D 3S 4C"], "5H")
    bot = HardBot(rng=random.Random(1), rollouts=None, budget=0.0)
    assert bot.act(rnd.view()) in rnd.view().legal
    assert bot.searched == len(candidates(rnd.view()))


def test_it_needs_a_limit():
    with pytest.raises(ValueError, match="rollouts"):
        HardBot(rollouts=None, budget=None)


def test_it_believes_a_seat_that_took_a_seven_holds_none_unless_told_not_to():
    rnd = table("standard", ["7H 2C 3C 4C 5C", "2S 3S 4S 5S 6S", "KD KS QD QS 10D", "AD AS 9D 9S 10S"], "9H")
    rnd.apply(next(a for a in rnd.legal() if getattr(a, "card", None) == cards("7H")[0]))
    rnd.apply(rnd.legal()[-1])  # seat 1 has no 7: it draws the two
    while rnd.current != 0:
        rnd.apply(rnd.legal()[0])
    view = rnd.view()

    def sevens_dealt(bot):
        sample = bot.sampler(view)
        return sum(
            sum(1 for card in sample(random.Random(seed)).hands[1][:5] if card.rank == "7") for seed in range(40)
        )

    assert sevens_dealt(HardBot(rng=random.Random(1))) == 0  # 5 of its 7 cards were held when it took the penalty
    assert sevens_dealt(HardBot(rng=random.Random(1), sensible=False)) > 0


@pytest.mark.parametrize("name", ["standard", "strafpunten"])
def test_its_beliefs_about_medium_players_hold_of_their_true_hands(reg, name):
    """Against medium bots hard's sensible beliefs are true: under strafpunten medium sheds a Jack of 20 over a low
    card when an opponent is close, so such a Jack tells nothing of the low cards (bots/hard.py: medium_wild_over)."""
    ruleset, rng, checked = reg.load_ruleset(name), random.Random(3), 0
    hard = HardBot(rng=random.Random(1))
    for number in range(12):
        rnd = Round.deal(ruleset, rng, 4, dealer=number % 4)
        bots = [MediumBot(rng=random.Random(seat)) for seat in range(4)]
        while not rnd.over:
            view = rnd.view()
            for seat, layers in hard.beliefs(view).voids.items():
                needed = 0
                for count, excluded in layers:  # most excluded first: Hall's condition for nested sets
                    needed += count
                    assert sum(1 for card in rnd.hands[seat] if card not in excluded) >= needed, (number, seat)
                    checked += 1
            rnd.apply(rnd.canonical(bots[rnd.current].act(view)))
    assert checked > 0
