"""Deal files: `maumau deals DIR --out FILE` writes a tournament's deals, `--deals-file FILE` plays them."""

import gzip
import json
import random

import pytest

from runner.errors import MaumauError
from runner.game.engine import Round
from runner.logs.codec import decode
from runner.plugins import registry
from runner.tournament.deals import deck_of, read_deals
from support.console import maumau, run_cli


def tournament(capsys, monkeypatch, out, *args):
    code, stdout, err = maumau(capsys, monkeypatch, "tournament", "--backend", "serial", "-q", "--format", "json",
                               "--seed", "1", "--out", out, *args)
    assert code == 0, err
    return json.loads(stdout)


def logs(directory):
    """Every stored match's events, by match id."""
    return {path.name.split(".")[0]: decode(path.read_bytes()) for path in (directory / "logs").iterdir()}


def round_starts(events):
    return [e for e in events if e["type"] == "round_start"]


@pytest.fixture(scope="module")
def source(tmp_path_factory):
    """A two-entrant standard-single tournament of 4 deals, its JSON standings, and its deal file."""
    root = tmp_path_factory.mktemp("deals")
    standings = json.loads(run_cli("tournament", "-r", "standard-single", "-b", "medium", "-b", "easy", "--deals", "4",
                                   "--backend", "serial", "-q", "--format", "json", "--seed", "1", "--out", root / "t"))
    run_cli("deals", root / "t", "--out", root / "deals.jsonl")
    return root, standings


def test_a_round_is_played_as_the_deck_its_round_start_deals():
    ruleset = registry().load_ruleset("standard")
    log: list = []
    Round.deal(ruleset, random.Random(3), 4, dealer=2, log=log)
    dealt = log[0]
    again: list = []
    Round.deal(ruleset, random.Random(99), 4, dealer=2, deck=[_card(c) for c in deck_of(dealt)], log=again)
    for key in ("hands", "upcards", "stock"):
        assert again[0][key] == dealt[key]
    assert sorted(deck_of(dealt)) == sorted(c.text for c in ruleset_deck(ruleset))


def _card(text):
    from runner.game.cards import parse_card

    return parse_card(text)


def ruleset_deck(ruleset):
    from runner.game.cards import make_deck

    return make_deck(ruleset.deck.ranks)


def test_the_file_holds_every_deal_with_its_hands_and_stock(source):
    root, _ = source
    header, deals = read_deals(root / "deals.jsonl")
    assert (header["ruleset"], header["players"], header["deals"]) == ("standard-single", 2, 4)
    lines = [json.loads(line) for line in (root / "deals.jsonl").read_text().splitlines()[1:]]
    stored = logs(root / "t")
    for line in lines:
        first = round_starts(stored[line["match"]])[0]
        assert line["rounds"][0] == {key: first[key] for key in ("round", "dealer", "hands", "upcards", "stock")}
        assert line["seed"] == stored[line["match"]][0]["seed"]
    assert [d.index for d in deals] == [0, 1, 2, 3]


def test_a_tournament_played_on_its_own_deals_is_the_same_tournament(source, capsys, monkeypatch, tmp_path):
    root, standings = source
    again = tournament(capsys, monkeypatch, tmp_path / "again", "-r", "standard-single", "-b", "medium", "-b", "easy",
                       "--deals-file", root / "deals.jsonl")
    assert again == standings
    assert logs(tmp_path / "again") == logs(root / "t")


def test_other_entrants_and_rulesets_with_the_same_deck_play_the_same_deals(source, capsys, monkeypatch, tmp_path):
    root, _ = source
    _, deals = read_deals(root / "deals.jsonl")
    tournament(capsys, monkeypatch, tmp_path / "three", "-r", "standard", "--set", "match.limit=30", "-b", "random",
               "-b", "medium", "-b", "easy", "--table-size", "2", "--deals", "2",
               "--deals-file", root / "deals.jsonl")
    played = logs(tmp_path / "three")
    assert len(played) == 3 * 2 * 2  # three tables, each playing deals 0 and 1 of the file
    for match_id, events in played.items():
        deal = int(match_id.split("-")[1][1:])
        for number, start in enumerate(round_starts(events), 1):
            if number <= len(deals[deal].decks):
                assert " ".join(deck_of(start)) == deals[deal].decks[number - 1]  # every table, every seating


def test_every_seating_of_a_deal_meets_the_same_later_rounds(tmp_path, capsys, monkeypatch):
    # a limit match: the file fixes every round of the deal, so both rotations are dealt the same round 2
    tournament(capsys, monkeypatch, tmp_path / "t", "-r", "standard", "-b", "medium", "-b", "easy", "--deals", "2")
    code, _, err = maumau(capsys, monkeypatch, "deals", tmp_path / "t", "--out", tmp_path / "d.jsonl.gz")
    assert code == 0, err
    assert gzip.decompress((tmp_path / "d.jsonl.gz").read_bytes()).startswith(b'{"type":"deals"')
    tournament(capsys, monkeypatch, tmp_path / "again", "-r", "standard", "-b", "easy", "-b", "random",
               "--deals-file", tmp_path / "d.jsonl.gz")
    played = logs(tmp_path / "again")
    _, deals = read_deals(tmp_path / "d.jsonl.gz")
    for deal in range(2):
        first, second = (round_starts(played[f"t0-d{deal}-r{r}"]) for r in (0, 1))
        shared = min(len(first), len(second), len(deals[deal].decks))
        assert shared >= 2
        assert [deck_of(s) for s in first[:shared]] == [deck_of(s) for s in second[:shared]]


