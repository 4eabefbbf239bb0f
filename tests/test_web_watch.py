"""Watching results in maumau serve: standings as the CLI gives them (updating while a tournament runs), matches
with filters, replays with every hand face up, play logs; damaged results refused as the CLI refuses them."""

from __future__ import annotations

import gzip
import json
import sqlite3
import threading
import time

import pytest

from runner.logs import codec
from runner.table.play import play_match
from runner.tournament.backends.base import Backend
from runner.tournament.driver import conduct, run
from runner.tournament.listing import list_matches
from runner.tournament.settings import plan
from runner.tournament.store import Store
from runner.tournament.work import play_unit
from runner.web import watch
from support.console import maumau
from support.webplay import new_game, server


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    folder = tmp_path_factory.mktemp("watched")
    settings = plan("strafpunten", ["easy", "medium", "easy"], deals=2, seed=21)
    conduct(settings, folder / "trio", False, backend="serial", quiet=True)
    _, events = play_match("elimination", ["easy", "easy", "easy"], 8, {}, with_log=True)
    (folder / "nights").mkdir()
    codec.write_log(folder / "nights" / "friday.jsonl.gz", events)
    return folder


def test_the_standings_are_those_of_maumau_standings(results, capsys, monkeypatch):
    code, out, _ = maumau(capsys, monkeypatch, "standings", results / "trio", "--format", "json")
    with server(results) as (client, _):
        listed = client.get("/api/tournaments").json()["tournaments"]
        data = client.get("/api/standings", params={"t": "trio"}).json()
    assert code == 0
    cli = json.loads(out)
    assert {key: data[key] for key in cli} == cli
    assert (data["stored"], data["planned"], data["finished"], data["ruleset"]) == (6, 6, True, "strafpunten")
    assert listed == [{"name": "trio", "ruleset": "strafpunten", "entrants": ["easy#1", "medium", "easy#2"],
                       "stored": 6, "planned": 6, "finished": True}]


def test_the_count_beside_the_standings_is_of_the_same_matches(tmp_path, monkeypatch):
    """A match stored (here: one taken away) between reading the standings and counting the matches does not show."""
    settings = plan("standard", ["easy", "medium"], deals=1, seed=4)
    conduct(settings, tmp_path / "moving", False, backend="serial", quiet=True)
    original = watch.standings_of

    def and_meanwhile(store):
        standings = original(store)
        with sqlite3.connect(tmp_path / "moving" / "tournament.sqlite") as other:
            other.execute("DELETE FROM seats WHERE match_id = (SELECT MIN(id) FROM matches)")
            other.execute("DELETE FROM matches WHERE id = (SELECT MIN(id) FROM matches)")
        return standings

    monkeypatch.setattr(watch, "standings_of", and_meanwhile)
    data = watch.Results(tmp_path).standings("moving")
    assert data["stored"] == 2 == sum(row["matches"] for row in data["standings"]) / 2


@pytest.mark.parametrize("query", [{}, {"bot": "medium"}, {"bot": "easy#1", "lost": "1"}, {"faults": "1"}])
def test_the_matches_are_those_of_maumau_matches_with_the_same_filters(results, query):
    expected = list_matches(results / "trio", query.get("bot"), bool(query.get("lost")), bool(query.get("faults")))
    with server(results) as (client, _):
        data = client.get("/api/matches", params={"t": "trio", **query}).json()
        page = client.get("/api/matches", params={"t": "trio", **query, "offset": 1, "limit": 2}).json()
    assert data["total"] == len(expected) and [m["match"] for m in data["matches"]] == [line.match for line in expected]
    assert [m["match"] for m in page["matches"]] == [line.match for line in expected[1:3]]


