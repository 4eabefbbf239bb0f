"""maumau serve through its JSON API (Starlette's TestClient): the lobby, a whole match, joins, leaves, bad requests."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from runner.cli import main
from runner.web import host
from support.webplay import DONE, new_game, play, server, state

HOUSE = """extends: strafpunten
name: nines-reverse
description: Strafpunten where a 9 reverses.
powers:
  9: {reverse: true}
"""
DATA = Path(__file__).parent / "data"
GALLERY = Path(__file__).parent.parent / "rulesets" / "gallery"


def test_the_lobby_offers_every_registered_ruleset_with_its_players_and_the_three_levels():
    with server() as (client, _):
        lobby = client.get("/api/lobby").json()
    assert lobby["levels"] == ["easy", "medium", "hard"]
    by_name = {r["name"]: r for r in lobby["rulesets"]}
    assert {"standard", "strafpunten", "elimination"} <= set(by_name)
    online = by_name["elimination"]
    assert (online["min"], online["max"], online["table_changes"]) == (2, 5, True)
    assert lobby["default"] == "elimination"


def test_the_pages_are_served_from_the_package_without_any_other_host():
    with server() as (client, _):
        for path in ("/", "/play/x", "/join/x", "/watch", "/replay"):
            page = client.get(path)
            assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
            assert "http://" not in page.text and "https://" not in page.text  # no CDN: the machine may be offline
        for name in ("app.css", "common.js", "lobby.js", "table.js", "join.js", "watch.js", "replay.js"):
            asset = client.get(f"/static/{name}")
            assert asset.status_code == 200 and "https://" not in asset.text


def test_a_whole_match_against_bots_ends_with_a_result_and_every_round_reported():
    rng = random.Random(3)
    reports = []

    def note_report(seat, st):
        reports.append(st["report"])
        return True

    with server() as (client, games):
        seat = new_game(client, "strafpunten", "easy", 3)
        final = play(client, [seat], rng, ready=note_report)[seat]
        game = next(iter(games.games.values()))
        log = client.get(f"/api/seats/{seat}/log")
    assert final["status"] == "over" and final["result"]["ranking"]
    assert sorted(final["result"]["ranking"]) == sorted(["you", "easy#1", "easy#2"])
    rounds = final["scores"]["rounds"]
    assert len(rounds) == len(game.result.rounds) and rounds[-1]["totals"] == list(game.result.totals)
    assert max(rounds[-1]["totals"]) >= 100  # strafpunten ends when a total reaches its limit
    assert len(reports) == len(rounds) - 1  # the last round's report comes with the result, not before a next round
    for report in reports:
        assert report["lines"][0].startswith(f"round {report['round']}: ")
        assert all(hand["points"] >= 0 for hand in report["hands"])
    assert log.status_code == 200 and log.text.count("\n") == len(game.events)
    assert '"type":"match_end"' in log.text.splitlines()[-1]


def test_moves_are_checked_against_the_decision_they_answer():
    with server() as (client, _):
        seat = new_game(client, "standard", "easy", 2)
        st = play(client, [seat], random.Random(1), until=lambda states: bool(states[seat]["moves"]))[seat]
        stale = client.post(f"/api/seats/{seat}/move", json={"turn": st["turn"] - 1, "move": 0})
        too_far = client.post(f"/api/seats/{seat}/move", json={"turn": st["turn"], "move": len(st["moves"])})
        negative = client.post(f"/api/seats/{seat}/move", json={"turn": st["turn"], "move": -1})
        garbage = client.post(f"/api/seats/{seat}/move", json={"turn": st["turn"], "move": "first"})
        extra = client.post(f"/api/seats/{seat}/move", json={"turn": st["turn"], "move": 0, "cheat": True})
        ok = client.post(f"/api/seats/{seat}/move", json={"turn": st["turn"], "move": 0})
        again = client.post(f"/api/seats/{seat}/move", json={"turn": st["turn"], "move": 0})
    assert stale.status_code == 409 and "not your turn" in stale.json()["error"]
    assert too_far.status_code == 400 and too_far.json()["error"].startswith("move must be a number from 0 to")
    assert negative.status_code == 400 and negative.json()["error"].startswith("move: ")
    assert garbage.status_code == 400 and extra.status_code == 400 and "cheat" in extra.json()["error"]
    assert ok.status_code == 200 and again.status_code == 409


@pytest.mark.parametrize("body, status, message", [
    ({"ruleset": "nope", "level": "easy", "players": 3}, 400, "unknown ruleset 'nope'; registered: "),
    ({"ruleset": "standard", "level": "easy", "players": 9}, 400,
     "ruleset 'standard' is played by 2 to 8 players, got 9"),
    ({"ruleset": "standard", "level": "godlike", "players": 3}, 400,
     "level: Input should be 'easy', 'medium' or 'hard'"),
    ({"ruleset": "standard", "level": "easy"}, 400, "players: Field required"),
    ({"ruleset": "standard", "yaml": HOUSE, "level": "easy", "players": 3}, 400, "give either ruleset"),
    ({"level": "easy", "players": 3}, 400, "give either ruleset"),
])
def test_a_bad_new_game_is_refused_with_one_line(body, status, message):
    with server() as (client, games):
        response = client.post("/api/games", json=body)
    assert response.status_code == status and response.json()["error"].startswith(message), response.json()
    assert "\n" not in response.json()["error"] and not games.games


def test_only_json_bodies_are_taken_and_not_too_big():
    with server() as (client, _):
        form = client.post("/api/games", data={"ruleset": "standard", "level": "easy", "players": "3"})
        broken = client.post("/api/games", content=b"{not json", headers={"content-type": "application/json"})
        huge = client.post("/api/rulesets/check", content=b"x" * (400 * 1024),
                           headers={"content-type": "application/json"})
    assert form.status_code == 415 and "application/json" in form.json()["error"]
    assert broken.status_code == 400 and huge.status_code == 413


def test_a_house_rule_file_is_checked_with_the_loaders_one_line_errors_and_played():
    with server() as (client, games):
        ok = client.post("/api/rulesets/check", json={"yaml": HOUSE, "filename": "nines.yaml"})
        bad = client.post("/api/rulesets/check",
                          json={"yaml": HOUSE + "hand_size: 0\n", "filename": "../../etc/nines.yaml"})
        syntax = client.post("/api/rulesets/check", json={"yaml": "powers: [", "filename": "broken.yaml"})
        escape = client.post("/api/rulesets/check", json={"yaml": "extends: ../../rulesets/standard.yaml\nname: x\n"})
        seat = new_game(client, None, "easy", 2, yaml=HOUSE, filename="nines.yaml")
        game = next(iter(games.games.values()))
        st = state(client, seat)
    assert ok.status_code == 200 and ok.json()["name"] == "nines-reverse" and ok.json()["min"] == 2
    error = bad.json()["error"]
    assert bad.status_code == 400 and error.startswith("nines.yaml: hand_size: ")
    assert "/tmp" not in error and "\n" not in error
    assert syntax.status_code == 400 and syntax.json()["error"].startswith("broken.yaml: YAML syntax error")
    assert escape.status_code == 400 and "extends a registered ruleset by name" in escape.json()["error"]
    assert game.spec.ruleset.powers and st["ruleset"]["name"] == "nines-reverse"


@pytest.mark.parametrize("name, text, wanted", [
    ("every-decision.yaml", (DATA / "every-decision.yaml").read_text(),
     {"swap", "give", "several", "wish", "jump in", "no jump", "skip"}),
    ("makao.yaml", (GALLERY / "makao.yaml").read_text(), {"several", "wish", "skip"}),
])
def test_a_house_rule_game_offers_every_kind_of_decision_its_rules_make(name, text, wanted):
    """The moves come from the engine's legal actions: each kind is shown with its words, and the match plays out."""
    seen: dict[str, str] = {}

    def note(seat, st):
        for move in st["moves"]:
            for kind, found in DECISIONS.items():
                if found(move, st.get("prompt") or ""):
                    seen.setdefault(kind, move["text"])

    with server() as (client, _):
        seat = new_game(client, None, "easy", 3, yaml=text, filename=name)
        final = play(client, [seat], random.Random(5), on_turn=note)[seat]
    assert final["status"] == "over", final["error"]
    assert wanted <= set(seen), f"never offered: {wanted - set(seen)}; offered {seen}"
    assert seen.get("swap", "swap hands with easy#1").startswith("swap hands with easy#")
    assert seen.get("jump in", "jump in with").startswith("jump in with")


