"""The `medium` bot: the classic strategy tips of Mau Mau as small named heuristics that score each legal action.

Under house rules (docs/house-rules.md) the same tips score plays of several cards (every card
shed counts, and each further card is a card less to get rid of), name a suit or wish a rank the
hand holds most of, swap hands with the player closest to going out and give away the card worth
most that is not an action card.
"""

from __future__ import annotations

from collections import Counter

import runner
from runner.game.actions import CHALLENGE, Give, Play, Swap
from runner.game.cards import SUITS, Card
from runner.game.tables import Game
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
MORE_CARDS = 4.0  # per further card of a play of several: more than a suit kept in hand is worth
# A play that leaves the hand no card it may go out on (going_out: only, forbidden, follow_suit's "no wild", cards
# playable only as the last): below drawing or keeping a drawn card, which keep that card.
KEEP_OUT = 100.0  # more than shedding any card's points when an opponent is close (a Crazy Eight: 50)


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


def powers(view: runner.View) -> tuple[frozenset[Card], dict[Card, int], dict[Card, int]]:
    """The cards that are wild, that make the next player draw, and that skip, under this ruleset at this table."""
    rules = Game.of(view.ruleset, len(view.active))
    return rules.wild, rules.draw, rules.skip


def suit_order(suit: str) -> int:
    """A suit's place in SUITS; a joker's colour after every suit."""
    return SUITS.index(suit) if suit in SUITS else len(SUITS)


def may_end(rules: Game, card: Card) -> bool:
    """Whether `card` may be the last card of a hand under the going-out rules of `rules` (the compiled ruleset at
    the table); under follow_suit whether it can be at all (a wild card never is; the suit is the pile's then)."""
    return (card not in rules.out_forbidden and (rules.out_only is None or card in rules.out_only)
            and not (rules.out_follow_suit and card in rules.wild))


def stranded(rules: Game, rest) -> bool:
    """Whether a hand left holding `rest` cannot go out as it stands: no card of it may be the last, or it holds two
    or more cards that may be played only as the last. (False without going-out rules, or for an empty hand.)"""
    if not rules.going_out_rules or not rest:
        return False
    if not any(may_end(rules, card) for card in rest):
        return True
    return len(rest) > 1 and all(card in rules.last_only for card in rest)


# ---------------------------------------------------------------- the heuristics


def keep_a_way_out(view: runner.View, cards: tuple[Card, ...]) -> float:
    """Penalty for a play that leaves the hand no card to go out on (going_out.only: [8] and our last 8), where it
    had one: a hand that has none already sheds on as usual until it draws one."""
    rules = Game.of(view.ruleset, len(view.active))
    if not rules.going_out_rules or stranded(rules, view.hand):
        return 0.0
    return -KEEP_OUT if stranded(rules, rest_of_hand(view, cards)) else 0.0


def keep_jack_back(view: runner.View, card: Card, wild) -> float:
    """Penalty for playing a wild card while another card could be played: a kept Jack is an escape."""
    if card not in wild:
        return 0.0
    others = any(type(a) is Play and a.card not in wild for a in view.legal)
    return -KEEP_WILD if others else 0.0


def answer_seven(view: runner.View) -> runner.Action | None:
    """Facing a draw penalty, pass it on with a card of our own (the one whose suit we hold least), if we can."""
    if not view.pending:
        return None
    plays = [a for a in view.legal if type(a) is Play]
    if not plays:
        return None
    suits = Counter(card.suit for card in view.hand)
    way_out = keep_a_way_out  # an answer that keeps a card to go out on first (going_out rules)
    return min(plays, key=lambda a: (way_out(view, a.cards) < 0, suits[a.card.suit], suit_order(a.card.suit)))


def time_eight(view: runner.View, card: Card, skip) -> float:
    """A skip card is worth most against a next player about to go out, and costly if it speeds up one who is."""
    if card not in skip:
        return 0.0
    skipped = seat_after(view, view.seat)
    gets_turn = seat_after(view, view.seat, 2)
    if view.hand_sizes[skipped] <= CLOSE:
        return TIMING
    if gets_turn != view.seat and view.hand_sizes[gets_turn] <= CLOSE:
        return -TIMING
    return 0.0


