"""The process pool against one worker: the issue's tournament command, timed end to end in alternation.

    python3 bench/tournament_speedup.py [--runs 5] [--deals 200] [--workers N]

Runs `maumau tournament -r strafpunten -b random ×4 --deals 200` (800 matches) with the default
pool and with `--workers 1`, alternately so that a busy neighbour slows both alike, and prints
every run, then the median and best times and the speed-up, for the whole command (start-up and
standings included) and for the playing alone (the "played N matches in S s" line the command
prints). The load average is printed too: on a shared machine, read the best times as well as
the medians. The command is the console script beside this Python (as in a virtual
environment), not a version manager's shim on PATH, whose own start-up (0.2 s under pyenv) is
no part of maumau's.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ENTRANTS = 4
MAUMAU = Path(sys.executable).parent / "maumau"


def command(deals: int, out: Path, workers: int | None) -> list[str]:
    args = [str(MAUMAU), "tournament", "-r", "strafpunten", *["-b", "random"] * ENTRANTS, "--deals", str(deals)]
    return args + ["--out", str(out)] + (["--workers", str(workers)] if workers else [])


def timed(args: list[str]) -> tuple[float, float]:
    """Seconds for the whole command, and for its playing (from its stderr note)."""
    started = time.perf_counter()
    done = subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    whole = time.perf_counter() - started
    playing = re.search(r"played \d+ matches in ([0-9.]+) s", done.stderr)
    return whole, float(playing.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--workers", type=int, default=None, help="pool size (default: one per core)")
    options = parser.parse_args()
    matches = options.deals * ENTRANTS  # one table of four, every deal under four rotations
    times: dict[str, list[tuple[float, float]]] = {"pool": [], "--workers 1": []}
    print(f"cores: {len(os.sched_getaffinity(0))}; load average before: {os.getloadavg()[0]:.2f}")
    Path("results").mkdir(exist_ok=True)
    # under results/, where tournaments write by default: on some machines creating files in /tmp costs far more
    with tempfile.TemporaryDirectory(dir="results", prefix="bench-") as tmp:
        for run in range(options.runs):
            for name, workers in (("pool", options.workers), ("--workers 1", 1)):
                whole, playing = timed(command(options.deals, Path(tmp) / f"{run}-{workers}", workers))
                times[name].append((whole, playing))
                print(f"run {run + 1} {name:12} whole {whole:5.2f} s ({matches / whole:4.0f} matches/s), "
                      f"playing {playing:5.2f} s ({matches / playing:4.0f} matches/s)")
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    print(f"example: {' '.join(command(options.deals, Path('DIR'), None)).replace(str(MAUMAU), 'maumau')}")
    for part, index in (("whole", 0), ("playing", 1)):
        pool, one = ([run[index] for run in times[name]] for name in ("pool", "--workers 1"))
        for name, values in (("pool", pool), ("--workers 1", one)):
            median, best = statistics.median(values), min(values)
            print(f"{part:8} {name:12} median {median:.2f} s ({matches / median:.0f} matches/s), "
                  f"best {best:.2f} s ({matches / best:.0f} matches/s)")
        print(f"{part:8} speed-up: median {statistics.median(one) / statistics.median(pool):.2f}, "
              f"best {min(one) / min(pool):.2f}")


if __name__ == "__main__":
    main()
