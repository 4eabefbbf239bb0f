"""`maumau sprt`: NEW and BASE on the same deals in the same seats, a paired score per deal, until the SPRT decides."""

import json

import pytest

from runner.tournament import driver
from runner.tournament.abtest import DEALS_PER_BATCH, PairedTest, plan_test
from runner.tournament.schedule import schedule
from runner.tournament.sprt import Hypotheses
from runner.tournament.work import SeatOutcome
from support.console import maumau
from support.tournaments import Interrupting


def seat(seat, entrant, place):
    return SeatOutcome(seat=seat, entrant=entrant, bot=entrant, place=place, score=float(place == 1), points=0,
                       rounds=1, rounds_won=0, faults=0, forfeited=False)


def test_without_opponents_new_meets_base_under_both_seatings_of_each_deal():
    settings = plan_test("standard-single", "medium", "easy", [], Hypotheses(), max_deals=3)
    assert settings.table_list() == [(0, 1)] and settings.table_size == 2
    slots = list(schedule(settings, range(3)))
    assert [slot.seats for slot in slots[:2]] == [(0, 1), (1, 0)]


def test_with_opponents_base_takes_news_seat_on_the_same_deals():
    settings = plan_test("standard-single", "medium", "easy", ["random", "random"], Hypotheses(), max_deals=2)
    assert settings.table_list() == [(0, 2, 3), (1, 2, 3)]
    slots = list(schedule(settings, range(2)))
    new = [s for s in slots if s.table == 0]
    base = [s for s in slots if s.table == 1]
    assert len(new) == len(base) == 2 * 3
    for a, b in zip(new, base):
        assert (a.deal, a.rotation, a.seed) == (b.deal, b.rotation, b.seed)  # the same deal, seating and seed
        assert [1 if e == 0 else e for e in a.seats] == list(b.seats)  # BASE where NEW sat, the opponents unmoved
    assert len({s.seed for s in new}) == 2  # one seed per deal


def test_a_deal_at_two_seats_scores_news_mean_a_pentanomial_value():
    settings = plan_test("standard-single", "medium", "easy", [], Hypotheses(), max_deals=3)
    test = PairedTest(settings)
    assert test.sprt.grid == 4
    test.add(0, [seat(0, "medium", 1), seat(1, "easy", 2)])  # NEW wins with seat 0's cards ...
    assert test.fed == 0  # the deal is not whole yet
    test.add(0, [seat(0, "easy", 1), seat(1, "medium", 2)])  # ... and loses with seat 1's: a split
    test.add(2, [seat(0, "medium", 1), seat(1, "easy", 2)])
    test.add(2, [seat(0, "easy", 2), seat(1, "medium", 1)])  # deal 2 whole, but deal 1 comes first
    assert test.scores == [0.5] and test.fed == 1
    test.add(1, [seat(0, "medium", 1), seat(1, "easy", 1)])  # a shared first: a half each
    test.add(1, [seat(0, "easy", 2), seat(1, "medium", 1)])
    assert test.scores == [0.5, 0.75, 1.0] and test.fed == 3 and test.over  # the cap of 3 deals


def test_with_opponents_a_deal_scores_the_difference_of_the_ahead_shares():
    settings = plan_test("standard-single", "medium", "easy", ["random"], Hypotheses(), max_deals=5)
    test = PairedTest(settings)
    assert test.per_deal == 4 and test.sprt.grid == 8  # 4 (k - 1) m at k = 2, m = 2
    test.add(0, [seat(0, "medium", 1), seat(1, "random", 2)])
    test.add(0, [seat(0, "random", 1), seat(1, "medium", 2)])
    test.add(0, [seat(0, "easy", 2), seat(1, "random", 1)])
    test.add(0, [seat(0, "random", 1), seat(1, "easy", 1)])
    # NEW: ahead of random once in two (1/2); BASE: a shared place once (1/4): 1/2 + (1/2 - 1/4) / 2
    assert test.scores == [0.625]


@pytest.mark.slow  # slow: the test again on worker processes
def test_medium_against_easy_accepts_h1_and_the_result_does_not_depend_on_the_backend(capsys, monkeypatch, tmp_path):
    args = ["sprt", "-r", "standard-single", "medium", "easy", "--format", "json", "-q", "--seed", "1"]
    code, out, err = maumau(capsys, monkeypatch, *args, "--backend", "serial", "--out", tmp_path / "serial")
    assert code == 0, err
    serial = json.loads(out)
    assert serial["decision"] == "H1" and serial["llr"] >= serial["bounds"][1] and serial["score"] > 0.5
    assert serial["matches"] == 2 * serial["deals"] and serial["stored_deals"] == serial["deals"]
    code, out, _ = maumau(capsys, monkeypatch, *args, "--workers", "2", "--out", tmp_path / "pool")
    pool = json.loads(out)
    assert pool["stored_deals"] >= pool["deals"]  # deals in flight at the decision are finished and stored
    # once decided nothing more is scheduled: what is played past the decision is at most the batches in flight (two a
    # worker, and the one being cut), each of DEALS_PER_BATCH deals
    assert pool["matches"] <= pool["played"] <= pool["matches"] + (2 * 2 + 1) * DEALS_PER_BATCH * 2
    assert serial["played"] == serial["matches"]
    for key in ("decision", "llr", "deals", "matches", "score", "elo"):
        assert pool[key] == serial[key], key
    code, out, _ = maumau(capsys, monkeypatch, "standings", tmp_path / "serial", "--format", "json")
    rows = {r["entrant"]: r for r in json.loads(out)["standings"]}
    assert rows["medium"]["matches"] == serial["matches"]  # stored like a tournament's


