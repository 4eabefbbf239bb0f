"""maumau serve measured: the size of its pages and JSON, and a game's latency per move through the real HTTP stack.

    python bench/web_latency.py [--moves 60] [--players 4]      # needs the test extra (httpx)

A live server (uvicorn, on a free port) hosts games against easy, medium and hard bots; a client
plays random moves the way the table page does (post the move, then ask for news with the
version it has, until it is its turn again) and times each move from the post to the state that
asks for the next one: the bots' turns in between included. Sizes are of what a browser loads:
each page with its script and stylesheet, raw and gzip (the server compresses answers over 1 KB).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

from runner.tournament.driver import conduct
from runner.tournament.settings import plan
from runner.web.server import running

PAGES = {"lobby": ["/", "/static/lobby.js"], "table": ["/play/x", "/static/table.js"],
         "watch": ["/watch", "/static/watch.js"], "replay": ["/replay", "/static/replay.js"]}
SHARED = ["/static/app.css", "/static/common.js"]


def sizes(client: httpx.Client) -> list[str]:
    lines = []
    shared = [client.get(path, headers={"accept-encoding": "identity"}).content for path in SHARED]
    for name, paths in PAGES.items():
        parts = [client.get(path, headers={"accept-encoding": "identity"}).content for path in paths] + shared
        raw = sum(len(part) for part in parts)
        packed = sum(len(gzip.compress(part, 6)) for part in parts)
        lines.append(f"page {name:<7} {raw / 1024:6.1f} KiB raw, {packed / 1024:5.1f} KiB gzip (page, its script, "
                     "app.css, common.js)")
    return lines


def play(client: httpx.Client, level: str, players: int, moves: int,
         rng: random.Random) -> tuple[list[float], list[int]]:
    """Seconds from each move posted to the next decision shown; the size of each state JSON seen."""
    seat = client.post("/api/games", json={"ruleset": "elimination", "level": level, "players": players}).json()["seat"]
    state = client.get(f"/api/seats/{seat}").json()
    waits, lengths = [], []
    while len(waits) < moves and state["status"] not in ("over", "stopped", "failed"):
        if state["status"] == "between" and not state["ready"]:
            client.post(f"/api/seats/{seat}/next", json={})
        elif state["moves"]:
            started = time.perf_counter()
            move = rng.randrange(len(state["moves"]))
            client.post(f"/api/seats/{seat}/move", json={"turn": state["turn"], "move": move})
            while True:
                answer = client.get(f"/api/seats/{seat}", params={"after": state["version"]})
                state = answer.json()
                lengths.append(len(answer.content))
                if state["moves"] or state["status"] != "playing":
                    break
            if state["moves"]:
                waits.append(time.perf_counter() - started)
            continue
        answer = client.get(f"/api/seats/{seat}", params={"after": state["version"]})
        state = answer.json()
        lengths.append(len(answer.content))
    client.post(f"/api/seats/{seat}/leave", json={})
    return waits, lengths


def ms(values: list[float], q: float) -> str:
    ordered = sorted(values)
    return f"{ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000:6.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=60, help="moves timed per level")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as folder:
        settings = plan("elimination", ["easy", "medium", "hard"], deals=1, seed=args.seed)
        conduct(settings, Path(folder) / "t", False, backend="serial", quiet=True)
        with running(Path(folder)) as site, httpx.Client(base_url=site, timeout=60) as client:
            for line in sizes(client):
                print(line)
            replay = client.get("/api/replay", params={"t": "t", "m": "t0-d0-r0"},
                                headers={"accept-encoding": "identity"})
            frames = len(replay.json()["frames"])
            print(f"replay of an elimination match: {frames} frames, {len(replay.content) / 1024:.0f} KiB JSON, "
                  f"{len(gzip.compress(replay.content, 6)) / 1024:.0f} KiB gzip")
            for level in ("easy", "medium", "hard"):
                waits, lengths = play(client, level, args.players, args.moves, rng)
                print(f"{level:<6} {len(waits)} moves, {args.players} players: from the move posted to the next "
                      f"decision shown median {ms(waits, 0.5)} ms, p90 {ms(waits, 0.9)} ms, max {ms(waits, 1.0)} ms; "
                      f"state JSON median {statistics.median(lengths) / 1024:.1f} KiB, "
                      f"max {max(lengths) / 1024:.1f} KiB")
    print(json.dumps({"python": sys.version.split()[0], "load average": [round(x, 1) for x in os.getloadavg()]}))


if __name__ == "__main__":
    main()
