"""--sandbox against hostile bots: each attack of tests/support/hostile_bot.py is refused inside the sandbox (the file
and network attacks succeed outside it, so that those tests can fail; outside, the PID namespace of every bot
process, runner/seats/containment.py, already hides the runner); a sandboxed Python bot plays as it does
unsandboxed. Nothing a bot or plugin supplies runs outside its sandbox or chooses what it holds
(tests/support/hostile_program.py answers "are you Python?" with paths to mount); started from the project's root, a
plugin sees none of the project; the sandbox holds for a runner that is not root, and under --backend dask.

MAUMAU_REQUIRE_SANDBOX=1 (set by .ci/run) turns a machine without bubblewrap from a skip into a failure.
"""

import json
import os
import shlex
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from runner.seats import sandbox
from runner.seats.faults import FaultSettings
from runner.table.play import play_match
from support.console import maumau
from support.plugins import HONEST

HOSTILE = Path(__file__).parent / "support" / "hostile_bot.py"
WHY_NOT = sandbox.why_not()
if WHY_NOT and os.environ.get("MAUMAU_REQUIRE_SANDBOX") == "1":
    raise RuntimeError(f"MAUMAU_REQUIRE_SANDBOX=1, but: {WHY_NOT}")
needs_sandbox = pytest.mark.skipif(WHY_NOT is not None, reason=str(WHY_NOT))


def attack(*args, sandboxed: bool = True) -> str:
    """What the hostile bot reports (its fault's detail) after trying `args` at its first decision."""
    player = f"exec:{shlex.quote(sys.executable)} {HOSTILE} {' '.join(map(shlex.quote, map(str, args)))}"
    result, _ = play_match("strafpunten", [player, "random"], 1, {},
                           faults=FaultSettings(move_time=120.0, sandbox=sandboxed))
    (fault,) = result.faults
    return fault.detail


@pytest.fixture
def results(tmp_path):
    """A results directory with a secret in it."""
    directory = tmp_path / "results"
    directory.mkdir()
    (directory / "secret.txt").write_text("the seed is 42")
    return directory


@pytest.fixture
def listener():
    """A TCP port listening on the host's loopback."""
    server = socket.create_server(("127.0.0.1", 0))
    yield server.getsockname()[1]
    server.close()


@needs_sandbox
@pytest.mark.parametrize("how", ["read", "list", "write"])
def test_no_file_outside_its_own_code(how, results):
    target = {"read": "/etc/passwd", "list": results, "write": results / "pwned.txt"}[how]
    assert attack(how, target) == "refused: ENOENT"
    assert attack("read", results / "secret.txt") == "refused: ENOENT"
    assert not (results / "pwned.txt").exists()
    assert not attack(how, target, sandboxed=False).startswith("refused")


@needs_sandbox
def test_no_network(listener):
    assert attack("connect", listener) == "refused: ECONNREFUSED"  # its own loopback: nobody listens there
    assert attack("route") == "refused: ENETUNREACH"
    assert attack("connect", listener, sandboxed=False) == "connected"


@needs_sandbox
def test_no_view_of_other_processes():
    assert attack("proc", os.getpid()) == "refused: ENOENT"  # this process runs the match: the runner
    assert attack("procs") == "sees 2 processes"  # the sandbox's init and the bot itself


@needs_sandbox
def test_a_fork_bomb_stops_at_the_process_limit():
    # the bomb's own budget (500 forks) stops it on a machine where the limit does not hold; 64 do
    assert attack("fork", 500) == "fork bomb stopped: EAGAIN"


@needs_sandbox
def test_the_cpu_limit_ends_a_process_that_spins_past_it(monkeypatch):
    # an hour by default (a process serves many matches); one second here, far below the move time of 120 s
    monkeypatch.setattr(sandbox, "CPU_SECONDS", 1)
    assert attack("spin") == f"the bot process exited with code {128 + signal.SIGXCPU}"  # SIGXCPU, under bwrap


