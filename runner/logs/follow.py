"""The table as a game log tells it, event by event: every hand, the stock, the pile, the suit and the totals.

No rules: only where the cards go (a play leaves a hand for the pile, a draw leaves the stock
for a hand, a reshuffle makes the pile a stock), so it follows any log the runner writes,
events of new rules included (`more` cards of one play, `give`, `swap`, `pass_hands`, `out`).
An event it does not know moves nothing. The replay viewer (runner/web/replay.py) shows this
picture face up; a seat's narration (runner/logs/narration.py) takes from it only what that
seat may know.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from runner.game import events as ev


def played_cards(event: dict) -> list[str]:
    """The cards a `play` event puts on the pile, in play order (its `card`, then any `more`)."""
    return [event["card"], *event.get("more", ())]


@dataclass
class LogTable:
    """Who holds what, after the events given to `apply` so far."""

    players: list[str] = field(default_factory=list)
    hands: list[list[str]] = field(default_factory=list)
    stock: list[str] = field(default_factory=list)  # top card first
    pile: list[str] = field(default_factory=list)  # the top card last
    suit: str | None = None
    totals: list[int] = field(default_factory=list)
    round: int = 0
    deciding: bool = False
    dealer: int | None = None
    dealt: list[int] = field(default_factory=list)  # the seats dealt into this round
    out: list[int] = field(default_factory=list)  # seats out of the round (went out in play_on, or forfeited)
    gone: dict[int, str] = field(default_factory=dict)  # seats out of the match: eliminated, left or forfeit
    last_play: dict[int, str] = field(default_factory=dict)  # each seat's last card played this round
    points: list[int] = field(default_factory=list)  # the last round's points

    def apply(self, event: dict) -> None:
        """Move the cards `event` moves."""
        handler = _HANDLERS.get(event["type"])
        if handler is not None:
            handler(self, event)

    def hand(self, seat: int) -> list[str]:
        while len(self.hands) <= seat:
            self.hands.append([])
        return self.hands[seat]

    def _match_start(self, event: dict) -> None:
        self.players = [str(player) for player in event["players"]]
        self.totals = [0] * len(self.players)
        self.hands = [[] for _ in self.players]

    def _round_start(self, event: dict) -> None:
        self.round, self.deciding, self.dealer = event["round"], bool(event.get("deciding")), event["dealer"]
        self.hands = [list(hand) for hand in event["hands"]]
        self.stock, self.pile = list(event["stock"]), list(event["upcards"])
        self.suit = _suit_of(self.pile[-1]) if self.pile else None
        self.dealt = [seat for seat, hand in enumerate(self.hands) if hand]
        self.out, self.last_play, self.points = [], {}, []

    def _play(self, event: dict) -> None:
        hand, cards = self.hand(event["seat"]), played_cards(event)
        for card in cards:
            if card in hand:
                hand.remove(card)
        self.pile.extend(cards)
        self.last_play[event["seat"]] = cards[-1]
        self.suit = event.get("suit") or _suit_of(cards[-1])

    def _name_suit(self, event: dict) -> None:
        self.suit = event["suit"]

    def _draw(self, event: dict) -> None:
        cards = event["cards"]
        del self.stock[:len(cards)]
        self.hand(event["seat"]).extend(cards)

    def _reshuffle(self, event: dict) -> None:
        self.stock, self.pile = list(event["stock"]), self.pile[-1:]

    def _give(self, event: dict) -> None:
        hand = self.hand(event["seat"])
        if event["card"] in hand:
            hand.remove(event["card"])
        self.hand(event["to"]).append(event["card"])

    def _swap(self, event: dict) -> None:
        seat, other = event["seat"], event["with"]
        self.hand(max(seat, other))
        self.hands[seat], self.hands[other] = self.hands[other], self.hands[seat]

    def _pass_hands(self, event: dict) -> None:
        """Every seat in the round passes its hand to the next one in `direction`."""
        seats = [seat for seat in self.dealt if seat not in self.out]
        if event.get("direction", 1) < 0:
            seats.reverse()
        moved = [self.hands[seat] for seat in seats]
        for index, seat in enumerate(seats):
            self.hands[seat] = moved[index - 1]

    def _out(self, event: dict) -> None:
        self.out.append(event["seat"])

    def _forfeit(self, event: dict) -> None:
        self.out.append(event["seat"])
        self.gone[event["seat"]] = "forfeit"

    def _round_end(self, event: dict) -> None:
        self.totals, self.points = list(event["totals"]), list(event["points"])

    def _join(self, event: dict) -> None:
        self.players.append(str(event["player"]))
        self.totals.append(event["total"])
        self.hand(event["seat"])

    def _eliminated(self, event: dict) -> None:
        self.gone[event["seat"]] = "eliminated"

    def _leave(self, event: dict) -> None:
        self.gone[event["seat"]] = "left"


def _suit_of(card: str) -> str:
    return card[-1]


_HANDLERS = {
    ev.MATCH_START: LogTable._match_start, ev.ROUND_START: LogTable._round_start, ev.PLAY: LogTable._play,
    ev.NAME_SUIT: LogTable._name_suit, ev.DRAW: LogTable._draw, ev.RESHUFFLE: LogTable._reshuffle,
    ev.GIVE: LogTable._give, ev.SWAP: LogTable._swap, ev.PASS_HANDS: LogTable._pass_hands, ev.OUT: LogTable._out,
    ev.FORFEIT: LogTable._forfeit, ev.ROUND_END: LogTable._round_end, ev.JOIN: LogTable._join,
    ev.ELIMINATED: LogTable._eliminated, ev.LEAVE: LogTable._leave,
}
