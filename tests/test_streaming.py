"""Long tournaments in constant memory: the schedule made as it is played, standings read from the database
twice instead of held, and game logs written by the workers themselves."""

import gzip
import itertools
import math
import pickle
import random
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path

import pytest
from openskill.models import PlackettLuce

from runner.cli.standings import render_standings
from runner.errors import MaumauError
from runner.logs.verify import verify
from runner.tournament.backends import Backend, ProcessBackend, SerialBackend
from runner.tournament.commits import COMMIT_MATCHES
from runner.tournament.driver import Pending, conduct, run, standings_of
from runner.tournament.integrity import parse_stored_log, read_stored_log, sha256
from runner.tournament.schedule import match_count, schedule, unit_of
from runner.tournament.settings import plan
from runner.tournament.standings import Z95, Comparison, Standing, Standings, compute, sequential_z, wilson
from runner.tournament.store import Store
from runner.tournament.work import MatchOutcome, SeatOutcome

# ---------------------------------------------------------------- the schedule, made as it is taken


def test_the_schedule_is_made_as_it_is_taken():
    settings = plan("strafpunten", ["random"] * 3, deals=10**12, table_size=2)
    assert isinstance(schedule(settings, range(2)), Iterator)
    slots = schedule(settings, range(10**12))  # a list of this many slots could not be built
    assert [s.match_id for s in itertools.islice(slots, 3)] == ["t0-d0-r0", "t0-d0-r1", "t1-d0-r0"]


class Watching(Backend):
    """Plays like the serial backend, a unit at a time, noting how many slots the driver holds meanwhile."""

    shares_files = True

    def __init__(self, stop_after=None):
        self.held, self.sizes, self.stop_after, self.played = [], [], stop_after, []

    def run(self, units, on_results):
        self.sizes.append(len(units))
        for unit in units:
            if self.stop_after is not None and len(self.played) == self.stop_after:
                raise KeyboardInterrupt
            self.held.append(len(units.slots))
            self.played.append(unit.match_id)
            SerialBackend().run([unit], on_results)


def test_the_driver_holds_only_the_matches_in_flight(tmp_path):
    settings = plan("standard-single", ["random"] * 3, deals=6, table_size=2, logs=False)
    store = Store.create(tmp_path / "t", settings.config())
    backend = Watching()
    run(settings, store, backend)
    total = match_count(3, 2, 6)
    assert backend.sizes == [total] and len(backend.played) == total == store.count()
    # each unit's slot from when it is handed out until it is stored: the one in flight and those waiting for their
    # group's commit (runner/tournament/commits.py COMMIT_MATCHES), no more
    assert max(backend.held) <= COMMIT_MATCHES and backend.held[0] == 1


def test_finished_matches_are_committed_in_groups_and_the_last_at_the_end(tmp_path, monkeypatch):
    import runner.tournament.commits as commits

    monkeypatch.setattr(commits, "COMMIT_MATCHES", 10)
    monkeypatch.setattr(commits, "COMMIT_SECONDS", math.inf)
    settings = plan("standard-single", ["random"] * 3, deals=6, table_size=2, logs=False)
    store = Store.create(tmp_path / "t", settings.config())
    groups = []
    add = store.add
    monkeypatch.setattr(store, "add", lambda outcomes, slots: (groups.append(len(outcomes)), add(outcomes, slots)))
    run(settings, store, Watching())
    assert groups == [10, 10, 10, 6] and store.count() == 36


class Paused(Backend):
    """Plays `first` matches, then waits, as a backend waiting for a slow match does, until the store shows them."""

    shares_files = True

    def __init__(self, first: int, directory: Path):
        self.first, self.directory, self.seen = first, directory, None

    def run(self, units, on_results):
        for index, unit in enumerate(units):
            if index == self.first:
                deadline = time.monotonic() + 60  # a cap under load, not a timing: the commit ends the wait
                while stored_count(self.directory) < self.first and time.monotonic() < deadline:
                    time.sleep(0.01)
                self.seen = stored_count(self.directory)
            SerialBackend().run([unit], on_results)


def stored_count(directory: Path) -> int:
    """The matches another reader (maumau serve --results) sees stored."""
    reader = Store.open(directory)
    try:
        return reader.count()
    finally:
        reader.close()


