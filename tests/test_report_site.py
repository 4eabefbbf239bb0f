"""`maumau report DIR --out SITE/` (runner/web/site.py): the site's files, its data as the server's API gives it, and
bad input as one line. tests/test_web_report.py opens the site in a browser."""

from __future__ import annotations

import json
import re

import pytest

from runner.tournament.backends import Backend, SerialBackend
from runner.tournament.driver import conduct, run
from runner.tournament.settings import plan
from runner.tournament.store import Store
from runner.web.site import file_id, ruleset_words
from runner.web.watch import Results
from support.console import maumau


@pytest.fixture(scope="module")
def trio(tmp_path_factory):
    folder = tmp_path_factory.mktemp("report") / "trio"
    conduct(plan("strafpunten", ["easy", "medium", "medium"], deals=1, seed=9), folder, False, backend="serial",
            quiet=True)
    return folder


def script_value(path, prefix: str) -> dict:
    text = path.read_text(encoding="utf-8")
    assert text.startswith(prefix)
    return json.loads(text[len(prefix):].rstrip().rstrip(";").rstrip(")"))


def test_the_site_holds_the_standings_the_chart_every_replay_and_the_rules(trio, tmp_path, capsys, monkeypatch):
    code, out, err = maumau(capsys, monkeypatch, "report", trio, "--out", tmp_path / "site")
    assert code == 0, err
    assert out.startswith(f"wrote {tmp_path / 'site' / 'index.html'}: 3 matches with replays (finished)")
    site = tmp_path / "site"
    data = script_value(site / "data" / "tournament.js", "window.maumauTournament = ")
    assert {row["entrant"] for row in data["standings"]["standings"]} == {"easy", "medium#1", "medium#2"}
    assert data["standings"] == {**Results(trio).standings("."), "name": "trio"}
    assert len(data["matches"]) == 3 and data["history"]["matches"] == 3
    assert set(data["history"]["series"]) == {"easy", "medium#1", "medium#2"}
    assert any("7: the next player draws 2" in line for line in data["rules"]["words"])
    for match in data["matches"]:
        replay = script_value(site / "data" / "matches" / f"{match['file']}.js", "maumauReplay(")
        assert replay["players"] == match["players"]  # named as in the standings
        assert replay["frames"][0]["type"] == "match_start"
    for page in ("index.html", "replay.html"):
        html = (site / page).read_text(encoding="utf-8")
        assert not re.search(r'(src|href)="(/|https?:)', html), page  # every file beside it: nothing from elsewhere
    assert sorted(p.name for p in (site / "static").iterdir()) == ["app.css", "common.js", "replay.js", "watch.js"]


def test_the_charts_lines_end_at_the_standings_score_per_match(trio):
    results = Results(trio)
    rows = {row["entrant"]: row for row in results.standings(".")["standings"]}
    for name, points in results.history(".")["series"].items():
        number, mean, low, high = points[-1]
        assert number == 3 and low <= mean <= high
        assert mean == pytest.approx(rows[name]["score"] / rows[name]["matches"], abs=1e-4)


def test_bad_input_is_one_line(trio, tmp_path, capsys, monkeypatch):
    code, out, err = maumau(capsys, monkeypatch, "report", tmp_path, "--out", tmp_path / "site")
    assert code != 0 and err.startswith("Error: ") and err.count("\n") == 1 and "not a tournament" in err
    (tmp_path / "file").write_text("x")
    code, out, err = maumau(capsys, monkeypatch, "report", trio, "--out", tmp_path / "file")
    assert code != 0 and err.startswith("Error: --out ") and err.count("\n") == 1
    code, out, err = maumau(capsys, monkeypatch, "report", trio, "--out", trio.parent)
    assert code != 0 and "would hold the results directory" in err


def test_a_match_id_that_is_not_a_plain_name_gets_a_safe_file_name():
    assert file_id("t0-d3-r1") == "t0-d3-r1"
    assert re.fullmatch(r"[0-9a-f]+", file_id("../x"))


def test_the_ruleset_in_words_names_the_powers_and_the_match():
    words = ruleset_words({"players": {"min": 2, "max": 4}, "deck": {"ranks": ["7", "8", "A"], "copies": 1},
                           "hand_size": 5, "powers": {"8": {"skip": 1}, "Q": {"reverse": True}},
                           "match": {"format": "limit", "limit": 100}})
    assert "8: the next player misses a turn." in words and "Q: reverses the direction of play." in words
    assert any("until a total reaches 100" in line for line in words)


class StopsAfter(Backend):
    """The serial backend, interrupted after `matches` matches: a tournament left as if still running."""

    shares_files = True

    def __init__(self, matches: int):
        self.matches, self.played = matches, 0

    def run(self, units, on_results):
        for unit in units:
            if self.played == self.matches:
                raise KeyboardInterrupt
            self.played += 1
            SerialBackend().run([unit], on_results)


def test_a_running_tournament_is_written_as_far_as_it_has_come(tmp_path, capsys, monkeypatch):
    settings = plan("standard-single", ["easy", "medium"], deals=3, seed=2)
    store = Store.create(tmp_path / "running", settings.config())
    with pytest.raises(KeyboardInterrupt):
        run(settings, store, StopsAfter(4))
    store.close()
    code, out, err = maumau(capsys, monkeypatch, "report", tmp_path / "running", "--out", tmp_path / "site")
    assert code == 0, err
    assert "4 matches with replays (4 of 6 matches so far)" in out
    data = script_value(tmp_path / "site" / "data" / "tournament.js", "window.maumauTournament = ")
    assert data["standings"]["finished"] is False and data["standings"]["stored"] == 4
    assert len(data["matches"]) == 4 == len(list((tmp_path / "site" / "data" / "matches").iterdir()))
