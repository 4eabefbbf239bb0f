"""The golden corpus (tests/golden/corpus.py): every built-in ruleset at every table size gives the recorded logs."""

import json

from golden.corpus import DIGESTS, compute


def test_every_log_of_the_corpus_is_unchanged():
    stored = json.loads(DIGESTS.read_text())
    digests = compute()
    assert digests.keys() == stored.keys()
    changed = sorted(key for key in stored if stored[key] != digests[key])
    assert not changed, f"{len(changed)} of {len(stored)} logs changed, e.g. {changed[:5]}"


def test_the_general_path_gives_the_corpus_logs_too(monkeypatch):
    """The path of the house rules (runner/game/house_rules.py) plays today's rules as the fast path does."""
    from golden.corpus import cases, log_digest
    from runner.game.tables import Game

    monkeypatch.setattr("runner.game.tables._needs_general", lambda game, ruleset, with_power: True)
    monkeypatch.setattr("runner.game.ruleset._DERIVED", {})  # nothing compiled before counts
    from runner.plugins import registry

    assert Game.of(registry().load_ruleset("standard")).general  # a ruleset loaded now compiles anew
    stored = json.loads(DIGESTS.read_text())
    chosen = [(key, name, players, seed) for key, name, players, seed in cases()
              if "/random/" in key and len(players) in (2, 4) and seed == 1]
    assert len(chosen) >= 30
    changed = [key for key, name, players, seed in chosen if log_digest(name, players, seed) != stored[key]]
    assert not changed, f"{len(changed)} of {len(chosen)} logs changed, e.g. {changed[:5]}"
