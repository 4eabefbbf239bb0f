"""The standings' skill rating: OpenSkill's Plackett-Luce update for one-player teams, float for float, made cheap.

`openskill.models.PlackettLuce().rate(teams, ranks=places)` deep-copies its teams, and every copy
draws a fresh uuid4 from the system: most of the time a match's rating took; and the
standings rate every match of a tournament one after another, at its end, while no worker plays.
`rate` does the same arithmetic in the same order on plain floats, and so gives the same numbers
(tests/test_standings.py compares them with openskill's over thousands of random matches, ties included).
"""

from __future__ import annotations

import math
from typing import NamedTuple, Sequence

# openskill's defaults, which the standings use
MU = 25.0
SIGMA = 25.0 / 3.0
BETA = 25.0 / 6.0
KAPPA = 0.0001
TAU = 25.0 / 300.0


class Rating(NamedTuple):
    """An entrant's skill: its mean and its uncertainty."""

    mu: float = MU
    sigma: float = SIGMA


def rate(ratings: Sequence[Rating], places: Sequence[int]) -> list[Rating]:
    """The ratings of a match's players after it, in their order, from their places (1 is first, ties share)."""
    n = len(ratings)
    order = sorted(range(n), key=places.__getitem__)  # openskill sorts the teams by rank (stable), then unsorts them
    ranks = [int(places[i]) for i in order]
    tau_squared = TAU * TAU
    sigmas = [math.sqrt(ratings[i].sigma * ratings[i].sigma + tau_squared) for i in order]
    mus = [float(ratings[i].mu) for i in order]
    squares = [sigma**2 for sigma in sigmas]  # a team's sigma squared: one player's
    beta_squared = BETA**2
    collective = 0.0
    for square in squares:
        collective += square + beta_squared
    c = math.sqrt(collective)
    exps = [math.exp(mu / c) for mu in mus]  # openskill computes each twice: the same number
    # each sum in openskill's order; it starts from the first term, and 0.0 + a positive term is that term
    sum_q = [0.0] * n
    for i in range(n):
        for q in range(n):
            if ranks[i] >= ranks[q]:
                sum_q[q] += exps[i]
    a = [ranks.count(rank) for rank in ranks]
    rated = [Rating()] * n
    for i in range(n):
        omega = delta = 0.0
        rank = ranks[i]
        for q in range(n):
            if ranks[q] <= rank:
                share = exps[i] / sum_q[q]
                delta += share * (1 - share) / a[q]
                if q == i:
                    omega += (1 - share) / a[q]
                else:
                    omega -= share / a[q]
        square = squares[i]
        omega *= square / c
        delta *= square / c**2
        delta *= math.sqrt(square) / c  # openskill's default gamma
        mu, sigma = mus[i], sigmas[i]
        # a weight of 1.0 multiplies or divides: either way the same number
        mu += (sigma**2 / square) * omega * 1.0
        sigma *= math.sqrt(max(1 - (sigma**2 / square) * delta * 1.0, KAPPA))
        # openskill then averages the change of mu among tied players, but it compares each player with itself
        # (its `result` and `original_teams` hold the same objects), so the average is 0.0: nothing to do here
        rated[order[i]] = Rating(mu, sigma)
    return rated
