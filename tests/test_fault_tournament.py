"""A tournament with a crashing, a hanging and a cheating bot among honest ones, under every policy."""

import pytest

from runner.seats.faults import FaultSettings
from runner.table.referee import TournamentAborted
from runner.tournament.driver import conduct
from runner.tournament.settings import plan
from runner.tournament.store import Store
from support import misbehaving_bots
from support.faults import MOVE_TIME, WALL_TIME

ENTRANTS = ["random", "t-crash", "t-sleep", "t-cheat"]  # 4 tables of 3, 3 rotations each: 12 matches


@pytest.fixture(autouse=True)
def with_misbehaving_bots(monkeypatch):
    misbehaving_bots.install(monkeypatch)


def tournament(tmp_path, entrants=ENTRANTS, policy="forfeit", isolate=False, backend="processes", deals=1):
    settings = plan("strafpunten", entrants, deals=deals, table_size=3, seed=5, faults=FaultSettings(
        policy=policy, move_time=MOVE_TIME, wall_time=WALL_TIME, isolate=isolate, bot_memory=512 << 20))
    out = tmp_path / f"{policy}-{isolate}-{'-'.join(entrants)}"
    workers = 2 if backend == "processes" else None  # serial plays in this process: it takes no worker count
    standings, _ = conduct(settings, out, resume=False, backend=backend, workers=workers, quiet=True)
    return {row.entrant: row for row in standings.rows}, out


@pytest.mark.parametrize("policy", ["forfeit", "autoplay"])
def test_the_tournament_completes_with_every_fault_counted(policy, tmp_path):
    rows, out = tournament(tmp_path, policy=policy)
    assert {name: row.matches for name, row in rows.items()} == {name: 9 for name in ENTRANTS}
    store = Store.open(out)
    try:
        faults = store.faults()
        matches = [seats for _, seats in store.results()]
    finally:
        store.close()
    assert {(fault.player, fault.kind) for _, fault in faults} == {("t-crash", "exception"), ("t-sleep", "timeout")}
    for name in ENTRANTS:  # the standings count what the store holds
        assert rows[name].faults == sum(1 for _, fault in faults if fault.player == name)
    # a misbehaving bot faults once in each match it reaches its 3rd decision in (then it is out or given up):
    # always, unless the cheater ends every round first
    assert len(matches) == 12
    for seats in matches:
        cheater_present = any(seat.bot == "t-cheat" for seat in seats)
        for seat in seats:
            expected = {1} | ({0} if cheater_present else set()) if seat.bot in ("t-crash", "t-sleep") else {0}
            assert seat.faults in expected, seats
    if policy == "forfeit":  # a forfeit is the worst result of its match: last place, and the highest points
        assert rows["t-crash"].wins == rows["t-sleep"].wins == 0
        forfeits = [(seat, seats) for seats in matches for seat in seats if seat.forfeited]
        assert forfeits and all(seat.points == max(100, *(s.points for s in seats)) and seat.place > 1
                                for seat, seats in forfeits)  # strafpunten's limit: 100
    assert rows["t-cheat"].wins > rows["random"].wins  # in-process the cheater rigs its hands


def test_abort_stops_the_tournament_and_stores_only_whole_matches(tmp_path):
    entrants = ["random", "t-honest", "t-cheat", "t-crash"]  # the first table (3 matches) has no faulting bot
    with pytest.raises(TournamentAborted, match="bot 't-crash' \\(seat \\d\\) committed a fault \\(exception\\)"):
        tournament(tmp_path, entrants, policy="abort", backend="serial")
    store = Store.open(tmp_path / f"abort-False-{'-'.join(entrants)}")
    try:
        assert store.count() == 3 and not store.finished()
        assert all(len(seats) == 3 for _, seats in store.results())
        for match_id in store.done():
            assert (store.directory / "logs" / f"{match_id}.jsonl.gz").exists()
        assert store.faults() == []  # the aborting fault's match is not stored at all
    finally:
        store.close()


def test_isolated_the_cheater_does_no_better_than_an_honest_random_player(tmp_path):
    cheating, _ = tournament(tmp_path, ["random", "t-crash", "t-cheat"], isolate=True, deals=2)
    honest, _ = tournament(tmp_path, ["random", "t-crash", "t-honest"], isolate=True, deals=2)
    assert cheating["t-crash"].faults == 6 and cheating["t-cheat"].faults == 0
    same = ("matches", "wins", "draws", "losses", "score", "points_per_round", "rounds_won")
    assert [getattr(cheating["t-cheat"], f) for f in same] == [getattr(honest["t-honest"], f) for f in same]
