"""Under --isolate no third-party plugin code runs in the runner: a plugin that rigs the runner at import rigs nothing.

The hostile plugin is a package on a sys.path directory (module and dist-info with its entry
point, as pip leaves them), seen only by the subprocesses these tests start. At import it
replaces the runner's ranking of a match so that its own bot (and `random`) always win, and
writes down the command line of every process that imported it.
"""

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from support.plugins import HONEST, RIGGING, install


@pytest.fixture
def hostile(tmp_path):
    """(a site directory holding the rigging plugin `rigged`, the file its imports are written to)."""
    site = tmp_path / "hostile-site"
    site.mkdir()
    install(site, "rigging_plugin", textwrap.dedent(RIGGING).replace("{name}", "rigged"), "rigging")
    return site, tmp_path / "imports.txt"


def maumau(site, *args, imports=None):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), *sys.path])}
    if imports is not None:
        env["MAUMAU_TEST_IMPORTS"] = str(imports)
    done = subprocess.run([sys.executable, "-m", "runner.cli", *args], capture_output=True, text=True, env=env,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    return done.stdout


def standings(site, bots, *options, imports=None, out):
    args = ["tournament", "-r", "strafpunten", *[w for b in bots for w in ("-b", b)], "--deals", "3", "--seed", "4",
            "-q", "--format", "json", "--out", str(out), *options]
    return json.loads(maumau(site, *args, imports=imports))["standings"]


def importers(imports) -> set[str]:
    """The programs of the processes that imported the plugin: `discovery` or `isolation` (a bot's own process)."""
    return {Path(line.split()[0]).stem for line in imports.read_text().splitlines()}


def rows(table):
    return [{key: value for key, value in row.items() if key not in ("entrant", "bot")} for row in table]


def test_in_process_the_plugin_rigs_the_results(hostile, tmp_path):
    """What --isolate is for: without it the plugin's import runs in the runner and its bot wins every match."""
    site, imports = hostile
    table = standings(site, ["rigged", "medium"], "--backend", "serial", imports=imports, out=tmp_path / "t")
    assert table[0]["entrant"] == "rigged" and table[0]["losses"] == 0


@pytest.mark.parametrize("backend", ["serial", "processes"])
def test_under_isolate_its_import_runs_only_in_its_own_bot_processes(hostile, tmp_path, backend):
    site, imports = hostile
    rigged = standings(site, ["rigged", "medium"], "--isolate", "--backend", backend, imports=imports,
                       out=tmp_path / "rigged")
    assert importers(imports) == {"discovery", "isolation"}
    honest_site = tmp_path / "honest-site"
    honest_site.mkdir()
    install(honest_site, "honest_plugin", textwrap.dedent(HONEST).replace("{name}", "first-legal"), "honest")
    honest = standings(honest_site, ["first-legal", "medium"], "--isolate", "--backend", backend,
                       out=tmp_path / "honest")
    assert rows(rigged) == rows(honest)  # the same bot without the rigging: the same standings


def test_a_plugin_not_entered_changes_nothing_under_isolate(hostile, tmp_path):
    site, imports = hostile
    with_plugin = standings(site, ["random", "medium"], "--isolate", imports=imports, out=tmp_path / "a")
    without = standings(tmp_path, ["random", "medium"], "--isolate", out=tmp_path / "b")
    assert with_plugin == without
    assert importers(imports) == {"discovery"}


def test_bots_of_a_contained_registry_come_from_the_discovery_process(hostile, tmp_path):
    """`maumau play --isolate` too: names, descriptions, versions and module:Class, with no class imported here."""
    site, imports = hostile
    code = ("import sys; from runner.plugins import registry; reg = registry(contained=True); e = reg.bot('rigged'); "
            "print(e.cls, e.where, e.version, e.description, 'rigging_plugin' in sys.modules)")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), *sys.path]), "MAUMAU_TEST_IMPORTS": str(imports)}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
    assert done.stdout.split() == ["None", "rigging_plugin:FirstLegal", "rigging_plugin", "1.0", "Plays", "the",
                                   "first", "legal", "action.", "False"], done.stderr
    played = maumau(site, "play", "-r", "strafpunten", "-b", "rigged", "-b", "medium", "--isolate", "--seed", "3",
                    imports=imports)
    assert "winner" in played
    assert importers(imports) == {"discovery", "isolation"}


