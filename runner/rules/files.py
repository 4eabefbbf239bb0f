"""Reading a ruleset file safely: bounded, regular files only, UTF-8, YAML without aliases' blow-up or deep nesting."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

import yaml

from runner.errors import RulesetError

MAX_FILE_BYTES = 256 * 1024
MAX_DEPTH = 32  # a real ruleset nests 4 levels; deeper data only risks Python's recursion limit


def read_yaml(path: Path) -> dict:
    """The mapping in a ruleset file, or a RulesetError naming the file."""
    raw = _read_capped(path)
    if len(raw) > MAX_FILE_BYTES:
        raise RulesetError(str(path), None, f"the file is {len(raw)} "
                                            "bytes", f"a ruleset is at most {MAX_FILE_BYTES} bytes")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RulesetError(str(path), None, f"not UTF-8 text (byte {exc.start})", "save the file as UTF-8") from None
    data = _safe_load(text, str(path))
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise RulesetError(str(path), None, "expected a mapping of keys, got "
                                            f"{type(data).__name__}", "start with `name: ...`")
    _check_size(str(path), data)
    return data


def read_value(text: str, source: str) -> Any:
    """One YAML value given on the command line (`--set`), under the caps of a ruleset file.

    Text that is not YAML at all is taken as the plain string it is; a value that would pass
    none of a file's caps (too long, too deep, an alias bomb) is a RulesetError naming `source`.
    """
    if len(text.encode("utf-8", "surrogatepass")) > MAX_FILE_BYTES:
        raise RulesetError(source, None, f"the value is {len(text)} characters",
                           f"a value is at most {MAX_FILE_BYTES} bytes")
    try:
        value = _safe_load(text, source)
    except RulesetError as exc:
        if not exc.problem.startswith("YAML syntax error"):
            raise
        return text
    _check_size(source, value)
    return value


def exists(path: Path) -> bool:
    """Path.exists() that is False, not an OSError, for a name too long or otherwise unusable."""
    try:
        return path.exists()
    except (OSError, ValueError):
        return False


def _read_capped(path: Path) -> bytes:
    """At most MAX_FILE_BYTES + 1 bytes of a regular file: never blocks on a FIFO or reads /dev/zero forever."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise RulesetError(str(path), None, f"cannot read the file ({exc.strerror})", "check the path") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise RulesetError(str(path), None, "not a regular file", "give the path of a .yaml file")
        chunks, size = [], 0
        while size <= MAX_FILE_BYTES:
            chunk = os.read(fd, MAX_FILE_BYTES + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        return b"".join(chunks)
    except OSError as exc:
        raise RulesetError(str(path), None, f"cannot read the file ({exc.strerror})", "check the path") from None
    finally:
        os.close(fd)


FAST_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's, if built: ten times faster


MAX_FLOW_DEPTH = 1000  # far below where libyaml crashes (tens of thousands), far above any real ruleset


def _flow_depth(text: str) -> int:
    """The deepest nesting of [ and { in `text` (brackets in strings and comments counted too: an upper bound)."""
    if text.count("[") + text.count("{") <= MAX_FLOW_DEPTH:
        return 0
    depth = deepest = 0
    for char in text:
        if char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def _safe_load(text: str, source: str) -> Any:
    """yaml.safe_load, with every way it can fail turned into a RulesetError naming `source`."""
    if _flow_depth(text) > MAX_FLOW_DEPTH:  # libyaml's parser overflows the C stack (a segfault) on deep [[[[
        raise RulesetError(source, None, "the YAML is nested too deeply", f"a ruleset nests at most {MAX_DEPTH} levels")
    try:
        try:
            return yaml.load(text, Loader=FAST_LOADER)
        except yaml.YAMLError:  # read it again for the pure-Python parser's messages, which users see
            return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        where = getattr(exc, "problem_mark", None)
        at = f" at line {where.line + 1}, column {where.column + 1}" if where else ""
        problem = getattr(exc, "problem", None) or "invalid YAML"
        raise RulesetError(source, None, f"YAML syntax error{at}: {problem}", "fix the YAML syntax") from None
    except RecursionError:
        raise RulesetError(source, None, "the YAML is nested too "
                                         "deeply", f"a ruleset nests at most {MAX_DEPTH} levels") from None
    except (ValueError, OverflowError) as exc:  # e.g. an integer of thousands of digits, a 13th month
        raise RulesetError(source, None, f"a value YAML cannot read: {str(exc)[:120]}", "fix the value") from None


def _check_size(source: str, data: Any, budget: int = 20_000) -> None:
    """Refuse YAML whose aliases expand into a huge tree (a 'billion laughs' file), or that nests too deeply."""
    stack, seen = [(data, 0)], 0
    while stack:
        node, depth = stack.pop()
        seen += 1
        if seen > budget:
            raise RulesetError(source, None, "the document expands to too many values", "remove repeated YAML aliases")
        if depth > MAX_DEPTH:
            raise RulesetError(source, None, "the YAML is nested too deeply",
                               f"a ruleset nests at most {MAX_DEPTH} levels")
        if isinstance(node, dict):
            stack.extend((child, depth + 1) for child in node.values())
            stack.extend((key, depth + 1) for key in node.keys())
        elif isinstance(node, list):
            stack.extend((child, depth + 1) for child in node)
