"""maumau against its peers: player decisions per second, random players, one process, one run.

    pip install -e '.[bench]' && python bench/peers.py            # the table of bench/results.md
    python bench/peers.py --runs 7 --seconds 2 --out bench/results.md

Installs nothing: a peer that is not importable is left out. Peers (OpenSpiel's C++
`crazy_eights`, RLCard's UNO) and our rulesets are timed in alternation, several runs each,
and the table shows medians. Games differ in length, so the ratios compare decisions (a
player's move: play, draw, pass, name a suit) per second; games per second stand beside them.
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
from datetime import datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from measure import Contender, engine, kept_log, machine, markdown, measure, stopwatch, version  # noqa: E402

OUR_RULESETS = ("standard-single", "strafpunten")
TARGETS = (  # (our row, peer row, lowest ratio): the speed goals set for the compiled engine
    ("strafpunten 4p", "OpenSpiel evaluate_bots, Python bot 4p", 1.5),
    ("standard-single 4p", "OpenSpiel evaluate_bots, Python bot 4p", 1.5),
    ("strafpunten 4p, log", "OpenSpiel evaluate_bots, Python bot 4p", 1.0),
    ("standard-single 4p, log", "OpenSpiel evaluate_bots, Python bot 4p", 1.0),
    ("strafpunten 4p", "RLCard UNO env.run 2p", 15.0),
    ("standard-single 4p", "RLCard UNO env.run 2p", 15.0),
)


# ---------------------------------------------------------------- maumau


def maumau_contenders(logs: tuple[str, ...], player_counts: tuple[int, ...], unseeded: bool = False) -> list[Contender]:
    """Our random bots through the full match path (Match, Referee, bots), in this process; with `unseeded`, also
    each ruleset's row with its generators seeded once, not per match (`unseeded_contenders`)."""
    from runner.plugins import registry

    try:
        from runner.table.match import Match
        from runner.table.play import make_bot_factory
    except ImportError:  # a checkout from before runner/ was split into layers: compare with it
        from runner.match import Match
        from runner.play import make_bot_factory

    reg = registry()
    make_bot = make_bot_factory(reg)
    contenders = []
    for name, players, log in itertools.product(OUR_RULESETS, player_counts, logs):
        ruleset = reg.load_ruleset(name)
        seeds = itertools.count()
        write = log == "gzip"

        def step(ruleset=ruleset, players=players, log=log, seeds=seeds, write=write) -> int:
            events = kept_log() if log != "off" else None
            result = Match(ruleset, ["random"] * players, next(seeds), make_bot, log=events).run()
            if write:
                _compress(events)
            return result.decisions

        label = f"{name} {players}p" + {"off": "", "memory": ", log", "gzip": ", log gzip"}[log]
        contenders.append(Contender(label, players, lambda seconds, step=step: stopwatch(seconds, step)))
    if unseeded:
        contenders += unseeded_contenders(reg, make_bot, player_counts)
    return contenders


def unseeded_contenders(reg, make_bot, player_counts: tuple[int, ...]) -> list[Contender]:
    """A bound, not a configuration: each ruleset's match path with its generators seeded once, not per match.

    A match seeds five generators from its seed (the deal's and each bot's, runner/table/match.py
    `match_generators`), as every stored result and the golden logs (tests/test_golden.py) require. Here
    every match gets the same five, made once, which carry on from the last match: what a cheaper
    seeding scheme could give at most. Such matches are not reproducible from their seeds.
    """
    import runner.table.match as match_module

    contenders = []
    for name, players in itertools.product(OUR_RULESETS, player_counts):
        ruleset, seeds = reg.load_ruleset(name), itertools.count()
        pool = match_module.match_generators("unseeded", players)

        def step(ruleset=ruleset, players=players, seeds=seeds, pool=pool) -> int:
            seeding, match_module.match_generators = match_module.match_generators, lambda seed, seats: pool
            try:
                return match_module.Match(ruleset, ["random"] * players, next(seeds), make_bot).run().decisions
            finally:
                match_module.match_generators = seeding

        label = f"{name} {players}p, generators seeded once (bound)"
        contenders.append(Contender(label, players, lambda seconds, step=step: stopwatch(seconds, step)))
    return contenders


