"""Running the web application with uvicorn: `maumau serve`."""

from __future__ import annotations

import contextlib
import ipaddress
import socket
import threading
import time
from pathlib import Path
from typing import Iterator

import uvicorn

from runner.errors import MaumauError

from .app import create_app

LOOPBACK_NAMES = ["localhost", "127.0.0.1", "::1", "[::1]"]


def allowed_hosts(host: str) -> list[str] | None:
    """The Host headers to accept: bound to a loopback address, only the machine's own names (no DNS rebinding)."""
    try:
        loopback = ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = host == "localhost"
    return [*LOOPBACK_NAMES, host] if loopback else None


def check_port(host: str, port: int) -> None:
    """A one-line error, before start-up, when the address cannot be bound (in use, or not this machine's)."""
    if not 0 < port < 65536:
        raise MaumauError(f"--port must be from 1 to 65535, got {port}")
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            raise MaumauError(f"cannot listen on {host}:{port} ({exc.strerror}); "
                              "choose another --port or --host") from None


class _Server(uvicorn.Server):
    """uvicorn's server, which first answers the pages waiting for news when it is told to stop, so that their
    requests end at once instead of being cancelled at the end of the grace period."""

    def handle_exit(self, sig, frame) -> None:
        self.config.app.state.games.wake_all()
        super().handle_exit(sig, frame)


def serve(host: str, port: int, results: Path | None, on_ready=print) -> None:
    """Serve until interrupted; `on_ready` is told the address to open."""
    if results is not None and not results.is_dir():
        raise MaumauError(f"--results {results}: no such directory; give a tournament's results directory "
                          "or the folder holding them (e.g. results)")
    check_port(host, port)
    app = create_app(results, allowed_hosts=allowed_hosts(host))
    shown = f"[{host}]" if ":" in host else host
    on_ready(f"maumau serve: open http://{shown}:{port}/ (Ctrl-C stops it)")
    _Server(uvicorn.Config(app, host=host, port=port, log_level="warning", access_log=False,
                           timeout_graceful_shutdown=2)).run()


@contextlib.contextmanager
def running(results: Path | None = None, host: str = "127.0.0.1", **options) -> Iterator[str]:
    """The application served by uvicorn in a background thread on a free port, for the browser tests and
    docs/screenshots.py; yields its address (`http://127.0.0.1:PORT`). `options` go to `create_app`."""
    app = create_app(results, allowed_hosts=allowed_hosts(host), **options)
    config = uvicorn.Config(app, host=host, port=0, log_level="warning", access_log=False, timeout_graceful_shutdown=2)
    server = _Server(config)
    thread = threading.Thread(target=server.run, name="maumau-serve", daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise MaumauError("the web server did not start")
        time.sleep(0.02)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"http://{host}:{port}"
    finally:
        server.handle_exit(None, None)
        thread.join(timeout=30)
