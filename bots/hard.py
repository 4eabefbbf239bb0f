"""The `hard` bot: the medium heuristics corrected by determinized Monte Carlo search, the engine as simulator."""

from __future__ import annotations

import math
import random
import time
from typing import Callable

import runner
from bots.medium import CLOSE, FOLLOW, KEEP_WILD, SHED_CALM, SHED_CLOSE, SPREAD, MediumBot
from runner.game.actions import CHALLENGE, Play
from runner.game.cards import SUITS
from runner.game.engine import CHALLENGING, DRAWN, NAME_SUIT, Round
from runner.simulate import Policy, Sampler, most_held_suit, playout

ROLLOUTS = 720  # playouts per searched decision by default: about 60 ms on an idle core (150 ms at worst)

# What one round adds to a seat's total, on average and in spread (4 players, measured roughly).
ROUND_POINTS, ROUND_SPREAD = 15.0, 18.0
LOGISTIC = 1.7  # 1 / (1 + exp(-1.7 x)) is within 1% of the normal distribution function at x


def match_value(view: runner.View, points: list[int], winner: int | None) -> float:
    """How good a finished round is for `view.seat` in its match: the expected share of opponents it finishes ahead of.

    A round that ends the match decides the places; otherwise each opponent's lead or lag
    in the new totals counts by how much luck the rounds still to come leave (so near the
    end of a match, pushing an opponent over the limit or staying under it matters most).
    """
    seat, fmt = view.seat, view.ruleset.match
    others = [s for s in view.active if s != seat]
    if fmt.format == "single":
        def ahead(o):
            if winner is not None:
                return 1.0 if winner == seat else 0.0 if winner == o else _compare(points[o], points[seat])
            return _compare(points[o], points[seat])
        return sum(ahead(o) for o in others) / len(others)
    totals = [t + p for t, p in zip(view.totals, points)]
    limit = fmt.limit
    top = max(totals[s] for s in view.active)
    if fmt.format == "limit" and top >= limit:
        return sum(_compare(totals[o], totals[seat]) for o in others) / len(others)
    if fmt.format == "elimination":
        if totals[seat] > limit:
            return sum(_compare(totals[o], totals[seat]) if totals[o] > limit else 0.0 for o in others) / len(others)
        top = max(totals[s] for s in view.active if totals[s] <= limit)
    rounds_left = max(1.0, (limit - top) / ROUND_POINTS)
    scale = ROUND_SPREAD * math.sqrt(rounds_left)
    total = 0.0
    for o in others:
        if fmt.format == "elimination" and totals[o] > limit:
            total += 1.0
        else:
            total += 1.0 / (1.0 + math.exp(-LOGISTIC * (totals[o] - totals[seat]) / scale))
    return total / len(others)


def _compare(theirs: int, mine: int) -> float:
    """1 if fewer points than theirs (ahead), 0 if more, a half on a tie."""
    return 1.0 if mine < theirs else 0.0 if mine > theirs else 0.5


def candidates(view: runner.View) -> list[runner.Action]:
    """The legal actions worth searching: a wild card only with the suits still in the hand (any one if none)."""
    wild = {rank for rank, power in view.ruleset.powers.items() if power.wild}
    kept, named = [], set()
    for action in view.legal:
        if type(action) is Play and action.card.rank in wild:
            rest = list(view.hand)
            rest.remove(action.card)
            if action.suit not in {card.suit for card in rest} and rest:
                continue
            if not rest and action.card in named:
                continue
            named.add(action.card)
        kept.append(action)
    return kept


def choose(values: list[list[float]], prior: int, confidence: float) -> int:
    """The option to take: the best on average over the samples, if it beats option `prior` by more than
    `confidence` standard errors of their paired difference; otherwise `prior`."""
    samples = len(values[0])
    means = [sum(v) / samples for v in values]
    best = max(range(len(values)), key=means.__getitem__)
    if samples < 2 or best == prior:
        return prior
    diffs = [a - b for a, b in zip(values[best], values[prior])]
    mean = sum(diffs) / samples
    spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (samples - 1))
    margin = confidence * spread / math.sqrt(samples) if spread else 0.0  # -inf confidence: the best mean
    return best if mean > margin else prior


def heuristic_policy(rnd: Round, rng: random.Random) -> runner.Action:
    """A playout policy close to the `medium` bot: pass a 7 on, play a drawn card, keep a Jack back,
    shed points when an opponent is close to going out, keep the hand's suits spread."""
    legal = rnd.legal()
    if len(legal) == 1:
        return legal[0]
    phase, seat = rnd.phase, rnd.current
    hand = rnd.hands[seat]
    if phase == NAME_SUIT:
        return legal[SUITS.index(most_held_suit(hand))]
    if phase == CHALLENGING:
        return CHALLENGE
    wild = rnd.rules.wild
    counts: dict[str, int] = {}
    for card in hand:
        counts[card.suit] = counts.get(card.suit, 0) + 1
    if phase == DRAWN or rnd.pending or len(hand) == 1:  # a single kind of play, if any: take it
        first = legal[0]
        if type(first) is not Play or first.card not in wild:
            return first
        counts[first.card.suit] -= 1
        named = max(SUITS, key=lambda suit: counts.get(suit, 0))
        return next(a for a in legal if type(a) is Play and a.suit == named)
    hands = rnd.hands
    close = any(len(hands[other]) <= CLOSE for other in rnd.active if other != seat)
    weight, points = (SHED_CLOSE if close else SHED_CALM), rnd.rules.points
    kept_back = KEEP_WILD if any(type(a) is Play and a.card not in wild for a in legal) else 0.0
    suits = len(counts)
    best, best_score, named_with = legal[-1], float("-inf"), {}
    for action in legal:
        if type(action) is not Play:
            continue
        card = action.card
        held = counts[card.suit]
        if card in wild:
            if card not in named_with:
                counts[card.suit] -= 1
                named_with[card] = max(SUITS, key=lambda suit: counts.get(suit, 0))
                counts[card.suit] += 1
            if action.suit != named_with[card]:
                continue
            score = -kept_back
        else:
            score = 0.0
        # Shed points; keep many suits in hand and some of the suit left on the pile.
        score += weight * points[card.rank] + SPREAD * (suits - (held == 1)) + FOLLOW * (held - 1)
        if score > best_score:
            best, best_score = action, score
    return best



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
