"""Watching and interrupting tournaments from a test: a backend interrupted as by Ctrl-C, the matches stored, the
processes of a run (tests/test_scripts.py, tests/test_tournament.py, ...)."""

import sqlite3
from pathlib import Path

from runner.tournament.backends import SerialBackend


class Interrupting(SerialBackend):
    """Plays `stop_after` matches, then is interrupted as by Ctrl-C."""

    def __init__(self, stop_after):
        self.stop_after = stop_after

    def run(self, units, on_results):
        for n, unit in enumerate(units):
            if n == self.stop_after:
                raise KeyboardInterrupt
            super().run([unit], on_results)


def count(db: Path) -> int:
    """The matches stored so far; read-only, so that a look before the runner made the file does not make it."""
    try:
        connection = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
    except sqlite3.OperationalError:  # not created yet
        return 0
    try:
        return connection.execute("SELECT COUNT(*) FROM matches").fetchone()[0]
    except sqlite3.OperationalError:  # created, its tables not yet
        return 0
    finally:
        connection.close()


def children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            found += [int(c) for c in (task / "children").read_text().split()]
        except FileNotFoundError:  # the thread ended between the listing and the read
            continue
    return found


def alive(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return False
    return "State:\tZ" not in status  # a zombie has exited; only its exit status is left