def round_loop_contenders(player_counts: tuple[int, ...]) -> list[Contender]:
    """The engine alone, as OpenSpiel's Python loop drives its game: deal one round, then a uniform
    random legal action until it is over (no Match, referee, bot objects or Views)."""
    from runner import Round
    from runner.plugins import registry

    contenders = []
    for name, players in itertools.product(OUR_RULESETS, player_counts):
        ruleset, seeds, rng = registry().load_ruleset(name), itertools.count(), random.Random(players)

        def step(ruleset=ruleset, players=players, seeds=seeds, rng=rng) -> int:
            rnd = Round.deal(ruleset, random.Random(next(seeds)), players)
            decisions = 0
            while not rnd.over:
                legal = rnd.legal()
                rnd.apply(legal[int(rng.random() * len(legal))])
                decisions += 1
            return decisions

        contenders.append(Contender(f"{name} {players}p, Round loop", players,
                                    lambda seconds, step=step: stopwatch(seconds, step)))
    return contenders


def _compress(events) -> bytes:
    """The game log as a tournament stores it: gzip JSON lines."""
    try:
        from runner.logs.codec import compress
    except ImportError:
        try:
            from runner.work import compress  # before runner/ was split into layers
        except ImportError:
            compress = None
    if compress is None:  # before the tournament runner existed
        import gzip
        import json

        return gzip.compress("".join(json.dumps(e, separators=(",", ":")) + "\n" for e in events).encode(), mtime=0)
    return compress(events)


# ---------------------------------------------------------------- OpenSpiel


def openspiel_contenders(players: int, count_games: int) -> list[Contender]:
    """OpenSpiel 2's `crazy_eights` (C++), driven three ways."""
    import pyspiel
    from open_spiel.python.bots.uniform_random import UniformRandomBot

    game = pyspiel.load_game("crazy_eights", {"players": players})
    rng = random.Random(players)

    def loop_game() -> int:
        """One game from a Python loop: a uniform random legal action, chance sampled likewise."""
        state, decisions = game.new_initial_state(), 0
        while not state.is_terminal():
            if state.is_chance_node():
                # crazy_eights' chance outcomes (cards off a shuffled deck) are equiprobable
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.random() * len(legal))])
                decisions += 1
        return decisions

    class CountingBot(UniformRandomBot):
        steps = 0

        def step(self, state):
            CountingBot.steps += 1
            return super().step(state)

    def per_game(bots) -> float:
        """Decisions per game under uniform random play, counted outside the timed runs."""
        CountingBot.steps = 0
        for seed in range(count_games):
            pyspiel.evaluate_bots(game.new_initial_state(), bots, 10_000_000 + seed)
        return CountingBot.steps / count_games

    # The Python bot is OpenSpiel's own UniformRandomBot, given Python's `random.Random`
    # (its `choice` is fast; a numpy RandomState makes the bot about 3x slower).
    python_bots = [UniformRandomBot(p, random.Random(p)) for p in range(players)]
    cpp_bots = [pyspiel.make_uniform_random_bot(p, 1234 + p) for p in range(players)]
    expected = per_game([CountingBot(p, random.Random(100 + p)) for p in range(players)])

    def bots_player(bots):
        seeds = itertools.count()

        def one_game() -> int:
            pyspiel.evaluate_bots(game.new_initial_state(), bots, next(seeds))
            return 0  # the C++ loop cannot be watched; decisions come from `expected`

        def play(seconds: float):
            games, _, elapsed = stopwatch(seconds, one_game)
            return games, round(games * expected), elapsed

        return play

    note = f"decisions/game counted in {count_games} separate games"
    rows = [
        ("OpenSpiel Python loop", lambda s: stopwatch(s, loop_game), ""),
        ("OpenSpiel evaluate_bots, Python bot", bots_player(python_bots), note),
        ("OpenSpiel evaluate_bots, C++ bots", bots_player(cpp_bots), note),
    ]
    return [Contender(f"{kind} {players}p", players, play, "openspiel", kind, note) for kind, play, note in rows]


# ---------------------------------------------------------------- RLCard


