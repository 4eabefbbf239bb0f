"""Nothing a bot starts outlives it: every bot process runs as the init of a PID namespace of its own.

A bot's argv is wrapped in util-linux `unshare --pid --fork --kill-child --mount-proc` (with
`--user --map-root-user` when not root), and the wrapper gets a parent-death signal
(runner/seats/external.py). When the bot's process dies (killed at its timeout, or at the end
of its last match), the kernel kills every process in its namespace, a child that called
`setsid()` and forked again included; when the runner dies, even by SIGKILL, the wrapper dies
with it, `--kill-child` kills the bot, and the namespace goes with it. The bot sees only its
own processes in /proc. A sandboxed command (bubblewrap) has a PID namespace of its own and is
not wrapped again. This is the mechanism /work/scratch/sandbox/FINDINGS.md found to pass every
case on this machine; where `unshare` cannot make a namespace, a bot's processes are only its
session (and `why_not()` says why).

A process in a PID namespace is protected there like an init: signals sent from inside its
namespace (by itself or its children) with their default action are ignored; the runner's
SIGKILL and the kernel's (a fault, the memory cap) are not.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
from typing import Sequence

UNSHARE = ("--pid", "--fork", "--kill-child", "--mount-proc")


@functools.lru_cache(maxsize=None)
def why_not() -> str | None:
    """None if bot processes get a PID namespace here; else one line saying why not (and what to install)."""
    if not sys.platform.startswith("linux"):
        return f"PID namespaces need Linux; this is {sys.platform}"
    if shutil.which("unshare") is None:
        return "unshare not found: apt-get install util-linux"
    return trial_failure([*_prefix(), "/bin/true"], "unshare could not be run",
                         "unshare cannot create a PID namespace here ({}); run as root or allow unprivileged user "
                         "namespaces")


def trial_failure(argv: list[str], unrunnable: str, failed: str) -> str | None:
    """None if the trial command `argv` runs and succeeds; else `unrunnable` with the OS's reason, or `failed` with
    the command's own stderr (shortened to one line) in its `{}`."""
    try:
        done = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"{unrunnable} ({exc})"
    if done.returncode != 0:
        return failed.format(" ".join(done.stderr.split())[:160])
    return None


def _prefix() -> list[str]:
    user = [] if os.geteuid() == 0 else ["--user", "--map-root-user"]
    return [shutil.which("unshare") or "unshare", *user, *UNSHARE, "--"]


def contained(argv: Sequence[str]) -> tuple[list[str], bool]:
    """(the argv that runs `argv` in a PID namespace of its own, whether it is wrapped); `argv` itself where
    that cannot be done here, or where it has a namespace already (a bubblewrap sandbox)."""
    argv = list(argv)
    if has_own_namespace(argv) or why_not() is not None:
        return argv, False
    return [*_prefix(), *argv], True


def has_own_namespace(argv: Sequence[str]) -> bool:
    return bool(argv) and os.path.basename(argv[0]) == "bwrap" and "--unshare-pid" in argv


def descendants(pid: int) -> list[int]:
    """The processes below `pid` (children, theirs, ...), zombies included, as /proc lists them."""
    found, todo = [], [pid]
    while todo:
        parent = todo.pop()
        for child in children(parent):
            found.append(child)
            todo.append(child)
    return found


def children(pid: int) -> list[int]:
    try:
        threads = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return []
    found = []
    for thread in threads:
        try:
            with open(f"/proc/{pid}/task/{thread}/children") as listing:
                found.extend(int(word) for word in listing.read().split())
        except OSError:
            continue
    return found
