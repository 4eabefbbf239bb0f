"""Games hosted for browsers: each a Match in a worker thread with its browser seats, joins and leaves, idle clean-up.

A game and each of its seats have an unguessable token. The match runs in its own thread with
the bots in-process; a browser seat (runner/web/seat.py) blocks that thread until its person
answers. The referee of a hosted game hands every browser seat its view before each decision
(what it may know then), and the game log is told to each seat as it is written. Between
rounds the match waits until every person at the table asks for the next round; then players
who asked to join take the next free seats with the lowest total and those who left are struck
from the score list (rulesets with `match.table_changes`, as in online Mau Mau).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import threading
import time
from dataclasses import dataclass
from typing import Callable

from runner.game import events as ev
from runner.game.engine import JUMP_IN, Round
from runner.game.ruleset import Ruleset
from runner.logs.follow import LogTable
from runner.plugins import registry
from runner.seats.faults import FaultSettings
from runner.table.match import Match, MatchResult, TableChange
from runner.table.referee import Referee

from .seat import GameStopped, WebSeat

LEVELS = ("easy", "medium", "hard")  # the level menu: every bot at the table plays at this strength
MAX_GAMES = 64  # games hosted at once: each holds a thread
IDLE_SECONDS = 30 * 60  # a game nobody looked at for this long is stopped and forgotten
SEAT_IDLE_SECONDS = 5 * 60  # at a table of several people, one who stopped looking for this long has left
FINISHED_SECONDS = 10 * 60  # a finished game stays to be looked at (and its log fetched) this long after the last look

# the events that make the public table (no cards in them: the public LogTable holds no hand)
PUBLIC_EVENTS = {ev.MATCH_START, ev.ROUND_END, ev.JOIN, ev.LEAVE, ev.ELIMINATED, ev.FORFEIT}
GONE = {ev.ELIMINATED: "eliminated", ev.LEAVE: "left", ev.FORFEIT: "forfeit"}  # a seat's status after these

log = logging.getLogger("maumau.web")


class Refused(Exception):
    """A request the game cannot carry out: `status` is the HTTP status, the message says why and what to do."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


class Changes:
    """A version number that goes up with each change, and an await for the next one, from any thread."""

    def __init__(self) -> None:
        self.version = 0
        self._lock = threading.Lock()
        self._waiters: list[tuple[asyncio.AbstractEventLoop, asyncio.Future]] = []

    def bump(self) -> None:
        with self._lock:
            self.version += 1
            waiters, self._waiters = self._waiters, []
        for loop, future in waiters:
            try:
                loop.call_soon_threadsafe(_wake, future)
            except RuntimeError:  # that loop has closed: nobody is waiting there any more
                pass

    async def wait(self, after: int, timeout: float) -> int:
        """The version, once it is past `after` or `timeout` seconds have gone by."""
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        with self._lock:
            if self.version > after:
                return self.version
            self._waiters.append((loop, future))
        try:
            await asyncio.wait_for(future, timeout)
        except asyncio.TimeoutError:
            pass
        finally:
            with self._lock:
                if (loop, future) in self._waiters:
                    self._waiters.remove((loop, future))
        return self.version


def _wake(future: asyncio.Future) -> None:
    if not future.done():
        future.set_result(None)


@dataclass(frozen=True)
class GameSpec:
    """A new game as the lobby asks for it, validated: the ruleset, the level of the bots and the table size."""

    ruleset: Ruleset
    ruleset_name: str  # a registered name, or the uploaded file's
    level: str
    players: int  # seats in all, the person's included


class _Log(list):
    """The match's game log; each event is told to the game as it is written."""

    def __init__(self, listener: Callable[[dict], None]):
        super().__init__()
        self.listener = listener

    def append(self, event: dict) -> None:
        super().append(event)
        self.listener(event)


