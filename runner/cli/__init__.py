"""The `maumau` command line: the Typer app, its shared options and the rendering of results."""

from .app import app, main, script

__all__ = ["app", "main", "script"]
