"""The optional accelerator (runner/accel.py, setup.py): both paths give the same logs, byte for byte.

The pure path runs in a subprocess with MAUMAU_PURE=1. The comparison needs the accelerator
built (`pip install -e .` with a C compiler); without it the tests comparing paths skip, unless
MAUMAU_REQUIRE_ACCEL=1 (as in .ci/run) makes that a failure.
"""

from __future__ import annotations

import ast
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from golden.corpus import DIGESTS, LINEUPS, SEEDS, log_digest
from runner import accel

ROOT = Path(__file__).resolve().parent.parent
GALLERY = sorted((ROOT / "rulesets" / "gallery").glob("*.yaml"))


def gallery_cases():
    """(key, ruleset file, players, seed): every gallery ruleset at its smallest table and at 4, every lineup."""
    from runner.plugins import registry

    reg = registry()
    for path in GALLERY:
        ruleset = reg.load_ruleset(str(path))
        sizes = sorted({ruleset.players.min, max(ruleset.players.min, min(4, ruleset.players.max))})
        for size in sizes:
            for lineup in LINEUPS:
                players = [lineup[i % len(lineup)] for i in range(size)]
                for seed in SEEDS:
                    yield f"{path.stem}/{size}/{'-'.join(lineup)}/{seed}", str(path), players, seed


def hard_choices(count: int = 12, rollouts: int = 60) -> list[str]:
    """`hard`'s choice, at a fixed seed and playout count, in searched decisions of seeded rounds of standard."""
    from maumau.bots.hard import HardBot, candidates
    from runner.game.engine import Round
    from runner.plugins import registry

    ruleset, chosen, seed = registry().load_ruleset("standard"), [], 0
    while len(chosen) < count:
        seed += 1
        rng, rnd = random.Random(seed), Round.deal(ruleset, random.Random(-seed), 4)
        while not rnd.over and len(chosen) < count:
            view = rnd.view()
            if len(candidates(view)) > 1 and rng.random() < 0.3:
                chosen.append(str(HardBot(rng=random.Random(seed), rollouts=rollouts).act(view)))
            legal = rnd.legal()
            rnd.apply(legal[int(rng.random() * len(legal))])
    return chosen


def gallery_digests() -> dict[str, str]:
    return {key: log_digest(name, players, seed) for key, name, players, seed in gallery_cases()}


def pure_digests() -> dict:
    """The corpus's and the gallery's digests, and hard's choices, by the pure-Python engine in a fresh process."""
    script = (
        "import json, sys; sys.path.insert(0, 'tests'); "
        "from golden.corpus import compute; from test_accelerator import gallery_digests, hard_choices; "
        "from runner import accel; "
        "assert all(s.startswith('pure') for s in accel.status().values()), accel.status(); "
        "print(json.dumps({'corpus': compute(), 'gallery': gallery_digests(), 'hard': hard_choices()}))"
    )
    env = {**os.environ, accel.PURE_VARIABLE: "1"}
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=3600)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


def compiled_or_skip() -> None:
    states = accel.status()
    if all(state == "compiled" for state in states.values()):
        return
    if os.environ.get("MAUMAU_REQUIRE_ACCEL"):
        pytest.fail(f"the accelerator is required (MAUMAU_REQUIRE_ACCEL) but not in use: {states}")
    pytest.skip(f"the accelerator is not built here: {accel.summary()}")


@pytest.mark.slow  # slow: the whole corpus and gallery on both paths; .ci/run runs it under each CPython
def test_both_paths_give_the_same_logs_over_the_corpus_and_the_gallery():
    compiled_or_skip()
    pure = pure_digests()
    stored = json.loads(DIGESTS.read_text())
    changed = sorted(key for key in stored if pure["corpus"].get(key) != stored[key])
    assert not changed, f"pure path: {len(changed)} of {len(stored)} corpus logs differ, e.g. {changed[:5]}"
    compiled = gallery_digests()  # the corpus on this path: tests/test_golden.py
    assert len(compiled) >= 8 * 3 * 2
    differ = sorted(key for key in compiled if pure["gallery"][key] != compiled[key])
    assert not differ, f"{len(differ)} of {len(compiled)} gallery logs differ between the paths, e.g. {differ[:5]}"
    assert pure["hard"] == hard_choices(), "hard chooses differently on the two paths at the same seed and playouts"
    assert len(set(pure["hard"])) > 3  # decisions of several kinds, not one answer repeated


