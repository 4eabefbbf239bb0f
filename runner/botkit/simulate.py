"""The engine as a simulator for search bots: sample a full Round consistent with a View, and play it out.

A supported API for third-party bots (see docs/bots.md), as `runner.simulate`:

    rnd = determinize(view, rng)        # hidden hands and stock sampled, everything public kept
                                        # (or: sampler = Sampler(view); rnd = sampler.sample(rng))
    rnd.apply(action)                   # try one of view.legal
    playout(rnd, rng)                   # every seat plays `quick_policy` to the end of the round
    rnd.points()                        # each seat's points for the round
    rollout(rnd, rng, first=action)     # the same on a copy, leaving `rnd` as it is: (points, winner, turns)
    sampler.rollouts(rng, options)      # one sample, each option played out in it from one seed
    sampler.values(rng, options, value) # the same, each ending valued: (value(points, winner), turns)

The engine rebuilds the state (`Round.from_view`: the view's counters, pile and history kept);
what this module adds is belief: which hidden cards a seat can hold, given what it did.

`rollout` and `Sampler.rollouts` run in the compiled playout kernel (runner/botkit/_playout.pyx)
where it is built and covers the round (the classic rules, any scoring, a `random.Random`, and
a policy with a twin there: its `kernel` attribute, a kernel Policy, as `quick_policy` and
`random_policy` here and the `hard` bot's `heuristic_policy` declare), with the same results
and generator state as the Python code here, which runs everywhere else.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Collection
from typing import Callable, NamedTuple

from runner.game.actions import CHALLENGE, PASS, Action, Play
from runner.game.cards import SUITS, Card
from runner.game.engine import (
    CHALLENGING,
    DRAWN,
    GIVING,
    NAME_SUIT,
    SWAPPING,
    Game,
    Round,
    hidden_cards,
    unseen_cards,
)
from runner.game.house_rules import known_hands
from runner.game.ruleset import Ruleset
from runner.game.view import View

try:
    from runner.botkit import _playout as kernel
except ImportError:  # not built, MAUMAU_PURE=1, or stale (runner/accel.py): the Python code below runs
    kernel = None

Policy = Callable[[Round, random.Random], Action]
Value = Callable[[list[int], "int | None"], float]  # what an ending is worth: value(points, winner)
# Whether a sensible seat might play a wild card though it held another playable card: wild_over(seat, hand sizes then,
# wild card, other card) (known_voids).
WildOver = Callable[[int, list[int], Card, Card], bool]

TRIES = 20  # deals tried for one sample before the named suits' belief is given up


def determinize(view: View, rng: random.Random) -> Round:
    """A full Round consistent with `view`: its own hand and everything public kept, hidden cards dealt at random.

    A shortcut for `Sampler(view).sample(rng)`; build a Sampler once when sampling a view many times.
    """
    return Sampler(view).sample(rng)


class Sampler:
    """Samples full Rounds consistent with one View (build once per decision, `sample` once per determinization).

    Every other seat gets a hand of its known size from the unseen cards, and the rest,
    shuffled, is the stock. With `infer` (the default), a seat that drew because it could not
    play is dealt no card it could have played then, for as many cards as it has kept since.
    With `sensible` as well, the other seats are taken to play like the built-in bots (a belief,
    not a fact: a random player breaks it): a seat that took a draw penalty it could have passed
    on holds no card that passes it; one that played a wild card had no other card to play; the
    suit it named with its last play, a wild card, is the suit it holds most of (deals that break
    this are redealt, up to TRIES times). Cards a seat showed (`view.shown`, a `show_next` power) and
    has kept stay with it. Everything else comes from the view (`Round.from_view`: wishes, waits,
    pending skips, a play being carried out); reshuffles in the sampled round are driven by the rng.
    `sensible` may also be the seats so believed (a collection of seat numbers): the others' hands
    are inferred from the facts alone. `wild_over` refines the belief about wild cards (see known_voids).
    """

    def __init__(self, view: View, infer: bool = True, sensible: bool | Collection[int] = False,
                 wild_over: WildOver | None = None):
        self.view = view
        self.hidden = hidden_cards(view)
        self.known = _known(view, self.hidden) if view.shown else {}
        if self.known:  # cards a seat showed (and has kept) stay with it; the rest is dealt
            left = Counter(self.hidden)
            left.subtract(card for cards in self.known.values() for card in cards)
            self.hidden = sorted(left.elements())
        self.rules = rules = Game.of(view.ruleset, len(view.active))
        self.voids = known_voids(view, rules, sensible, wild_over) if infer else {}
        self.named = {seat: suit for seat, suit in named_suits(view, rules).items() if believed(sensible, seat)
                      } if infer else {}

    def sample(self, rng: random.Random) -> Round:
        """One Round consistent with the view, drawn with `rng` (which also drives its reshuffles)."""
        for _ in range(TRIES):
            hands, stock = self._deal(rng)
            if all(_most_held(hands[seat], suit) for seat, suit in self.named.items()):
                break
        return Round.from_view(self.view, rng, hands, stock)

    def rollouts(self, rng: random.Random, options: list[Action], policy: Policy | None = None) -> list[Rollout]:
        """One sample, then a seed drawn from `rng`, and each of `options` played out in the sample from that seed
        (the same luck for every option) with `policy` (default `quick_policy`): a Rollout per option, the same
        with or without the kernel."""
        policy = quick_policy if policy is None else policy
        search = self._kernel_search(rng, options, policy, None)
        if search is None:
            world = self.sample(rng)
            seed = rng.getrandbits(64)
            return [rollout(world, random.Random(seed), policy, first=option) for option in options]
        search.bind(rng)
        try:
            return [Rollout(*found) for found in search.sample()]
        finally:
            search.release()

    def values(self, rng: random.Random, options: list[Action], value: Value,
               policy: Policy | None = None) -> list[tuple[float, int]]:
        """`rollouts`, each ending valued: (value(points, winner), turns) per option. A value that declares a twin in
        the kernel (its `kernel` attribute, a kernel Value, as the `hard` bot's place value does) is computed there as
        well."""
        policy = quick_policy if policy is None else policy
        twin = value if kernel is not None and kernel.has_value_twin(value) else None
        search = self._kernel_search(rng, options, policy, twin) if twin is not None else None
        if search is None:  # the kernel may still play them out
            return [(value(points, winner), turns) for points, winner, turns in self.rollouts(rng, options, policy)]
        search.bind(rng)
        try:
            return search.sample()
        finally:
            search.release()

    def _kernel_search(self, rng: random.Random, options: list[Action], policy: Policy, value: Value | None):
        """The kernel's Search of these options (built once per options, policy and value), or None where it does
        not cover them."""
        key = (tuple(options), policy, value)
        cached = getattr(self, "_search", None)
        if cached is not None and cached[0] == key:
            return cached[1]
        search = None
        if (kernel is not None and type(rng) is random.Random and not self.known and kernel.has_twin(policy)
                and kernel.table_of(self.rules) is not None):
            view, at, hands = self.view, 0, []
            for seat, size in enumerate(view.hand_sizes):  # the hidden cards anyhow: the kernel deals them anew
                hands.append(self.hidden[at:at + size] if seat != view.seat else [])
                at += size if seat != view.seat else 0
            world = Round.from_view(view, rng, hands, self.hidden[at:])
            try:
                search = kernel.Search(world, self.hidden, self.voids, self.named, list(options), policy, TRIES, value)
            except ValueError:  # beyond what the kernel holds: the Python code plays it
                search = None
        self._search = (key, search)
        return search

    def _deal(self, rng: random.Random) -> tuple[list[list[Card]], list[Card]]:
        """Hidden hands and the stock, dealt at random within the known voids."""
        view = self.view
        pool = list(self.hidden)
        rng.shuffle(pool)
        hands: list[list[Card]] = [list(self.known.get(seat, ())) for seat in range(len(view.hand_sizes))]
        for seat, layers in self.voids.items():
            for count, excluded in layers:
                # The pool is shuffled, so its first eligible cards are a uniform draw of them.
                taken, rest = 0, []
                for card in pool:
                    if taken < count and card not in excluded:
                        hands[seat].append(card)
                        taken += 1
                    else:
                        rest.append(card)
                pool = rest
        at = 0
        for seat, size in enumerate(view.hand_sizes):
            if seat == view.seat:
                hands[seat] = list(view.hand)  # in order: in phase `drawn` the drawn card is last
            else:
                missing = size - len(hands[seat])
                hands[seat].extend(pool[at:at + missing])
                at += missing
        return hands, pool[at:]


def _known(view: View, hidden: list[Card]) -> dict[int, list[Card]]:
    """The cards each other seat is known to hold (runner/game/house_rules.py: known_hands), at most its hand size."""
    left = Counter(hidden)
    known = {}
    for seat, cards in known_hands(view).items():
        kept = []
        for card in cards[:view.hand_sizes[seat]]:
            if left[card] > 0:
                left[card] -= 1
                kept.append(card)
        known[seat] = kept
    return known


def since_hands_moved(view: View) -> int:
    """The index in the history after its last event that moved cards between hands (a swap, hands passed on, a
    card given): what a seat did before it tells nothing of the hand it holds now."""
    for index in range(len(view.history) - 1, -1, -1):
        if view.history[index].kind in MOVES_HANDS:
            return index + 1
    return 0


MOVES_HANDS = frozenset(("swap", "pass_hands", "give"))


def _most_held(hand: list[Card], suit: str) -> bool:
    """Whether no suit is held more often than `suit` in `hand`."""
    counts = Counter(card.suit for card in hand)
    return counts[suit] >= max(counts.values(), default=0)


def compiled(view: View, rules: Game | Ruleset | None = None) -> Game:
    """The compiled rules the helpers below work with: `rules`, or compiled from a Ruleset (default: `view.ruleset`)."""
    if isinstance(rules, Game):
        return rules
    return Game.of(view.ruleset if rules is None else rules)


def named_suits(view: View, rules: Game | Ruleset | None = None) -> dict[int, str]:
    """The suit each other seat named with its last play, a wild card, if it has neither played nor drawn since.

    `rules`: the view's ruleset (the default), or those rules compiled (`Game.of(view.ruleset)`).
    """
    rules = compiled(view, rules)
    named, done = {}, {view.seat}
    for event in reversed(view.history[since_hands_moved(view):]):
        if event.seat in done or event.kind not in ("play", "draw"):
            continue
        done.add(event.seat)
        last = event.more[-1] if event.more else event.card
        if event.kind == "play" and last in rules.wild and event.suit and view.hand_sizes[event.seat]:
            named[event.seat] = event.suit
    return named


def known_voids(view: View, rules: Game | Ruleset | None = None, sensible: bool | Collection[int] = False,
                wild_over: WildOver | None = None) -> dict[int, list[tuple[int, frozenset[Card]]]]:
    """What each other seat is known not to hold, from its draws for want of a playable card.

    `rules`: the view's ruleset (the default, also as `view.ruleset`), or those rules compiled
    (`runner.Game.of(view.ruleset)`, which a Sampler holds as `.rules`).

    A seat that drew because it could not play held none of the cards it could have played
    then, nor could it play the card it drew unless it played or kept it at once; a card still
    in its hand now was held at every such draw since it came in. So for each such draw there
    are at least (hand size now - cards gained since, + the drawn card unless kept) cards that
    avoid the playable cards of that draw and of every later one. With `sensible` (see Sampler),
    a penalty taken though it could be passed on, and a wild card played, count the same way:
    the seat held none of the cards that would have passed it on, or that it could have played
    (`sensible` may be the seats so believed, see Sampler). `wild_over(seat, sizes, wild, card)`, if given, says
    whether a sensible `seat` might play the wild card `wild` although it held the playable `card`, the hand sizes
    then being `sizes` (a bot's own model of the others' play, as bots/hard.py's of medium's): such cards are not
    excluded by that play.
    Returns, per seat, layers of (count, cards excluded), most excluded first, the counts not overlapping.

    Only under the classic rules (the engine's fast path): under house rules a seat may draw for
    other reasons (a wish, a limit on the next rank, drawing by choice and going on, a skip taken)
    and cards move between hands, so nothing is inferred there.
    """
    rules = compiled(view, rules)
    if rules.general:
        return {}
    history = view.history
    plays = sum(1 for event in history if event.kind == "play")
    reshuffled = any(event.kind == "reshuffle" for event in history)
    # Without a reshuffle the pile is the upcards and then every play, so the upcard is known.
    top = None if reshuffled or plays >= len(view.discard) else view.discard[len(view.discard) - plays - 1]
    suit = top.suit if top is not None else None
    deck = set(unseen_cards(view))
    draws: dict[int, list[tuple[int, frozenset[Card]]]] = {}  # per seat: (history index, cards it could play)
    pending = chain = 0
    for index, event in enumerate(history):
        if event.kind == "play":
            jack = event.card in rules.wild and event.seat != view.seat
            if jack and top is not None and not pending and believed(sensible, event.seat):
                # A Jack kept back as an escape: played only when no other card could be (or none it would
                # rather play, by `wild_over`).
                could_play = frozenset(
                    card for card in deck if card not in rules.wild and rules.playable(card, top, suit)
                )
                if wild_over is not None:
                    sizes = sizes_at(view, index)
                    could_play = frozenset(c for c in could_play if not wild_over(event.seat, sizes, event.card, c))
                draws.setdefault(event.seat, []).append((index, could_play))
            top, suit = event.card, event.suit or event.card.suit
            if top in rules.draw:
                chain = chain + 1 if pending else 0
                pending += rules.draw[top]
        elif event.kind == "name_suit":
            suit = event.suit
        elif event.kind == "draw" and event.reason == "seven":
            rank = top.rank if top is not None else None
            passable = top in rules.stack and (rules.chain_limit[top] is None or chain < rules.chain_limit[top])
            if event.seat != view.seat and passable and believed(sensible, event.seat):
                # It took the penalty although a card of the same rank would have passed it on.
                draws.setdefault(event.seat, []).append((index, frozenset(c for c in deck if c.rank == rank)))
            pending = chain = 0
        elif event.kind == "draw" and event.reason == "stuck" and event.seat != view.seat and top is not None:
            could_play = frozenset(card for card in deck if rules.playable(card, top, suit))
            draws.setdefault(event.seat, []).append((index, could_play))
    voids = {}
    for seat, known in sorted(draws.items()):
        layers, excluded, counted = [], frozenset(), 0
        for index, cards in reversed(known):  # latest first: the most cards, the fewest exclusions
            excluded = excluded | cards
            held = view.hand_sizes[seat] - sum(
                event.count for event in history[index:] if event.kind == "draw" and event.seat == seat
            )
            if history[index].reason == "stuck" and rules.play_drawn and history[index].count and not _kept(
                    history, index, seat):
                # The drawn card was unplayable too (else the seat plays or keeps it next), or was
                # played at once: either way it is not one of the known cards played since.
                held += 1
            if held <= 0:
                break
            layers.append((held, excluded))
        # Turn "at least `held` cards avoid `excluded`" (nested) into disjoint counts, most excluded first.
        for count, cards in reversed(layers):
            if count > counted:
                voids.setdefault(seat, []).append((count - counted, cards))
                counted = count
    return voids


def sizes_at(view: View, index: int) -> list[int]:
    """Each seat's hand size just before `view.history[index]`, under the classic rules (cards move only by plays and
    draws): the sizes now, less the cards drawn since, plus those played since."""
    sizes = list(view.hand_sizes)
    for event in view.history[index:]:
        if event.kind == "play":
            sizes[event.seat] += 1 + len(event.more or ())
        elif event.kind == "draw":
            sizes[event.seat] -= event.count
    return sizes


def believed(sensible: bool | Collection[int], seat: int) -> bool:
    """Whether `seat` is believed to play sensibly: `sensible` is True or False for every seat, or the seats that do."""
    return sensible if type(sensible) is bool else seat in sensible


def _kept(history, index: int, seat: int) -> bool:
    """Whether `seat`, having drawn at `index`, kept the (playable) drawn card instead of playing it."""
    following = history[index + 1] if index + 1 < len(history) else None
    return following is not None and following.seat == seat and following.kind == "pass"


def quick_policy(rnd: Round, rng: random.Random) -> Action:
    """A fast playout policy: play rather than draw, keep wild cards back, name the suit held most."""
    legal = rnd.legal()
    if len(legal) == 1:
        return legal[0]
    if rnd.phase == NAME_SUIT:
        return legal[SUITS.index(most_held_suit(rnd.hands[rnd.current]))]
    if rnd.phase == CHALLENGING:
        return CHALLENGE
    wild = rnd.rules.wild
    plays = [a for a in legal if type(a) is Play and a.card not in wild]
    if plays:
        return plays[int(rng.random() * len(plays))]
    wilds = [a for a in legal if type(a) is Play]
    if wilds and rnd.phase != DRAWN:  # a drawn wild card is kept for later
        hand = [card for card in rnd.hands[rnd.current] if card is not wilds[0].card]
        suit = most_held_suit(hand)
        # a wild card that wishes a rank or names nothing: its first play
        return next((a for a in wilds if a.suit == suit), wilds[0])
    if rnd.phase in (SWAPPING, GIVING):  # every action is a choice of seat or card: any one
        return legal[int(rng.random() * len(legal))]
    return PASS if PASS in legal else legal[int(rng.random() * len(legal))]


def most_held_suit(cards) -> str:
    """The suit with the most cards among `cards` (the first in SUITS order on a tie)."""
    counts = Counter(card.suit for card in cards)
    return max(SUITS, key=lambda suit: counts[suit])


quick_policy.kernel = None if kernel is None else kernel.QUICK  # type: ignore[attr-defined]  # its twin there


def random_policy(rnd: Round, rng: random.Random) -> Action:
    """Uniform over the legal actions (as the `random` and `easy` bots play)."""
    legal = rnd.legal()
    return legal[int(rng.random() * len(legal))]


random_policy.kernel = None if kernel is None else kernel.UNIFORM  # type: ignore[attr-defined]


class SeatPolicies:
    """A playout policy per seat: `policies[seat]` plays that seat (the list repeated over more seats); the kernel
    plays it where each has a twin there."""

    def __init__(self, policies):
        self.policies = tuple(policies)
        twins = tuple(getattr(policy, "kernel", None) for policy in self.policies)
        self.kernel = ("seats", twins) if all(twin is not None for twin in twins) else None

    def __call__(self, rnd: Round, rng: random.Random) -> Action:
        return self.policies[rnd.current % len(self.policies)](rnd, rng)

    def __eq__(self, other: object) -> bool:
        return type(other) is SeatPolicies and other.policies == self.policies

    def __hash__(self) -> int:
        return hash(self.policies)


def playout(rnd: Round, rng: random.Random, policy: Policy = quick_policy) -> Round:
    """Play `rnd` to the end of the round with `policy` at every seat; returns `rnd`."""
    apply = rnd.apply
    while not rnd.over:
        apply(policy(rnd, rng))
    return rnd


class Rollout(NamedTuple):
    """How a playout ended: each seat's points for the round, the winner (None: nobody), and the round's turns."""

    points: list[int]
    winner: int | None
    turns: int


def rollout(rnd: Round, rng: random.Random, policy: Policy = quick_policy, first: Action | None = None) -> Rollout:
    """A copy of `rnd` (left as it is) played to the end, `first` (one of `rnd.legal()`) if given, then `policy` at
    every seat, `rng` driving the choices and the reshuffles: `playout(rnd.clone(rng), rng, policy)`, in the
    compiled kernel where it covers the round (the same result, and `rng` left in the same state)."""
    if (kernel is not None and type(rng) is random.Random and kernel.has_twin(policy)
            and kernel.table_of(rnd.rules) is not None):
        try:
            points, winner, turns = kernel.rollout(rnd, rng, policy, first)
            return Rollout(points, winner, turns)
        except ValueError:  # more seats or cards than the kernel holds (refused before `rng` is drawn from)
            pass
    copy = rnd.clone(rng)
    if first is not None:
        copy.apply(first)
    playout(copy, rng, policy)
    return Rollout(copy.points(), copy.winner, copy.turns)


__all__ = [
    "Policy", "Rollout", "Sampler", "SeatPolicies", "Value", "WildOver", "compiled", "determinize", "known_voids",
    "most_held_suit", "named_suits", "playout", "quick_policy", "random_policy", "rollout", "since_hands_moved",
    "sizes_at", "unseen_cards",
]