@needs_sandbox
def test_a_sandboxed_python_bot_plays_as_it_does_unsandboxed():
    players = ["medium", "random", "exec:" + shlex.quote(sys.executable) + " " + str(Path(__file__).parent.parent
                                                                                      / "examples" / "exec_bot.py")]
    plain, plain_log = play_match("strafpunten", players, 5, {}, with_log=True, faults=FaultSettings(move_time=60.0))
    boxed, boxed_log = play_match("strafpunten", players, 5, {}, with_log=True,
                                  faults=FaultSettings(move_time=60.0, sandbox=True))
    assert boxed.faults == () and boxed_log == plain_log


def test_without_bubblewrap_one_error_line_says_what_to_install(capsys, monkeypatch):
    which = sandbox.shutil.which
    monkeypatch.setattr(sandbox.shutil, "which", lambda name: None if name == "bwrap" else which(name))
    sandbox.why_not.cache_clear()
    try:
        code, out, err = maumau(capsys, monkeypatch, "play", "-r", "strafpunten", "-b", "random", "-b", "random",
                                "--sandbox", "--seed", "1")
    finally:
        sandbox.why_not.cache_clear()
    assert (code, out) == (1, "")
    assert err == "Error: --sandbox needs bwrap: apt-get install bubblewrap\n"


def hostile(*args) -> str:
    return f"exec:{shlex.quote(sys.executable)} {HOSTILE} {' '.join(map(shlex.quote, map(str, args)))}"


@needs_sandbox
def test_check_bot_sandboxes_the_bot_it_checks(capsys, monkeypatch):
    check = ["check-bot", hostile("read", "/etc/passwd"), "--matches", "1"]
    code, boxed, _ = maumau(capsys, monkeypatch, *check, "--sandbox")
    assert code == 1 and "exception (phase play): refused: ENOENT" in boxed and "): read " not in boxed
    code, plain, _ = maumau(capsys, monkeypatch, *check)
    assert code == 1 and "exception (phase play): read " in plain  # outside the sandbox the file is there


@needs_sandbox
def test_an_ab_test_sandboxes_its_bots_and_stores_that_it_does(capsys, monkeypatch, tmp_path):
    from runner.tournament.store import Store

    def details(directory):
        store = Store.open(directory)
        try:
            return {detail for detail, in store.db.execute("SELECT detail FROM faults")}
        finally:
            store.close()

    sprt = ["sprt", "-r", "strafpunten", hostile("read", "/etc/passwd"), "random", "--max-deals", "1", "--backend",
            "serial", "--seed", "1", "-q"]
    code, _, err = maumau(capsys, monkeypatch, *sprt, "--sandbox", "--out", tmp_path / "boxed")
    assert code == 0, err
    assert details(tmp_path / "boxed") == {"refused: ENOENT"}
    code, _, err = maumau(capsys, monkeypatch, *sprt, "--out", tmp_path / "plain")
    assert code == 0 and all(d.startswith("read ") for d in details(tmp_path / "plain")), err
    code, _, err = maumau(capsys, monkeypatch, "sprt", "--resume", tmp_path / "boxed", "--sandbox")
    assert code == 1 and "--sandbox would change" in err  # the stored settings sandbox it already


# tests/test_plugin_containment.py's plugin, its bot named by whether the process importing it could read /etc/passwd
SEER = HONEST.replace('"{name}"', '"seer-" + ("hidden" if not os.path.exists("/etc/passwd") else "seen")')


