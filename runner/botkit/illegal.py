"""Why an answer was not legal, in the words of the rules, for `maumau check-bot` (runner/botkit/checkbot.py).

The engine decides legality (one place for that rule); this only describes the situation the
bot misjudged, from its view: a card it does not hold, a penalty or a skip to answer, a wish
or a named suit in force, a drawn card to play or keep, a phase that asks for something else.
Each reason has a short `kind`, so that check-bot can group the same mistake made with many cards.
"""

from __future__ import annotations

from typing import NamedTuple

from runner.game.actions import Play
from runner.game.view import View

SHOWN_LEGAL = 6  # legal actions listed; the rest are counted


class Why(NamedTuple):
    kind: str  # groups the same mistake: "not in hand", "penalty pending", ...
    text: str  # the reason, for this decision
    legal: str  # what was legal then


def why_illegal(view: View, answer: object) -> Why:
    """The reason `answer` was not one of `view.legal`, and what was."""
    kind, text = _reason(view, answer)
    return Why(kind, text, legal_text(view))


def legal_text(view: View) -> str:
    """`play 7S, draw` (at most SHOWN_LEGAL, then how many more)."""
    shown = ", ".join(str(action) for action in view.legal[:SHOWN_LEGAL])
    more = len(view.legal) - SHOWN_LEGAL
    return shown + (f" and {more} more" if more > 0 else "")


def _reason(view: View, answer: object) -> tuple[str, str]:
    legal_types = {type(action) for action in view.legal}
    name = type(answer).__name__
    if isinstance(answer, Play) and Play not in legal_types and view.phase == "play":
        if view.pending:
            return "penalty, no answer", (f"a draw penalty of {view.pending} is pending and no card it holds answers "
                                          "it: draw")
        if view.pending_skip:
            return "skip, no answer", "a skip is pending and no card it holds answers it: pass"
        return "nothing playable", f"no card it holds can be played on the top card {view.top}{_suit(view)}: draw"
    if type(answer) not in legal_types:
        asked = {"play": "a card, a draw", "drawn": "the drawn card or pass", "name_suit": "a suit to name",
                 "challenge": "challenge or pass", "swap": "a seat to swap hands with", "give": "a card to give",
                 "jump_in": "a jump-in or pass"}.get(view.phase, "one of the legal actions")
        return f"no {name} in phase {view.phase}", f"phase {view.phase} asks for {asked}; a {name} is never legal in it"
    if not isinstance(answer, Play):
        return f"{name} not legal", f"a {name} with these fields is not one of the legal actions"
    missing = [card for card in answer.cards if card not in view.hand]
    if missing:
        return "not in hand", f"{' '.join(card.text for card in missing)} is not in its hand"
    same = [a for a in view.legal if isinstance(a, Play) and a.cards == answer.cards]
    if same:
        return "wrong fields", ("the same cards are legal with other fields: "
                                + ", ".join(str(a) for a in same[:SHOWN_LEGAL]))
    if view.phase == "drawn":
        return "after a draw", "after drawing, only the card just drawn may be played (or pass to keep it)"
    if view.pending:
        return "penalty pending", (f"a draw penalty of {view.pending} is pending: only a card that answers it "
                                   "may be played, or draw to take it")
    if view.pending_skip:
        return "skip pending", "a skip is pending: only a card that answers it may be played, or pass to take it"
    if view.wish is not None:
        return "wish in force", f"the rank {view.wish} was wished: the next card must be a {view.wish} (or a wild card)"
    if view.next_rank is not None:
        bound, rank = view.next_rank
        return "rank bound", f"the next card must be of rank {bound.replace('_', ' ')} {rank}"
    top = view.top
    if view.suit is not None and view.suit != top.suit:
        return "suit named", (f"{answer.card} follows neither the suit named, {view.suit}, nor the rank of the "
                              f"top card {top}")
    return "does not match", f"{answer.card} matches neither the suit nor the rank of the top card {top}"


def _suit(view: View) -> str:
    """`, suit C named` where a named suit is in force over the top card's."""
    return f", suit {view.suit} named" if view.suit is not None and view.suit != view.top.suit else ""
