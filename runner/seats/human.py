"""A human seat: the person at the terminal follows the match as it is played and picks each move by number.

The match is narrated from its game log as it is written (`HumanSeat.feed()`, the log the match
keeps), in what this seat may know: the upcard when a round starts, every play, the count of
the others' draws and the cards of its own, and at the end of a round who went out and with
which card, every hand left with its points, and the totals, before the next deal; then
eliminations, players who join or leave, and forfeits. On its turn it shows the table, its
hand sorted by suit and rank, and the legal moves, numbered.
"""

from __future__ import annotations

import random
import sys
from typing import Sequence, TextIO

from runner.game import events as ev
from runner.game.actions import Action, Challenge, Draw, NameSuit, Pass, Play
from runner.game.bot import Bot
from runner.game.cards import SUIT_NAMES, parse_card
from runner.game.view import View
from runner.words import counted

QUIT_WORDS = ("q", "quit", "exit")
DRAW_REASONS = {ev.SEVEN: " (penalty)", ev.PENALTY: " (missed announcement)", ev.ACE: " (instead of following the Ace)",
                ev.OTHERS: " (an Ace's power)"}


class HumanQuit(KeyboardInterrupt):
    """The person left the match (typed q, or the input ended).

    A KeyboardInterrupt, so that the referee lets it through like Ctrl-C instead of taking it
    for a bot's fault.
    """

    def __init__(self, message: str, input_ended: bool = False):
        super().__init__(message)
        self.input_ended = input_ended


class EventFeed(list):
    """A game log that hands each event to `listener` as it is written (the engine and the match append to it)."""

    def __init__(self, listener):
        super().__init__()
        self.listener = listener

    def append(self, event: dict) -> None:
        super().append(event)
        self.listener(event)


