"""`maumau serve --results DIR`: the stored analyses (`maumau analyze --out`), listed and shown as their HTML reports.

Pages made here, on the server, without scripts: /analyses lists the analyses in the results
directory (it and the folders one level below), /analyses/NAME shows one as the report
`maumau analyze --report` writes (runner/analysis/html.py). /api/analyses lists them as JSON.
They are answered with REPORT_CSP: no script at all, the page's own inline styles and charts.
"""

from __future__ import annotations

import asyncio
import html
import json
from pathlib import Path

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from runner.analysis.runs import SPEC_NAME, read_analysis
from runner.errors import MaumauError

from .host import Refused

PREFIX = "/analyses"
REPORT_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; frame-ancestors 'none'"


def analysis_dirs(root: Path) -> list[Path]:
    """The analyses in `root`: itself, and the folders one level below, that hold an analysis.json."""
    if not root.is_dir():
        return []
    found = [root] if (root / SPEC_NAME).is_file() else []
    return found + sorted(path for path in root.iterdir() if path.is_dir() and (path / SPEC_NAME).is_file())


def listed(root: Path) -> list[dict]:
    """Each analysis: its name (its folder below `root`), the cells' labels and table sizes."""
    entries = []
    for path in analysis_dirs(root):
        name = path.relative_to(root).as_posix() if path != root else "."
        try:
            document = json.loads((path / SPEC_NAME).read_text())
            plan = document["plan"]
            entries.append({"name": name, "labels": plan["labels"], "players": plan["players"],
                            "deals": plan["deals"]})
        except (OSError, ValueError, KeyError, TypeError) as exc:
            entries.append({"name": name, "error": f"{SPEC_NAME} cannot be read ({type(exc).__name__})"})
    return entries


def analysis_routes(results: Path | None) -> list[Route]:
    """The routes of the analyses in `results` (none given: each answers 404 saying how to give one)."""
    root = results.resolve() if results is not None else None

    def directory(name: str) -> Path:
        if root is None:
            raise Refused(404, "no results directory: start the server with --results DIR to see analyses")
        for path in analysis_dirs(root):
            if (path.relative_to(root).as_posix() if path != root else ".") == name:
                return path  # a listed folder, never a path made from the name
        raise Refused(404, f"no analysis {name!r} in the results directory; {PREFIX} lists them")

    async def api_list(request: Request) -> Response:
        if root is None:
            raise Refused(404, "no results directory: start the server with --results DIR to see analyses")
        return JSONResponse(await asyncio.to_thread(listed, root))

    async def index(request: Request) -> Response:
        entries = await asyncio.to_thread(listed, root) if root is not None else []
        items = "".join(
            f'<li><a href="{PREFIX}/{html.escape(e["name"])}">{html.escape(e["name"])}</a>: '
            + (html.escape(e["error"]) if "error" in e else
               f"{html.escape(', '.join(e['labels']))} at {', '.join(map(str, e['players']))} players, "
               f"{e['deals']} deals")
            + "</li>" for e in entries)
        none = "<p>No analyses here: run <code>maumau analyze ... --out DIR</code>.</p>"
        body = f"<ul>{items}</ul>" if items else none
        return HTMLResponse(f"<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Analyses</title>"
                            f"</head><body><h1>Analyses</h1>{body}<p><a href=\"/\">back</a></p></body></html>")

    async def show(request: Request) -> Response:
        path = directory(request.path_params["name"])
        from runner.analysis.html import page  # matplotlib, an extra, only when a report is shown

        try:
            text = await asyncio.to_thread(lambda: page(read_analysis(path)))
        except MaumauError as exc:
            raise Refused(409, str(exc)) from None
        return HTMLResponse(text)

    return [Route(PREFIX, index), Route(PREFIX + "/{name:path}", show), Route("/api/analyses", api_list)]
