"""Seeds: a bot's generator tells nothing about the deal, and the default seed is random, printed and stored.

The attack: an isolated bot is sent its generator's full state. Python's Mersenne Twister seeding
(`init_by_array`) can be run backwards, so the state gives back the seed it was made from; if that
seed names the match seed, the bot can shuffle every round of the match itself.
"""

import gzip
import json
import random
import re
from pathlib import Path

from runner.table.match import bot_rng
from runner.tournament import driver
from runner.tournament.driver import stored_seed
from support.console import maumau
from support.tournaments import Interrupting

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


SEED_LINE = re.compile(r"seed: (\d+) \(chosen at random; --seed \1 plays the same (match|tournament|test) again\)\n")
PLAY = ["play", "-r", "strafpunten", "-b", "random", "-b", "random", "--format", "json"]
TOURNAMENT = ["tournament", "-r", "strafpunten", "-b", "random", "-b", "random", "--deals", "2", "--backend", "serial",
              "--format", "json"]


def printed_seed(err: str) -> int:
    found = SEED_LINE.findall(err)
    assert len(found) == 1, err
    return int(found[0][0])


def deals_of(log: Path) -> list:
    return [event["hands"] for event in map(json.loads, log.read_text().splitlines()) if event["type"] == "round_start"]


def test_play_without_a_seed_deals_at_random_and_the_printed_seed_plays_it_again(capsys, monkeypatch, tmp_path):
    runs = [maumau(capsys, monkeypatch, *PLAY, "--log", tmp_path / f"{n}.jsonl") for n in range(2)]
    assert [code for code, _, _ in runs] == [0, 0]
    seeds = [printed_seed(err) for _, _, err in runs]
    assert seeds[0] != seeds[1] and deals_of(tmp_path / "0.jsonl") != deals_of(tmp_path / "1.jsonl")
    code, again, err = maumau(capsys, monkeypatch, *PLAY, "--log", tmp_path / "again.jsonl", "--seed", seeds[0])
    assert code == 0 and not SEED_LINE.search(err)
    assert again == runs[0][1] and (tmp_path / "again.jsonl").read_bytes() == (tmp_path / "0.jsonl").read_bytes()


def test_play_quiet_prints_only_the_final_totals(capsys, monkeypatch):
    """`maumau play -q`, as the common options promise (docs: Commands): no seed line, no narration, the final table."""
    table = ["play", "-r", "strafpunten", "-b", "random", "-b", "random"]
    code, out, err = maumau(capsys, monkeypatch, *table, "-q")
    assert code == 0 and err == "" and out.splitlines()[0].split()[:3] == ["seat", "player", "total"]
    code, whole, _ = maumau(capsys, monkeypatch, *table, "--seed", "5")
    code, quiet, _ = maumau(capsys, monkeypatch, *table, "--seed", "5", "--quiet")
    assert code == 0 and whole.endswith(quiet) and len(quiet) < len(whole)


def test_a_tournament_without_a_seed_deals_at_random_and_the_printed_seed_plays_it_again(capsys, monkeypatch,
                                                                                          tmp_path):
    runs = [maumau(capsys, monkeypatch, *TOURNAMENT, "--out", tmp_path / name) for name in ("a", "b")]
    seeds = [printed_seed(err) for _, _, err in runs]
    assert seeds[0] != seeds[1] and stored_seed(tmp_path / "a") == seeds[0] and stored_seed(tmp_path / "b") == seeds[1]
    assert logs_of(tmp_path / "a") != logs_of(tmp_path / "b")
    code, again, _ = maumau(capsys, monkeypatch, *TOURNAMENT, "--out", tmp_path / "again", "--seed", seeds[0])
    assert (code, again) == (0, runs[0][1]) and logs_of(tmp_path / "again") == logs_of(tmp_path / "a")
    # --quiet says nothing, the seed is stored all the same
    code, quiet, err = maumau(capsys, monkeypatch, *TOURNAMENT, "--out", tmp_path / "quiet", "-q")
    assert (code, err) == (0, "") and stored_seed(tmp_path / "quiet") not in (None, *seeds)
    code, _, note = maumau(capsys, monkeypatch, "standings", tmp_path / "quiet")  # and `standings` tells it
    assert code == 0 and f", seed {stored_seed(tmp_path / 'quiet')}: " in note.splitlines()[0]


