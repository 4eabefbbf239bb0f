"""`--bot-memory` for a bot as a whole: each bot process, and everything it starts, in a memory cgroup of its own.

RLIMIT_AS (runner/seats/external.py) caps each process; a bot that forks could hold that much in
each of its processes. Where this process may make cgroups below its own (as root, with cgroup
v1's memory controller, or cgroup v2 with the memory controller enabled below its group), each bot
process gets a group whose limit is the cap: the kernel counts every page its processes hold
(its private /tmp and /dev/shm under --sandbox included) and, at the cap, kills one of them
(cgroup v2: all of them). The runner reads the group's count of such kills at each answer
(`MemoryGroup.oom_kills`): a bot that reached its cap is a fault and is ended. Where no group can
be made, `why_not()` says why, and the cap is per process only.
"""

from __future__ import annotations

import atexit
import functools
import itertools
import os
import re
from pathlib import Path

PREFIX = "maumau-bot-"
_numbers = itertools.count()
_leftover: list[Path] = []  # groups whose processes were still exiting when their bot ended: removed later


@functools.lru_cache(maxsize=None)
def _parent() -> tuple[Path, int] | str:
    """(the directory bot groups are made in, its cgroup version), or why there is none."""
    try:
        groups = Path("/proc/self/cgroup").read_text().splitlines()
        mounts = Path("/proc/self/mountinfo").read_text().splitlines()
    except OSError as exc:
        return f"no cgroups here ({exc.strerror})"
    for line in groups:
        _, controllers, path = line.split(":", 2)
        version = 2 if controllers == "" else 1
        if version == 1 and "memory" not in controllers.split(","):
            continue
        directory = _mounted(mounts, version, path)
        if directory is None:
            continue
        if version == 2 and "memory" not in _read(directory / "cgroup.subtree_control").split():
            continue
        return directory, version
    return "no memory cgroup controller that this process may use here (cgroup v1 memory, or v2 with it delegated)"


def _mounted(mounts: list[str], version: int, path: str) -> Path | None:
    """Where the cgroup `path` of a hierarchy of `version` (v1: the memory controller's) is mounted here."""
    for line in mounts:
        fields = line.split()
        separator = fields.index("-")
        kind, options = fields[separator + 1], fields[separator + 3].split(",")
        if (version, kind) not in ((1, "cgroup"), (2, "cgroup2")) or (version == 1 and "memory" not in options):
            continue
        root, point = fields[3], fields[4]
        if path == root or path.startswith(root.rstrip("/") + "/"):
            return Path(point) / path[len(root):].lstrip("/")
    return None


def _read(path: Path) -> str:
    try:
        return path.read_text()
    except OSError:
        return ""


@functools.lru_cache(maxsize=None)
def why_not() -> str | None:
    """None if each bot process can get a memory group here; else one line saying why not."""
    parent = _parent()
    if isinstance(parent, str):
        return parent
    _sweep(parent[0])
    try:
        MemoryGroup(64 << 20).remove()
    except OSError as exc:
        return f"cannot make a memory cgroup in {parent[0]} ({exc.strerror})"
    return None


def _sweep(directory: Path) -> None:
    """Remove the empty groups of runners that are gone (killed before they could remove them)."""
    for group in directory.glob(PREFIX + "*"):
        owner = group.name[len(PREFIX):].partition("-")[0]
        if owner.isdigit() and not Path(f"/proc/{owner}").exists():
            _remove(group)


def _remove(group: Path) -> bool:
    try:
        group.rmdir()
    except FileNotFoundError:
        pass
    except OSError:
        return False
    return True


class MemoryGroup:
    """A memory cgroup capped at `limit` bytes, for one bot process and everything it starts."""

    def __init__(self, limit: int):
        self._events = -1
        parent = _parent()
        if isinstance(parent, str):
            raise OSError(parent)
        directory, self.version = parent
        self.path = directory / f"{PREFIX}{os.getpid()}-{next(_numbers)}"
        self.path.mkdir()
        try:
            if self.version == 1:
                (self.path / "memory.limit_in_bytes").write_text(str(limit))
                self._try("memory.memsw.limit_in_bytes", str(limit))  # memory and swap together, where swap is counted
                events = "memory.oom_control"
            else:
                (self.path / "memory.max").write_text(str(limit))
                self._try("memory.swap.max", "0")
                self._try("memory.oom.group", "1")  # at the cap the kernel kills every process of the bot
                events = "memory.events"
            self._events = os.open(self.path / events, os.O_RDONLY)
        except OSError:
            _remove(self.path)
            raise
        self._procs = str(self.path / "cgroup.procs")

    def _try(self, name: str, value: str) -> None:
        try:
            (self.path / name).write_text(value)
        except OSError:
            pass

    def join(self) -> None:
        """Put the calling process in the group (in a child, before it runs the bot: all it starts is in it too)."""
        procs = os.open(self._procs, os.O_WRONLY)  # plain system calls: this runs between fork and exec
        try:
            os.write(procs, str(os.getpid()).encode())
        finally:
            os.close(procs)

    def oom_kills(self) -> int:
        """How many processes of the group the kernel killed at its cap."""
        try:
            found = re.search(rb"^oom_kill (\d+)", os.pread(self._events, 4096, 0), re.M)
        except OSError:
            return 0
        return int(found[1]) if found else 0

    def remove(self) -> None:
        """Remove the group (once its processes are gone; if some are still exiting, at a later removal or exit)."""
        if self._events >= 0:
            os.close(self._events)
            self._events = -1
        _leftover[:] = [group for group in _leftover if not _remove(group)]
        if not _remove(self.path):
            _leftover.append(self.path)


@atexit.register
def _remove_leftovers() -> None:
    _leftover[:] = [group for group in _leftover if not _remove(group)]
