"""The human seat (`maumau play --human`), driven through its input stream."""

import io
import random
import sys

import pytest

from midround import table
from runner.cli import main
from runner.game.actions import DRAW
from runner.seats.human import HumanQuit, HumanSeat
from runner.table.play import play_match
from scenario import deal, do

ALWAYS_FIRST = "1\n" * 3000


def seat(text: str):
    """A human seat reading `text`, and the stream it writes to."""
    out = io.StringIO()
    return HumanSeat(random.Random(0), names=["human", "hard", "medium"], input=io.StringIO(text), output=out), out


def test_it_shows_the_hand_the_table_and_numbered_legal_actions():
    rnd = table("strafpunten", ["7H 3H 10C", "9H 2C", "2D 3S 4C 5S"], "5H", totals=(12, 30, 7))
    human, out = seat("2\n")
    view = rnd.view()
    assert human.act(view) == view.legal[1]
    shown = out.getvalue()
    assert "top card: 5H   suit to follow: hearts" in shown
    assert "your hand: 10C 3H 7H" in shown
    assert "hard#1 2 cards (total 30)" in shown and "medium#2 4 cards (total 7)" in shown
    assert "   1) play 7H" in shown and "   2) play 3H" in shown and "   3) draw" not in shown


def test_it_shows_a_pending_draw_and_what_happened_since_its_last_turn():
    rnd = deal("standard", ["7H 2D 3D", "7S 5D 6D", "8D 9D 10D"], "10H", "2C 3C 4C 5C 6C 2S")
    do(rnd, "7H", "7S")  # seat 2 now faces 4 cards
    human, out = seat("1\n")
    human.names = ["easy", "medium", "human"]
    assert human.act(rnd.view()) == DRAW
    shown = out.getvalue()
    assert "easy#0 played 7H" in shown and "medium#1 played 7S" in shown
    assert "draw penalty waiting: 4" in shown


def test_it_asks_again_after_bad_input():
    rnd = table("standard", ["7H 3H 10C", "9H 2C", "2D 3S 4C"], "5H")
    human, out = seat("\nfive\n0\n9\n1\n")
    view = rnd.view()
    assert human.act(view) == view.legal[0]
    assert out.getvalue().count("is not a move: type a number from 1 to 2") == 4


def test_q_leaves_the_match_and_the_end_of_input_too():
    view = table("standard", ["7H 3H", "9H 2C"], "5H").view()
    with pytest.raises(HumanQuit, match="you left"):
        seat("q\n")[0].act(view)
    with pytest.raises(HumanQuit, match="input ended"):
        seat("7\n")[0].act(view)


def test_a_person_plays_a_whole_match_in_any_seat():
    for human_seat in (0, 2):
        out = io.StringIO()
        result, _ = play_match("strafpunten", ["medium", "easy"], 3, {"match.limit": "40"}, human_seat=human_seat,
                               human_io=(io.StringIO(ALWAYS_FIRST), out))
        assert result.players[human_seat] == "human" and len(result.players) == 3
        assert sorted(result.ranking) == [0, 1, 2] and result.faults == ()
        assert "=== round 1 ===" in out.getvalue()


def run_cli(monkeypatch, capsys, args, stdin):
    monkeypatch.setattr(sys, "argv", ["maumau", *args])
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = 0
    try:
        main()
    except SystemExit as exc:
        code = exc.code or 0
    return code, capsys.readouterr()


def test_the_cli_seats_a_person_against_the_hard_bot(monkeypatch, capsys):
    code, out = run_cli(
        monkeypatch,
        capsys,
        ["play", "-r", "standard", "--set", "match.limit=30", "--human", "-b", "hard"],
        ALWAYS_FIRST,
    )
    assert code == 0
    assert "your move [1-" in out.out and "winner" in out.out
    assert "human" in out.out.splitlines()[-2] + out.out.splitlines()[-1]  # the final table has the human's row


def test_the_cli_refuses_a_seat_outside_the_table(monkeypatch, capsys):
    code, out = run_cli(monkeypatch, capsys, ["play", "-r", "standard", "--human-seat", "3", "-b", "easy"], "")
    assert code == 1 and out.err.startswith("Error: --human-seat 3: expected a seat from 0 to 1")


def test_the_cli_says_so_when_the_input_ends(monkeypatch, capsys):
    code, out = run_cli(monkeypatch, capsys, ["play", "-r", "standard", "--human", "-b", "easy"], "")
    assert code == 1 and "Error: the input ended" in out.err
