"""The optional accelerator: the engine's hot modules compiled by Cython from their own .py source, or not.

setup.py compiles the modules of `MODULES` (each from the same .py file the pure path runs, typed
by the .pxd file beside it where there is one) when a C compiler is at hand, and writes beside
each compiled module the SHA-256 of the source it was built from (`MANIFEST`, one per package
folder). Importing this module (runner/__init__.py and bots/__init__.py do it first)
puts a finder in front of the import system that loads the pure .py file of a module instead of
its compiled one when `MAUMAU_PURE=1` is set, or when the .py file no longer matches the hash
it was compiled from (an edited checkout runs what it reads, never a stale build).
`status()` says which path each module runs.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys

# The modules compiled, in import order: the Views' shared lists, the engine, its tables, the log's events and line
# encoder, the simulator, the in-process seat and its deadlines, the match loop, and a tournament's results store,
# standings and rating (the standings are worked out after the last match, while no worker plays).
# (Not bots/hard.py: pluggy takes hooks only from plain Python functions; its strategy's C twin is a kernel below.)
MODULES = (
    "runner.game.snapshot",
    "runner.game.tables",
    "runner.game.round_state",
    "runner.game.steps",
    "runner.game.house_rules",
    "runner.game.engine",
    "runner.game.events",
    "runner.logs.lines",
    "runner.botkit.simulate",
    "runner.seats.deadline",
    "runner.seats.seat",
    "runner.table.referee",
    "runner.table.match",
    "runner.tournament.store",
    "runner.tournament.rating",
    "runner.tournament.standings",
)
# Typed Cython sources (.pyx) with no .py of the same name: the code importing one falls back to Python of its own
# when it cannot be imported (not built, MAUMAU_PURE=1, or stale: the finder then refuses it). maumau.bots._hard (in
# bots/, setup.py maps the package) is the hard bot's policy and value for the playout kernel's slots.
KERNELS = ("runner.game._generator", "runner.botkit._playout", "maumau.bots._hard")
# The modules whose compiled forms share typed classes (a .pxd cimports another's: the Round's state, its
# methods, the compiled rules, the referee's decision loop on them): a compiled one cannot run on the pure-Python
# class of another, so they run compiled only all together.
LINKED = ("runner.game.snapshot", "runner.game.tables", "runner.game.round_state", "runner.game.steps",
          "runner.game.house_rules", "runner.game.engine", "runner.table.referee")
MANIFEST = "_accelerated.json"  # {module's file name: SHA-256 of the .py it was compiled from}
PURE_VARIABLE = "MAUMAU_PURE"


def source_file(name: str) -> str:
    """The source a module of MODULES or KERNELS is compiled from, relative to the repository root."""
    return name.replace(".", "/") + (".pyx" if name in KERNELS else ".py")


def source_digest(path: str) -> str:
    """The SHA-256 of a module's source, its .py (or .pyx) file and the .pxd beside it if any (a build records it, an
    import compares)."""
    digest = hashlib.sha256()
    for name in (path, os.path.splitext(path)[0] + ".pxd"):
        if os.path.isfile(name):
            with open(name, "rb") as handle:
                digest.update(handle.read())
    return digest.hexdigest()


def compiled(spec: importlib.machinery.ModuleSpec | None) -> bool:
    """Whether the module of import spec `spec` runs compiled (a Cython extension) or as pure Python: the one way this
    project tells them apart. A module asks about itself, as it is imported, with `compiled(__spec__)`."""
    return isinstance(getattr(spec, "loader", None), importlib.machinery.ExtensionFileLoader)


def forced_pure() -> bool:
    """Whether the environment asks for the pure-Python path (`MAUMAU_PURE` set to anything but empty or 0)."""
    return os.environ.get(PURE_VARIABLE, "") not in ("", "0")


# Why each module of MODULES runs as pure Python when it does (`status()` reports it).
_reasons: dict[str, str] = {}


def _compiled_file(folder: str, base: str) -> str | None:
    """The compiled extension of module `base` in `folder`, if one was built there."""
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        candidate = os.path.join(folder, base + suffix)
        if os.path.isfile(candidate):
            return candidate
    return None


def _built_from(folder: str) -> dict[str, str]:
    try:
        with open(os.path.join(folder, MANIFEST), encoding="utf-8") as handle:
            found = json.load(handle)
    except (OSError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


def _pure_reason(folder: str, base: str, file: str) -> str | None:
    """Why module `base` of `folder`, compiled from `file`, must run as pure Python (None: its compiled one may run)."""
    if _compiled_file(folder, base) is None:
        return "not built"
    if forced_pure():
        return f"{PURE_VARIABLE}=1"
    if _built_from(folder).get(file) != source_digest(os.path.join(folder, file)):
        return f"{file} changed since it was compiled (pip install -e . rebuilds it)"
    return None


def _linked_reason(name: str, folder: str) -> str | None:
    """Why module `name` of LINKED, found in `folder`, must run as pure Python because another of LINKED does (each
    in its package's folder under the same root), or None."""
    root = os.path.normpath(folder)
    for _ in range(name.count(".")):  # up from the module's package folder to the folder holding the top package
        root = os.path.dirname(root)
    for other in LINKED:
        package, _, other_base = other.rpartition(".")
        other_reason = _pure_reason(os.path.join(root, *package.split(".")), other_base, other_base + ".py")
        if other_reason is not None:
            return f"{other} runs as pure Python ({other_reason}), and they share typed classes"
    return None


class PureWhenAsked(importlib.abc.MetaPathFinder):
    """Finds the pure .py of an accelerated module when the compiled one must not run; else leaves it to the rest."""

    def find_spec(self, name, path, target=None):
        if name not in MODULES and name not in KERNELS:
            return None
        base, kernel = name.rpartition(".")[2], name in KERNELS
        file = base + (".pyx" if kernel else ".py")
        for folder in path or sys.path:
            source = os.path.join(folder, file)
            if not os.path.isfile(source):
                continue
            reason = _pure_reason(folder, base, file)
            if reason is None and name in LINKED:  # compiled only together with the modules it shares types with
                reason = _linked_reason(name, folder)
            if reason is None:
                _reasons.pop(name, None)
                return None  # the usual finders load the extension, which comes first in their order
            _reasons[name] = reason
            if reason == "not built":
                return None  # only the .py is there: the usual finders load it (a kernel: they find nothing)
            if kernel:  # no Python of its own: its importer falls back
                raise ModuleNotFoundError(f"{name} not used: {reason}", name=name)
            return importlib.util.spec_from_file_location(name, source)
        return None


def install() -> None:
    """Put the finder first in `sys.meta_path`, once."""
    if not any(isinstance(finder, PureWhenAsked) for finder in sys.meta_path):
        sys.meta_path.insert(0, PureWhenAsked())


def status() -> dict[str, str]:
    """For each module of MODULES and KERNELS: `compiled`, or why it runs as pure Python (imports them all)."""
    found = {}
    for name in MODULES + KERNELS:
        try:
            module = importlib.import_module(name)
        except ImportError:  # a kernel not built or refused: its importer runs Python instead
            found[name] = "pure: " + _reasons.get(name, "not built")
            continue
        if compiled(getattr(module, "__spec__", None)):
            found[name] = "compiled"
        else:
            found[name] = "pure: " + _reasons.get(name, "not built")
    return found


def summary() -> str:
    """One line: whether the accelerator is in use, and if not why."""
    states = status()
    compiled = [name for name, state in states.items() if state == "compiled"]
    if len(compiled) == len(states):
        return f"compiled (Cython): all {len(states)} accelerated modules"
    if compiled:
        pure = ", ".join(f"{name} ({state[6:]})" for name, state in states.items() if state != "compiled")
        return f"partly compiled: {len(compiled)} of {len(states)} modules; pure Python: {pure}"
    reasons = sorted({state[6:] for state in states.values()})
    return "pure Python (" + "; ".join(reasons) + ")"


install()
