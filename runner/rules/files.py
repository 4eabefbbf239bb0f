"""Reading a ruleset file safely: bounded, regular files only, UTF-8, YAML without aliases' blow-up or deep nesting."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

import yaml

from runner.errors import RulesetError, combined
from runner.game import selectors

MAX_FILE_BYTES = 256 * 1024
MAX_DEPTH = 32  # a real ruleset nests 4 levels; deeper data only risks Python's recursion limit


def normal_key(key: Any) -> str:
    """A mapping key as the ruleset reads it: a selector in canonical form (`10:` and `'10':`, `jc, js` and
    `JC JS` agree; runner/game/selectors.py), any other key as its text."""
    try:
        return selectors.normalize(key)
    except ValueError:
        return str(key)


def read_yaml(path: Path, problems: list[RulesetError] | None = None) -> dict:
    """The mapping in a ruleset file, or a RulesetError naming the file.

    A key given twice in one mapping (after `normal_key`: `10:` and `'10':`) is refused, naming
    both; with `problems`, those errors are added to it instead and the file is read on, so
    that the caller can report them with the rest.
    """
    raw = _read_capped(path)
    if len(raw) > MAX_FILE_BYTES:
        raise RulesetError(str(path), None, f"the file is {len(raw)} "
                                            "bytes", f"a ruleset is at most {MAX_FILE_BYTES} bytes")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RulesetError(str(path), None, f"not UTF-8 text (byte {exc.start})", "save the file as UTF-8") from None
    data, twice = _safe_load(text, str(path))
    if twice:
        if problems is None:
            raise combined(twice)
        problems.extend(twice)
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
        value, twice = _safe_load(text, source)
    except RulesetError as exc:
        if not exc.problem.startswith("YAML syntax error"):
            raise
        return text
    if twice:
        raise combined(twice)
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


def _safe_load(text: str, source: str) -> tuple[Any, list[RulesetError]]:
    """yaml.safe_load, every way it can fail a RulesetError naming `source`; and an error per key given twice."""
    if _flow_depth(text) > MAX_FLOW_DEPTH:  # libyaml's parser overflows the C stack (a segfault) on deep [[[[
        raise RulesetError(source, None, "the YAML is nested too deeply", f"a ruleset nests at most {MAX_DEPTH} levels")
    try:
        try:
            return _load(text, FAST_LOADER, source)
        except yaml.YAMLError:  # read it again for the pure-Python parser's messages, which users see
            return _load(text, yaml.SafeLoader, source)
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


def _load(text: str, loader_class: type, source: str) -> tuple[Any, list[RulesetError]]:
    """yaml.load's steps, with the document's nodes checked for keys given twice before they become data."""
    loader = loader_class(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None, []
        twice = _keys_given_twice(node, source)  # before constructing, which folds `<<:` merges into the mapping
        return loader.construct_document(node), twice
    finally:
        loader.dispose()


def _keys_given_twice(root: yaml.Node, source: str) -> list[RulesetError]:
    """An error for each key of a mapping that another key of it means too (PyYAML silently keeps the last)."""
    found: list[tuple[int, RulesetError]] = []
    seen, stack = set(), [(root, "")]
    while stack:  # each node once: an alias names the same node object, so aliases cannot blow this up
        node, path = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, yaml.SequenceNode):
            stack.extend((item, f"{path}.{i}" if path else str(i)) for i, item in reversed(list(enumerate(node.value))))
        elif isinstance(node, yaml.MappingNode):
            first: dict[str, yaml.Node] = {}
            kept = []
            for key, value in node.value:
                if key.tag == "tag:yaml.org,2002:merge" or not isinstance(key, yaml.ScalarNode):
                    kept.append((key, value))  # `<<:` merges are meant to be overridden; a complex key is refused later
                    continue
                name = normal_key(key.value)
                where = f"{path}.{name}" if path else name
                if name in first:  # reported, and left out: the reading goes on with the first
                    earlier = first[name]
                    found.append((key.start_mark.line, RulesetError(
                        source, where, f"given twice, as {_as_written(earlier)} (line {earlier.start_mark.line + 1}) "
                        f"and as {_as_written(key)} (line {key.start_mark.line + 1})", "keep one of them")))
                    continue
                first[name] = key
                kept.append((key, value))
                stack.append((value, where))
            node.value = kept
    return [error for _, error in sorted(found, key=lambda item: item[0])]


def _as_written(key: yaml.ScalarNode) -> str:
    quote = key.style if key.style in ("'", '"') else ""
    return f"{quote}{key.value}{quote}"


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