class HumanSeat(Bot):
    """Narrates the match on `output` and reads a move number (or Enter between rounds) from `input`."""

    name = "human"
    description = "The person at the terminal (maumau play --human)."

    def __init__(self, rng: random.Random | None = None, names: Sequence[str] = (), input: TextIO | None = None,
                 output: TextIO | None = None, seat: int | None = None, **options):
        super().__init__(rng, **options)
        self.names = list(names)
        self.input, self.output = input, output
        self.seat = seat
        self.hands: list[list[str]] = []  # every hand as the log shows it: shown only once the round is over
        self.dealt: list[int] = []  # the seats dealt into this round
        self.gone: set[int] = set()  # seats that forfeited
        self.last_play: dict[int, str] = {}  # the card each seat played last this round
        self.drew_last: int | None = None  # the seat whose draw was the last event: its pass keeps the card
        self.rounds_shown = 0
        self.deciding = False

    def feed(self) -> EventFeed:
        """The log to give the match: each event is narrated as it is written."""
        return EventFeed(self.on_event)

    def act(self, view: View) -> Action:
        self.seat = view.seat
        legal = ordered(view.legal)
        self.show(view, legal)
        return self.ask(legal)

    # ------------------------------------------------------------------ display

    def say(self, text: str = "") -> None:
        print(text, file=self.output or sys.stdout, flush=True)

    def prompt(self, text: str) -> str:
        """Ask and read a line; at a terminal the answer is typed after the question, on its line."""
        stream = self.input or sys.stdin
        at_terminal = stream.isatty() and (self.output or sys.stdout).isatty()
        print(text, file=self.output or sys.stdout, end="" if at_terminal else "\n", flush=True)
        line = stream.readline()
        if not line:
            raise HumanQuit("the input ended: the human seat left the match", input_ended=True)
        if line.strip().lower() in QUIT_WORDS:
            raise HumanQuit("you left the match")
        return line

    def who(self, seat: int) -> str:
        if seat == self.seat:
            return "you"
        return f"{self.names[seat] if seat < len(self.names) else 'seat'}#{seat}"

    def show(self, view: View, legal: Sequence[Action]) -> None:
        """The table, our hand and the legal moves, numbered."""
        suit = SUIT_NAMES[view.suit]
        pending = f"   draw penalty waiting: {view.pending}" if view.pending else ""
        self.say(f"\ntop card: {view.top}   suit to follow: {suit}{pending}   stock: {view.stock_size}")
        others = [s for s in view.active if s != view.seat]
        self.say("players: " + "   ".join(
            f"{self.who(s)} {counted(view.hand_sizes[s], 'card')} (total {view.totals[s]})" for s in others
        ))
        self.say(f"your hand: {' '.join(str(card) for card in sorted(view.hand))}   (your total "
                 f"{view.totals[view.seat]})")
        if view.phase == "drawn":
            self.say(f"the card you drew, {view.hand[-1]}, can be played: play it or keep it")
        elif view.phase == "name_suit":
            self.say("a Jack was turned up: as the dealer, name the suit to follow")
        elif view.phase == "challenge":
            self.say("the last player missed an announcement: challenge it?")
        for number, action in enumerate(legal, 1):
            self.say(f"  {number:>2}) {label(action, view)}")

    # ------------------------------------------------------------------ the match as it is played

    def on_event(self, event: dict) -> None:
        """Narrate one event of the game log, telling only what this seat may know."""
        kind = event["type"]
        if kind == ev.ROUND_START:
            self._round_start(event)
        elif kind == ev.ROUND_END:
            self._round_end(event)
        elif kind == ev.JOIN:
            self.names.append(event["player"])
            self.say(f"{event['player']} joins as seat {event['seat']}, with a total of {event['total']}")
        elif kind == ev.ELIMINATED:
            self.say(f"{self.who(event['seat'])} {'are' if event['seat'] == self.seat else 'is'} eliminated, "
                     f"with a total of {event['total']}")
        elif kind == ev.LEAVE:
            self.say(f"{self.who(event['seat'])} left the table")
        elif kind in (ev.PLAY, ev.DRAW):
            self._move(event)
        elif kind == ev.PASS:
            kept = event["seat"] == self.drew_last
            what = "kept the drawn card" if kept else "let the missed announcement go"
            self.say(f"  {self.who(event['seat'])} {what}")
        elif kind not in (ev.MATCH_START, ev.MATCH_END):
            if kind == ev.FORFEIT:
                self.gone.add(event["seat"])
            self.say(f"  {event_words(event, self.who)}")
        self.drew_last = event.get("seat") if kind == ev.DRAW else None

    def _round_start(self, event: dict) -> None:
        if self.rounds_shown:
            self.pause("press Enter for the next deal")
        self.hands = [list(hand) for hand in event["hands"]]
        self.last_play = {}
        self.dealt = seated = [seat for seat, hand in enumerate(self.hands) if hand]
        self.deciding = bool(event.get("deciding"))
        kind = "deciding round" if event.get("deciding") else "round"
        self.say(f"\n=== {kind} {event['round']} === {self.who(event['dealer'])} "
                 f"{'deal' if event['dealer'] == self.seat else 'deals'}, {self.who(event['first'])} "
                 f"{'lead' if event['first'] == self.seat else 'leads'}"
                 + (f"; between {', '.join(self.who(s) for s in seated)} only" if event.get("deciding") else ""))
        upcards = event["upcards"]
        turned = f" (turned up over {' '.join(upcards[:-1])})" if len(upcards) > 1 else ""
        self.say(f"upcard: {upcards[-1]}{turned}")

    def _move(self, event: dict) -> None:
        seat = event["seat"]
        hand = self.hands[seat] if seat < len(self.hands) else []
        if event["type"] == ev.PLAY:
            if event["card"] in hand:
                hand.remove(event["card"])
            self.last_play[seat] = event["card"]
            self.say(f"  {self.who(seat)} {play_words('played', event['card'], event['suit'], event['announce'])}")
            return
        hand.extend(event["cards"])
        why = DRAW_REASONS.get(event["reason"], "")
        if seat == self.seat:  # our own cards we may know
            self.say(f"  you drew {' '.join(event['cards']) or 'nothing (the stock is empty)'}{why}")
        else:
            count = len(event["cards"])
            self.say(f"  {self.who(seat)} drew {'a card' if count == 1 else counted(count, 'card')}{why}")

    def _round_end(self, event: dict) -> None:
        """Who went out and with which card, every hand left and its points, and the totals."""
        self.rounds_shown += 1
        winner = event["winner"]
        if winner is None:
            self.say(f"round {event['round']} is blocked: nobody can play or draw; every hand counts")
        else:
            card = self.last_play.get(winner)
            went = "went" if winner != self.seat else "go"
            self.say(f"round {event['round']}: {self.who(winner)} {went} out" + (f" with {card}" if card else ""))
        points, totals = event["points"], event["totals"]
        self.say("hands left" + (" (a deciding round: its points are not added):" if self.deciding else ":"))
        for seat in self.dealt:
            if seat == winner or seat in self.gone:
                continue
            cards = " ".join(str(card) for card in sorted(parse_card(text) for text in self.hands[seat])) or "-"
            self.say(f"  {self.who(seat):<12} {cards:<30} {counted(points[seat], 'point'):>10}")
        shown = [f"{self.who(s)} {totals[s]}" for s in range(len(totals)) if s not in self.gone]
        self.say("totals: " + "   ".join(shown))

    # ------------------------------------------------------------------ input

    def pause(self, prompt: str) -> None:
        """Wait for Enter (q quits)."""
        self.say()
        self.prompt(f"{prompt} (q quits): ")

    def ask(self, legal: Sequence[Action]) -> Action:
        """Read lines until one names a legal action by number; q quits."""
        while True:
            line = self.prompt(f"your move [1-{len(legal)}, q to quit]: ")
            text = line.strip()
            if text.isdigit() and 1 <= int(text) <= len(legal):
                return legal[int(text) - 1]
            self.say(f"{line.strip()!r} is not a move: type a number from 1 to {len(legal)}, or q to quit")


