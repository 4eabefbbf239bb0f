"""`--sandbox`: every bot process in a bubblewrap sandbox of its own.

What the bot sees: its own PID namespace (only its processes in /proc), no network (a private
network namespace with only loopback), and a file system of /usr, its interpreter and its own
code, read-only, plus a private /tmp and /dev/shm (tmpfs, capped); nothing else (no /etc, no
home, no results directory). What it reads is decided here from what the runner knows (its own
interpreter, the command line's paths, a plugin's package from its metadata): no program a bot
supplies runs outside its sandbox, and nothing one prints chooses what the sandbox holds.
Limits, set inside by util-linux `prlimit`: CPU time and memory per process, a process count for
the whole sandbox, no core files (the memory of all its processes together: its cgroup,
runner/seats/memory.py). A root runner drops the bot to an unprivileged uid of its own
(`setpriv`: root ignores RLIMIT_NPROC); any other runner gives it a user namespace of its own.
Found to block every attack tried on this machine (tests/test_sandbox.py).
"""

from __future__ import annotations

import functools
import itertools
import os
import shutil
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
                         "user namespaces (sysctl user.max_user_namespaces above 0, and on Debian "
                         "kernel.unprivileged_userns_clone=1)")


def require() -> None:
    """MaumauError (one line: what to install) if bots cannot be sandboxed here."""
    problem = why_not()
    if problem is not None:
        raise MaumauError(problem)


# ---------------------------------------------------------------- what a bot may read
#
# Decided here, from what this process knows: its own interpreter, the paths of the command line
# (resolved here), and where this process would import the runner's and a plugin's packages from.
# No program a bot or a plugin supplies runs outside its sandbox, and nothing one prints or
# reports chooses what the sandbox holds.


@functools.lru_cache(maxsize=None)
def own_python() -> tuple[Path, tuple[Path, ...]]:
    """(this process's interpreter, the directories it needs: its prefixes, standard library and site-packages), as
    this process knows them. A venv's `bin/python` stays itself (it finds its venv from where it is)."""
    import site
    import sysconfig

    paths = sysconfig.get_paths()
    found = [os.path.dirname(os.path.realpath(sys.executable)), sys.prefix, sys.base_prefix, paths["stdlib"],
             paths["platstdlib"], *site.getsitepackages()]
    directories = {Path(p) for p in found} | {Path(os.path.realpath(p)) for p in found}
    return Path(sys.executable), tuple(sorted(p for p in directories if p.exists()))


def program_of(program: str) -> tuple[str, list[Path]]:
    """(the program the sandbox runs for `program`, what it must read besides /usr): a bare name is looked up on the
    sandbox's PATH first (`python3` is /usr's), then on the runner's. This interpreter reads its libraries; any
    other program, its own directory (the program is run by its real path). Never asks the program anything."""
    found = program
    if os.sep not in program:
        found = shutil.which(program, path=PATH) or shutil.which(program) or program
    absolute = Path(os.path.abspath(found))
    real = Path(os.path.realpath(absolute))
    own, libraries = own_python()
    if real == Path(os.path.realpath(own)):
        return str(own if absolute == own else real), list(libraries)
    return str(real), [] if _inside(real, SYSTEM) else [real.parent]


def exec_command(argv: Sequence[str]) -> tuple[list[str], list[Path]]:
    """An `exec:` command as the sandbox runs it, and what it reads: its program (`program_of`), and the directory
    of the script its first argument names (made absolute: the sandbox's working directory is its /tmp). No other
    argument makes anything readable."""
    program, readable = program_of(argv[0])
    command = [program, *argv[1:]]
    if len(argv) > 1 and Path(argv[1]).exists():
        script = Path(argv[1]).resolve()
        readable.append(script if script.is_dir() else script.parent)
        command[1] = str(script)
    return command, readable


