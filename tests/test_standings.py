"""Standings arithmetic on a hand-made set of results."""

import json

import pytest

from runner.cli.standings import render_standings
from runner.tournament.standings import clustered_wilson, compute, wilson
from runner.tournament.work import SeatOutcome

ENTRANTS = [("ann", "random"), ("bob", "random"), ("cy", "easy")]


def seat(seat, entrant, place, score, points=0, rounds=1, rounds_won=0, faults=0):
    return SeatOutcome(seat=seat, entrant=entrant, bot=dict(ENTRANTS)[entrant], place=place, score=score, points=points,
                       rounds=rounds, rounds_won=rounds_won, faults=faults, forfeited=False)


# Four two-seat matches and one three-seat match, by hand:
#   1. ann beats bob            ann 0 pts, bob 30 pts over 3 rounds each
#   2. bob beats ann            bob 10, ann 20 over 2 rounds
#   3. ann and cy share first   (a drawn match: 0.5 each)
#   4. ann beats cy, cy faulted twice
#   5. three seats: cy first, bob second, ann third
MATCHES = [
    [seat(0, "ann", 1, 1.0, 0, 3, 2), seat(1, "bob", 2, 0.0, 30, 3, 1)],
    [seat(0, "bob", 1, 1.0, 10, 2, 1), seat(1, "ann", 2, 0.0, 20, 2, 1)],
    [seat(0, "ann", 1, 0.5, 5, 1, 0), seat(1, "cy", 1, 0.5, 5, 1, 0)],
    [seat(0, "cy", 2, 0.0, 40, 4, 0, faults=2), seat(1, "ann", 1, 1.0, 8, 4, 4)],
    [seat(0, "ann", 3, 0.0, 12, 1), seat(1, "bob", 2, 0.0, 6, 1), seat(2, "cy", 1, 1.0, 0, 1, 1)],
]


@pytest.fixture(scope="module")
def standings():
    return compute(ENTRANTS, MATCHES)


def row(standings, name):
    return next(r for r in standings.rows if r.entrant == name)


def test_counts_scores_and_averages(standings):
    ann = row(standings, "ann")
    assert (ann.matches, ann.wins, ann.draws, ann.losses) == (5, 2, 1, 2)
    assert ann.score == 2.5 and ann.win_rate == 0.5
    assert ann.points_per_round == pytest.approx((0 + 20 + 5 + 8 + 12) / (3 + 2 + 1 + 4 + 1))
    assert ann.rounds_won == 7
    cy = row(standings, "cy")
    assert (cy.matches, cy.wins, cy.draws, cy.losses, cy.score, cy.faults) == (3, 1, 1, 1, 1.5, 2)
    bob = row(standings, "bob")
    assert (bob.wins, bob.losses, bob.score) == (1, 2, 1.0)
    assert bob.points_per_round == pytest.approx((30 + 10 + 6) / 6)


def test_ranking_is_by_win_rate_then_rating(standings):
    # cy 1.5/3 and ann 2.5/5 tie at 0.5, and cy's win over both in the three-seat match rates it higher;
    # bob's 1/3 puts it last, although its rating is the highest
    assert [r.entrant for r in standings.rows] == ["cy", "ann", "bob"]
    assert row(standings, "cy").rating > row(standings, "ann").rating
    assert row(standings, "bob").rating > row(standings, "cy").rating


def test_wilson_interval_matches_the_textbook_value():
    low, high = wilson(5, 10)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)
    assert wilson(0, 0) == (0.0, 1.0)
    ann = compute(ENTRANTS, MATCHES).rows
    for r in ann:
        assert (r.win_rate_low, r.win_rate_high) == wilson(r.score, r.matches)


def test_results_that_go_together_in_a_deal_widen_the_interval():
    independent = [(i, float(i % 2)) for i in range(20)]
    assert clustered_wilson(independent) == wilson(10, 20)
    # the two rotations of each deal always agree: ten deals carry the information of ten matches
    paired = [(deal, float(deal % 2)) for deal in range(10) for _ in range(2)]
    assert clustered_wilson(paired) == wilson(5, 10)
    # rotations that always split a deal (duplicate play cancelling luck) never narrow it below independence
    split = [(deal, float(rotation)) for deal in range(10) for rotation in range(2)]
    assert clustered_wilson(split) == wilson(10, 20)


