"""The ruleset fuzzer (`maumau rulesets fuzz`): random house-rule files over every key of the schema, each
checked as `rulesets check` does, played for a few matches, and every log verified.

`draw_ruleset(rng)` writes a file's keys: it extends a built-in ruleset and sets a random few of the
keys of runner/rules/ruleset.schema.json, each from `VALUES` (values a designer might write, one
pool per key; `schema_keys()` lists the schema's keys, and tests/test_fuzz.py holds the two lists
equal, so that a key added to the schema is drawn too). `fuzz_file` checks the file and plays its
matches through `play_match` (runner/table/play.py), as `maumau play -r FILE --seed S` does, so
that each failure is reproduced by the command it is reported with; a match's log must pass
`verify` (runner/logs/verify.py). `fuzz(count, seed)` does so for `count` files; `engine='both'`
runs the same files again in a process on the pure Python engine (`MAUMAU_PURE=1`,
runner/accel.py) and holds the two paths' logs equal, byte for byte.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

import yaml

from runner.errors import MaumauError
from runner.rules.overrides import apply_overrides

BASES = ("standard", "strafpunten", "elimination")
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SELECTORS = RANKS + ("KH", "QS", "JC JS", "2, 3", "AH AS", "7D", "X")
BOTS = ("random", "random", "medium")

# One pool of values per key of the schema (`powers.*.KEY`: a key of a power under any selector).
POWER_VALUES: dict[str, tuple] = {
    "draw": (0, 1, 2, 3, 5), "stack": (True, False), "chain_limit": (None, 0, 1, 2),
    "skip": (0, 1, 2), "reverse": (True, False), "wild": (True, False), "wild_on_wild": (True, False),
    "play_again": (True, False), "others_draw": (0, 1, 2), "skip_others": (True, False),
    "stack_with": ([2, 3], ["X"], [7, "KH"], ["A"]), "stack_match": (True, False), "ends_turn": (True, False),
    "target": ("next", "previous"), "cancels": (True, ["JC JS"], [7]), "returns": (True, [2], ["X"]),
    "skip_stack": ("none", "pass", "add"), "skip_with": ([9], ["QS"], ["A"]),
    "wish": ("suit", "rank", "none"), "wish_binds": (1, 2, 3), "wish_ranks": (None, ["7", "8"], ["A", "K", "Q"]),
    "wild_follows_suit": (True, False), "wild_last_resort": (True, False), "free": (True, False),
    "self_draw": (0, 1, 2), "next_rank": (None, "at_most", "at_least"), "pass_hands": (True, False),
    "swap_hands": (None, "next", "choose"), "show_next": (True, False), "give": (0, 1, 2), "take": (0, 1, 2),
}
OPTION_VALUES: dict[str, tuple] = {
    "players.min": (2, 3), "players.max": (4, 5, 6),
    "deck.ranks": ("full", "skat", ["7", "8", "9", "10", "J", "Q", "K", "A", "2"]), "deck.copies": (1, 2),
    "deck.copies_by_players": ({}, {4: 2}, {5: 2}), "deck.jokers": (0, 2, 3),
    "deck.jokers_by_players": ({}, {4: 3}), "deck.ranks_by_players": ({}, {5: "full"}),
    "hand_size": (1, 2, 3, 5, 7), "hand_size_by_players": ({}, {4: 4}, {3: 3, 5: 2}),
    "deal.dealer_rotation": (-1, 0, 1, 2), "deal.first_player": (-2, -1, 0, 1, 2),
    "deal.initial_direction": (1, -1), "deal.next_dealer": ("rotate", "loser", "winner"),
    "deal.reset_direction": (True, False),
    "upcard.flip_while_action": (True, False), "upcard.effects": ("none", "as_dealer_play", "to_dealer"),
    "upcard.dealer_names_suit": (True, False),
    "powers_by_players": ({}, {2: {"A": {"play_again": True}}}, {3: {"9": {"reverse": True, "skip": 1}}},
                          {4: {"4": {"skip_others": True, "show_next": True}}}),
    "drawing.when": ("stuck", "any"), "drawing.drawn_card": ("play_or_keep", "keep", "must_play", "go_on"),
    "drawing.until_playable": (True, False), "drawing.max": (None, 1, 3), "drawing.reshuffle": (True, False),
    "announcements.mau.required": (True, False), "announcements.mau.penalty": (0, 1, 2),
    "announcements.mau.false_penalty": (0, 1, 2), "announcements.maumau.required": (True, False),
    "announcements.maumau.penalty": (0, 2), "announcements.maumau.false_penalty": (0, 2),
    "announcements.enforcement": ("referee", "challenge"),
    "last_card_draws": (True, False),
    "points": ({"X": 25}, {"J": 20, "X": 50}, {"A": 1, "X": 20}),
    "going_out.forbidden": ((), ["J"], [8, "X"]), "going_out.only": ((), ["Q", "K", "A", "10", "9"]),
    "going_out.follow_suit": (True, False), "going_out.last_only": ((), [9], ["QS", "A"]),
    "going_out_by_players": ({}, {2: {"forbidden": [2, 3]}}, {3: {"last_only": [8], "follow_suit": True}}),
    "scoring.count": ("points", "cards", "flat"), "scoring.multiplier": ({}, {"J": 2}, {"QS": 3, "A": 2}),
    "scoring.round_to": (1, 5, 10), "scoring.minimum": (0, 5, 20), "scoring.winner_collects": (True, False),
    "scoring.alone": ({}, {"J": 20, "JS": 40}), "scoring.winner_scores": ({}, {"J": -20, "QS": 5}),
    "scoring.highest_only": (True, False), "scoring.blocked": ("hands", "difference"),
    "multiple.same_rank": (True, False), "multiple.runs": ("none", "up", "down", "both"), "multiple.run_min": (2, 3),
    "multiple.chain": (True, False), "multiple.chain_max": (None, 2, 3), "multiple.suit_with": ((), ["KH"], ["Q"]),
    "multiple.power": ("last", "each"),
    "round.play_on": (True, False), "round.hand_limit": (None, 9, 15), "jump_in": ("none", "identical", "same_rank"),
    "match.format": ("single", "limit", "elimination", "target", "rounds", "wins"), "match.limit": (30, 60, 100),
    "match.tie_break": ("rounds_won", "deciding_round"), "match.max_deciding_rounds": (1, 2),
    "match.table_changes": (True, False), "match.rounds": (2, 3), "match.wins": (1, 2),
    "match.max_rounds": (1, 2, 4), "match.exact_totals": ({}, {20: 0, 50: 25}),
    "turn_limit": (60, 200, 600),
}
# Keys no file needs drawn: who the file is and what it extends (every drawn file extends one of BASES).
UNDRAWN = frozenset({"name", "description", "extends"})


def schema_keys() -> set[str]:
    """Every key of runner/rules/ruleset.schema.json, dotted; `powers.*.KEY` for the keys of a power."""
    from runner.rules.schema import json_schema

    schema = json_schema()
    defs = schema["$defs"]
    keys: set[str] = set()

    def walk(node: dict, prefix: str) -> None:
        if "$ref" in node:
            node = defs[node["$ref"].rsplit("/", 1)[1]]
        properties = node.get("properties")
        if properties:
            for name, sub in properties.items():
                walk(sub, f"{prefix}{name}.")
        elif prefix == "powers.":
            walk(node["additionalProperties"], "powers.*.")
        else:
            keys.add(prefix[:-1])

    walk(schema, "")
    return keys


def drawn_keys() -> set[str]:
    return set(OPTION_VALUES) | {f"powers.*.{key}" for key in POWER_VALUES} | set(UNDRAWN)


def draw_ruleset(rng: random.Random, name: str = "fuzzed") -> dict:
    """A random house-rule file (as the mapping a YAML file holds): a built-in ruleset and some of every key."""
    changes: dict[str, Any] = {}
    for _ in range(rng.randint(1, 6)):
        selector = rng.choice(SELECTORS)
        for key in rng.sample(sorted(POWER_VALUES), rng.randint(1, 3)):
            changes[f"powers.{selector}.{key}"] = rng.choice(POWER_VALUES[key])
    share = rng.choice((0.05, 0.15, 0.3))
    for key, values in OPTION_VALUES.items():
        if rng.random() < share:
            changes[key] = rng.choice(values)
    _complete(changes)
    data = apply_overrides({"extends": rng.choice(BASES), "name": name}, changes)
    data["description"] = "A ruleset drawn by maumau rulesets fuzz."
    return data


def _complete(changes: dict) -> None:
    """Complete a drawn file as its writer would, so that most pass `rulesets check`: a wish needs a wild card,
    an answer to a draw a draw, a joker a point value; every match short."""
    for key in [key for key in changes if key.startswith("powers.")]:
        _, selector, name = key.split(".", 2)
        power = f"powers.{selector}"
        if name in ("stack", "stack_with", "stack_match", "ends_turn", "target", "chain_limit") \
                and not changes.get(f"{power}.draw"):
            changes[f"{power}.draw"] = 2
        if name in ("skip_stack", "skip_with") and not changes.get(f"{power}.skip"):
            changes[f"{power}.skip"] = 1
        if name in ("wish", "wish_binds", "wish_ranks", "wild_follows_suit", "wild_last_resort", "wild_on_wild"):
            changes[f"{power}.wild"] = True
        if name in ("wish_binds", "wish_ranks") and changes.get(f"{power}.wish") in ("none", None):
            changes[f"{power}.wish"] = "rank" if name == "wish_ranks" else "suit"
        if name == "wish_ranks" and changes.get(f"{power}.wish") != "rank":
            changes[f"{power}.wish_ranks"] = None
    if any("X" in str(value) or ".X." in key for key, value in changes.items()) or changes.get("deck.jokers") \
            or changes.get("deck.jokers_by_players"):
        changes["deck.jokers"] = changes.get("deck.jokers") or 2
        changes["points.X"] = 25
    if changes.get("drawing.max"):
        changes["drawing.until_playable"] = True
    fmt = changes.get("match.format")
    if fmt in ("rounds", "wins"):
        changes.setdefault(f"match.{fmt}", 2)
    if fmt == "target":
        changes["scoring.winner_collects"] = True
    elif changes.get("scoring.winner_collects") and fmt not in (None, "single"):
        changes["scoring.winner_collects"] = False
    if changes.get("scoring.winner_collects") and fmt is None:
        changes["match.format"] = "target"
    changes["match.max_rounds"] = min(changes.get("match.max_rounds") or 4, 4)
    changes["turn_limit"] = min(changes.get("turn_limit") or 600, 600)
    if changes.get("multiple.chain") and not changes.get("multiple.chain_max"):  # every set: hands kept small
        changes["round.hand_limit"] = min(changes.get("round.hand_limit") or 12, 12)


@dataclass
class Failure:
    """A file whose check, play or log failed: what and the command that shows it."""

    file: Path
    what: str
    command: str


@dataclass
class Report:
    files: int = 0
    refused: int = 0  # refused by rulesets check: keys that contradict each other
    matches: int = 0
    failures: list[Failure] = field(default_factory=list)
    digests: dict[str, str] = field(default_factory=dict)  # "file index/seed": the log's SHA-256


def fuzz_file(path: Path, rng: random.Random, matches: int, report: Report, key: str, pure: bool = False) -> None:
    """Check one file as `rulesets check` does, play `matches` matches of it and verify every log."""
    from runner.logs.verify import verify
    from runner.plugins import registry
    from runner.table.play import play_match

    reg = registry()
    try:
        ruleset, _ = reg.check_ruleset(str(path))
    except MaumauError:
        report.refused += 1
        return
    env = "MAUMAU_PURE=1 " if pure else ""
    for _ in range(matches):
        sizes = [size for size in ruleset.playable_sizes() if size <= 5] or ruleset.playable_sizes()
        size = sizes[rng.randint(0, len(sizes) - 1)]  # the draws of randint(players.min, ...) where all play
        players = [rng.choice(BOTS) for _ in range(size)]
        seed = rng.randrange(10**6)
        bots = " ".join(f"-b {bot}" for bot in players)
        command = f"{env}maumau play -r {path} {bots} --seed {seed} --log L.jsonl && {env}maumau verify L.jsonl"
        report.matches += 1
        try:
            _, log = play_match(str(path), players, seed, {}, with_log=True)
            verify(log)
        except MaumauError as exc:
            report.failures.append(Failure(path, str(exc).splitlines()[0], command))
            return
        except Exception as exc:  # noqa: BLE001  # an engine crash is a finding too, reported with its command
            report.failures.append(Failure(path, f"{type(exc).__name__}: {exc}", command))
            return
        text = "".join(json.dumps(event, separators=(",", ":")) + "\n" for event in log)
        report.digests[f"{key}/{seed}"] = hashlib.sha256(text.encode()).hexdigest()


def files(count: int, seed: int, folder: Path) -> Iterator[tuple[int, Path, random.Random]]:
    """The `count` files of a run, written to `folder` (fuzz-SEED-INDEX.yaml), each with its own generator."""
    folder.mkdir(parents=True, exist_ok=True)
    for index in range(count):
        rng = random.Random(f"{seed}/{index}")
        name = f"fuzz-{seed}-{index}"
        path = folder / f"{name}.yaml"
        path.write_text(yaml.safe_dump(draw_ruleset(rng, name), sort_keys=False))
        yield index, path, rng


def fuzz(count: int, seed: int, folder: Path, matches: int = 3, engine: str = "both",
         progress: Callable[[int, Report], None] | None = None) -> Report:
    """Draw, check and play `count` files (see the module's docstring); failing files stay in `folder`.

    `engine`: `here` (the path this process runs), `pure` (the same, in a process on the pure engine)
    or `both` (here, then pure, the logs of the two compared).
    """
    report = Report()
    if engine != "pure":
        pure = os.environ.get("MAUMAU_PURE") == "1"
        for index, path, rng in files(count, seed, folder):
            report.files += 1
            fuzz_file(path, rng, matches, report, str(index), pure=pure)
            if progress is not None:
                progress(index, report)
    if engine in ("pure", "both"):
        other = _pure_run(count, seed, folder, matches)
        if engine == "pure":
            report = other
        else:
            report.failures += [failure for failure in other.failures
                                if failure.file not in {seen.file for seen in report.failures}]
            for key, digest in report.digests.items():
                theirs = other.digests.get(key)
                if theirs is not None and theirs != digest:
                    index, match_seed = key.split("/")
                    path = folder / f"fuzz-{seed}-{index}.yaml"
                    report.failures.append(Failure(
                        path, "the compiled and the pure engine write different logs",
                        f"maumau play -r {path} ... --seed {match_seed} --log A.jsonl; "
                        f"MAUMAU_PURE=1 maumau play ... --log B.jsonl; cmp A.jsonl B.jsonl"))
    failing = {failure.file for failure in report.failures}
    for index in range(count):  # only the failing files are kept
        path = folder / f"fuzz-{seed}-{index}.yaml"
        if path not in failing and path.exists():
            path.unlink()
    return report


def _pure_run(count: int, seed: int, folder: Path, matches: int) -> Report:
    """The same files played in a child process on the pure Python engine."""
    env = dict(os.environ, MAUMAU_PURE="1")
    out = subprocess.run([sys.executable, "-m", "runner.botkit.fuzz", str(count), str(seed), str(folder), str(matches)],
                         env=env, capture_output=True, text=True, check=False)
    if out.returncode != 0:
        raise MaumauError(f"the pure engine's run failed: {(out.stderr.strip().splitlines() or ['?'])[-1]}")
    data = json.loads(out.stdout)
    report = Report(data["files"], data["refused"], data["matches"], digests=data["digests"])
    report.failures = [Failure(Path(f["file"]), f["what"], f["command"]) for f in data["failures"]]
    return report


def main(argv: list[str]) -> None:
    """`python -m runner.botkit.fuzz COUNT SEED FOLDER MATCHES`: a run on this process's path, as JSON (for `fuzz`)."""
    count, seed, folder, matches = int(argv[0]), int(argv[1]), Path(argv[2]), int(argv[3])
    report = Report()
    for index, path, rng in files(count, seed, folder):
        report.files += 1
        fuzz_file(path, rng, matches, report, str(index), pure=os.environ.get("MAUMAU_PURE") == "1")
    print(json.dumps({"files": report.files, "refused": report.refused, "matches": report.matches,
                      "digests": report.digests,
                      "failures": [{"file": str(f.file), "what": f.what, "command": f.command}
                                   for f in report.failures]}))


if __name__ == "__main__":
    main(sys.argv[1:])
