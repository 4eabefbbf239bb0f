"""The commands organisers run, timed as whole processes, beside OpenSpiel's evaluate_bots as a whole process.

    python bench/commands.py                      # 3 runs a row, alternating; medians and ratios
    python bench/commands.py --runs 5 --scale 0.5 # half the deals in every row
    python bench/commands.py --instructions       # instructions per match under valgrind: load-independent
    python bench/commands.py --archive            # a log file per match against one archive per worker (prototype)

Rows (4 random bots, one table of 4, `--quiet`; 4 matches a deal, one per seat rotation):

- `maumau tournament -r strafpunten` with its defaults (logs kept, `--move-time 1`) and `--workers 1`,
  500 deals; the same with `--no-logs`; standard-single both ways, 1,500 deals. `--backend serial` plays
  them in the one process instead of a worker.
- start-up: each ruleset's `--deals 1 --no-logs`, subtracted from the rows' CPU time for their cost per match.
- OpenSpiel 2's `crazy_eights` with `use_special_cards` and `reshuffle` on (the closest to Mau Mau's rules),
  4 players, a Python `pyspiel.Bot` subclass choosing uniformly among `state.legal_actions()`, through
  `pyspiel.evaluate_bots`, 2,000 games, in a process of its own (this file, `--openspiel-child`).
  Not bench/peers.py's OpenSpiel row, which plays the default crazy_eights (no special cards, no reshuffle).
- the floor: `Match.run()` in a loop in one process, as bench/peers.py times it (untimed decisions; the log
  kept in memory for the rows with logs), its CPU time per match.

Rows run in rotation, `--runs` times; the table gives medians of wall and CPU (user + system of the process
and its workers) seconds. Ratios: decisions per second of the whole command over OpenSpiel's whole process
(by wall, as a user sees it, and by CPU, which a busy neighbour does not move), and the command's CPU per
match past start-up over the floor's. `--instructions` runs each row at N and 2N deals under
`valgrind --tool=cachegrind --trace-children=yes` (bench/cachegrind.py) and divides the difference: the
instructions a match costs past start-up, and a decision, in each command, the floor and OpenSpiel.
OpenSpiel rows are left out, saying so, where `pyspiel` is not importable (`pip install -e '.[bench]'`).

`--archive` times what storing a match's gzip log costs (CPU: user + system, and wall), today's way against a
prototype the fixed layout (one gzip file per match, docs/how-to/tournaments.md) does not allow, for the decision on
that contract:
`files` creates `logs/<id>.jsonl.gz` per match (runner/logs/codec.py `write_file`, as a worker does), `archive`
appends each match's gzip member to one file per worker, opened once, and keeps (offset, length) as the match row's
index would (a gzip file of several members is one valid gzip stream: `zcat` reads the archive whole, a replay reads
a match with one pread). Both hash the bytes (the row's SHA-256) and write no fsync, as today. The logs are real ones
(random bots, `--archive-ruleset`), compressed beforehand: only the storing is timed, in a fresh directory per run
under `--archive-dir` (the filesystem and the directory's place on it decide the cost of creating a file).
"""

from __future__ import annotations

import argparse
import os
import random
import re
import resource
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from measure import machine, markdown  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
OPENSPIEL_GAMES = 2000
OPENSPIEL_CONFIG = "crazy_eights, use_special_cards and reshuffle on, 4 players, Python random pyspiel.Bot"


@dataclass
class Row:
    """One command timed as a whole process."""

    name: str
    ruleset: str  # "" for OpenSpiel
    argv: list[str]  # after the interpreter
    units: int  # deals (tournaments), games (OpenSpiel) or matches (the floor)
    logs: bool = True
    kind: str = "command"  # command, startup, openspiel, floor
    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    decisions: int = 0
    matches: int = 0

    @property
    def wall_s(self) -> float:
        return statistics.median(self.wall)

    @property
    def cpu_s(self) -> float:
        return statistics.median(self.cpu)


def tournament(ruleset: str, deals: int, *flags: str) -> list[str]:
    bots = [arg for _ in range(4) for arg in ("-b", "random")]
    return ["-m", "runner.cli", "tournament", "-r", ruleset, *bots, "--deals", str(deals), "--quiet", "--seed", "1",
            *flags]


