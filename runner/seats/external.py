"""Bots in other processes: a program speaking the JSON-lines protocol, with deadlines, limits and kills.

`RemoteBot` is what the referee sees for a seat whose bot runs elsewhere (an `exec:` command, a
registered `CommandBot`, or a Python bot under `--isolate`). Every read and write has a deadline;
a bot that overruns it is killed with its whole process group.
"""

from __future__ import annotations

import ctypes
import os
import select
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

from runner.errors import MaumauError
from runner.game.bot import CommandBot  # noqa: F401  (its public home for plugins: docs/protocol.md)
from runner.game.ruleset import Ruleset

from .containment import children, contained, descendants, has_own_namespace
from .faults import DEFAULT_MEMORY
from .memory import MemoryGroup
from .memory import why_not as why_no_memory_group
from .protocol import (
    MAX_LINE_BYTES,
    SPOKEN_VERSIONS,
    NotAnAction,
    ProtocolViolation,
    bounded_traceback,
    decode,
    encode,
    parse_action,
    view_data,
)
from .seat import Seat, SeatFailure

EXEC_PREFIX = "exec:"
STARTUP_SECONDS = 20.0  # to start and say hello; not charged to the bot's move time
END_SECONDS = 5.0  # to be ready for the next match after match_end (a bot that is not is replaced, not faulted)
STDERR_CAP = 16 << 20  # RLIMIT_FSIZE: a bot cannot fill the disk through its stderr file
STDERR_KEPT = 256 << 10  # of a match's stderr, what a results directory keeps: its first and last halves of this
STDERR_SHOWN = 300  # characters of its head and of its tail shown in the fault's detail
STDERR_DIR = "stderr"  # inside a results directory: stderr/<match id>-seat<N>.txt


def stderr_name(match_id: str, seat: int) -> str:
    """Where a results directory keeps what seat `seat`'s bot process wrote on stderr in match `match_id`."""
    return f"{STDERR_DIR}/{match_id}-seat{seat}.txt"


def parse_exec(player: str) -> list[str]:
    """The argv of an `exec:PATH [ARGS]` entrant, checked: the program exists and can be run."""
    try:
        argv = shlex.split(player[len(EXEC_PREFIX):])
    except ValueError as exc:
        raise MaumauError(f"bot {player!r}: cannot split the command ({exc}); quote it like a shell line") from None
    if not argv:
        raise MaumauError(f"bot {player!r}: no program after 'exec:'; e.g. -b 'exec:python3 examples/exec_bot.py'")
    check_program(argv[0], player)
    return argv


def check_program(program: str, player: str) -> None:
    """Refuse, before any match, a command whose program cannot be found or run."""
    if os.sep in program:
        path = Path(program)
        if not path.is_file():
            raise MaumauError(f"bot {player!r}: no such program {program!r}; check the path")
        if not os.access(path, os.X_OK):
            raise MaumauError(f"bot {player!r}: {program!r} is not executable; chmod +x it or name its interpreter "
                              "first")
    elif shutil.which(program) is None:
        raise MaumauError(f"bot {player!r}: program {program!r} is not on PATH")


# ---------------------------------------------------------------- one process


def _libc_prctl():
    try:
        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None


_PRCTL = _libc_prctl() if sys.platform.startswith("linux") else None
_PR_SET_PDEATHSIG = 1


def _limit_child(memory: int | None, group: MemoryGroup | None = None) -> None:
    """Runs in the child before exec: cap its memory (each process's, and in `group` all of them together) and
    files, and let it die with its parent."""
    import resource

    if group is not None:
        group.join()
    if memory:
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    resource.setrlimit(resource.RLIMIT_FSIZE, (STDERR_CAP, STDERR_CAP))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    if _PRCTL is not None:
        _PRCTL(_PR_SET_PDEATHSIG, signal.SIGKILL)


TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100  # the unit of /proc/PID/stat's CPU times
CPU_LOOK = 0.02  # seconds between looks at the CPU clock of a bot process that is taking long


