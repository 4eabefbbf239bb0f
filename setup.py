"""The optional accelerator's build (pyproject.toml holds everything else): runner/accel.py says what it is.

Cython compiles the modules of `runner.accel.MODULES` from their own .py files (typed by a .pxd
beside one, where there is one), and the typed kernels of `runner.accel.KERNELS` from their .pyx.
Without a C compiler, or when Cython or the compiler fails, the install goes on without them and
the pure-Python engine runs: the build warns and never fails.
`MAUMAU_PURE=1` at install time skips the compilation altogether.
"""

from __future__ import annotations

import importlib.util
import json
import sys
import threading
from pathlib import Path

from setuptools import find_packages, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


def _accel():
    """runner/accel.py alone (standard library only), without the package, whose dependencies may not be installed."""
    spec = importlib.util.spec_from_file_location("maumau_accel", ROOT / "runner" / "accel.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


accel = _accel()


def warn(message: str) -> None:
    print(f"maumau: {message}; the pure-Python engine will be used "
          "(correct, slower: see docs/explanation/compiled-engine.md)", file=sys.stderr)


def source_of(name: str) -> str:
    """The source of a module of `runner.accel.MODULES` or `KERNELS`, relative to the repository root: a module of a
    package MAPPED (`maumau.bots._hard`) in that package's folder (bots/_hard.pyx)."""
    for package, folder in MAPPED.items():
        if name.startswith(package + "."):
            return folder + "/" + accel.source_file(name)[len(package) + 1:]
    return accel.source_file(name)


def extensions() -> list:
    if accel.forced_pure():
        return []
    try:
        from Cython.Build import cythonize
    except ImportError:
        warn("Cython is not installed, the accelerator is not built")
        return []
    from setuptools import Extension

    modules = [Extension(name, [source_of(name)]) for name in accel.MODULES]
    # The kernels' float sums must round as Python's do: no fused multiply-add.
    modules += [Extension(name, [source_of(name)], extra_compile_args=["-ffp-contract=off"])
                for name in accel.KERNELS]
    try:
        return cythonize(
            modules,
            build_dir="build/cython",  # the generated C stays out of the source tree
            quiet=True,
            compiler_directives={
                "language_level": 3,
                "annotation_typing": False,  # the annotations are for mypy; types for C come from the .pxd files
                "binding": True,  # functions keep their Python introspection (pluggy reads a hook's signature)
            },
        )
    except Exception as exc:  # noqa: BLE001  any failure of Cython leaves the pure engine, never a failed install
        warn(f"Cython failed ({exc})")
        return []


# `build_ext -j N` compiles in threads: each records its module in the shared manifest under this lock, so that
# parallel builds do not overwrite each other's entries (a lost entry makes its module run pure).
_manifest_lock = threading.Lock()


class OptionalBuildExt(build_ext):
    """build_ext that warns instead of failing, and records the source hash of each module it compiled."""

    def run(self) -> None:
        # setuptools builds in build/ with inplace off, then copies in place (also for editable installs)
        self.in_tree = self.inplace or getattr(self, "editable_mode", False)
        try:
            super().run()
        except Exception as exc:  # noqa: BLE001  e.g. no C compiler at all
            warn(f"the accelerator could not be built ({exc})")

    def build_extension(self, ext) -> None:
        try:
            super().build_extension(ext)
        except Exception as exc:  # noqa: BLE001
            warn(f"{ext.name} could not be compiled ({exc})")
            return
        source = ROOT / source_of(ext.name)
        folders = {Path(self.get_ext_fullpath(ext.name)).parent}
        if getattr(self, "in_tree", False):
            folders.add(source.parent)
        digest = accel.source_digest(str(source))
        with _manifest_lock:
            for folder in folders:
                manifest = folder / accel.MANIFEST
                try:
                    recorded = json.loads(manifest.read_text(encoding="utf-8"))
                except (OSError, ValueError):
                    recorded = {}
                recorded[source.name] = digest
                manifest.write_text(json.dumps(recorded, indent=1, sort_keys=True) + "\n", encoding="utf-8")


# The built-in bots and rulesets keep their folders in the repository and install under the project's own name,
# maumau.bots and maumau.rulesets (an editable install maps them too), not as top-level `bots` and `rulesets`
MAPPED = {"maumau.bots": "bots", "maumau.rulesets": "rulesets"}
setup(
    packages=find_packages(include=["runner", "runner.*"]) + list(MAPPED),
    package_dir=MAPPED,
    ext_modules=extensions(),
    cmdclass={"build_ext": OptionalBuildExt},
)