def rows(scale: float, backend: str, openspiel: bool) -> list[Row]:
    where = ["--backend", "serial"] if backend == "serial" else ["--workers", "1"]
    strafpunten, single = max(1, round(500 * scale)), max(1, round(1500 * scale))
    made = [
        Row(f"strafpunten, defaults ({' '.join(where)})", "strafpunten", tournament("strafpunten", strafpunten, *where),
            strafpunten),
        Row("strafpunten --no-logs", "strafpunten", tournament("strafpunten", strafpunten, *where, "--no-logs"),
            strafpunten, logs=False),
        Row("standard-single, defaults", "standard-single", tournament("standard-single", single, *where), single),
        Row("standard-single --no-logs", "standard-single",
            tournament("standard-single", single, *where, "--no-logs"), single, logs=False),
    ]
    for name in ("strafpunten", "standard-single"):
        made.append(Row(f"start-up: {name} --deals 1 --no-logs", name, tournament(name, 1, *where, "--no-logs"), 1,
                        logs=False, kind="startup"))
    for name, matches in (("strafpunten", 4 * strafpunten), ("standard-single", 4 * single)):
        for logs in (True, False):
            made.append(Row(f"floor: Match.run() loop, {name}" + (", log" if logs else ""), name,
                            [__file__, "--floor-child", name, str(matches), "1" if logs else "0"], matches, logs,
                            kind="floor"))
    if openspiel:
        games = max(1, round(OPENSPIEL_GAMES * scale))
        made.append(Row("OpenSpiel evaluate_bots", "", [__file__, "--openspiel-child", str(games)], games,
                        kind="openspiel"))
    return made


def run_once(row: Row) -> None:
    """Run `row` once as a whole process: its wall and CPU seconds, and what it played."""
    out = Path(tempfile.mkdtemp(prefix="maumau-bench-"))
    argv = [sys.executable, *row.argv] + (["--out", str(out / "results")] if row.kind in ("command", "startup") else [])
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        if done.returncode:
            sys.exit(f"Error: {row.name} failed: {done.stderr.strip()[-500:]}")
        if row.kind in ("command", "startup"):
            row.matches, row.decisions = played(out / "results")
        else:
            row.matches, row.decisions = (int(n) for n in done.stdout.split()[-2:])
            if row.kind == "floor":  # the loop's own CPU time, without the start-up of its process
                row.cpu.append(float(done.stdout.split()[-3]))
                row.wall.append(wall)
                return
    finally:
        shutil.rmtree(out, ignore_errors=True)
    row.wall.append(wall)
    row.cpu.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)


def played(results: Path) -> tuple[int, int]:
    """(matches, decisions) a tournament stored."""
    db = sqlite3.connect(results / "tournament.sqlite")
    try:
        matches, decisions = db.execute("SELECT COUNT(*), SUM(decisions) FROM matches").fetchone()
    finally:
        db.close()
    return matches, decisions


def openspiel_available() -> bool:
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print("OpenSpiel: pyspiel is not importable, its row left out (pip install -e '.[bench]', open_spiel==2.0.2)",
              file=sys.stderr)
        return False
    return True


# ---------------------------------------------------------------- children


def openspiel_child(games: int) -> tuple[int, int]:
    """Play `games` games as OPENSPIEL_CONFIG says; (games, decisions)."""
    import pyspiel

    class UniformRandom(pyspiel.Bot):
        """A uniform choice among the legal actions, with Python's random.Random (as our random bot)."""

        def __init__(self, seed: int):
            pyspiel.Bot.__init__(self)
            self.rng, self.decisions = random.Random(seed), 0

        def step(self, state):
            self.decisions += 1
            legal = state.legal_actions()
            return legal[int(self.rng.random() * len(legal))]

        def restart_at(self, state):
            pass

    game = pyspiel.load_game("crazy_eights", {"players": 4, "use_special_cards": True, "reshuffle": True})
    bots = [UniformRandom(p) for p in range(4)]
    for seed in range(games):
        pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)
    return games, sum(bot.decisions for bot in bots)