def ordered(legal: Sequence[Action]) -> list[Action]:
    """The legal actions as the person sees them: plays in the order of the sorted hand (suit, rank), then the rest."""
    plays = sorted((action for action in legal if isinstance(action, Play)), key=lambda play: play.card)
    return plays + [action for action in legal if not isinstance(action, Play)]


def label(action: Action, view: View | None = None) -> str:
    """An action in words, e.g. `play JD, naming spades, saying "mau"`, or `draw 2 (penalty)`."""
    if isinstance(action, Play):
        return play_words("play", action.card, action.suit, action.announce)
    if isinstance(action, Draw):
        if view is not None and view.pending:
            return f"draw {view.pending} (penalty)"
        if view is not None and view.again:
            return "draw a card (instead of following the Ace)"
        return "draw a card"
    if isinstance(action, Pass):
        return "let it go" if view is not None and view.phase == "challenge" else "keep the card and end the turn"
    if isinstance(action, NameSuit):
        return f"name {SUIT_NAMES[action.suit]}"
    if isinstance(action, Challenge):
        return "challenge"
    return str(action)


def play_words(verb: str, card, suit: str | None, announce: str | None) -> str:
    """`play JD, naming spades, saying "mau"` (or `played ...`)."""
    text = f"{verb} {card}"
    if suit:
        text += f", naming {SUIT_NAMES[suit]}"
    if announce:
        text += f', saying "{announce}"'
    return text


def event_words(event: dict, who) -> str:
    """One log event other than a play or a draw in words."""
    kind, seat = event["type"], event.get("seat")
    if kind == ev.SKIP:
        return f"{who(seat)} {'are' if who(seat) == 'you' else 'is'} skipped"
    if kind == ev.NAME_SUIT:
        return f"{who(seat)} named {SUIT_NAMES[event['suit']]}"
    if kind == ev.RESHUFFLE:
        return f"the discard pile was shuffled into a new stock of {counted(len(event['stock']), 'card')}"
    if kind == ev.CHALLENGE:
        return f"{who(seat)} challenged {who(event['target'])}"
    if kind == ev.FAULT:
        return f"{who(seat)} committed a fault ({event['kind']}): {event['detail']}"
    if kind == ev.FORFEIT:
        return f"{who(seat)} forfeited the match"
    return f"{who(seat)}: {kind}"