def test_a_group_is_committed_while_the_backend_pauses_without_another_arrival(tmp_path, monkeypatch):
    """A live view sees a paused run's finished matches: the group's timer commits them (from a connection of its
    own), with no further result arriving to do it."""
    import runner.tournament.commits as commits

    monkeypatch.setattr(commits, "COMMIT_SECONDS", 0.01)
    settings = plan("standard-single", ["random"] * 3, deals=2, table_size=2, logs=False)
    store = Store.create(tmp_path / "t", settings.config())
    backend = Paused(3, tmp_path / "t")
    run(settings, store, backend)
    assert backend.seen == 3 and store.count() == match_count(3, 2, 2)


def test_a_resumed_run_plays_exactly_the_matches_not_stored(tmp_path):
    settings = plan("standard-single", ["random"] * 3, deals=4, table_size=2, seed=4)
    first = Watching(stop_after=7)
    store = Store.create(tmp_path / "t", settings.config())
    with pytest.raises(KeyboardInterrupt):
        run(settings, store, first)
    store.close()
    store = Store.resume(tmp_path / "t", settings.config())
    second = Watching()
    resumed = run(settings, store, second)
    everything = [s.match_id for s in schedule(settings, range(4))]
    assert second.sizes == [len(everything) - 7] and second.played == everything[7:]
    whole, _ = conduct(settings, tmp_path / "whole", False, "serial", quiet=True)
    assert render_standings(resumed, "json") == render_standings(whole, "json")
    store.close()


def test_pending_counts_only_the_deals_it_covers(tmp_path):
    settings = plan("standard-single", ["random"] * 2, deals=3, logs=False)
    store = Store.create(tmp_path / "t", settings.config())
    run(settings, store, SerialBackend())
    assert len(Pending(settings, store, range(3))) == 0 and list(Pending(settings, store, range(3))) == []
    later = Pending(settings, store, range(3, 5))  # as the next stage of --until-confident
    assert len(later) == 4 == len(list(later))


def test_the_process_pool_takes_a_plain_iterator_of_units():
    settings = plan("standard-single", ["random"] * 2, deals=5, logs=False)
    units = (unit_of(settings, slot) for slot in schedule(settings, range(5)))  # no length known
    reported = []
    with ProcessBackend(workers=2) as backend:
        backend.run(units, reported.extend)
    assert sorted(o.match_id for o in reported) == sorted(s.match_id for s in schedule(settings, range(5)))


# ---------------------------------------------------------------- logs written by the workers


class SendingLogs(SerialBackend):
    """A backend whose workers cannot see the results directory (a remote cluster's): logs come back as bytes."""

    shares_files = False


def stored(out):
    store = Store.open(out)  # checks every row's digest
    try:
        return store.db.execute("SELECT id, log, log_sha256, digest FROM matches ORDER BY id").fetchall()
    finally:
        store.close()


def test_logs_written_by_the_workers_are_the_rows_and_bytes_the_driver_would_write(tmp_path):
    settings = plan("strafpunten", ["random"] * 3, deals=2, table_size=2, seed=8)
    for name, backend in (("pool", ProcessBackend(2)), ("sent", SendingLogs())):
        store = Store.create(tmp_path / name, settings.config())
        with backend:
            run(settings, store, backend)
        store.close()
    pool, sent = stored(tmp_path / "pool"), stored(tmp_path / "sent")
    assert pool == sent and len(pool) == match_count(3, 2, 2) == len(list((tmp_path / "pool" / "logs").iterdir()))
    for match_id, name, digest, _ in pool:
        data = read_stored_log(tmp_path / "pool", name, match_id, digest)
        assert data == (tmp_path / "sent" / name).read_bytes()
        verify(parse_stored_log(data))  # raises if the log breaks a rule


def test_the_outcome_names_the_log_the_worker_wrote(tmp_path):
    settings = plan("strafpunten", ["random"] * 2, deals=1)
    store = Store.create(tmp_path / "t", settings.config())
    seen = []

    class Recording(ProcessBackend):
        def run(self, units, on_results):
            super().run(units, lambda outcomes: (seen.extend(outcomes), on_results(outcomes)))

    with Recording(workers=2) as backend:
        run(settings, store, backend)
    store.close()
    assert len(seen) == 2 and all(o.log is None and o.log_name == f"logs/{o.match_id}.jsonl.gz" for o in seen)
    assert all(sha256((tmp_path / "t" / o.log_name).read_bytes()) == o.log_sha256 for o in seen)


