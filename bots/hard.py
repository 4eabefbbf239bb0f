"""The `hard` bot: the medium heuristics corrected by determinized Monte Carlo search, the engine as simulator.

The search's parts (the playout policy, the value of a finished round, the choice) are in bots/search.py.
"""

from __future__ import annotations

import random
import time
from typing import Callable

import runner
from bots.medium import MediumBot
from bots.search import ROLLOUTS, candidates, choose, heuristic_policy, match_value
from runner.game.actions import CHALLENGE
from runner.game.engine import Round
from runner.simulate import Policy, Sampler, playout

__all__ = ["ROLLOUTS", "HardBot", "candidates", "choose", "heuristic_policy", "match_value"]


class HardBot(runner.Bot):
    """Search over sampled deals: every candidate is played out in the same samples, every seat playing like
    medium, and the one best on average for our place in the match is taken (medium's choice on a tie)."""

    name = "hard"
    description = "Search over sampled deals, every seat played out like medium: takes the move best on average."
    parameters = {
        "rollouts": runner.Option(int, ROLLOUTS, "playouts per searched decision (reproducible)", none=True, low=1),
        "budget": runner.Option(float, None, "seconds per searched decision (depends on the machine)", low=0),
        "confidence": runner.Option(float, 0.0, "standard errors better than medium's choice an action must be",
                                    low=0),
        "sensible": runner.Option(bool, True, "sample hidden hands believing the others play like the built-ins"),
    }

    def __init__(
        self,
        rng: random.Random | None = None,
        rollouts: int | None = ROLLOUTS,
        budget: float | None = None,
        confidence: float = 0.0,
        policy: Policy = heuristic_policy,
        sensible: bool = True,
        **options,
    ):
        """`rollouts`: playouts per decision (reproducible); `budget`: seconds per decision (machine-dependent).

        Search stops at whichever limit comes first; give `rollouts=None, budget=0.05` for a pure
        time budget. At least one sample is always searched. `confidence`: how many standard
        errors better an action must do than medium's choice to replace it (0: better on average;
        with heuristic playouts a stricter gate kept medium's weaker choices, hard_vs_medium.md). `policy`: how every
        seat plays in the playouts; `sensible`: sample the hidden hands believing that the other
        seats play like the built-in bots (`runner.simulate.Sampler`).
        """
        super().__init__(rng, **options)
        if rollouts is None and budget is None:
            raise ValueError("HardBot needs a limit: rollouts (a count) or budget (seconds)")
        self.rollouts, self.budget, self.confidence, self.policy = rollouts, budget, confidence, policy
        self.sensible = sensible
        self.prior = MediumBot(rng=self.rng)
        self.searched = 0  # playouts run so far, for benchmarks
        self.decisions = 0  # decisions that needed a search

    def act(self, view: runner.View) -> runner.Action:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        if CHALLENGE in legal:  # making an opponent draw never hurts us
            return CHALLENGE
        prior = self.prior.act(view)
        options = candidates(view)
        if prior not in options:
            options.append(prior)
        if len(options) == 1:
            return options[0]
        return options[choose(self.search(view, options), options.index(prior), self.confidence)]

    def value(self, view: runner.View, rnd) -> float:
        """The worth to us of a round played out to its end."""
        return match_value(view, rnd.points(), rnd.winner)

    def search(self, view: runner.View, options: list[runner.Action]) -> list[list[float]]:
        """Each option's value in each sampled deal; every option sees the same samples."""
        values: list[list[float]] = [[] for _ in options]
        deadline = None if self.budget is None else time.perf_counter() + self.budget
        sample = self.sampler(view)
        played = samples = 0
        while samples == 0 or (
            (self.rollouts is None or played + len(options) <= self.rollouts)
            and (deadline is None or time.perf_counter() < deadline)
        ):
            for i, value in enumerate(self.play_out(view, sample(self.rng), options)):
                values[i].append(value)
            samples += 1
            played += len(options)
        self.searched += played
        self.decisions += 1
        return values

    def sampler(self, view: runner.View) -> Callable[[random.Random], Round]:
        """How the search deals the hidden cards: consistently with the view (`runner.simulate.Sampler`)."""
        return Sampler(view, sensible=self.sensible).sample

    def play_out(self, view: runner.View, world: Round, options: list[runner.Action]) -> list[float]:
        """The value of each option in `world`, each played out to the end of the round."""
        seed = self.rng.getrandbits(64)
        values = []
        for action in options:
            # The same seed for every option: their playouts differ only by the option (less noise).
            rng = random.Random(seed)
            rnd = world.clone(rng)
            rnd.apply(action)
            playout(rnd, rng, self.policy)
            values.append(self.value(view, rnd))
        return values


@runner.hookimpl
def register_bots(register):
    register(HardBot)
