"""The one codec of game logs: JSON lines, plain or gzip, written and read by everything that handles a log file.

Writing: one compact JSON object per line (`json.dumps(event, separators=(",", ":"))`), gzip
at level 3 with mtime 0 so that equal logs are equal bytes. Reading: plain or gzip (told by the
first bytes), bounded both on disk and inflated, regular files only, UTF-8, each line an object
with a "type"; whatever does not fit is a LogError naming the file and the line.
"""

from __future__ import annotations

import gzip
import json
import os
import stat
import zlib
from pathlib import Path
from typing import Iterable

from runner.errors import MaumauError
from runner.game.events import GameLog, made

from . import lines

MAX_LOG_BYTES = 64 << 20  # a log, compressed or not; real ones are a few hundred KB at most
LOG_COMPRESSLEVEL = 3  # of a strafpunten log: level 6 takes 2x the time for 13% fewer bytes (bench/results.md)
GZIP_MAGIC = b"\x1f\x8b"


class LogError(MaumauError):
    """A game log that cannot be read, or (from the verifier) breaks the rules; names the file, line or event."""


def _line_encoder():
    """`json.dumps(obj, separators=(",", ":"))` at half the cost: one C encoder built once, not one per call.

    Falls back to the public encoder if this Python's `c_make_encoder` differs (checked on a sample).
    """
    encode = json.JSONEncoder(separators=(",", ":")).encode
    try:
        from json.encoder import c_make_encoder, encode_basestring_ascii

        iterencode = c_make_encoder(None, json.JSONEncoder().default, encode_basestring_ascii, None, ":", ",",
                                    False, False, True)
    except (ImportError, TypeError):
        return encode

    def fast(obj) -> str:
        return "".join(iterencode(obj, 0))

    sample = {"type": "x", "seat": -1, "cards": ["10H", None, True, 1.5], "detail": 'é"\n', "rules": {"a": {}}}
    return fast if fast(sample) == encode(sample) else encode


encode_line = _line_encoder()


# ---------------------------------------------------------------- writing


def encode(events: Iterable[dict] | GameLog) -> bytes:
    """Events as JSON lines, UTF-8 (ASCII: the encoder escapes the rest); a GameLog's from its records."""
    entries = events.records if type(events) is GameLog else events  # a GameLog's events without their dicts
    if lines.COMPILED:  # one pass in C, a third of the standard encoder's cost; as Python it costs more than that
        return lines.encode(entries, encode_line).encode("utf-8")
    encoded = [encode_line(made(event)) for event in entries]
    return ("\n".join(encoded) + "\n" if encoded else "").encode("utf-8")


def compress(events: Iterable[dict] | GameLog) -> bytes:
    """Events as gzip JSON lines; mtime 0 so that equal logs are equal bytes."""
    return gzip.compress(encode(events), compresslevel=LOG_COMPRESSLEVEL, mtime=0)


def write_file(path: Path | str, data: bytes) -> None:
    """Write a log's bytes (already encoded) to `path`; a LogError says why it could not be written."""
    # os-level calls, not Path.write_bytes: a buffered file object adds an fstat, an ioctl and an lseek to every
    # log, and a tournament writes one per match (bench/scaling.md)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_CLOEXEC", 0), 0o666)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
        finally:
            os.close(fd)
    except OSError as exc:
        raise LogError(f"cannot write the game log {path}: {exc.strerror}") from None


def write_log(path: Path | str, events: Iterable[dict] | GameLog) -> None:
    """Write `events` to `path`: gzip if its name ends in .gz, plain JSON lines otherwise."""
    write_file(path, compress(events) if str(path).endswith(".gz") else encode(events))


# ---------------------------------------------------------------- reading


def read_file(path: Path | str, limit: int = MAX_LOG_BYTES) -> bytes:
    """The bytes of the log file at `path`: a regular file (never a FIFO or device) of at most `limit` bytes."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise LogError(f"cannot read the log {path}: {exc.strerror}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise LogError(f"{path} is not a regular file")
        data = os.read(fd, limit + 1)
        while len(data) <= limit:
            more = os.read(fd, limit + 1 - len(data))
            if not more:
                break
            data += more
    except OSError as exc:
        raise LogError(f"cannot read the log {path}: {exc.strerror}") from None
    finally:
        os.close(fd)
    if len(data) > limit:
        raise LogError(f"{path} is over {limit >> 20} MiB: not a log this runner wrote")
    return data


def decode(data: bytes, source: str = "the log", compressed: bool | None = None) -> list[dict]:
    """The events of a log's bytes: gzip if `compressed` (None: if they start as gzip does), else plain."""
    if compressed or (compressed is None and data[:2] == GZIP_MAGIC):
        data = _inflate(data, source)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise LogError(f"{source} is not UTF-8 text (byte {exc.start})") from None
    events = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            event = json.loads(line)
        except json.JSONDecodeError as exc:
            raise LogError(f"{source}, line {number}: not JSON ({exc.msg})") from None
        except (ValueError, RecursionError):
            raise LogError(f"{source}, line {number}: not JSON") from None
        if not isinstance(event, dict) or not isinstance(event.get("type"), str):
            raise LogError(f'{source}, line {number}: expected an object with a "type"')
        events.append(event)
    return events


def _inflate(data: bytes, source: str) -> bytes:
    """gzip-decompressed `data`, at most MAX_LOG_BYTES of it (a small file may inflate hugely)."""
    what = f"{source} is not a (gzip) JSON-lines log"
    inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
    try:
        raw = inflater.decompress(data, MAX_LOG_BYTES + 1)
    except zlib.error as exc:
        raise LogError(f"{what}: not a gzip file ({exc})") from None
    if len(raw) > MAX_LOG_BYTES or inflater.unconsumed_tail:
        raise LogError(f"{source} inflates to over {MAX_LOG_BYTES >> 20} MiB: not a log this runner wrote")
    if not inflater.eof:
        raise LogError(f"{what}: it is truncated (the gzip stream ends early)")
    return raw


def read_log(path: Path | str) -> list[dict]:
    """The events of the log file at `path`, plain or gzip."""
    return decode(read_file(path), str(path))
