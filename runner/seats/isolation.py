"""The worker that hosts one registered Python bot in a process of its own (`maumau ... --isolate`).

Run as `python -m runner.seats.isolation MODULE:CLASS BOT`, it speaks the JSON-lines protocol of docs/protocol.md
on its stdin/stdout like any external bot. The bot inside sees only the serialized copy of its
own view: the referee's state lives in another process, out of reach of `gc` or frame tricks.
"""

from __future__ import annotations

import importlib
import json
import os
import random
import sys

from runner.errors import MaumauError, exception_text
from runner.plugins.discovery import adopt_parent_path
from runner.rules import ruleset_of

from .protocol import (
    PROTOCOL_VERSION,
    ProtocolViolation,
    action_data,
    decode,
    describe_answer,
    encode,
    exception_traceback,
    parse_view,
    well_typed,
)


def worker_command(bot_name: str, where: str, options: dict | None = None) -> list[str]:
    """The argv that starts a worker hosting the class at `where` (`module:Class`, registered as `bot_name`, built
    with `options`); MaumauError if it cannot be imported there."""
    module, _, qualname = where.partition(":")
    if module == "__main__" or "<locals>" in qualname:
        raise MaumauError(
            f"bot {bot_name!r}: --isolate needs a class importable by module path, not one defined in "
            f"{'a script' if module == '__main__' else 'a function'}; move it to a module"
        )
    argv = [sys.executable, "-m", "runner.seats.isolation", where, bot_name]
    return argv + [json.dumps(options, sort_keys=True)] if options else argv


def answer_data(answer: object) -> dict:
    """An Action as protocol JSON; anything else (checked by exact type) as an `invalid` marker."""
    if well_typed(answer):
        return action_data(answer)  # type: ignore[arg-type]  # well_typed: one of the Action types
    return {"type": "invalid", "what": describe_answer(answer)}


class Host:
    """One bot per match, rebuilt from the registry with the seat's seeded generator."""

    def __init__(self, where: str, bot_name: str, options: dict | None = None):
        module, _, qualname = where.partition(":")
        self.options = options or {}  # the bot's command-line options, the same for every match of this process
        cls = importlib.import_module(module)
        for part in qualname.split("."):
            cls = getattr(cls, part)
        self.cls, self.bot_name = cls, bot_name
        self.bot = None
        self.history: list = []  # the current round's events, as received in pieces
        self.broken: str | None = None
        self.broken_traceback = ""
        self.ruleset = None

    def handle(self, message: dict) -> dict:
        """The reply to one request, echoing its id."""
        kind = message["type"]
        if kind == "match_start":
            self._start(message)
            reply = {"type": "ready"}
        elif kind == "act":
            reply = self._act(message["view"])
        elif kind == "match_end":
            self.bot = None
            reply = {"type": "ready"}
        else:
            raise ProtocolViolation(f"unexpected message type {kind!r}")
        return {**reply, "id": message.get("id")}

    def _start(self, message: dict) -> None:
        self.ruleset = ruleset_of(message["rules"], "the match_start message")
        rng = random.Random()
        if "rng_state" in message:
            version, state, gauss = message["rng_state"]
            rng.setstate((version, tuple(state), gauss))
        else:
            rng.seed(message["seed"])
        self.broken, self.broken_traceback = None, ""
        try:
            self.bot = self.cls(rng=rng, **self.options)
        except BaseException as exc:  # SystemExit too: reported at its first decision, like an in-process bot
            self.bot, self.broken = None, f"the bot could not be built: {exception_text(exc)}"
            self.broken_traceback = exception_traceback(exc)

    def _act(self, view_json: dict) -> dict:
        if self.bot is None:
            return {"type": "error", "message": self.broken or "act before match_start", "give_up": True,
                    "traceback": self.broken_traceback}
        view = parse_view(view_json, self.ruleset, self.history)
        try:
            answer = self.bot.act(view)
        except BaseException as exc:  # SystemExit included: the bot's failure, reported, and the host lives on
            return {"type": "error", "message": exception_text(exc), "traceback": exception_traceback(exc)}
        return {"type": "action", "action": answer_data(answer)}


def serve(where: str, bot_name: str, options: dict | None = None) -> int:
    """Speak the protocol on the original stdin/stdout until bye or end of input."""
    # Keep the protocol streams private: what the bot prints (even from C) goes to stderr,
    # and a bot that reads stdin reads nothing.
    proto_in = os.fdopen(os.dup(0), "rb")
    proto_out = os.fdopen(os.dup(1), "wb")
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    adopt_parent_path()
    host = Host(where, bot_name, options)
    proto_out.write(encode({"type": "hello", "name": bot_name, "protocol": PROTOCOL_VERSION}))
    proto_out.flush()
    for line in proto_in:
        message = decode(line)
        if message["type"] == "bye":
            break
        proto_out.write(encode(host.handle(message)))
        proto_out.flush()
    return 0


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4):
        sys.exit("usage: python -m runner.seats.isolation MODULE:CLASS BOT_NAME [OPTIONS_JSON]")
    sys.exit(serve(sys.argv[1], sys.argv[2], json.loads(sys.argv[3]) if len(sys.argv) == 4 else None))
