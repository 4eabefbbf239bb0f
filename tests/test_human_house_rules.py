"""The human seat under house rules: it is offered, in words, plays of several cards, rank wishes, a seat to swap
hands with, a card to give, a skip to take or pass on and a chance to jump in; a whole match plays through."""

from typer.testing import CliRunner

from runner.botkit.checkbot import EVERY_PHASE
from runner.cli import app


def test_a_person_meets_every_new_decision_in_words_and_plays_a_match_through():
    told = ""
    for seed in (1, 2):  # always the first move offered
        result = CliRunner().invoke(app, ["play", "-r", EVERY_PHASE, "--human", "-b", "random", "-b", "random",
                                          "--seed", str(seed)], input="1\n" * 3000)
        assert result.exit_code == 0, result.output[-2000:]
        told += result.output
    for words in (
        "swaps hands: choose whose hand you take", ") swap hands with random#",
        "gives a card to the next player: choose which", ") give ",
        "a skip is waiting for you (1 turn to miss): answer it or take it", ") take the skip",
        ": you may jump in out of turn", ") jump in with ", ") do not jump in",
        ", wishing for ",
    ):
        assert words in told, words
    several = [line for line in told.splitlines() if ") play " in line and len(line.split(",")[0].split()) > 3]
    assert several, "no play of several cards offered"