def test_head_to_head_counts_only_two_seat_matches(standings):
    h2h = standings.head_to_head
    assert h2h["ann", "bob"] == (2, 1.0) and h2h["bob", "ann"] == (2, 1.0)
    assert h2h["ann", "cy"] == (2, 1.5) and h2h["cy", "ann"] == (2, 0.5)
    assert ("bob", "cy") not in h2h  # they met only at the three-seat table


def test_adjacent_pairs_compare_places_in_shared_matches(standings):
    cy_ann, ann_bob = standings.adjacent
    # cy and ann: shared first (half), ann ahead, cy ahead in the three-seat match
    assert (cy_ann.above, cy_ann.below, cy_ann.matches, cy_ann.ahead) == ("cy", "ann", 3, 1.5)
    # ann and bob: ann ahead in match 1 only
    assert (ann_bob.above, ann_bob.below, ann_bob.matches, ann_bob.ahead) == ("ann", "bob", 3, 1.0)
    assert (ann_bob.low, ann_bob.high) == wilson(1.0, 3)
    assert standings.too_close == [cy_ann, ann_bob]  # three matches separate nobody


def test_a_rating_does_not_depend_on_completion_order_but_follows_schedule_order():
    again = compute(ENTRANTS, [list(m) for m in MATCHES])
    assert again == compute(ENTRANTS, MATCHES)
    winner_first = compute(ENTRANTS, [MATCHES[0]] * 12)
    ann, bob = row(winner_first, "ann"), row(winner_first, "bob")
    assert ann.rating > 25 > bob.rating and ann.rating_sigma < 25 / 3


def test_renderings_carry_the_same_numbers(standings):
    data = json.loads(render_standings(standings, "json"))
    assert [r["entrant"] for r in data["standings"]] == [r.entrant for r in standings.rows]
    assert data["standings"][0]["rank"] == 1
    csv_lines = render_standings(standings, "csv").splitlines()
    assert csv_lines[0].startswith("rank,entrant,bot,matches,wins,draws,losses,score,win_rate")
    assert len(csv_lines) == 1 + len(ENTRANTS)
    table = render_standings(standings, "table")
    # a three-seat match among them: the crosstable of every pair, not only the two-seat head to head
    assert "Placed ahead" in table and "Head to head" not in table and "Too close to call at 95%" in table
    assert "parity 1/2 = 0.500 at tables of 2, 1/3 = 0.333 at tables of 3" in table
    cross = {(c["entrant"], c["opponent"]): c for c in data["crosstable"]}
    assert cross["ann", "cy"]["share"] == 0.5 and cross["cy", "bob"]["matches"] == 1
    assert data["table_sizes"] == [2, 3]
    two_seats = compute(ENTRANTS, MATCHES[:4])
    assert "Head to head" in render_standings(two_seats, "table")


def test_the_ahead_share_has_parity_one_half_at_any_table_size(standings):
    # per match, the share of the opponents placed ahead of: ann 1, 0, 1/2, 1, 0 (third of three)
    assert row(standings, "ann").ahead == 0.5
    assert row(standings, "bob").ahead == 0.5  # 0, 1 and 1/2 (second of three)
    assert row(standings, "cy").ahead == 0.5  # 1/2, 0, 1
    assert sum(r.win_rate * r.matches for r in standings.rows) == 5  # while first places sum to one per match
    for r in standings.rows:
        assert (r.ahead_low, r.ahead_high) == wilson(r.ahead * r.matches, r.matches)  # every match its own deal


def test_the_average_place_counts_a_shared_first_as_first(standings):
    assert row(standings, "ann").mean_place == pytest.approx((1 + 2 + 1 + 1 + 3) / 5)
    assert row(standings, "cy").mean_place == pytest.approx((1 + 2 + 1) / 3)


