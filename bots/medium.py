"""The `medium` bot: the classic strategy tips of Mau Mau as small named heuristics that score each legal action."""

from __future__ import annotations

from collections import Counter

import runner
from runner.game.actions import CHALLENGE, Play
from runner.game.cards import SUITS, Card
from runner.simulate import most_held_suit

# Weights of the tips. Those `hard` also plays out (its playout policy, bots/hard.py's
# heuristic_policy) are imported from here, so the two cannot drift apart. A Jack is kept back
# unless shedding its points matters more (a Jack of 20 penalty points outweighs KEEP_WILD, a Jack
# of 10 does not); playing a card beats drawing or keeping.
CLOSE = 2  # an opponent with this many cards or fewer is about to go out
KEEP_WILD = 15.0  # what keeping a wild card back is worth: a Jack of 20 penalty points is shed, one of 10 kept
SHED_CLOSE, SHED_CALM = 1.0, 0.1  # per point of a card played, when an opponent is close to going out or not
SPREAD, FOLLOW = 2.0, 1.0  # per suit left in the hand, per card left of the suit played
GO_OUT = 1000.0
TIMING = 12.0
NOT_PLAYING = -10.0


# ---------------------------------------------------------------- what the seat can tell


def seat_after(view: runner.View, seat: int, steps: int = 1) -> int:
    """The active seat `steps` turns after `seat` in the current direction."""
    order = view.active
    return order[(order.index(seat) + steps * view.direction) % len(order)]


def closest_opponent(view: runner.View) -> int:
    """The fewest cards any opponent in the round holds."""
    return min(view.hand_sizes[seat] for seat in view.active if seat != view.seat)


def unseen_count(view: runner.View, rank: str) -> int:
    """Cards of `rank` still hidden (other hands or the stock): the deck's copies less those in our hand and the pile.

    The discard pile is what counts as played: cards reshuffled into the stock are back in play.
    """
    deck = view.ruleset.deck
    copies = len(SUITS) * deck.copies_for(len(view.active)) if rank in deck.ranks else 0
    seen = sum(1 for card in view.hand if card.rank == rank) + sum(1 for card in view.discard if card.rank == rank)
    return max(copies - seen, 0)


def powers(view: runner.View) -> tuple[set[str], set[str], set[str]]:
    """The ranks that are wild, that make the next player draw, and that skip, under this ruleset."""
    items = view.ruleset.powers.items()
    return ({r for r, p in items if p.wild}, {r for r, p in items if p.draw}, {r for r, p in items if p.skip})


# ---------------------------------------------------------------- the heuristics


def keep_jack_back(view: runner.View, card: Card, wild: set[str]) -> float:
    """Penalty for playing a wild card while another card could be played: a kept Jack is an escape."""
    if card.rank not in wild:
        return 0.0
    others = any(type(a) is Play and a.card.rank not in wild for a in view.legal)
    return -KEEP_WILD if others else 0.0


def answer_seven(view: runner.View) -> runner.Action | None:
    """Facing a draw penalty, pass it on with a card of our own (the one whose suit we hold least), if we can."""
    if not view.pending:
        return None
    plays = [a for a in view.legal if type(a) is Play]
    if not plays:
        return None
    suits = Counter(card.suit for card in view.hand)
    return min(plays, key=lambda a: (suits[a.card.suit], SUITS.index(a.card.suit)))


def time_eight(view: runner.View, card: Card, skip: set[str]) -> float:
    """A skip card is worth most against a next player about to go out, and costly if it speeds up one who is."""
    if card.rank not in skip:
        return 0.0
    skipped = seat_after(view, view.seat)
    gets_turn = seat_after(view, view.seat, 2)
    if view.hand_sizes[skipped] <= CLOSE:
        return TIMING
    if gets_turn != view.seat and view.hand_sizes[gets_turn] <= CLOSE:
        return -TIMING
    return 0.0


def time_seven(view: runner.View, card: Card, draw: set[str]) -> float:
    """A draw card against a next player about to go out; surer the fewer cards of its rank are still hidden."""
    if card.rank not in draw:
        return 0.0
    victim = seat_after(view, view.seat)
    if view.hand_sizes[victim] > CLOSE:
        return 0.0
    answerable = unseen_count(view, card.rank)
    return TIMING if answerable == 0 else TIMING / 2


def name_suit_held_most(view: runner.View, card: Card | None = None) -> str:
    """The suit to name: the one we hold most of once `card` (the wild card being played) has left the hand."""
    hand = list(view.hand)
    if card is not None and card in hand:
        hand.remove(card)
    return most_held_suit(hand)


def shed_high_value(view: runner.View, card: Card) -> float:
    """Prefer playing cards worth many points (read from the ruleset), strongly when an opponent is about to go out."""
    weight = SHED_CLOSE if closest_opponent(view) <= CLOSE else SHED_CALM
    return weight * view.ruleset.points.get(card.rank, 0)


def keep_suits_spread(view: runner.View, card: Card) -> float:
    """Prefer plays that leave the hand in many suits, and some cards of the suit we leave on the pile."""
    rest = list(view.hand)
    rest.remove(card)
    return SPREAD * len({c.suit for c in rest}) + FOLLOW * sum(1 for c in rest if c.suit == card.suit)


# ---------------------------------------------------------------- the bot


def score(view: runner.View, action: runner.Action) -> float:
    """How much the heuristics like `action`; not playing a card scores NOT_PLAYING."""
    if type(action) is not Play:
        return NOT_PLAYING
    card = action.card
    wild, draw, skip = powers(view)
    if card.rank in wild and action.suit != name_suit_held_most(view, card):
        return float("-inf")  # the other suits of the same Jack
    if len(view.hand) == 1:
        return GO_OUT
    return (
        keep_jack_back(view, card, wild) + time_eight(view, card, skip) + time_seven(view, card, draw)
        + shed_high_value(view, card) + keep_suits_spread(view, card)
    )


class MediumBot(runner.Bot):
    name = "medium"
    description = "Heuristics from the strategy tips: keeps a Jack back, passes 7s on, times 8s, sheds points."

    def act(self, view: runner.View) -> runner.Action:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        if view.phase == "name_suit":
            return runner.NameSuit(name_suit_held_most(view))
        if CHALLENGE in legal:
            return CHALLENGE
        answer = answer_seven(view)
        if answer is not None:
            return answer
        scored = [(score(view, action), self.rng.random(), i) for i, action in enumerate(legal)]
        return legal[max(scored)[2]]


@runner.hookimpl
def register_bots(register):
    register(MediumBot)
