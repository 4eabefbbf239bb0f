"""maumau serve tells a seat only what it may know, serves results read-only, and takes no request from elsewhere."""

from __future__ import annotations

import hashlib
import json
import random
import re
import time
from pathlib import Path

import pytest

from runner.logs import codec
from runner.logs.follow import LogTable
from runner.logs.narration import action_cards
from runner.table.play import play_match
from runner.tournament.driver import conduct
from runner.tournament.settings import plan
from runner.web.host import HostedGame
from runner.web.lobby import game_spec
from runner.web.snapshot import seat_state
from support.webplay import PATIENCE, choose, new_game, play, server, state

CARD = re.compile(r"(?<![0-9A-Z])(10|[2-9JQKA])([CDHS])(?![A-Za-z0-9])")
ONE_DECK_WITH_JOINS = "extends: strafpunten\nname: strafpunten-open\nmatch: {table_changes: true}\n"


def cards_in(data) -> set[str]:
    """Every card notation in the strings of a JSON value."""
    return {match.group(0) for match in CARD.finditer(json.dumps(data))}


def current_round_part(st: dict) -> dict:
    """The state without what it tells of rounds before this one (a hand shown at an earlier round's end is no secret
    of this round, but it may share a card with this round's hidden ones)."""
    number = st["table"]["round"]
    return {**st, "since": [line for line in st["since"] if line["round"] == number]}


def hidden_from(game, seat: int) -> tuple[set[str], set[str]]:
    """(the cards `seat` may not see now: the other hands and the stock; its own hand), from the whole log so far."""
    table = LogTable()
    with game.lock:
        for event in list(game.events):
            table.apply(event)
    others = {card for s, hand in enumerate(table.hands) if s != seat for card in hand}
    return others | set(table.stock), set(table.hands[seat])


def settled(client, game, token: str, st: dict) -> tuple[dict, set[str], set[str]]:
    """(`st`, the cards hidden from its seat, its own hand), read again while the person is to act if the log seems to
    have moved on since `st` was read (a leak is in a state that holds still)."""
    hidden, own = hidden_from(game, st["you"])
    if cards_in(current_round_part(st)) & hidden:
        st = state(client, token)
        hidden, own = hidden_from(game, st["you"])
        assert st == state(client, token), "the game moved while its person was to act"
    return st, hidden, own


def test_a_seats_json_never_holds_another_hand_or_the_stock():
    checked = []
    with server() as (client, games):
        seat = new_game(client, "strafpunten", "easy", 3)
        game = next(iter(games.games.values()))

        def scan(token, st):
            st, hidden, own = settled(client, game, token, st)
            shown = cards_in(current_round_part(st))
            assert hidden and own <= shown  # the scan sees cards: it would see a hidden one
            assert not shown & hidden, f"seat {st['you']} was sent {sorted(shown & hidden)}"
            checked.append(len(hidden))

        play(client, [seat], random.Random(8), on_turn=scan)
    assert len(checked) > 20


def test_two_people_at_one_table_never_see_each_others_hands():
    checked = {0: 0, 3: 0}
    with server() as (client, games):
        first = new_game(client, None, "easy", 3, yaml=ONE_DECK_WITH_JOINS)
        game = next(iter(games.games.values()))
        rng = random.Random(11)
        play(client, [first], rng, until=lambda states: states[first]["status"] == "between")
        second = client.post(f"/api/games/{game.token}/join", json={}).json()["seat"]

        def scan(token, st):
            st, hidden, _ = settled(client, game, token, st)
            leaked = cards_in(current_round_part(st)) & hidden
            assert not leaked, f"seat {st['you']} was sent {sorted(leaked)}: {st}"
            checked[st["you"]] += 1

        play(client, [first, second], rng, on_turn=scan)
    assert checked[0] > 5 and checked[3] > 5


JUMP_IN = "extends: standard\nname: jump-in\njump_in: same_rank\n"


def test_a_bot_asked_to_jump_in_changes_nothing_a_browser_seat_is_shown():
    """The engine asks only a seat holding a card of the rank played: the question, and its pass, stay out of sight."""
    game = HostedGame(game_spec(None, JUMP_IN, "jump-in.yaml", "easy", 3), seed=3)
    person, seen = game.creator, []  # (the bot asked to jump in or None, the person's state), at each step
    asked: list[int | None] = [None]  # the bot asked to jump in by the last decision, if it was such a question

    def step(asking: int | None) -> None:
        asked[0] = asking
        with game.lock:
            seen.append((asking, seat_state(game, person)))

    def observe(rnd) -> None:
        decide(rnd)
        step(rnd.current if rnd.phase == "jump_in" and rnd.current != person.seat else None)

    def tell(event: dict) -> None:  # a pass right after the question is the bot's answer: it lets the chance go
        told(event)
        step(event["seat"] if event["type"] == "pass" and event["seat"] == asked[0] else None)

    decide, told = game.observe, game.events.listener
    game.observe, game.events.listener = observe, tell
    game.start()
    rng, deadline = random.Random(3), time.monotonic() + PATIENCE
    while not game.finished:
        assert time.monotonic() < deadline, "the game did not end"
        with game.lock:
            if person.moves:
                game.answer(person, person.turn, choose([{"cards": action_cards(a)} for a in person.moves], rng))
            elif game.status == "between" and not person.ready:
                game.ready(person)
        time.sleep(0.005)
    assert game.status == "over", game.error
    declined = sum(1 for (before, _), (after, _) in zip(seen, seen[1:]) if before is not None and before == after)
    assert declined > 2  # bots were asked to jump in, and let the chance go
    for index, (asking, shown) in enumerate(seen):
        if asking is not None:  # the question and its answer, a pass: the person is shown what it was shown before
            assert shown == seen[index - 1][1], f"step {index}: the person saw bot {asking} asked to jump in"


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    """A results folder: a finished tournament, a `maumau play --log` file, and a file outside it."""
    root = tmp_path_factory.mktemp("served")
    folder = root / "results"
    conduct(plan("standard", ["easy", "medium"], deals=2, seed=5), folder / "duel", False, backend="serial", quiet=True)
    _, events = play_match("standard", ["easy", "easy"], 4, {}, with_log=True)
    codec.write_log(folder / "game.jsonl", events)
    (root / "secret.jsonl").write_bytes((folder / "game.jsonl").read_bytes())
    (folder / "link.jsonl").symlink_to(root / "secret.jsonl")
    return folder