def floor_child(ruleset_name: str, matches: int, logs: bool) -> tuple[float, int, int]:
    """`matches` matches of four random bots through `Match.run()` (bench/peers.py's path); (CPU seconds of the
    loop, matches, decisions)."""
    from measure import kept_log

    from runner.plugins import registry
    from runner.table.match import Match
    from runner.table.play import make_bot_factory

    reg = registry()
    make_bot, ruleset = make_bot_factory(reg), reg.load_ruleset(ruleset_name)
    decisions = 0
    start = time.process_time()
    for seed in range(matches):
        decisions += Match(ruleset, ["random"] * 4, seed, make_bot, log=kept_log() if logs else None).run().decisions
    return time.process_time() - start, matches, decisions


def archive_logs(ruleset_name: str, matches: int) -> list[bytes]:
    """`matches` gzip logs of four random bots, as a tournament writes them."""
    from runner.game.events import GameLog
    from runner.logs.codec import compress
    from runner.plugins import registry
    from runner.table.match import Match
    from runner.table.play import make_bot_factory

    reg = registry()
    make_bot, ruleset = make_bot_factory(reg), reg.load_ruleset(ruleset_name)
    logs = []
    for seed in range(matches):
        log = GameLog()
        Match(ruleset, ["random"] * 4, seed, make_bot, log=log).run()
        logs.append(compress(log))
    return logs


def store_files(directory: Path, logs: list[bytes]) -> None:
    """Today's way: a file per match (runner/tournament/logfiles.py `store_log`)."""
    from runner.logs.codec import write_file
    from runner.tournament.integrity import sha256

    for number, data in enumerate(logs):
        write_file(f"{directory}/logs/t0-d{number}-r0.jsonl.gz", data)
        sha256(data)


def store_archive(directory: Path, logs: list[bytes]) -> dict[str, tuple[int, int, str]]:
    """The prototype: one archive per worker, each log appended as a gzip member; its index, each match's (offset,
    length, SHA-256)."""
    from runner.tournament.integrity import sha256

    index = {}
    fd = os.open(directory / "logs" / f"worker-{os.getpid()}.gz", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o666)
    try:
        offset = 0
        for number, data in enumerate(logs):
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            index[f"t0-d{number}-r0"] = (offset, len(data), sha256(data))
            offset += len(data)
    finally:
        os.close(fd)
    return index


def archive_report(ruleset_name: str, matches: int, runs: int, where: Path) -> str:
    """Each way `runs` times, alternating, each into a fresh directory: medians per match."""
    logs = archive_logs(ruleset_name, matches)
    ways = {"files": store_files, "archive": store_archive}
    cpu: dict[str, list[float]] = {way: [] for way in ways}
    wall: dict[str, list[float]] = {way: [] for way in ways}
    where.mkdir(parents=True, exist_ok=True)
    for run in range(runs):
        for way in (list(ways) if run % 2 == 0 else list(ways)[::-1]):
            directory = Path(tempfile.mkdtemp(prefix="maumau-archive-", dir=where))
            (directory / "logs").mkdir()
            try:
                before, start = resource.getrusage(resource.RUSAGE_SELF), time.perf_counter()
                ways[way](directory, logs)
                elapsed, after = time.perf_counter() - start, resource.getrusage(resource.RUSAGE_SELF)
            finally:
                shutil.rmtree(directory, ignore_errors=True)
            cpu[way].append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
            wall[way].append(elapsed)
    size = sum(map(len, logs)) // len(logs)
    table = [[way, f"{statistics.median(cpu[way]) / matches * 1e6:,.1f} µs",
              f"{statistics.median(wall[way]) / matches * 1e6:,.1f} µs"] for way in ways]
    notes = [f"{matches:,} {ruleset_name} logs of random bots ({size:,} bytes each on average), stored {runs} times "
             f"each way, alternating, each run into a fresh directory under {where}; medians per match.",
             "CPU: user + system time of the storing alone (the logs were compressed beforehand)."]
    return markdown(["way", "CPU per match", "wall per match"], table) + "\n\n" + "\n".join(notes) + "\n"


