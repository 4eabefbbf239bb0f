"""The game-log codec (runner/logs/codec.py) and vocabulary (runner/game/events.py): one way to write and read a log."""

import ast
import gzip
import json
from pathlib import Path

import pytest

from runner.game import events as ev
from runner.game.cards import Card
from runner.logs import codec, lines
from runner.logs.codec import LogError

RUNNER = Path(__file__).resolve().parent.parent / "runner"
EVENTS = [ev.match_start("m", "standard", {}, {"name": "standard"}, None, 1, ["random", "random"]),
          ev.fault(0, "illegal", 'ünïcode "quoted"\n},{'), ev.match_end([1, 0], [1], [3, 0], [0, 1])]


def test_lines_are_compact_json_dumps_lines():
    assert codec.encode(EVENTS).decode() == "".join(json.dumps(e, separators=(",", ":")) + "\n" for e in EVENTS)


class _Text(str):
    pass


class _Number(int):
    pass


# What the line encoder writes itself and what it leaves to the standard library's encoder (a float that is not
# finite, a subclass, a key that is not a string, a line that is not an object), each as json.dumps writes it.
ODD = [{"type": "x", "a": 1.5, "b": float("nan"), "c": [float("inf"), -float("inf"), 0.1, 1e300, -0.0]},
       {"type": "fault", "detail": 'é"\n\x00\u2028\U0001F600\\' * 3, "t": True, "f": False, "n": None},
       {"type": "y", 1: 2, False: 3, None: 4}, {"type": "z", "t": (1, "a", [], ())},
       {"type": "w", "d": {}, "l": [], "nested": {"a": {"b": [{"c": None}]}}, "big": 10**30, "neg": -5},
       [1, 2], "text", {"type": "ints", "x": [True, False, 1, 0]}, {"type": _Text("sub"), "v": _Number(3)},
       {"type": "long" * 20, "k" * 40: "v" * 40}, {"type": "rules", "rules": {"odd": {2: 1}}}]


def _dumps_lines(events) -> str:
    return "".join(json.dumps(e, separators=(",", ":")) + "\n" for e in events)


def test_the_line_encoder_writes_what_json_dumps_writes():
    assert lines.encode(ODD, codec.encode_line) == _dumps_lines(ODD)
    assert lines.encode(EVENTS, codec.encode_line) == _dumps_lines(EVENTS)
    assert lines.encode([], codec.encode_line) == "" == codec.encode([]).decode()


def test_each_match_start_is_written_with_its_own_rules():
    """The rules are encoded once per rules object: another object, equal or not, is encoded anew."""
    first, second = {"name": "a", "hand": 5}, {"name": "b", "hand": 7}
    starts = [ev.match_start(str(n), "x", {}, rules, None, n, ["random"]) for n, rules in
              enumerate([first, second, first, dict(first), second])]
    assert lines.encode(starts, codec.encode_line) == _dumps_lines(starts)


def test_a_flat_event_is_written_from_the_memo_only_for_its_own_keys_and_values():
    """Flat events are written from a memo of lines found by a hash: events that hash alike (-1 and -2 do in
    CPython), that compare equal with other types (True == 1 == 1.0), a string and a list of it, the same items in
    another order, each get their own line, the first time and from the memo."""
    flat = [{"type": "x", "seat": -1}, {"type": "x", "seat": -2}, {"type": "x", "seat": True}, {"type": "x", "seat": 1},
            {"type": "x", "seat": 1.0}, {"type": "x", "seat": "1"}, {"type": "x", "cards": "7H"},
            {"type": "x", "cards": ["7H"]}, {"type": "x", "cards": ("7H",)}, {"type": "x", "cards": ["7H", None]},
            {"type": "x", "cards": ["7H", "8H"]}, {"type": "x", "cards": [["7H"]]}, {"type": "x", "cards": []},
            {"seat": 1, "type": "x"}, {"type": "x", "seat": 1, "suit": None}, {"type": "x", "seat": 1, "suit": "null"},
            {"type": _Text("x"), "seat": 1}, {"type": "x", "seat": _Number(1)}, {"type": "x", "text": "é" * 200}]
    assert hash(-1) == hash(-2)  # the collision the memo must tell apart
    for _ in range(3):
        assert lines.encode(flat, codec.encode_line) == _dumps_lines(flat)
        assert lines.encode(flat[::-1], codec.encode_line) == _dumps_lines(flat[::-1])


def test_a_match_log_is_written_as_json_dumps_writes_it():
    from runner.plugins import registry
    from runner.table.match import Match
    from runner.table.play import make_bot_factory

    reg = registry()
    log: list[dict] = []
    Match(reg.load_ruleset("strafpunten"), ["random"] * 3, 7, make_bot_factory(reg), log=log).run()
    assert codec.encode(log).decode() == lines.encode(log, codec.encode_line) == _dumps_lines(log)


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


def _kept_and_listed(path_or_name: str, players: int, seed: int):
    """One match played twice, its log kept as a GameLog and given as a list: (the GameLog, the list)."""
    from runner.plugins import registry
    from runner.table.match import Match
    from runner.table.play import make_bot_factory

    reg = registry()
    ruleset, make_bot = reg.load_ruleset(path_or_name), make_bot_factory(reg)
    kept, listed = ev.GameLog(), []
    for log in (kept, listed):
        Match(ruleset, ["random"] * players, seed, make_bot, log=log).run()
    return kept, listed


KEPT_CASES = [("strafpunten", 3, 7), ("standard-challenge", 4, 2), ("elimination", 5, 3)] + [
    (str(path), 4, seed) for path in sorted((RUNNER.parent / "rulesets" / "gallery").glob("*.yaml")) for seed in (1, 2)]


@pytest.mark.parametrize("name, players, seed", KEPT_CASES)
def test_a_kept_log_reads_and_writes_as_the_list_of_its_events(name, players, seed):
    """A GameLog holds the engine's records, not dicts; read, it gives the events a list is given, and it is written
    as json.dumps writes those events, the first time and from the memo of records' lines."""
    kept, listed = _kept_and_listed(name, players, seed)
    assert any(type(record) is tuple for record in kept.records)
    assert list(kept) == listed and len(kept) == len(listed) and kept[-1] == listed[-1]
    for _ in range(2):
        assert codec.encode(kept).decode() == _dumps_lines(listed) == codec.encode(listed).decode()


def test_a_record_is_written_from_the_memo_only_for_its_own_builder_and_values():
    """Records alike but for their builder, a card, a reason, or a draw's cards each get their own line."""
    seven, eight = Card("7", "H"), Card("8", "H")
    records = [(ev.give, 0, 1, seven), (ev.take, 0, 1, seven), (ev.give, 0, 1, eight), (ev.draw, 1, [seven], "stuck"),
               (ev.draw, 1, [seven], "seven"), (ev.draw, 1, [seven, eight], "stuck"), (ev.draw, 1, [], "stuck"),
               (ev.pass_, 0), (ev.skip, 0), (ev.play, 2, seven, None, "mau"), (ev.play, 2, seven, None, None)]
    expected = _dumps_lines([ev.made(record) for record in records])
    for _ in range(2):
        assert lines.encode(records, codec.encode_line) == expected
        assert lines.encode(records[::-1], codec.encode_line) == _dumps_lines([ev.made(r) for r in records[::-1]])