@needs_sandbox
def test_under_dask_each_worker_discovers_the_plugins_in_the_sandbox_too(tmp_path):
    pytest.importorskip("distributed")
    import textwrap

    from support.plugins import install

    site = tmp_path / "site"
    site.mkdir()
    install(site, "seer_plugin", textwrap.dedent(SEER), "seer")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), *sys.path])}
    done = subprocess.run([sys.executable, "-m", "runner.cli", "tournament", "-r", "strafpunten", "-b", "seer-hidden",
                           "-b", "random", "--deals", "1", "--seed", "1", "--sandbox", "--backend", "dask", "--workers",
                           "1", "-q", "--format", "json", "--out", str(tmp_path / "t")],
                          capture_output=True, text=True, env=env, timeout=600)
    # the driver, the Dask worker's check and the bot's own process all imported the plugin in the sandbox
    assert done.returncode == 0, done.stderr
    rows = {row["entrant"]: row for row in json.loads(done.stdout)["standings"]}
    assert rows["seer-hidden"]["matches"] == 2 and rows["seer-hidden"]["faults"] == 0


# ---------------------------------------------------------------- nothing a bot supplies runs outside, or chooses


PROGRAM = Path(__file__).parent / "support" / "hostile_program.py"
ROOT = Path(__file__).parent.parent
CONFINED = r"uid (\d+); read /etc/shadow: ENOENT; write outside: ENOENT; list secret: ENOENT"


def hostile_program(directory: Path, tmp_path: Path) -> tuple[Path, Path]:
    """(tests/support/hostile_program.py copied into `directory` as the executable `mybot`, with
    tests/support/hostile_bot.py beside it; the host's folder it writes to)."""
    if not os.access("/usr/bin/python3", os.X_OK):
        pytest.skip("the hostile program runs under /usr/bin/python3")
    outside, secret = tmp_path / "outside", tmp_path / "secret"
    outside.mkdir(mode=0o777)
    secret.mkdir()
    (secret / "key.txt").write_text("the seed is 42")
    directory.mkdir(exist_ok=True)
    program = directory / "mybot"
    program.write_text(PROGRAM.read_text())
    program.chmod(0o755)
    (directory / HOSTILE.name).write_text(HOSTILE.read_text())
    (directory / "hostile.json").write_text(json.dumps({"outside": str(outside), "secret": str(secret)}))
    return program, outside


def confined_uid(text: str) -> int:
    """The user id the hostile program ran as, from its report; fails unless every attack was refused."""
    import re

    found = re.search(CONFINED, text)
    assert found, text
    return int(found[1])


@needs_sandbox
@pytest.mark.parametrize("command", ["play", "check-bot"])
def test_an_exec_program_runs_only_in_its_sandbox_and_what_it_prints_mounts_nothing(command, capsys, monkeypatch,
                                                                                    tmp_path):
    # asked "are you Python?" outside the sandbox, it would write `probed` as the runner's user (root) and answer
    # with `secret` and /etc as its libraries; it is never asked, and plays with its own directory only
    program, outside = hostile_program(tmp_path / "bot", tmp_path)
    args = {"play": ["play", "-r", "strafpunten", "-b", f"exec:{program}", "-b", "random", "--seed", "1"],
            "check-bot": ["check-bot", f"exec:{program}", "--matches", "1"]}[command]
    code, out, err = maumau(capsys, monkeypatch, *args, "--sandbox")
    assert list(outside.iterdir()) == [], (out, err)
    assert confined_uid(out + err) != 0


@needs_sandbox
def test_the_sandbox_is_decided_without_running_the_program(monkeypatch, tmp_path):
    program, _ = hostile_program(tmp_path / "bot", tmp_path)

    def refuse(*args, **kwargs):
        raise AssertionError(f"ran {args[0]!r} to decide its sandbox")

    monkeypatch.setattr(subprocess, "run", refuse)
    monkeypatch.setattr(subprocess, "Popen", refuse)
    assert sandbox.exec_command([str(program), "--level", "3"]) == ([str(program), "--level", "3"], [program.parent])
    python, libraries = sandbox.own_python()
    assert sandbox.exec_command([sys.executable, str(HOSTILE)]) == ([str(python), str(HOSTILE)],
                                                                    [*libraries, HOSTILE.parent])
    # a bare name is looked up on the sandbox's PATH first: /usr's Python, which the sandbox holds already
    assert sandbox.exec_command(["python3", "-c", "pass"]) == ([os.path.realpath("/usr/bin/python3"), "-c", "pass"], [])