def time_seven(view: runner.View, card: Card, draw) -> float:
    """A draw card against a next player about to go out; surer the fewer cards of its rank are still hidden."""
    if card not in draw:
        return 0.0
    victim = seat_after(view, view.seat)
    if view.hand_sizes[victim] > CLOSE:
        return 0.0
    answerable = unseen_count(view, card.rank)
    return TIMING if answerable == 0 else TIMING / 2


def name_suit_held_most(view: runner.View, card: Card | None = None, more: tuple[Card, ...] = ()) -> str:
    """The suit to name: the one we hold most of once `card` (the wild card being played) and `more` have left."""
    return most_held_suit(rest_of_hand(view, () if card is None else (card, *more)))


def wish_rank_held_most(view: runner.View, action: Play) -> str | None:
    """The rank to wish with the play of `action`'s cards: of the ranks its plays may wish, the one we hold most of
    once they have left the hand (the first offered on a tie)."""
    ranks = [a.rank for a in view.legal if type(a) is Play and a.card is action.card and a.more == action.more]
    held = Counter(card.rank for card in rest_of_hand(view, action.cards))
    return max(ranks, key=lambda rank: held[rank], default=None)


def rest_of_hand(view: runner.View, cards: tuple[Card, ...]) -> list[Card]:
    """Our hand once `cards` have been played from it."""
    rest = list(view.hand)
    for card in cards:
        if card in rest:
            rest.remove(card)
    return rest


def shed_high_value(view: runner.View, card: Card) -> float:
    """Prefer playing cards worth many points (read from the ruleset), strongly when an opponent is about to go out."""
    weight = SHED_CLOSE if closest_opponent(view) <= CLOSE else SHED_CALM
    return weight * view.ruleset.points.get(card.rank, 0)


def keep_suits_spread(view: runner.View, card: Card, more: tuple[Card, ...] = ()) -> float:
    """Prefer plays that leave the hand in many suits, and some cards of the suit we leave on the pile (the last)."""
    rest = rest_of_hand(view, (card, *more))
    last = more[-1] if more else card
    return SPREAD * len({c.suit for c in rest}) + FOLLOW * sum(1 for c in rest if c.suit == last.suit)


def swap_with_closest(view: runner.View) -> Swap:
    """Asked to swap hands: take the hand of the player with the fewest cards (the first of them on a tie)."""
    swaps = [a for a in view.legal if type(a) is Swap]
    return min(swaps, key=lambda a: (view.hand_sizes[a.seat], a.seat))


def give_worth_most(view: runner.View) -> Give:
    """Asked to give a card away: the one worth most points that is not an action card (they are escapes and
    weapons: the next player could turn a draw card back on us)."""
    action = Game.of(view.ruleset, len(view.active)).action
    points = view.ruleset.points
    gives = [a for a in view.legal if type(a) is Give]
    return max(gives, key=lambda a: (a.card not in action, points.get(a.card.rank, 0)))


# ---------------------------------------------------------------- the bot


def score(view: runner.View, action: runner.Action) -> float:
    """How much the heuristics like `action`; not playing a card scores NOT_PLAYING."""
    if type(action) is not Play:
        return NOT_PLAYING
    card, more = action.card, action.more
    wild, draw, skip = powers(view)
    last = more[-1] if more else card
    if last in wild:
        if action.suit is not None and action.suit != name_suit_held_most(view, card, more):
            return float("-inf")  # the other suits of the same Jack
        if action.rank is not None and action.rank != wish_rank_held_most(view, action):
            return float("-inf")  # the other ranks it may wish
    if len(view.hand) == len(action.cards):
        return GO_OUT
    value = (
        keep_jack_back(view, card, wild) + time_eight(view, last, skip) + time_seven(view, last, draw)
        + shed_high_value(view, card) + keep_suits_spread(view, card, more) + keep_a_way_out(view, action.cards)
    )
    for other in more:  # the further cards of a play of several: each one shed, and one less to get rid of
        value += MORE_CARDS + shed_high_value(view, other) + (keep_jack_back(view, other, wild) if other in wild else 0)
    return value


class MediumBot(runner.Bot):
    name = "medium"
    description = "Heuristics from the strategy tips: keeps a Jack back, passes 7s on, times 8s, sheds points."

    def act(self, view: runner.View) -> runner.Action:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        if view.phase == "name_suit":
            return runner.NameSuit(name_suit_held_most(view))
        if view.phase == "swap":
            return swap_with_closest(view)
        if view.phase == "give":
            return give_worth_most(view)
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