def test_a_deck_that_differs_is_a_clear_error(source, capsys, monkeypatch, tmp_path):
    root, _ = source
    code, _, err = maumau(capsys, monkeypatch, "tournament", "-r", "strafpunten-skat", "-b", "medium", "-b", "easy",
                          "--deals-file", root / "deals.jsonl", "--out", tmp_path / "x")
    assert code == 1
    assert err == (f"Error: {root / 'deals.jsonl'}: deal 0 round 1 holds 52 cards (2-A, one copy); ruleset "
                   "'strafpunten-skat' deals 32 cards (7-A, one copy) at tables of 2: use a deal file written from a "
                   "tournament with this deck\n")
    assert not (tmp_path / "x").exists()


def test_a_card_missing_or_twice_is_named(source, tmp_path):
    root, _ = source
    lines = (root / "deals.jsonl").read_text().splitlines()
    deal = json.loads(lines[2])
    first = deal["rounds"][0]
    first["stock"][0] = first["hands"][0][0]  # a card twice, another gone
    (tmp_path / "bad.jsonl").write_text("\n".join([lines[0], lines[1], json.dumps(deal)]) + "\n")
    _, deals = read_deals(tmp_path / "bad.jsonl")
    from runner.tournament.deals import check_deck

    with pytest.raises(MaumauError, match=r"deal 1 round 1 is not a whole deck \(a card missing, another twice\)"):
        check_deck("bad.jsonl", deals, registry().load_ruleset("standard"), 2)


@pytest.mark.parametrize("text, message", [
    ('{"type": "deal"}\n', 'not a deal file'),
    ('{"type": "deals", "version": 9}\n', "deal file version 9, this maumau reads 1"),
    ('{"type": "deals", "version": 1}\n', "holds no deals"),
    ('{"type": "deals", "version": 1}\n{"type": "deal", "rounds": []}\n', "line 2: expected"),
    ('{"type": "deals", "version": 1}\n{"type": "deal", "rounds": [{"hands": [["2C"]]}]}\n',
     "line 2, round 1: a round needs `dealer`, `hands`, `upcards` and `stock`"),
    ('{"type": "deals", "version": 1}\n{"type": "deal", "rounds": [{"dealer": 1, "hands": [["2C"], ["3C", "4C"]], '
     '"upcards": [], "stock": []}]}\n', "the hands hold different numbers of cards"),
    ("not json\n", "line 1: not JSON"),
])
def test_a_malformed_deal_file_is_one_error_naming_the_line(tmp_path, text, message):
    path = tmp_path / "d.jsonl"
    path.write_text(text)
    with pytest.raises(MaumauError, match=message):
        read_deals(path)


def test_more_deals_than_the_file_holds_are_refused(source, capsys, monkeypatch, tmp_path):
    root, _ = source
    code, _, err = maumau(capsys, monkeypatch, "tournament", "-r", "standard-single", "-b", "medium", "-b", "easy",
                          "--deals-file", root / "deals.jsonl", "--deals", "5", "--out", tmp_path / "x")
    assert code == 1 and err.startswith("Error: --deals 5 is more than the 4 deals of")


def test_a_tournament_keeps_its_deal_file_and_resumes_without_the_original(source, capsys, monkeypatch, tmp_path):
    root, standings = source
    copy = tmp_path / "mine.jsonl"
    copy.write_bytes((root / "deals.jsonl").read_bytes())
    args = ["-r", "standard-single", "-b", "medium", "-b", "easy", "--deals-file", copy]
    first = tournament(capsys, monkeypatch, tmp_path / "t", *args)
    assert (tmp_path / "t" / "deals.jsonl").read_bytes() == copy.read_bytes()
    copy.unlink()
    code, stdout, err = maumau(capsys, monkeypatch, "standings", tmp_path / "t", "--format", "json")
    assert code == 0 and json.loads(stdout) == first
    (tmp_path / "t" / "deals.jsonl").write_text((root / "deals.jsonl").read_text().replace('"JD"', '"jd"', 1))
    code, _, err = maumau(capsys, monkeypatch, "deals", tmp_path / "t", "--out", tmp_path / "again.jsonl")
    assert code == 1 and "deals.jsonl was changed after the tournament started" in err