def command_bot(argv: Sequence[str], label: str, packages: Sequence[Path]) -> tuple[list[str], list[Path]]:
    """A registered command bot's command as the sandbox runs it, and what it reads: its plugin's `packages`, and its
    program (`program_of`), which must lie in /usr, this interpreter or those packages: the command is the plugin's
    report, so neither its program nor its arguments may add anything else. MaumauError if it lies elsewhere."""
    program, needs = program_of(argv[0])
    allowed = [*packages, *own_python()[1]]
    if not all(any(_inside(path, root) for root in allowed) for path in needs):
        raise MaumauError(f"bot {label!r}: under --sandbox a registered command runs a program from /usr, the runner's "
                          f"Python or its plugin's own package; {program} is in none of them")
    return [program, *argv[1:]], [*packages, *needs]


def own_packages() -> list[Path]:
    """The runner's own packages (`runner`, and the built-in plugins' `maumau.bots` and `maumau.rulesets`)."""
    from runner.plugins.manager import BUILTIN_PLUGINS

    return module_paths("runner", *dict.fromkeys(name.rpartition(".")[0] for name in BUILTIN_PLUGINS))


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


def plugin_package(module: str, plugin: str) -> list[Path]:
    """Where this process would import plugin `plugin`'s module `module` (its entry point's, from its package
    metadata) from, found without running any of its code: its top-level package or module, or below namespace
    packages the first regular one. MaumauError if there is none, or if it lies in the folder the runner was started
    from or beside the runner's own source tree: those folders are not a plugin's, and are never mounted."""
    import importlib.machinery
    import importlib.util

    parts = module.split(".")
    spec, depth = importlib.util.find_spec(parts[0]), 1
    while spec is not None and not _regular(spec) and spec.submodule_search_locations and depth < len(parts):
        depth += 1
        spec = importlib.machinery.PathFinder.find_spec(".".join(parts[:depth]), list(spec.submodule_search_locations))
    if spec is None or not _regular(spec):
        raise MaumauError(f"--sandbox: plugin {plugin!r}: its module {module!r} is not a package or module installed "
                          "here (a namespace package's folders are not mounted)")
    assert spec.origin is not None  # _regular
    location = Path(os.path.realpath(os.path.dirname(spec.origin) if spec.submodule_search_locations else spec.origin))
    if location.parent in _start_folders():
        raise MaumauError(f"--sandbox: plugin {plugin!r}: its module {module!r} is {location}, in the folder the "
                          "runner was started from or its source tree, not an installed package; install the plugin")
    return [location]


def _regular(spec) -> bool:
    return spec.origin is not None and os.path.isfile(spec.origin)


def _start_folders() -> set[Path]:
    """The working directory, and the runner's source tree where the runner is not installed in site-packages."""
    import site

    folders = {Path(os.path.realpath(os.getcwd()))}
    source = Path(os.path.realpath(module_paths("runner")[0])).parent
    if source not in {Path(os.path.realpath(p)) for p in site.getsitepackages()}:
        folders.add(source)
    return folders


def hosted_command(argv: Sequence[str], packages: Sequence[Path], memory: int | None, env: dict[str, str]) -> list[str]:
    """Our worker hosting a Python bot (runner/seats/isolation.py), sandboxed: it reads this interpreter, the runner's
    own packages and its plugin's `packages` (never what the plugin reports its bot's module to be)."""
    readable = [*own_python()[1], *own_packages(), *packages]
    return sandboxed(argv, readable=readable, memory=memory, env=_worker_path(env))


@contextmanager
def confine_discovery(argv: list[str], modules: Sequence[str]) -> Iterator[list[str]]:
    """The discovery process of a plugin (runner/plugins/discovery.py), sandboxed like its bots: `argv` runs this
    interpreter; `modules`, the plugin's entry-point module from its metadata, says which package it reads."""
    from runner.plugins.discovery import child_environment

    readable = [*own_python()[1], *own_packages()]
    for module in modules:
        readable += plugin_package(module, module)
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
