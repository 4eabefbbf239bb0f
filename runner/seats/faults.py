"""The fault settings: one frozen value for how faults are judged and bots are confined, from the CLI to the referee."""

from __future__ import annotations

from dataclasses import dataclass

from runner.errors import InvalidSetting

POLICIES = ("forfeit", "autoplay", "abort")
DEFAULT_MEMORY = 1 << 30  # the address-space cap of each bot process, in bytes
WALL_FACTOR = 10  # the default wall-clock cap of a decision, in CPU budgets: generous for a busy machine


@dataclass(frozen=True, kw_only=True)
class FaultSettings:
    """What a fault is and what follows it; validated when made. New fields take a default, so old callers keep working.

    `policy`: a faulting seat forfeits (ranked last), is autoplayed (random legal moves) or
    aborts the run. `move_time`: seconds of the bot's CPU time per decision (None: no limit; 0
    means None). `time_bank`: extra CPU seconds per seat per match that cover overruns of the move
    time. `wall_time`: the wall-clock cap of a decision, which catches a bot that sleeps, blocks
    or waits (None: WALL_FACTOR times the decision's CPU budget; 0: no cap).
    `isolate`: every Python bot in a process of its own. `sandbox`: every bot process in a
    sandbox (runner/seats/sandbox.py; implies `isolate`). `bot_memory`: the memory cap of each
    bot in bytes, all its processes together where a memory cgroup can be made (runner/seats/memory.py), else of
    each process (None: no cap).
    """

    policy: str = "forfeit"
    move_time: float | None = None
    time_bank: float = 0.0
    isolate: bool = False
    bot_memory: int | None = DEFAULT_MEMORY
    wall_time: float | None = None
    sandbox: bool = False

    def __post_init__(self) -> None:
        if self.policy not in POLICIES:
            raise InvalidSetting(f"unknown {{0}} {self.policy!r}; use one of {', '.join(POLICIES)}", "policy")
        if self.move_time is not None and not self.move_time >= 0:
            raise InvalidSetting(f"{{0}} must be a number of seconds (0: no limit), got "
                                 f"{self.move_time:g}", "move_time")
        if not self.time_bank >= 0:
            raise InvalidSetting(f"{{0}} must be a number of seconds, got {self.time_bank:g}", "time_bank")
        if self.bot_memory is not None and not self.bot_memory > 0:
            raise InvalidSetting(f"{{0}} must be a number of bytes (None: no cap), got "
                                 f"{self.bot_memory!r}", "bot_memory")
        if self.wall_time is not None and not self.wall_time >= 0:
            raise InvalidSetting(f"{{0}} must be a number of seconds (0: no cap), got {self.wall_time:g}", "wall_time")
        if self.wall_time and self.move_time and self.wall_time < self.move_time:
            raise InvalidSetting(f"{{0}} {self.wall_time:g} is below {{1}} {self.move_time:g}: the wall-clock cap "
                                 "must leave the bot its CPU time; raise it, or leave it out", "wall_time", "move_time")
        if self.sandbox:
            object.__setattr__(self, "isolate", True)  # a level above --isolate: every bot in a process of its own
        if self.move_time == 0:
            object.__setattr__(self, "move_time", None)  # 0 means no limit
        object.__setattr__(self, "time_bank", float(self.time_bank))

    def wall_cap(self, budget: float | None) -> float | None:
        """The wall-clock cap of a decision whose CPU budget is `budget` seconds (None: no cap)."""
        if self.wall_time is None:
            return None if budget is None else WALL_FACTOR * budget
        return self.wall_time or None
