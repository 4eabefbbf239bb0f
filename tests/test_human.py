"""The human seat (`maumau play --human`), driven through its input stream and in a real terminal (tmux)."""

import io
import json
import random
import re
import sys
from pathlib import Path

import pytest

from runner.cli import main
from runner.game.actions import DRAW
from runner.game.cards import parse_card
from runner.logs.narration import DRAW_REASONS
from runner.seats.human import HumanQuit, HumanSeat
from runner.table.play import play_match
from support.midround import table
from support.scenario import deal, do, load
from support.terminal import ENDED, Terminal, needs_tmux

ROOT = Path(__file__).resolve().parent.parent
ALWAYS_FIRST = "1\n" * 3000


def seat(text: str):
    """A human seat reading `text`, and the stream it writes to."""
    out = io.StringIO()
    return HumanSeat(random.Random(0), names=["human", "hard", "medium"], input=io.StringIO(text), output=out), out


def test_it_shows_the_hand_the_table_and_numbered_legal_actions():
    rnd = table("strafpunten", ["7H 3H 10C", "9H 2C", "2D 3S 4C 5S"], "5H", totals=(12, 30, 7))
    human, out = seat("2\n")
    view = rnd.view()
    assert human.act(view).card.text == "7H"  # the second move shown
    shown = out.getvalue()
    assert "top card: 5H   suit to follow: hearts" in shown
    assert "your hand: 10C 3H 7H" in shown
    assert "hard#1 2 cards (total 30)" in shown and "medium#2 4 cards (total 7)" in shown
    assert "   1) play 3H\n   2) play 7H\nyour move" in shown


def test_it_narrates_each_move_as_it_is_made_telling_only_what_the_seat_may_know():
    human, out = seat("1\n")
    human.names, human.seat = ["easy", "medium", "human"], 2
    rnd = deal("standard", ["7H 2D 3D", "7S 5D 6D", "8D 9D 10D"], "10H", "2C 3C 4C 5C 6C 2S", log=human.feed())
    do(rnd, "7H", "7S")  # seat 2 now faces 4 cards
    assert human.act(rnd.view()) == DRAW
    rnd.apply(DRAW)
    rnd.apply(DRAW)  # easy#0 holds no spade and no 7: it draws 6C, which it cannot play either
    shown = out.getvalue()
    assert "=== round 1 === you deal, easy#0 leads\nupcard: 10H\n" in shown
    assert "  easy#0 played 7H\n  medium#1 played 7S\n" in shown
    assert "draw penalty waiting: 4" in shown and "   1) draw 4 (penalty)" in shown
    assert "  you drew 2C 3C 4C 5C (penalty)\n" in shown  # our own cards, by name
    assert shown.endswith("  easy#0 drew a card\n") and "6C" not in shown  # the others' by count only


def test_the_hand_and_the_plays_are_sorted_by_suit_then_rank():
    rnd = table("standard", ["KD 2H 10C 9H QD 4D", "9S 2C"], "9D", totals=(0, 0))
    human, out = seat("4\n")
    view = rnd.view()
    assert [action.card.text for action in view.legal] == ["KD", "9H", "QD", "4D"]  # the engine's order: the hand's
    assert human.act(view).card.text == "9H"
    shown = out.getvalue()
    assert "your hand: 10C 4D QD KD 2H 9H" in shown
    assert "   1) play 4D\n   2) play QD\n   3) play KD\n   4) play 9H\nyour move" in shown


