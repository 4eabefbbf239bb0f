"""Rendering rows of results for people (tabulate tables) and machines (JSON, CSV)."""

from __future__ import annotations

import csv
import io
import json

import typer
from tabulate import tabulate

from runner.errors import MaumauError

FORMATS = ("table", "json", "csv")


def render_rows(rows: list[dict], fmt: str) -> str:
    """`rows` (a list of flat dicts) as a table, JSON or CSV.

    Keys are snake_case, as JSON and CSV give them (`rounds_won`); a table's headers spell them
    for people (`rounds won`), and its yes/no cells read `yes` or stay empty (JSON keeps true/false).
    """
    if fmt == "table":
        if not rows:
            return "(none)"
        cells = [{key: _for_people(value) for key, value in row.items()} for row in rows]
        return tabulate(cells, headers={key: key.replace("_", " ") for key in rows[0]})
    if fmt == "json":
        return json.dumps(rows, indent=2, sort_keys=False)
    if fmt == "csv":
        buffer = io.StringIO()
        if rows:
            writer = csv.DictWriter(buffer, fieldnames=list(rows[0]), lineterminator="\n")
            writer.writeheader()
            writer.writerows(rows)
        return buffer.getvalue().rstrip("\n")
    raise MaumauError(f"unknown --format {fmt!r}; use one of {', '.join(FORMATS)}")


def emit(rows: list[dict], fmt: str) -> None:
    typer.echo(render_rows(rows, fmt))


def _for_people(value: object) -> object:
    if isinstance(value, bool):
        return "yes" if value else ""
    return value