DECISIONS = {  # a kind of decision, and how a move offered shows it
    "swap": lambda move, prompt: move["kind"] == "swap" and "swaps hands" in prompt,
    "give": lambda move, prompt: move["kind"] == "give" and "to the next player" in prompt,
    "several": lambda move, prompt: move["kind"] == "play" and len(move["cards"]) > 1,
    "wish": lambda move, prompt: move["kind"] == "play" and ", wishing for " in move["text"],
    "jump in": lambda move, prompt: move["kind"] == "play" and "you may jump in" in prompt,
    "no jump": lambda move, prompt: move["text"] == "do not jump in",
    "skip": lambda move, prompt: move["text"] == "take the skip" and "a skip is waiting" in prompt,
}


def test_another_browser_joins_between_rounds_with_the_lowest_total_and_a_leaver_is_struck():
    rng = random.Random(5)
    with server() as (client, games):
        first = new_game(client, "elimination", "easy", 3)
        st = play(client, [first], rng, until=lambda states: states[first]["status"] == "between")[first]
        invite = st["join"]
        game_token = invite.rsplit("/", 1)[1]
        assert client.get(f"/api/games/{game_token}").json()["table_changes"] is True
        joined = client.post(f"/api/games/{game_token}/join", json={})
        assert joined.status_code == 201
        second = joined.json()["seat"]
        waiting = state(client, second)
        assert waiting["seat_status"] == "waiting" and waiting["you"] is None and waiting["table"] is None
        lowest = min(st["scores"]["totals"])
        # the first player asks for round 2: the second sits down in seat 3 with the lowest total
        after = play(client, [first, second], rng, until=lambda states: states[second]["table"] is not None)
        seated = after[second]
        assert seated["you"] == 3 and seated["scores"]["totals"][3] == lowest
        assert state(client, first)["players"][3] == {"seat": 3, "name": "human#3", "bot": False}
        # the first player leaves at the next break; the second plays on to the end
        play(client, [first, second], rng, until=lambda states: states[first]["status"] == "between")
        assert client.post(f"/api/seats/{first}/leave", json={}).status_code == 200
        final = play(client, [second], rng)[second]
        gone = state(client, first)
    assert final["status"] == "over" and 0 in final["scores"]["struck"]
    assert "human#0" not in final["result"]["ranking"] and "you" in final["result"]["ranking"]
    assert gone["seat_status"] == "left" and not gone["moves"]