class _Watching(Referee):
    """The referee of a hosted game: before each decision, every browser seat at the table gets its view."""

    def __init__(self, game: "HostedGame", seed: int):
        super().__init__(FaultSettings(policy="autoplay", move_time=None), seed=seed)
        self.game = game

    def decide(self, rnd: Round, seat, player: str):
        self.game.observe(rnd)
        return super().decide(rnd, seat, player)


class HostedGame:
    """One match for browsers: its thread, its seats by token, what has happened, and the requests it takes."""

    def __init__(self, spec: GameSpec, clock: Callable[[], float] = time.monotonic, seed: int | None = None):
        self.spec, self.clock = spec, clock
        self.token = secrets.token_urlsafe(18)
        self.seed = seed if seed is not None else secrets.randbits(48)
        self.lock = threading.RLock()
        self.wakeup = threading.Condition(self.lock)
        self.changes = Changes()
        self.seats: list[WebSeat] = []  # every browser seat, in the order they came (seated or not)
        self.joining: list[WebSeat] = []  # waiting for the next round
        self.status = "playing"  # playing, between (rounds), over, stopped, failed
        self.next_round = 0  # between rounds: the round to come
        self.to_act: int | None = None
        self.rounds: list[dict] = []  # the score list: each round's points and totals
        self.result: MatchResult | None = None
        self.error = ""
        self.stopping = False
        self.created = self.ended = clock()
        self.public = LogTable()  # the table as everyone may know it: players, totals, who is gone
        self.events = _Log(self._on_event)
        creator = WebSeat()
        creator.seen = self.created
        self.seats.append(creator)
        players = [WebSeat.name] + [spec.level] * (spec.players - 1)
        creator.seat_at(0, players)
        self._arriving = {0: creator}  # seat number -> the browser seat the match is about to make
        bot_class = registry().bot(spec.level).cls
        self.bot_class = bot_class
        self.match = Match(spec.ruleset, players, self.seed, self._make_bot, match_id=f"web-{self.seed}",
                           referee=_Watching(self, self.seed), log=self.events, ruleset_name=spec.ruleset_name,
                           between_rounds=self._between_rounds)
        self.thread = threading.Thread(target=self._run, name=f"maumau-game-{self.token[:6]}", daemon=True)

    @property
    def creator(self) -> WebSeat:
        return self.seats[0]

    def start(self) -> None:
        self.thread.start()

    # ------------------------------------------------------------------ the match's thread

    def _make_bot(self, player: str, seat: int, rng):
        arriving = self._arriving.pop(seat, None)
        if arriving is not None:
            arriving.rng = rng
            return arriving
        return self.bot_class(rng=rng)

    def _run(self) -> None:
        try:
            result = self.match.run()
            with self.lock:
                self.result, self.status = result, "over"
        except GameStopped:
            with self.lock:
                self.status = "stopped"
        except Exception as exc:  # a bug: the players see that the game failed; the server's log has the traceback
            log.exception("game %s failed", self.token[:6])
            with self.lock:
                self.status, self.error = "failed", f"the game failed: {type(exc).__name__}: {exc}"
        finally:
            with self.lock:
                self.ended = self.clock()
                for seat in self.seats:
                    seat.moves = []
            self.changes.bump()

    def _on_event(self, event: dict) -> None:
        """Each event of the log as it is written: told to every browser seat; table changes and scores noted."""
        with self.lock:
            if self.stopping:
                raise GameStopped("the game was stopped")
            kind = event["type"]
            if kind in PUBLIC_EVENTS:
                self.public.apply(event)
            for seat in self.seats:
                seat.hear(event)
                if seat.seat is not None and event.get("seat") == seat.seat and kind in GONE:
                    seat.status = GONE[kind]
            if kind == ev.ROUND_END:
                self.rounds.append({"round": event["round"], "winner": event["winner"], "points": event["points"],
                                    "totals": event["totals"]})
        self.changes.bump()

    def observe(self, rnd: Round) -> None:
        """Before each decision: every browser seat in the round gets its view; the one to act is asked."""
        with self.lock:
            if self.stopping:
                raise GameStopped("the game was stopped")
            # A seat asked to jump in is asked out of the others' sight: the engine asks only seats holding a card
            # that may jump in, so the others' tables stay as they were (the player who played still to act).
            out_of_sight = rnd.phase == JUMP_IN
            if not out_of_sight:
                self.to_act = rnd.current
            for seat in self.seats:
                if seat.seat is None or seat.seat not in rnd.active or seat.seat in rnd.out:
                    continue
                if seat.seat == rnd.current:
                    view = rnd.view()
                    seat.view = view
                    if not seat.leaving:
                        seat.ask(view)
                elif not out_of_sight:
                    seat.view = rnd.view(seat.seat)
        self.changes.bump()

    def _between_rounds(self, number: int) -> list[TableChange]:
        """Wait until every person at the table asks for round `number`; then the joins and leaves meanwhile."""
        with self.lock:
            self.status, self.next_round, self.to_act = "between", number, None
            for seat in self._seated():
                seat.ready = seat.leaving
            self.changes.bump()
            while not self.stopping and not all(seat.ready or seat.leaving for seat in self._seated()):
                self.wakeup.wait()
            if self.stopping:
                raise GameStopped("the game was stopped")
            changes = [TableChange(number, "leave", seat=seat.seat) for seat in self._seated() if seat.leaving]
            seat_number = len(self.match.table.players)
            for seat in self.joining:
                seat.seat_at(seat_number, told=self.events)
                self._arriving[seat_number] = seat
                changes.append(TableChange(number, "join", player=WebSeat.name))
                seat_number += 1
            self.joining = []
            self.status = "playing"
        self.changes.bump()
        return changes

    def _seated(self) -> list[WebSeat]:
        """The browser seats still in the match (not waiting to join, not gone)."""
        seated = set(self.match.table.seated())
        return [seat for seat in self.seats
                if seat.seat is not None and seat.seat in seated and seat.status == "playing"]

    # ------------------------------------------------------------------ requests

    def seat(self, token: str) -> WebSeat | None:
        return next((seat for seat in self.seats if secrets.compare_digest(seat.token, token)), None)

    @property
    def finished(self) -> bool:
        return self.status in ("over", "stopped", "failed")

    def answer(self, seat: WebSeat, turn: int, move: int) -> None:
        """The person's move `move` (an index into the moves shown) for their decision number `turn`."""
        with self.lock:
            if not seat.moves or turn != seat.turn:
                raise Refused(409, "it is not your turn now (the page was out of date: it shows the table as it is)")
            if not 0 <= move < len(seat.moves):
                raise Refused(400, f"move must be a number from 0 to {len(seat.moves) - 1}, got {move}")
            seat.answer(move)
            seat.seen = self.clock()
        self.changes.bump()

    def ready(self, seat: WebSeat) -> None:
        """The person asks for the next round."""
        with self.lock:
            if self.status != "between":
                raise Refused(409, "the round is not over: there is no next round to start yet")
            seat.ready = True
            self.wakeup.notify_all()
        self.changes.bump()

    def join(self) -> WebSeat:
        """A new browser seat, to join at the start of the next round with the lowest total."""
        rules = self.spec.ruleset
        with self.lock:
            if not rules.match.table_changes:
                raise Refused(409, f"ruleset {self.spec.ruleset_name!r} does not let players join a running match "
                                   "(match.table_changes: false); start a game of your own")
            if self.finished:
                raise Refused(410, "this match is over; start a game of your own")
            seated = len(self.match.table.seated()) - sum(1 for seat in self._seated() if seat.leaving)
            if seated + len(self.joining) >= rules.players.max:
                raise Refused(409, f"the table is full ({rules.players.max} players at most under {rules.name!r})")
            seat = WebSeat()
            seat.status, seat.seen = "waiting", self.clock()
            self.seats.append(seat)
            self.joining.append(seat)
        self.changes.bump()
        return seat

    def leave(self, seat: WebSeat) -> None:
        """The person leaves: struck from the score list before the next round (its turns till then at random);
        under a ruleset without table changes, or as the last person at the table, the game stops."""
        with self.lock:
            if seat.status == "waiting":
                self.joining.remove(seat)
                seat.status = "left"
            elif not self.finished and seat.status == "playing":
                seat.leaving = True
                seat.give_up_turn()
                self.wakeup.notify_all()
            staying = [other for other in self._seated() if not other.leaving] + self.joining
            if not self.finished and (not self.spec.ruleset.match.table_changes or not staying):
                self._stop()
        self.changes.bump()

    def stop(self) -> None:
        with self.lock:
            self._stop()
        self.changes.bump()

    def _stop(self) -> None:
        if self.finished:
            return
        self.stopping = True
        for seat in self.seats:
            seat.stop()
        self.wakeup.notify_all()

    def log_lines(self) -> list[dict]:
        """The game log, once the match is over (before, it would show the hands)."""
        with self.lock:
            if self.status != "over":
                raise Refused(409, "the game log is shown once the match is over: it holds every hand")
            return list(self.events)

    def last_seen(self) -> float:
        return max(seat.seen for seat in self.seats)


