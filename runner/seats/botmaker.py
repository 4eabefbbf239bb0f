"""One factory for every seat: a registered bot in-process or isolated, or an external command.

`BotMaker` is the `make_bot(player, seat, rng)` that `Match` calls. Processes (isolated workers
and `exec:` programs) are kept between matches and restarted only after one was killed; call
`end_match()` after each match and `close()` at the end (or use it as a context manager).
"""

from __future__ import annotations

import atexit
import threading
import time

from runner.errors import MaumauError
from runner.game.bot import Bot
from runner.plugins import Registry, registry
from runner.plugins.botspec import BotSpec

from .external import EXEC_PREFIX, BotProcess, CommandBot, RemoteBot, check_program, parse_exec
from .faults import DEFAULT_MEMORY
from .isolation import worker_command, worker_environment
from .protocol import exception_text
from .seat import BotUnavailable, Seat


class _Unbuildable(Bot):
    """Stands in for a bot whose constructor raised: its first decision is an exception fault."""

    name = "unbuildable"

    def __init__(self, problem: str):
        super().__init__()
        self.problem = problem

    def act(self, view):
        raise BotUnavailable(f"the bot could not be built: {self.problem}")


class ProcessPool:
    """Running bot processes by command line; a process serves one seat of one match at a time."""

    def __init__(self, memory: int | None):
        self.memory = memory
        self.idle: dict[tuple[str, ...], list[BotProcess]] = {}

    def acquire(self, argv: list[str], label: str, env: dict | None = None) -> BotProcess:
        idle = self.idle.get(tuple(argv), [])
        while idle:
            process = idle.pop()
            if not process.dead and process.proc.poll() is None:
                return process
            process.kill()
        return self._start(argv, label, env)

    def _start(self, argv: list[str], label: str, env: dict | None) -> BotProcess:
        process = BotProcess(argv, label, self.memory, env)
        process.on_failure = self._restart
        return process

    def _restart(self, failed: BotProcess) -> None:
        """Start the replacement of a killed bot at once: it boots while the match goes on without it."""
        self.idle.setdefault(tuple(failed.argv), []).append(self._start(failed.argv, failed.label, failed.env))

    def release(self, process: BotProcess, reusable: bool) -> None:
        if reusable and not process.dead:
            self.idle.setdefault(tuple(process.argv), []).append(process)
        else:
            process.kill()

    def close(self, grace: float = 0.5) -> None:
        """Say bye to every idle process, give them `grace` seconds together, then kill what is left."""
        processes = [process for group in self.idle.values() for process in group]
        for process in processes:
            process.say_bye()
        deadline = time.monotonic() + grace
        for process in processes:
            process.close(deadline)
        self.idle.clear()


class BotMaker:
    """`make_bot(player, seat, rng)`: `player` is a registered name or `exec:PROGRAM [ARGS]`."""

    def __init__(self, reg: Registry | None = None, isolate: bool | frozenset[str] = False,
                 memory: int | None = DEFAULT_MEMORY):
        """`isolate`: True for every Python bot, or the names of the ones to isolate."""
        self._reg = reg
        self.isolate = isolate
        self.pool = ProcessPool(memory)
        self.seated: list[RemoteBot] = []
        self._specs: dict[str, tuple[Registry, BotSpec]] = {}  # each player's spec, with the registry that checked it

    @property
    def reg(self) -> Registry:
        """The registry given, or the process-wide one as it is now (tests may swap it)."""
        return self._reg or registry()

    def command_for(self, player: str) -> tuple[list[str], bool] | None:
        """(argv, hosted) that runs `player` out of process, or None for an in-process bot.

        `hosted` marks our own worker hosting a Python bot (it takes the full generator state).
        """
        if player.startswith(EXEC_PREFIX):
            return parse_exec(player), False
        spec = self.spec(player)
        cls = self.reg.bot(spec.name).cls
        if issubclass(cls, CommandBot):
            argv = [str(part) for part in cls.command]
            if not argv:
                raise MaumauError(f"bot {player!r}: its CommandBot class sets no `command`")
            check_program(argv[0], player)
            return argv, False
        isolated = self.isolate is True or (not isinstance(self.isolate, bool) and spec.name in self.isolate)
        return (worker_command(player, cls, spec.kwargs), True) if isolated else None

    def spec(self, player: str) -> BotSpec:
        """The bot and options `player` names (`hard:rollouts=200`), checked once per maker."""
        reg = self.reg
        known = self._specs.get(player)
        if known is None or known[0] is not reg:
            known = self._specs[player] = (reg, reg.spec(player))
        return known[1]

    def check(self, players) -> None:
        """Refuse unknown bots, unknown options or bad values, and commands that cannot run, before any match starts."""
        for player in players:
            self.command_for(player)

    def canonical(self, players) -> list[str]:
        """Each player checked and written canonically (`hard:rollouts=200`): the options in the order the bot declares
        them, values as their types write them; an `exec:` command as it is."""
        self.check(players)
        return [player if player.startswith(EXEC_PREFIX) else self.spec(player).text for player in players]

    def __call__(self, player: str, seat: int, rng) -> Bot | Seat:
        how = self.command_for(player)
        if how is None:
            spec = self.spec(player)
            try:
                return self.reg.bot(spec.name).cls(rng=rng, **spec.kwargs)
            except Exception as exc:  # a broken constructor is that bot's fault, not the runner's
                return _Unbuildable(exception_text(exc))
        argv, hosted = how
        process = self.pool.acquire(argv, player, worker_environment() if hosted else None)
        bot = RemoteBot(process, seat, rng, send_rng_state=hosted)
        self.seated.append(bot)
        return bot

    def end_match(self, result=None) -> None:
        """Tell every out-of-process bot of the match that it is over; keep the healthy processes."""
        summary = None
        if result is not None:
            summary = {"ranking": list(result.ranking), "winners": list(result.winners), "totals": list(result.totals)}
        for bot in self.seated:
            self.pool.release(bot.process, bot.finish(summary))
        self.seated = []

    def close(self) -> None:
        """End every bot process."""
        for bot in self.seated:
            bot.process.kill()
        self.seated = []
        self.pool.close()

    def __enter__(self) -> "BotMaker":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


_shared = threading.local()  # a cluster worker plays matches in several threads: one maker each


def shared_maker(isolate: bool, memory: int | None) -> BotMaker:
    """This thread's BotMaker for these settings, kept for the life of the (worker) process."""
    makers = getattr(_shared, "makers", None)
    if makers is None:
        makers = _shared.makers = {}
    maker = makers.get((isolate, memory))
    if maker is None:
        maker = makers[(isolate, memory)] = BotMaker(isolate=isolate, memory=memory)
        atexit.register(maker.close)
    return maker