def test_a_ruleset_without_table_changes_takes_no_joiner_and_leaving_stops_the_game():
    with server() as (client, games):
        seat = new_game(client, "strafpunten", "easy", 3)
        game = next(iter(games.games.values()))
        refused = client.post(f"/api/games/{game.token}/join", json={})
        assert client.post(f"/api/seats/{seat}/leave", json={}).status_code == 200
        game.thread.join(timeout=60)
        st = state(client, seat)
    assert refused.status_code == 409 and "match.table_changes" in refused.json()["error"]
    assert st["status"] == "stopped" and not game.thread.is_alive()


def test_a_full_table_refuses_one_more():
    with server() as (client, games):
        new_game(client, "elimination", "easy", 5)
        game = next(iter(games.games.values()))
        full = client.post(f"/api/games/{game.token}/join", json={})
    assert full.status_code == 409 and "the table is full (5 players at most" in full.json()["error"]


def test_unknown_tokens_and_addresses_are_404_with_a_message():
    with server() as (client, _):
        seat = client.get("/api/seats/not-a-token")
        game = client.post("/api/games/not-a-token/join", json={})
        nowhere = client.get("/api/nowhere")
        wrong_method = client.get("/api/games")
    assert seat.status_code == 404 and "no such seat" in seat.json()["error"]
    assert game.status_code == 404 and nowhere.status_code == 404 and "no such address" in nowhere.json()["error"]
    assert wrong_method.status_code == 405


def test_the_game_log_is_given_only_once_the_match_is_over():
    with server() as (client, _):
        seat = new_game(client, "standard", "easy", 2)
        early = client.get(f"/api/seats/{seat}/log")
    assert early.status_code == 409 and "once the match is over" in early.json()["error"]


def test_idle_games_are_stopped_and_forgotten():
    now = [0.0]
    with server(clock=lambda: now[0]) as (client, games):
        seat = new_game(client, "standard", "easy", 2)
        game = next(iter(games.games.values()))
        state(client, seat)
        now[0] += host.IDLE_SECONDS - 1
        assert games.sweep() == []
        now[0] += 2
        assert games.sweep() == [game.token]
        game.thread.join(timeout=60)
        gone = client.get(f"/api/seats/{seat}")
    assert not game.thread.is_alive() and game.status == "stopped" and gone.status_code == 404


