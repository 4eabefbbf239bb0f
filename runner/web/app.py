"""The web application of `maumau serve`: the pages (plain files in static/, no build step) and the JSON behind them.

Every request is validated where it enters (pydantic models for bodies, explicit checks for the
rest); bad input is a 4xx answer `{"error": "..."}` with a one-line message. The pages are
served with a Content-Security-Policy that allows this server's own files only.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from runner.logs.codec import MAX_LOG_BYTES, encode
from runner.tournament.integrity import time_limit, timed_out

from .analyses import PREFIX as ANALYSES
from .analyses import REPORT_CSP, analysis_routes
from .host import LEVELS, Games, HostedGame, Refused
from .lobby import MAX_RULESET_BYTES, game_spec, house_rules, registered_rulesets, ruleset_summary
from .snapshot import seat_state
from .watch import Results, log_frames

STATIC = Path(__file__).parent / "static"
LONG_POLL_SECONDS = 20.0  # a page asking for news waits this long for a change before it is answered anyway
SWEEP_SECONDS = 30.0
MAX_JSON_BYTES = MAX_RULESET_BYTES + 4096
# A request reading results (standings, matches, replays, logs) is answered within this many seconds, a 503 if its
# reading has not ended by then; its reads of a results database stop then too (runner/tournament/integrity.py).
RESULTS_SECONDS = 60.0
# Results are read in threads of their own, this many at most: however they are held up, the games, the lobby and
# the pages (the default thread pool and the event loop) go on answering.
RESULTS_THREADS = 4
MAX_DIGITS = 18  # a whole number in a query: at most this many ASCII digits (int() of 5,000 digits raises)
DEFAULT_RULESET = "elimination"  # online Mau Mau, where players join and leave between rounds
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")


class NewGame(BaseModel):
    """The lobby's New game: a registered ruleset or a house-rule file's text, the level, the number of players."""

    model_config = ConfigDict(extra="forbid")
    ruleset: str | None = Field(None, max_length=100)
    yaml: str | None = Field(None, max_length=MAX_RULESET_BYTES)
    filename: str | None = Field(None, max_length=200)
    level: Literal["easy", "medium", "hard"] = "medium"
    players: int = Field(ge=2, le=64)


class HouseRules(BaseModel):
    model_config = ConfigDict(extra="forbid")
    yaml: str = Field(max_length=MAX_RULESET_BYTES)
    filename: str | None = Field(None, max_length=200)


class Nothing(BaseModel):
    """The body of a POST that needs none (join, next, leave): `{}`, sent as JSON, which a form of another site
    cannot send (a browser asks this server first, and it says no)."""

    model_config = ConfigDict(extra="forbid")


class Move(BaseModel):
    """A move: the decision it answers (`turn`, as the page was sent it) and the index of the move shown."""

    model_config = ConfigDict(extra="forbid")
    turn: int = Field(ge=0)
    move: int = Field(ge=0, le=100_000)


def error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def validation_text(exc: ValidationError) -> str:
    """A pydantic error as one line: the first field's path and what is wrong with it."""
    first = exc.errors()[0]
    where = ".".join(str(part) for part in first["loc"]) or "body"
    more = f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
    return f"{where}: {first['msg']}{more}"