class Deadline:
    """When a wait for a bot process's answer ends: at a wall-clock time, or once the process has used
    `cpu` more seconds of CPU time than `cpu_mark` (read by `cpu_clock`; None: no CPU budget)."""

    def __init__(self, wall_at: float, cpu_clock=None, cpu_mark: float | None = None, cpu: float | None = None,
                 wall: float | None = None):
        self.wall_at, self.cpu_clock, self.wall = wall_at, cpu_clock, wall
        self.cpu_at = cpu_mark + cpu if cpu is not None and cpu_mark is not None else None
        self.cpu, self.over = cpu, None

    def wait(self) -> float:
        """Seconds to wait before looking again."""
        left = self.wall_at - time.monotonic()
        return left if self.cpu_at is None else min(left, CPU_LOOK)

    def passed(self) -> bool:
        """Whether a budget is passed; `over` then says which: "wall" or "cpu"."""
        if time.monotonic() >= self.wall_at:
            self.over = "wall"
        elif self.cpu_at is not None and (self.cpu_clock() or 0.0) >= self.cpu_at:
            self.over = "cpu"
        return self.over is not None

    def explain(self) -> str:
        if self.over == "cpu":
            return f"used its budget of {self.cpu:.3f}s of CPU time"
        if self.wall is not None:
            return (f"no answer after {self.wall:.3f}s of wall clock, the cap for a bot that sleeps, blocks or "
                    "waits (--wall-time)")
        return "no answer within the time budget"


def _deadline(at: "float | Deadline") -> Deadline:
    return at if isinstance(at, Deadline) else Deadline(at)


