"""maumau analyze: figures against hand-built logs and a recount of stored logs, known effects, bad input, resume."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from runner.analysis import analyze, make_plan, read_analysis, run_analysis
from runner.analysis.figures import ascending_deciles, deciles
from runner.analysis.intervals import chi_square_sf, difference, quantile_differences, quantile_intervals, ratio
from runner.analysis.metrics import count_match, measure
from runner.analysis.runs import cell_settings
from runner.logs import codec
from runner.tournament.progress import Progress
from runner.tournament.schedule import Units, schedule
from runner.tournament.work import play_unit
from support.logbuilder import Log

DECIDED = {"stuck", "choice", "seven", "ace", "again"}


def maumau(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "runner.cli", *args], capture_output=True, text=True, timeout=300)


# ---------------------------------------------------------------- one match, by hand
def test_a_hand_built_round_counts_as_written():
    log = Log({"powers": {"7": {"draw": 2}, "8": {"skip": 1}}, "hand_size": 3}, players=3)
    log.deal(["7H 8H 9H", "10H JS QS", "KS AS 7S"], up="KH", stock="7C 8C 9C 10C JC QC", dealer=2, first=0)
    log.play(0, "7H")  # seat 1 takes the penalty
    log.draw(1, "7C 8C", "seven")
    log.play(2, "7S")  # a fresh 7: seat 0 takes it
    log.draw(0, "9C 10C", "seven")
    log.play(1, "10H")
    log.draw(2, "JC", "stuck")
    log.play(0, "8H")
    log.skip(1)
    log.play(2, "KS")
    log.finish(2, [0, 5, 9])  # a sketch: who wins does not matter to the counts below
    f = count_match(log.events)
    assert f["rounds"] == 1
    # decisions: 5 plays, 2 penalty draws taken, 1 stuck draw
    assert f["decisions"] == [8]
    assert f["turns"] == [8]  # every decision by another seat than the one before
    assert f["drawn"] == [5]
    assert f["reshuffles"] == [0]
    assert f["rules"]["powers.7"] == [2, 4, 2]  # fired twice, 4 penalty cards in 2 takings
    assert f["rules"]["powers.8"] == [1, 1, 1]  # fired once, one seat skipped
    assert f["round_ends"]["went_out"] == 1
    assert f["round_wins"] == [0, 0, 1]  # seat 2 is position 2 counted from seat 0, which led
    assert f["match_wins"] == [0, 0, 1.0]


def test_positions_count_from_the_leading_seat_in_the_direction_of_play():
    log = Log(players=3)
    log.deal(["9H 10S", "KH QS", "8S 7D"], up="AH", dealer=0, first=1, direction=-1)
    log.play(1, "KH")
    log.finish(1, [0, 0, 0])
    f = count_match(log.events)
    assert f["round_wins"] == [1, 0, 0]  # the leader won: position 0
    log = Log(players=3)
    log.deal(["9H 10S", "KH QS", "8S 7D"], up="AH", dealer=0, first=1, direction=-1)
    log.play(1, "KH")
    log.play(0, "9H")
    log.finish(0, [0, 0, 0])
    assert count_match(log.events)["round_wins"] == [0, 1, 0]  # seat 0 plays right after seat 1 going down


def test_a_blocked_round_and_a_match_at_max_rounds_are_stalls():
    log = Log({"drawing.reshuffle": False, "match.format": "limit", "match.limit": 1000, "match.max_rounds": 1},
              players=2)
    log.deal(["9H", "10S"], up="KC", stock="")
    log.pass_(0)
    log.pass_(1)
    log.round_end(None, [9, 10], [9, 10])
    log.match_end([0, 1], [0], [9, 10], [0, 0])
    f = count_match(log.events)
    assert f["round_ends"]["blocked"] == 1
    assert f["match_end"] == "max_rounds"
    assert f["bound"] is True


def test_drama_from_the_totals_between_rounds():
    log = Log({"match.format": "limit", "match.limit": 50}, players=2)
    for totals in ([10, 0], [10, 20], [40, 25], [60, 30]):  # leaders: 1, 0, 1, 1
        log.deal(["9H", "10S"], up="KC", stock="")
        log.round_end(None, [0, 0], totals)
    log.match_end([1, 0], [1], [60, 30], [0, 0])
    f = count_match(log.events)
    assert f["lead_changes"] == 2
    assert f["comeback"] is True  # at half time (after round 2) seat 0 led
    assert f["decided_round"] == 3


# ---------------------------------------------------------------- intervals
def test_a_ratio_of_constant_matches_has_no_width_and_a_noisy_one_has():
    exact = ratio([(f"d{i}", 30.0, 3.0) for i in range(10)])
    assert (exact.value, exact.low, exact.high) == (10.0, 10.0, 10.0)
    noisy = ratio([(f"d{i}", 30.0 + (i % 3) * 5, 3.0) for i in range(30)])
    assert noisy.low < noisy.value < noisy.high


def test_rotations_of_one_deal_widen_the_interval():
    independent = ratio([(f"d{i}", float(i % 5), 1.0) for i in range(40)])
    clustered = ratio([(f"d{i // 4}", float((i // 4) % 5), 1.0) for i in range(40)])  # four copies a deal
    assert clustered.high - clustered.low > 1.5 * (independent.high - independent.low)


def test_a_paired_difference_cancels_what_the_deals_share():
    base = {f"m{i}": (f"d{i}", 10.0 + 7 * (i % 4), 1.0) for i in range(40)}
    other = {key: (block, y + 1.0, x) for key, (block, y, x) in base.items()}
    paired = difference(base, other)
    assert paired.value == pytest.approx(1.0) and paired.significant and paired.high - paired.low < 1e-6
    unpaired = difference(base, other, paired=False)
    assert not unpaired.significant


def test_a_paired_quantile_difference_resamples_the_same_deals_for_both():
    # deals that differ widely, the other ruleset one longer in every round of every deal: paired, the median moves by
    # 1 within a narrow interval; unpaired, the deals' spread swamps it
    base = {f"t0-d{d}": [10.0 * d + k for k in range(3)] for d in range(12)}
    other = {deal: [v + 1 for v in values] for deal, values in base.items()}
    (q10, q50, q90) = quantile_differences(base, other, deciles)
    assert q50[0] == 1 and 0 < q50[1] <= 1 <= q50[2] < 5
    unpaired = quantile_differences(base, other, deciles, paired=False)[1]
    assert unpaired[0] == 1 and unpaired[1] < 0 < unpaired[2]
    assert quantile_differences({"d0": [1.0]}, {"d0": [2.0]}, deciles) is None


def test_quantile_intervals_count_each_resample_as_pooling_and_sorting_it_would():
    """A resample is counted (intervals.Ascending), not pooled and sorted: the same intervals as the bootstrap written
    out (random.choices of the deals, their rounds pooled, statistics.quantiles)."""
    import random

    values = random.Random(3)
    blocks = [[values.randint(0, 40) for _ in range(values.randint(0, 6))] for _ in range(60)]
    rng = random.Random(0)
    draws = [deciles([value for block in rng.choices(blocks, k=len(blocks)) for value in block]) for _ in range(100)]
    low, high = int(0.025 * 99), int(0.975 * 99 + 0.5)
    expected = tuple((sorted(draw[i] for draw in draws)[low], sorted(draw[i] for draw in draws)[high])
                     for i in range(3))
    assert quantile_intervals(blocks, ascending_deciles) == expected


def test_the_chi_square_tail():
    assert chi_square_sf(3.841458820694124, 1) == pytest.approx(0.05, abs=1e-6)
    assert chi_square_sf(7.814727903251178, 3) == pytest.approx(0.05, abs=1e-6)
    assert chi_square_sf(40.0, 3) < 1e-6


# ---------------------------------------------------------------- whole analyses
def test_the_figures_agree_with_a_recount_of_the_stored_logs(tmp_path):
    plan = make_plan(["strafpunten"], players="3", deals=4, logs=True)
    result = run_analysis(plan, tmp_path / "a", backend="serial")
    cell = result.cells[0]
    decisions = rounds = drawn = wins_at = 0
    won = [0, 0, 0]
    for path in sorted((Path(cell.directory) / "logs").glob("*.jsonl.gz")):
        first = direction = None
        for event in codec.read_log(path):
            kind = event["type"]
            if kind == "round_start":
                first, direction = event["first"], event["direction"]
                rounds += 0 if event["deciding"] else 1
            elif kind in ("play", "pass", "name_suit", "challenge") or (kind == "draw" and event["reason"] in DECIDED):
                decisions += 1
            if kind == "draw":
                drawn += len(event["cards"])
            if kind == "round_end" and event["winner"] is not None:
                won[((event["winner"] - first) * direction) % 3] += 1
                wins_at += 1
    assert rounds == cell.rounds
    assert cell.figure("decisions per round").estimate.value == pytest.approx(decisions / rounds)
    assert cell.figure("cards drawn per round").estimate.value == pytest.approx(drawn / rounds)
    for position in range(3):
        assert cell.figure(f"seat {position} round wins").estimate.value == pytest.approx(won[position] / wins_at)


def test_a_larger_hand_makes_rounds_longer(tmp_path):
    result = analyze(["standard-single"], tmp_path / "a", sweep="hand_size=3,8", deals=12, backend="serial")
    longer = next(c for c in result.compared if c.name == "decisions per round")
    assert longer.difference.paired and longer.difference.low > 0
    assert longer.quantile_differences[1][1] > 0  # the median too: its interval, deals paired, excludes 0
    assert any("longer than hand_size=3" in line for line in result.sentences)


def test_a_rule_that_cannot_fire_is_flagged(tmp_path):
    result = analyze(["standard-single"], tmp_path / "a", sets={"jump_in": "identical"}, deals=3, backend="serial")
    rule = next(r for r in result.cells[0].rules if r.key == "jump_in")
    assert rule.never_fired and rule.fires == 0
    assert any("never fired" in line and "jump_in" in line for line in result.sentences)


def test_a_rule_only_a_mistake_fires_is_not_exercised_by_the_built_in_bots(tmp_path):
    from runner.analysis.runs import careful

    result = analyze(["standard-single"], tmp_path / "a", deals=3, skill=["none"], backend="serial")
    rule = next(r for r in result.cells[0].rules if r.key == "announcements")
    assert rule.not_exercised and not rule.never_fired and rule.fires == 0
    assert any("not exercised by these bots" in line and "announcements" in line for line in result.sentences)
    assert not any("never fired" in line for line in result.sentences)
    assert careful(["medium", "hard:rollouts=5", "random"]) and not careful(["no-such-bot"])


def test_a_variant_that_cannot_end_shows_its_stalls_with_seeds(tmp_path):
    result = analyze(["standard"], tmp_path / "a", sets={"match.limit": 100000, "match.max_rounds": 2}, deals=3,
                     players="2", backend="serial")
    stalls = result.cells[0].stalls
    assert [s.match_id for s in stalls] == ["t0-d0-r0", "t0-d1-r0", "t0-d2-r0"]
    assert all(s.seed > 0 and s.command.endswith(f"--match {s.match_id}") for s in stalls)
    shown = maumau("replay", result.cells[0].directory, "--match", "t0-d0-r0")
    assert shown.returncode == 0 and "round 2" in shown.stdout


class StopAfter(Progress):
    """Interrupts the run after the first results are stored, as Ctrl-C would."""

    def advance(self, matches: int = 1) -> None:
        raise KeyboardInterrupt


def test_an_interrupted_analysis_resumes_to_the_same_figures(tmp_path):
    plan = make_plan(["standard-single"], players="2", deals=6)
    whole = run_analysis(plan, tmp_path / "whole", backend="serial")
    with pytest.raises(KeyboardInterrupt):
        run_analysis(plan, tmp_path / "cut", backend="serial", progress=StopAfter())
    assert read_analysis(tmp_path / "cut").cells[0].matches == 1
    cut = maumau("standings", read_analysis(tmp_path / "cut").cells[0].directory)
    assert "unfinished: a cell of the analysis" in cut.stderr and "maumau analyze` command plus --resume" in cut.stderr
    assert "tournament --resume" not in cut.stderr
    with pytest.raises(Exception, match="already holds an analysis"):
        run_analysis(plan, tmp_path / "cut", backend="serial")
    resumed = run_analysis(plan, tmp_path / "cut", resume=True, backend="serial")
    assert resumed.cells[0].matches == 6
    assert resumed.cells[0].figures == whole.cells[0].figures


def test_the_command_prints_a_table_json_and_csv(tmp_path):
    table = maumau("analyze", "standard", "strafpunten", "--players", "3", "--deals", "2", "--out",
                   str(tmp_path / "t"), "-q", "--backend", "serial")
    assert table.returncode == 0, table.stderr
    assert "decisions per round" in table.stdout and "vs standard" in table.stdout
    data = maumau("analyze", "standard", "--sweep", "powers.7.draw=1,3", "--deals", "2", "--out",
                  str(tmp_path / "j"), "-q", "--format", "json", "--backend", "serial")
    assert data.returncode == 0, data.stderr
    parsed = json.loads(data.stdout)
    assert [c["label"] for c in parsed["cells"]] == ["powers.7.draw=1", "powers.7.draw=3"]
    assert parsed["compared"] and "low" in parsed["compared"][0]["difference"]
    rows = maumau("analyze", "standard", "--deals", "2", "--players", "2", "--out", str(tmp_path / "c"), "-q",
                  "--format", "csv", "--backend", "serial")
    assert rows.stdout.splitlines()[0].startswith("cell,players,group,figure,value,low,high")


@pytest.mark.parametrize("args, fragment", [
    (["standard", "--sweep", "powers.7.drw=1,2"], "unknown key 'drw'"),
    (["standard", "--sweep", "powers.7.draw=1,x"], "powers.7.draw"),
    (["standard", "--sweep", "powers.7.draw"], "expected KEY=V1,V2"),
    (["standard", "strafpunten", "--sweep", "hand_size=4,5"], "give one ruleset"),
    (["standard", "--players", "9"], "outside the player range 2-8"),
    (["standard", "--players", "3-x"], "expected a number of players"),
    (["standard", "--skill", "random/random"], "two different bots"),
])
def test_bad_input_is_one_error_line(tmp_path, args, fragment):
    done = maumau("analyze", *args, "--deals", "1", "--out", str(tmp_path / "x"), "-q")
    assert done.returncode != 0
    assert done.stderr.startswith("Error: ") and len(done.stderr.strip().splitlines()) == 1
    assert fragment in done.stderr
    assert not (tmp_path / "x").exists()  # nothing was started


def test_an_out_directory_with_other_files_is_refused(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    done = maumau("analyze", "standard", "--deals", "1", "--out", str(tmp_path), "-q")
    assert done.returncode != 0 and done.stderr.startswith("Error: ") and "holds other files" in done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


def test_rulesets_whose_ranges_do_not_meet_are_refused(tmp_path):
    big = tmp_path / "big.yaml"
    big.write_text("extends: standard\nname: big\nplayers: {min: 6, max: 8}\n")
    done = maumau("analyze", str(big), "rulesets/gallery/prsi.yaml", "--deals", "1", "--out", str(tmp_path / "x"))
    assert done.returncode != 0 and done.stderr.startswith("Error: ")
    assert "do not meet" in done.stderr and "big 6-8" in done.stderr and "prsi 2-5" in done.stderr


def test_skill_is_the_order_index_of_the_stronger_bot(tmp_path):
    result = analyze(["standard-single"], tmp_path / "a", deals=20, players="3", backend="serial",
                     skill=["medium/random"])
    cell = result.cells[0]
    medium = cell.figure("order index of medium among random").estimate
    assert medium.low > 0  # medium wins more than its third against random bots
    assert medium.matches == 60  # every rotation of each deal: the seats differ


def test_ablate_takes_each_rule_away_in_turn(tmp_path):
    result = analyze(["standard-single"], tmp_path / "a", ablate=True, deals=2, players="2", backend="serial",
                     skill=["none"])
    assert [c.label for c in result.cells] == ["standard-single", "without powers.7", "without powers.8",
                                               "without powers.J", "without announcements"]
    without_seven = result.cells[1]
    assert "powers.7" not in {rule.key for rule in without_seven.rules}


def test_until_doubles_the_deals_until_the_interval_is_narrow(tmp_path):
    result = analyze(["standard-single"], tmp_path / "a", until=0.3, deals=2, max_deals=64, players="2",
                     backend="serial", skill=["none"])
    cell = result.cells[0]
    estimate = cell.figure("decisions per round").estimate
    assert cell.matches in (4, 8, 16, 32, 64)
    assert cell.matches == 64 or (estimate.high - estimate.low) / estimate.value <= 0.3


def test_the_html_report_is_one_offline_file_with_its_charts(tmp_path):
    pytest.importorskip("matplotlib")
    report = tmp_path / "report.html"
    done = maumau("analyze", "standard", "--sweep", "powers.7.draw=1,2,3", "--deals", "3", "--players", "2",
                  "--skill", "none", "--out", str(tmp_path / "a"), "-q", "--report", str(report), "--backend", "serial")
    assert done.returncode == 0, done.stderr
    text = report.read_text()
    assert text.count("<svg") == 4  # the sweep's lines, lengths, seats, rules
    assert "<script" not in text and "src=" not in text and "<link" not in text  # nothing to fetch
    assert "seat advantage" in text and "what each rule does" in text and "powers.7.draw=3" in text


def test_the_worker_counts_the_engines_records_as_the_log_reads(tmp_path):
    """The worker's fast path over the engine's records (metrics.measure) gives what the stored log's dicts give."""
    for name, sets in (("standard", {}), ("elimination", {}), ("rulesets/gallery/pesten.yaml", {}),
                       ("standard", {"multiple.same_rank": True, "jump_in": "same_rank"})):
        plan = make_plan([name], "3", sets, deals=3, skill=["none"])
        variant, players = next(plan.cells())
        settings = cell_settings(plan, variant, players)
        for unit in map(Units(settings), schedule(settings, range(3))):
            outcome = play_unit(unit._replace(logs=True, measure=measure))
            assert outcome.figures == count_match(codec.decode(outcome.log))