def test_it_asks_again_after_bad_input():
    rnd = table("standard", ["7H 3H 10C", "9H 2C", "2D 3S 4C"], "5H")
    human, out = seat("\nfive\n0\n9\n1\n")
    view = rnd.view()
    assert human.act(view).card.text == "3H"  # the first move shown
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
        result, _ = play_match("strafpunten", ["medium", "easy"], 3, {"match.limit": 40}, human_seat=human_seat,
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
        ["play", "-r", "standard", "--set", "match.limit=30", "--human", "-b", "hard", "--seed", "1"],
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


def assert_round_ends_told(shown: str, log: list[dict], names: list[str], points: dict[str, int]) -> None:
    """Each round's end as `shown` must tell it: who went out with which card, every hand left (sorted) with its
    points, the totals, and before the next deal the wait for Enter; and the upcard when each round starts."""
    ends = [event for event in log if event["type"] == "round_end"]
    assert ends
    for end in ends:
        n = end["round"]
        start = shown.index(f"\n=== round {n} === ")
        block = shown[start:shown.index(f"\n=== round {n + 1} === ") if n < len(ends) else len(shown)]
        if end["winner"] is not None:
            before = reversed(log[:log.index(end)])
            last = next(e["card"] for e in before if e["type"] == "play" and e["seat"] == end["winner"])
            went = "go" if end["winner"] == 0 else "went"
            assert f"round {n}: {names[end['winner']]} {went} out with {last}\nhands left:\n" in block
        dealt = next(e for e in reversed(log[:log.index(end)]) if e["type"] == "round_start")["hands"]
        left = [s for s, hand in enumerate(dealt) if hand and s != end["winner"]]
        hands = block.split("hands left:\n")[1].split("totals: ")[0].splitlines()
        assert [line.split()[0] for line in hands] == [names[s] for s in left]
        for line, seat in zip(hands, left):
            assert line.endswith(f" {end['points'][seat]} point{'s' if end['points'][seat] != 1 else ''}"), line
            held = [parse_card(word) for word in line.split()[1:-2] if word != "-"]
            assert sum(points[card.rank] for card in held) == end["points"][seat] and held == sorted(held)
        gone = {e["seat"] for e in log[:log.index(end)] if e["type"] in ("eliminated", "leave", "forfeit")}
        assert "totals: " + "   ".join(f"{names[s]} {end['totals'][s]}" for s in range(len(names))
                                       if s not in gone) + "\n" in block + "\n"  # of the seats still in the match
        if n < len(ends):  # before the next deal, the person is asked to go on
            assert block.rstrip("\n").rstrip().endswith("press Enter for the next deal (q quits):")
    upcards = [event["upcards"][-1] for event in log if event["type"] == "round_start"]
    lines = shown.splitlines()
    told = [lines[i + 1].split(" (turned up over ")[0] for i, line in enumerate(lines) if line.startswith("=== round ")]
    assert told == [f"upcard: {card}" for card in upcards]


def test_the_end_of_every_round_is_shown_before_the_next_deal():
    out = io.StringIO()
    result, log = play_match("standard", ["hard", "hard", "medium"], 5, {"match.limit": 40}, with_log=True,
                             human_seat=0, human_io=(io.StringIO(ALWAYS_FIRST), out))
    assert sum(event["type"] == "round_end" for event in log) >= 2
    assert_round_ends_told(out.getvalue(), log, ["you", "hard#1", "hard#2", "medium#3"],
                           load("standard").points)


def test_eliminations_and_leaves_are_told():
    out = io.StringIO()
    result, log = play_match("elimination", ["medium", "easy", "easy"], 2, {}, leaves=["2:3"], with_log=True,
                             human_seat=0, human_io=(io.StringIO(ALWAYS_FIRST), out))
    shown = out.getvalue()
    assert "\neasy#3 left the table\n" in shown
    eliminated = [event for event in log if event["type"] == "eliminated"]
    assert eliminated
    for event in eliminated:
        name = ["you", "medium", "easy", "easy"][event["seat"]]
        who = "you are" if event["seat"] == 0 else f"{name}#{event['seat']} is"
        assert f"\n{who} eliminated, with a total of {event['total']}\n" in shown
    assert shown.index("left the table") < shown.index("=== round 2 ===")


MOVE_PROMPT, DEAL_PROMPT = "q to quit]:", "next deal (q quits):"  # how the open questions end on the screen


def first_move_and_enter(line: str) -> tuple[str, ...] | None:
    """A person who plays the first move shown and goes on to each next deal."""
    return ("1", "Enter") if line.endswith(MOVE_PROMPT) else ("Enter",) if line.endswith(DEAL_PROMPT) else None


def last_written(lines: list[str]) -> str:
    return next((line for line in reversed(lines) if line.strip()), "")


def maumau_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "runner.cli", *args]


