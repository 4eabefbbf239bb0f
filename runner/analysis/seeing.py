"""The value of hidden information: the `hard` search seeing every hand, against the same search that does not.

Only an analysis can seat such a bot, and only in its own tournament (`maumau analyze --hidden-info BOT`):

- The bot is not registered: no bot name or option (`-b`, `--skill`, `exec:`, a plugin) makes one, and a
  View never carries the other hands (runner/game/view.py), so no bot a tournament seats can see them.
- It is built in the worker, by `seating`, a WorkUnit's hook (runner/tournament/work.py) that only
  runner/analysis/runs.py sets, on the units of its hidden-information tournament. `seating` gives the seat
  of the line-up's first entrant a `SeeingBot` and the match a `SeeingReferee`, which shows that bot the
  live round before each round's decisions; every other seat is made and refereed as in any tournament
  (an `--isolate` bot stays in its process and sees Views only).
- The seeing bot's search deals nothing at random but the stock: every other hand is the round's own
  (`SeeingSampler`); the stock's order stays unknown to it, as it is to every player.
"""

from __future__ import annotations

import functools
import random
from collections import Counter

from runner.botkit.simulate import Sampler
from runner.errors import InvalidSetting
from runner.game.view import View
from runner.plugins import registry
from runner.table.referee import Referee


class SeeingSampler(Sampler):
    """The deals of a View where every other hand is known (`hands`, the round's own by seat): only the stock, the one
    thing nobody sees, is shuffled. With known hands the search runs in Python, not the kernel (Sampler: a kernel
    search deals the hidden cards anew); its playouts are the same (Sampler.rollouts)."""

    def __init__(self, view: View, hands: list[list]):
        super().__init__(view, infer=False)
        self.known = {seat: list(cards) for seat, cards in enumerate(hands) if seat != view.seat and cards}
        left = Counter(self.hidden)
        left.subtract(card for cards in self.known.values() for card in cards)
        self.hidden = sorted(left.elements())


class Window:
    """The round being played, as SeeingReferee shows it to the seeing bot of its match."""

    round = None


@functools.cache
def seeing_class(hard: type) -> type:
    """`hard` (the registered class of the built-in bot) whose search is dealt the round's true hands, with the same
    options; never registered (see the module)."""

    class SeeingBot(hard):
        name = "hard seeing every hand"

        def __init__(self, window: Window, rng: random.Random | None = None, **options):
            super().__init__(rng, **options)
            self.window = window

        def beliefs(self, view: View) -> Sampler:
            rnd = self.window.round
            if rnd is None:  # not in a match refereed by SeeingReferee: the ordinary search
                return super().beliefs(view)
            hands = [list(hand) for hand in rnd.hands]
            if tuple(len(hand) for hand in hands) != tuple(view.hand_sizes):
                raise RuntimeError("the seeing bot was shown another round than the one it is asked about")
            return SeeingSampler(view, hands)

    return SeeingBot


class SeeingReferee(Referee):
    """The match's referee, which shows each round to the seeing bot's window before its decisions."""

    __slots__ = ("window",)

    def play(self, rnd, seats, players):
        self.window.round = rnd
        return super().play(rnd, seats, players)


def check_bot(spec: str) -> str:
    """`--hidden-info BOT`: the built-in `hard` bot with its options, or InvalidSetting."""
    reg = registry()
    parsed = reg.spec(spec)  # an unknown bot or option: its error
    if parsed.name != "hard" or reg.bot("hard").plugin != "maumau.bots.hard":
        raise InvalidSetting(f"{{0}} {spec!r}: the value of hidden information is measured with the built-in search, "
                             "hard (with its options, e.g. hard:rollouts=100)", "hidden_info")
    return spec


def seating(seeing: str, unit, make_bot, referee: Referee):
    """WorkUnit.seating (with `seeing`, the entrant that sees, bound by functools.partial): that entrant's seat gets
    the seeing `hard` with its options, the match a SeeingReferee with `referee`'s settings; the other seats are made
    by `make_bot`."""
    window = Window()
    reg = registry()

    def make(name: str, seat: int, rng: random.Random):
        if unit.entrants[seat] == seeing:
            return seeing_class(reg.bot("hard").cls)(window, rng, **dict(reg.spec(name).options))
        return make_bot(name, seat, rng)

    shown = SeeingReferee(referee.settings, seed=unit.seed)
    shown.window = window
    return make, shown
