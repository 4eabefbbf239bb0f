"""A real terminal for tests: a command run in a tmux pane of a private tmux server, read back as its screen shows it.

The human seat must be checked where a person sees it (a tty, line echo, prompts that take the
answer on their line), not only through the streams a test can hand it.
"""

from __future__ import annotations

import shlex
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

_no_tmux = pytest.mark.skipif(shutil.which("tmux") is None,
                              reason="tmux is not installed: the real-terminal check needs it (.ci/run installs it)")


def needs_tmux(test):
    """A real-terminal test: skipped without tmux, and in the slow tier (tests/conftest.py), a terminal taking
    seconds a test."""
    return pytest.mark.slow(_no_tmux(test))


ENDED = "[the command ended]"  # printed in the pane after the command, so that its last screen stays readable


class Terminal:
    """`command` (a list of words) running in a `width` x `height` tmux pane, from the folder `cwd`."""

    def __init__(self, command: list[str], cwd: Path, width: int = 150, height: int = 60):
        self.folder = tempfile.mkdtemp(prefix="maumau-tmux-")  # a server of our own: none of anyone else touched
        self.tmux = ["tmux", "-S", str(Path(self.folder) / "socket")]
        shell = f"{shlex.join(command)}; echo {shlex.quote(ENDED)}; sleep 3600"
        self._run("-f", "/dev/null", "new-session", "-d", "-s", "t", "-x", str(width), "-y", str(height), shell,
                  cwd=cwd)
        self._run("set-option", "-t", "t", "history-limit", "100000")

    def _run(self, *args: str, cwd: Path | None = None) -> str:
        return subprocess.run([*self.tmux, *args], cwd=cwd, check=True, capture_output=True, text=True).stdout

    def screen(self) -> list[str]:
        """The non-empty lines the pane shows now."""
        return [line.rstrip() for line in self._run("capture-pane", "-p", "-J", "-t", "t").splitlines()
                if line.strip()]

    def transcript(self) -> list[str]:
        """Every line written to the pane so far, scrolled off or not (wrapped lines joined)."""
        return [line.rstrip() for line in self._run("capture-pane", "-p", "-J", "-S", "-", "-t", "t").splitlines()]

    def type(self, *keys: str) -> None:
        """Type `keys` as a person would (tmux key names: "Enter")."""
        self._run("send-keys", "-t", "t", *keys)

    def wait_for(self, done, timeout: float = 300.0) -> list[str]:
        """Poll the screen until `done(lines)` holds (or `timeout` seconds pass); the last screen seen."""
        deadline, lines = time.monotonic() + timeout, self.screen()
        while not done(lines) and time.monotonic() < deadline:
            time.sleep(0.1)
            lines = self.screen()
        return lines

    def converse(self, answer, done, timeout: float = 300.0) -> list[str]:
        """Answer each question as it appears until `done(transcript)` holds (or `timeout` seconds pass).

        `answer(line)` gives the keys to type when the last line written is a question waiting
        for them, else None; each question (each line) is answered once. The last transcript seen.
        """
        deadline, asked = time.monotonic() + timeout, -1
        while True:
            lines = self.transcript()
            if done(lines) or time.monotonic() > deadline:
                return lines
            last = max((i for i, line in enumerate(lines) if line.strip()), default=-1)
            keys = answer(lines[last]) if last > asked else None
            if keys:
                self.type(*keys)
                asked = last
            time.sleep(0.1)

    def close(self) -> None:
        subprocess.run([*self.tmux, "kill-server"], capture_output=True)
        shutil.rmtree(self.folder, ignore_errors=True)  # the socket too

    def __enter__(self) -> Terminal:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