@needs_tmux
def test_in_a_real_terminal_the_end_of_the_round_stays_on_screen_until_enter():
    with Terminal(maumau_command("play", "-r", "standard", "--human", "-b", "hard", "-b", "hard", "-b", "medium",
                                 "--seed", "3"), ROOT, width=110, height=70) as term:
        term.converse(lambda line: ("1", "Enter") if line.endswith(MOVE_PROMPT) else None,
                      lambda lines: last_written(lines).endswith(DEAL_PROMPT))
        lines = term.screen()  # what the person sees: the round's end stays there
        assert lines[-1].endswith(DEAL_PROMPT), "\n".join(lines)
        end = next(i for i, line in enumerate(lines) if line.startswith("round 1: "))
        assert " out with " in lines[end] and lines[end + 1] == "hands left:"
        winner = lines[end].split()[2]
        assert [line.split()[0] for line in lines[end + 2:end + 5]] == [
            name for name in ("you", "hard#1", "hard#2", "medium#3") if name != winner]
        assert lines[end + 5].startswith("totals: you ")
        assert not any(line.startswith("=== round 2") for line in lines)  # the next deal waits for Enter
        term.type("Enter")
        lines = term.wait_for(lambda shown: any(line.startswith("=== round 2 === ") for line in shown))
        start = next(i for i, line in enumerate(lines) if line.startswith("=== round 2 === "))
        assert lines[start + 1].startswith("upcard: ")


@needs_tmux
def test_in_a_real_terminal_a_whole_match_is_told_as_the_log_has_it(tmp_path):
    log_file = tmp_path / "match.jsonl"
    names = ["you", "medium#1", "easy#2", "easy#3"]
    command = maumau_command("play", "-r", "elimination", "--human", "-b", "medium", "-b", "easy", "-b", "easy",
                             "--leave", "2:3", "--seed", "2", "--log", str(log_file))
    with Terminal(command, ROOT) as term:
        lines = term.converse(first_move_and_enter, lambda lines: ENDED in lines)
    assert ENDED in lines, "\n".join(lines)
    log = [json.loads(line) for line in log_file.read_text().splitlines()]
    shown = "\n".join(lines)
    assert_round_ends_told(shown, log, names, load("elimination").points)
    hands = [line.split("your hand: ")[1].split("   (")[0] for line in lines if line.startswith("your hand: ")]
    assert hands and all([parse_card(c) for c in hand.split()] == sorted(parse_card(c) for c in hand.split())
                         for hand in hands)  # every hand shown, sorted by suit and rank
    told = iter(lines)  # the narration, in the order of the log

    def tells(predicate) -> bool:
        return any(predicate(line) for line in told)

    for event in log:
        kind, seat = event["type"], event.get("seat")
        if kind == "draw" and seat == 0:
            why = DRAW_REASONS.get(event["reason"], "")  # why, where the draw was not the plain one
            if event["reason"] == "seven":  # the move was offered as what it is
                assert tells(lambda line, n=len(event["cards"]): re.fullmatch(rf" +\d+\) draw {n} \(penalty\)", line))
            assert tells(lambda line: line == f"  you drew {' '.join(event['cards'])}{why}"), event
        elif kind == "draw":
            n = len(event["cards"])
            assert tells(lambda line: line.startswith(f"  {names[seat]} drew {'a card' if n == 1 else f'{n} cards'}"))
        elif kind == "eliminated":
            who = "you are" if seat == 0 else f"{names[seat]} is"
            assert tells(lambda line: line == f"{who} eliminated, with a total of {event['total']}"), event
        elif kind == "leave":
            assert tells(lambda line: line == f"{names[seat]} left the table"), event
        elif kind == "round_start":
            assert tells(lambda line: line.startswith(f"=== round {event['round']} === ")), event
    kinds = {(event["type"], event.get("seat") == 0, event.get("reason")) for event in log}
    assert {("draw", True, "seven"), ("draw", True, "stuck"), ("eliminated", False, None),
            ("leave", False, None)} <= kinds  # the match shows each of them
