"""`--sandbox`: every bot process in a bubblewrap sandbox of its own.

What the bot sees: its own PID namespace (only its processes in /proc), no network (a private
network namespace with only loopback), and a file system of /usr, its interpreter and its own
code, read-only, plus a private /tmp and /dev/shm (tmpfs, capped); nothing else (no /etc, no
home, no results directory). Limits, set inside by util-linux `prlimit`: CPU time and memory
per process, a process count for the whole sandbox, no core files. A root runner drops the bot
to an unprivileged uid of its own (`setpriv`: root ignores RLIMIT_NPROC); any other runner gives
it a user namespace of its own. Found to block every attack tried on this machine
(tests/test_sandbox.py).
"""

from __future__ import annotations

import functools
import itertools
import json
import os
import shutil
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Iterable, Iterator, Sequence

from runner.errors import MaumauError

from .containment import trial_failure

UID_BASE = 2_000_000_000  # a root runner's bots: UID_BASE + (runner pid << 8) + n, one per sandbox, no passwd entry
MAX_PROCESSES = 64  # processes and threads of one sandbox, the bot's own included
CPU_SECONDS = 3600  # per process, over its life (a bot process serves many matches)
TMP_BYTES = 64 << 20  # each of /tmp and /dev/shm
SYSTEM = Path("/usr")
PATH = "/usr/local/bin:/usr/bin:/bin"
_uids = itertools.count()


@functools.lru_cache(maxsize=None)
def why_not() -> str | None:
    """None if bots can be sandboxed here; else one line saying what to install or enable."""
    if not sys.platform.startswith("linux"):
        return f"--sandbox needs Linux (bubblewrap); this is {sys.platform}"
    missing = [tool for tool in ("bwrap", "prlimit", "setpriv") if shutil.which(tool) is None]
    if missing:
        packages = sorted({"bubblewrap" if tool == "bwrap" else "util-linux" for tool in missing})
        return f"--sandbox needs {', '.join(missing)}: apt-get install {' '.join(packages)}"
    return trial_failure(sandboxed(["/bin/sh", "-c", "exit 0"], readable=[], memory=None),
                         "--sandbox: bwrap could not be run",
                         "--sandbox: bwrap cannot make its namespaces here ({}); run as root or allow unprivileged "
                         "user namespaces (sysctl kernel.unprivileged_userns_clone=1)")


def require() -> None:
    """MaumauError (one line: what to install) if bots cannot be sandboxed here."""
    problem = why_not()
    if problem is not None:
        raise MaumauError(problem)


# ---------------------------------------------------------------- what a bot may read


@functools.lru_cache(maxsize=None)
def python_of(program: str) -> tuple[str, tuple[Path, ...]] | None:
    """(its executable, the directories it needs) if `program` is a Python interpreter, else None.

    Asks the interpreter itself: a pyenv shim gives the real executable behind it, a venv's
    `bin/python` stays itself (it finds its venv from where it is), and the prefixes, standard
    library and site-packages are bound with the real location of the executable.
    """
    code = ("import json, os, site, sys, sysconfig; paths = sysconfig.get_paths(); print(json.dumps([sys.executable, "
            "os.path.dirname(os.path.realpath(sys.executable)), sys.prefix, sys.base_prefix, paths['stdlib'], "
            "paths['platstdlib'], *site.getsitepackages()]))")
    try:
        done = subprocess.run([program, "-c", code], capture_output=True, text=True, timeout=60, cwd="/",
                              stdin=subprocess.DEVNULL)
        found = json.loads(done.stdout) if done.returncode == 0 else None
    except (OSError, subprocess.TimeoutExpired, ValueError):
        return None
    if not isinstance(found, list) or not found or not all(isinstance(p, str) for p in found):
        return None
    paths = {Path(p) for p in found[1:]} | {Path(os.path.realpath(p)) for p in found[1:]}
    return found[0], tuple(p for p in paths if p.exists())


def module_paths(*modules: str) -> list[Path]:
    """Where this process imports the top-level packages or modules `modules` from (an editable install's
    package directory, not its project root: the rest of a source tree, results included, stays hidden)."""
    import importlib.util

    paths = []
    for name in modules:
        parts = name.split(".")
        for depth in range(1, len(parts) + 1):  # the top-level package, or below a namespace package without a folder
            spec = importlib.util.find_spec(".".join(parts[:depth]))  # (maumau.bots, in an editable install)
            if spec is None:
                raise MaumauError(f"--sandbox: module {name!r} not found")
            locations = [p for p in spec.submodule_search_locations or [] if os.path.isdir(p)] or (
                [spec.origin] if spec.origin and os.path.exists(spec.origin) else [])
            if locations:
                break
        paths.extend(Path(os.path.realpath(p)) for p in locations)
    return paths