# ---------------------------------------------------------------- reports


def timed_report(made: list[Row], runs: int) -> str:
    startup = {row.ruleset: row for row in made if row.kind == "startup"}
    floor = {(row.ruleset, row.logs): row for row in made if row.kind == "floor"}
    peer = next((row for row in made if row.kind == "openspiel"), None)
    table = []
    for row in made:
        per_match = ratio_floor = ""
        if row.kind == "command" and row.matches > startup[row.ruleset].matches:
            base = startup[row.ruleset]
            cost = (row.cpu_s - base.cpu_s) / (row.matches - base.matches)
            per_match = f"{cost * 1e6:,.0f} µs"
            match = floor[(row.ruleset, row.logs)]
            ratio_floor = f"{cost / (match.cpu_s / match.matches):.2f}"
        elif row.kind == "floor":
            per_match = f"{row.cpu_s / row.matches * 1e6:,.0f} µs"
        vs_wall = vs_cpu = ""
        if peer is not None and row.kind in ("command", "openspiel"):
            vs_wall = f"{(row.decisions / row.wall_s) / (peer.decisions / peer.wall_s):.2f}"
            vs_cpu = f"{(row.decisions / row.cpu_s) / (peer.decisions / peer.cpu_s):.2f}"
        wall = "" if row.kind == "floor" else f"{row.wall_s:.2f}"
        table.append([row.name, f"{row.matches:,}", f"{row.decisions:,}", wall, f"{row.cpu_s:.2f}", per_match,
                      ratio_floor, vs_wall, vs_cpu])
    headers = ["row", "matches/games", "decisions", "wall s", "CPU s", "CPU/match past start-up", "÷ floor",
               "÷ OpenSpiel (wall)", "÷ OpenSpiel (CPU)"]
    notes = [f"Medians of {runs} runs, rows in rotation. Floor rows: the loop's CPU time alone (no start-up).",
             f"OpenSpiel: {OPENSPIEL_CONFIG}." if peer else "OpenSpiel: not installed, left out.",
             "÷ OpenSpiel: the row's decisions per second over OpenSpiel's, whole process against whole process."]
    return markdown(headers, table) + "\n\n" + "\n".join(notes) + "\n"


def instructions(row: Row, units: int) -> tuple[int, int, int]:
    """(instructions, matches, decisions) of `row`'s command at `units` deals, games or matches, under cachegrind."""
    argv = list(row.argv)
    if row.kind == "command":
        argv[argv.index("--deals") + 1] = str(units)
    else:  # the child's count: after --openspiel-child, or after --floor-child and the ruleset
        argv[2 if row.kind == "openspiel" else 3] = str(units)
    out = Path(tempfile.mkdtemp(prefix="maumau-bench-"))
    if row.kind == "command":
        argv += ["--out", str(out / "results")]
    try:
        # one hash seed: a set's or dict's order, and the instructions walking it, the same in every run
        done = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--trace-children=yes",
                               f"--cachegrind-out-file={out}/cg.%p", sys.executable, *argv],
                              capture_output=True, text=True, cwd=ROOT, env={**os.environ, "PYTHONHASHSEED": "0"})
        counts = [int(n.replace(",", "")) for n in re.findall(r"I\s+refs:\s+([\d,]+)", done.stderr)]
        if done.returncode or not counts:
            sys.exit(f"Error: valgrind failed on {row.name}: {done.stderr.strip()[-500:]}")
        matches, decisions = (played(out / "results") if row.kind == "command"
                              else (int(n) for n in done.stdout.split()[-2:]))
    finally:
        shutil.rmtree(out, ignore_errors=True)
    return sum(counts), matches, decisions


