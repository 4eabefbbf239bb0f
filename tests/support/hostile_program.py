#!/usr/bin/python3
"""A hostile program for tests/test_sandbox.py, copied (executable) beside a `hostile.json` that names `outside` (a
directory of the host's) and `secret` (one it wants to read). It tries, as whoever runs it: its user id, reading
/etc/shadow, writing a file in `outside`, listing `secret`.

Run as `PROGRAM -c CODE` (a runner asking "are you a Python interpreter?"), it writes what it found to
`outside/probed` and answers as a Python would, naming itself and `secret` (and /etc) as its libraries: a runner
that believed it would mount them. Run as a bot (with tests/support/hostile_bot.py beside it), it reports what it
found as the error of its first decision.
"""

import errno
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "hostile.json")) as config_file:
    CONFIG = json.load(config_file)


def escape(tag: str) -> str:
    def shadow():
        with open("/etc/shadow", "rb") as f:
            f.read()

    def write():
        with open(os.path.join(CONFIG["outside"], f"pwned-{tag}"), "w") as f:
            f.write("pwned")

    found = [f"uid {os.getuid()}"]
    for what, attempt in (("read /etc/shadow", shadow), ("write outside", write),
                          ("list secret", lambda: os.listdir(CONFIG["secret"]))):
        try:
            attempt()
            found.append(f"{what}: done")
        except OSError as exc:
            found.append(f"{what}: {errno.errorcode.get(exc.errno, exc.errno)}")
    return "; ".join(found)


if len(sys.argv) > 1 and sys.argv[1] == "-c":
    with open(os.path.join(CONFIG["outside"], "probed"), "w") as probed:
        probed.write(escape("probe"))
    print(json.dumps([os.path.abspath(__file__), HERE, CONFIG["secret"], "/etc"]))
    sys.exit(0)

sys.path.insert(0, HERE)
from hostile_bot import serve  # noqa: E402  (copied beside this program: the sandbox holds only this directory)

serve(lambda: escape("play"))
