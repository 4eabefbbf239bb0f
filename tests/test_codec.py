"""The game-log codec (runner/logs/codec.py) and vocabulary (runner/game/events.py): one way to write and read a log."""

import ast
import gzip
import json
from pathlib import Path

import pytest

from runner.game import events as ev
from runner.logs import codec
from runner.logs.codec import LogError

RUNNER = Path(__file__).resolve().parent.parent / "runner"
EVENTS = [ev.match_start("m", "standard", {}, {"name": "standard"}, None, 1, ["random", "random"]),
          ev.fault(0, "illegal", 'ünïcode "quoted"\n},{'), ev.match_end([1, 0], [1], [3, 0], [0, 1])]


def test_lines_are_compact_json_dumps_lines():
    assert codec.encode(EVENTS).decode() == "".join(json.dumps(e, separators=(",", ":")) + "\n" for e in EVENTS)


def test_gzip_logs_are_equal_bytes_for_equal_logs():
    assert codec.compress(EVENTS) == codec.compress(list(EVENTS))
    assert gzip.decompress(codec.compress(EVENTS)) == codec.encode(EVENTS)


@pytest.mark.parametrize("name", ["log.jsonl", "log.jsonl.gz"])
def test_a_written_log_reads_back(tmp_path, name):
    codec.write_log(tmp_path / name, EVENTS)
    assert ((tmp_path / name).read_bytes()[:2] == codec.GZIP_MAGIC) == name.endswith(".gz")
    assert codec.read_log(tmp_path / name) == EVENTS


def test_a_log_written_again_replaces_the_longer_one_there_whole(tmp_path):
    """A match played again on --resume writes its log over the file an interrupted run left."""
    path = tmp_path / "m.jsonl.gz"
    path.write_bytes(b"x" * 100_000)
    codec.write_file(path, codec.compress(EVENTS))
    assert path.read_bytes() == codec.compress(EVENTS)


def test_a_log_that_cannot_be_written_is_a_log_error_naming_the_file(tmp_path):
    with pytest.raises(LogError, match=r"cannot write the game log .*nowhere.*m\.jsonl\.gz"):
        codec.write_file(tmp_path / "nowhere" / "m.jsonl.gz", b"data")


@pytest.mark.parametrize("data, words", [
    (b"not json\n", "line 1: not JSON"), (b'{"no_type": 1}\n', 'line 1: expected an object with a "type"'),
    (b"\xff\n", "not UTF-8"), (codec.GZIP_MAGIC + b"broken", r"not a \(gzip\) JSON-lines log"),
    (gzip.compress(b"\n" * (codec.MAX_LOG_BYTES + 1)), "inflates to over"),
])
def test_a_broken_log_is_a_log_error_saying_what_is_wrong(data, words):
    with pytest.raises(LogError, match=words):
        codec.decode(data, "the log")


def test_only_regular_files_are_read(tmp_path):
    with pytest.raises(LogError, match="not a regular file"):
        codec.read_log(tmp_path)


def test_no_module_builds_a_log_event_but_the_vocabulary():
    """A dict literal of a log event's type anywhere in runner/ but runner/game/events.py is a second vocabulary."""
    types = {value for name, value in vars(ev).items() if name.isupper() and isinstance(value, str)}
    for path in RUNNER.rglob("*.py"):
        if path.name == "events.py" or path.parent.name == "seats":  # seats: bot protocol messages, not log events
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Dict):
                for key, value in zip(node.keys, node.values):
                    if isinstance(key, ast.Constant) and key.value == "type" and isinstance(value, ast.Constant):
                        assert value.value not in types, (
                            f"{path.relative_to(RUNNER.parent)}:{node.lineno} builds a log event"
                        )
