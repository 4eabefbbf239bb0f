"""maumau serve --results DIR: the stored analyses listed, and each shown as its offline HTML report."""

from __future__ import annotations

import pytest

from runner.analysis import analyze
from support.webplay import server


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    root = tmp_path_factory.mktemp("results")
    analyze(["standard-single", "strafpunten"], root / "cmp", players="2", deals=2, skill=["none"], backend="serial")
    return root


def test_the_analyses_are_listed(results):
    with server(results) as (client, _):
        listed = client.get("/api/analyses").json()
        assert listed == [{"name": "cmp", "labels": ["standard-single", "strafpunten"], "players": [2], "deals": 2}]
        index = client.get("/analyses")
        assert index.status_code == 200 and 'href="/analyses/cmp"' in index.text


def test_an_analysis_is_shown_as_its_report_without_scripts(results):
    pytest.importorskip("matplotlib")
    with server(results) as (client, _):
        shown = client.get("/analyses/cmp")
        assert shown.status_code == 200
        assert "seat advantage" in shown.text and "<svg" in shown.text and "<script" not in shown.text
        assert "default-src 'none'" in shown.headers["content-security-policy"]
        assert client.get("/analyses/cmp/standard-single-p2").status_code == 404  # only a listed folder
        assert client.get("/analyses/nothing").status_code == 404


def test_without_a_results_directory_the_list_says_how_to_give_one():
    with server(None) as (client, _):
        answer = client.get("/api/analyses")
        assert answer.status_code == 404 and "--results DIR" in answer.json()["error"]