def test_a_log_left_by_an_interrupted_run_is_overwritten_on_resume(tmp_path):
    settings = plan("strafpunten", ["random"] * 2, deals=2, seed=2)
    store = Store.create(tmp_path / "t", settings.config())
    with pytest.raises(KeyboardInterrupt):
        run(settings, store, Watching(stop_after=1))
    store.close()
    stray = tmp_path / "t" / "logs" / "t0-d0-r1.jsonl.gz"  # written, its row never committed
    stray.write_bytes(gzip.compress(b'{"type":"match_start"}\n'))
    store = Store.resume(tmp_path / "t", settings.config())
    run(settings, store, SerialBackend())
    store.close()
    whole, _ = conduct(settings, tmp_path / "whole", False, "serial", quiet=True)
    assert stray.read_bytes() == (tmp_path / "whole" / "logs" / stray.name).read_bytes()
    Store.open(tmp_path / "t").close()  # every digest agrees


def test_a_log_that_cannot_be_written_is_one_error_line(tmp_path):
    settings = plan("strafpunten", ["random"] * 2, deals=1)
    store = Store.create(tmp_path / "t", settings.config())
    (tmp_path / "t" / "logs").rmdir()
    (tmp_path / "t" / "logs").write_text("not a directory")
    with pytest.raises(MaumauError, match=r"^cannot write the game log .*t0-d0-r0\.jsonl\.gz: Not a directory; free"):
        run(settings, store, SerialBackend())
    store.close()


# ---------------------------------------------------------------- standings, read twice, equal to holding them all


def held_standings(entrants, matches, looks=None, blocks=None):
    """The standings as they were computed before streaming, every match held in memory: the reference."""
    blocks = list(blocks) if blocks is not None else list(range(len(matches)))

    def clustered(values, z=Z95):
        n = len(values)
        if n == 0:
            return 0.0, 1.0
        total = sum(value for _, value in values)
        p = total / n
        sums = defaultdict(float)
        for block, value in values:
            sums[block] += value
        sizes = Counter(block for block, _ in values)
        deff = 1.0
        if 1 < len(sums) < n and 0 < p < 1:
            spread = sum((sums[b] - p * sizes[b]) ** 2 for b in sums) * len(sums) / (len(sums) - 1) / n**2
            deff = min(max(spread / (p * (1 - p) / n), 1.0), max(sizes.values()))
        return wilson(total / deff, n / deff, z)

    model = PlackettLuce()
    ratings = {label: model.rating(name=label) for label, _ in entrants}
    for match in matches:
        rated = model.rate([[ratings[s.entrant]] for s in match], ranks=[s.place for s in match])
        for s, (rating,) in zip(match, rated):
            ratings[s.entrant] = rating
    order = {label: i for i, (label, _) in enumerate(entrants)}
    rows = []
    for label, bot in entrants:
        played = [(block, s) for block, match in zip(blocks, matches) for s in match if s.entrant == label]
        seats = [s for _, s in played]
        n, score, rounds = len(seats), sum(s.score for s in seats), sum(s.rounds for s in seats)
        low, high = clustered([(block, s.score) for block, s in played])
        shares = [(block, share_of(s, match)) for block, match in zip(blocks, matches) for s in match
                  if s.entrant == label]
        ahead_total = 0.0
        for _, share in shares:
            ahead_total += share
        ahead_low, ahead_high = clustered(shares)
        rows.append(Standing(
            entrant=label, bot=bot, matches=n, wins=sum(1 for s in seats if s.score == 1),
            draws=sum(1 for s in seats if 0 < s.score < 1), losses=sum(1 for s in seats if s.score == 0), score=score,
            win_rate=score / n if n else 0.0, win_rate_low=low, win_rate_high=high,
            points_per_round=sum(s.points for s in seats) / rounds if rounds else 0.0,
            rounds_won=sum(s.rounds_won for s in seats), faults=sum(s.faults for s in seats),
            rating=ratings[label].mu, rating_sigma=ratings[label].sigma,
            ahead=ahead_total / n if n else 0.0, ahead_low=ahead_low, ahead_high=ahead_high,
            mean_place=sum(s.place for s in seats) / n if n else 0.0,
        ))
    rows.sort(key=lambda r: (-r.win_rate, -r.rating, order[r.entrant]))
    z = sequential_z(looks) if looks else Z95
    def compared(above, below, z=Z95):
        values = []
        for block, match in zip(blocks, matches):
            places = {s.entrant: s.place for s in match}
            if above in places and below in places:
                diff = places[below] - places[above]
                values.append((block, 1.0 if diff > 0 else 0.5 if diff == 0 else 0.0))
        low, high = clustered(values, z)
        return Comparison(above=above, below=below, matches=len(values), ahead=sum(v for _, v in values),
                          low=low, high=high)

    adjacent = [compared(a.entrant, b.entrant, z) for a, b in zip(rows, rows[1:])]
    crosstable = {}
    for match in matches:
        for a, b in itertools.permutations(match, 2):
            if (a.entrant, b.entrant) not in crosstable:
                crosstable[a.entrant, b.entrant] = compared(a.entrant, b.entrant)
    h2h = {}
    for match in matches:
        if len(match) == 2:
            for me, other in (match, reversed(match)):
                n, score = h2h.get((me.entrant, other.entrant), (0, 0.0))
                h2h[me.entrant, other.entrant] = (n + 1, score + me.score)
    sizes = tuple(sorted({len(match) for match in matches}))
    return Standings(rows=tuple(rows), head_to_head=h2h, adjacent=tuple(adjacent), looks=looks, crosstable=crosstable,
                     table_sizes=sizes)