COMMAND_PLUGIN = '''
import os
import runner
from runner.seats.external import CommandBot

class Hostile(CommandBot):
    name = "hostile-command"
    description = "A registered command running a hostile program."
    command = [{program}]

@runner.hookimpl
def register_bots(register):
    register(Hostile)
'''


def command_plugin(tmp_path: Path, program: str) -> Path:
    """A site directory holding the package `hostile_command` (a plugin registering the command `program`, Python
    source text), installed as pip leaves it."""
    site = tmp_path / "site"
    package = site / "hostile_command"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(COMMAND_PLUGIN.format(program=program))
    info = site / "hostile_command-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: hostile-command\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[maumau]\nhostile = hostile_command\n")
    return site


def run(site: Path | None, *args, cwd=None, user: list[str] | None = None) -> subprocess.CompletedProcess:
    path = [str(site)] if site else []
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([*path, *sys.path])}
    return subprocess.run([*(user or []), sys.executable, "-m", "runner.cli", *map(str, args)], capture_output=True,
                          text=True, env=env, cwd=cwd, timeout=600)


@needs_sandbox
def test_a_registered_command_runs_only_in_its_sandbox(tmp_path):
    site = command_plugin(tmp_path, 'os.path.join(os.path.dirname(__file__), "mybot")')
    _, outside = hostile_program(site / "hostile_command", tmp_path)
    done = run(site, "play", "-r", "strafpunten", "-b", "hostile-command", "-b", "random", "--seed", "1", "--sandbox")
    assert list(outside.iterdir()) == [], done.stderr
    assert confined_uid(done.stdout + done.stderr) != 0


@needs_sandbox
def test_a_registered_command_cannot_name_a_program_outside_its_package(tmp_path):
    program, outside = hostile_program(tmp_path / "bot", tmp_path)
    site = command_plugin(tmp_path, repr(str(program)))
    done = run(site, "play", "-r", "strafpunten", "-b", "hostile-command", "-b", "random", "--seed", "1", "--sandbox")
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == (f"Error: bot 'hostile-command': under --sandbox a registered command runs a program from "
                           f"/usr, the runner's Python or its plugin's own package; {program} is in none of them\n")
    assert list(outside.iterdir()) == []


# a plugin whose bot reports what it can reach of the project the runner was started from (python -m runner.cli there)
PROJECT_SEER = '''
import errno, os
import runner

ROOT = {root!r}

def attempt(what, action):
    try:
        found = action()
        return what + ": " + (",".join(sorted(found)) if isinstance(found, list) else "done")
    except OSError as exc:
        return what + ": " + errno.errorcode.get(exc.errno, str(exc.errno))

class Seer(runner.Bot):
    name = "project-seer"
    description = "Reports what it can reach of the project."

    def act(self, view):
        raise RuntimeError("; ".join([
            attempt("list root", lambda: os.listdir(ROOT)),
            attempt("read README", lambda: open(os.path.join(ROOT, "README.md")).read()),
            attempt("list tests", lambda: os.listdir(os.path.join(ROOT, "tests"))),
            attempt("list results", lambda: os.listdir(os.path.join(ROOT, "results"))),
            attempt("write runner", lambda: open(os.path.join(ROOT, "runner", "pwned"), "w").close()),
        ]))

@runner.hookimpl
def register_bots(register):
    register(Seer)
'''