def test_a_forced_edge_for_the_leading_seat_shows_as_a_seat_advantage(tmp_path):
    # one card each, and every card wild: the leader goes out with its first play
    rules = tmp_path / "lead-wins.yaml"
    rules.write_text("extends: standard-single\nname: lead-wins\nhand_size: 1\npowers:\n  7: null\n  8: null\n"
                     "  J: {wild: true}\n  2 3 4 5 6 7 8 9 10 Q K A: {wild: true}\n")
    result = analyze([str(rules)], tmp_path / "a", players="2", deals=20, skill=["none"], backend="serial")
    cell = result.cells[0]
    assert cell.figure("seat 0 round wins").estimate.low > 0.5
    assert cell.seat_test.advantage
    assert any("a seat advantage" in line for line in result.sentences)


def test_a_cell_reads_as_a_tournament_and_a_reshaped_figures_table_is_refused(tmp_path):
    import sqlite3

    from runner.tournament.store import DB_NAME

    run_analysis(make_plan(["standard-single"], players="2", deals=2), tmp_path / "out", backend="serial")
    cell = next(path for path in (tmp_path / "out").iterdir() if (path / DB_NAME).is_file())
    shown = maumau("standings", str(cell))
    assert shown.returncode == 0
    assert "a cell of the analysis in" in shown.stderr and "complete after 2 deals" in shown.stderr
    assert "unfinished" not in shown.stderr and "tournament --resume" not in shown.stderr
    db = sqlite3.connect(cell / DB_NAME)
    db.executescript("DROP TABLE figures; CREATE TABLE figures (match_id TEXT, data TEXT, extra TEXT);")
    db.close()
    refused = maumau("standings", str(cell))
    assert refused.returncode == 1 and "'figures' is not as maumau writes it" in refused.stderr


