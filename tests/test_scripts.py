"""Tournaments run by scripts and CI: progress lines, standings reports, --quiet, `--resume DIR` alone, --extend."""

import io
import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from rich.console import Console

from runner.cli.standings import render_standings
from runner.errors import InvalidSetting
from runner.tournament import driver
from runner.tournament.progress import BarProgress, LineProgress, Progress, duration, progress_for
from runner.tournament.settings import added_labels, extended, plan
from runner.tournament.store import DB_NAME, Store
from support.console import maumau
from support.tournaments import Interrupting, alive, children, count

ROOT = Path(__file__).parent.parent
SMALL = ["-r", "standard-single", "--seed", "1", "-b", "medium", "-b", "easy", "-b", "random", "--table-size", "2",
         "--deals", "5", "--backend", "serial"]


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def test_a_plain_line_every_few_seconds_with_the_rate_and_what_is_left():
    clock, stream = Clock(), io.StringIO()
    progress = LineProgress(stream, every=5, clock=clock)
    progress.start(6000, 0)
    for _ in range(4):  # 4 s: nothing yet
        clock.now += 1
        progress.advance(300)
    assert stream.getvalue() == ""
    clock.now += 1
    progress.advance(300)  # 5 s, 1500 done: 300/s, 4500 left
    assert stream.getvalue() == "1500/6000 matches, 300/s, ETA 15 s\n"
    clock.now += 2
    progress.advance(600)
    assert stream.getvalue().count("\n") == 1  # the next line comes 5 s after the last
    progress.status("LLR 1.83 (-2.94, 2.94)")
    clock.now += 3
    progress.advance(100)
    assert stream.getvalue().splitlines()[-1] == "2200/6000 matches, 220/s, ETA 17 s, LLR 1.83 (-2.94, 2.94)"
    progress.stop()
    assert stream.getvalue().splitlines()[-1] == "2200/6000 matches, 220/s, ETA 17 s, LLR 1.83 (-2.94, 2.94)"


def test_the_rate_counts_only_the_matches_played_here():
    clock, stream = Clock(), io.StringIO()
    progress = LineProgress(stream, every=5, clock=clock)
    progress.start(1000, 800)  # a resumed tournament: 800 stored before
    clock.now += 10
    progress.advance(100)
    assert stream.getvalue() == "900/1000 matches, 10/s, ETA 10 s\n"


def test_durations_read_as_people_say_them():
    assert [duration(s) for s in (12.4, 65, 3725)] == ["12 s", "1 min 5 s", "1 h 2 min"]


def test_the_bar_on_a_terminal_lines_elsewhere_nothing_when_quiet():
    assert type(progress_for(True)) is Progress
    assert isinstance(progress_for(False, Console(file=io.StringIO(), force_terminal=True)), BarProgress)
    assert isinstance(progress_for(False, Console(file=io.StringIO(), force_terminal=False)), LineProgress)


def test_a_script_sees_progress_lines_and_the_standings_every_n_matches(capsys, monkeypatch, tmp_path):
    code, out, err = maumau(capsys, monkeypatch, "tournament", *SMALL, "--report-every", "10", "--format", "json",
                            "--out", tmp_path / "t")
    assert code == 0
    assert json.loads(out)["standings"]  # stdout holds only the final standings, in --format
    assert [line for line in err.splitlines() if line.startswith("standings after")] == [
        "standings after 10 of 30 matches:", "standings after 20 of 30 matches:", "standings after 30 of 30 matches:"]
    assert "30/30 matches, " in err and "  #  entrant" in err


def test_quiet_silences_progress_and_reports(capsys, monkeypatch, tmp_path):
    code, _, err = maumau(capsys, monkeypatch, "tournament", *SMALL, "--report-every", "10", "-q",
                          "--out", tmp_path / "t")
    assert code == 0 and err == ""


def test_report_every_must_be_positive(capsys, monkeypatch, tmp_path):
    code, _, err = maumau(capsys, monkeypatch, "tournament", *SMALL, "--report-every", "0", "--out", tmp_path / "t")
    assert code == 1 and err == "Error: --report-every must be at least 1, got 0\n"