def exec_command(argv: Sequence[str]) -> tuple[list[str], list[Path]]:
    """An `exec:` command as the sandbox runs it, and what it reads: its program (a Python interpreter
    with its libraries), and the directory of the script its first argument names (made absolute:
    the sandbox's working directory is its /tmp). No other argument makes anything readable."""
    program = shutil.which(argv[0]) or argv[0]
    readable: list[Path] = []
    python = python_of(program)
    if python is not None:
        program, libraries = python
        readable.extend(libraries)
    else:
        program = os.path.realpath(program)
        readable.append(Path(program).parent)
    command = [program, *argv[1:]]
    if len(argv) > 1 and Path(argv[1]).exists():
        script = Path(argv[1]).resolve()
        readable.append(script if script.is_dir() else script.parent)
        command[1] = str(script)
    return command, readable


def hosted_command(argv: Sequence[str], where: str, memory: int | None, env: dict[str, str]) -> list[str]:
    """Our worker hosting the Python bot at `where` (runner/seats/isolation.py), sandboxed: it reads its
    interpreter, the runner and the bot's own top-level package."""
    found = python_of(argv[0])
    if found is None:
        raise MaumauError(f"--sandbox: {argv[0]} did not say where its libraries are")
    readable = [*found[1], *module_paths("runner", where.partition(":")[0])]
    return sandboxed(argv, readable=readable, memory=memory, env=_worker_path(env))


@contextmanager
def confine_discovery(argv: list[str], modules: Sequence[str]) -> Iterator[list[str]]:
    """The discovery process of a plugin (runner/plugins/discovery.py), sandboxed like its bots."""
    from runner.plugins.discovery import child_environment

    found = python_of(argv[0])
    if found is None:
        raise MaumauError(f"--sandbox: {argv[0]} did not say where its libraries are")
    readable = [*found[1], *module_paths("runner", *modules)]
    yield sandboxed(argv, readable=readable, memory=None, env=_worker_path(child_environment()))


def _worker_path(env: dict[str, str] | None) -> dict[str, str]:
    from runner.plugins.discovery import PATH_VARIABLE

    return {PATH_VARIABLE: env[PATH_VARIABLE]} if env and PATH_VARIABLE in env else {}


# ---------------------------------------------------------------- the command


def sandboxed(argv: Sequence[str], *, readable: Iterable[Path], memory: int | None,
              env: dict[str, str] | None = None) -> list[str]:
    """The argv running `argv` (its program an absolute path) in a sandbox that binds `readable` read-only."""
    root = os.geteuid() == 0
    command = ["bwrap", "--die-with-parent", "--new-session", "--unshare-pid", "--unshare-net", "--unshare-ipc",
               "--unshare-uts", "--unshare-cgroup-try", "--hostname", "sandbox"]
    if root:  # no user namespace (it could map only uid 0, which RLIMIT_NPROC ignores): setpriv drops to a uid
        command += ["--cap-drop", "ALL", "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID",
                    "--cap-add", "CAP_SETPCAP"]
    else:
        command += ["--unshare-user", "--disable-userns"]
    command += ["--ro-bind", str(SYSTEM), str(SYSTEM), "--perms", "1777", "--size", str(TMP_BYTES), "--tmpfs", "/tmp"]
    binds = _outermost(Path(p) for p in readable if not _inside(Path(p), SYSTEM))
    made = {Path("/"), Path("/tmp"), SYSTEM}
    for parent in sorted({a for b in binds for a in b.parents} - made, key=lambda p: len(p.parts)):
        if not any(parent == b or b in parent.parents for b in binds):
            command += ["--perms", "0755", "--dir", str(parent)]  # bwrap would make them 0700: closed to the bot's uid
    for path in binds:
        command += ["--ro-bind", str(path), str(path)]
    for name in ("bin", "lib", "lib64", "sbin"):  # merged /usr, as on the host
        if (Path("/") / name).is_symlink():
            command += ["--symlink", os.readlink(Path("/") / name), f"/{name}"]
    command += ["--proc", "/proc", "--dev", "/dev", "--perms", "1777", "--size", str(TMP_BYTES), "--tmpfs",
                "/dev/shm", "--chdir", "/tmp", "--clearenv"]
    for key, value in {"PATH": PATH, "HOME": "/tmp", "TMPDIR": "/tmp", "LANG": "C.UTF-8", **(env or {})}.items():
        command += ["--setenv", key, value]
    command.append("--")
    if root:
        uid = UID_BASE + ((os.getpid() & 0x3FFFFF) << 8) + (next(_uids) & 0xFF)  # each sandbox its own budget
        command += [shutil.which("setpriv") or "setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups",
                    "--inh-caps=-all", "--bounding-set=-all", "--no-new-privs"]
    limits = ["--core=0", f"--cpu={CPU_SECONDS}:{CPU_SECONDS + 1}", f"--nproc={MAX_PROCESSES}"]
    if memory:
        limits.append(f"--as={memory}")
    return [*command, shutil.which("prlimit") or "prlimit", *limits, "--", *argv]


def _inside(path: Path, root: Path) -> bool:
    return path == root or root in path.parents


def _outermost(paths: Iterable[Path]) -> list[Path]:
    """Absolute paths, those inside another one left out, sorted."""
    kept: list[Path] = []
    for path in sorted({Path(os.path.abspath(p)) for p in paths}):
        if not any(_inside(path, k) for k in kept):
            kept.append(path)
    return kept
