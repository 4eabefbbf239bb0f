"""Timing helpers shared by the benchmarks: contenders measured in alternation, medians, Markdown tables."""

from __future__ import annotations

import functools
import os
import platform
import statistics
import sys
import time
from dataclasses import dataclass, field
from importlib import metadata
from typing import Any, Callable

# play(seconds) plays whole games until `seconds` have passed; returns (games, decisions, elapsed).
Player = Callable[[float], tuple[int, int, float]]


@dataclass
class Contender:
    """One thing being timed, with the rates of each of its runs."""

    name: str
    players: int
    play: Player
    side: str = "maumau"  # or the peer's name
    kind: str = ""  # peers: the row without its player count, a column of the ratio table
    note: str = ""
    games: list[float] = field(default_factory=list)  # games per second, one per run
    decisions: list[float] = field(default_factory=list)  # decisions per second, one per run
    per_game: list[float] = field(default_factory=list)  # decisions per game, one per run

    @property
    def decisions_per_second(self) -> float:
        return statistics.median(self.decisions)

    @property
    def games_per_second(self) -> float:
        return statistics.median(self.games)

    @property
    def decisions_per_game(self) -> float:
        return statistics.fmean(self.per_game)

    @property
    def spread(self) -> str:
        """The slowest and the fastest run, in thousands of decisions per second."""
        return f"{min(self.decisions) / 1000:,.0f}–{max(self.decisions) / 1000:,.0f}k"


def measure(contenders: list[Contender], runs: int, seconds: float, warmup: float = 0.2,
            progress: Callable[[str], None] | None = None) -> None:
    """Time every contender `runs` times, one slice of `seconds` each, in rotation.

    Alternating spreads a busy neighbour on a shared machine over everyone alike, so the
    ratios between contenders stay fair even when the absolute rates wobble.
    """
    if warmup > 0:  # imports, caches and the first allocations are paid before timing
        for contender in contenders:
            contender.play(warmup)
    for run in range(runs):
        # Rotate the starting point too, so nobody always runs first or right after a peer.
        order = contenders[run % len(contenders):] + contenders[:run % len(contenders)]
        for contender in order:
            games, decisions, elapsed = contender.play(seconds)
            contender.games.append(games / elapsed)
            contender.decisions.append(decisions / elapsed)
            contender.per_game.append(decisions / games)
        if progress:
            progress(f"run {run + 1}/{runs} done")


def markdown(headers: list[str], rows: list[list[str]]) -> str:
    """A Markdown table; columns after the first are right-aligned."""
    widths = [max(len(str(cell)) for cell in column) for column in zip(headers, *rows)]

    def line(cells):
        return (
            "| "
            + " | ".join(
                str(cell).ljust(width) if i == 0 else str(cell).rjust(width)
                for i, (cell, width) in enumerate(zip(cells, widths))
            )
            + " |"
        )

    rule = (
        "| " + " | ".join("-" * width if i == 0 else "-" * (width - 1) + ":" for i, width in enumerate(widths)) + " |"
    )
    return "\n".join([line(headers), rule, *(line(row) for row in rows)])


def machine() -> str:
    """One line naming the CPU, the core count, Python and the load when called."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as info:
            cpu = next(line.split(":", 1)[1].strip() for line in info if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    load = " ".join(f"{x:.2f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "n/a"
    return f"{cpu}, {os.cpu_count()} cores, Python {sys.version.split()[0]}, load average {load}"


def engine() -> str:
    """Which engine the numbers are of: compiled (the accelerator) or pure Python (runner/accel.py)."""
    try:
        from runner import accel
    except ImportError:  # a checkout from before the accelerator
        return "pure Python (no accelerator in this checkout)"
    return accel.summary()


def version(distribution: str) -> str:
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return "not installed"


# CPU seconds of this process, not wall-clock seconds: on a machine shared with other work a
# neighbour's burst then slows nobody's clock, and rates stay comparable between runs.
CLOCK = time.process_time


def kept_log():
    """A match's log as a tournament keeps it: a GameLog (the engine's records, runner/game/events.py), or a list
    in a checkout from before there was one (so that a benchmark runs the same on an older commit)."""
    return _log_class()()


@functools.cache
def _log_class() -> Callable[[], Any]:
    """GameLog, or `list` before there was one: imported once, not timed with every match."""
    try:
        from runner.game.events import GameLog
    except ImportError:
        return list
    return GameLog


def stopwatch(seconds: float, step: Callable[[], int]) -> tuple[int, int, float]:
    """Call `step` (one game, returning its decisions) until `seconds` of CPU time have passed."""
    clock = CLOCK
    games = decisions = 0
    start = clock()
    while True:
        decisions += step()
        games += 1
        elapsed = clock() - start
        if elapsed >= seconds:
            return games, decisions, elapsed