def share_of(seat, match):
    """The share of its opponents `seat` placed ahead of in `match`, a shared place a half."""
    others = [s for s in match if s is not seat]
    if not others:
        return 0.5
    return sum(1.0 if o.place > seat.place else 0.5 if o.place == seat.place else 0.0 for o in others) / len(others)


def test_streamed_standings_of_a_stored_tournament_equal_the_held_computation(tmp_path):
    settings = plan("strafpunten", ["random", "easy", "random", "medium"], deals=3, table_size=3, seed=11,
                    overrides={"match.limit": 60}, logs=False)
    standings, out = conduct(settings, tmp_path / "t", False, "processes", 2, quiet=True)
    store = Store.open(out)
    try:
        results = store.results()
        entrants = list(zip(settings.entrants, settings.bots))
        held = held_standings(entrants, [seats for _, seats in results], blocks=[block for block, _ in results])
        assert standings == held == standings_of(store)
        assert repr(standings) == repr(held)  # every float to its last bit, head-to-head in the same order
    finally:
        store.close()


@pytest.mark.parametrize("seed", range(40))
def test_streamed_standings_equal_the_held_computation_on_random_results(seed):
    rng = random.Random(seed)
    count = rng.randint(2, 6)
    k = rng.randint(2, min(count, 4))
    entrants = [(f"e{i}", "random") for i in range(count)]
    matches, blocks = [], []
    for deal in range(rng.randint(1, 25)):
        members = rng.sample(range(count), k)
        for rotation in range(k):
            places = [rng.randint(1, k) for _ in range(k)]  # ties and shared firsts
            winners = places.count(min(places))
            matches.append([
                SeatOutcome.from_row((s, f"e{members[(s + rotation) % k]}", "random", places[s],
                                      1 / winners if places[s] == min(places) else 0.0, rng.randint(0, 150),
                                      rng.randint(1, 4), rng.randint(0, 2), rng.randint(0, 1), False))
                for s in range(k)
            ])
            blocks.append(f"t0-d{deal}")
    looks = rng.choice([None, 1, 3])
    assert repr(compute(entrants, matches, looks, blocks)) == repr(held_standings(entrants, matches, looks, blocks))
    assert repr(compute(entrants, matches)) == repr(held_standings(entrants, matches))


def test_standings_read_the_store_twice_and_hold_no_match(tmp_path, monkeypatch):
    settings = plan("standard-single", ["random"] * 2, deals=5, logs=False)
    standings, out = conduct(settings, tmp_path / "t", False, "serial", quiet=True)
    store = Store.open(out)
    reads = []

    def counted(name):
        original = getattr(Store, name)

        def reading(self, deals=None):
            reads.append((name, deals))
            produced = original(self, deals)
            assert isinstance(produced, Iterator)  # a generator over the cursor, not a list
            return produced
        return reading

    # the whole seats first; then, for the spread of each deal's rotations, only their entrants, places and scores
    monkeypatch.setattr(Store, "scored", counted("scored"))
    monkeypatch.setattr(Store, "placings", counted("placings"))
    try:
        assert standings_of(store) == standings and reads == [("scored", None), ("placings", None)]
    finally:
        store.close()
    assert math.isclose(sum(r.score for r in standings.rows), 10)


