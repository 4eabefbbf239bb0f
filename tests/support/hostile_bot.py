"""A hostile `exec:` bot for tests/test_sandbox.py: at its first decision it tries one attack and reports
what happened as its error message (so the finding is the fault detail in the game log).

    hostile_bot.py ATTACK [ARG]

ATTACK: read PATH | list DIR | connect PORT | route | proc PID | procs | fork BUDGET | spin | hog COUNT,MIB

`fork` forks without bound, each child forking on, but within a budget (a pipe of BUDGET tokens,
one taken per fork), so that on a machine where the limit does not hold it still stops.

`hog` starts COUNT processes that each fill MIB MiB and hold it (for at most 10 minutes), each under
a cap of its own, and reports how many of them held theirs at once.
"""

import errno
import json
import os
import socket
import sys
import time


def attempt(attack: str, arg: str) -> str:
    try:
        if attack == "read":
            with open(arg, "rb") as f:
                return f"read {len(f.read())} bytes"
        if attack == "list":
            return f"listed {len(os.listdir(arg))} entries"
        if attack == "write":
            with open(arg, "w") as f:
                f.write("pwned")
            return "written"
        if attack == "connect":
            socket.create_connection(("127.0.0.1", int(arg)), timeout=5).close()
            return "connected"
        if attack == "route":
            probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            probe.connect(("192.0.2.1", 9))  # asks the kernel for a route only: no packet is sent
            return "has a route"
        if attack == "proc":
            with open(f"/proc/{arg}/cmdline", "rb") as f:
                return f"read the command line {f.read()[:60]!r}"
        if attack == "procs":
            return f"sees {sum(name.isdigit() for name in os.listdir('/proc'))} processes"
        if attack == "fork":
            return fork_bomb(int(arg))
        if attack == "hog":
            count, mib = map(int, arg.split(","))
            return hog(count, mib)
        if attack == "spin":  # CPU time without end: only a limit stops it
            while True:
                pass
    except OSError as exc:
        return f"refused: {errno.errorcode.get(exc.errno, exc.errno)}"
    return f"unknown attack {attack}"


def fork_bomb(budget: int) -> str:
    """What stopped a fork bomb in which every process forks on: EAGAIN (a limit held) or its budget."""
    tokens, filler = os.pipe()
    os.write(filler, b"x" * budget)
    os.close(filler)  # once every token is taken, a read gives end of file
    heard, tell = os.pipe()
    if os.fork() == 0:
        os.close(heard)
        outcome = "its budget of forks was spent"
        while os.read(tokens, 1):
            try:
                if os.fork() == 0:
                    continue  # the child forks on
            except OSError as exc:
                outcome = errno.errorcode.get(exc.errno, str(exc.errno))
                break
        os.write(tell, outcome.encode() + b"\n")
        time.sleep(600)
        os._exit(0)
    os.close(tell)
    line = b""
    while not line.endswith(b"\n"):
        chunk = os.read(heard, 1)
        if not chunk:
            break
        line += chunk
    return f"fork bomb stopped: {line.decode().strip()}"


def hog(count: int, mib: int) -> str:
    """How many of `count` children held `mib` MiB each at once: each tells on a pipe of its own once it holds its
    share; a child killed before (by the kernel, at a memory cap) closes its pipe unheard."""
    pipes = []
    for _ in range(count):
        heard, tell = os.pipe()
        if os.fork() == 0:
            try:
                os.close(heard)
                held = b"x" * (mib << 20)  # written, not only reserved: every page counts
                os.write(tell, b"1")
                time.sleep(600 + len(held) * 0)
            finally:
                os._exit(0)
        os.close(tell)
        pipes.append(heard)
    held = sum(os.read(heard, 1) == b"1" for heard in pipes)
    return f"held {held} x {mib} MiB at once"


def serve(answer) -> None:
    """Speak the protocol: hello, ready to each match, and at each decision the error `answer()` gives."""
    send({"type": "hello", "name": "hostile", "protocol": 2})
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] in ("match_start", "match_end"):
            send({"id": message["id"], "type": "ready"})
        elif message["type"] == "act":
            send({"id": message["id"], "type": "error", "message": answer(), "give_up": True})


def send(message: dict) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    serve(lambda: attempt(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else ""))
