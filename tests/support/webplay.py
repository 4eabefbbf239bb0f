"""Playing hosted games through the JSON API, for the server tests (tests/test_web*.py)."""

from __future__ import annotations

import itertools
import random
import time
from contextlib import contextmanager
from pathlib import Path

from starlette.testclient import TestClient

from runner.web.app import create_app
from runner.web.host import Games

DONE = ("over", "stopped", "failed")
PATIENCE = 120.0  # seconds a driver waits for a game that should be moving before it fails the test


@contextmanager
def server(results: Path | None = None, clock=time.monotonic, seeds=None, **options):
    """A TestClient of a fresh application, and its games (seeded 1, 2, 3, ... unless told otherwise)."""
    games = Games(clock=clock, seeds=seeds or itertools.count(1).__next__)
    with TestClient(create_app(results, games=games, long_poll=2.0, **options)) as client:
        yield client, games


def new_game(client, ruleset="strafpunten", level="easy", players=3, **more) -> str:
    response = client.post("/api/games", json={"ruleset": ruleset, "level": level, "players": players, **more})
    assert response.status_code == 201, response.text
    return response.json()["seat"]


def state(client, seat: str, after: int | None = None) -> dict:
    response = client.get(f"/api/seats/{seat}" + (f"?after={after}" if after is not None else ""))
    assert response.status_code == 200, response.text
    return response.json()


def choose(moves: list[dict], rng: random.Random) -> int:
    """A random move, a card rather than a draw when there is one (random drawing makes rounds long: slow tests)."""
    plays = [index for index, move in enumerate(moves) if move["cards"]]
    return rng.choice(plays) if plays else rng.randrange(len(moves))


def play(client, seats: list[str], rng: random.Random, until=lambda states: False, on_turn=None,
         ready=lambda seat, st: True) -> dict[str, dict]:
    """Play every seat in `seats` with random moves (`choose`), asking for each next round when `ready(seat, state)`,
    until every game is over or `until(states)` holds; `on_turn(seat, state)` sees each state asking for a move."""
    states: dict[str, dict] = {}
    deadline = time.monotonic() + PATIENCE
    while True:
        acted = False
        for seat in seats:
            states[seat] = state(client, seat)
        if until(states):
            return states
        for seat in seats:
            current = states[seat]
            if current["moves"]:
                if on_turn is not None:
                    on_turn(seat, current)
                move = choose(current["moves"], rng)
                response = client.post(f"/api/seats/{seat}/move", json={"turn": current["turn"], "move": move})
                assert response.status_code == 200, response.text
                acted = True
            elif current["status"] == "between" and not current["ready"] and current["seat_status"] == "playing" \
                    and ready(seat, current):
                assert client.post(f"/api/seats/{seat}/next", json={}).status_code == 200
                acted = True
        if all(states[seat]["status"] in DONE for seat in seats):
            return states
        if not acted:  # nothing to do: wait for the game to change
            state(client, seats[0], after=states[seats[0]]["version"])
        assert time.monotonic() < deadline, f"the game did not move for {PATIENCE} s: {states}"