def test_the_crosstable_covers_every_pair_that_met_at_any_table(standings):
    cross = standings.crosstable
    assert (cross["bob", "cy"].matches, cross["bob", "cy"].ahead) == (1, 0.0)  # the three-seat match only
    assert (cross["cy", "bob"].matches, cross["cy", "bob"].ahead) == (1, 1.0)
    assert (cross["ann", "cy"].matches, cross["ann", "cy"].ahead) == (3, 1.5)
    assert (cross["ann", "bob"].matches, cross["ann", "bob"].ahead) == (3, 1.0)
    for (a, b), c in cross.items():
        assert c.ahead + cross[b, a].ahead == c.matches  # each match both played is shared out between them
    assert (cross["ann", "bob"].low, cross["ann", "bob"].high) == wilson(1.0, 3)


def test_rotations_of_a_deal_count_together_in_the_ahead_interval():
    # a deal that every rotation wins for the same entrant carries one deal's information, not three
    matches, blocks = [], []
    for deal in range(6):
        for rotation in range(3):
            places = {"ann": 1, "bob": 2, "cy": 3} if deal % 2 else {"ann": 3, "bob": 2, "cy": 1}
            matches.append([seat(s, name, places[name], float(places[name] == 1))
                            for s, name in enumerate(["ann", "bob", "cy"])])
            blocks.append(f"t0-d{deal}")
    clustered = compute(ENTRANTS, matches, blocks=blocks)
    independent = compute(ENTRANTS, matches)
    ann_c, ann_i = row(clustered, "ann"), row(independent, "ann")
    assert ann_c.ahead == ann_i.ahead == 0.5
    assert ann_c.ahead_high - ann_c.ahead_low > ann_i.ahead_high - ann_i.ahead_low


@pytest.mark.parametrize("seed", range(4))
def test_the_rating_is_openskills_plackett_luce_to_the_last_bit(seed):
    # runner/tournament/rating.py does openskill's arithmetic without its copies: the same floats, exactly, over a
    # long run of random tables (two to eight seats, shared places, ratings far from their start)
    import random

    from openskill.models import PlackettLuce

    from runner.tournament.rating import Rating, rate

    rng, model = random.Random(seed), PlackettLuce()
    theirs = [model.rating() for _ in range(10)]
    ours = [Rating() for _ in range(10)]
    for _ in range(1500):
        players = rng.sample(range(10), rng.randint(2, 8))
        places = sorted(rng.randint(1, len(players)) for _ in players)
        rng.shuffle(places)
        rated = model.rate([[theirs[p]] for p in players], ranks=list(places))
        for p, (rating,) in zip(players, rated):
            theirs[p] = rating
        for p, rating in zip(players, rate([ours[p] for p in players], places)):
            ours[p] = rating
        assert [(r.mu, r.sigma) for r in ours] == [(r.mu, r.sigma) for r in theirs]


def test_the_shapes_the_standings_keep_give_the_standings_made_without_them(monkeypatch):
    # the standings look each order of places and each seating up once (standings.Shapes): to the last bit the same
    # as working every match out afresh, over random tables of two to five seats with shared places
    import random

    from runner.tournament.standings import Shapes

    rng = random.Random(7)
    entrants = [(f"e{i}", "random") for i in range(6)]
    matches, blocks = [], []
    for m in range(400):
        table = rng.sample(entrants, rng.randint(2, 5))
        places = [rng.randint(1, len(table)) for _ in table]
        first = min(places)
        matches.append([SeatOutcome(s, e, b, p, 1 / places.count(first) if p == first else 0.0, rng.randint(0, 99),
                                    3, 1, 0, False) for s, ((e, b), p) in enumerate(zip(table, places))])
        blocks.append(m // 3)
    kept = compute(entrants, matches, blocks=blocks)
    monkeypatch.setattr(Shapes, "KEPT", 0)
    assert compute(entrants, matches, blocks=blocks) == kept
