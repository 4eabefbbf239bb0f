"""The `hard` bot: the medium heuristics corrected by determinized Monte Carlo search, the engine as simulator."""

from __future__ import annotations

import math
import random
import time
from typing import Callable

import runner
from runner.game.actions import CHALLENGE, Give, Play, Swap
from runner.game.cards import SUITS, Card
from runner.game.engine import CHALLENGING, DRAWN, GIVING, JUMP_IN, NAME_SUIT, SWAPPING, Round
from runner.game.tables import Game
from runner.simulate import Policy, Sampler, WildOver, most_held_suit, playout

from .medium import (
    CLOSE,
    FOLLOW,
    KEEP_OUT,
    KEEP_WILD,
    MORE_CARDS,
    SHED_CALM,
    SHED_CLOSE,
    SPREAD,
    TIMING,
    MediumBot,
    rest_of_hand,
    stranded,
)
from .medium import score as medium_score

try:  # this module's strategy in C, for the framework's playout kernel (bots/_hard.pyx)
    from . import _hard as twins
except ImportError:  # not built, MAUMAU_PURE=1, or stale (runner/accel.py): the Python policy and value alone
    twins = None

# Playouts per searched decision by default: under the classic rules they run in the compiled playout kernel
# (runner/botkit/_playout.pyx, playing this bot's policy of bots/_hard.pyx), about 3.5 ms on a shared core against
# 150 ms in Python (bench/hard_cpu.py). Kept at 720: four times as many were not measurably stronger
# (bench/ladder.md), and an install without the kernel plays the same choices within its default move time.
ROLLOUTS = 720
MAX_CANDIDATES = 8  # under house rules (plays of several cards, wishes) the actions searched at most
# Under house rules (the engine's general path, in Python: the kernel plays the classic rules only) a move costs
# about four times a classic one in Python, and rounds run from as long as standard's (28 moves) to nearly twice
# that: so there a decision's playouts are counted in moves, 1.75 a playout allowed (5,040 at the default, what 720
# Python playouts of standard take), to take no longer than before the kernel.
HOUSE_MOVES = 1.75

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
    if fmt.format in ("target", "rounds", "wins"):
        return _house_match_value(view, totals, winner, others)
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


def place_value(view: runner.View) -> Callable[[list[int], int | None], float]:
    """`match_value` of `view` as a function of an ending (points, winner), remembering each ending's value; with its
    twin for the playout kernel (bots/_hard.pyx: `place`) for the classic match formats."""
    known: dict[tuple, float] = {}

    def value(points: list[int], winner: int | None) -> float:
        key = (tuple(points), winner)  # many playouts end alike: match_value once for each ending
        found = known.get(key)
        if found is None:
            found = known[key] = match_value(view, points, winner)
        return found

    fmt = view.ruleset.match
    value.kernel = None if twins is None else twins.place(  # type: ignore[attr-defined]
        fmt.format, view.seat, tuple(view.active), tuple(view.totals), fmt.limit, ROUND_POINTS, ROUND_SPREAD, LOGISTIC)
    return value


def _house_match_value(view: runner.View, totals: list[int], winner: int | None, others: list[int]) -> float:
    """match_value for the match formats of the house rules: `target` (the highest total wins), `rounds` (fewest
    points after N rounds), `wins` (the first to N round wins; then fewest points)."""
    seat, fmt = view.seat, view.ruleset.match
    if fmt.format == "wins":
        won = list(view.rounds_won)
        if winner is not None:
            won[winner] += 1
        # more round wins is ahead; among equal wins, fewer points
        return sum(1.0 if won[seat] > won[o] else 0.0 if won[seat] < won[o] else _compare(totals[o], totals[seat])
                   for o in others) / len(others)
    sign = -1 if fmt.format == "target" else 1  # under target the highest total is ahead
    if fmt.format == "target":
        rounds_left = max(0.0, (fmt.limit - max(totals[s] for s in view.active)) / ROUND_POINTS)
    else:
        rounds_left = float(max(0, (fmt.rounds or 1) - view.round))
    if rounds_left <= 0:
        return sum(_compare(sign * totals[o], sign * totals[seat]) for o in others) / len(others)
    scale = ROUND_SPREAD * math.sqrt(rounds_left)
    return sum(1.0 / (1.0 + math.exp(-LOGISTIC * sign * (totals[o] - totals[seat]) / scale))
               for o in others) / len(others)


