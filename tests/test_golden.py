"""The golden corpus (tests/golden/corpus.py): every built-in ruleset at every table size gives the recorded logs."""

import json

from golden.corpus import DIGESTS, compute


def test_every_log_of_the_corpus_is_unchanged():
    stored = json.loads(DIGESTS.read_text())
    digests = compute()
    assert digests.keys() == stored.keys()
    changed = sorted(key for key in stored if stored[key] != digests[key])
    assert not changed, f"{len(changed)} of {len(stored)} logs changed, e.g. {changed[:5]}"
