"""The driver's fast path for a match's rows, and the digest its worker computes, give the very digests the generic
path gives (the format on disk)."""

import hashlib
from dataclasses import replace

import pytest

from runner.tournament.integrity import digest, plain_digest, seat_row
from runner.tournament.schedule import schedule, unit_of
from runner.tournament.settings import plan
from runner.tournament.store import Store
from runner.tournament.work import SeatOutcome, play_unit
from support import misbehaving_bots


def seats():
    return [
        SeatOutcome.from_row((0, "random#1", "random", 1, 0.5, 12, 7, 3, 0, False)),
        SeatOutcome.from_row((1, "é\"bot", "random", 1, 0.5, 12, 7, 2, 1, False)),
        SeatOutcome.from_row((2, "random#2", "random", 3, 0.0, 125, 5, 0, 2, True)),
    ]


def test_a_seat_row_is_its_fields_in_table_order_with_forfeited_as_an_integer():
    for seat in seats():
        assert seat_row(seat) == tuple(int(v) if isinstance(v, bool) else v for v in seat)
        assert type(seat_row(seat)[-1]) is int


def test_plain_digest_equals_digest_of_the_same_rows_with_booleans():
    row = ("t0-d1-r2", 0, 1, 2, 2**62 + 5, 9, 301, None, None)
    faults = [(2, "random", "illegal", "played 7H on 9S", 4), (2, "random", "timeout", "", 5)]
    generic = digest(row, [tuple(s) for s in seats()], faults)
    assert plain_digest(row, [seat_row(s) for s in seats()], faults) == generic
    assert plain_digest(list(row), [list(seat_row(s)) for s in seats()], [list(f) for f in faults]) == generic
    assert plain_digest(row, [seat_row(s) for s in seats()[:2]], faults) != generic


def test_digest_of_a_config_text_is_unchanged():
    text = '{"b": 1, "a": [true, 1.5]}'
    assert digest(text) == plain_digest(text)
    assert digest(text) == hashlib.sha256(b'["{\\"b\\": 1, \\"a\\": [true, 1.5]}"]').hexdigest()


@pytest.fixture
def with_misbehaving_bots(monkeypatch):
    misbehaving_bots.install(monkeypatch)


@pytest.mark.parametrize("worker_writes_logs", [True, False])
def test_the_digest_a_worker_computes_is_the_one_the_store_computes(tmp_path, with_misbehaving_bots,
                                                                      worker_writes_logs):
    settings = plan("strafpunten", ["random", "t-crash", "t-illegal"], deals=2, table_size=3, seed=4)
    slots = list(schedule(settings, range(settings.deals)))
    by_id = {slot.match_id: slot for slot in slots}
    stored = {}
    for name, keep in (("worker", True), ("store", False)):  # the worker's digest kept, or left to the store
        store = Store.create(tmp_path / name, settings.config())
        log_dir = str(store.directory.resolve()) if worker_writes_logs else None
        outcomes = [play_unit(unit_of(settings, slot, log_dir)) for slot in slots]
        assert all(outcome.digest for outcome in outcomes) and any(outcome.faults for outcome in outcomes)
        assert all((outcome.log is None) == worker_writes_logs for outcome in outcomes)
        store.add([outcome if keep else replace(outcome, digest=None) for outcome in outcomes], by_id)
        stored[name] = store.db.execute("SELECT * FROM matches ORDER BY id").fetchall()
        store.close()
        Store.open(tmp_path / name).close()  # every row checked against its digest
    assert stored["worker"] == stored["store"] and len(stored["worker"]) == len(slots)


def test_a_unit_without_its_place_in_the_schedule_leaves_the_digest_to_the_store(tmp_path):
    settings = plan("strafpunten", ["random", "random"], deals=1, seed=4)
    slot = next(schedule(settings, range(1)))
    assert play_unit(unit_of(settings, slot)._replace(place=None)).digest is None
