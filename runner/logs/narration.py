"""The game in words for people, the one place both the terminal and the browser take their texts from.

- `action_text`: a legal action as a move to choose (`play JD, naming spades, saying "mau"`, `draw 2 (penalty)`).
- `Narrator`: a match told to one seat from its game log as it is written, in what that seat
  may know: the upcard, every play, the count of the others' draws and the cards of its own,
  and at the end of a round who went out with which card, every hand left with its points
  (`RoundReport`) and the totals; then eliminations, joins, leaves and forfeits.
- `event_line`: one log event face up, every card named, a fault with its traceback (`maumau replay`, the
  replay viewer).

An action or event of a kind this module does not know is told by its own `str()` or its
fields, so a new rule's moves are shown (plainly) before anyone words them here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

from runner.game import events as ev
from runner.game.actions import Action, Challenge, Draw, Give, NameSuit, Pass, Play, Swap
from runner.game.cards import COLOUR_NAMES, SUIT_NAMES, parse_card
from runner.game.view import View
from runner.words import counted

from .follow import LogTable, played_cards

DRAW_REASONS = {ev.SEVEN: " (penalty)", ev.PENALTY: " (missed announcement)", ev.ACE: " (instead of following the Ace)",
                ev.OTHERS: " (a card that makes the others draw)", ev.AGAIN: " (instead of playing again)",
                ev.SELF: " (the card's own draw)", ev.FALSE_CALL: " (a call that was not due)"}

# Why a seat draws, in words, by what the card did, whichever card gave the power (a 7, a black Jack's 5):
# `maumau replay` and the replay viewer. The narration to one seat adds the parentheses (DRAW_REASONS).
REASON_WORDS = {ev.SEVEN: "a draw penalty", ev.PENALTY: "a missed announcement",
                ev.ACE: "instead of following the Ace", ev.OTHERS: "a card that makes the others draw",
                ev.AGAIN: "instead of playing again", ev.SELF: "the card's own draw",
                ev.FALSE_CALL: "a call that was not due", ev.STUCK: "cannot play", ev.CHOICE: "by choice"}

Who = Callable[[int], str]


class PowerWords:
    """What a play's cards do that no event of their own tells (a reverse), read from the log as it is followed:
    the rules of its `match_start`, the table size of each `round_start`. Draws, skips, swaps and the like have
    events of their own, told as such."""

    def __init__(self) -> None:
        self.rules = None  # the match's Ruleset; None for rules this version cannot read (then nothing is added)
        self.players: int | None = None

    def see(self, event: dict) -> None:
        kind = event["type"]
        if kind == ev.MATCH_START:
            from runner.errors import MaumauError
            from runner.rules import ruleset_of

            try:
                self.rules = ruleset_of(dict(event["rules"]), "the log's rules")
            except (MaumauError, KeyError, TypeError, ValueError):
                self.rules = None
        elif kind == ev.ROUND_START:
            self.players = sum(1 for hand in event.get("hands", ()) if hand) or None

    def of_play(self, event: dict) -> str:
        """`, reversing the direction of play` for a play whose power reverses it ('' for any other)."""
        rules = self.rules
        if rules is None:
            return ""
        try:
            cards = [parse_card(text) for text in played_cards(event)]
        except (KeyError, ValueError):
            return ""
        applied = cards if rules.multiple.power == "each" else cards[-1:]
        turns = sum(1 for card in applied if rules.power_of(card, self.players).reverse)
        if not turns:
            return ""
        if turns % 2:
            return ", reversing the direction of play"
        return f", reversing it {counted(turns, 'time')} (the direction stays)"


def suit_name(suit: str) -> str:
    return SUIT_NAMES.get(suit) or COLOUR_NAMES.get(suit, suit)


def sorted_cards(cards: Iterable[str]) -> list[str]:
    """Card texts in the order of a sorted hand: by suit, then rank."""
    return [card.text for card in sorted(parse_card(text) for text in cards)]


def action_cards(action: object) -> tuple[str, ...]:
    """The cards an action puts down, first card first (a play of several cards names them all)."""
    cards = getattr(action, "cards", None)
    if cards is None:
        card = getattr(action, "card", None)
        cards = (card,) if card is not None else ()
    return tuple(str(card) for card in cards)


def play_words(verb: str, cards: Sequence[str], suit: str | None, announce: str | None, rank: str | None = None) -> str:
    """`play JD, naming spades, saying "mau"` (or `played ...`); several cards are named in play order."""
    text = f"{verb} {' '.join(cards)}"
    if suit:
        text += f", naming {suit_name(suit)}"
    if rank:
        text += f", wishing for {rank}"
    if announce:
        text += f', saying "{announce}"'
    return text


def ordered_actions(legal: Sequence[Action]) -> list[Action]:
    """The legal actions as a person sees them: plays in the order of a sorted hand (suit, rank), then the rest."""
    plays = sorted((action for action in legal if isinstance(action, Play)), key=lambda play: play.card)
    return plays + [action for action in legal if not isinstance(action, Play)]


def phase_text(view: View, who: Who | None = None) -> str | None:
    """What the seat to act is asked, beyond its usual turn (None for a plain turn)."""
    resume = view.resume
    if view.phase == "drawn":
        if view.ruleset.drawing.drawn_card == "go_on":
            return f"you drew {view.hand[-1]}: play on, or end the turn"
        if view.ruleset.drawing.drawn_card == "must_play":
            return f"the card you drew, {view.hand[-1]}, can be played: it must be"
        return f"the card you drew, {view.hand[-1]}, can be played: play it or keep it"
    if view.phase == "name_suit":
        return f"a wild card, {view.top}, was turned up: as the dealer, name the suit to follow"
    if view.phase == "challenge":
        return "the last player missed an announcement: challenge it?"
    if view.phase == "swap" and resume is not None:
        return f"your {resume.cards[resume.position]} swaps hands: choose whose hand you take"
    if view.phase == "give" and resume is not None:
        cards = counted(resume.give_left, "card") if resume.give_left > 1 else "a card"
        return f"your {resume.cards[resume.position]} gives {cards} to the next player: choose which"
    if view.phase == "jump_in" and resume is not None:
        player = who(resume.seat) if who is not None else f"seat {resume.seat}"
        return f"{player} played {view.top}: you may jump in out of turn"
    if view.pending:
        return f"a draw penalty of {view.pending} is waiting for you"
    if view.pending_skip:
        return f"a skip is waiting for you ({counted(view.pending_skip, 'turn')} to miss): answer it or take it"
    if view.again:
        return "you play again"
    return None


PASS_TEXTS = {  # what a Pass does, by phase
    "drawn": "keep the card and end the turn",
    "challenge": "let it go",
    "jump_in": "do not jump in",
    "play": "take the skip",  # a Pass in a plain turn: the seat facing a pending skip takes it
}


def action_text(action: Action, view: View | None = None, who: Who | None = None) -> str:
    """A legal action in words, e.g. `play JD, naming spades, saying "mau"`, or `draw 2 (penalty)`."""
    phase = view.phase if view is not None else "drawn"
    if isinstance(action, Play):
        verb = "jump in with" if phase == "jump_in" else "play"
        return play_words(verb, action_cards(action), action.suit, action.announce, action.rank)
    if isinstance(action, Draw):
        if view is not None and view.pending:
            return f"draw {view.pending} (penalty)"
        if view is not None and view.again:  # the extra turn of a play-again card (the Ace in elimination)
            if view.top.rank == "A":
                return "draw a card (instead of following the Ace)"
            return f"draw a card (instead of playing again on {view.top})"
        if view is not None and view.ruleset.drawing.until_playable:
            return "draw until a card fits"
        return "draw a card"
    if isinstance(action, Pass):
        return PASS_TEXTS.get(phase, "pass")
    if isinstance(action, NameSuit):
        return f"name {suit_name(action.suit)}"
    if isinstance(action, Challenge):
        return "challenge"
    if isinstance(action, Swap):
        return f"swap hands with {who(action.seat) if who is not None else f'seat {action.seat}'}"
    if isinstance(action, Give):
        return f"give {action.card}"
    return str(action)  # an action this module does not know yet, plainly


# ---------------------------------------------------------------------- one seat's narration


@dataclass(frozen=True)
class HandLeft:
    """A hand still held when a round ended, and its points."""

    seat: int
    cards: tuple[str, ...]  # sorted
    points: int


@dataclass(frozen=True)
class RoundReport:
    """How a round ended: who went out with which card, every hand left with its points, the totals."""

    number: int
    deciding: bool
    winner: int | None  # None: blocked, nobody went out
    card: str | None  # the winner's last card
    hands: tuple[HandLeft, ...]
    totals: tuple[int, ...]
    gone: tuple[int, ...]  # seats no longer in the match (left out of the totals)

    def lines(self, who: Who) -> list[str]:
        if self.winner is None:
            head = f"round {self.number} is blocked: nobody can play or draw; every hand counts"
        else:
            went = "go" if who(self.winner) == "you" else "went"
            head = f"round {self.number}: {who(self.winner)} {went} out" + (f" with {self.card}" if self.card else "")
        lines = [head, "hands left" + (" (a deciding round: its points are not added):" if self.deciding else ":")]
        for hand in self.hands:
            cards = " ".join(hand.cards) or "-"
            lines.append(f"  {who(hand.seat):<12} {cards:<30} {counted(hand.points, 'point'):>10}")
        totals = [f"{who(s)} {total}" for s, total in enumerate(self.totals) if s not in self.gone]
        lines.append("totals: " + "   ".join(totals))
        return lines


class Narrator:
    """Tells one seat a match from its game log, event by event, only what that seat may know.

    It follows every card (`LogTable`) to name the card a seat went out with and the hands left
    when a round ends, which the rules show everyone then; before that it names only the seat's
    own cards, the cards played and the suits named.
    """

    def __init__(self, seat: int | None, names: Sequence[str] = ()):
        self.seat = seat
        self.table = LogTable(players=list(names))
        self.report: RoundReport | None = None  # the last round's end
        self._drew_last: int | None = None  # the seat whose draw was the last event: its pass keeps the card
        self.powers = PowerWords()
        self.jump_in = False  # the rules let seats jump in: a pass that keeps no drawn card may decline that

    def who(self, seat: int | None) -> str:
        if seat is not None and seat == self.seat:
            return "you"
        names = self.table.players
        return f"{names[seat] if seat is not None and seat < len(names) else 'seat'}#{seat}"

    def _verb(self, seat: int, plain: str, yours: str) -> str:
        return yours if seat == self.seat else plain

    def tell(self, event: dict) -> list[str]:
        """The lines that tell `event` to this seat (none for what it may not know or need not hear)."""
        kind = event["type"]
        self.table.apply(event)
        self.powers.see(event)
        seat = event.get("seat")
        drew_last, self._drew_last = self._drew_last, seat if kind == ev.DRAW else None
        if kind == ev.ROUND_END:
            return self._round_end(event)
        if kind == ev.ROUND_START:
            self.report = None
            return self._round_start(event)
        if kind == ev.PLAY:
            line = play_words("played", played_cards(event), event.get("suit"), event.get("announce"),
                              event.get("rank"))
            line += self.powers.of_play(event)
            return [f"  {self.who(seat)} {'jumped in and ' if event.get('jump_in') else ''}{line}"]
        if kind == ev.DRAW:
            return [self._draw(event)]
        if kind == ev.PASS:
            if seat == drew_last:
                return [f"  {self.who(seat)} kept the drawn card"]
            if self.jump_in:  # maybe a seat declining to jump in: that it was asked shows it holds such a card
                return ["  you did not jump in"] if seat == self.seat else []
            return [f"  {self.who(seat)} let the missed announcement go"]
        if kind == ev.JOIN:
            return [f"{event['player']} joins as seat {seat}, with a total of {event['total']}"]
        if kind == ev.ELIMINATED:
            return [f"{self.who(seat)} {self._verb(seat, 'is', 'are')} eliminated, with a total of {event['total']}"]
        if kind == ev.LEAVE:
            return [f"{self.who(seat)} left the table"]
        if kind == ev.MATCH_END:
            return [self._match_end(event)]
        if kind == ev.MATCH_START:
            self.jump_in = event["rules"].get("jump_in", "none") != "none"
            return []
        return [f"  {self._other(event)}"]

    def _round_start(self, event: dict) -> list[str]:
        who, kind = self.who, "deciding round" if event.get("deciding") else "round"
        dealer, first = event["dealer"], event["first"]
        seated = self.table.dealt
        line = (f"=== {kind} {event['round']} === {who(dealer)} {self._verb(dealer, 'deals', 'deal')}, "
                f"{who(first)} {self._verb(first, 'leads', 'lead')}"
                + (f"; between {', '.join(who(s) for s in seated)} only" if event.get("deciding") else ""))
        upcards = event["upcards"]
        turned = f" (turned up over {' '.join(upcards[:-1])})" if len(upcards) > 1 else ""
        if event.get("taken"):  # upcard.effects to_dealer: face up, so every seat saw them go
            turned += f"; {who(dealer)} {self._verb(dealer, 'takes', 'take')} {' '.join(event['taken'])} into the hand"
        return [line, f"upcard: {upcards[-1]}{turned}"]

    def _draw(self, event: dict) -> str:
        seat, cards = event["seat"], event["cards"]
        why = DRAW_REASONS.get(event["reason"], "")
        if seat == self.seat:  # our own cards we may know
            return f"  you drew {' '.join(cards) or 'nothing (the stock is empty)'}{why}"
        return f"  {self.who(seat)} drew {'a card' if len(cards) == 1 else counted(len(cards), 'card')}{why}"

    def _round_end(self, event: dict) -> list[str]:
        table, winner = self.table, event["winner"]
        hands = tuple(HandLeft(seat, tuple(sorted_cards(table.hands[seat])), event["points"][seat])
                      for seat in table.dealt if seat != winner and seat not in table.out)
        self.report = RoundReport(number=event["round"], deciding=table.deciding, winner=winner,
                                  card=table.last_play.get(winner) if winner is not None else None, hands=hands,
                                  totals=tuple(event["totals"]), gone=tuple(sorted(table.gone)))
        return self.report.lines(self.who)

    def _match_end(self, event: dict) -> str:
        winners = " and ".join(self.who(s) for s in event["winners"])
        order = ", ".join(self.who(s) for s in event["ranking"])
        won = "win" if event["winners"] == [self.seat] else ("wins" if len(event["winners"]) == 1 else "share the win")
        return f"the match is over: {winners} {won}; ranking {order}"

    def _other(self, event: dict) -> str:
        """Any other event in words: what this seat may know of it."""
        kind, seat, who = event["type"], event.get("seat"), self.who
        if kind == ev.SKIP:
            return f"{who(seat)} {self._verb(seat, 'is', 'are')} skipped"
        if kind == ev.NAME_SUIT:
            return f"{who(seat)} named {suit_name(event['suit'])}"
        if kind == ev.RESHUFFLE:
            return f"the discard pile was shuffled into a new stock of {counted(len(event['stock']), 'card')}"
        if kind == ev.CHALLENGE:
            return f"{who(seat)} challenged {who(event['target'])}"
        if kind == ev.FAULT:
            return f"{who(seat)} committed a fault ({event['kind']}): {event['detail']}"
        if kind == ev.FORFEIT:
            return f"{who(seat)} forfeited the match"
        if kind == ev.GIVE:  # the card given is known to the giver and the taker only
            known = self.seat in (seat, event["to"])
            card = event['card'] if known else 'a card'
            if event.get("taken"):
                return f"{who(event['to'])} took {card} unseen from {who(seat)}"
            return f"{who(seat)} gave {card} to {who(event['to'])}"
        if kind == ev.SWAP:
            return f"{who(seat)} swapped hands with {who(event['with'])}"
        if kind == ev.PASS_HANDS:
            return "every player passed their hand on"
        if kind == ev.SHOW:
            return f"{who(seat)} showed {' '.join(event['cards'])}"
        if kind == ev.OUT:
            return f"{who(seat)} {self._verb(seat, 'went', 'go')} out, in place {event['place']}"
        return f"{who(seat)}: {kind}"  # a new kind of event: named, its hidden fields never told


# ---------------------------------------------------------------------- every event face up


def cards_text(items) -> str:
    return " ".join(items) if items else "-"


def indented(traceback: str, margin: str = "    ") -> list[str]:
    """A fault's traceback (the bot's files and lines) as lines under the fault's own."""
    return [margin + line for line in traceback.splitlines()]


