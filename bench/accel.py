"""The compiled engine against the pure-Python one: the same rows timed in two processes, in alternation.

    python bench/accel.py                      # 5 alternations of about 1 CPU-second per row and path
    python bench/accel.py --runs 3 --seconds 0.5 --rollouts 240

Each alternation runs one child process per path (the pure one with MAUMAU_PURE=1, runner/accel.py)
that times every row once, in CPU seconds; the table gives each path's median and the ratio
compiled ÷ pure. Rows: random bots through the full match path (bench/peers.py), the engine
alone, clone + playout from mid-game states (bench/rollouts.py), and `hard`'s searched decisions
at a fixed playout count, whose choices must be the same on both paths (else this exits 1).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from measure import CLOCK, machine, markdown  # noqa: E402

HARD_VIEWS = 40  # searched decisions of `hard`, from seeded matches of random bots


def hard_views(count: int) -> list:
    """Views of standard at a table of 4 where `hard` searches (more than one candidate), from seeded matches."""
    from maumau.bots.hard import candidates
    from runner.game.engine import Round
    from runner.plugins import registry

    ruleset, views, seed = registry().load_ruleset("standard"), [], 0
    while len(views) < count:
        seed += 1
        rng, rnd = random.Random(seed), Round.deal(ruleset, random.Random(-seed), 4)
        while not rnd.over and len(views) < count:
            view = rnd.view()
            if len(candidates(view)) > 1 and "challenge" not in view.phase and rng.random() < 0.3:
                views.append(view)
            legal = rnd.legal()
            rnd.apply(legal[int(rng.random() * len(legal))])
    return views


def child(seconds: float, rollouts: int) -> dict:
    """Every row timed once in this process: {row: rate}, and hard's choices."""
    from peers import maumau_contenders, round_loop_contenders
    from rollouts import mid_game_states

    from maumau.bots.hard import HardBot, heuristic_policy
    from runner import accel
    from runner.plugins import registry
    from runner.simulate import playout

    rates: dict[str, float] = {}
    for contender in maumau_contenders(("off", "memory"), (4,)) + round_loop_contenders((4,)):
        contender.play(0.1)
        games, decisions, elapsed = contender.play(seconds)
        rates[f"{contender.name}: decisions/s"] = decisions / elapsed
    for name in ("standard", "strafpunten"):
        states, rng = mid_game_states(registry().load_ruleset(name), 4), random.Random(1)
        done, start = 0, CLOCK()
        while CLOCK() - start < seconds:
            for state in states:
                playout(state.clone(rng), rng, heuristic_policy)
            done += len(states)
        rates[f"{name} 4p: clone + playout(heuristic_policy)/s"] = done / (CLOCK() - start)
    views, choices = hard_views(HARD_VIEWS), []
    start = CLOCK()
    for index, view in enumerate(views):
        choices.append(str(HardBot(rng=random.Random(index), rollouts=rollouts).act(view)))
    rates[f"hard, {rollouts} playouts: searched decisions/s"] = len(views) / (CLOCK() - start)
    return {"rates": rates, "choices": choices, "engine": accel.summary()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="alternations (default 5)")
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per row and run (default 1)")
    parser.add_argument("--rollouts", type=int, default=720, help="hard's playouts per decision (default 720)")
    parser.add_argument("--out", type=Path, help="also write the report to this Markdown file")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(child(args.seconds, args.rollouts)))
        return 0
    load = machine()
    results: dict[str, list[dict]] = {"compiled": [], "pure": []}
    for run in range(args.runs):
        order = ("compiled", "pure") if run % 2 == 0 else ("pure", "compiled")
        for path in order:
            env = {**os.environ, "MAUMAU_PURE": "1" if path == "pure" else "0"}
            done = subprocess.run([sys.executable, __file__, "--child", "--seconds", str(args.seconds),
                                   "--rollouts", str(args.rollouts)], env=env, capture_output=True, text=True)
            if done.returncode:
                sys.stderr.write(done.stderr)
                return 1
            results[path].append(json.loads(done.stdout))
        print(f"run {run + 1}/{args.runs} done", file=sys.stderr)
    same = all(r["choices"] == results["pure"][0]["choices"] for r in results["compiled"] + results["pure"])
    rows = []
    for row in results["compiled"][0]["rates"]:
        fast = statistics.median(r["rates"][row] for r in results["compiled"])
        slow = statistics.median(r["rates"][row] for r in results["pure"])
        rows.append([row, f"{fast:,.0f}", f"{slow:,.0f}", f"{fast / slow:.2f}"])
    command = "python bench/accel.py " + " ".join(argv if argv is not None else sys.argv[1:])
    report = "\n".join([
        "# The compiled engine against pure Python", "",
        f"`{command.strip()}`: {args.runs} alternations of a child process per path, {args.seconds} CPU-second "
        "per row, medians.", "",
        f"Machine: {load} (at the start).", "",
        f"Compiled: {results['compiled'][0]['engine']}. Pure: {results['pure'][0]['engine']}.", "",
        markdown(["row", "compiled", "pure", "compiled ÷ pure"], rows), "",
        f"hard's choices at {args.rollouts} playouts over {HARD_VIEWS} decisions: "
        + ("the same on both paths." if same else "DIFFERENT between the paths."), "",
    ])
    print(report)
    if args.out:
        args.out.write_text(report)
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
