"""What a search bot gets from the engine: copies (`Round.clone`) and random playouts per second.

    python bench/rollouts.py                 # table on stdout
    python bench/rollouts.py --runs 7 --seconds 2

Mid-game states come from seeded rounds played at random for a few decisions. A playout is a
clone played to the end of the round by uniform random choices, the loop a Monte Carlo bot
runs (`legal`, `apply`, `over`, `points`). `runner.simulate` playouts with its `quick_policy`
(and `hard`'s `heuristic_policy`) are timed too when that module is present: the Python loop
(`clone + simulate.playout`) and `simulate.rollout`, which is the same playout in the compiled
playout kernel where it is built (runner/botkit/_playout.pyx; else the same Python loop), with
the ratio of the two from the same run.
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))

from measure import CLOCK, Contender, engine, machine, markdown, measure  # noqa: E402

from runner.game.engine import Round  # noqa: E402
from runner.plugins import registry  # noqa: E402

RULESETS = ("standard-single", "strafpunten")
PLAYER_COUNTS = (2, 4)
STATES = 200  # distinct mid-game states per row, used in turn


def mid_game_states(ruleset, players: int, into: int = 8) -> list[Round]:
    """Rounds `into` decisions in (or fewer if the round ended sooner: then dealt again)."""
    states, seed = [], 0
    while len(states) < STATES:
        seed += 1
        rng = random.Random(seed)
        rnd = Round.deal(ruleset, random.Random(-seed), players)
        for _ in range(into):
            if rnd.over:
                break
            legal = rnd.legal()
            rnd.apply(legal[int(rng.random() * len(legal))])
        if not rnd.over:
            states.append(rnd)
    return states


def random_playout(rnd: Round, rng: random.Random) -> int:
    """Uniform random choices to the end of the round; returns the decisions taken."""
    legal_of, apply, decisions = rnd.legal, rnd.apply, 0
    while not rnd.over:
        legal = legal_of()
        apply(legal[int(rng.random() * len(legal))])
        decisions += 1
    rnd.points()
    return decisions


def clone_given_rng(rnd: Round, rng: random.Random) -> int:
    rnd.clone(rng)
    return 0


def clone_copying_rng(rnd: Round, rng: random.Random) -> int:
    rnd.clone()
    return 0


def timed(states: list[Round], one: Callable[[Round, random.Random], int]) -> Callable:
    """A Contender's play(): `one(state, rng)` over the states in turn for `seconds` of CPU time."""
    cycle, rng = itertools.cycle(states), random.Random(0)

    def play(seconds: float):
        done = decisions = 0
        start = CLOCK()
        while True:
            for _ in range(50):  # read the clock every 50 items: a clone takes microseconds
                decisions += one(next(cycle), rng)
            done += 50
            elapsed = CLOCK() - start
            if elapsed >= seconds:
                return done, decisions, elapsed

    return play


def contenders() -> list[Contender]:
    reg = registry()
    try:
        from runner.simulate import playout, quick_policy
    except ImportError:
        playout = None
    try:
        from maumau.bots.hard import heuristic_policy
        from runner.simulate import rollout
    except ImportError:  # a checkout from before simulate.rollout
        rollout = None
    rows = []
    for name, players in itertools.product(RULESETS, PLAYER_COUNTS):
        states = mid_game_states(reg.load_ruleset(name), players)
        label = f"{name} {players}p"
        rows.append(Contender(f"{label}: clone(rng)", players, timed(states, clone_given_rng)))
        rows.append(Contender(f"{label}: clone() (copies the rng)", players, timed(states, clone_copying_rng)))
        rows.append(Contender(f"{label}: clone + random playout", players,
                              timed(states, lambda s, rng: random_playout(s.clone(rng), rng))))
        if playout is not None:
            policies = [quick_policy] + ([heuristic_policy] if rollout is not None else [])
            for policy in policies:
                rows.append(Contender(f"{label}: clone + simulate.playout({policy.__name__})", players,
                                      timed(states, python_playout(playout, policy))))
                if rollout is not None:
                    rows.append(Contender(f"{label}: simulate.rollout({policy.__name__})", players,
                                          timed(states, kernel_playout(rollout, policy))))
    return rows


def python_playout(playout, policy) -> Callable[[Round, random.Random], int]:
    def one(state, rng):
        return playout(state.clone(rng), rng, policy).turns - state.turns

    return one


def kernel_playout(rollout, policy) -> Callable[[Round, random.Random], int]:
    def one(state, rng):
        return rollout(state, rng, policy).turns - state.turns

    return one


def ratio(row: Contender, rows: list[Contender]) -> str:
    """A `simulate.rollout` row's rate ÷ that of the Python playout of the same states and policy."""
    if ": simulate.rollout(" not in row.name:
        return "–"
    label, policy = row.name.split(": simulate.rollout(")
    base = next(c for c in rows if c.name == f"{label}: clone + simulate.playout({policy}")
    return f"{row.games_per_second / base.games_per_second:.1f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=0.5, help="CPU seconds per run (default 0.5)")
    args = parser.parse_args(argv)
    started = machine()
    rows = contenders()
    measure(rows, args.runs, args.seconds, progress=lambda text: print(text, file=sys.stderr))
    table = markdown(
        ["row", "per second (median)", "decisions per playout", "playout decisions/s", "÷ Python playout"],
        [[c.name, f"{c.games_per_second:,.0f}",
          f"{c.decisions_per_game:.1f}" if c.decisions_per_game else "–",
          f"{c.decisions_per_second:,.0f}" if c.decisions_per_game else "–", ratio(c, rows)]
         for c in rows],
    )
    print(f"# Rollouts\n\nMachine: {started}. {args.runs} runs of {args.seconds:g} CPU-second per row, medians; "
          f"{STATES} mid-game states per ruleset and table size, 8 decisions into a round. Engine: {engine()}.\n\n"
          f"{table}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