def test_two_copies_of_random_tie_on_every_deal_and_accept_h0(capsys, monkeypatch, tmp_path):
    code, out, _ = maumau(capsys, monkeypatch, "sprt", "-r", "standard-single", "random", "random", "--backend",
                          "serial", "--format", "json", "-q", "--out", tmp_path / "t")
    data = json.loads(out)
    assert data["decision"] == "H0" and data["score"] == 0.5 and (data["new"], data["base"]) == ("random#1", "random#2")


def test_the_verdict_says_in_plain_words_what_was_decided(capsys, monkeypatch, tmp_path):
    code, out, _ = maumau(capsys, monkeypatch, "sprt", "-r", "standard-single", "random", "random", "--backend",
                          "serial", "-q", "--out", tmp_path / "h0")
    assert code == 0 and out.splitlines()[0].endswith(
        ": no evidence that random#1 is 10 Elo stronger than random#2; at most 0 Elo (H0 accepted)")
    assert out.splitlines()[1].startswith("decided after ")
    code, out, _ = maumau(capsys, monkeypatch, "sprt", "-r", "standard-single", "medium", "easy", "--backend",
                          "serial", "-q", "--seed", "1", "--out", tmp_path / "h1")
    assert code == 0 and out.splitlines()[0].endswith(
        ": medium is stronger than easy: the evidence favours a gain of 10 Elo over one of 0 Elo (H1 accepted)")


def test_an_undecided_test_stops_at_the_cap(capsys, monkeypatch, tmp_path):
    code, out, _ = maumau(capsys, monkeypatch, "sprt", "-r", "standard-single", "medium", "easy", "--max-deals", "4",
                          "--backend", "serial", "--out", tmp_path / "t")
    assert code == 0
    assert "no decision within the cap of 4 deals" in out and "after 4 deals, 8 matches; LLR " in out


def test_an_interrupted_test_resumes_to_the_same_verdict(capsys, monkeypatch, tmp_path):
    args = ["sprt", "-r", "standard-single", "medium", "easy", "--backend", "serial", "--format", "json", "--seed", "1"]
    _, whole, _ = maumau(capsys, monkeypatch, *args, "-q", "--out", tmp_path / "whole")
    monkeypatch.setattr(driver, "make_backend", lambda *a: Interrupting(31))
    code, _, err = maumau(capsys, monkeypatch, *args, "--out", tmp_path / "t")
    assert code == 130 and f"continue with: maumau sprt --resume {tmp_path / 't'}" in err
    monkeypatch.undo()
    code, resumed, err = maumau(capsys, monkeypatch, "sprt", "--resume", tmp_path / "t", "--backend", "serial",
                                "--format", "json", "-q")
    assert code == 0, err
    assert {k: v for k, v in json.loads(resumed).items() if k != "results"} == \
        {k: v for k, v in json.loads(whole).items() if k != "results"}
    code, _, err = maumau(capsys, monkeypatch, "sprt", "--resume", tmp_path / "t", "--elo1", "20")
    assert code == 1 and "--elo1 would change" in err


def test_the_llr_is_printed_as_it_goes(capsys, monkeypatch, tmp_path):
    code, _, err = maumau(capsys, monkeypatch, "sprt", "-r", "standard-single", "medium", "easy", "--backend",
                          "serial", "--out", tmp_path / "t")
    assert code == 0
    lines = [line for line in err.splitlines() if "matches, " in line]
    assert lines and all(" LLR " in line and "(-2.94, 2.94)" in line for line in lines)


@pytest.mark.parametrize("args, message", [
    (["-r", "standard-single", "medium"], "sprt needs -r RULESET and two bots, NEW and BASE"),
    (["-r", "standard-single", "medium", "easy", "--elo0", "5", "--elo1", "5"], "--elo0 5 must be below --elo1 5"),
    (["-r", "standard-single", "medium", "easy", "--alpha", "0.6"], "--alpha must be an error rate between 0 and 0.5"),
    (["-r", "standard-single", "medium", "easy", "--format", "csv"], "unknown --format 'csv'; use table or json"),
])
def test_bad_tests_are_one_line_errors(capsys, monkeypatch, tmp_path, args, message):
    code, _, err = maumau(capsys, monkeypatch, "sprt", *args, "--out", tmp_path / "t")
    assert code == 1 and err.startswith(f"Error: {message}") and err.count("\n") == 1


def test_a_test_and_a_tournament_resume_only_as_themselves(capsys, monkeypatch, tmp_path):
    maumau(capsys, monkeypatch, "sprt", "-r", "standard-single", "medium", "easy", "--max-deals", "2", "--backend",
           "serial", "-q", "--out", tmp_path / "ab")
    code, _, err = maumau(capsys, monkeypatch, "tournament", "--resume", tmp_path / "ab")
    ab = tmp_path / "ab"
    assert code == 1 and err == f"Error: {ab} holds an A/B test: continue it with `maumau sprt --resume {ab}`\n"
    maumau(capsys, monkeypatch, "tournament", "-r", "standard-single", "-b", "random", "-b", "easy", "--deals", "1",
           "--backend", "serial", "-q", "--out", tmp_path / "rr")
    code, _, err = maumau(capsys, monkeypatch, "sprt", "--resume", tmp_path / "rr")
    assert code == 1 and "holds a tournament, not an A/B test" in err
    code, _, err = maumau(capsys, monkeypatch, "tournament", "--extend", tmp_path / "ab", "-b", "random")
    assert code == 1 and "is an A/B test" in err