@needs_sandbox
def test_started_from_the_project_root_a_sandboxed_plugin_sees_none_of_the_project(tmp_path):
    from support.plugins import install

    site = tmp_path / "site"
    site.mkdir()
    install(site, "project_seer", PROJECT_SEER.format(root=str(ROOT)), "seer")
    done = run(site, "play", "-r", "strafpunten", "-b", "project-seer", "-b", "random", "--seed", "1", "--sandbox",
               cwd=ROOT)
    # the project root holds only what the runner itself needs, read-only: its packages (and its venv, if there)
    needed = {path.relative_to(ROOT).parts[0] for path in [*sandbox.own_packages(), *sandbox.own_python()[1]]
              if ROOT in path.parents}
    assert f"list root: {','.join(sorted(needed))}; read README: ENOENT; list tests: ENOENT; list results: ENOENT; " \
           "write runner: EROFS" in done.stdout, done.stderr
    assert needed <= {"runner", "bots", "rulesets", ".venv"}
    assert not (ROOT / "runner" / "pwned").exists()


@needs_sandbox
def test_a_plugin_module_in_a_project_folder_is_not_mounted(tmp_path):
    # its entry point names `tests.seer`: a namespace package whose folders include the project's tests/ (the runner
    # started from the project root); only its own module is mounted, and a module in the project root is refused
    site = tmp_path / "site"
    (site / "tests").mkdir(parents=True)
    (site / "tests" / "seer.py").write_text(PROJECT_SEER.format(root=str(ROOT)))
    info = site / "seer-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: seer\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[maumau]\nseer = tests.seer\n")
    done = run(site, "play", "-r", "strafpunten", "-b", "project-seer", "-b", "random", "--seed", "1", "--sandbox",
               cwd=ROOT)
    assert "list tests: ENOENT" in done.stdout, done.stderr
    (info / "entry_points.txt").write_text("[maumau]\nseer = setup\n")  # the project's own setup.py
    done = run(site, "play", "-r", "strafpunten", "-b", "random", "-b", "random", "--sandbox", cwd=ROOT)
    assert (done.returncode, done.stderr) == (1, f"Error: --sandbox: plugin 'setup': its module 'setup' is "
                                                 f"{ROOT / 'setup.py'}, in the folder the runner was started from or "
                                                 "its source tree, not an installed package; install the plugin\n")


# ---------------------------------------------------------------- a runner that is not root


NOBODY = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
NO_NAMESPACES = ("Error: --sandbox: bwrap cannot make its namespaces here (bwrap: {}); run as root or allow "
                 "unprivileged user namespaces (sysctl user.max_user_namespaces above 0, and on Debian "
                 "kernel.unprivileged_userns_clone=1)\n")


def as_nobody(*args: str) -> subprocess.CompletedProcess:
    """`python -m runner.cli ARGS` run by a user who is not root. As root: as
    `nobody`, under /usr's Python with the project and this interpreter's packages on its path (this interpreter may
    lie where nobody can reach it); otherwise as this user, with this interpreter."""
    import site

    python, user, path = [sys.executable, "-m", "runner.cli"], [], [str(ROOT)]
    if os.geteuid() == 0:
        system = subprocess.run(["/usr/bin/python3", "-c", "import sys; print(sys.version_info[:2])"],
                                capture_output=True, text=True)
        if system.stdout.strip() != str(sys.version_info[:2]):
            pytest.skip(f"nobody runs the runner under /usr/bin/python3, which is not Python {sys.version_info[:2]}")
        # this interpreter's packages as site folders, not on PYTHONPATH: their .pth files (an editable install's
        # finder for maumau.bots and maumau.rulesets) are read only from site folders
        python, user = ["/usr/bin/python3", "-c", NOBODYS_RUNNER, os.pathsep.join(site.getsitepackages())], NOBODY
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(path), "HOME": "/tmp"}
    return subprocess.run([*user, *python, *args], capture_output=True, text=True, env=env, cwd="/tmp", timeout=600)


# `python -m runner.cli ARGS` with the site folders given as its first argument added first
NOBODYS_RUNNER = ("import runpy, site, sys; [site.addsitedir(d) for d in sys.argv.pop(1).split(':')]; "
                  "runpy.run_module('runner.cli', run_name='__main__', alter_sys=True)")