def test_the_cli_says_which_path_runs():
    compiled_or_skip()
    command = [sys.executable, "-m", "runner.cli", "--version"]
    fast = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    slow = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env={**os.environ, accel.PURE_VARIABLE: "1"})
    assert "engine: compiled (Cython)" in fast.stdout
    assert "engine: pure Python (MAUMAU_PURE=1)" in slow.stdout


# ---------------------------------------------------------------- the finder, on a package of its own


@pytest.fixture
def package(tmp_path, monkeypatch):
    """A package `accel_probe` whose module `mod` has a .py file and a 'compiled' file beside it that cannot load."""
    folder = tmp_path / "accel_probe"
    folder.mkdir()
    (folder / "__init__.py").write_text("")
    (folder / "mod.py").write_text("WHERE = 'source'\n")
    (folder / ("mod" + accel.importlib.machinery.EXTENSION_SUFFIXES[0])).write_bytes(b"not a shared object")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(accel, "MODULES", (*accel.MODULES, "accel_probe.mod"))
    monkeypatch.delenv(accel.PURE_VARIABLE, raising=False)
    yield folder
    for name in ("accel_probe.mod", "accel_probe"):
        sys.modules.pop(name, None)


def record(folder: Path, digest: str) -> None:
    (folder / accel.MANIFEST).write_text(json.dumps({"mod.py": digest}))


def test_a_build_of_the_current_source_is_loaded(package):
    record(package, accel.source_digest(str(package / "mod.py")))
    with pytest.raises(ImportError):  # the finder left it to the usual ones, which load the extension first
        __import__("accel_probe.mod")


def test_a_source_changed_since_the_build_runs_as_pure_python(package):
    record(package, "0" * 64)
    module = __import__("accel_probe.mod", fromlist=["WHERE"])
    assert module.WHERE == "source"
    assert "changed since it was compiled" in accel._reasons["accel_probe.mod"]


def test_maumau_pure_runs_the_source_even_of_a_current_build(package, monkeypatch):
    record(package, accel.source_digest(str(package / "mod.py")))
    monkeypatch.setenv(accel.PURE_VARIABLE, "1")
    module = __import__("accel_probe.mod", fromlist=["WHERE"])
    assert module.WHERE == "source"


def test_a_pxd_beside_the_source_counts_in_its_digest(package):
    before = accel.source_digest(str(package / "mod.py"))
    (package / "mod.pxd").write_text("cdef int x\n")
    assert accel.source_digest(str(package / "mod.py")) != before


def test_a_module_sharing_typed_classes_runs_as_pure_python_when_its_partner_does(package, monkeypatch):
    # `mod` is current, but `other`, whose typed classes it shares (accel.LINKED), changed since its build:
    # the compiled `mod` could not run on the pure `other`, so both run their .py files
    (package / "other.py").write_text("WHERE = 'source'\n")
    (package / ("other" + accel.importlib.machinery.EXTENSION_SUFFIXES[0])).write_bytes(b"not a shared object")
    (package / accel.MANIFEST).write_text(json.dumps({"mod.py": accel.source_digest(str(package / "mod.py")),
                                                      "other.py": "0" * 64}))
    monkeypatch.setattr(accel, "MODULES", (*accel.MODULES, "accel_probe.other"))
    monkeypatch.setattr(accel, "LINKED", ("accel_probe.mod", "accel_probe.other"))
    module = __import__("accel_probe.mod", fromlist=["WHERE"])
    assert module.WHERE == "source"
    assert "accel_probe.other runs as pure Python" in accel._reasons["accel_probe.mod"]
    sys.modules.pop("accel_probe.other", None)


@pytest.fixture
def deep_partner(package, monkeypatch):
    """`accel_probe.deep.other`, linked with `accel_probe.mod` from another package folder (as the referee in
    runner/table is with the engine in runner/game), its 'compiled' file current."""
    deep = package / "deep"
    deep.mkdir()
    (deep / "__init__.py").write_text("")
    (deep / "other.py").write_text("WHERE = 'source'\n")
    (deep / ("other" + accel.importlib.machinery.EXTENSION_SUFFIXES[0])).write_bytes(b"not a shared object")
    (deep / accel.MANIFEST).write_text(json.dumps({"other.py": accel.source_digest(str(deep / "other.py"))}))
    monkeypatch.setattr(accel, "MODULES", (*accel.MODULES, "accel_probe.deep.other"))
    monkeypatch.setattr(accel, "LINKED", ("accel_probe.mod", "accel_probe.deep.other"))
    yield deep
    for name in ("accel_probe.deep.other", "accel_probe.deep"):
        sys.modules.pop(name, None)