def test_an_interrupted_run_prints_the_command_that_resumes_it_and_that_command_alone_finishes_it(
        capsys, monkeypatch, tmp_path):
    _, whole, _ = maumau(capsys, monkeypatch, "tournament", *SMALL, "-q", "--format", "json", "--out", tmp_path / "w")
    monkeypatch.setattr(driver, "make_backend", lambda *args: Interrupting(7))
    code, _, err = maumau(capsys, monkeypatch, "tournament", *SMALL, "--out", tmp_path / "t")
    assert code == 130 and "Error" not in err
    assert f"interrupted after 7 matches; continue with: maumau tournament --resume {tmp_path / 't'}\n" in err
    monkeypatch.undo()
    code, _, err = maumau(capsys, monkeypatch, "standings", tmp_path / "t")
    assert f"7 matches stored\nunfinished: continue with: maumau tournament --resume {tmp_path / 't'}" in err
    code, resumed, err = maumau(capsys, monkeypatch, "tournament", "--resume", tmp_path / "t", "--backend", "serial",
                                "-q", "--format", "json")
    assert code == 0 and json.loads(resumed) == json.loads(whole)
    # the old form, the whole command plus --resume --out DIR, still works and still checks the settings
    code, again, _ = maumau(capsys, monkeypatch, "tournament", *SMALL, "-q", "--format", "json", "--resume",
                            "--out", tmp_path / "t")
    assert code == 0 and json.loads(again) == json.loads(whole)
    code, _, err = maumau(capsys, monkeypatch, "tournament", *SMALL[:-4], "--deals", "6", "--backend", "serial", "-q",
                          "--resume", "--out", tmp_path / "t")
    assert code == 1 and "holds another tournament (deals: 5 there, 6 here)" in err


def test_resume_dir_alone_refuses_options_that_would_change_the_settings(capsys, monkeypatch, tmp_path):
    maumau(capsys, monkeypatch, "tournament", *SMALL, "-q", "--out", tmp_path / "t")
    code, _, err = maumau(capsys, monkeypatch, "tournament", "--resume", tmp_path / "t", "--seed", "4")
    assert code == 1 and err == ("Error: --resume DIR plays the stored settings, which --seed would change; give the "
                                 "whole command (-r and -b too) with --resume --out DIR to check it against them\n")
    code, _, err = maumau(capsys, monkeypatch, "tournament", tmp_path / "t")
    assert code == 1 and "is given as an argument only with --resume" in err
    code, _, err = maumau(capsys, monkeypatch, "tournament", "--resume")
    assert code == 1 and err == "Error: --resume needs the results directory: `maumau tournament --resume DIR`\n"
    code, _, err = maumau(capsys, monkeypatch, "tournament", "--resume", tmp_path / "nothing")
    assert code == 1 and "holds no tournament" in err


def test_a_league_adds_an_entrant_and_plays_only_its_tables(capsys, monkeypatch, tmp_path):
    maumau(capsys, monkeypatch, "tournament", *SMALL, "-q", "--out", tmp_path / "t")
    before = {path.name: path.read_bytes() for path in (tmp_path / "t" / "logs").iterdir()}
    code, out, err = maumau(capsys, monkeypatch, "tournament", "--extend", tmp_path / "t", "-b", "random",
                            "--backend", "serial", "--format", "json")
    assert code == 0, err
    assert "4 entrants, tables of 2, 6 tables" in err and "played 30 matches" in err  # 3 new tables × 5 deals × 2
    rows = {r["entrant"]: r for r in json.loads(out)["standings"]}
    assert sorted(rows) == ["easy", "medium", "random", "random#2"]
    assert all(row["matches"] == 30 for row in rows.values())  # every table, old and new: 3 each × 5 deals × 2
    after = {path.name: path.read_bytes() for path in (tmp_path / "t" / "logs").iterdir()}
    assert {name: after[name] for name in before} == before  # the stored matches were not played again
    new = set(after) - set(before)
    assert len(new) == 30 and {name.split("-")[0] for name in new} == {"t3", "t4", "t5"}
    store = Store.open(tmp_path / "t")
    try:
        assert store.finished()
        assert {tuple(e for e, in store.db.execute(
            "SELECT entrant FROM seats WHERE match_id = ? ORDER BY entrant", (name.split(".")[0],)))
            for name in new} == {("medium", "random#2"), ("easy", "random#2"), ("random", "random#2")}
    finally:
        store.close()


def test_an_interrupted_extension_resumes_with_the_extended_settings(capsys, monkeypatch, tmp_path):
    for name in ("whole", "t"):
        maumau(capsys, monkeypatch, "tournament", *SMALL, "-q", "--out", tmp_path / name)
    extend = ["tournament", "--extend", "-b", "hard:rollouts=8", "--backend", "serial", "--format", "json"]
    _, whole, _ = maumau(capsys, monkeypatch, *extend[:2], tmp_path / "whole", *extend[2:], "-q")
    monkeypatch.setattr(driver, "make_backend", lambda *args: Interrupting(4))
    code, _, err = maumau(capsys, monkeypatch, *extend[:2], tmp_path / "t", *extend[2:])
    assert code == 130 and f"continue with: maumau tournament --resume {tmp_path / 't'}\n" in err
    monkeypatch.undo()
    code, resumed, err = maumau(capsys, monkeypatch, "tournament", "--resume", tmp_path / "t", "--backend", "serial",
                                "-q", "--format", "json")
    assert code == 0, err
    assert json.loads(resumed) == json.loads(whole) and "hard:rollouts=8" in resumed


