"""Seeds: a bot's generator tells nothing about the deal, and the default seed is random, printed and stored.

The attack: an isolated bot is sent its generator's full state. Python's Mersenne Twister seeding
(`init_by_array`) can be run backwards, so the state gives back the seed it was made from; if that
seed names the match seed, the bot can shuffle every round of the match itself.
"""

import random
import re

from console import maumau
from runner.table.match import bot_rng
from runner.tournament.store import Store

MASK = 0xFFFFFFFF


def seed_behind(state: tuple) -> str:
    """The string a freshly seeded `random.Random(text)` was made from, read back from its state."""
    mt = list(state[1][:624])
    start = [19650218]  # init_genrand(19650218): where init_by_array begins
    for i in range(1, 624):
        start.append((1812433253 * (start[i - 1] ^ (start[i - 1] >> 30)) + i) & MASK)
    # undo the second loop of init_by_array (it ran over i = 2..623, then i = 1 with mt[0] = mt[623])
    before = [0] * 624
    for i in range(623, 2, -1):
        before[i] = ((mt[i] + i) & MASK) ^ (((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941) & MASK)
    # the first loop's step i (3..623) added key[j] + j, j = (i - 1) mod the key's length
    sums = [(before[i] - (start[i] ^ (((before[i - 1] ^ (before[i - 1] >> 30)) * 1664525) & MASK))) & MASK
            for i in range(4, 624)]  # sums[t] belongs to step t + 3 (before[2] is unknown: leave it out)
    for length in range(1, 200):
        words = {}
        if all(words.setdefault((t + 3) % length, (s - (t + 3) % length) & MASK) == (s - (t + 3) % length) & MASK
               for t, s in enumerate(sums)) and len(words) == length:
            key = sum(words[j] << (32 * j) for j in range(length))
            data = key.to_bytes((key.bit_length() + 7) // 8, "big")
            return data[:-64].decode()  # the text, then its SHA-512 (random.seed, version 2)
    raise AssertionError("not a generator seeded from a string")


def test_the_inversion_reads_back_a_seed():
    assert seed_behind(random.Random("1234:seat:0").getstate()) == "1234:seat:0"


def test_a_bots_generator_state_names_no_match_seed():
    match_seed = 6086305739457036521
    behind = seed_behind(bot_rng(match_seed, 1).getstate())
    assert random.Random(behind).getstate() == bot_rng(match_seed, 1).getstate()  # the inversion holds
    assert str(match_seed) not in behind
    # ...so no number in it gives the generator that shuffles the match's rounds (runner/table/match.py)
    deal = random.Random(f"{match_seed}:deal").getstate()
    assert all(random.Random(f"{guess}:deal").getstate() != deal for guess in re.findall(r"\d+", behind))


SEED_LINE = re.compile(r"seed (\d+) \(chosen at random; --seed \1 plays the same (match|tournament) again\)")


def test_play_without_a_seed_takes_a_random_one_and_says_which(capsys, monkeypatch):
    runs = [maumau(capsys, monkeypatch, "play", "-r", "strafpunten", "-b", "random", "-b", "random", "--format",
                   "json") for _ in range(2)]
    seeds = [int(SEED_LINE.search(err).group(1)) for code, _, err in runs if code == 0]
    assert len(set(seeds)) == 2
    code, again, _ = maumau(capsys, monkeypatch, "play", "-r", "strafpunten", "-b", "random", "-b", "random",
                            "--format", "json", "--seed", seeds[0])
    assert code == 0 and again == runs[0][1]


def test_a_tournament_stores_its_random_seed_and_resumes_without_it(capsys, monkeypatch, tmp_path):
    options = ["tournament", "-r", "strafpunten", "-b", "random", "-b", "random", "--deals", "2", "--workers", "1",
               "-q", "--format", "json", "--out", tmp_path / "t"]
    code, standings, err = maumau(capsys, monkeypatch, *options)
    seed = int(SEED_LINE.search(err).group(1))
    store = Store.open(tmp_path / "t")
    try:
        assert code == 0 and store.config()["seed"] == seed
    finally:
        store.close()
    code, resumed, err = maumau(capsys, monkeypatch, *options, "--resume")
    assert (code, resumed) == (0, standings) and not SEED_LINE.search(err)
    code, _, err = maumau(capsys, monkeypatch, *options, "--resume", "--seed", seed + 1)
    assert code == 1 and "holds another tournament" in err
