"""`python -m runner.cli`: the console script."""

from .app import script

script()
