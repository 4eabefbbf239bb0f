"""Whose decision a round waits for and of what kind (`Phase`), and why a round ended (`EndReason`, Outcome.reason).

Both are str enums: a member is the string it stands for (`Phase.PLAY == "play"`, and so it
prints, compares, hashes and is written to JSON), so a View's `phase` and an Outcome's `reason`
read as the plain strings docs/bots.md names, and the logs stay byte for byte what they were.
"""

from __future__ import annotations

from enum import StrEnum


class Phase(StrEnum):
    """The phase of a round (`Round.phase`, `View.phase`): which kind of action its seat to act chooses."""

    PLAY = "play"  # play a card (or several) or draw; or, with a skip pending, answer it or take it
    DRAWN = "drawn"  # play the card just drawn, or pass (drawing.drawn_card)
    NAME_SUIT = "name_suit"  # the dealer names the suit of a wild upcard
    CHALLENGING = "challenge"  # point out the announcement the last player missed, or pass
    SWAPPING = "swap"  # choose the seat to swap hands with (swap_hands)
    GIVING = "give"  # choose a card to give (give)
    JUMP_IN = "jump_in"  # play a card matching the top card out of turn, or pass (jump_in)
    OVER = "over"  # the round has ended (`Round.outcome` says how)


class EndReason(StrEnum):
    """Why a round ended (`Outcome.reason`, runner/game/round_state.py)."""

    WENT_OUT = "went_out"  # the winner played its last card (under round.play_on, the first to)
    BLOCKED = "blocked"  # a turn of every seat in play passed without a card played or drawn
    TURN_LIMIT = "turn_limit"  # the ruleset's turn_limit was reached
    FORFEITED = "forfeited"  # all seats but at most one were taken out by the fault policy
    HAND_LIMIT = "hand_limit"  # a seat held more cards than round.hand_limit allows


# The members by their short names, as the engine's modules read them (one global look-up each, where compiled).
PLAY, DRAWN, NAME_SUIT, CHALLENGING, OVER = Phase.PLAY, Phase.DRAWN, Phase.NAME_SUIT, Phase.CHALLENGING, Phase.OVER
SWAPPING, GIVING, JUMP_IN = Phase.SWAPPING, Phase.GIVING, Phase.JUMP_IN
WENT_OUT, BLOCKED, TURN_LIMIT = EndReason.WENT_OUT, EndReason.BLOCKED, EndReason.TURN_LIMIT
FORFEITED, HAND_LIMIT = EndReason.FORFEITED, EndReason.HAND_LIMIT
