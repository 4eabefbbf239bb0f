"""`maumau new-bot`: the package it writes installs, is listed by `maumau bots`, plays, and passes its own tests."""

import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest

from runner.botkit.newbot import class_name, new_bot
from runner.errors import MaumauError


def test_it_writes_the_package_files(tmp_path):
    target = new_bot("night-owl", tmp_path / "owl")
    written = sorted(str(path.relative_to(target)) for path in target.rglob("*") if path.is_file())
    assert written == ["README.md", "maumau_night_owl.py", "pyproject.toml", "tests/test_maumau_night_owl.py"]
    pyproject = (target / "pyproject.toml").read_text()
    assert '[project.entry-points.maumau]\nnight-owl = "maumau_night_owl"' in pyproject
    assert "class NightOwl(runner.Bot):" in (target / "maumau_night_owl.py").read_text()


@pytest.mark.parametrize("name, problem", [
    ("Owl", "use lowercase letters"), ("9lives", "starting with a letter"),
    ("medium", "taken by plugin 'maumau.bots.medium'"),
])
def test_it_refuses_a_bad_or_taken_name(tmp_path, name, problem):
    with pytest.raises(MaumauError, match=problem):
        new_bot(name, tmp_path / "x")


def test_it_refuses_to_write_over_a_directory_in_use(tmp_path):
    (tmp_path / "owl").mkdir()
    (tmp_path / "owl" / "notes.txt").write_text("mine")
    with pytest.raises(MaumauError, match="already exists"):
        new_bot("owl", tmp_path / "owl")


def test_class_names():
    assert class_name("owl") == "Owl" and class_name("night_owl-2") == "NightOwl2"


def test_the_package_installs_and_plays_with_no_edits(tmp_path):
    """pip-installs the skeleton into a venv layered over this environment (so nothing else sees it)."""
    package = new_bot("owl", tmp_path / "maumau-owl")
    python = layered_venv(tmp_path / "venv")

    def run(*args):
        return subprocess.run([python, *args], capture_output=True, text=True, timeout=300, cwd=tmp_path)

    installed = run("-m", "pip", "install", "--quiet", "--no-deps", "-e", str(package))
    assert installed.returncode == 0, installed.stderr
    listed = run("-m", "runner.cli", "bots")
    assert listed.returncode == 0, listed.stderr
    assert any(line.split()[:2] == ["owl", "owl"] for line in listed.stdout.splitlines()), listed.stdout
    played = run("-m", "runner.cli", "play", "-r", "strafpunten", "-b", "owl", "-b", "medium", "-b", "hard",
                 "--move-time", "0", "--seed", "1")  # no clock: hard must not time out on a loaded machine
    assert played.returncode == 0, played.stderr
    assert "owl#0" in played.stdout and "fault" not in played.stdout
    tested = run("-m", "pytest", "-q", "-p", "no:cacheprovider", str(package / "tests"))
    assert tested.returncode == 0, tested.stdout + tested.stderr
    unseen = subprocess.run([sys.executable, "-m", "runner.cli", "bots"], capture_output=True, text=True, timeout=300)
    assert "owl" not in unseen.stdout.split()  # the venv kept it out of this environment


def layered_venv(env_dir) -> str:
    """A venv that sees this environment's packages (maumau included) and keeps its own installs to itself.

    `system_site_packages=True` alone would layer it over the *base* interpreter, which on a fresh
    machine has none of the project's packages: a `.pth` file adds this environment's site
    directories instead (`site.addsitedir`, so that their own `.pth` files, such as an editable
    install's, are read too).
    """
    venv.EnvBuilder(with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    own = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                         capture_output=True, text=True, check=True).stdout.strip()
    ours = dict.fromkeys(sysconfig.get_paths()[key] for key in ("purelib", "platlib"))
    lines = "".join(f"import site; site.addsitedir({path!r})\n" for path in ours)
    (Path(own) / "maumau-parent-env.pth").write_text(lines)
    return str(python)
