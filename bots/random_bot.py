"""The `random` bot, also registered as `easy` (the lowest built-in strength): uniform over the legal actions."""

from math import floor

import runner


class RandomBot(runner.Bot):
    name = "random"
    description = "Plays a uniformly random legal action."

    def act(self, view: runner.View) -> runner.Action:
        legal = view.legal
        # floor, not int(): the same index of a number >= 0, at a third of the cost of the call of int
        return legal[floor(self.rng.random() * len(legal))]


class EasyBot(RandomBot):
    name = "easy"
    description = "The easy strength: plays a uniformly random legal action (the random bot)."


@runner.hookimpl
def register_bots(register):
    register(RandomBot)
    register(EasyBot)
