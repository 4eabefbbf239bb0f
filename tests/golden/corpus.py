"""The golden corpus: seeded matches over every built-in ruleset, at every table size, and the SHA-256 of each game log.

`python -m tests.golden.corpus --write` records the digests in `tests/golden/digests.json`;
tests/test_golden.py plays the corpus again and compares, so that a change meant to keep
behaviour (a refactor, a faster engine) is shown to give the same logs byte for byte.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

HERE = Path(__file__).parent
DIGESTS = HERE / "digests.json"
LINEUPS = (("random",), ("medium", "random"), ("hard", "medium", "random"))
SEEDS = (1, 2)
HARD_ROLLOUTS = 12  # enough to exercise the simulator, cheap enough for the test suite


def cases():
    """(key, ruleset name, players, seed) for every case of the corpus."""
    from maumau.rulesets.builtin import classic_names
    from runner.plugins import registry

    reg = registry()
    builtin = classic_names(reg)  # the gallery, registered by name too, is not part of the corpus
    for name in builtin:
        ruleset = reg.load_ruleset(name)
        for size in range(ruleset.players.min, min(ruleset.players.max, 6) + 1):
            for lineup in LINEUPS:
                players = [lineup[i % len(lineup)] for i in range(size)]
                for seed in SEEDS:
                    yield f"{name}/{size}/{'-'.join(lineup)}/{seed}", name, players, seed


def log_digest(name: str, players: list[str], seed: int) -> str:
    """The SHA-256 of the game log of one match, as `maumau play --log` writes it (JSON lines)."""
    from runner.game.events import GameLog
    from runner.plugins import registry
    from runner.table.match import Match
    from runner.table.referee import Referee

    reg = registry()

    def make_bot(player, seat, rng):
        options = {"rollouts": HARD_ROLLOUTS} if player == "hard" else {}
        return reg.bot(player).cls(rng=rng, **options)

    log = GameLog()  # as a tournament keeps it: the engine's records, each event's dict made when read
    Match(reg.load_ruleset(name), players, seed, make_bot, match_id=f"golden-{seed}",
          referee=Referee(seed=seed), log=log, ruleset_name=name).run()
    text = "".join(json.dumps(event, separators=(",", ":")) + "\n" for event in log)
    return hashlib.sha256(text.encode()).hexdigest()


def compute() -> dict[str, str]:
    return {key: log_digest(name, players, seed) for key, name, players, seed in cases()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="record the digests (otherwise compare)")
    args = parser.parse_args()
    digests = compute()
    if args.write:
        DIGESTS.write_text(json.dumps(digests, indent=1, sort_keys=True) + "\n")
        print(f"wrote {len(digests)} digests to {DIGESTS}")
        return
    stored = json.loads(DIGESTS.read_text())
    changed = sorted(key for key in stored.keys() | digests.keys() if stored.get(key) != digests.get(key))
    print(f"{len(digests) - len(changed)} of {len(digests)} logs unchanged")
    for key in changed:
        print(f"changed: {key}")
    sys.exit(1 if changed else 0)


if __name__ == "__main__":
    main()