class BotProcess:
    """One running bot program: newline-delimited JSON over its stdin/stdout, each step with a deadline."""

    def __init__(self, argv: list[str], label: str, memory: int | None = DEFAULT_MEMORY, env: dict | None = None,
                 launch: Callable[[], list[str]] | None = None):
        """`launch`: gives the command that runs `argv` confined (a sandbox), at each start."""
        self.argv, self.label, self.env, self.launch = argv, label, env, launch
        self.on_failure = None  # called with this process after it was killed for misbehaving
        self.stderr = tempfile.TemporaryFile()
        self.memory = memory
        launched = launch() if launch else argv
        # the bot as a whole: its processes together hold at most `memory` where a cgroup can be made for it
        self.group = MemoryGroup(memory) if memory and why_no_memory_group() is None else None
        command, wrapped = contained(launched)  # it and its processes live and die in a PID namespace
        # the processes between this one and the bot's: unshare's, or a sandbox's outer and init bwrap
        self.wrappers = 1 if wrapped else (2 if has_own_namespace(launched) else 0)
        try:
            self.proc = subprocess.Popen(
                command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.stderr, bufsize=0,
                start_new_session=True, preexec_fn=lambda: _limit_child(memory, self.group), close_fds=True, env=env,
            )
        except (OSError, subprocess.SubprocessError) as exc:
            self.stderr.close()
            if self.group is not None:
                self.group.remove()
            raise MaumauError(f"bot {label!r}: cannot start {argv[0]!r} ({getattr(exc, 'strerror', None) or exc})"
                              ) from None
        self._out = self.proc.stdin.fileno()
        self._in = self.proc.stdout.fileno()
        os.set_blocking(self._out, False)
        self._buffer = bytearray()
        self.hello: dict | None = None
        self.dead = False
        self.requests = 0  # the id of the last request sent: ids count up over the process's life
        self.matches = 0  # matches started in this process
        self.stderr_mark = 0  # where in its stderr file the current match's output begins
        self.stderr_name: str | None = None  # where a results directory keeps this match's stderr, if it does
        self.kept_stderr: bytes | None = None  # this match's stderr (capped), taken when the process died in it
        self._stat: int | None = None  # /proc/PID/stat of the bot, kept open: its CPU time is read at each answer

    # -------------------------------------------------------------- lines

    def _bot_pid(self) -> int:
        """The bot's own process, below its wrappers (unshare's, a sandbox's): the one whose CPU time counts."""
        pid = self.proc.pid
        for _ in range(self.wrappers):
            below = children(pid)
            if not below:
                break
            pid = below[0]
        return pid

    def cpu_seconds(self) -> float | None:
        """The CPU time the process has used (all its threads; not its children), or None where /proc cannot tell."""
        try:
            if self._stat is None:
                self._stat = os.open(f"/proc/{self._bot_pid()}/stat", os.O_RDONLY)
            data = os.pread(self._stat, 4096, 0)
            fields = data[data.rindex(b")") + 2:].split()  # after the command name, which may hold anything
            return (int(fields[11]) + int(fields[12])) / TICKS  # utime and stime, fields 14 and 15
        except (OSError, ValueError, IndexError):
            return None

    def send(self, message: dict, deadline: "float | Deadline") -> None:
        """Write one message, or SeatFailure if the bot is gone or does not read before `deadline`."""
        data = memoryview(encode(message))
        while data:
            try:
                written = os.write(self._out, data)
            except BlockingIOError:
                written = 0
            except (BrokenPipeError, ConnectionResetError):
                raise self._died() from None
            data = data[written:]
            if data and not self._wait(self._out, select.POLLOUT, deadline):
                raise self._timeout(deadline)

    def receive(self, deadline: "float | Deadline") -> dict:
        """Read one message, or SeatFailure (timeout, exit, a line too long, or not JSON).

        A line that came with the one read stays buffered: it is the next message read, wherever
        its bytes happened to arrive, so that when it is seen does not depend on timing.
        """
        buffer = self._buffer
        while True:
            end = buffer.find(b"\n")
            if end >= 0:
                line = bytes(buffer[:end])
                del buffer[:end + 1]
                try:
                    return decode(line)
                except ProtocolViolation as exc:
                    raise self.violation(str(exc)) from None
            if len(buffer) > MAX_LINE_BYTES:
                raise self.violation(f"a line longer than {MAX_LINE_BYTES} bytes")
            if not self._wait(self._in, select.POLLIN, deadline):
                raise self._timeout(deadline)
            chunk = os.read(self._in, 1 << 16)
            if not chunk:
                raise self._died()
            buffer += chunk

    def request(self, message: dict, deadline: "float | Deadline", answers: tuple[str, ...]) -> dict:
        """Send `message` with the next request id; the reply (one of the `answers` types) must echo that id.

        Any other line (a second answer to an earlier request, a line without the id, a reply of
        another type) is a protocol violation: the stream is no longer in step, so the process ends.
        A bot of protocol 1 gets the message without an id, as it did (`_request_v1`).
        """
        if self.hello is not None and self.hello["protocol"] == 1:
            return self._request_v1(message, deadline, answers)
        self.requests += 1
        number = self.requests
        self.send({**message, "id": number}, deadline)
        reply = self.receive(deadline)
        if self.group is not None and self.group.oom_kills():
            raise self._over_memory()
        # (the details name no id: ids count over a process's life, and a fault must read the same in any process)
        if "id" not in reply:
            raise self.violation(f"a line of type {reply['type']!r:.30} without an id (each reply echoes the id of "
                                 f"its {message['type']} request)")
        if reply["id"] != number:
            earlier = type(reply["id"]) is int and 0 < reply["id"] < number
            raise self.violation(f"a line of type {reply['type']!r:.30} with the id of "
                                 + ("an earlier request (a line sent after its answer?)" if earlier else
                                    f"no request sent, where a reply to {message['type']} was due"))
        if reply["type"] not in answers:
            expected = " or ".join(f'{{"type": "{kind}"}}' for kind in answers)
            raise self.violation(f"expected {expected} for {message['type']}, got type {reply['type']!r:.40}")
        return reply

    def _request_v1(self, message: dict, deadline: "float | Deadline", answers: tuple[str, ...]) -> dict:
        """Protocol 1, checked as it always was: no ids; match_start and match_end want no answer; an `act` wants
        one line, and a line sent between decisions (seen when the next act is due) or with the answer is a fault."""
        if "ready" in answers:
            self.send(message, deadline)
            return {"type": "ready"}
        if self._buffer or self._wait(self._in, select.POLLIN, time.monotonic()):
            if not self._buffer and not os.read(self._in, 1 << 16):
                raise self._died()
            raise self.violation("sent a line between decisions (one action per act message; protocol 1 answers "
                                 "neither match_start nor match_end)")
        self.send(message, deadline)
        reply = self.receive(deadline)
        if self._buffer:
            raise self.violation("sent more than one line for one message")
        if reply["type"] not in answers:
            expected = " or ".join(f'{{"type": "{kind}"}}' for kind in answers)
            raise self.violation(f"expected {expected} for {message['type']}, got type {reply['type']!r:.40}")
        return reply

    def _wait(self, fd: int, event: int, deadline: "float | Deadline") -> bool:
        """Whether `fd` is ready before `deadline` (a time.monotonic() reading, or a Deadline of CPU and wall)."""
        deadline = _deadline(deadline)
        poller = select.poll()
        poller.register(fd, event)
        while True:
            if poller.poll(min(max(0.0, deadline.wait()), 3600.0) * 1000):  # poll takes at most ~24 days of ms
                return True
            if deadline.passed():
                return False

    # -------------------------------------------------------------- ends

    def violation(self, what: str) -> SeatFailure:
        """A protocol violation: the stream can no longer be trusted, so the process is ended."""
        self._end_in_failure()
        return SeatFailure("illegal", f"protocol: {what}", give_up=True)

    def _over_memory(self) -> SeatFailure:
        """The bot's processes together reached --bot-memory: the kernel killed one (or all); the bot is ended."""
        self._end_in_failure()
        return SeatFailure("exception", f"its processes together reached --bot-memory ({self.memory >> 20} MiB), and "
                           "the kernel killed one of them; the bot process was killed", give_up=True)

    def _timeout(self, deadline: "float | Deadline") -> SeatFailure:
        if self.group is not None and self.group.oom_kills():
            return self._over_memory()
        self._end_in_failure()
        return SeatFailure("timeout", f"{_deadline(deadline).explain()}; the bot process was killed", give_up=True)

    def _end_in_failure(self) -> None:
        if self.kept_stderr is None:  # before kill() closes the file
            self.kept_stderr = self.match_stderr()
        self.kill()
        if self.on_failure is not None:
            self.on_failure(self)

    def _died(self) -> SeatFailure:
        if self.group is not None and self.group.oom_kills():
            return self._over_memory()
        code = self.proc.poll()
        if code is None:
            try:
                code = self.proc.wait(5)  # it closed its output: it is exiting (a loaded machine may take a while)
            except subprocess.TimeoutExpired:
                code = None
        self.kept_stderr = self.match_stderr()
        self._end_in_failure()
        how = "closed its output" if code is None else (
            f"was killed by signal {-code}" if code < 0 else f"exited with code {code}")
        return SeatFailure("exception", f"the bot process {how}" + self.stderr_summary(), give_up=True)

    def stderr_of_match(self) -> bytes:
        """This match's stderr (capped): taken when the process failed, or read now."""
        return self.kept_stderr if self.kept_stderr is not None else self.match_stderr()

    def match_stderr(self) -> bytes:
        """What the process wrote on stderr since its match began, capped at STDERR_KEPT: its head and its tail."""
        try:
            fd = self.stderr.fileno()
            size = os.fstat(fd).st_size - self.stderr_mark
            half = STDERR_KEPT // 2
            if size <= STDERR_KEPT:  # pread: the offset of the file stays where the bot's next write goes
                return os.pread(fd, max(0, size), self.stderr_mark)
            head, tail = os.pread(fd, half, self.stderr_mark), os.pread(fd, half, self.stderr_mark + size - half)
        except (OSError, ValueError):
            return b""
        return head + f"\n[... {size - 2 * half} bytes left out ...]\n".encode() + tail

    def stderr_summary(self) -> str:
        """`; stderr: ...` for a fault's detail: all of the match's stderr if short, else its head and tail and where
        the rest is."""
        text = (self.kept_stderr or b"").decode("utf-8", "replace")
        lines = " | ".join(line.strip() for line in text.strip().splitlines() if line.strip())
        if not lines:
            return ""
        where = f"; all of it: {self.stderr_name} in the results directory" if self.stderr_name else ""
        if len(lines) <= 2 * STDERR_SHOWN:
            return f"; stderr: {lines}" + where
        return (f"; stderr ({len(self.kept_stderr or b'')} bytes), head: {lines[:STDERR_SHOWN]} ... tail: "
                f"{lines[-STDERR_SHOWN:]}" + where)

    def has_strays(self) -> bool:
        """True if the bot has processes of its own running (a child it started and left): it is not reused, so
        that they end with it."""
        return len(descendants(self.proc.pid)) > self.wrappers

    def kill(self) -> None:
        """End the bot and everything it started: its process group, and with it its PID namespace."""
        if self.dead:
            return
        self.dead = True
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            pass
        for stream in (self.proc.stdin, self.proc.stdout, self.stderr):
            try:
                stream.close()
            except OSError:
                pass
        if self.group is not None:
            self.group.remove()
        if self._stat is not None:
            os.close(self._stat)
            self._stat = None

    def say_bye(self) -> None:
        """Ask the bot to exit and close its input (it gets a moment before `close` kills it)."""
        if not self.dead:
            try:
                self.send({"type": "bye"}, time.monotonic() + 0.1)
                self.proc.stdin.close()
            except (SeatFailure, OSError):
                pass

    def close(self, deadline: float) -> None:
        """Wait until `deadline` for the bot to exit after bye, then make sure it has."""
        if self.dead:
            return
        try:
            self.proc.wait(max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            pass
        self.kill()

    # -------------------------------------------------------------- handshake

    def greet(self, deadline: float) -> dict:
        """The bot's hello (read once), checked: a name and a protocol version the runner speaks (SPOKEN_VERSIONS)."""
        if self.hello is None:
            hello = self.receive(deadline)
            if hello.get("type") != "hello":
                raise self.violation(f'the first line must be {{"type": "hello", ...}}, got type {hello["type"]!r:.40}')
            if hello.get("protocol") not in SPOKEN_VERSIONS or type(hello.get("protocol")) is not int:
                raise self.violation(f"speaks protocol {hello.get('protocol')!r:.20}, the runner speaks "
                                     + " and ".join(map(str, SPOKEN_VERSIONS)))
            if not isinstance(hello.get("name"), str) or not hello["name"]:
                raise self.violation('hello needs a "name" (a non-empty string)')
            self.hello = hello
        return self.hello


# ---------------------------------------------------------------- a seat


class RemoteBot(Seat):
    """A seat's bot in another process; the referee calls `prepare` (not timed), then `act_within`.

    `renew()` gives a fresh process of the same command: a reused process that sends anything
    before it is ready for the match (a line left over from its last one) is replaced by it.
    """

    def __init__(self, process: BotProcess, seat: int, rng, send_rng_state: bool,
                 renew: Callable[[], BotProcess] | None = None):
        self.process, self.seat, self.renew = process, seat, renew
        self.name = process.label
        version, state, gauss = rng.getstate()  # before drawing the seed: a hosted bot continues from here
        self._start = {"type": "match_start", "seat": seat, "seed": rng.getrandbits(63)}
        if send_rng_state:
            self._start["rng_state"] = [version, list(state), gauss]
        self.started = False
        self.out_of_step: str | None = None  # what its process did wrong outside the match's decisions: no fault
        self.stderr_name: str | None = None  # where the results directory keeps this seat's stderr (stderr_name)
        self._round, self._history_sent = None, 0  # what this seat has been sent of the round's history
        self.cpu_mark: float | None = None  # the process's CPU clock at its last answer (or the match's start)
        self.used: float | None = None  # CPU seconds of the last decision

    def prepare(self, view) -> None:
        """Wait for the hello and start the match, once, before the first decision is timed."""
        if self.started:
            return
        start = {**self._start, "rules": view.ruleset.derived("data", Ruleset.to_data)}
        try:
            self._start_match(start)
        except SeatFailure as failure:
            if self.process.matches == 1 or self.renew is None:
                raise
            # a process that served matches before and is out of step now: what it sent belongs to an earlier
            # match, so this match starts afresh with a new process, as it would have on a fresh one
            self.out_of_step = failure.detail
            self.process = self.renew()
            self._start_match(start)
        self.started = True
        self.cpu_mark = self.process.cpu_seconds()

    def _start_match(self, start: dict) -> None:
        process = self.process
        if process.dead:
            raise SeatFailure("exception", "the bot process is not running", give_up=True)
        process.matches += 1
        process.stderr_name, process.kept_stderr = self.stderr_name, None
        try:  # a new process's first match has all of it: what it wrote while it started too
            process.stderr_mark = os.fstat(process.stderr.fileno()).st_size if process.matches > 1 else 0
        except (OSError, ValueError):
            process.stderr_mark = 0
        deadline = time.monotonic() + STARTUP_SECONDS
        process.greet(deadline)
        process.request(start, deadline, ("ready",))

    def act_within(self, view, budget: float | None, started: float = 0.0, wall: float | None = None):
        """The action the bot sends for `view` (parsed, not yet checked for legality), or SeatFailure.

        The process is killed once it has used `budget` seconds of CPU time since its last answer
        (what it computes between decisions counts too), or after `wall` seconds of wall clock;
        where its CPU time cannot be read, `budget` is counted in wall-clock seconds.
        """
        process = self.process
        cpu = budget if self.cpu_mark is not None else None
        limits = [limit for limit in (wall, budget if cpu is None else None) if limit is not None]
        deadline = Deadline(time.monotonic() + (min(limits) if limits else 1e9), process.cpu_seconds, self.cpu_mark,
                            cpu, wall)
        start = self._history_sent if view.round == self._round and len(view.history) >= self._history_sent else 0
        self._round, self._history_sent = view.round, len(view.history)
        # a line sent between decisions is caught by the ids (protocol 2), whenever it arrived
        reply = process.request({"type": "act", "view": view_data(view, start)}, deadline, ("action", "error"))
        now = process.cpu_seconds() if self.cpu_mark is not None else None
        self.used, self.cpu_mark = (now - self.cpu_mark if now is not None else None), now
        if reply["type"] == "action":
            data = reply.get("action")
            if isinstance(data, dict) and data.get("type") == "invalid":  # a hosted Python bot's non-action
                return NotAnAction(f"{str(data.get('what'))[:100]} is not legal now")
            try:
                return parse_action(data)
            except ProtocolViolation as exc:
                return NotAnAction(f"malformed action: {exc}")
        message = reply.get("message")
        text = str(message)[:300] if message else "the bot reported an error"
        raise SeatFailure("exception", text, give_up=reply.get("give_up") is True,
                          traceback=bounded_traceback(reply.get("traceback")))

    def cpu_used(self, elapsed: float) -> float:
        return elapsed if self.used is None else self.used

    def finish(self, result: dict | None = None) -> bool:
        """Tell the bot the match is over and wait until it is ready; False if its process cannot serve another match.

        The match's result stands whatever the bot does now; a bot that sent a line nobody asked for
        (after its last answer, say) is not reused, and `out_of_step` says what it did.
        """
        process = self.process
        if process.dead:
            return False
        if self.started:
            try:
                process.request({"type": "match_end", **(result or {})}, time.monotonic() + END_SECONDS, ("ready",))
            except SeatFailure as failure:
                self.out_of_step = failure.detail
                return False
        return True

    def act(self, view):  # the referee never calls this; it is here so that a RemoteBot is still a bot
        raise RuntimeError("RemoteBot is driven by the referee through prepare() and act_within()")
