"""What makes `hard` beat `medium`: paired rounds of search variants against medium, and search that sees every hand.

    python3 bench/hard_vs_medium.py [--deals 200] [--first-deal 0] [--rollouts 240] [--ruleset standard]
                                    [--candidate NAME ...] [--append]

Paired single rounds: each deal is played once by four `medium` bots, then once per seat with
a candidate in that seat and `medium` in the others. The figure is the candidate's points
minus its opponents' mean in that round, less the same for `medium` in the same seat and deal
(negative: the candidate did better), with a 95% interval over the deal-seat pairs.
Candidates (CANDIDATES, `--candidate` picks some): `hard` as it is, and variants of its
search: gated by medium's choice or taking the best mean, playouts by `quick_policy` or
`heuristic_policy`, hidden hands sampled from the facts alone or with `sensible` beliefs; and
the same search dealt the true hidden hands (the stock still shuffled), an upper bound on what
better inference of the hidden cards could give; and hard told which seats play at random (the
`easy` ones of `--others`): its playouts play them at random, or its beliefs of sensible play
leave them out, or both, an upper bound on what telling them apart could give. `--append` adds
the table to the file.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from maumau.bots.hard import HardBot, heuristic_policy, match_value  # noqa: E402
from maumau.bots.medium import MediumBot  # noqa: E402
from maumau.bots.random_bot import RandomBot  # noqa: E402
from runner.game.engine import Round  # noqa: E402
from runner.plugins import registry  # noqa: E402
from runner.simulate import Sampler, SeatPolicies, quick_policy, random_policy, rollout  # noqa: E402


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

    def play_out(self, view, world, options):
        """HardBot.play_out through simulate.rollout (in the playout kernel where it is built: the same values)."""
        seed = self.rng.getrandbits(64)
        values = []
        for action in options:
            points, winner, turns = rollout(world, random.Random(seed), self.policy, first=action)
            self.moves += turns - world.turns
            values.append(match_value(view, points, winner))
        return values


class KnowsTheTable(HardBot):
    """hard told which seats play at random (`easy`): its playouts play them so (`seat_policies`), its beliefs of
    sensible play are held of the other seats only (`seat_beliefs`): cheating too."""

    table: tuple[str, ...] = ()  # each seat's bot, set by the harness when the bot is seated

    def __init__(self, rng, rollouts, seat_policies: bool, seat_beliefs: bool):
        super().__init__(rng=rng, rollouts=rollouts)
        self.seat_policies, self.seat_beliefs = seat_policies, seat_beliefs

    def stepper(self, view, options):
        randoms = {seat for seat, name in enumerate(self.table) if name == "easy"}
        if self.seat_policies:
            self.policy = SeatPolicies([random_policy if seat in randoms else heuristic_policy
                                        for seat in range(len(self.table))])
        if self.seat_beliefs:
            self.sensible = frozenset(range(len(self.table))) - randoms  # type: ignore[assignment]
        return super().stepper(view, options)


class JackMeansNoOtherCard(HardBot):
    """hard as before its Jack belief knew points: a Jack played by a sensible seat means it held no other
    playable card, though medium sheds a Jack of 20 over a low card near the end (bots/hard.py: medium_wild_over)."""

    def beliefs(self, view):
        return Sampler(view, sensible=self.sensible)


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


def measure(ruleset, make, deals: int, others: tuple[str, ...] = ("medium",) * 3,
            first: int = 0) -> tuple[list[float], float]:
    """The paired difference of each deal and seat, and the seconds it took; `others` sit in the other seats in turn."""
    started, diffs = time.perf_counter(), []
    kinds = {"medium": MediumBot, "easy": RandomBot}
    for deal in range(first, first + deals):
        for seat in range(4):
            names = [others[(s - seat - 1) % 4] if s != seat else "medium" for s in range(4)]
            base, _ = play(ruleset, [kinds[n](rng=random.Random(f"{deal}:{s}")) for s, n in enumerate(names)], deal)
            bots = [kinds[n](rng=random.Random(f"{deal}:{s}")) for s, n in enumerate(names)]
            bots[seat] = make(random.Random(f"{deal}:{seat}:candidate"))
            if isinstance(bots[seat], KnowsTheTable):
                bots[seat].table = tuple(names)
            points, _ = play(ruleset, bots, deal)
            diffs.append(relative(points, seat) - relative(base, seat))
    return diffs, time.perf_counter() - started


def interval(diffs: list[float]) -> tuple[float, float]:
    """The mean and its 95% half-width."""
    n = len(diffs)
    mean = sum(diffs) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1))
    return mean, 1.96 * sd / math.sqrt(n)


def variant(confidence: float, policy, sensible: bool, sees_all: bool = False):
    """A candidate: hard's search with these settings (confidence -inf: the best mean, no gate)."""
    kind = SeesAllHands if sees_all else HardBot

    def make(rng, rollouts):
        return kind(rng=rng, rollouts=rollouts, confidence=confidence, policy=policy, sensible=sensible)

    return make


