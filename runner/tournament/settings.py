"""What defines a tournament: its settings, validated from the user's names and numbers, stored with its results."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field

from runner.errors import MaumauError
from runner.plugins import registry
from runner.seats.botmaker import BotMaker
from runner.seats.external import DEFAULT_MEMORY
from runner.table.referee import check_fault_options

from .integrity import ResultsCorrupt

DEFAULT_TABLE = 4


@dataclass(frozen=True)
class Settings:
    """What defines a tournament: stored with its results, and compared on --resume."""

    ruleset_name: str
    ruleset: dict = field(repr=False)  # resolved, overrides applied
    overrides: dict
    bots: tuple[str, ...]  # one per entrant
    entrants: tuple[str, ...]  # distinct labels, one per entrant
    table_size: int
    deals: int
    seed: int
    on_fault: str = "forfeit"
    move_time: float | None = None
    logs: bool = True
    until_confident: bool = False
    max_deals: int | None = None
    time_bank: float = 0.0
    isolate: bool = False
    bot_memory: int | None = DEFAULT_MEMORY

    def summary(self) -> str:
        """One line: the ruleset, the entrants, the tables and the deals."""
        k = self.table_size
        deals = f"{self.deals}" + (f" to {self.max_deals} (until confident)" if self.until_confident else "")
        return (f"{self.ruleset_name}: {len(self.entrants)} entrants, tables of {k}, "
                f"{math.comb(len(self.entrants), k)} table(s) × {deals} deals × {k} rotations")

    def config(self) -> dict:
        return asdict(self)

    @classmethod
    def from_config(cls, config: dict) -> "Settings":
        try:
            config = dict(config, bots=tuple(config["bots"]), entrants=tuple(config["entrants"]))
            return cls(**config)
        except (KeyError, TypeError, ValueError) as exc:  # a stored config is input too: never a traceback
            raise ResultsCorrupt(f"the stored tournament config cannot be read ({type(exc).__name__}: {exc})") from None


def plan(
    ruleset_name: str, bots: list[str], deals: int = 10, table_size: int | None = None, seed: int = 1,
    overrides: dict | None = None, on_fault: str = "forfeit", move_time: float | None = None, logs: bool = True,
    until_confident: bool = False, max_deals: int | None = None, time_bank: float = 0.0, isolate: bool = False,
    bot_memory: int | None = DEFAULT_MEMORY,
) -> Settings:
    """Validated settings of a tournament from the user's names and numbers."""
    reg = registry()
    overrides = dict(overrides or {})
    ruleset = reg.load_ruleset(ruleset_name, overrides)
    BotMaker(reg, isolate, bot_memory).check(bots)  # registered names, or `exec:` programs that can run
    if len(bots) < 2:
        raise MaumauError(f"a tournament needs at least 2 entrants, got {len(bots)}; repeat -b BOT")
    low, high = ruleset.players.min, ruleset.players.max
    k = table_size if table_size is not None else min(len(bots), DEFAULT_TABLE, high)
    if not low <= k <= high:
        raise MaumauError(
            f"--table-size {k} is outside the player range {low}-{high} of ruleset {ruleset.name!r}; choose a size in it"
        )
    if k > len(bots):
        raise MaumauError(f"--table-size {k} needs at least {k} entrants, got {len(bots)}; add -b BOT or lower it")
    if deals < 1:
        raise MaumauError(f"--deals must be at least 1, got {deals}")
    check_fault_options(on_fault, move_time, time_bank)
    move_time = move_time or None
    if until_confident:
        max_deals = max_deals if max_deals is not None else max(deals, 1000)
        if max_deals < deals:
            raise MaumauError(f"--max-deals {max_deals} is below --deals {deals}; raise it")
    else:
        max_deals = None
    return Settings(
        ruleset_name, ruleset.to_data(), overrides, tuple(bots), labels(bots), k, deals, seed, on_fault,
        move_time, logs, until_confident, max_deals, time_bank, isolate, bot_memory,
    )


def labels(bots: list[str]) -> tuple[str, ...]:
    """Entrant labels: the bot name, numbered (`random#1`, `random#2`) when a bot is entered twice."""
    seen: dict[str, int] = {}
    total = {bot: bots.count(bot) for bot in bots}
    result = []
    for bot in bots:
        seen[bot] = seen.get(bot, 0) + 1
        result.append(f"{bot}#{seen[bot]}" if total[bot] > 1 else bot)
    return tuple(result)
