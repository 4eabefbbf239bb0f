"""Tournaments: the schedule, seeds, backends giving equal bytes, resume after kill -9, --until-confident."""

import itertools
import math
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from runner.cli.standings import render_standings
from runner.errors import MaumauError
from runner.seats.faults import FaultSettings
from runner.tournament.backends import Backend, ProcessBackend, SerialBackend
from runner.tournament.driver import conduct, run, standings_of
from runner.tournament.schedule import derive_seed, match_count, schedule, unit_of
from runner.tournament.settings import LATER, labels, plan
from runner.tournament.standings import sequential_z, wilson
from runner.tournament.store import DB_NAME, Store
from runner.tournament.work import MatchOutcome, SeatOutcome
from support.tournaments import alive, children, count

ROOT = Path(__file__).parent.parent


@pytest.mark.parametrize("entrants, k, deals", [(2, 2, 3), (3, 2, 2), (3, 3, 1), (4, 4, 2), (5, 3, 1), (6, 2, 1)])
def test_every_table_meets_over_every_deal_and_rotation(entrants, k, deals):
    settings = plan("strafpunten", ["random"] * entrants, deals=deals, table_size=k)
    slots = list(schedule(settings, range(deals)))
    assert len(slots) == math.comb(entrants, k) * deals * k == match_count(entrants, k, deals)
    assert len({s.match_id for s in slots}) == len(slots)
    meetings = Counter(frozenset(s.seats) for s in slots)
    assert set(meetings) == {frozenset(c) for c in itertools.combinations(range(entrants), k)}
    assert set(meetings.values()) == {deals * k}
    for (table, deal), group in itertools.groupby(slots, key=lambda s: (s.table, s.deal)):
        group = list(group)
        assert len({s.seed for s in group}) == 1  # duplicate deals: every rotation has the same shuffles
        for seat in range(k):  # and every entrant of the table sits in every seat once
            assert sorted(s.seats[seat] for s in group) == sorted(group[0].seats)
    assert len({s.seed for s in slots}) == math.comb(entrants, k) * deals


@pytest.mark.parametrize("k, deals", [(3, 2), (4, 6)])
def test_over_every_k_minus_1_factorial_deals_everyone_follows_everyone_equally(k, deals):
    settings = plan("strafpunten", ["random"] * k, deals=deals, table_size=k)
    follows = Counter(
        (s.seats[seat], s.seats[(seat + 1) % k]) for s in schedule(settings, range(deals)) for seat in range(k)
    )
    assert len(follows) == k * (k - 1) and len(set(follows.values())) == 1


def test_default_table_size_and_labels():
    assert plan("strafpunten", ["random"] * 5).table_size == 4
    assert plan("strafpunten", ["random"] * 3).table_size == 3
    assert labels(["random", "easy", "random"]) == ("random#1", "easy", "random#2")


@pytest.mark.parametrize("bots, k, message", [
    (["random", "nosuch"], None, "unknown bot 'nosuch'"),
    (["random"], None, "at least 2 entrants"),
    (["random"] * 3, 7, "outside the player range 2-6"),
    (["random"] * 3, 1, "outside the player range 2-6"),
    (["random"] * 3, 4, "needs at least 4 entrants"),
])
def test_bad_tournaments_are_refused(bots, k, message):
    with pytest.raises(MaumauError, match=message):
        plan("strafpunten", bots, table_size=k)


def test_match_seeds_are_stable_across_processes_and_hash_seeds():
    code = "from runner.tournament.schedule import derive_seed; print(derive_seed(7, 't3-d12'))"
    env = dict(os.environ, PYTHONHASHSEED="123")
    printed = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT)
    assert int(printed.stdout) == derive_seed(7, "t3-d12") != derive_seed(8, "t3-d12")


def test_work_units_are_plain_data_with_the_fault_settings():
    import pickle

    settings = plan(
        "strafpunten", ["random", "random"], deals=1, faults=FaultSettings(policy="autoplay", move_time=0.5)
    )
    unit = unit_of(settings, next(schedule(settings, range(1))))
    assert pickle.loads(pickle.dumps(unit)) == unit
    assert (unit.faults.policy, unit.faults.move_time, unit.ruleset["name"]) == ("autoplay", 0.5, "strafpunten")


def json_standings(tmp_path, name, backend, workers=None, **options):
    settings = plan("strafpunten", ["random", "random", "random"], deals=3, table_size=2, seed=5, **options)
    standings, _ = conduct(settings, tmp_path / name, False, backend, workers, quiet=True)
    return render_standings(standings, "json")


def test_standings_are_the_same_bytes_on_every_backend(tmp_path):
    serial = json_standings(tmp_path, "serial", "serial")
    assert json_standings(tmp_path, "one", "processes", 1) == serial
    assert json_standings(tmp_path, "two", "processes", 2) == serial
    logs = sorted((tmp_path / "serial" / "logs").iterdir())
    assert len(logs) == 3 * 3 * 2
    assert [p.read_bytes() for p in logs] == [(tmp_path / "two" / "logs" / p.name).read_bytes() for p in logs]