def _compare(theirs: int, mine: int) -> float:
    """1 if fewer points than theirs (ahead), 0 if more, a half on a tie."""
    return 1.0 if mine < theirs else 0.0 if mine > theirs else 0.5


def medium_wild_over(view: runner.View) -> WildOver:
    """Whether medium might have played a wild card though it held another playable card (`Sampler`'s `wild_over`):
    when an opponent is close it sheds a Jack's points over a card worth fewer, by more than KEEP_WILD (under
    strafpunten a Jack of 20 over the low cards), and the spread of suits it keeps, or an 8 that would speed up a close
    player, may tip it; otherwise a Jack is kept back. Bounds of medium's score (bots/medium.py), not its exact play."""
    rules = Game.of(view.ruleset, len(view.active))
    points, skip, active = rules.points, rules.skip, view.active

    def over(seat: int, sizes: list[int], wild: Card, card: Card) -> bool:
        close = any(sizes[other] <= CLOSE for other in active if other != seat)
        weight = SHED_CLOSE if close else SHED_CALM
        spread = SPREAD + FOLLOW * max(0, sizes[seat] - 2) + (TIMING if close and card in skip else 0.0)
        return weight * (points.get(wild.rank, 0) - points.get(card.rank, 0)) + spread > KEEP_WILD

    return over


def candidates(view: runner.View) -> list[runner.Action]:
    """The legal actions worth searching: a wild card only with the suits still in the hand (any one if none),
    a rank wish only for a rank still held (any one if none); under house rules at most MAX_CANDIDATES,
    those medium likes best."""
    wild = Game.of(view.ruleset, len(view.active)).wild
    kept, named, wished = [], set(), set()
    for action in view.legal:
        if type(action) is Play and action.last in wild and (action.suit is not None or action.rank is not None):
            rest = rest_of_hand(view, action.cards)
            play = (action.card, action.more)
            if action.suit is not None and action.suit not in {card.suit for card in rest} and rest:
                continue
            if action.rank is not None and action.rank not in {card.rank for card in rest} and play in wished:
                continue
            if not rest and play in named:
                continue
            named.add(play)
            wished.add(play)
        kept.append(action)
    if len(kept) > MAX_CANDIDATES and Game.of(view.ruleset, len(view.active)).general:
        liked = sorted(range(len(kept)), key=lambda i: -medium_score(view, kept[i]))[:MAX_CANDIDATES]
        kept = [kept[i] for i in sorted(liked)]
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
    if rnd.general:
        return house_policy(rnd, rng)
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


# Its twin for the playout kernel (bots/_hard.pyx: `Heuristic`), with these weights; the two must agree move for move
# (tests/test_playout_kernel.py plays both).
heuristic_policy.kernel = (  # type: ignore[attr-defined]
    None if twins is None else twins.Heuristic(CLOSE, KEEP_WILD, SHED_CLOSE, SHED_CALM, SPREAD, FOLLOW))


def house_policy(rnd: Round, rng: random.Random) -> runner.Action:
    """heuristic_policy under house rules (the engine's general path): the same tips, for every kind of action.

    Plays of several cards count each card shed (and MORE_CARDS for each further one); a wild card
    names the suit (or wishes the rank) held most after the play; a swap takes the smallest hand,
    a give hands on the card worth most that is not an action card; a chance to jump in is taken.
    """
    legal = rnd.legal()
    phase, seat = rnd.phase, rnd.current
    hand = rnd.hands[seat]
    if phase == CHALLENGING:
        return CHALLENGE
    if phase == SWAPPING:
        hands = rnd.hands
        return min(legal, key=lambda a: len(hands[a.seat]) if type(a) is Swap else 1 << 30)
    rules = rnd.rules
    points = rules.points
    if phase == GIVING:
        action = rules.action
        return max(legal, key=lambda a: (a.card not in action, points[a.card.rank]) if type(a) is Give else (False, -1))
    counts: dict[str, int] = {}
    for card in hand:
        counts[card.suit] = counts.get(card.suit, 0) + 1
    if phase == NAME_SUIT:
        return max(legal, key=lambda a: counts.get(getattr(a, "suit", None), -1))
    wild = rules.wild
    hands = rnd.hands
    close = any(len(hands[other]) <= CLOSE for other in rnd.active if other != seat)
    weight = SHED_CLOSE if close else SHED_CALM
    kept_back = KEEP_WILD if any(type(a) is Play and a.card not in wild for a in legal) else 0.0
    # keep a card to go out on, as medium does; but pass a draw penalty on rather than take it
    keep_out = rules.going_out_rules and not rnd.pending and not stranded(rules, hand)
    best, best_score, best_strands = legal[-1], float("-inf"), False
    for action in legal:
        if type(action) is not Play:
            continue
        cards = action.cards
        if len(cards) == len(hand):
            return action  # going out
        strands = keep_out and stranded(rules, _rest(hand, cards))
        left = dict(counts)
        for card in cards:
            left[card.suit] -= 1
        last = cards[-1]
        if action.suit is not None and left.get(action.suit, 0) < max(left.values()):
            continue  # a suit we do not hold most of
        if action.rank is not None and action.rank != _most_held_rank(hand, cards, legal, action):
            continue
        score = -kept_back if action.card in wild else 0.0
        score += MORE_CARDS * (len(cards) - 1) + sum(weight * points[card.rank] for card in cards)
        score += SPREAD * sum(1 for n in left.values() if n) + FOLLOW * left.get(last.suit, 0)
        if strands:
            score -= KEEP_OUT
        if score > best_score:
            best, best_score, best_strands = action, score, strands
    if best_strands and type(legal[-1]) is not Play:
        return legal[-1]  # drawing, keeping the drawn card or passing keeps the way out
    if phase == JUMP_IN or best_score > float("-inf"):
        return best
    return legal[-1]


