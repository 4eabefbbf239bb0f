"""A match's game log file in a results directory: its name, and writing it from whichever process played the match.

A worker that can see the results directory writes the file itself and sends back only its
name and SHA-256, so that the driver, one process for the whole pool, creates no files. The
file may exist before its match's row is committed; a match played again overwrites it.
"""

from __future__ import annotations

import os
from pathlib import Path

from runner.errors import MaumauError
from runner.logs import codec
from runner.logs.codec import LogError

from .integrity import sha256

LOGS = "logs"  # the directory of the logs, inside the results directory


def log_name(match_id: str) -> str:
    """The log's path relative to the results directory, as its match row stores it."""
    return f"{LOGS}/{match_id}.jsonl.gz"


def store_log(directory: str | Path, match_id: str, data: bytes) -> tuple[str, str]:
    """Write match `match_id`'s gzip log into `directory`; return its name and SHA-256."""
    name = log_name(match_id)
    try:  # no temporary file: until its row is committed, a log is overwritten on resume
        # the path joined as a string, not by pathlib (a few microseconds a match, in the workers)
        codec.write_file(os.path.join(directory, name), data)
    except LogError as exc:
        raise MaumauError(f"{exc}; free some space or choose another --out") from None
    return name, sha256(data)
