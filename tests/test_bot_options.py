"""Bot options on the command line: `-b 'hard:rollouts=200'`, declared by the bot, checked, labelled and stored."""

import json
import random

import pytest

import runner
from runner.errors import MaumauError, PluginError
from runner.plugins import Registry, make_manager, registry
from runner.plugins.botspec import bot_name
from runner.seats.botmaker import BotMaker
from runner.tournament.driver import conduct
from runner.tournament.settings import plan
from runner.tournament.store import Store
from support.console import maumau


class Patient(runner.Bot):
    """Declares its options and reads them from self.options, with no constructor of its own."""

    name = "patient"
    parameters = {
        "wait": runner.Option(int, 2, "turns to wait", low=0),
        "style": runner.Option(str, "calm", "how"),
        "ratio": runner.Option(float, None, "a share"),
        "loud": runner.Option(bool, False, "announce"),
    }

    def act(self, view):
        return view.legal[0]


@pytest.fixture
def reg():
    registry_ = Registry(make_manager())
    registry_._add_bot(Patient, "test-plugin")
    return registry_


def test_options_are_read_as_the_bot_declares_them(reg):
    spec = reg.spec("patient:loud=yes,wait=5,ratio=0.25,style=bold")
    assert spec.kwargs == {"wait": 5, "style": "bold", "ratio": 0.25, "loud": True}
    assert spec.text == "patient:wait=5,style=bold,ratio=0.25,loud=true"  # declared order, values written back
    assert reg.spec("patient:ratio=none").kwargs == {"ratio": None}  # a default of None allows none
    assert reg.spec("patient").text == "patient"


@pytest.mark.parametrize("player, message", [
    ("patient:speed=3", "bot 'patient:speed=3': patient takes no option 'speed'; its options: wait=INT (2), "
                        "style=TEXT (calm), ratio=FLOAT (none), loud=BOOL (false) (default in brackets; "
                        "`maumau bots` says what each does)"),
    ("patient:wait=soon", "bot 'patient:wait=soon': wait must be an integer, got 'soon'; its options:"),
    ("patient:wait=-1", "wait must be at least 0, got '-1'"),
    ("patient:wait=none", "wait must be an integer, got 'none'"),
    ("patient:loud=maybe", "loud must be true or false, got 'maybe'"),
    ("patient:ratio=nan", "ratio must be a number or none, got 'nan'"),
    ("patient:wait=1,wait=2", "option 'wait' is given twice"),
    ("patient:wait", "expected NAME:KEY=VALUE[,KEY=VALUE...], got 'wait'"),
])
def test_a_bad_option_is_one_error_listing_the_options(reg, player, message):
    with pytest.raises(MaumauError) as caught:
        reg.spec(player)
    text = str(caught.value)
    assert text.startswith(f"bot {player!r}: ") and message in text and "\n" not in text


def test_a_bot_that_declares_nothing_takes_no_options():
    with pytest.raises(MaumauError, match="^bot 'medium:depth=2': medium takes no option 'depth'; "
                                          "medium takes no options$"):
        registry().spec("medium:depth=2")


def test_the_options_reach_the_constructor_and_the_rest_keep_their_defaults(reg):
    bot = BotMaker(reg)("patient:wait=7", 0, random.Random(1))
    assert bot.options == {"wait": 7, "style": "calm", "ratio": None, "loud": False}
    hard = BotMaker()("hard:rollouts=50,sensible=false", 1, random.Random(1))
    assert (hard.rollouts, hard.sensible, hard.budget) == (50, False, None)


def test_exec_entrants_keep_their_argv():
    assert bot_name("exec:python3 bot.py --level=3,fast") == "exec:python3 bot.py --level=3,fast"
    maker = BotMaker()
    assert maker.canonical(["exec:python3 examples/exec_bot.py --x=1"]) == ["exec:python3 examples/exec_bot.py --x=1"]
    assert maker.command_for("exec:python3 examples/exec_bot.py --x=1")[0][-1] == "--x=1"


@pytest.mark.parametrize("parameters, message", [
    ([1, 2], "must be a dict of option name to runner.Option"),
    ({"rollouts": 3}, "'rollouts' must be a runner.Option of int, float, bool or str"),
    ({"rollouts": runner.Option(list)}, "must be a runner.Option of int, float, bool or str"),
    ({"two words": runner.Option(int)}, "option name 'two words' is not a Python identifier"),
])
def test_a_bad_declaration_is_refused_naming_the_plugin(parameters, message):
    cls = type("Odd", (runner.Bot,), {"name": "odd", "parameters": parameters, "act": lambda self, view: None})
    with pytest.raises(PluginError, match=f"plugin 'p', hook register_bots: Odd.parameters.*{message}"):
        Registry(make_manager())._add_bot(cls, "p")