def test_an_interrupted_tournament_resumes_with_its_stored_random_seed(capsys, monkeypatch, tmp_path):
    monkeypatch.setattr(driver, "make_backend", lambda *args: Interrupting(3))
    code, _, err = maumau(capsys, monkeypatch, *TOURNAMENT, "--out", tmp_path / "t")
    seed = printed_seed(err)
    monkeypatch.undo()
    _, whole, _ = maumau(capsys, monkeypatch, *TOURNAMENT, "--out", tmp_path / "whole", "--seed", seed)
    code, resumed, err = maumau(capsys, monkeypatch, "tournament", "--resume", tmp_path / "t", "--backend", "serial",
                                "--format", "json")
    assert (code, resumed) == (0, whole) and not SEED_LINE.search(err)
    assert logs_of(tmp_path / "t") == logs_of(tmp_path / "whole")
    # the whole command again, without --seed: the stored seed, not a new random one
    code, again, err = maumau(capsys, monkeypatch, *TOURNAMENT, "--out", tmp_path / "t", "--resume")
    assert (code, again) == (0, whole) and not SEED_LINE.search(err)
    code, _, err = maumau(capsys, monkeypatch, *TOURNAMENT, "--out", tmp_path / "t", "--resume", "--seed", seed + 1)
    assert code == 1 and "holds another tournament" in err


def test_an_extended_tournament_keeps_its_stored_random_seed(capsys, monkeypatch, tmp_path):
    code, _, err = maumau(capsys, monkeypatch, *TOURNAMENT, "--out", tmp_path / "t")
    seed = printed_seed(err)
    code, _, err = maumau(capsys, monkeypatch, "tournament", "--extend", tmp_path / "t", "-b", "easy", "--backend",
                          "serial", "--format", "json")
    assert code == 0 and not SEED_LINE.search(err) and stored_seed(tmp_path / "t") == seed
    # the new entrant's matches are seeded, table by table and deal by deal, from the stored seed
    three = [*TOURNAMENT[:5], "-b", "easy", *TOURNAMENT[5:], "--table-size", "2", "--seed", seed]
    maumau(capsys, monkeypatch, *three, "--out", tmp_path / "three")
    extended, fresh = match_seeds(tmp_path / "t"), match_seeds(tmp_path / "three")
    assert len(extended) == 12 and extended == fresh


def match_seeds(directory: Path) -> dict[str, int]:
    return {name: json.loads(log.split(b"\n", 1)[0])["seed"] for name, log in logs_of(directory).items()}


def test_an_ab_test_without_a_seed_stores_its_random_seed_and_resumes_with_it(capsys, monkeypatch, tmp_path):
    sprt = ["sprt", "-r", "standard-single", "easy", "random", "--max-deals", "4", "--backend", "serial",
            "--format", "json", "--out", tmp_path / "s"]
    code, verdict, err = maumau(capsys, monkeypatch, *sprt)
    seed = printed_seed(err)
    assert code == 0 and stored_seed(tmp_path / "s") == seed and SEED_LINE.search(err).group(2) == "test"
    code, resumed, err = maumau(capsys, monkeypatch, "sprt", "--resume", tmp_path / "s", "--format", "json")
    assert (code, resumed) == (0, verdict) and not SEED_LINE.search(err)


def logs_of(directory: Path) -> dict[str, bytes]:
    return {path.name: gzip.decompress(path.read_bytes()) for path in (directory / "logs").iterdir()}


def test_standings_and_replay_of_a_tournament_on_a_random_seed(capsys, monkeypatch, tmp_path):
    code, standings, err = maumau(capsys, monkeypatch, *TOURNAMENT, "--out", tmp_path / "nologs", "--no-logs")
    seed = printed_seed(err)
    code, stored, _ = maumau(capsys, monkeypatch, "standings", tmp_path / "nologs", "--format", "json")
    assert code == 0 and json.loads(stored) == json.loads(standings)
    # without logs a match is re-played from the stored seed: the match that run with that seed logged
    code, replayed, note = maumau(capsys, monkeypatch, "replay", tmp_path / "nologs", "--match", "t0-d1-r1")
    assert code == 0 and "re-played from its seed" in note
    maumau(capsys, monkeypatch, *TOURNAMENT, "--out", tmp_path / "logged", "--seed", seed)
    _, logged, _ = maumau(capsys, monkeypatch, "replay", tmp_path / "logged", "--match", "t0-d1-r1")
    assert replayed == logged