CANDIDATES = {
    "hard": lambda rng, rollouts: HardBot(rng=rng, rollouts=rollouts),
    "gated 1.5 SE, quick playouts (hard before)": variant(1.5, quick_policy, False),
    "best mean, quick playouts": variant(-math.inf, quick_policy, False),
    "gated 1.5 SE, quick playouts, sensible beliefs": variant(1.5, quick_policy, True),
    "gated 1.5 SE, heuristic playouts": variant(1.5, heuristic_policy, False),
    "gated 1.5 SE, heuristic playouts, sensible beliefs": variant(1.5, heuristic_policy, True),
    "gated 0 SE, heuristic playouts, sensible beliefs": variant(0.0, heuristic_policy, True),
    "best mean, heuristic playouts": variant(-math.inf, heuristic_policy, False),
    "best mean, heuristic playouts, sensible beliefs": variant(-math.inf, heuristic_policy, True),
    "best mean, quick playouts, seeing all hands": variant(-math.inf, quick_policy, False, sees_all=True),
    "best mean, heuristic playouts, seeing all hands": variant(-math.inf, heuristic_policy, False, sees_all=True),
    "hard, told the random seats: playouts": lambda rng, rollouts: KnowsTheTable(rng, rollouts, True, False),
    "hard, told the random seats: beliefs": lambda rng, rollouts: KnowsTheTable(rng, rollouts, False, True),
    "hard, told the random seats: playouts and beliefs": lambda rng, rollouts: KnowsTheTable(rng, rollouts, True,
                                                                                             True),
    "hard, a Jack played means no other card (before)": lambda rng, rollouts: JackMeansNoOtherCard(rng=rng,
                                                                                                   rollouts=rollouts),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--first-deal", type=int, default=0,
                        help="the first deal's number: --first-deal 600 --deals 600 plays deals 600-1199 (more deals, "
                             "not the same ones)")
    parser.add_argument("--rollouts", type=int, default=240)
    parser.add_argument("--ruleset", default="standard")
    parser.add_argument("--candidate", action="append", choices=list(CANDIDATES),
                        help="a name from CANDIDATES (repeat for more); default: hard and search seeing all hands")
    parser.add_argument("--others", default="medium,medium,medium",
                        help="the other three seats' bots, medium or easy, comma-separated (ladder: medium,easy,easy)")
    parser.add_argument("--append", action="store_true", help="add the table to --out instead of replacing it")
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent / "hard_vs_medium.md")
    args = parser.parse_args()
    ruleset = registry().load_ruleset(args.ruleset)
    others = tuple(args.others.split(","))
    if len(others) != 3 or not set(others) <= {"medium", "easy"}:
        raise SystemExit(f"Error: --others {args.others!r}: expected three of medium or easy, comma-separated")
    chosen = args.candidate or ["hard", "best mean, heuristic playouts, seeing all hands"]
    lines = [] if args.append else ["# hard against medium, and what the hidden cards are worth", ""]
    lines += ["", f"Made by `python3 bench/hard_vs_medium.py {' '.join(map(quote, sys.argv[1:]))}`.", "",
              f"{args.ruleset}, {args.deals} deals (from deal {args.first_deal}) x 4 seats, {args.rollouts} playouts a "
              f"decision, the other seats {', '.join(others)}: the candidate's "
              "points minus its opponents' mean in a round, against medium's in the same seat and deal "
              "(negative: the candidate did better), with a 95% interval; and against the first candidate, paired "
              "over the same deals and seats.", "",
              "| candidate | points against medium | against the first | seconds |", "| --- | --- | --- | --- |"]
    first: list[float] = []
    for name in chosen:
        make = lambda rng: CANDIDATES[name](rng, args.rollouts)  # noqa: E731
        diffs, seconds = measure(ruleset, make, args.deals, others, args.first_deal)
        mean, half = interval(diffs)
        first = first or diffs
        against = "" if diffs is first else "{:+.2f} ± {:.2f}".format(*interval([a - b for a, b in zip(diffs, first)]))
        lines.append(f"| {name} | {mean:+.2f} ± {half:.2f} | {against} | {seconds:.0f} |")
        print(lines[-1], flush=True)
    if args.append:
        with args.out.open("a") as out:
            out.write("\n".join(lines) + "\n")
    else:
        args.out.write_text("\n".join(lines[:2] + lines[3:]) + "\n")


def quote(arg: str) -> str:
    return f"'{arg}'" if " " in arg else arg


if __name__ == "__main__":
    main()
