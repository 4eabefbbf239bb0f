"""What the package declares and how it installs: its licence, dependencies that are what the code imports, the Quick
start that says how long its build takes."""

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).parent.parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def names(requirements: list[str]) -> set[str]:
    return {re.match(r"[A-Za-z0-9_.-]+", requirement).group(0).lower() for requirement in requirements}


def test_the_licence_is_mit_in_the_file_and_the_metadata():
    assert PROJECT["license"] == {"text": "MIT"}
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License\n") and "Permission is hereby granted, free of charge" in text


def imported_by_the_package(module: str) -> list[Path]:
    pattern = re.compile(rf"^\s*(import|from)\s+{module}\b", re.M)
    return [path for folder in ("runner", "bots", "rulesets") for path in (ROOT / folder).rglob("*.py")
            if pattern.search(path.read_text())]


def test_openskill_is_a_test_dependency_only():
    """The standings compute the rating themselves (runner/tournament/rating.py); tests compare it with openskill."""
    assert imported_by_the_package("openskill") == []
    assert "openskill" not in names(PROJECT["dependencies"])
    assert "openskill" in names(PROJECT["optional-dependencies"]["test"])


def test_httpx2_is_declared_for_starlettes_test_client_alone():
    """No code of ours imports httpx2, but starlette.testclient (tests/webplay.py) does, and warns without it."""
    import inspect

    import starlette.testclient

    assert imported_by_the_package("httpx2") == []
    assert "import httpx2" in inspect.getsource(starlette.testclient)
    assert "httpx2" in names(PROJECT["optional-dependencies"]["test"])
    assert "httpx2" not in names(PROJECT["dependencies"])


def test_the_quick_start_says_a_build_is_running_and_how_long_it_takes():
    """Its install is minutes of compiling: a newcomer is told before it starts, and pip is not silenced."""
    readme = (ROOT / "README.md").read_text()
    block = readme.split("## Quick start", 1)[1].split("```bash\n", 1)[1].split("```", 1)[0]
    commands = [line for line in block.splitlines() if line and not line.startswith("#")]
    assert len(commands) == 2
    for command in commands:
        assert re.match(r'echo "installing maumau[^"]*usually 2-3 min" && python3 -m venv \.venv && ', command)
        assert "pip install -q" not in command


def test_the_builtin_bots_and_rulesets_are_packages_of_the_projects_own_name(tmp_path):
    """bots/ and rulesets/ install as maumau.bots and maumau.rulesets: outside the repository's root (where its folders
    are on the path by accident) there is no top-level `bots` or `rulesets`, and docs/bots.md's import works."""
    import subprocess
    import sys

    code = ("import importlib.util as u; from maumau.bots.hard import HardBot; import maumau.rulesets.builtin as r; "
            "print(HardBot.__module__, r.HERE.name, u.find_spec('bots'), u.find_spec('rulesets'))")
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=300,
                          env={"PATH": "/usr/bin:/bin"})
    assert done.stdout.split() == ["maumau.bots.hard", "rulesets", "None", "None"], done.stderr
    from runner.plugins.manager import BUILTIN_PLUGINS

    assert all(name.startswith(("maumau.bots.", "maumau.rulesets.")) for name in BUILTIN_PLUGINS)
