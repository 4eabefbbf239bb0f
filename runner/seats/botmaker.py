"""One factory for every seat: a registered bot in-process or isolated, or an external command.

`BotMaker` is the `make_bot(player, seat, rng)` that `Match` calls. Processes (isolated workers
and `exec:` programs) are kept between matches and restarted only after one was killed; call
`end_match()` after each match and `close()` at the end (or use it as a context manager).
"""

from __future__ import annotations

import atexit
import threading
import time
from typing import Callable

from runner.errors import MaumauError, exception_text, raised_by_user
from runner.game.bot import Bot
from runner.plugins import Registry, registry
from runner.plugins.botspec import BotSpec
from runner.plugins.discovery import child_environment
from runner.plugins.manager import BUILTIN_PLUGINS, plugin_sources

from .external import EXEC_PREFIX, BotProcess, RemoteBot, check_program, parse_exec
from .faults import DEFAULT_MEMORY
from .isolation import worker_command
from .protocol import exception_traceback
from .sandbox import (
    command_bot,
    confine_discovery,
    exec_command,
    hosted_command,
    own_packages,
    plugin_package,
    sandboxed,
)
from .sandbox import require as require_sandbox
from .seat import BotUnavailable, Seat


class _Unbuildable(Bot):
    """Stands in for a bot whose constructor raised: its first decision is an exception fault."""

    name = "unbuildable"

    def __init__(self, problem: str, traceback: str = ""):
        super().__init__()
        self.problem, self.traceback = problem, traceback

    def act(self, view):
        raise BotUnavailable(f"the bot could not be built: {self.problem}", self.traceback)


