"""--bot-memory caps a bot as a whole: a bot that forks holds at most the cap in all its processes together
(runner/seats/memory.py), and reaching it is a fault while the tournament goes on.

MAUMAU_REQUIRE_SANDBOX=1 (set by .ci/run) turns a machine where no memory cgroup can be made from a skip into a
failure.
"""

import json
import os
import shlex
import sys
from pathlib import Path

import pytest

from runner.seats import external, memory, sandbox
from runner.seats.faults import FaultSettings
from runner.table.play import play_match
from support.console import maumau

HOSTILE = Path(__file__).parent / "support" / "hostile_bot.py"
CAP = 256 << 20
REACHED = ("its processes together reached --bot-memory (256 MiB), and the kernel killed one of them; the bot "
           "process was killed")
REQUIRED = os.environ.get("MAUMAU_REQUIRE_SANDBOX") == "1"
needs_groups = pytest.mark.skipif(memory.why_not() is not None and not REQUIRED, reason=str(memory.why_not()))
modes = pytest.mark.parametrize("boxed", [False, pytest.param(True, marks=pytest.mark.skipif(
    sandbox.why_not() is not None and not REQUIRED, reason=str(sandbox.why_not())))], ids=["isolated", "sandboxed"])


def hog(count: int, mib: int) -> str:
    """An exec: bot that starts `count` processes holding `mib` MiB each (tests/support/hostile_bot.py's `hog`)."""
    return f"exec:{shlex.quote(sys.executable)} {HOSTILE} hog {count},{mib}"


def hogged(count: int, mib: int, boxed: bool) -> str:
    """The detail of the hog's fault in one match under --bot-memory 256M."""
    result, _ = play_match("strafpunten", [hog(count, mib), "random"], 1, {},
                           faults=FaultSettings(move_time=120.0, sandbox=boxed, bot_memory=CAP))
    (fault,) = result.faults
    return fault.detail


@needs_groups
@modes
def test_a_forking_bot_holds_at_most_its_cap_in_all_its_processes_together(boxed):
    assert hogged(2, 64, boxed) == "held 2 x 64 MiB at once"  # well below the cap: the bot's own error
    assert hogged(8, 64, boxed) == REACHED  # 512 MiB in 8 processes of 64 MiB, each below the cap of one process


@modes
def test_without_a_memory_group_the_cap_is_per_process(boxed, monkeypatch):
    # the bound that holds where no cgroup can be made (docs: Faults and isolation says so): each process, not the bot
    monkeypatch.setattr(external, "why_no_memory_group", lambda: "no cgroups here")
    assert hogged(8, 64, boxed) == "held 8 x 64 MiB at once"


@needs_groups
@modes
def test_a_bot_over_its_cap_is_a_fault_and_the_tournament_goes_on(boxed, capsys, monkeypatch, tmp_path):
    from runner.tournament.store import Store

    code, out, err = maumau(capsys, monkeypatch, "tournament", "-r", "strafpunten", "-b", hog(8, 64), "-b", "random",
                            "--deals", "2", "--seed", "1", "--bot-memory", "256M", "--backend", "serial", "-q",
                            "--format", "json", "--out", tmp_path / "t", *(["--sandbox"] if boxed else []))
    assert code == 0, err
    rows = {row["entrant"]: row for row in json.loads(out)["standings"]}
    assert rows["random"]["matches"] == 4 and rows["random"]["faults"] == 0
    assert rows[hog(8, 64)]["faults"] == rows[hog(8, 64)]["matches"] == 4
    store = Store.open(tmp_path / "t")
    try:
        assert {detail for detail, in store.db.execute("SELECT detail FROM faults")} == {REACHED}
    finally:
        store.close()
