"""Seeded matches for tests: built-in random bots, or sloppy ones that forget announcements and fault."""

from __future__ import annotations

import random

from runner.actions import Play
from runner.bot import Bot
from runner.cards import ALL_CARDS
from runner.match import Match, MatchResult
from runner.play import make_bot_factory
from runner.plugins import registry
from runner.referee import Referee

# Rule options beyond the built-in files, so that every branch of the rules gets played.
VARIANTS = (
    {"upcard.effects": "as_dealer_play"},
    {"deal.initial_direction": -1, "deal.reset_direction": False, "powers.9.reverse": True},
    {"deal.first_player": 2, "deal.dealer_rotation": 2},
    {"upcard.flip_while_action": True, "upcard.effects": "as_dealer_play", "powers.A.play_again": True},
    {"powers.Q.others_draw": 1, "powers.K.skip_others": True, "powers.10.skip": 2, "powers.J.wild_on_wild": False},
    {"turn_limit": 10},
)


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
    referee = Referee(policy, rng=random.Random(seed))
    return Match(ruleset, ["random"] * players, seed, make_bot, log=log, referee=referee, changes=changes).run()


def player_counts(ruleset) -> range:
    return range(ruleset.players.min, ruleset.players.max + 1)