def _rest(hand, cards) -> list[Card]:
    """`hand` once `cards` have left it."""
    rest = list(hand)
    for card in cards:
        rest.remove(card)
    return rest


def _most_held_rank(hand, cards, legal, action: Play) -> str | None:
    """Of the ranks `action`'s cards may wish, the one held most after the play (the first offered on a tie)."""
    held: dict[str, int] = {}
    for card in hand:
        held[card.rank] = held.get(card.rank, 0) + 1
    for card in cards:
        held[card.rank] -= 1
    ranks = [a.rank for a in legal if type(a) is Play and a.card is action.card and a.more == action.more]
    return max(ranks, key=lambda rank: held.get(rank, 0), default=None)


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
        """`rollouts`: playouts per decision (reproducible; under house rules, as many as take `rollouts` x 1.75
        moves); `budget`: seconds per decision (machine-dependent).

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
        self.moves = 0  # moves played out in the current decision's search
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
        step = self.stepper(view, options)
        limit, moves = self.rollouts, None
        if limit is not None and Game.of(view.ruleset, len(view.active)).general:
            limit, moves = None, limit * HOUSE_MOVES
        played = samples = 0
        self.moves = 0
        while samples == 0 or (
            (limit is None or played + len(options) <= limit)
            and (moves is None or self.moves < moves)
            and (deadline is None or time.perf_counter() < deadline)
        ):
            for i, value in enumerate(step()):
                values[i].append(value)
            samples += 1
            played += len(options)
        self.searched += played
        self.decisions += 1
        return values

    def stepper(self, view: runner.View, options: list[runner.Action]) -> Callable[[], list[float]]:
        """One sample's value of each option: `Sampler.rollouts` (in the compiled playout kernel where it covers the
        rules), unless a subclass changes how samples are dealt, played out or valued (then its own methods)."""
        cls = type(self)
        if not (cls.sampler is HardBot.sampler and cls.play_out is HardBot.play_out and cls.value is HardBot.value):
            sample = self.sampler(view)
            return lambda: self.play_out(view, sample(self.rng), options)
        sampler, value = self.beliefs(view), place_value(view)

        def step() -> list[float]:
            values = []
            for worth, turns in sampler.values(self.rng, options, value, self.policy):
                self.moves += turns - view.turns
                values.append(worth)
            return values

        return step

    def sampler(self, view: runner.View) -> Callable[[random.Random], Round]:
        """How the search deals the hidden cards: consistently with the view (`runner.simulate.Sampler`)."""
        return self.beliefs(view).sample

    def beliefs(self, view: runner.View) -> Sampler:
        """The deals consistent with the view and, with `sensible`, with the others playing like medium."""
        return Sampler(view, sensible=self.sensible, wild_over=medium_wild_over(view) if self.sensible else None)

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
            self.moves += rnd.turns - world.turns
            values.append(self.value(view, rnd))
        return values


@runner.hookimpl
def register_bots(register):
    register(HardBot)