def test_resume_with_more_deals_adds_deals_and_ends_as_a_longer_tournament_would(capsys, monkeypatch, tmp_path):
    """`--resume DIR --deals N` grows a finished tournament as --extend does: the stored deals are kept, the new ones
    played, and the result is the tournament that had N deals from the start."""
    longer = [*SMALL[:-4], "--backend", "serial", "-q", "--format", "json"]
    _, whole, _ = maumau(capsys, monkeypatch, "tournament", *longer, "--deals", "8", "--out", tmp_path / "whole")
    maumau(capsys, monkeypatch, "tournament", *SMALL, "-q", "--out", tmp_path / "t")
    before = {path.name: path.read_bytes() for path in (tmp_path / "t" / "logs").iterdir()}
    code, grown, err = maumau(capsys, monkeypatch, "tournament", "--resume", tmp_path / "t", "--deals", "8",
                              "--backend", "serial", "--format", "json")
    assert code == 0, err
    assert "played 18 matches" in err  # 3 tables × 3 added deals × 2 seatings
    assert json.loads(grown) == json.loads(whole)
    after = {path.name: path.read_bytes() for path in (tmp_path / "t" / "logs").iterdir()}
    assert {name: after[name] for name in before} == before and len(after) == len(before) + 18
    code, again, _ = maumau(capsys, monkeypatch, "tournament", "--resume", tmp_path / "t", "--backend", "serial",
                            "-q", "--format", "json")
    assert code == 0 and json.loads(again) == json.loads(whole)  # the stored settings now have 8 deals
    code, _, err = maumau(capsys, monkeypatch, "tournament", "--resume", tmp_path / "t", "--deals", "3")
    assert code == 1 and err == ("Error: --deals 3: the tournament has 8 deals; with --resume, --deals adds deals, "
                                 "it cannot take any away\n")


def test_extend_keeps_a_gauntlet_a_gauntlet():
    settings = plan("standard-single", ["medium", "easy", "random", "random"], table_size=3, gauntlet="medium")
    grown = extended(settings, ["hard"])
    assert grown.table_list()[:3] == settings.table_list()
    assert grown.table_list()[3:] == [(0, 1, 4), (0, 2, 4), (0, 3, 4)]


def test_extend_refuses_what_it_cannot_extend():
    with pytest.raises(InvalidSetting, match="samples its tables"):
        extended(plan("standard-single", ["random"] * 5, table_size=2, tables=3), ["easy"])
    with pytest.raises(InvalidSetting, match="plays until confident"):
        extended(plan("standard-single", ["random"] * 3, until_confident=True), ["easy"])
    with pytest.raises(InvalidSetting, match="needs the entrants to add"):
        extended(plan("standard-single", ["random"] * 3), [])


def test_added_entrants_leave_the_stored_labels_alone():
    assert added_labels(("random", "easy"), ("random", "easy"), ["random"]) == ("random#2",)
    assert added_labels(("random", "random"), ("random#1", "random#2"), ["random", "hard"]) == ("random#3", "hard")
    assert added_labels(("easy",), ("easy",), ["hard", "hard"]) == ("hard#1", "hard#2")


@pytest.mark.slow  # slow: a tournament in a process of its own, stopped and resumed
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_run_stopped_by_sigterm_says_how_to_resume_like_ctrl_c(tmp_path):
    # CI ends a job that runs out of time with SIGTERM: the run must say how to continue, as on Ctrl-C
    options = ["-r", "strafpunten", "-b", "random", "-b", "random", "-b", "random", "--deals", "30",
               "--set", "match.limit=250", "--seed", "3", "--format", "json"]
    out = tmp_path / "t"
    command = [sys.executable, "-m", "runner.cli", "tournament", *options, "--workers", "2", "--out", str(out)]
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while count(out / DB_NAME) < 10 and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    workers = children(process.pid)
    process.send_signal(signal.SIGTERM)
    stdout, stderr = process.communicate(timeout=60)
    stored = count(out / DB_NAME)
    assert process.returncode == 130 and 10 <= stored < 90, stderr
    assert f"interrupted after {stored} matches; continue with: maumau tournament --resume {out}\n" in stderr
    # the resume hint is the message: no `Error: interrupted` after it
    assert stderr.rstrip("\n").endswith(f"continue with: maumau tournament --resume {out}"), stderr
    assert "Error" not in stderr and "Traceback" not in stderr and stdout == ""
    deadline = time.monotonic() + 60  # a cap under load, not a timing: dead workers end the wait at once
    while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert len(workers) == 2 and not any(alive(pid) for pid in workers), "a worker outlived its stopped parent"
    resumed = subprocess.run([sys.executable, "-m", "runner.cli", "tournament", "--resume", str(out), "--workers", "2",
                              "--format", "json", "-q"], cwd=ROOT, capture_output=True, text=True)
    assert resumed.returncode == 0, resumed.stderr
    settings = plan("strafpunten", ["random"] * 3, deals=30, seed=3, overrides={"match.limit": 250})
    whole, _ = driver.conduct(settings, tmp_path / "whole", False, "serial", quiet=True)
    assert resumed.stdout.strip() == render_standings(whole, "json")
