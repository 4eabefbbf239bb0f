"""Compile the given modules of the maumau tree in the current directory with mypyc, in place.

    cd TREE && python build.py runner/engine.py runner/referee.py

Part of the mypyc experiment (bench/mypyc/README.md); needs `pip install mypy` and a C compiler.
"""

import sys

from mypyc.build import mypycify
from setuptools import setup

modules = sys.argv[1:]
sys.argv = [sys.argv[0], "build_ext", "--inplace"]
setup(
    name="maumau-mypyc-experiment",
    ext_modules=mypycify(["--follow-imports=silent", "--ignore-missing-imports", *modules], opt_level="3"),
)