def test_bad_filters_are_refused_with_a_message(results):
    with server(results) as (client, _):
        lost_alone = client.get("/api/matches", params={"t": "trio", "lost": "1"})
        stranger = client.get("/api/matches", params={"t": "trio", "bot": "nobody"})
        limit = client.get("/api/matches", params={"t": "trio", "limit": "9999"})
        flag = client.get("/api/matches", params={"t": "trio", "faults": "maybe"})
        missing = client.get("/api/matches")
    assert lost_alone.status_code == 400 and "lost needs bot" in lost_alone.json()["error"]
    assert stranger.status_code == 400 and "did not play" in stranger.json()["error"]
    assert limit.status_code == 400 and flag.status_code == 400
    assert missing.status_code == 400 and missing.json()["error"] == "give the query parameter t"


def test_a_stored_match_replays_with_every_hand_face_up(results):
    with server(results) as (client, _):
        data = client.get("/api/replay", params={"t": "trio", "m": "t0-d1-r2"}).json()
        nowhere = client.get("/api/replay", params={"t": "trio", "m": "t9-d9-r9"})
    log = gzip.decompress((results / "trio" / "logs" / "t0-d1-r2.jsonl.gz").read_bytes()).decode().splitlines()
    events = [json.loads(line) for line in log]
    frames = data["frames"]
    assert len(frames) == len(events) and frames[0]["text"].startswith("match t0-d1-r2: strafpunten")
    deal = next(i for i, e in enumerate(events) if e["type"] == "round_start")
    shown = {}
    for frame in frames[:deal + 1]:
        shown.update(frame)
    assert [sorted(hand) for hand in shown["hands"]] == [sorted(hand) for hand in events[deal]["hands"]]
    assert shown["stock"] == len(events[deal]["stock"]) and shown["top"] == events[deal]["upcards"][-1]
    assert sorted(data["players"]) == ["easy#1", "easy#2", "medium"]
    assert nowhere.status_code == 404 and "no match 't9-d9-r9'" in nowhere.json()["error"]


def test_a_play_log_replays_from_its_path_or_uploaded(results):
    raw = (results / "nights" / "friday.jsonl.gz").read_bytes()
    with server(results) as (client, _):
        listed = client.get("/api/logs").json()["logs"]
        by_path = client.get("/api/logs/replay", params={"path": "nights/friday.jsonl.gz"}).json()
        uploaded = client.post("/api/logs/upload", params={"name": "friday.jsonl.gz"}, content=raw,
                               headers={"content-type": "application/octet-stream"}).json()
        as_form = client.post("/api/logs/upload", content=raw, headers={"content-type": "text/plain"})
    assert listed == ["nights/friday.jsonl.gz"]
    assert by_path["frames"] == uploaded["frames"]
    assert by_path["players"] == ["easy#0", "easy#1", "easy#2"]  # seats told apart, as the score list names them
    assert by_path["frames"][-1]["text"].startswith("match over: winner")
    assert as_form.status_code == 415


def test_a_log_that_breaks_the_rules_is_refused_by_the_verifier(results):
    events = codec.decode((results / "nights" / "friday.jsonl.gz").read_bytes())
    play = next(i for i, e in enumerate(events) if e["type"] == "play")
    events[play]["card"] = "XR" if events[play]["card"] != "XR" else "2C"
    with server(results) as (client, _):
        doctored = client.post("/api/logs/upload", params={"name": "doctored.jsonl"}, content=codec.encode(events),
                               headers={"content-type": "application/octet-stream"})
        garbage = client.post("/api/logs/upload", content=b"\x1f\x8bnot gzip",
                              headers={"content-type": "application/octet-stream"})
    assert doctored.status_code == 422
    assert doctored.json()["error"].startswith(f"doctored.jsonl: event {play + 1} (play)")
    assert garbage.status_code == 422 and "not a gzip file" in garbage.json()["error"]


def test_damaged_results_are_refused_as_the_cli_refuses_them(results, tmp_path):
    import shutil

    damaged = tmp_path / "served"
    shutil.copytree(results / "trio", damaged / "trio")
    log = damaged / "trio" / "logs" / "t0-d0-r0.jsonl.gz"
    log.write_bytes(log.read_bytes()[:-9] + b"\x00" * 9)
    with server(damaged) as (client, _):
        replay = client.get("/api/replay", params={"t": "trio", "m": "t0-d0-r0"})
    assert replay.status_code == 422 and "was changed after it was stored" in replay.json()["error"]