@pytest.mark.slow  # slow: a tournament in a process of its own, killed and resumed
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_tournament_killed_partway_resumes_to_the_uninterrupted_standings(tmp_path):
    options = ["-r", "strafpunten", "-b", "random", "-b", "random", "-b", "random", "--deals", "30",
               "--set", "match.limit=250", "--seed", "3", "--format", "json", "-q"]
    killed = tmp_path / "killed"
    command = [sys.executable, "-m", "runner.cli", "tournament", *options, "--workers", "2", "--out", str(killed)]
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while count(killed / DB_NAME) < 10 and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    workers = children(process.pid)
    process.send_signal(signal.SIGKILL)
    _, stderr = process.communicate()
    stored = count(killed / DB_NAME)
    assert len(workers) == 2 and 10 <= stored < 90, stderr
    deadline = time.monotonic() + 60  # a cap under load, not a timing: dead workers end the wait at once
    while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not any(alive(pid) for pid in workers), "a worker outlived its killed parent"

    resumed = subprocess.run(command + ["--resume"], cwd=ROOT, capture_output=True, text=True)
    assert resumed.returncode == 0, resumed.stderr
    settings = plan("strafpunten", ["random"] * 3, deals=30, seed=3, overrides={"match.limit": 250})
    whole, _ = conduct(settings, tmp_path / "whole", False, "processes", 2, quiet=True)
    assert resumed.stdout.strip() == render_standings(whole, "json")
    assert count(killed / DB_NAME) == 90  # nothing missing; the primary key refuses a match stored twice
    assert len(list((killed / "logs").glob("*.jsonl.gz"))) == 90


def test_resume_refuses_another_tournament_and_a_new_run_refuses_an_old_directory(tmp_path):
    settings = plan("strafpunten", ["random", "random"], deals=1)
    conduct(settings, tmp_path / "t", False, "serial", quiet=True)
    with pytest.raises(MaumauError, match="holds another tournament \\(deals: 1 there, 2 here\\)"):
        conduct(plan("strafpunten", ["random", "random"], deals=2), tmp_path / "t", True, "serial", quiet=True)
    with pytest.raises(MaumauError, match="already holds a tournament; add --resume"):
        conduct(settings, tmp_path / "t", False, "serial", quiet=True)
    standings, _ = conduct(settings, tmp_path / "t", True, "serial", quiet=True)  # finished: nothing to play
    assert sum(r.matches for r in standings.rows) == 2 * 2


class Rigged(Backend):
    """Plays nothing: the first entrant of the tournament wins every match."""

    def __init__(self, winner: str):
        self.winner, self.played = winner, 0

    def run(self, units, on_results):
        self.played += len(units)
        on_results(
            [
                MatchOutcome(
                    match_id=u.match_id,
                    rounds=1,
                    decisions=1,
                    seats=tuple(
                        SeatOutcome.from_row(
                            (s, e, u.bots[s], 1 if e == self.winner else 2, float(e == self.winner), 0, 1, 0, 0, False)
                        )
                        for s, e in enumerate(u.entrants)
                    ),
                    faults=(),
                )
                for u in units
            ]
        )


def test_until_confident_doubles_the_deals_until_the_ranking_is_separated(tmp_path):
    settings = plan("strafpunten", ["random", "random"], deals=1, until_confident=True, max_deals=64)
    store = Store.create(tmp_path / "t", settings.config())
    backend = Rigged("random#2")
    standings = run(settings, store, backend)
    # one look would separate 4 of 4 at 95% (Wilson lower bound 0.51); looking after every doubling
    # spends 5%/2, 5%/4, 5%/8 at looks 1, 2, 3 and separates 8 of 8 (z 2.73: lower bound 0.52) only
    assert wilson(4, 4)[0] > 0.5 > wilson(4, 4, sequential_z(2))[0]
    assert backend.played == 8 and store.meta("deals_played") == "4" and store.meta("looks") == "3"
    assert [r.entrant for r in standings.rows] == ["random#2", "random#1"] and not standings.too_close
    assert standings_of(store) == standings  # `maumau standings` judges at the same level


def test_until_confident_stops_at_max_deals_and_names_the_pairs_too_close(tmp_path):
    settings = plan("strafpunten", ["random", "random"], deals=1, until_confident=True, max_deals=3, table_size=2)
    store = Store.create(tmp_path / "t", settings.config())
    standings = run(settings, store, SerialBackend())
    assert store.meta("deals_played") == "3" and store.count() == 3 * 2  # 1, 2, then 3 (not 4) deals
    (pair,) = standings.too_close  # duplicate deals make two copies of one bot exactly even
    assert (pair.matches, pair.ahead) == (6, 3.0)


def test_the_process_backend_batches_and_bounds_its_work():
    backend = ProcessBackend(workers=2, batch_size=3)
    settings = plan("strafpunten", ["random", "random"], deals=4)
    units = [unit_of(settings, slot) for slot in schedule(settings, range(4))]
    batches = []
    with backend:
        backend.run(units, batches.append)
    assert sorted(len(b) for b in batches) == [2, 3, 3]
    assert sorted(o.match_id for b in batches for o in b) == sorted(u.match_id for u in units)


def test_a_worker_killed_by_its_bot_is_one_error_line_and_the_results_stay(tmp_path, monkeypatch):
    from support import misbehaving_bots

    misbehaving_bots.install(monkeypatch)  # forked workers inherit it
    settings = plan("strafpunten", ["random", "t-hard-exit"], deals=2)
    with pytest.raises(MaumauError, match="a worker process died in the middle of a batch"):
        conduct(settings, tmp_path / "t", False, "processes", 2, quiet=True)
    store = Store.open(tmp_path / "t")  # what was stored stays readable, marked unfinished
    try:
        assert not store.finished() and store.count() < match_count(2, 2, 2)
    finally:
        store.close()


def test_a_tournament_stored_before_the_later_settings_existed_resumes(tmp_path):
    settings = plan("strafpunten", ["random", "random"], deals=1)
    older = {key: value for key, value in settings.config().items() if key not in LATER}
    Store.create(tmp_path / "t", older).close()
    Store.resume(tmp_path / "t", settings.config()).close()  # no "holds another tournament"
    assert "seatings" not in settings.config()  # at its default, left out
    permuted = plan("strafpunten", ["random", "random"], deals=1, seatings="permutations")
    assert permuted.config()["seatings"] == "permutations"
