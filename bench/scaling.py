"""Long tournaments: memory while 100,000 matches stream to the database, and what a second worker buys.

    python bench/scaling.py memory      # peak RSS of a 10,000- and of a 100,000-match tournament
    python bench/scaling.py workers     # 1 worker against 2, 4,000 strafpunten matches at tables of 4, 3 runs each
    python bench/scaling.py profile     # where a stored match's time goes, in a worker and in the driver
    python bench/scaling.py driver      # the driver's own CPU per match, fed recorded results (see `driver`)
    python bench/scaling.py all         # memory, workers and profile, one after the other

Each tournament is `maumau tournament` run as its own process (random bots; `standard-single`
at two seats for memory), watched from outside through /proc: its peak resident memory (VmHWM)
and that of each worker process, the matches stored, CPU and wall time. Linux only.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pickle
import pstats
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from statistics import median

sys.path.insert(0, str(Path(__file__).resolve().parent))

from measure import machine, markdown  # noqa: E402

RULESET = "standard-single"  # memory: many short matches, two seats
LONG = ("strafpunten", 4)  # workers: matches to 100 points at a table of four, as in the README's example
TICK = 0.1  # seconds between looks at the running tournament


# ---------------------------------------------------------------- watching a tournament process


def status_kb(pid: int, field: str) -> int:
    """A `kB` field of /proc/PID/status (VmHWM: peak resident memory, VmRSS: resident now); 0 if gone."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of PID so far (0 if gone)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except OSError:
        return 0.0


def children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as found:
            return [int(p) for p in found.read().split()]
    except OSError:
        return []


def stored(directory: Path) -> int:
    """Matches committed to the tournament database so far."""
    try:
        with sqlite3.connect(f"file:{directory / 'tournament.sqlite'}?mode=ro", uri=True, timeout=0.1) as db:
            return db.execute("SELECT COUNT(*) FROM matches").fetchone()[0]
    except sqlite3.Error:
        return 0


