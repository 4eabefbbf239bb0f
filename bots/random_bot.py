"""The `random` bot, also registered as `easy` (the lowest built-in strength): uniform over the legal actions."""

import runner


class RandomBot(runner.Bot):
    name = "random"
    description = "Plays a uniformly random legal action."

    def act(self, view: runner.View) -> runner.Action:
        legal = view.legal
        return legal[int(self.rng.random() * len(legal))]


class EasyBot(RandomBot):
    name = "easy"
    description = "The easy strength: plays a uniformly random legal action (the random bot)."


@runner.hookimpl
def register_bots(register):
    register(RandomBot)
    register(EasyBot)