def test_a_person_who_stops_looking_leaves_a_table_of_several():
    now = [0.0]
    rng = random.Random(2)
    with server(clock=lambda: now[0]) as (client, games):
        first = new_game(client, "elimination", "easy", 2)
        game = next(iter(games.games.values()))
        play(client, [first], rng, until=lambda states: states[first]["status"] == "between")
        second = client.post(f"/api/games/{game.token}/join", json={}).json()["seat"]
        now[0] += host.SEAT_IDLE_SECONDS + 1
        state(client, second)  # the second keeps looking; the first does not
        games.sweep()
        assert game.seats[0].leaving and game.token in games.games
        st = play(client, [second], rng, until=lambda states: states[second]["table"] is not None)[second]
    assert st["you"] == 2 and st["scores"]["struck"] == [0]


def test_too_many_games_are_refused():
    with server() as (client, games):
        games.max_games = 1
        new_game(client, "standard", "easy", 2)
        refused = client.post("/api/games", json={"ruleset": "standard", "level": "easy", "players": 2})
    assert refused.status_code == 503 and "try again later" in refused.json()["error"]


def test_a_page_asking_for_news_waits_for_a_change():
    with server() as (client, _):
        seat = new_game(client, "standard", "easy", 2)
        st = play(client, [seat], random.Random(4), until=lambda states: bool(states[seat]["moves"]))[seat]
        same = state(client, seat, after=st["version"])  # nothing changes while the game waits for us
        assert same["version"] == st["version"] and same["moves"]
        client.post(f"/api/seats/{seat}/move", json={"turn": st["turn"], "move": 0})
        moved = state(client, seat, after=st["version"])
    assert moved["version"] > st["version"]


def run_cli(monkeypatch, capsys, args):
    monkeypatch.setattr(sys, "argv", ["maumau", *args])
    try:
        main()
        code = 0
    except SystemExit as exc:
        code = exc.code or 0
    return code, capsys.readouterr()


def test_serve_says_what_is_missing_without_the_web_extra(monkeypatch, capsys):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "uvicorn" else real(name, *a))
    code, out = run_cli(monkeypatch, capsys, ["serve"])
    assert code == 1
    # maumau is not on PyPI: the command that works is the install from this clone
    root = Path(__file__).resolve().parents[1]
    assert out.err == f"Error: maumau serve needs uvicorn, which is not installed: pip install -e '{root}[web]'\n"


def test_serve_refuses_a_results_directory_that_is_not_there_and_a_port_in_use(monkeypatch, capsys, tmp_path):
    import socket

    code, out = run_cli(monkeypatch, capsys, ["serve", "--results", str(tmp_path / "nope")])
    assert code == 1 and out.err.startswith(f"Error: --results {tmp_path / 'nope'}: no such directory")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code, out = run_cli(monkeypatch, capsys, ["serve", "--port", str(port)])
    assert code == 1 and out.err.startswith(f"Error: cannot listen on 127.0.0.1:{port}")


def test_a_stopped_server_stops_its_games():
    with server() as (client, games):
        new_game(client, "standard", "easy", 2)
        game = next(iter(games.games.values()))
    game.thread.join(timeout=60)
    assert game.status in DONE


def test_a_house_rule_file_whose_turns_list_too_many_chains_is_refused_with_the_fix():
    """The issue's file: rulesets check notes it, and the server hosts no game of it (a chain file played there held
    200k-730k moves, 28-101 MB a state); capped to a few chains it is played."""
    bomb = ("extends: standard\nname: bomb\nplayers: {min: 2, max: 2}\ndeck: {ranks: skat, jokers: 4}\n"
            "points: {X: 20}\nmultiple: {chain: true}\npowers: {7: {draw: 52}}\n")
    with server() as (client, _):
        refused = client.post("/api/games", json={"yaml": bomb, "filename": "bomb.yaml", "players": 2})
        checked = client.post("/api/rulesets/check", json={"yaml": bomb, "filename": "bomb.yaml"})
        capped = client.post("/api/games", json={"yaml": bomb.replace("chain: true", "chain: true, chain_max: 2"),
                                                 "filename": "bomb.yaml", "players": 2})
    assert refused.status_code == 400 == checked.status_code
    assert refused.json()["error"].startswith("bomb.yaml: multiple.chain: a hand can grow to 34 cards")
    assert "chain_max (2: at most 1,156)" in refused.json()["error"] and "more than 20,000 chains" in checked.text
    assert capped.status_code == 201, capped.text