@pytest.mark.parametrize("report, words", [
    ('{"bots": [{"name": "x", "description": "", "where": "os:system; rm", "command": null}], "rulesets": []}',
     "is not module:Class"),
    ('{"bots": "all of them", "rulesets": []}', "expected bots and rulesets"),
    ("not json", "without a report"),
])
def test_a_forged_discovery_report_is_refused(report, words, tmp_path, monkeypatch):
    """The report comes from a process that ran the plugin's code: it is data, checked before it is used."""
    from runner.errors import PluginError
    from runner.plugins import PluginSource, discovery

    script = tmp_path / "fake.py"
    script.write_text(f"import sys; sys.stdout.write({report!r})")
    monkeypatch.setattr(discovery.sys, "executable", sys.executable)
    source = PluginSource("fake", "fake_module", "fake", "1.0")

    def confine(argv, modules):
        from contextlib import nullcontext
        return nullcontext([sys.executable, str(script)])

    with pytest.raises(PluginError, match=words):
        discovery.discover([source], confine)


OPTIONED = '''
"""A third-party bot with options: `wait` turns drawn before it plays, `crash` to raise instead."""
import runner


class Patient(runner.Bot):
    name = "patient"
    description = "Plays the last legal action."
    parameters = {"crash": runner.Option(bool, False, "raise on every decision"),
                  "ratio": runner.Option(float, 0.5, "a share", low=0)}

    def act(self, view):
        if self.options["crash"]:
            raise RuntimeError("asked to crash")
        return view.legal[-1]


@runner.hookimpl
def register_bots(register):
    register(Patient)
'''


def test_a_third_party_bots_options_reach_it_under_isolate(tmp_path):
    """The discovery process reports each bot's options: a contained registry checks them as the in-process one does."""
    site = tmp_path / "site"
    site.mkdir()
    install(site, "patient_plugin", textwrap.dedent(OPTIONED), "patient")
    code = ("from runner.plugins import registry; reg = registry(contained=True); "
            "print(reg.spec('patient:ratio=2,crash=yes').text); print(reg.bot('patient').parameters['ratio'])")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), *sys.path])}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
    assert done.stdout.splitlines() == [
        "patient:crash=true,ratio=2.0", "Option(type=<class 'float'>, default=0.5, help='a share', none=False, low=0)"
    ], done.stderr
    crashed = maumau(site, "play", "-r", "strafpunten", "-b", "patient:crash=true", "-b", "medium", "--isolate",
                     "--seed", "3")
    assert "asked to crash" in crashed
    wrong = subprocess.run([sys.executable, "-m", "runner.cli", "play", "-r", "strafpunten", "-b", "patient:wait=2",
                            "-b", "medium", "--isolate"], capture_output=True, text=True, env=env, timeout=300)
    assert wrong.returncode == 1 and "patient takes no option 'wait'; its options: crash=BOOL (false)" in wrong.stderr


def test_a_forged_option_in_a_discovery_report_is_refused(tmp_path, monkeypatch):
    from runner.errors import PluginError
    from runner.plugins import PluginSource, discovery

    bot = {"name": "x", "description": "", "where": "m:X", "command": None,
           "parameters": {"n": {"type": "list", "default": [], "help": "", "none": False, "low": None}}}
    script = tmp_path / "fake.py"
    script.write_text(f"import sys; sys.stdout.write({json.dumps({'bots': [bot], 'rulesets': []})!r})")

    def confine(argv, modules):
        from contextlib import nullcontext
        return nullcontext([sys.executable, str(script)])

    with pytest.raises(PluginError, match="option 'n' is not a name with a type"):
        discovery.discover([PluginSource("fake", "fake_module", "fake", "1.0")], confine)