class ProcessPool:
    """Running bot processes by command line; a process serves one seat of one match at a time."""

    def __init__(self, memory: int | None):
        self.memory = memory
        self.idle: dict[tuple[str, ...], list[BotProcess]] = {}

    def acquire(self, argv: list[str], label: str, env: dict | None = None,
                launch: Callable[[], list[str]] | None = None) -> BotProcess:
        """A running process of `argv` (`launch`: the command that runs it confined, made at each start)."""
        idle = self.idle.get(tuple(argv), [])
        while idle:
            process = idle.pop()
            if not process.dead and process.proc.poll() is None:
                return process
            process.kill()
        return self._start(argv, label, env, launch)

    def _start(self, argv: list[str], label: str, env: dict | None,
               launch: Callable[[], list[str]] | None) -> BotProcess:
        process = BotProcess(argv, label, self.memory, env, launch)
        process.on_failure = self._restart
        return process

    def _restart(self, failed: BotProcess) -> None:
        """Start the replacement of a killed bot at once: it boots while the match goes on without it."""
        replacement = self._start(failed.argv, failed.label, failed.env, failed.launch)
        self.idle.setdefault(tuple(failed.argv), []).append(replacement)

    def release(self, process: BotProcess, reusable: bool) -> None:
        """Keep a healthy process for the next match; end one that cannot serve it, or that left processes running."""
        if reusable and not process.dead and not process.has_strays():
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
                 memory: int | None = DEFAULT_MEMORY, sandbox: bool = False):
        """`isolate`: True for every Python bot, or the names of the ones to isolate. `sandbox`: every bot
        process (and every plugin's discovery) in a sandbox (runner/seats/sandbox.py); one Error line if
        this machine cannot make one.

        Isolating any bot keeps every third-party plugin out of this process: bots are looked up in
        the registry its plugins' own processes reported (runner/plugins/discovery.py).
        """
        if sandbox:
            require_sandbox()
        self._reg = reg
        self.sandbox = sandbox
        self.isolate = True if sandbox else isolate
        self.memory = memory
        self.contained = self.isolate is not False
        self.pool = ProcessPool(memory)
        self.seated: list[RemoteBot] = []
        # (bot, what its process did wrong before a match started or after it ended): not faults, it is replaced
        self.out_of_step: list[tuple[str, str]] = []
        self._specs: dict[str, tuple[Registry, BotSpec]] = {}  # each player's spec, with the registry that checked it
        # each in-process player's class and options, with the registry that gave them: found once, not once a match
        self._in_process: dict[str, tuple[Registry, type, dict]] = {}
        self._plugin_packages: dict[str, list] = {}  # each plugin's package directories, found once (--sandbox)

    @property
    def reg(self) -> Registry:
        """The registry given, or the process-wide one as it is now (tests may swap it)."""
        return self._reg or registry(contained=self.contained, confine=confine_discovery if self.sandbox else None)

    def command_for(self, player: str) -> tuple[list[str], bool] | None:
        """(argv, hosted) that runs `player` out of process, or None for an in-process bot.

        `hosted` marks our own worker hosting a Python bot (it takes the full generator state).
        """
        if player.startswith(EXEC_PREFIX):
            return parse_exec(player), False
        spec = self.spec(player)
        entry = self.reg.bot(spec.name)
        if entry.command is not None:
            argv = list(entry.command)
            if not argv:
                raise MaumauError(f"bot {player!r}: its CommandBot class sets no `command`")
            check_program(argv[0], player)
            if self.sandbox:  # refused before any match if the sandbox could not run it
                command_bot(argv, player, self._packages(entry.plugin))
            return argv, False
        isolated = self.isolate is True or (not isinstance(self.isolate, bool) and spec.name in self.isolate)
        if isolated:
            return worker_command(player, entry.where, spec.kwargs), True
        if entry.cls is None:
            raise MaumauError(f"bot {player!r} comes from plugin {entry.plugin!r}, which this run keeps out of its "
                              "process: it can only be played isolated")
        return None

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
        reg = self.reg
        local = self._in_process.get(player)
        if local is None or local[0] is not reg:
            how = self.command_for(player)
            if how is not None:
                return self._remote(player, seat, rng, *how)
            spec = self.spec(player)
            local = self._in_process[player] = (reg, reg.bot(spec.name).cls, spec.kwargs)
        _, cls, options = local
        try:
            return cls(rng=rng, **options)
        except BaseException as exc:  # a broken constructor (SystemExit too) is that bot's fault, not the runner's
            if raised_by_user(exc):
                raise
            return _Unbuildable(exception_text(exc), exception_traceback(exc))

    def _remote(self, player: str, seat: int, rng, argv: list[str], hosted: bool) -> RemoteBot:
        """`player` in a process of its own (`command_for`'s argv), taken from the pool or started."""
        env = child_environment() if hosted else None
        launch = self._sandboxed(player, argv, hosted, env) if self.sandbox else None
        process = self.pool.acquire(argv, player, env, launch)
        bot = RemoteBot(process, seat, rng, send_rng_state=hosted,
                        renew=lambda: self.pool.acquire(argv, player, env, launch))
        self.seated.append(bot)
        return bot

    def _sandboxed(self, player: str, argv: list[str], hosted: bool, env: dict | None) -> Callable[[], list[str]]:
        """What makes the sandboxed command of `argv` at each start (each sandbox gets a user of its own). What it
        reads is decided here, from the command line and the plugin's package metadata: the program is never asked."""
        if player.startswith(EXEC_PREFIX):
            command, readable = exec_command(argv)
        else:
            packages = self._packages(self.reg.bot(self.spec(player).name).plugin)
            if hosted:  # our worker: [python, -m, runner.seats.isolation, module:Class, name] (worker_command)
                return lambda: hosted_command(argv, packages, self.memory, env or {})
            command, readable = command_bot(argv, player, packages)
        return lambda: sandboxed(command, readable=readable, memory=self.memory)

    def _packages(self, plugin: str) -> list:
        """The package directories of `plugin` (a built-in one: the runner's own), where this process finds its
        entry point's module: from its metadata, not from what its discovery process reported."""
        known = self._plugin_packages.get(plugin)
        if known is None:
            if plugin in BUILTIN_PLUGINS:
                known = own_packages()
            else:
                sources = {source.name: source for source in plugin_sources()}
                if plugin not in sources:
                    raise MaumauError(f"--sandbox: plugin {plugin!r} is not installed here")
                known = plugin_package(sources[plugin].module, plugin)
            self._plugin_packages[plugin] = known
        return known

    def end_match(self, result=None) -> None:
        """Tell every out-of-process bot of the match that it is over; keep the healthy processes."""
        summary = None
        if result is not None:
            summary = {"ranking": list(result.ranking), "winners": list(result.winners), "totals": list(result.totals)}
        for bot in self.seated:
            self.pool.release(bot.process, bot.finish(summary))
            if bot.out_of_step is not None:
                self.out_of_step.append((bot.name, bot.out_of_step))
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


def shared_maker(isolate: bool, memory: int | None, sandbox: bool = False) -> BotMaker:
    """This thread's BotMaker for these settings, kept for the life of the (worker) process."""
    makers = getattr(_shared, "makers", None)
    if makers is None:
        makers = _shared.makers = {}
    maker = makers.get((isolate, memory, sandbox))
    if maker is None:
        maker = makers[(isolate, memory, sandbox)] = BotMaker(isolate=isolate, memory=memory, sandbox=sandbox)
        atexit.register(maker.close)
    return maker
