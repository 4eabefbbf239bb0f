"""The driver's fast path for a match's rows gives the very digests the generic path gives (the format on disk)."""

import hashlib

from runner.tournament.integrity import digest, plain_digest
from runner.tournament.store import seat_row
from runner.tournament.work import SeatOutcome


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