async def read_body(request: Request, limit: int) -> bytes:
    """The request's body, refused (413) past `limit` bytes however it is sent."""
    declared = request.headers.get("content-length")
    length = whole_number(declared) if declared is not None else None
    if declared is not None and (length is None or length > limit):
        raise Refused(413, f"the body is over {limit} bytes")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise Refused(413, f"the body is over {limit} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


async def parse(request: Request, model: type[BaseModel]) -> BaseModel:
    """The JSON body as `model`; a 4xx for anything else (a form post from another site included)."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise Refused(415, f"send the body as application/json, got {kind or 'no content type'!r}")
    body = await read_body(request, MAX_JSON_BYTES)
    try:
        return model.model_validate_json(body)
    except ValidationError as exc:
        raise Refused(400, validation_text(exc)) from None


def whole_number(text: str) -> int | None:
    """`text` as a whole number if it is one written in at most MAX_DIGITS ASCII digits (not `²`, which
    str.isdigit() takes and int() refuses), else None."""
    if not (text.isascii() and text.isdigit() and len(text) <= MAX_DIGITS):
        return None
    return int(text)


def int_param(request: Request, name: str, default: int, low: int, high: int) -> int:
    text = request.query_params.get(name)
    if text is None:
        return default
    number = whole_number(text)
    if number is None or not low <= number <= high:
        raise Refused(400, f"{name} must be a whole number from {low} to {high}, got {text[:20]!r}")
    return number


def flag_param(request: Request, name: str) -> bool:
    text = request.query_params.get(name, "")
    if text not in ("", "0", "1", "true", "false"):
        raise Refused(400, f"{name} must be 1 or 0, got {text[:20]!r}")
    return text in ("1", "true")


def text_param(request: Request, name: str, required: bool = True, limit: int = 1000) -> str | None:
    text = request.query_params.get(name)
    if text is None or text == "":
        if required:
            raise Refused(400, f"give the query parameter {name}")
        return None
    if len(text) > limit:
        raise Refused(400, f"{name} is over {limit} characters")
    return text


def create_app(results: Path | None = None, games: Games | None = None, allowed_hosts: list[str] | None = None,
               long_poll: float = LONG_POLL_SECONDS, results_seconds: float = RESULTS_SECONDS) -> Starlette:
    """The application: games hosted in `games`, results read from `results`; `allowed_hosts` guards against
    DNS rebinding (a page elsewhere reaching this server under its own name); a page asking for news is
    answered after at most `long_poll` seconds without a change, one reading results after `results_seconds`."""
    games = games if games is not None else Games()
    watched = Results(results) if results is not None else None
    readers = ThreadPoolExecutor(RESULTS_THREADS, thread_name_prefix="maumau-results")
    too_long = (f"reading the results took longer than {results_seconds:g} s; try again later, or read them with "
                "maumau standings DIR")

    def timed(read, *args):
        """`read(*args)` in a reader thread, its results databases read under the request's time limit."""
        with time_limit(results_seconds):
            try:
                return read(*args)
            except sqlite3.Error as exc:  # a read interrupted at the limit (or a database failing mid-read)
                if timed_out():
                    raise Refused(503, too_long) from None
                raise Refused(422, f"cannot read the results: {exc}") from None

    async def reading(read, *args):
        """`read(*args)` (a reading of the results), answered within `results_seconds` (503 after)."""
        running = asyncio.get_running_loop().run_in_executor(readers, timed, read, *args)
        try:
            return await asyncio.wait_for(running, results_seconds + 1)  # its reads stop at the limit: a second more
        except TimeoutError:
            raise Refused(503, too_long) from None

    def page(name: str):
        async def endpoint(request: Request) -> Response:
            return FileResponse(STATIC / name, media_type="text/html")
        return endpoint

    def results_dir() -> Results:
        if watched is None:
            raise Refused(404, "no results directory: start the server with --results DIR to watch tournaments")
        return watched

    # ---------------------------------------------------------------- play

    async def lobby(request: Request) -> Response:
        rulesets = await asyncio.to_thread(registered_rulesets)
        return JSONResponse({"levels": list(LEVELS), "rulesets": rulesets, "default": DEFAULT_RULESET,
                             "watch": watched is not None})

    async def check_rules(request: Request) -> Response:
        body = await parse(request, HouseRules)
        name, ruleset = await asyncio.to_thread(house_rules, body.yaml, body.filename)
        return JSONResponse(ruleset_summary(name, ruleset))

    async def new_game(request: Request) -> Response:
        body = await parse(request, NewGame)
        spec = await asyncio.to_thread(game_spec, body.ruleset, body.yaml, body.filename, body.level, body.players)
        game = games.new(spec)
        return JSONResponse({"seat": game.creator.token, "url": f"/play/{game.creator.token}"}, status_code=201)

    async def seat_get(request: Request) -> Response:
        """The seat's state; with `after=VERSION`, once it differs from that version (or after `long_poll` s).

        The version counts the changes this seat can see, not the game's: a decision or event hidden
        from it (another seat asked whether to jump in) must not show as a new version either.
        """
        game, seat = games.seat(request.path_params["token"])
        text = request.query_params.get("after")
        after = whole_number(text) if text is not None else None
        if text is not None and after is None:
            raise Refused(400, f"after must be a version number, got {text[:20]!r}")
        deadline = asyncio.get_running_loop().time() + long_poll
        while True:
            with game.lock:
                seat.seen = game.clock()
                state, seen = seat.numbered(seat_state(game, seat)), game.changes.version
            remaining = deadline - asyncio.get_running_loop().time()
            if after is None or state["version"] != after or remaining <= 0 or games.closing:
                return JSONResponse(state)
            await game.changes.wait(seen, remaining)

    async def seat_move(request: Request) -> Response:
        game, seat = games.seat(request.path_params["token"])
        body = await parse(request, Move)
        game.answer(seat, body.turn, body.move)
        return JSONResponse({"ok": True})

    async def seat_next(request: Request) -> Response:
        game, seat = games.seat(request.path_params["token"])
        await parse(request, Nothing)
        game.ready(seat)
        return JSONResponse({"ok": True})

    async def seat_leave(request: Request) -> Response:
        game, seat = games.seat(request.path_params["token"])
        await parse(request, Nothing)
        game.leave(seat)
        return JSONResponse({"ok": True})

    async def seat_log(request: Request) -> Response:
        game, seat = games.seat(request.path_params["token"])
        return Response(encode(game.log_lines()), media_type="application/x-ndjson",
                        headers={"Content-Disposition": f'attachment; filename="maumau-{game.seed}.jsonl"'})

    def public_game(game: HostedGame) -> dict:
        rules = game.spec.ruleset
        with game.lock:
            return {"ruleset": game.spec.ruleset_name, "description": rules.description, "level": game.spec.level,
                    "status": game.status, "players": len(game.match.table.seated()), "max": rules.players.max,
                    "table_changes": rules.match.table_changes, "round": game.public.round or None}

    async def game_get(request: Request) -> Response:
        return JSONResponse(public_game(games.game(request.path_params["token"])))

    async def game_join(request: Request) -> Response:
        game = games.game(request.path_params["token"])
        await parse(request, Nothing)
        seat = game.join()
        return JSONResponse({"seat": seat.token, "url": f"/play/{seat.token}"}, status_code=201)

    # ---------------------------------------------------------------- watch

    async def tournaments(request: Request) -> Response:
        return JSONResponse({"tournaments": await reading(results_dir().tournaments)})

    async def standings(request: Request) -> Response:
        name = text_param(request, "t")
        return JSONResponse(await reading(results_dir().standings, name))

    async def history(request: Request) -> Response:
        name = text_param(request, "t")
        return JSONResponse(await reading(results_dir().history, name))

    async def matches(request: Request) -> Response:
        name = text_param(request, "t")
        bot = text_param(request, "bot", required=False, limit=200)
        lost, faults = flag_param(request, "lost"), flag_param(request, "faults")
        offset = int_param(request, "offset", 0, 0, 10**9)
        limit = int_param(request, "limit", 100, 1, 500)
        return JSONResponse(await reading(results_dir().matches, name, bot, lost, faults, offset, limit))

    async def match_replay(request: Request) -> Response:
        name, match_id = text_param(request, "t"), text_param(request, "m", limit=200)
        return JSONResponse(await reading(results_dir().match, name, match_id))

    async def logs(request: Request) -> Response:
        return JSONResponse({"logs": await reading(results_dir().log_files)})

    async def log_replay(request: Request) -> Response:
        path = text_param(request, "path")
        return JSONResponse(await reading(results_dir().log_replay, path))

    async def log_upload(request: Request) -> Response:
        kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if kind != "application/octet-stream":
            raise Refused(415, "send the log file's bytes as application/octet-stream, "
                               f"got {kind or 'no content type'!r}")
        data = await read_body(request, MAX_LOG_BYTES)
        name = text_param(request, "name", required=False, limit=200) or "the uploaded log"
        return JSONResponse(await reading(log_frames, data, name))

    # ---------------------------------------------------------------- the application

    async def refused(request: Request, exc: Refused) -> Response:
        return error(exc.status, str(exc))

    async def not_found(request: Request, exc) -> Response:
        if request.url.path.startswith("/api/"):
            return error(getattr(exc, "status_code", 404), f"no such address: {request.method} {request.url.path}")
        status = getattr(exc, "status_code", 404)
        return Response(f"{status}: no such page: {request.url.path}\n", media_type="text/plain", status_code=status)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        async def sweep() -> None:
            while True:
                await asyncio.sleep(SWEEP_SECONDS)
                games.sweep()

        task = asyncio.create_task(sweep())
        try:
            yield
        finally:
            task.cancel()
            games.stop_all()
            readers.shutdown(wait=False, cancel_futures=True)

    routes = [
        Route("/", page("lobby.html")),
        Route("/play/{token}", page("table.html")),
        Route("/join/{token}", page("join.html")),
        Route("/watch", page("watch.html")),
        Route("/replay", page("replay.html")),
        Route("/api/lobby", lobby),
        Route("/api/rulesets/check", check_rules, methods=["POST"]),
        Route("/api/games", new_game, methods=["POST"]),
        Route("/api/games/{token}", game_get),
        Route("/api/games/{token}/join", game_join, methods=["POST"]),
        Route("/api/seats/{token}", seat_get),
        Route("/api/seats/{token}/move", seat_move, methods=["POST"]),
        Route("/api/seats/{token}/next", seat_next, methods=["POST"]),
        Route("/api/seats/{token}/leave", seat_leave, methods=["POST"]),
        Route("/api/seats/{token}/log", seat_log),
        Route("/api/tournaments", tournaments),
        Route("/api/standings", standings),
        Route("/api/matches", matches),
        Route("/api/history", history),
        Route("/api/replay", match_replay),
        Route("/api/logs", logs),
        Route("/api/logs/replay", log_replay),
        Route("/api/logs/upload", log_upload, methods=["POST"]),
        *analysis_routes(results),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    middleware = [Middleware(SecurityHeaders), Middleware(GZipMiddleware, minimum_size=1024, compresslevel=6)]
    if allowed_hosts is not None:
        middleware.insert(0, Middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts))
    app = Starlette(routes=routes, middleware=middleware, lifespan=lifespan,
                    exception_handlers={Refused: refused, 404: not_found, 405: not_found})
    app.state.games = games
    return app


class SecurityHeaders:
    """Headers on every answer: the pages may load only this server's files, and no answer is cached or framed."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                # an analysis' report (runner/web/analyses.py) has inline styles and charts and no script at all
                csp = REPORT_CSP if scope["path"].startswith(ANALYSES) else CSP
                headers += [(b"content-security-policy", csp.encode()), (b"x-content-type-options", b"nosniff"),
                            (b"referrer-policy", b"no-referrer"), (b"x-frame-options", b"DENY")]
                if scope["path"].startswith("/api/"):
                    headers.append((b"cache-control", b"no-store"))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)