class Games:
    """The hosted games by token, with the clean-up of idle ones."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, max_games: int = MAX_GAMES,
                 seeds: Callable[[], int] | None = None):
        """`seeds` gives each new game its seed (default: a random one; tests give their own)."""
        self.clock, self.max_games, self.seeds = clock, max_games, seeds
        self.games: dict[str, HostedGame] = {}
        self.lock = threading.Lock()
        self.closing = False  # the server is stopping: pages waiting for news are answered at once

    def new(self, spec: GameSpec) -> HostedGame:
        with self.lock:
            self._sweep_locked()
            if len(self.games) >= self.max_games:
                raise Refused(503, f"this server hosts {self.max_games} games already; try again later")
            game = HostedGame(spec, self.clock, self.seeds() if self.seeds is not None else None)
            self.games[game.token] = game
        game.start()
        return game

    def game(self, token: str) -> HostedGame:
        game = self.games.get(token)
        if game is None:
            raise Refused(404, "no such game (it may have ended and been cleaned up): start a new one in the lobby")
        return game

    def seat(self, token: str) -> tuple[HostedGame, WebSeat]:
        """The game and seat of a seat's token."""
        for game in list(self.games.values()):
            seat = game.seat(token)
            if seat is not None:
                return game, seat
        raise Refused(404, "no such seat (the game may have ended and been cleaned up): start a new one in the lobby")

    def sweep(self) -> list[str]:
        """Stop and forget idle games and finished ones nobody looks at; people who stopped looking leave."""
        with self.lock:
            return self._sweep_locked()

    def _sweep_locked(self) -> list[str]:
        now, gone = self.clock(), []
        for token, game in list(self.games.items()):
            idle = now - game.last_seen()
            if (game.finished and now - max(game.ended, game.last_seen()) > FINISHED_SECONDS) or idle > IDLE_SECONDS:
                game.stop()
                del self.games[token]
                gone.append(token)
                continue
            if now - game.last_seen() > SEAT_IDLE_SECONDS:
                continue  # nobody looks: a person alone at the table may come back until IDLE_SECONDS
            for seat in game.seats:
                if seat.status in ("playing", "waiting") and now - seat.seen > SEAT_IDLE_SECONDS and not seat.leaving:
                    game.leave(seat)
        return gone

    def wake_all(self) -> None:
        """Answer every page waiting for news now (the server is stopping)."""
        self.closing = True
        for game in list(self.games.values()):
            game.changes.bump()

    def stop_all(self) -> None:
        with self.lock:
            for game in self.games.values():
                game.stop()
