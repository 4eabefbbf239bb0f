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


# The keys of the house rules (docs/house-rules.md), in three groups: table and scoring; pending effects,
# wild kinds, drawing and going out; several cards, hands moved and shown, jumping in.
CARD_SELECTORS = ("KH", "QS", "JC JS", "2, 3", "AH AS", "7D", "X")
HOUSE_POWER_KEYS = {
    1: {"draw": (0, 2, 5), "skip": (0, 1), "play_again": (True, False), "reverse": (True, False),
        "wild": (True, False), "skip_others": (True, False)},
    2: {"stack_with": ([2, 3], ["X"], [7, "KH"]), "stack_match": (True, False), "ends_turn": (True, False),
        "target": ("next", "previous"), "cancels": (True, ["JC JS"], [7]), "returns": (True, [2], ["X"]),
        "skip_stack": ("none", "pass", "add"), "skip_with": ([9], ["QS"]), "wish": ("suit", "rank", "none"),
        "wish_binds": (1, 2, 3), "wild_follows_suit": (True, False), "wild_last_resort": (True, False),
        "free": (True, False), "self_draw": (0, 1, 2), "next_rank": (None, "at_most", "at_least")},
    3: {"pass_hands": (True, False), "swap_hands": (None, "next", "choose"), "show_next": (True, False),
        "give": (0, 1, 2), "take": (0, 1, 2)},
}
HOUSE_OPTION_KEYS = {
    1: {"deck.jokers": (0, 2), "hand_size_by_players": ({}, {4: 4}, {3: 3, 5: 2}),
        "deck.ranks_by_players": ({}, {5: "full"}), "deal.first_player": (-1, -2, 1, 0),
        "deal.next_dealer": ("rotate", "loser", "winner"), "match.max_rounds": (1, 3, 40),
        "scoring.count": ("points", "cards", "flat"), "scoring.minimum": (0, 5, 20), "scoring.round_to": (1, 5, 10),
        "scoring.multiplier": ({}, {"J": 2}, {"QS": 3, "A": 2}), "round.hand_limit": (None, 9, 15),
        "powers_by_players": ({}, {2: {"A": {"play_again": True}}}, {3: {"9": {"reverse": True, "skip": 1}}}),
        "scoring.alone": ({}, {"J": 20, "JS": 40}), "scoring.winner_scores": ({}, {"J": -20, "QS": 5}),
        "scoring.highest_only": (True, False), "scoring.blocked": ("hands", "difference"),
        "match.exact_totals": ({}, {20: 0, 50: 25}), "upcard.effects": ("none", "as_dealer_play", "to_dealer")},
    2: {"drawing.until_playable": (True, False), "drawing.drawn_card": ("play_or_keep", "keep", "must_play", "go_on"),
        "drawing.reshuffle": (True, False), "drawing.when": ("stuck", "any"),
        "announcements.mau.false_penalty": (0, 1, 2), "announcements.maumau.false_penalty": (0, 2),
        "going_out.forbidden": ((), ["J"], [8, "X"]), "going_out.only": ((), ["Q", "K", "A", "10", "9"]),
        "going_out.follow_suit": (True, False), "announcements.enforcement": ("referee", "challenge"),
        "going_out.last_only": ((), [9], ["QS", "A"]),
        "going_out_by_players": ({}, {2: {"forbidden": [2, 3]}}, {3: {"last_only": [8], "follow_suit": True}})},
    3: {"multiple.same_rank": (True, False), "multiple.runs": ("none", "up", "down", "both"),
        "multiple.run_min": (2, 3),
        "multiple.chain": (True, False), "multiple.chain_max": (None, 3), "multiple.suit_with": ((), ["KH"], ["Q"]),
        "multiple.power": ("last", "each"),
        "round.play_on": (True, False), "jump_in": ("none", "identical", "same_rank")},
}
MATCH_FORMATS = (
    {}, {"match.format": "target", "match.limit": 60, "scoring.winner_collects": True},
    {"match.format": "rounds", "match.rounds": 3}, {"match.format": "wins", "match.wins": 2},
)


def random_house_rules(rng: random.Random, phases: int = 3) -> dict:
    """A random house rule made of the keys of docs/house-rules.md (of the groups up to `phases`)."""
    overrides: dict = dict(rng.choice(MATCH_FORMATS))
    power_keys = {key: values for phase in range(1, phases + 1) for key, values in HOUSE_POWER_KEYS[phase].items()}
    option_keys = {key: values for phase in range(1, phases + 1) for key, values in HOUSE_OPTION_KEYS[phase].items()}
    for _ in range(rng.randint(2, 7)):
        key = rng.choice(sorted(power_keys))
        selector = rng.choice(CARD_SELECTORS + tuple(RANKS))
        overrides[f"powers.{selector}.{key}"] = rng.choice(power_keys[key])
    for key, values in option_keys.items():
        if rng.random() < 0.25:
            overrides[key] = rng.choice(values)
    names_jokers = any(key.startswith("powers.X.") or "X" in str(value)
                       for key, value in overrides.items() if key.startswith("powers."))
    if overrides.get("deck.jokers") or names_jokers:
        overrides.setdefault("deck.jokers", 2)
        overrides["points.X"] = 25
    return _consistent(overrides)


def _consistent(overrides: dict) -> dict:
    """Complete a random house rule the way its writer would: a wish needs a wild card, a draw's answer a draw."""
    for key in [key for key in overrides if key.startswith("powers.")]:
        _, selector, name = key.split(".", 2)
        power = f"powers.{selector}"
        if name in ("stack_with", "stack_match", "ends_turn", "target"):
            overrides.setdefault(f"{power}.draw", 2)
        if name in ("skip_stack", "skip_with"):
            overrides.setdefault(f"{power}.skip", 1)
        if name in ("wish", "wish_binds", "wild_follows_suit", "wild_last_resort"):
            overrides[f"{power}.wild"] = True
        if name == "wish_binds" and overrides.get(f"{power}.wish") == "none":
            overrides[f"{power}.wish"] = "suit"
    # A match whose rounds score nothing (flat counts rounded away) would run to the default of 1000 rounds.
    overrides.setdefault("match.max_rounds", 40)
    if overrides.get("multiple.chain") and not overrides.get("multiple.chain_max"):  # every set: hands kept small
        overrides["round.hand_limit"] = min(overrides.get("round.hand_limit") or 12, 12)
    for key, value in list(overrides.items()):
        if key.endswith(".draw") and value == 0 and any(
                overrides.get(key[:-4] + name) not in (None, False, "next", True) for name in ("stack_with", "target")):
            overrides[key] = 2
    return overrides


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