def test_a_cell_without_its_figures_table_reads_as_empty_and_resumes_with_one(tmp_path):
    """An earlier version made the table with a cell's first batch: a cell it began and stored nothing in has none."""
    import sqlite3

    from runner.analysis.runs import FigureStore
    from runner.tournament.store import DB_NAME

    plan = make_plan(["standard-single"], players="2", deals=2, skill=["none"])
    config = cell_settings(plan, *next(plan.cells())).config()
    FigureStore.create(tmp_path / "cell", config).close()
    db = sqlite3.connect(tmp_path / "cell" / DB_NAME)
    db.execute("DROP TABLE figures")
    db.close()
    store = FigureStore.open(tmp_path / "cell")
    assert list(store.figures()) == []
    store.close()
    store = FigureStore.resume(tmp_path / "cell", config)
    assert store.has_figures()
    store.close()


# ---------------------------------------------------------------- the value of hidden information
def test_the_seeing_search_is_dealt_the_true_hands_and_a_shuffled_stock():
    import random
    from collections import Counter

    from runner.analysis.seeing import SeeingSampler
    from runner.game.engine import Round
    from runner.plugins import registry

    rnd = Round.deal(registry().load_ruleset("standard"), random.Random(3), 4)
    view = rnd.view(rnd.current)
    sampler = SeeingSampler(view, [list(hand) for hand in rnd.hands])
    world = sampler.sample(random.Random(1))
    assert [list(h) for h in world.hands] == [list(h) for h in rnd.hands]
    assert Counter(world.stock) == Counter(rnd.stock)
    assert list(world.stock) != list(rnd.stock)  # its order stays unknown


