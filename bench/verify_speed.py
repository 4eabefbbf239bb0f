"""How fast `maumau verify` checks game logs: events per CPU-second, this checkout against another revision.

    python bench/verify_speed.py                       # this checkout's verifier alone
    python bench/verify_speed.py --baseline main       # and main's, timed in alternation in one run

The logs are played once, in memory, by random bots: every built-in ruleset at 2, 3 and 4
players, `--seeds` matches each. Each run verifies all of them with each verifier in turn and
measures CPU time (`time.process_time`), so a busy neighbour skews both alike; the table gives
the median of `--runs` runs. `--baseline REV` loads runner/logs/verify*.py of that git revision
as a separate package (the verifier imports nothing of the engine, so the two share only
runner/game/cards.py and runner/errors.py).
"""

from __future__ import annotations

import argparse
import importlib
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def logs(seeds: int) -> list[list[dict]]:
    """Game logs of random-bot matches of every built-in ruleset at 2-4 players."""
    from maumau.rulesets.builtin import classic_names
    from runner.plugins import registry
    from runner.table.match import Match
    from runner.table.play import make_bot_factory
    from runner.table.referee import Referee

    reg = registry()
    make_bot = make_bot_factory(reg)
    result = []
    for name in classic_names(reg):
        ruleset = reg.load_ruleset(name)
        for players in range(max(2, ruleset.players.min), min(4, ruleset.players.max) + 1):
            for seed in range(seeds):
                log: list[dict] = []
                Match(ruleset, ["random"] * players, seed, make_bot, log=log,
                      referee=Referee(seed=seed), ruleset_name=name).run()
                result.append(log)
    return result


def baseline_verify(revision: str, into: Path):
    """The `verify` function of runner/logs at `revision`, imported as its own package."""
    package = into / "baseline_logs"
    package.mkdir()
    (package / "__init__.py").write_text("")
    names = subprocess.run(["git", "-C", str(ROOT), "ls-tree", "--name-only", revision, "runner/logs/"],
                           capture_output=True, text=True, check=True).stdout.split()
    for name in names:
        if name.endswith(".py"):
            source = subprocess.run(["git", "-C", str(ROOT), "show", f"{revision}:{name}"],
                                    capture_output=True, text=True, check=True).stdout
            (package / Path(name).name).write_text(source)
    sys.path.insert(0, str(into))
    return importlib.import_module("baseline_logs.verify").verify


def timed(verify, matches: list[list[dict]]) -> float:
    """CPU seconds to verify every log once."""
    start = time.process_time()
    for log in matches:
        verify(log)
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=20, help="matches per ruleset and table size")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--baseline", metavar="REV", help="also time the verifier of this git revision")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from runner.logs.verify import verify

    matches = logs(args.seeds)
    events = sum(map(len, matches))
    contenders = {"this checkout": verify}
    with tempfile.TemporaryDirectory() as tmp:
        if args.baseline:
            contenders[f"baseline {args.baseline}"] = baseline_verify(args.baseline, Path(tmp))
        times: dict[str, list[float]] = {name: [] for name in contenders}
        order = list(contenders)
        for run in range(args.runs):
            random.Random(run).shuffle(order)
            for name in order:
                times[name].append(timed(contenders[name], matches))
    print(f"{len(matches)} logs, {events:,} events; median of {args.runs} runs (CPU time)")
    print("| verifier | events/s | spread |")
    print("| --- | ---: | ---: |")
    for name, seconds in times.items():
        rates = [events / s for s in seconds]
        print(f"| {name} | {statistics.median(rates):,.0f} | {min(rates):,.0f}–{max(rates):,.0f} |")


if __name__ == "__main__":
    main()
