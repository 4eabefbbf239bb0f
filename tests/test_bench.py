"""The benchmark scripts run end to end on a tiny budget and report what they measured (no timing asserted)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"
sys.path.insert(0, str(BENCH))

import measure  # noqa: E402
import peers  # noqa: E402
import rollouts  # noqa: E402


def test_markdown_table_aligns_every_column():
    table = measure.markdown(["row", "n"], [["a", "1"], ["long name", "1,000"]])
    lines = table.splitlines()
    assert lines[1] == "| --------- | ----: |"
    assert lines[3] == "| long name | 1,000 |"
    assert len({len(line) for line in lines}) == 1


def test_measure_alternates_and_keeps_one_rate_per_run():
    calls = []

    def player(name):
        def play(seconds):
            calls.append(name)
            return 2, 10, 0.5  # 2 games, 10 decisions, in half a second

        return play

    contenders = [measure.Contender(name, 2, player(name)) for name in "abc"]
    measure.measure(contenders, runs=3, seconds=0.01, warmup=0)
    assert calls == list("abc" "bca" "cab")
    assert all(c.decisions == [20.0] * 3 and c.games == [4.0] * 3 and c.decisions_per_game == 5 for c in contenders)


def test_peers_without_peers_reports_our_rows(tmp_path, capsys):
    out = tmp_path / "results.md"
    assert peers.main(["--no-peers", "--runs", "1", "--seconds", "0.02", "--players", "2", "--logs", "off,memory",
                       "--out", str(out)]) == 0
    text = out.read_text()
    assert text == capsys.readouterr().out
    rows = {
        m.group(1): m.groups()[1:]
        for m in re.finditer(r"^\| (\S+ 2p(?:, log)?) +\| +2 \| +([\d.,]+) \| +([\d,]+) \|", text, re.M)
    }
    assert set(rows) == {"standard-single 2p", "standard-single 2p, log", "strafpunten 2p", "strafpunten 2p, log"}
    per_game = {name: float(values[0].replace(",", "")) for name, values in rows.items()}
    assert per_game["standard-single 2p"] > 10 and per_game["strafpunten 2p"] > per_game["standard-single 2p"]


def test_the_unseeded_bound_plays_on_one_set_of_generators_and_puts_the_seeding_back():
    import runner.table.match as match_module
    from runner.plugins import registry
    from runner.table.play import make_bot_factory

    reg = registry()
    seeding = match_module.match_generators
    made = []

    def counted(seed, seats):
        made.append(seed)
        return seeding(seed, seats)

    match_module.match_generators = counted
    try:
        bound = peers.unseeded_contenders(reg, make_bot_factory(reg), (2,))
        assert [c.name for c in bound] == [f"{name} 2p, generators seeded once (bound)" for name in peers.OUR_RULESETS]
        assert made == ["unseeded"] * 2  # one set of generators a row, made before any match
        games, decisions, _ = bound[0].play(0.02)
        assert games >= 1 and decisions > 10 * games and made == ["unseeded"] * 2  # no match seeded its own
        assert match_module.match_generators is counted  # put back after each match
    finally:
        match_module.match_generators = seeding


def test_rollout_states_are_mid_game_and_playouts_finish_them():
    from support.scenario import load

    states = rollouts.mid_game_states(load("standard"), 3)
    assert len(states) == rollouts.STATES and not any(state.over for state in states)
    assert all(state.turns == 8 for state in states)
    copy = states[0].clone(rollouts.random.Random(1))
    decisions = rollouts.random_playout(copy, rollouts.random.Random(1))
    assert copy.over and decisions == copy.turns - states[0].turns and not states[0].over


def test_hard_cpu_compares_the_paths_and_checks_the_same_choices():
    done = subprocess.run([sys.executable, str(BENCH / "hard_cpu.py"), "--matches", "1", "--rulesets",
                           "standard-single", "--rollouts", "4", "--paths", "compiled,pure", "--runs", "2"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "pure ÷ compiled, median decision: " in done.stdout
    assert "hard's choices: the same on every path and run." in done.stdout
    assert "- pure (pure Python (MAUMAU_PURE=1))" in done.stdout


def test_hard_cpu_reports_the_cpu_time_of_searched_decisions():
    import hard_cpu

    times = hard_cpu.searched_cpu_times(["standard-single"], 1)
    assert times == sorted(times) and all(t >= 0 for t in times)
    assert re.fullmatch(r"(\d+ searched decisions of hard, CPU time: median [\d.]+ ms, 99th percentile \d+ ms, "
                        r"largest \d+ ms \(load average [\d.]+\)|no searched decisions)", hard_cpu.report(times))


def test_rollouts_gives_the_kernel_rows_with_their_ratio_to_the_python_playout(capsys):
    assert rollouts.main(["--runs", "1", "--seconds", "0.01"]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if "simulate.rollout(" in line]
    assert len(rows) == 2 * 4  # both policies, every ruleset and table size
    assert all(re.search(r"\| +\d+\.\d \|$", row) for row in rows)


def test_instructions_gives_the_instructions_per_decision_of_each_row():
    if shutil.which("valgrind") is None:
        pytest.skip("valgrind is not installed")
    done = subprocess.run([sys.executable, str(BENCH / "instructions.py"), "--matches", "1",
                           "--rulesets", "standard-single"], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    found = re.search(r"standard-single 4p\s+([\d,]+) instructions per decision \((\d+) decisions\)", done.stdout)
    assert found and int(found.group(1).replace(",", "")) > 1000 and int(found.group(2)) > 0, done.stdout


def test_the_timed_instruction_count_plays_the_same_matches_as_the_untimed():
    import cachegrind

    timed = cachegrind.play("memory", "standard-single", 3, move_time=1.0)
    assert timed == cachegrind.play("memory", "standard-single", 3)


def test_the_instruction_counts_play_the_same_matches_whatever_they_do_with_the_log():
    import cachegrind

    decisions = {mode: cachegrind.play(mode, "standard-single", 3) for mode in cachegrind.MODES}
    assert len(set(decisions.values())) == 1 and decisions["off"] > 0, decisions


def test_hard_vs_medium_plays_further_deals_from_first_deal():
    import random

    import hard_vs_medium

    from maumau.bots.random_bot import RandomBot
    from runner.plugins import registry

    ruleset = registry().load_ruleset("standard")

    def make(rng: random.Random) -> RandomBot:
        return RandomBot(rng=rng)

    three, _ = hard_vs_medium.measure(ruleset, make, 3)
    third, _ = hard_vs_medium.measure(ruleset, make, 1, first=2)
    assert third == three[8:] and third != three[:4]  # four seats a deal: deal 2, not deal 0 again


def test_the_openspiel_count_plays_the_games_of_the_peers_row():
    pytest.importorskip("pyspiel")  # the bench extra
    import cachegrind

    # seeded as bench/peers.py seeds its row, the same games each time: the count's own run and valgrind's agree
    assert cachegrind.play_openspiel(3, count=True) == cachegrind.play_openspiel(3, count=True) > 3 * 20


def test_commands_times_each_command_as_a_whole_process_beside_the_floor():
    done = subprocess.run([sys.executable, str(BENCH / "commands.py"), "--runs", "1", "--scale", "0.002",
                           "--no-openspiel"], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    rows = {m.group(1).strip(): m.group(2) for m in re.finditer(r"^\| ([^|]+)\| +([\d,]+) \|", done.stdout, re.M)}
    # one deal, four seatings: as many matches as the start-up, no cost past it
    assert rows["strafpunten, defaults (--workers 1)"] == rows["strafpunten --no-logs"] == "4"
    assert rows["standard-single --no-logs"] == "12" and rows["start-up: standard-single --deals 1 --no-logs"] == "4"
    assert rows["floor: Match.run() loop, standard-single, log"] == "12"
    assert "OpenSpiel: not installed, left out." in done.stdout
    assert re.search(r"^\| standard-single --no-logs .*µs \| +-?[\d.]+ \|", done.stdout, re.M), done.stdout


def test_the_log_archive_prototype_keeps_each_log_where_its_index_says(tmp_path):
    import gzip

    import commands

    logs = commands.archive_logs("standard-single", 3)
    (tmp_path / "logs").mkdir()
    index = commands.store_archive(tmp_path, logs)
    archive = next((tmp_path / "logs").iterdir()).read_bytes()
    assert gzip.decompress(archive) == b"".join(gzip.decompress(log) for log in logs)  # one gzip stream, zcat reads it
    assert [archive[offset:offset + length] for offset, length, _ in index.values()] == logs
    commands.store_files(tmp_path, logs)
    assert sorted(path.name for path in (tmp_path / "logs").glob("*.jsonl.gz")) == [
        f"t0-d{n}-r0.jsonl.gz" for n in range(3)]
    report = commands.archive_report("standard-single", 2, 1, tmp_path / "runs")
    assert re.search(r"^\| files +\| +[\d.,]+ µs \|", report, re.M) and "| archive " in report


def test_commands_openspiel_child_plays_the_special_cards_configuration():
    pytest.importorskip("pyspiel")  # the bench extra
    import commands

    games, decisions = commands.openspiel_child(3)
    assert games == 3 and decisions > 3 * 10 and commands.openspiel_child(3) == (games, decisions)  # seeded