def test_hidden_information_has_its_order_index_and_no_ordinary_bot_can_see(tmp_path):
    from runner.analysis.runs import cell_settings, hidden_name
    from runner.plugins import registry

    result = analyze(["standard-single"], tmp_path / "a", players="2", deals=4, skill=["none"], backend="serial",
                     hidden_info="hard:rollouts=10")
    figure = result.cells[0].figure(hidden_name("hard:rollouts=10"))
    assert figure.group == "skill" and figure.estimate.matches == 8  # both rotations: the seeing seat in each
    assert figure.estimate.low <= figure.estimate.value <= figure.estimate.high
    said = next(line for line in result.sentences if "seeing every hand" in line)
    assert f"it wins {round((0.5 + figure.estimate.value / 2) * 100)}% of matches" in said
    # the seeing bot is no registered bot, and a tournament's units never carry a seating
    assert not any("seeing" in name for name in registry().bots)
    plan = make_plan(["standard-single"], players="2", deals=1)
    settings = cell_settings(plan, plan.variants[0], 2, ("hard", "hard"))
    assert all(unit.seating is None for unit in map(Units(settings), schedule(settings, range(1))))
    refused = maumau("analyze", "standard-single", "--hidden-info", "medium", "--out", str(tmp_path / "b"))
    assert refused.returncode == 1 and refused.stderr.startswith("Error:") and "hard" in refused.stderr
