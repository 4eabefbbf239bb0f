"""The referee: asks each bot for an action, checks it, and applies the fault policy to bad ones."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from .actions import Action
from .engine import Round
from .errors import MaumauError

POLICIES = ("forfeit", "autoplay", "abort")


@dataclass(frozen=True)
class Fault:
    """One fault a bot committed: an illegal action, an exception, or a timeout."""

    seat: int
    player: str
    kind: str  # illegal, exception, timeout
    detail: str
    round: int


class TournamentAborted(MaumauError):
    """The `abort` fault policy stopped the run."""


class Forfeit(Exception):
    """Raised inside a match when the policy takes a faulting seat out of it."""

    def __init__(self, fault: Fault):
        self.fault = fault


class Referee:
    """Turns a bot's answer into a legal action, or into a fault handled by `policy`."""

    def __init__(self, policy: str = "forfeit", move_time: float | None = None, rng: random.Random | None = None):
        if policy not in POLICIES:
            raise MaumauError(f"unknown fault policy {policy!r}; use one of {', '.join(POLICIES)}")
        self.policy, self.move_time = policy, move_time
        self.rng = rng or random.Random(0)
        self.faults: list[Fault] = []

    def decide(self, rnd: Round, bot, player: str) -> Action:
        """The action for the seat to act; raises Forfeit or TournamentAborted per the policy."""
        view = rnd.view()
        started = time.perf_counter()
        try:
            answer = bot.act(view)
        except Exception as exc:  # a bot's own bug is a fault, never a crash of the runner
            return self._fault(rnd, player, "exception", f"{type(exc).__name__}: {exc}"[:300])
        elapsed = time.perf_counter() - started
        if self.move_time is not None and elapsed > self.move_time:
            return self._fault(rnd, player, "timeout", f"took {elapsed:.3f}s, budget {self.move_time:g}s")
        action = rnd.canonical(answer)
        if action is None:
            return self._fault(rnd, player, "illegal", f"{_describe(answer)} is not legal now")
        return action

    def _fault(self, rnd: Round, player: str, kind: str, detail: str) -> Action:
        fault = Fault(rnd.current, player, kind, detail, rnd.number)
        self.faults.append(fault)
        if rnd.log is not None:
            rnd.log.append({"type": "fault", "seat": fault.seat, "kind": kind, "detail": detail})
        if self.policy == "abort":
            raise TournamentAborted(f"bot {player!r} (seat {fault.seat}) committed a fault ({kind}): {detail}")
        if self.policy == "autoplay":
            legal = rnd.legal()
            return legal[int(self.rng.random() * len(legal))]
        raise Forfeit(fault)


def _describe(answer: object) -> str:
    try:
        text = repr(answer)
    except Exception:
        text = f"<{type(answer).__name__}>"
    return text[:200]
