"""What a tournament reports while it runs: a progress bar (matches done, rate, ETA) and notes, on stderr.

The bar is drawn only on a terminal; notes (what is played, how fast) are left out with --quiet;
warnings (how to resume an interrupted tournament) are always written.
"""

from __future__ import annotations

import sys

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, ProgressColumn, TextColumn, TimeRemainingColumn
from rich.progress import Progress as RichBar
from rich.text import Text

from runner.words import plural


class Progress:
    """What the tournament driver reports while it runs; this base class shows nothing (--quiet)."""

    def start(self, total: int, done: int) -> None:
        """A stage of `total` matches begins, `done` of them already stored."""

    def advance(self, matches: int = 1) -> None:
        """`matches` more are stored."""

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
    """A rich progress bar; draws nothing when stderr is not a terminal."""

    def __init__(self, console: Console | None = None):
        self.console = console or Console(stderr=True)
        self.bar: RichBar | None = None
        self.task = None

    def start(self, total: int, done: int) -> None:
        self.bar = RichBar(
            TextColumn("matches"), BarColumn(), MofNCompleteColumn(), RateColumn(), TextColumn("ETA"),
            TimeRemainingColumn(), console=self.console, transient=False,
            disable=not self.console.is_terminal,
        )
        self.task = self.bar.add_task("tournament", total=total, completed=done)
        self.bar.start()

    def advance(self, matches: int = 1) -> None:
        self.bar.advance(self.task, matches)

    def stop(self) -> None:
        if self.bar is not None:
            self.bar.stop()
            self.bar = None

    def note(self, text: str) -> None:
        print(text, file=sys.stderr, flush=True)


def progress_for(quiet: bool) -> Progress:
    """The bar, unless --quiet."""
    return Progress() if quiet else BarProgress()