def test_a_bot_name_with_the_option_separator_is_refused():
    cls = type("Odd", (runner.Bot,), {"name": "odd:one", "act": lambda self, view: None})
    with pytest.raises(PluginError, match="bot name 'odd:one' holds ':' or ','"):
        Registry(make_manager())._add_bot(cls, "p")


def test_two_configurations_are_two_entrants_labelled_by_their_options(tmp_path):
    settings = plan("standard-single", ["hard:rollouts=20", "hard:rollouts=0020", "hard:rollouts=40", "medium"],
                    deals=1, table_size=2, logs=False)
    assert settings.bots == ("hard:rollouts=20", "hard:rollouts=20", "hard:rollouts=40", "medium")
    assert settings.entrants == ("hard:rollouts=20#1", "hard:rollouts=20#2", "hard:rollouts=40", "medium")
    standings, out = conduct(settings, tmp_path / "t", False, "serial", quiet=True)
    store = Store.open(out)
    try:
        assert store.config()["bots"] == list(settings.bots)  # stored: a resume compares them
        assert {bot for (bot,) in store.db.execute("SELECT DISTINCT bot FROM seats")} == set(settings.bots)
    finally:
        store.close()
    with pytest.raises(MaumauError, match="holds another tournament"):
        conduct(plan("standard-single", ["hard:rollouts=21", "hard:rollouts=20", "hard:rollouts=40", "medium"],
                     deals=1, table_size=2, logs=False), out, True, "serial", quiet=True)


def test_options_work_the_same_in_an_isolated_process(tmp_path):
    from runner.seats.faults import FaultSettings

    bots = ["hard:rollouts=15,sensible=false", "hard:rollouts=60", "medium"]
    inside = plan("standard-single", bots, deals=2, seed=9)
    isolated = plan("standard-single", bots, deals=2, seed=9, faults=FaultSettings(isolate=True))
    here, _ = conduct(inside, tmp_path / "in", False, "serial", quiet=True)
    there, _ = conduct(isolated, tmp_path / "iso", False, "serial", quiet=True)
    assert here.rows == there.rows
    logs = sorted(p.name for p in (tmp_path / "in" / "logs").iterdir())
    assert all((tmp_path / "in" / "logs" / n).read_bytes() == (tmp_path / "iso" / "logs" / n).read_bytes()
               for n in logs)
    # and the options matter: other rollouts, other games
    other, _ = conduct(plan("standard-single", ["hard:rollouts=16,sensible=false", *bots[1:]], deals=2, seed=9),
                       tmp_path / "other", False, "serial", quiet=True)
    assert [(p.name, p.read_bytes()) for p in sorted((tmp_path / "other" / "logs").iterdir())] != \
        [(p.name, p.read_bytes()) for p in sorted((tmp_path / "in" / "logs").iterdir())]


def test_the_command_line_lists_and_checks_the_options(capsys, monkeypatch, tmp_path):
    code, out, _ = maumau(capsys, monkeypatch, "bots")
    assert code == 0 and "Options, given as -b 'NAME:KEY=VALUE,...'" in out and "rollouts=INT (720)" in out
    code, out, _ = maumau(capsys, monkeypatch, "bots", "--format", "json")
    hard = next(b for b in json.loads(out) if b["name"] == "hard")
    assert [o["name"] for o in hard["options"]] == ["rollouts", "budget", "confidence", "sensible"]
    code, _, err = maumau(capsys, monkeypatch, "tournament", "-r", "standard-single", "-b", "hard:depth=3", "-b",
                          "medium", "--out", tmp_path / "t")
    assert code == 1 and err.startswith("Error: bot 'hard:depth=3': hard takes no option 'depth'; its options: "
                                        "rollouts=INT (720), budget=FLOAT (none)") and err.count("\n") == 1
    assert not (tmp_path / "t").exists()
    code, out, _ = maumau(capsys, monkeypatch, "play", "-r", "standard-single", "-b", "hard:rollouts=10",
                          "-b", "medium", "--format", "json")
    assert code == 0 and "hard:rollouts=10" in out