ONE_LINERS = {  # events whose line is their own fields
    ev.NAME_SUIT: "  {who} names {suit}",
    ev.PASS: "  {who} keeps the drawn card and passes",
    ev.SKIP: "  {who} is skipped",
    ev.FORFEIT: "  {who} forfeits",
    ev.LEAVE: "  {who} leaves",
    ev.FAULT: "  FAULT {who} ({kind}): {detail}",
    ev.ELIMINATED: "{who} is eliminated with {total}",
    ev.JOIN: "{player} joins as seat {seat} with {total}",
}


def event_line(event: dict, players: list[str], powers: PowerWords | None = None) -> str:
    """One readable line for one log event, every card named; `players` names each seat. With `powers`, given
    every event of the log in order, a play says what its card does that no event tells (a reverse)."""
    kind = event["type"]
    if powers is not None:
        powers.see(event)

    def who(seat: int | None) -> str:
        return players[seat] if seat is not None and seat < len(players) else f"seat {seat}"

    if kind == ev.MATCH_START:
        limit = f", to {event['limit']}" if event.get("limit") is not None else ""
        seats = ", ".join(f"seat {s} {who(s)}" for s in range(len(event["players"])))
        return f"match {event['match']}: {event['ruleset']}{limit}, seed {event['seed']}; {seats}"
    if kind == ev.ROUND_START:
        hands = "; ".join(f"{who(s)}: {cards_text(h)}" for s, h in enumerate(event["hands"]) if h)
        label = "deciding round" if event.get("deciding") else "round"
        return (f"{label} {event['round']}: {who(event['dealer'])} deals, {who(event['first'])} leads; "
                f"upcard {cards_text(event['upcards'])}; hands {hands}; stock {counted(len(event['stock']), 'card')}"
                + (f"; the dealer took {cards_text(event['taken'])}" if event.get("taken") else ""))
    if kind == ev.PLAY:
        extra = (f" naming {event['suit']}" if event.get("suit") else "") + (
            f" wishing {event['rank']}" if event.get("rank") else "") + (
            f", says {event['announce']}" if event.get("announce") else "")
        verb = "jumps in with" if event.get("jump_in") else "plays"
        does = powers.of_play(event) if powers is not None else ""
        return f"  {who(event['seat'])} {verb} {' '.join(played_cards(event))}{extra}{does}"
    if kind == ev.GIVE:
        if event.get("taken"):
            return f"  {who(event['to'])} takes {event['card']} unseen from {who(event['seat'])}"
        return f"  {who(event['seat'])} gives {event['card']} to {who(event['to'])}"
    if kind == ev.SWAP:
        return f"  {who(event['seat'])} swaps hands with {who(event['with'])}"
    if kind == ev.SHOW:
        return f"  {who(event['seat'])} shows {cards_text(event['cards'])}"
    if kind == ev.PASS_HANDS:
        return "  every hand passes to the next player in the direction of play"
    if kind == ev.OUT:
        return f"  {who(event['seat'])} is out, in place {event['place']}"
    if kind == ev.DRAW:
        why = REASON_WORDS.get(event["reason"], event["reason"])
        return f"  {who(event['seat'])} draws {cards_text(event['cards'])} ({why})"
    if kind == ev.RESHUFFLE:
        return f"  the discards are reshuffled into a stock of {len(event['stock'])}"
    if kind == ev.ROUND_END:
        winner = who(event["winner"]) if event["winner"] is not None else "nobody (blocked)"
        return f"round {event['round']} over: {winner} went out; points {event['points']}; totals {event['totals']}"
    if kind in ONE_LINERS:
        line = ONE_LINERS[kind].format_map({**event, "who": who(event.get("seat"))})
        if kind == ev.FAULT and isinstance(event.get("traceback"), str):  # an exception's: where in the bot's code
            line = "\n".join([line, *indented(event["traceback"], "      ")])
        return line
    if kind == ev.MATCH_END:
        order = ", ".join(who(s) for s in event["ranking"])
        winners = " and ".join(who(s) for s in event["winners"])
        return f"match over: winner {winners}; ranking {order}; totals {event['totals']}"
    fields = ", ".join(f"{k}={v}" for k, v in event.items() if k != "type")
    return f"  {kind}: {fields}"