def digests(folder: Path) -> dict[str, str]:
    """Every file's SHA-256, but SQLite's own scratch files (a reader may make them; they hold no result)."""
    return {str(path.relative_to(folder)): hashlib.sha256(path.read_bytes()).hexdigest()
            for path in sorted(folder.rglob("*")) if path.is_file() and not path.name.endswith(("-wal", "-shm"))}


@pytest.mark.parametrize("path, status", [
    ("../secret.jsonl", 403),
    ("duel/../../secret.jsonl", 403),
    ("link.jsonl", 403),
    ("/etc/passwd", 400),
    (str(Path("/etc/passwd")), 400),
    ("game.jsonl\x00.png", 400),
    ("nothing.jsonl", 404),
    ("duel", 404),
])
def test_a_log_path_cannot_leave_the_results_directory(results, path, status):
    with server(results) as (client, _):
        response = client.get("/api/logs/replay", params={"path": path})
    assert response.status_code == status, response.text
    assert "secret" not in json.dumps(response.json().get("frames", ""))


@pytest.mark.parametrize("name", ["..", "../results", "/", str(Path("/etc")), "duel/..", "duel/logs", ""])
def test_a_tournament_is_named_only_as_listed(results, name):
    with server(results) as (client, _):
        response = client.get("/api/standings", params={"t": name})
    assert response.status_code in (400, 404), response.text


def test_watching_changes_no_file_of_the_results(results):
    before = digests(results)
    with server(results) as (client, _):
        listed = client.get("/api/tournaments").json()["tournaments"]
        assert [t["name"] for t in listed] == ["duel"]
        client.get("/api/standings", params={"t": "duel"})
        client.get("/api/matches", params={"t": "duel"})
        client.get("/api/replay", params={"t": "duel", "m": "t0-d0-r0"})
        client.get("/api/logs")
        client.get("/api/logs/replay", params={"path": "game.jsonl"})
        for method in ("post", "put", "delete", "patch"):
            for path in ("/api/standings", "/api/matches", "/api/replay", "/api/logs", "/api/logs/replay",
                         "/api/tournaments"):
                assert getattr(client, method)(path).status_code == 405
        static = client.get("/static/../app.py")
    assert digests(results) == before
    assert static.status_code == 404


def test_pages_may_load_only_this_servers_files():
    with server() as (client, _):
        page = client.get("/")
        answer = client.get("/api/lobby")
    policy = page.headers["content-security-policy"]
    assert "default-src 'self'" in policy and "script-src 'self'" in policy and "frame-ancestors 'none'" in policy
    assert page.headers["x-content-type-options"] == "nosniff" and page.headers["referrer-policy"] == "no-referrer"
    assert answer.headers["cache-control"] == "no-store"


def test_a_server_on_this_machine_answers_only_to_its_own_names():
    from runner.web.server import allowed_hosts

    hosts = allowed_hosts("127.0.0.1")
    assert allowed_hosts("0.0.0.0") is None and "localhost" in hosts
    with server(allowed_hosts=hosts) as (client, _):
        rebound = client.get("/api/lobby", headers={"host": "attacker.example"})
        own = client.get("/api/lobby", headers={"host": "127.0.0.1:8000"})
    assert rebound.status_code == 400 and own.status_code == 200


@pytest.mark.parametrize("value", ["²", "٣", "9" * 5000, "-1", "1.5", ""])
def test_a_number_in_a_query_that_is_not_a_plain_whole_number_is_a_400(results, value):
    """`²` passes str.isdigit() and fails int(); so do 5,000 digits: both were a 500 with a traceback."""
    with server(results) as (client, _):
        seat = new_game(client)
        answers = [client.get(f"/api/seats/{seat}", params={"after": value}),
                   client.get("/api/matches", params={"t": "duel", "offset": value}),
                   client.get("/api/matches", params={"t": "duel", "limit": value})]
    for answer in answers:
        assert answer.status_code == 400 and "must be a" in answer.json()["error"], answer.text


@pytest.mark.parametrize("action", ["join", "next", "leave"])
def test_a_post_without_a_body_takes_no_form_from_another_site(action):
    """A form of another site can post to this server (a browser sends it without asking), but only as a form: join,
    next and leave take nothing but `{}` as JSON, which the pages send (runner/web/static/common.js) and a form
    cannot."""
    with server() as (client, _):
        seat = new_game(client, "elimination")
        game = state(client, seat)["join"].rsplit("/", 1)[1]
        path = f"/api/games/{game}/join" if action == "join" else f"/api/seats/{seat}/{action}"
        forms = [client.post(path, data={"x": "1"}), client.post(path, content=b"x", headers={"content-type":
                 "text/plain"}), client.post(path)]
        assert [form.status_code for form in forms] == [415, 415, 415], [form.text for form in forms]
        assert state(client, seat)["seat_status"] == "playing"  # the forms changed nothing
        assert client.get(f"/api/games/{game}").json()["players"] == 3
        assert client.post(path, json={}).status_code in (200, 201, 409)  # 409: next is asked for between rounds
