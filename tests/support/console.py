"""Running the console script in-process from a test: its exit code and what it printed."""

from __future__ import annotations

import io
import sys

import pytest

from runner.cli import main


def maumau(capsys, monkeypatch, *args) -> tuple[int, str, str]:
    """Run `maumau ARGS...` in this process: (exit code, stdout, stderr)."""
    monkeypatch.setattr(sys, "argv", ["maumau", *map(str, args)])
    code = 0
    try:
        main()
    except SystemExit as exc:
        code = exc.code or 0
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def run_cli(*args) -> str:
    """The standard output of `maumau ARGS...`, for module-scoped fixtures (where there is no capsys)."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        out = io.StringIO()
        monkeypatch.setattr(sys, "argv", ["maumau", *map(str, args)])
        monkeypatch.setattr(sys, "stdout", out)
        main()
    return out.getvalue()