def test_a_linked_module_of_another_package_folder_loads_compiled_while_its_partner_is_current(package, deep_partner):
    record(package, accel.source_digest(str(package / "mod.py")))
    with pytest.raises(ImportError):  # the finder left it to the usual ones, which load the extension first
        __import__("accel_probe.deep.other")


def test_a_linked_module_of_another_package_folder_runs_as_pure_python_when_its_partner_does(package, deep_partner):
    record(package, "0" * 64)
    module = __import__("accel_probe.deep.other", fromlist=["WHERE"])
    assert module.WHERE == "source"
    assert "accel_probe.mod runs as pure Python (mod.py changed since" in accel._reasons["accel_probe.deep.other"]


@pytest.fixture
def kernel_package(package, monkeypatch):
    """`accel_probe.mod` as a kernel: a .pyx source (no .py) and a 'compiled' file beside it."""
    (package / "mod.py").unlink()
    (package / "mod.pyx").write_text("cdef int x = 1\n")
    monkeypatch.setattr(accel, "MODULES", tuple(name for name in accel.MODULES if name != "accel_probe.mod"))
    monkeypatch.setattr(accel, "KERNELS", (*accel.KERNELS, "accel_probe.mod"))
    (package / accel.MANIFEST).write_text(json.dumps({"mod.pyx": accel.source_digest(str(package / "mod.pyx"))}))
    return package


def test_a_kernel_whose_pyx_changed_since_the_build_is_refused(kernel_package):
    (kernel_package / "mod.pyx").write_text("cdef int x = 2\n")
    with pytest.raises(ModuleNotFoundError, match="mod.pyx changed since it was compiled"):
        __import__("accel_probe.mod")


def test_a_kernel_under_maumau_pure_is_refused_and_a_current_one_loaded(kernel_package, monkeypatch):
    with pytest.raises(ImportError) as loaded:  # the finder left it to the usual ones: the (bad) extension
        __import__("accel_probe.mod")
    assert "not used" not in str(loaded.value)
    monkeypatch.setenv(accel.PURE_VARIABLE, "1")
    with pytest.raises(ModuleNotFoundError, match="not used: MAUMAU_PURE=1"):
        __import__("accel_probe.mod")


def _assigned_attributes(source: Path, cls: str) -> set[str]:
    """The attributes `self.NAME = ...` that the methods of class `cls` in `source` assign."""
    tree = ast.parse(source.read_text(encoding="utf-8"))
    node = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls)
    found = set()
    for sub in ast.walk(node):
        targets = sub.targets if isinstance(sub, ast.Assign) else [sub.target] if isinstance(sub, ast.AnnAssign) else []
        for target in targets:
            for leaf in ast.walk(target):
                if isinstance(leaf, ast.Attribute) and isinstance(leaf.value, ast.Name) and leaf.value.id == "self":
                    found.add(leaf.attr)
    return found


def _declared(pxd: Path) -> set[str]:
    """The names of the `cdef public` members that a .pxd file declares."""
    names = set()
    for line in pxd.read_text(encoding="utf-8").splitlines():
        words = line.split("#")[0].split()
        if words[:2] == ["cdef", "public"]:
            names.update(name.strip(",") for name in words[3:])
    return names


def test_every_field_of_the_compiled_classes_is_declared_in_their_pxd():
    # a compiled class has no __dict__: a field its .py sets but its .pxd does not declare is an AttributeError
    # on the compiled path only (the pure path never reads the .pxd)
    game = ROOT / "runner" / "game"
    missing = _assigned_attributes(game / "tables.py", "Game") - _declared(game / "tables.pxd")
    assert not missing, f"declare them in runner/game/tables.pxd: {sorted(missing)}"
    from runner.game.round_state import RoundState

    missing = set(RoundState.__slots__) - _declared(game / "round_state.pxd")
    assert not missing, f"declare them in runner/game/round_state.pxd: {sorted(missing)}"


def test_a_wheel_ships_the_typed_declarations_its_compiled_modules_were_checked_against():
    # the stale-source check hashes each module's .py with the .pxd beside it (a kernel: its .pyx): an installed
    # package without them would never match its build, and every typed module would run as pure Python
    import fnmatch
    import tomllib

    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["package-data"]
    unshipped = []
    for path in sorted([*(ROOT / "runner").rglob("*.pxd"), *(ROOT / "runner").rglob("*.pyx")]):
        package = ".".join(path.parent.relative_to(ROOT).parts)
        if not any(fnmatch.fnmatch(path.name, pattern) for pattern in data.get(package, [])):
            unshipped.append(str(path.relative_to(ROOT)))
    assert not unshipped, f"add them to [tool.setuptools.package-data] in pyproject.toml: {unshipped}"