def tournament(matches: int, out: Path, workers: int, logs: bool, kind: tuple[str, int] = (RULESET, 2)) -> dict:
    """Run a `matches`-match tournament of random bots (`kind`: ruleset, seats) in a new process; watch it to the end.

    Returns the wall time, the CPU time of the parent and of the workers, and the peak RSS of the
    parent and of the largest worker over the whole run (the standings at the end included).
    """
    ruleset, seats = kind
    command = [
        sys.executable,
        "-m",
        "runner.cli",
        "tournament",
        "-r",
        ruleset,
        *["-b", "random"] * seats,
        "--table-size",
        str(seats),
        "--deals",
        str(matches // seats),
        "--workers",
        str(workers),
        "--out",
        str(out),
        "--logs" if logs else "--no-logs",
        "-q",
        "--format",
        "csv",
    ]
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peak_parent = peak_worker = 0
    cpu_parent, cpu_workers = 0.0, {}
    while process.poll() is None:
        time.sleep(TICK)
        peak_parent = max(peak_parent, status_kb(process.pid, "VmHWM"))
        for worker in children(process.pid):
            peak_worker = max(peak_worker, status_kb(worker, "VmHWM"))
            cpu_workers[worker] = max(cpu_workers.get(worker, 0.0), cpu_seconds(worker))
        cpu_parent = max(cpu_parent, cpu_seconds(process.pid))
    wall = time.perf_counter() - start
    if process.returncode != 0:
        raise SystemExit(f"tournament failed: {process.stderr.read().decode()[-2000:]}")
    return {"wall": wall, "matches": stored(out), "cpu_parent": cpu_parent, "cpu_workers": sum(cpu_workers.values()),
            "peak_parent": peak_parent, "peak_worker": peak_worker}


# ---------------------------------------------------------------- the three benchmarks


def scratch(args) -> tempfile.TemporaryDirectory:
    """A throw-away results directory under --dir: one log file per match makes the disk part of the test."""
    args.dir.mkdir(parents=True, exist_ok=True)
    return tempfile.TemporaryDirectory(dir=args.dir)


def memory(args) -> str:
    """Two tournaments, 10,000 and `args.matches` matches: their peak RSS, parent and workers, standings included."""
    rows, peaks = [], {}
    for matches in (10_000, args.matches):
        with scratch(args) as tmp:
            result = tournament(matches, Path(tmp) / "t", args.workers, logs=False)
        parent, worker = result["peak_parent"], result["peak_worker"]
        peaks[matches] = parent
        rows.append([f"{matches:,}", f"{parent / 1024:,.1f}", f"{worker / 1024:,.1f}",
                     f"{result['matches'] / result['wall']:,.0f}"])
    ratio = peaks[args.matches] / peaks[10_000]
    return (f"## Memory: tournaments of 10,000 and {args.matches:,} matches, {args.workers} workers, no logs\n\n"
            "Peak resident memory over the whole run, the standings computed at the end included.\n\n"
            + markdown(["matches", "peak RSS parent (MiB)", "peak RSS largest worker (MiB)", "matches/s"], rows)
            + f"\n\nParent peak at {args.matches:,} ÷ at 10,000: {ratio:.2f} (goal ≤ 1.10).\n")


def workers(args) -> str:
    """1 worker against 2, logs on and off: `args.runs` runs of each, alternating: a busy neighbour slows both."""
    results: dict[tuple[int, bool], list[dict]] = {}
    fixed = {}  # the parent's CPU for start-up and standings: one deal's tournament
    with scratch(args) as tmp:
        for logs in (True, False):
            fixed[logs] = tournament(LONG[1], Path(tmp) / f"f{logs}", 2, logs, kind=LONG)["cpu_parent"]
            for run in range(args.runs):
                for count in (1, 2):
                    result = tournament(args.matches, Path(tmp) / f"w{count}{logs}{run}", count, logs, kind=LONG)
                    results.setdefault((count, logs), []).append(result)
    rows, notes = [], []
    for logs in (True, False):
        for count in (1, 2):
            runs = results[count, logs]
            walls = [r["wall"] for r in runs]
            rows.append([f"{count}", "on" if logs else "off", f"{median(walls):.1f}", f"{min(walls):.1f}",
                         f"{args.matches / median(walls):,.0f}", f"{args.matches / min(walls):,.0f}",
                         f"{per_match(runs, 'cpu_workers'):,.0f}", f"{per_match(runs, 'cpu_parent', fixed[logs]):,.0f}",
                         f"{median([(r['cpu_parent'] + r['cpu_workers']) / r['wall'] for r in runs]):.2f}"])
        one, two = results[1, logs], results[2, logs]
        # on two idle cores one worker plays at 1/W1 (the driver on the other core); two share both cores
        # with the driver: at most 2/(W2 + P2), W and P the worker's and the driver's CPU per match
        shared = per_match(two, "cpu_workers") + per_match(two, "cpu_parent", fixed[logs])
        bound = f"{2 * per_match(one, 'cpu_workers') / shared:.2f}" if shared > 0 else "n/a (too short to measure)"
        notes.append(f"logs {'on' if logs else 'off'}: median {median_wall(one) / median_wall(two):.2f}, "
                     f"best {min(r['wall'] for r in one) / min(r['wall'] for r in two):.2f}; "
                     f"on two idle cores at most {bound} (from the CPU per match)")
    return (f"## Workers: {args.matches:,} matches of {LONG[0]} at a table of {LONG[1]}, 1 worker against 2, "
            f"{args.runs} runs each in alternation\n\n"
            + markdown(["workers", "logs", "median wall s", "best wall s", "median matches/s", "best matches/s",
                        "worker CPU µs/match", "parent CPU µs/match", "cores busy"], rows)
            + "\n\nCPU per match and cores busy are medians over the runs; the parent's leaves out its start-up, "
            f"measured on a one-deal tournament ({fixed[True]:.2f} s with logs, {fixed[False]:.2f} s without).\n\n"
            "2 workers ÷ 1 worker (matches/s): "
            + "; ".join(notes) + " (goal ≥ 1.8). Load average at the end: "
            + f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}.\n")


def per_match(runs: list[dict], key: str, fixed: float = 0.0) -> float:
    """The median over `runs` of CPU µs per match of `key` (cpu_workers or cpu_parent), less `fixed` seconds a run."""
    return median([1e6 * (r[key] - fixed) / r["matches"] for r in runs])


def median_wall(runs: list[dict]) -> float:
    return median([r["wall"] for r in runs])


def profile(args) -> str:
    """Where a match's time goes: the worker's play_unit (engine, summary, log file), pickling, the driver's share."""
    from runner.tournament.driver import Pending, standings_of
    from runner.tournament.settings import plan
    from runner.tournament.store import Store
    from runner.tournament.work import play_unit

    settings = plan(RULESET, ["random", "random"], deals=args.profile_matches // 2, seed=1)
    with scratch(args) as tmp:
        store = Store.create(Path(tmp) / "p", settings.config())
        start = time.process_time()
        pending = Pending(settings, store, range(settings.deals), str(store.directory.resolve()))
        units = list(pending)
        making = time.process_time() - start
        profiler = cProfile.Profile()
        start = time.process_time()
        profiler.enable()
        outcomes = [play_unit(unit) for unit in units]  # each writes its log file, as a pool worker does
        profiler.disable()
        worker_cpu = time.process_time() - start
        start = time.process_time()
        for i in range(0, len(units), 50):
            pickle.loads(pickle.dumps(units[i:i + 50]))
            pickle.loads(pickle.dumps(outcomes[i:i + 50]))
        pickling = time.process_time() - start
        start = time.process_time()
        for i in range(0, len(outcomes), 50):
            pending.store_results(outcomes[i:i + 50])
        storing = time.process_time() - start
        start = time.process_time()
        standings_of(store)
        standings = time.process_time() - start
        store.close()
    text = io.StringIO()
    pstats.Stats(profiler, stream=text).sort_stats("cumulative").print_stats(18)
    n = len(units)
    rows = [["play_unit, writing its log file (worker, profiled)", f"{1e6 * worker_cpu / n:,.0f}"],
            ["making the units deal by deal (driver)", f"{1e6 * making / n:,.0f}"],
            ["pickle a unit there and its outcome back", f"{1e6 * pickling / n:,.0f}"],
            ["storing the rows (driver: digests, SQLite)", f"{1e6 * storing / n:,.0f}"],
            ["standings at the end (driver: two reads, the rating)", f"{1e6 * standings / n:,.0f}"]]
    lines = [line for line in text.getvalue().splitlines() if line.strip()][-22:]
    return (f"## Profile: {n:,} matches with logs, CPU µs per match\n\n" + markdown(["step", "µs/match"], rows)
            + "\n\nplay_unit under cProfile (cumulative):\n\n```\n" + "\n".join(lines) + "\n```\n")


# ---------------------------------------------------------------- the driver alone, fed recorded results

RECORDED: dict = {}  # match id -> its MatchOutcome, played once; set before the replaying pool forks its workers


def replayed_batch(units: list) -> list:
    """What a pool worker answers in a replayed run: the recorded outcomes of `units`, at no cost of play."""
    return [RECORDED[unit.match_id] for unit in units]


def record(settings, path: Path, tmp: Path) -> None:
    """Play `settings`' tournament once on two workers (logs written under `tmp`); pickle its outcomes to `path`."""
    from runner.tournament.backends import ProcessBackend
    from runner.tournament.driver import Pending
    from runner.tournament.store import Store

    store = Store.create(tmp / "recorded", settings.config())
    outcomes: list = []
    with ProcessBackend(2) as backend:
        backend.run(Pending(settings, store, range(settings.deals), str(store.directory.resolve())), outcomes.extend)
    store.close()
    path.write_bytes(pickle.dumps(outcomes))


def replay(settings, directory: Path, batch: int) -> int:
    """Play `settings`' tournament again into `directory` through the driver (its standings included), its pool's
    workers answering from RECORDED; the matches stored."""
    from runner.tournament import driver as tournament_driver
    from runner.tournament.backends import ProcessBackend, processes
    from runner.tournament.store import Store

    played = processes.play_batch
    processes.play_batch = replayed_batch  # the pool's workers answer from RECORDED
    store = Store.create(directory, settings.config())
    try:
        with ProcessBackend(2, batch_size=batch) as backend:
            tournament_driver.run(settings, store, backend)
        return store.count()
    finally:
        store.close()
        processes.play_batch = played


def driver_settings(matches: int):
    from runner.tournament.settings import plan

    return plan(LONG[0], ["random"] * LONG[1], deals=matches // LONG[1], table_size=LONG[1], seed=1)


def recorded(args, matches: int, tmp: Path):
    """The settings of a `matches`-match tournament, with RECORDED holding its outcomes (played into --record first,
    if that file is missing)."""
    settings = driver_settings(matches)
    if not args.record.exists():
        record(driver_settings(args.matches), args.record, tmp)
    RECORDED.update((outcome.match_id, outcome) for outcome in pickle.loads(args.record.read_bytes()))
    if len(RECORDED) < settings.match_count(settings.deals):
        raise SystemExit(f"{args.record} holds {len(RECORDED)} matches, fewer than {matches}: remove it to record anew")
    return settings


def standings_cpu(directory: Path, times: int = 1) -> float:
    """The CPU seconds of the standings of the tournament stored in `directory`, computed `times` times."""
    from runner.tournament.driver import standings_of
    from runner.tournament.store import Store

    store = Store.open(directory)
    try:
        start = time.process_time()
        for _ in range(times):
            standings_of(store)
        return time.process_time() - start
    finally:
        store.close()


def driver(args) -> str:
    """The driver's cost per match with logs on, its workers only looking up recorded outcomes: what it takes from them.

    The tournament (strafpunten, four random bots at a table of four) is played once and its
    outcomes kept in `--record` (made if missing); each run then plays it again through the
    driver (`runner.tournament.driver.run`: units, pool traffic, rows, SQLite, the standings at
    the end) into a new directory, on a pool of two workers that answer each batch with its
    recorded outcomes. The parent's CPU (all its threads) is what the workers lose to it on two
    cores. With `--instructions`, valgrind counts the parent's instructions instead (independent of
    the machine's load): a run of half the matches subtracted from a whole one.
    """
    rows = []
    with scratch(args) as tmp:
        settings = recorded(args, args.matches, Path(tmp))
        if args.instructions:
            half = (args.matches // 2 // LONG[1]) * LONG[1]
            counts = {n: instructions(["replay-child", "--matches", str(n), "--record", str(args.record),
                                       "--batch", str(args.batch), "--dir", str(Path(tmp) / f"i{n}")])
                      for n in (half, args.matches)}
            standings = {k: instructions(["standings-child", "--runs", str(k), "--dir", str(Path(tmp) / f"i{half}")])
                         for k in (1, 2)}
            per_match = (counts[args.matches] - counts[half]) / (args.matches - half)
            rows.append(["instructions", f"{args.matches - half:,}", f"{per_match:,.0f}",
                         f"{per_match - (standings[2] - standings[1]) / half:,.0f}",
                         f"{(standings[2] - standings[1]) / half:,.0f}"])
            unit = "instructions a match"
        else:
            for run in range(args.runs):
                start = time.process_time()
                count = replay(settings, Path(tmp) / f"replayed{run}", args.batch)
                whole = time.process_time() - start
                standings = standings_cpu(Path(tmp) / f"replayed{run}")
                rows.append([f"run {run + 1}", f"{count:,}", f"{1e6 * whole / count:,.1f}",
                             f"{1e6 * (whole - standings) / count:,.1f}", f"{1e6 * standings / count:,.1f}"])
            unit = "CPU µs a match (process_time, all the parent's threads)"
    return (f"## The driver alone: {args.matches:,} matches of {LONG[0]} at a table of {LONG[1]}, logs on, "
            f"recorded results fed back in batches of {args.batch}\n\n"
            + markdown(["measure", "matches", "parent, whole run", "of it while playing", "of it the standings"], rows)
            + f"\n\nIn {unit}.\n")


def instructions(child: list[str]) -> int:
    """The instructions of this script run as `child` under valgrind's cachegrind: the parent process only."""
    with tempfile.TemporaryDirectory() as folder:
        process = subprocess.Popen(
            ["valgrind", "--tool=cachegrind", "--cache-sim=no", f"--cachegrind-out-file={folder}/out.%p",
             sys.executable, __file__, *child], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        _, stderr = process.communicate()
        if process.returncode:
            raise SystemExit(f"valgrind failed: {stderr[-1000:]}")
        with open(f"{folder}/out.{process.pid}") as out:
            summary = [line for line in out if line.startswith("summary:")]
        return int(summary[0].split()[1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("what", choices=["memory", "workers", "profile", "driver", "all", "replay-child",
                                         "standings-child"])
    parser.add_argument("--matches", type=int, help="matches per tournament (memory: 100000, workers: 4000)")
    parser.add_argument("--runs", type=int, default=3, help="workers: runs of each kind, in alternation (default 3)")
    parser.add_argument("--workers", type=int, default=2, help="workers for the memory run (default 2)")
    parser.add_argument("--profile-matches", type=int, default=2000)
    parser.add_argument("--record", type=Path, default=Path("/tmp/maumau-driver-record.pickle"),
                        help="driver: the recorded outcomes, made by playing once if missing")
    parser.add_argument("--batch", type=int, default=256,
                        help="driver: matches per batch (about what the pool's sizer picks for strafpunten)")
    parser.add_argument("--instructions", action="store_true", help="driver: count instructions (valgrind)")
    parser.add_argument("--dir", type=Path, default=Path("results"),
                        help="where the tournaments' directories are made, then removed (default: results)")
    args = parser.parse_args(argv)
    if args.what == "replay-child":  # under valgrind (`driver --instructions`)
        replay(recorded(args, args.matches, args.dir), args.dir, args.batch)
        return 0
    if args.what == "standings-child":
        standings_cpu(args.dir, args.runs)
        return 0
    print(f"# Scaling\n\nMachine: {machine()} (at the start).\n")
    for name, runner, default in (("memory", memory, 100_000), ("workers", workers, 4_000), ("profile", profile, None),
                                  ("driver", driver, 8_000)):
        if args.what == name or (args.what == "all" and name != "driver"):
            chosen = args.matches
            args.matches = chosen or default
            print(runner(args), flush=True)
            args.matches = chosen
    return 0


if __name__ == "__main__":
    sys.exit(main())
