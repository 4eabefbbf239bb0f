"""Seeded matches for tests: built-in random bots, or sloppy ones that forget announcements and fault."""

from __future__ import annotations

import random

from runner.game.actions import Play
from runner.game.bot import Bot
from runner.game.cards import ALL_CARDS, RANKS
from runner.plugins import registry
from runner.seats.faults import FaultSettings
from runner.table.match import Match, MatchResult
from runner.table.play import make_bot_factory
from runner.table.referee import Referee

# Rule options beyond the built-in files, so that every branch of the rules gets played.
VARIANTS = (
    {"upcard.effects": "as_dealer_play"},
    {"deal.initial_direction": -1, "deal.reset_direction": False, "powers.9.reverse": True},
    {"deal.first_player": 2, "deal.dealer_rotation": 2},
    {"upcard.flip_while_action": True, "upcard.effects": "as_dealer_play", "powers.A.play_again": True},
    {"powers.Q.others_draw": 1, "powers.K.skip_others": True, "powers.10.skip": 2, "powers.J.wild_on_wild": False},
    {"turn_limit": 10},
)

POWER_KEYS = {
    "draw": (0, 1, 2, 3), "skip": (0, 1, 2), "chain_limit": (None, 0, 1, 2), "others_draw": (0, 1, 2),
    "reverse": (True, False), "wild": (True, False), "play_again": (True, False), "skip_others": (True, False),
    "stack": (True, False), "wild_on_wild": (True, False),
}
OPTION_KEYS = {
    "drawing.when": ("stuck", "any"), "drawing.drawn_card": ("play_or_keep", "keep"),
    "announcements.enforcement": ("referee", "challenge"), "announcements.mau.penalty": (0, 1, 2, 5),
    "announcements.maumau.required": (True, False), "upcard.effects": ("none", "as_dealer_play"),
    "upcard.flip_while_action": (True, False), "upcard.dealer_names_suit": (True, False),
    "deal.first_player": (0, 1, 2), "deal.dealer_rotation": (0, 1, 2), "deal.initial_direction": (1, -1),
    "deal.reset_direction": (True, False), "last_card_draws": (True, False),
    "match.tie_break": ("rounds_won", "deciding_round"), "turn_limit": (10, 50, 5000), "hand_size": (1, 2, 3, 5),
}


def random_overrides(rng: random.Random) -> dict:
    """A random house rule: a few powers on random ranks and a few other options changed."""
    overrides = {}
    for _ in range(rng.randint(1, 6)):
        key = rng.choice(sorted(POWER_KEYS))
        overrides[f"powers.{rng.choice(RANKS)}.{key}"] = rng.choice(POWER_KEYS[key])
    for key, values in OPTION_KEYS.items():
        if rng.random() < 0.35:
            overrides[key] = rng.choice(values)
    return overrides


class Sloppy(Bot):
    """Random legal moves, but forgets announcements, makes some up, plays illegal cards and crashes now and then."""

    name = "sloppy"

    def act(self, view):
        roll = self.rng.random()
        if roll < 0.01:
            return Play(next(card for card in ALL_CARDS if card not in view.hand))
        if roll < 0.012:
            raise RuntimeError("sloppy bot crashed")
        action = self.rng.choice(view.legal)
        if isinstance(action, Play):
            if action.announce and self.rng.random() < 0.4:
                return Play(action.card, action.suit, None)
            if self.rng.random() < 0.05:
                return Play(action.card, action.suit, self.rng.choice(["mau", "maumau"]))
        return action


def play(ruleset, players: int, seed: int, sloppy: bool = False, policy: str = "forfeit",
         changes=(), log: list | None = None) -> MatchResult:
    """One seeded match of `players` random (or sloppy) bots under `ruleset`."""
    if sloppy:
        make_bot = lambda player, seat, rng: Sloppy(rng=rng)  # noqa: E731
    else:
        make_bot = make_bot_factory(registry())
    referee = Referee(FaultSettings(policy=policy), rng=random.Random(seed))
    return Match(ruleset, ["random"] * players, seed, make_bot, log=log, referee=referee, changes=changes).run()


def player_counts(ruleset) -> range:
    return range(ruleset.players.min, ruleset.players.max + 1)
