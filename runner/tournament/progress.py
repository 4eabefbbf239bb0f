"""What a tournament reports while it runs, on stderr: a progress bar on a terminal, plain lines elsewhere, and notes.

On a terminal a rich bar (matches done, rate, ETA) redraws itself; when stderr is a file or a
pipe (a script, CI) a plain line is written every few seconds instead
(`1200/6000 matches, 410/s, ETA 12 s`), which a log keeps readable. Notes (what is played, how
fast) are left out with --quiet, and so are both kinds of progress; warnings (how to resume an
interrupted tournament) are always written.
"""

from __future__ import annotations

import sys
import time
from typing import Callable, TextIO

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, ProgressColumn, TextColumn, TimeRemainingColumn
from rich.progress import Progress as RichBar
from rich.text import Text

from runner.words import plural

LINE_SECONDS = 5.0  # between two plain progress lines


class Progress:
    """What the tournament driver reports while it runs; this base class shows nothing (--quiet)."""

    def start(self, total: int | None, done: int) -> None:
        """A stage of `total` matches begins (None: not known, a test that stops by itself), `done` already stored."""

    def advance(self, matches: int = 1) -> None:
        """`matches` more are stored."""

    def status(self, text: str) -> None:
        """What the run stands at besides the count (an SPRT's LLR), shown with the progress from now on."""

    def stop(self) -> None:
        """The stage is over (or interrupted)."""

    def note(self, text: str) -> None:
        """A line for the person watching (left out when quiet)."""

    def warn(self, text: str) -> None:
        """A line the person must see, quiet or not."""
        print(text, file=sys.stderr, flush=True)


class RateColumn(ProgressColumn):
    """Matches per second over the last few seconds."""

    def render(self, task) -> Text:
        speed = task.finished_speed or task.speed
        return Text(f"{speed:,.0f} {plural(round(speed), 'match')}/s" if speed else "- matches/s")


class BarProgress(Progress):
    """A rich progress bar, for a terminal."""

    def __init__(self, console: Console | None = None):
        self.console = console or Console(stderr=True)
        self.bar: RichBar | None = None
        self.task = None

    def start(self, total: int | None, done: int) -> None:
        self.bar = RichBar(
            TextColumn("matches"), BarColumn(), MofNCompleteColumn(), RateColumn(), TextColumn("ETA"),
            TimeRemainingColumn(), TextColumn("{task.fields[status]}"), console=self.console, transient=False,
            disable=not self.console.is_terminal,
        )
        self.task = self.bar.add_task("tournament", total=total, completed=done, status="")
        self.bar.start()

    def advance(self, matches: int = 1) -> None:
        self.bar.advance(self.task, matches)

    def status(self, text: str) -> None:
        if self.bar is not None:
            self.bar.update(self.task, status=text)

    def stop(self) -> None:
        if self.bar is not None:
            self.bar.stop()
            self.bar = None

    def note(self, text: str) -> None:
        print(text, file=sys.stderr, flush=True)


class LineProgress(Progress):
    """A plain line every `every` seconds, and one when a stage ends: `1200/6000 matches, 410/s, ETA 12 s`."""

    def __init__(self, stream: TextIO | None = None, every: float = LINE_SECONDS,
                 clock: Callable[[], float] = time.monotonic):
        self.stream, self.every, self.clock = stream, every, clock
        self.total: int | None = None
        self.done = self.first = 0
        self.started = self.last = 0.0
        self.text = ""

    def _write(self, line: str) -> None:
        print(line, file=self.stream or sys.stderr, flush=True)

    def start(self, total: int | None, done: int) -> None:
        self.total, self.done, self.first = total, done, done
        self.started = self.last = self.clock()

    def advance(self, matches: int = 1) -> None:
        self.done += matches
        now = self.clock()
        if now - self.last >= self.every:
            self.last = now
            self._write(self.line(now))

    def status(self, text: str) -> None:
        self.text = text

    def stop(self) -> None:
        if self.done > self.first:
            self._write(self.line(self.clock()))
        self.first = self.done

    def note(self, text: str) -> None:
        self._write(text)

    def line(self, now: float) -> str:
        """`done/total matches, rate/s, ETA s`, and the status if any."""
        elapsed = now - self.started
        rate = (self.done - self.first) / elapsed if elapsed > 0 else 0.0
        parts = [f"{self.done}/{self.total} matches" if self.total is not None else f"{self.done} matches",
                 f"{rate:,.0f}/s"]
        if self.total is not None and rate > 0 and self.done < self.total:
            parts.append(f"ETA {duration((self.total - self.done) / rate)}")
        if self.text:
            parts.append(self.text)
        return ", ".join(parts)


def duration(seconds: float) -> str:
    """`12 s`, `4 min 5 s`, `2 h 10 min`."""
    seconds = round(seconds)
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min {seconds % 60} s"
    return f"{seconds // 3600} h {seconds % 3600 // 60} min"


def progress_for(quiet: bool, console: Console | None = None) -> Progress:
    """Nothing with --quiet; else the bar on a terminal, plain lines elsewhere."""
    if quiet:
        return Progress()
    console = console or Console(stderr=True)
    return BarProgress(console) if console.is_terminal else LineProgress()