def test_the_second_reading_gives_each_seat_as_the_first_does(tmp_path):
    # a tournament of three entrants at tables of two and three, shared places among them: the narrow reading
    # (entrants, places, scores) matches the whole one, and the standings are those of the matches held in memory
    settings = plan("standard-single", ["random"] * 3, deals=4, logs=False)
    store = Store.create(tmp_path / "t", settings.config())
    standings = run(settings, store, Deciding())
    held = store.results()
    assert list(store.placings()) == [(block, tuple(s.entrant for s in seats), tuple(s.place for s in seats),
                                       tuple(s.score for s in seats)) for block, seats in held]
    assert list(store.placings(2)) == list(store.placings())[:len(store.results(2))]
    entrants = list(zip(settings.entrants, settings.bots))
    assert repr(standings) == repr(compute(entrants, [seats for _, seats in held], blocks=[b for b, _ in held]))
    store.close()


# ---------------------------------------------------------------- the scaling benchmark, on a tiny budget


@pytest.mark.slow  # slow: the bench script with worker processes
def test_the_scaling_bench_profiles_and_times_workers_end_to_end(tmp_path, capsys):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
    import scaling

    assert scaling.main(["profile", "--profile-matches", "20", "--dir", str(tmp_path)]) == 0
    assert scaling.main(["workers", "--matches", "8", "--runs", "1", "--dir", str(tmp_path)]) == 0
    printed = capsys.readouterr().out
    assert "| storing the rows (driver: digests, SQLite)" in printed and "play_unit" in printed
    assert printed.count("|  off |") == 2 and "2 workers ÷ 1 worker" in printed
    assert list(tmp_path.iterdir()) == []  # every tournament directory removed


def test_the_scaling_bench_feeds_recorded_results_through_the_driver(tmp_path, capsys):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
    import scaling

    record, work = tmp_path / "recorded.pickle", tmp_path / "work"
    assert scaling.main(["driver", "--matches", "16", "--runs", "2", "--record", str(record), "--dir", str(work)]) == 0
    assert len(pickle.loads(record.read_bytes())) == 16 and list(work.iterdir()) == []
    printed = capsys.readouterr().out
    assert "| run 2 " in printed and "|      16 |" in printed
    with pytest.raises(SystemExit, match="fewer than"):
        scaling.main(["driver", "--matches", "32", "--runs", "1", "--record", str(record), "--dir", str(work)])


def decided(unit) -> MatchOutcome:
    """A made-up result: in every third deal the first seat wins, in the others one entrant wins both rotations."""
    deal = int(unit.match_id.split("-d")[1].split("-")[0])
    winner = unit.entrants[0] if deal % 3 == 0 else sorted(unit.entrants)[deal % 3 - 1]
    return MatchOutcome(match_id=unit.match_id, rounds=1, decisions=1, seats=tuple(
        SeatOutcome.from_row((s, e, unit.bots[s], 1 if e == winner else 2, float(e == winner), 0, 1, 0, 0, False))
        for s, e in enumerate(unit.entrants)), faults=())


class Deciding(Backend):
    def run(self, units, on_results):
        on_results([decided(unit) for unit in units])


def test_both_readings_of_the_standings_see_the_same_matches_while_a_tournament_writes(tmp_path, monkeypatch):
    settings = plan("standard-single", ["random"] * 2, deals=6, logs=False)
    store = Store.create(tmp_path / "t", settings.config())
    standings = run(settings, store, Deciding())
    store.close()
    top = standings.rows[0]  # deals that go together, but not all: a design effect between 1 and 2
    assert (
        wilson(top.score, top.matches)
        != (top.win_rate_low, top.win_rate_high)
        != wilson(top.score / 2, top.matches / 2)
    )
    more = plan("standard-single", ["random"] * 2, deals=20, logs=False)
    writer, reader = Store.open(tmp_path / "t"), Store.open(tmp_path / "t")  # a running tournament's, and ours
    original = Store.placings

    def write_then_place(self, deals=None):  # between the two readings, more matches are committed
        slots = {slot.match_id: slot for slot in schedule(more, range(6, 20))}
        writer.add([decided(unit_of(more, slot)) for slot in slots.values()], slots)
        return original(self, deals)

    monkeypatch.setattr(Store, "placings", write_then_place)
    try:
        assert repr(standings_of(reader)) == repr(standings)
        assert reader.count() == match_count(2, 2, 20)  # outside the snapshot, they are there
    finally:
        reader.close()
        writer.close()