class Gated(Backend):
    """Plays every match in this process, but stops after `first` of them until `gate` is set."""

    name = "gated"
    shares_files = True

    def __init__(self, first: int, gate: threading.Event):
        self.first, self.gate = first, gate

    def run(self, units, on_results) -> None:
        for index, unit in enumerate(units):
            if index == self.first:
                assert self.gate.wait(timeout=120)
            on_results([play_unit(unit)])


def test_the_standings_follow_a_tournament_while_it_runs(tmp_path):
    settings = plan("standard", ["easy", "medium"], deals=3, seed=2)
    folder, gate, done = tmp_path / "live", threading.Event(), threading.Event()

    def tournament():
        store = Store.create(folder, settings.config())
        try:
            run(settings, store, Gated(2, gate))
        finally:
            store.close()
            done.set()

    worker = threading.Thread(target=tournament, daemon=True)
    worker.start()
    with server(tmp_path) as (client, _):
        deadline = time.monotonic() + 120
        early = {}
        while early.get("stored") != 2:
            assert time.monotonic() < deadline, early
            response = client.get("/api/standings", params={"t": "live"})
            early = response.json() if response.status_code == 200 else {}
        gate.set()
        assert done.wait(timeout=120)
        late = client.get("/api/standings", params={"t": "live"}).json()
    assert early["finished"] is False and sum(row["matches"] for row in early["standings"]) == 4
    assert late["finished"] is True and late["stored"] == late["planned"] == 6
    assert sum(row["matches"] for row in late["standings"]) == 12


def test_a_results_read_that_never_ends_holds_up_no_other_request(results, monkeypatch):
    """Eight pages whose reading of the results never ends: each is answered (503) once its time is up, and the
    lobby and the games answer meanwhile (they used to wait for the same threads, for good)."""
    release, answers = threading.Event(), []
    monkeypatch.setattr(watch.Results, "tournaments", lambda self: release.wait(600) and [])
    try:
        with server(results, results_seconds=1) as (client, _):
            pages = [threading.Thread(target=lambda: answers.append(client.get("/api/tournaments")))
                     for _ in range(8)]
            for page in pages:
                page.start()
            lobby = client.get("/api/lobby")
            seat = new_game(client)
            played = client.get(f"/api/seats/{seat}")
            for page in pages:
                page.join()
    finally:
        release.set()
    assert lobby.status_code == 200 and played.status_code == 200
    assert [answer.status_code for answer in answers] == [503] * 8
    assert "reading the results took longer than 1 s" in answers[0].json()["error"]


def test_an_endless_view_planted_in_the_results_is_refused_by_the_server(results, tmp_path):
    """The issue's attack on `maumau serve --results`: a tournament whose `meta` is an endless view, visited again and
    again; it is listed with its error, its standings are a 422, and the server goes on answering."""
    import shutil

    folder = tmp_path / "served"
    shutil.copytree(results / "trio", folder / "trio")
    shutil.copytree(results / "trio", folder / "planted")
    with sqlite3.connect(folder / "planted" / "tournament.sqlite") as db:
        db.execute("ALTER TABLE meta RENAME TO meta0")
        db.execute("CREATE VIEW meta AS SELECT * FROM meta0 UNION ALL SELECT 'k' || n, 'v' FROM "
                   "(WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT n FROM r)")
    with server(folder) as (client, _):
        for _ in range(8):
            listed = {entry["name"]: entry for entry in client.get("/api/tournaments").json()["tournaments"]}
            standings = client.get("/api/standings", params={"t": "planted"})
        good = client.get("/api/standings", params={"t": "trio"})
        lobby = client.get("/api/lobby")
    assert "'meta' is a view, not the table maumau writes" in listed["planted"]["error"]
    assert standings.status_code == 422 and "'meta' is a view" in standings.json()["error"]
    assert good.status_code == 200 and lobby.status_code == 200 and listed["trio"]["stored"] == 6