def test_deals_of_a_tournament_without_logs_are_re_played_from_the_seeds(source, capsys, monkeypatch, tmp_path):
    root, _ = source
    tournament(capsys, monkeypatch, tmp_path / "t", "-r", "standard-single", "-b", "medium", "-b", "easy",
               "--deals", "4", "--no-logs")
    code, out, _ = maumau(capsys, monkeypatch, "deals", tmp_path / "t", "--out", tmp_path / "d.jsonl")
    assert (
        code == 0
        and out == f"wrote 4 deals to {tmp_path / 'd.jsonl'}; play them with --deals-file {tmp_path / 'd.jsonl'}\n"
    )
    strip = [json.loads(line) for line in (tmp_path / "d.jsonl").read_text().splitlines()]
    expected = [json.loads(line) for line in (root / "deals.jsonl").read_text().splitlines()]
    assert [line.get("rounds") for line in strip] == [line.get("rounds") for line in expected]


def test_a_single_deal_is_counted_as_one(capsys, monkeypatch, tmp_path):
    tournament(capsys, monkeypatch, tmp_path / "t", "-r", "standard-single", "-b", "easy", "-b", "easy", "--deals", "1")
    code, out, _ = maumau(capsys, monkeypatch, "deals", tmp_path / "t", "--out", tmp_path / "d.jsonl")
    assert code == 0 and out.startswith("wrote 1 deal to ")


def _deal_line(deal: dict, **changes) -> str:
    first = {**deal["rounds"][0], **changes}
    return json.dumps({**deal, "rounds": [first]})


def _hostile_deal_files(lines: list[str]) -> dict:
    """name: (the file's bytes, words its Error names), from the lines of a good deal file (header, deals)."""
    header, deal = lines[0], json.loads(lines[1])
    first = deal["rounds"][0]
    twice = dict(first, stock=[first["hands"][0][0]] + first["stock"][1:])  # a card twice, another gone
    return {
        "a card twice": ("\n".join([header, json.dumps(dict(deal, rounds=[twice]))]).encode(), "not a whole deck"),
        "a card more": ("\n".join([header, _deal_line(deal, stock=first["stock"] + ["AS"])]).encode(),
                        "is not a whole deck (53 cards, not 52)"),
        "a card that is none": ("\n".join([header, _deal_line(deal, stock=["ZZ"] + first["stock"])]).encode(),
                                "is not a card"),
        "hands not lists": ("\n".join([header, _deal_line(deal, hands=[1, 2])]).encode(), "a round needs"),
        "hands a mapping": ("\n".join([header, _deal_line(deal, hands=[{"a": 1}, {"b": 2}])]).encode(),
                            "a round needs"),
        "the dealer text": ("\n".join([header, _deal_line(deal, dealer="x")]).encode(), "a round needs"),
        "no rounds": ("\n".join([header, json.dumps(dict(deal, rounds=None))]).encode(), "with at least one round"),
        "nested deep": (header.encode() + b"\n" + b"[" * 100000 + b"]" * 100000, "not JSON"),
        "not UTF-8": (header.encode() + b"\n\xff\xfe\n", "not UTF-8"),
        "a gzip bomb": (gzip.compress(header.encode() + b"\n" + b" " * (80 << 20)), "inflates to over"),
        "too big": (header.encode() + b"\n" + b" " * ((64 << 20) + 10), "is over 64 MiB"),
        "empty": (b"", "not a deal file"),
        "a header only": (header.encode(), "holds no deals"),
    }


# the cases' names, from a stand-in of a deal file (the test makes each from the real one)
HOSTILE_DEALS = sorted(_hostile_deal_files(['{"type": "deals"}', '{"rounds": [{"hands": [["2C"]], "stock": []}]}']))


@pytest.mark.parametrize("case", HOSTILE_DEALS)
def test_a_hostile_deal_file_is_one_error_line_and_plays_nothing(case, source, capsys, monkeypatch, tmp_path):
    root, _ = source
    data, words = _hostile_deal_files((root / "deals.jsonl").read_text().splitlines())[case]
    path = tmp_path / ("bad.jsonl.gz" if data[:2] == b"\x1f\x8b" else "bad.jsonl")
    path.write_bytes(data)
    code, out, err = maumau(capsys, monkeypatch, "tournament", "-r", "standard-single", "-b", "medium", "-b", "easy",
                            "--deals", "1", "--deals-file", path, "--backend", "serial", "--out", tmp_path / "x")
    assert code == 1 and err.startswith("Error: ") and err.count("\n") == 1 and words in err, err
    assert not (tmp_path / "x" / "tournament.sqlite").exists()


def test_a_deal_file_that_is_a_fifo_is_refused_without_reading(capsys, monkeypatch, tmp_path):
    import os

    os.mkfifo(tmp_path / "deals.jsonl")
    code, _, err = maumau(capsys, monkeypatch, "tournament", "-r", "standard-single", "-b", "easy", "-b", "easy",
                          "--deals-file", tmp_path / "deals.jsonl", "--out", tmp_path / "x")
    assert code == 1 and "not a regular file" in err and err.count("\n") == 1, err
