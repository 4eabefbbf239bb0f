"""Bots and rulesets as plugins: registered inside a test, found through an entry point, and name clashes."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest
from typer.testing import CliRunner

import runner
from runner import plugins
from runner.cli import app
from runner.errors import PluginError
from runner.logs.verify import verify
from runner.plugins import Registry, make_manager
from runner.table.match import Match
from runner.table.play import make_bot_factory
from support.plugins import install


class FirstLegal(runner.Bot):
    name = "first-legal"
    description = "Always the first legal action."

    def act(self, view):
        return view.legal[0]


class InTestPlugin:
    """A plugin object defined and registered inside the test."""

    @runner.hookimpl
    def register_bots(self, register):
        register(FirstLegal)


def test_a_bot_plugin_registered_inside_a_test_plays_against_random():
    pm = make_manager(entry_points=False)
    plugin = InTestPlugin()
    pm.register(plugin, name="in-test")
    try:
        reg = Registry(pm)
        entry = reg.bot("first-legal")
        assert (entry.cls, entry.plugin, entry.description) == (FirstLegal, "in-test", "Always the first legal action.")
        log: list[dict] = []
        result = Match(reg.load_ruleset("standard"), ["first-legal", "random"], 3, make_bot_factory(reg), log=log).run()
        assert result.players == ("first-legal", "random") and result.winners
        verify(log)
    finally:
        pm.unregister(plugin)
    assert "first-legal" not in Registry(pm).bots


# ---------------------------------------------------------------- a third-party package


PACKAGE = '''
"""A third party's bot package."""
import runner


class Cautious(runner.Bot):
    name = "cautious"
    description = "Keeps Jacks for last."

    def act(self, view):
        plays = [a for a in view.legal if isinstance(a, runner.Play)]
        plain = [a for a in plays if a.card.rank != "J"]
        return (plain or plays or list(view.legal))[0]


@runner.hookimpl
def register_bots(register):
    register(Cautious)


@runner.hookimpl
def register_rulesets(register):
    from pathlib import Path
    register(Path(__file__).parent / "cautious_house.yaml")
'''

HOUSE = """\
extends: strafpunten
name: cautious-house
description: Strafpunten where a Queen skips.
powers: {Q: {skip: 1}}
"""


@pytest.fixture
def site(tmp_path, monkeypatch):
    """A site directory on sys.path holding the third-party package `cautious_bot`."""
    site = tmp_path / "site"
    site.mkdir()
    install(site, "cautious_bot", textwrap.dedent(PACKAGE), "cautious")
    (site / "cautious_house.yaml").write_text(HOUSE)
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.setattr(plugins, "_registry", None)  # the CLI's registry is rebuilt, and restored afterwards
    yield site
    sys.modules.pop("cautious_bot", None)


def test_a_third_party_package_is_found_through_its_entry_point(site):
    reg = Registry(make_manager())
    assert reg.bot("cautious").plugin == "cautious"
    assert reg.rulesets["cautious-house"].plugin == "cautious"
    ruleset = reg.load_ruleset("cautious-house")
    assert ruleset.powers["Q"].skip == 1 and ruleset.points["J"] == 20  # extends a built-in ruleset


def test_a_third_party_bot_is_listed_by_maumau_bots_and_plays_random_on_each_builtin_family(site, tmp_path):
    listed = CliRunner().invoke(app, ["bots"])
    assert listed.exit_code == 0
    assert any(line.split()[:2] == ["cautious", "cautious"] for line in listed.output.splitlines()), listed.output
    for ruleset in ("standard", "standard-single", "strafpunten", "elimination", "cautious-house"):
        log = tmp_path / f"{ruleset}.jsonl.gz"
        played = CliRunner().invoke(app, ["play", "-r", ruleset, "-b", "cautious", "-b", "random", "--log", str(log),
                                          "--seed", "1"])
        assert played.exit_code == 0, played.output
        assert CliRunner().invoke(app, ["verify", str(log)]).output.startswith("ok: ")


def test_the_console_script_finds_an_installed_package(site):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), *sys.path])}
    done = subprocess.run([sys.executable, "-c", "from runner.cli import main; main()", "play", "-r", "standard",
                           "-b", "cautious", "-b", "random", "--seed", "2"], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    assert "cautious" in done.stdout


def test_a_plugin_with_a_misspelt_hook_fails_at_start_up_naming_it(site):
    install(site, "typo_bot", "import runner\n\n@runner.hookimpl\ndef register_bot(register):\n    pass\n", "typo")
    with pytest.raises(PluginError, match=r"plugin 'typo': unknown hook 'register_bot'.*register_bots"):
        make_manager()
    sys.modules.pop("typo_bot", None)


class Registers:
    """A plugin whose register_bots and register_rulesets hand over the given things."""

    def __init__(self, bots=(), rulesets=()):
        self.bots, self.rulesets = bots, rulesets

    @runner.hookimpl
    def register_bots(self, register):
        for bot in self.bots:
            register(bot)

    @runner.hookimpl
    def register_rulesets(self, register):
        for path in self.rulesets:
            register(path)


def registry_error(plugin, name: str) -> str:
    """The PluginError that building a registry with `plugin` (registered as `name`) raises."""
    pm = make_manager(entry_points=False)
    pm.register(plugin, name=name)
    with pytest.raises(PluginError) as caught:
        Registry(pm)
    return str(caught.value)


def test_a_plugin_registering_something_that_is_not_a_bot_is_named():
    message = registry_error(Registers(bots=[object]), "broken")
    assert message.startswith("plugin 'broken', hook register_bots: ") and "is not a runner.Bot subclass" in message


# ---------------------------------------------------------------- name clashes


class Impostor(runner.Bot):
    name = "random"

    def act(self, view):
        return view.legal[0]


def test_a_duplicate_bot_name_is_an_error_naming_both_plugins():
    message = registry_error(Registers(bots=[Impostor]), "clashing-plugin")
    assert "bot name 'random' is registered twice" in message
    assert "'maumau.bots.random_bot'" in message and "'clashing-plugin'" in message


def test_a_duplicate_ruleset_name_is_an_error_naming_both_plugins(tmp_path):
    (tmp_path / "standard.yaml").write_text("name: standard\n")
    message = registry_error(Registers(rulesets=[tmp_path / "standard.yaml"]), "clashing-rulesets")
    assert "ruleset name 'standard' is registered twice" in message
    assert "'maumau.rulesets.builtin'" in message and "'clashing-rulesets'" in message


def test_a_plugins_ruleset_keeps_a_name_the_gallery_took_later(tmp_path):
    """The gallery (rulesets/gallery/) is registered by name since issue 29: a plugin's `switch` is not broken by it."""
    (tmp_path / "switch.yaml").write_text("extends: standard\nname: switch\nhand_size: 6\n")
    pm = make_manager(entry_points=False)
    pm.register(Registers(rulesets=[tmp_path / "switch.yaml"]), name="pub-rules")
    reg = Registry(pm)
    assert reg.rulesets["switch"].plugin == "pub-rules" and reg.load_ruleset("switch").hand_size == 6
    assert reg.rulesets["prsi"].plugin == "maumau.rulesets.builtin"
