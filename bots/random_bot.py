"""The `random` bot: uniform over the legal actions."""

import runner


class RandomBot(runner.Bot):
    name = "random"
    description = "Plays a uniformly random legal action."

    def act(self, view: runner.View) -> runner.Action:
        legal = view.legal
        return legal[int(self.rng.random() * len(legal))]


@runner.hookimpl
def register_bots(register):
    register(RandomBot)