def instruction_report(made: list[Row], deals: int) -> str:
    """Each row at N and 2N (deals; games or matches for OpenSpiel and the floor, four matches a deal)."""
    if shutil.which("valgrind") is None:
        sys.exit("Error: valgrind is not installed (apt-get install valgrind)")
    table, peer = [], None
    counted = []
    for row in made:
        if row.kind == "startup":
            continue
        n = deals if row.kind == "command" else 4 * deals if row.kind == "floor" else 4 * deals
        (few, few_m, few_d), (more, more_m, more_d) = instructions(row, n), instructions(row, 2 * n)
        per_match, per_decision = (more - few) / (more_m - few_m), (more - few) / (more_d - few_d)
        counted.append((row, per_match, per_decision, more_m - few_m))
        if row.kind == "openspiel":
            peer = per_decision
        print(f"{row.name}: {per_match:,.0f} instructions a match", file=sys.stderr)
    floor = {(row.ruleset, row.logs): per_match for row, per_match, _, _ in counted if row.kind == "floor"}
    for row, per_match, per_decision, matches in counted:
        ratio_floor = f"{per_match / floor[(row.ruleset, row.logs)]:.2f}" if row.kind == "command" else ""
        ratio_peer = f"{peer / per_decision:.2f}" if peer and row.kind != "floor" else ""
        table.append([row.name, f"{matches:,}", f"{per_match:,.0f}", f"{per_decision:,.0f}", ratio_floor, ratio_peer])
    headers = ["row", "matches/games counted", "instructions/match", "instructions/decision", "÷ floor",
               "OpenSpiel's ÷ ours per decision"]
    notes = [f"Each row at {deals} and {2 * deals} deals (floor: 4x as many matches; OpenSpiel: 4x as many games), "
             "the difference divided: start-up left out.",
             f"OpenSpiel: {OPENSPIEL_CONFIG}." if peer else "OpenSpiel: not installed, left out.",
             "Instructions are not time (a C++ engine runs more instructions a cycle than an interpreter), "
             "but they do not move with the machine's load."]
    return markdown(headers, table) + "\n\n" + "\n".join(notes) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs a row, in rotation (default 3)")
    parser.add_argument("--scale", type=float, default=1.0, help="deals and games of every row times this")
    parser.add_argument("--backend", choices=("processes", "serial"), default="processes",
                        help="the tournaments' backend: processes with --workers 1 (default) or serial")
    parser.add_argument("--no-openspiel", action="store_true", help="leave OpenSpiel's row out")
    parser.add_argument("--instructions", action="store_true",
                        help="instructions per match under valgrind instead of times (load-independent)")
    parser.add_argument("--deals", type=int, default=10, help="with --instructions: N, rows at N and 2N deals")
    parser.add_argument("--archive", action="store_true",
                        help="time a log file per match against one log archive per worker (a prototype) instead")
    parser.add_argument("--archive-ruleset", default="strafpunten", help="with --archive: the logs' ruleset")
    parser.add_argument("--archive-matches", type=int, default=2000, help="with --archive: logs stored a run")
    parser.add_argument("--archive-dir", type=Path, default=Path(tempfile.gettempdir()),
                        help="with --archive: where the runs' directories are made (default: the temporary directory)")
    args = parser.parse_args(argv)
    command = "python bench/commands.py" + (" " + " ".join(argv if argv is not None else sys.argv[1:])).rstrip()
    header = f"`{command}` — {time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC\n\nMachine: {machine()}.\n\n"
    if args.archive:
        print(header + archive_report(args.archive_ruleset, args.archive_matches, args.runs, args.archive_dir), end="")
        return 0
    made = rows(args.scale, args.backend, not args.no_openspiel and openspiel_available())
    if args.instructions:
        print(header + instruction_report(made, args.deals), end="")
        return 0
    for run in range(args.runs):
        for row in made[run % len(made):] + made[:run % len(made)]:
            run_once(row)
        print(f"run {run + 1}/{args.runs} done (load average {os.getloadavg()[0]:.1f})", file=sys.stderr)
    print(header + timed_report(made, args.runs), end="")
    return 0


if __name__ == "__main__" and sys.argv[1:2] == ["--openspiel-child"]:
    print(*openspiel_child(int(sys.argv[2])))
elif __name__ == "__main__" and sys.argv[1:2] == ["--floor-child"]:
    print(*floor_child(sys.argv[2], int(sys.argv[3]), sys.argv[4] == "1"))
elif __name__ == "__main__":
    sys.exit(main())
