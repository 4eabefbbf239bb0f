"""Why `hard` hardly beats `medium`: search with the public information against search that sees every hand.

    python3 bench/hard_vs_medium.py [--deals 200] [--rollouts 240] [--ruleset standard]

Paired single rounds: each deal is played once by four `medium` bots, then once per seat with
a candidate in that seat and `medium` in the others. The figure is the candidate's points
minus its opponents' mean in that round, less the same for `medium` in the same seat and deal
(negative: the candidate did better), with a 95% interval over the deal-seat pairs.
Candidates: `hard`; plain search (hard's search without medium's heuristics, taking the
best mean); and the same search dealt the true hidden hands (the stock still shuffled), an
upper bound on what better inference of the hidden cards could give.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bots.hard import HardBot  # noqa: E402
from bots.medium import MediumBot  # noqa: E402
from runner.engine import Round  # noqa: E402
from runner.plugins import registry  # noqa: E402


class SeesAllHands(HardBot):
    """Plain search whose samples are the true round (hidden hands known, stock reshuffled): cheating."""

    truth: Round | None = None  # set by the harness before each decision

    def sampler(self, view):
        truth = self.truth

        def sample(rng):
            world = truth.clone(random.Random(rng.getrandbits(64)))
            world.rng.shuffle(world.stock)
            return world

        return sample


def play(ruleset, bots, deal: int) -> tuple[list[int], list[int]]:
    rnd = Round.deal(ruleset, random.Random(f"deal{deal}"), 4, dealer=deal % 4)
    while not rnd.over:
        bot = bots[rnd.current]
        if isinstance(bot, SeesAllHands):
            bot.truth = rnd
        rnd.apply(rnd.canonical(bot.act(rnd.view())))
    return rnd.points(), rnd.active


def relative(points: list[int], seat: int) -> float:
    return points[seat] - sum(p for s, p in enumerate(points) if s != seat) / (len(points) - 1)


def measure(ruleset, make, deals: int) -> tuple[float, float, float]:
    """Mean paired difference, its 95% half-width, and the seconds it took."""
    started, diffs = time.perf_counter(), []
    for deal in range(deals):
        base, _ = play(ruleset, [MediumBot(rng=random.Random(f"{deal}:{s}")) for s in range(4)], deal)
        for seat in range(4):
            bots = [MediumBot(rng=random.Random(f"{deal}:{s}")) for s in range(4)]
            bots[seat] = make(random.Random(f"{deal}:{seat}:candidate"))
            points, _ = play(ruleset, bots, deal)
            diffs.append(relative(points, seat) - relative(base, seat))
    n = len(diffs)
    mean = sum(diffs) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1))
    return mean, 1.96 * sd / math.sqrt(n), time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--rollouts", type=int, default=240)
    parser.add_argument("--ruleset", default="standard")
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent / "hard_vs_medium.md")
    args = parser.parse_args()
    ruleset = registry().load_ruleset(args.ruleset)
    candidates = {
        "hard": lambda rng: HardBot(rng=rng, rollouts=args.rollouts),
        "plain search": lambda rng: HardBot(rng=rng, rollouts=args.rollouts, confidence=-math.inf),
        "search seeing all hands": lambda rng: SeesAllHands(rng=rng, rollouts=args.rollouts, confidence=-math.inf),
    }
    lines = ["# hard against medium, and what the hidden cards are worth", "",
             f"Made by `python3 bench/hard_vs_medium.py {' '.join(sys.argv[1:])}`.", "",
             f"{args.ruleset}, {args.deals} deals x 4 seats, {args.rollouts} playouts a decision: the candidate's "
             "points minus its opponents' mean in a round, against medium's in the same seat and deal "
             "(negative: the candidate did better), with a 95% interval.", "",
             "| candidate | points against medium | seconds |", "| --- | --- | --- |"]
    for name, make in candidates.items():
        mean, half, seconds = measure(ruleset, make, args.deals)
        lines.append(f"| {name} | {mean:+.2f} ± {half:.2f} | {seconds:.0f} |")
        print(lines[-1], flush=True)
    args.out.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