def hostile_against_exec_bot(*attack: str) -> list[str]:
    return ["play", "-r", "strafpunten", "-b", f"exec:python3 {HOSTILE} {' '.join(attack)}", "-b",
            f"exec:python3 {ROOT / 'examples' / 'exec_bot.py'}", "--seed", "1", "--sandbox"]


@needs_sandbox
def test_the_sandbox_holds_for_a_runner_that_is_not_root():
    namespaces = subprocess.run([*(NOBODY if os.geteuid() == 0 else []), "unshare", "--user", "true"],
                                capture_output=True, text=True)
    read = as_nobody(*hostile_against_exec_bot("read", "/etc/passwd"))
    if namespaces.returncode != 0:  # no unprivileged user namespaces here: the command says so in one line
        assert (read.returncode, read.stdout) == (1, "")
        assert read.stderr.startswith("Error: --sandbox: bwrap cannot make its namespaces here") and \
            read.stderr.count("\n") == 1
        return
    assert "exception in round 1: refused: ENOENT" in read.stdout, read.stderr
    procs = as_nobody(*hostile_against_exec_bot("procs"))
    assert "exception in round 1: sees 2 processes" in procs.stdout, procs.stderr


@needs_sandbox
def test_without_user_namespaces_a_runner_that_is_not_root_gets_one_error_line():
    # run inside a user namespace that may make no other (what a kernel without unprivileged user namespaces gives)
    outer = ["bwrap", "--unshare-user", "--disable-userns", "--unshare-pid", "--uid", "65534", "--gid", "65534",
             "--bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--"]
    done = subprocess.run([*outer, sys.executable, "-m", "runner.cli",
                           *hostile_against_exec_bot("read", "/etc/passwd")],
                          capture_output=True, text=True, cwd="/tmp", timeout=600)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == NO_NAMESPACES.format("Creating new namespace failed: nesting depth or "
                                               "/proc/sys/user/max_*_namespaces exceeded (ENOSPC)"), done.stderr


# ---------------------------------------------------------------- under --backend dask


# a registered bot that reports, as its error, the program of its process, what it sees of the processes and whether
# it can read /etc/passwd
WITNESS = '''
import os, sys
import runner

class Witness(runner.Bot):
    name = "witness"
    description = "Reports where it runs."

    def act(self, view):
        processes = sum(name.isdigit() for name in os.listdir("/proc"))
        passwd = "readable" if os.access("/etc/passwd", os.R_OK) else "ENOENT"
        raise RuntimeError(f"{os.path.basename(sys.argv[0])}; sees {processes} processes; passwd: {passwd}")

@runner.hookimpl
def register_bots(register):
    register(Witness)
'''


@pytest.mark.parametrize("option, seen", [
    ("--isolate", "isolation.py; sees 1 processes; passwd: readable"),
    pytest.param("--sandbox", "isolation.py; sees 2 processes; passwd: ENOENT", marks=needs_sandbox),
])
def test_under_dask_isolate_and_sandbox_hold_for_each_bot_process(option, seen, tmp_path):
    pytest.importorskip("distributed")
    from runner.tournament.store import Store
    from support.plugins import install

    site = tmp_path / "site"
    site.mkdir()
    install(site, "witness_plugin", WITNESS, "witness")
    done = run(site, "tournament", "-r", "strafpunten", "-b", "witness", "-b", "random", "--deals", "1", "--seed", "1",
               option, "--backend", "dask", "--workers", "1", "-q", "--out", tmp_path / "t")
    assert done.returncode == 0, done.stderr
    store = Store.open(tmp_path / "t")
    try:  # the bot ran in a process of its own, in its own PID namespace (and sandbox), not in the Dask worker
        assert [detail for detail, in store.db.execute("SELECT detail FROM faults")] == [f"RuntimeError: {seen}"] * 2
    finally:
        store.close()