def rlcard_contenders() -> list[Contender]:
    """RLCard's UNO (pure Python), two players (its only table size), through `env.run`."""
    import rlcard
    from rlcard.agents import RandomAgent

    env = rlcard.make("uno", config={"seed": 0})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])

    def one_game() -> int:
        trajectories, _ = env.run(is_training=False)
        # each player's trajectory alternates state, action, ..., final state
        return sum((len(trajectory) - 1) // 2 for trajectory in trajectories)

    kind = "RLCard UNO env.run"
    return [Contender(f"{kind} {env.num_players}p", env.num_players, lambda s: stopwatch(s, one_game), "rlcard", kind)]


# ---------------------------------------------------------------- report


def peers_available() -> dict[str, bool]:
    found = {}
    for name, module in (("openspiel", "pyspiel"), ("rlcard", "rlcard")):
        try:
            __import__(module)
            found[name] = True
        except ImportError:
            found[name] = False
    return found


def report(contenders: list[Contender], runs: int, seconds: float, command: str, started_load: str) -> str:
    ours = [c for c in contenders if c.side == "maumau"]
    peers = [c for c in contenders if c.side != "maumau"]
    lines = [
        "# maumau against its peers",
        "",
        f"`{command}` — {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC; {runs} runs of {seconds:g} CPU-second "
        "per row, rows timed in alternation in one process; medians. Rates are per CPU-second of the "
        "process, so a busy neighbour on a shared machine does not skew them.",
        "",
        f"Machine: {started_load} (at the start).",
        f"Versions: maumau {version('maumau')}, open_spiel {version('open_spiel')}, rlcard {version('rlcard')}, "
        f"numpy {version('numpy')}.",
        "",
        f"maumau's engine: {engine()}.",
        "",
        "Random players everywhere. A decision is one player's move (play, draw, pass, name a suit);",
        "chance events (dealing) are not decisions. maumau rows play whole matches through `Match`",
        "(referee, bots, a View per decision): `standard-single` is one round, `strafpunten` rounds",
        "to 100 penalty points; a game is a match. `log` keeps the full game log in memory,",
        "`log gzip` also writes it as a tournament stores it (gzip JSON lines). `Round loop` rows",
        "drive the engine alone the way the OpenSpiel Python loop drives its game: one round, a",
        "uniform random legal action at a time (no Match, referee, bot objects or Views).",
        "",
        "## Rates",
        "",
    ]
    rows = [
        [c.name, c.players, f"{c.decisions_per_game:,.1f}", f"{c.games_per_second:,.0f}",
         f"{c.decisions_per_second:,.0f}", c.spread]
        for c in contenders
    ]
    lines.append(markdown(["row", "players", "decisions/game", "games/s", "decisions/s", "runs (min–max)"], rows))
    if peers:
        lines += ["", "## Ratios: maumau decisions/s ÷ peer decisions/s (same player count; RLCard has 2)", ""]
        columns = list(dict.fromkeys(c.kind for c in peers))
        rows = []
        for us in ours:
            row = [us.name]
            for kind in columns:
                same_kind = [p for p in peers if p.kind == kind]
                peer = next((p for p in same_kind if p.players == us.players), same_kind[0])
                row.append(f"{us.decisions_per_second / peer.decisions_per_second:.2f}")
            rows.append(row)
        lines.append(markdown(["maumau row"] + columns, rows))
        lines += ["", "## Targets", ""]
        by_name = {c.name: c for c in contenders}
        rows = []
        for ours_name, peer_name, goal in TARGETS:
            us, peer = by_name.get(ours_name), by_name.get(peer_name)
            if us and peer:
                ratio = us.decisions_per_second / peer.decisions_per_second
                rows.append([f"{ours_name} vs "
                             f"{peer_name}", f"≥ {goal:g}", f"{ratio:.2f}", "met" if ratio >= goal else "not met"])
        lines.append(markdown(["target", "goal", "ratio", ""], rows))
        notes = sorted({c.note for c in peers if c.note})
        if notes:
            lines += ["", "Notes: " + "; ".join(f"evaluate_bots rows: {n}" for n in notes) + "."]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="timed runs per row (default 5)")
    parser.add_argument("--seconds", type=float, default=1.0, help="seconds per run (default 1)")
    parser.add_argument("--out", type=Path, help="also write the report to this Markdown file")
    parser.add_argument("--no-peers", action="store_true", help="time maumau alone")
    parser.add_argument("--logs", default="off,memory,gzip", help="log modes for our rows: off, memory, gzip")
    parser.add_argument("--players", default="2,4", help="player counts (default 2,4)")
    parser.add_argument("--unseeded", action="store_true",
                        help="also time each ruleset with its generators seeded once, not per match: a bound")
    args = parser.parse_args(argv)

    command = "python bench/peers.py" + (" " + " ".join(argv if argv is not None else sys.argv[1:])).rstrip()
    started = machine()
    player_counts = tuple(int(n) for n in args.players.split(","))
    contenders = maumau_contenders(tuple(args.logs.split(",")), player_counts, args.unseeded)
    contenders += round_loop_contenders(player_counts)
    found = {} if args.no_peers else peers_available()
    for name, ok in found.items():
        if not ok:
            print(f"{name}: not importable, left out (pip install -e '.[bench]')", file=sys.stderr)
    count_games = max(200, int(1000 * args.seconds))
    if found.get("openspiel"):
        for players in player_counts:
            contenders += openspiel_contenders(players, count_games)
    if found.get("rlcard"):
        contenders += rlcard_contenders()
    measure(contenders, args.runs, args.seconds, progress=lambda text: print(text, file=sys.stderr))
    text = report(contenders, args.runs, args.seconds, command, started)
    print(text, end="")
    if args.out:
        args.out.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
