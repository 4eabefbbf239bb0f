"""What defines a tournament: its settings, validated from the user's names and numbers, stored with its results."""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields

from runner.errors import InvalidSetting, MaumauError
from runner.words import counted, plural
from runner.plugins import registry
from runner.seats.botmaker import BotMaker
from runner.seats.faults import FaultSettings

from .integrity import ResultsCorrupt

DEFAULT_TABLE = 4


# The fault settings are stored flat, under these keys, as before they were one value: an older
# results directory still resumes.
FAULT_KEYS = {"policy": "on_fault", "move_time": "move_time", "time_bank": "time_bank", "isolate": "isolate",
              "bot_memory": "bot_memory"}


@dataclass(frozen=True, kw_only=True)
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
    logs: bool = True
    until_confident: bool = False
    max_deals: int | None = None
    faults: FaultSettings = FaultSettings()

    def summary(self) -> str:
        """One line: the ruleset, the entrants, the tables and the deals."""
        k = self.table_size
        deals = f"{self.deals}" + (f" to {self.max_deals} (until confident)" if self.until_confident else "")
        tables = math.comb(len(self.entrants), k)
        return (f"{self.ruleset_name}: {len(self.entrants)} entrants, tables of {k}, "
                f"{counted(tables, 'table')} × {deals} {plural(self.deals, 'deal')} × {counted(k, 'rotation')}")

    def config(self) -> dict:
        """The settings as JSON data, the fault settings among the others."""
        config = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "faults"}
        config.update({key: getattr(self.faults, name) for name, key in FAULT_KEYS.items()})
        return config

    @classmethod
    def from_config(cls, config: dict) -> "Settings":
        try:
            config = dict(config, bots=tuple(config["bots"]), entrants=tuple(config["entrants"]))
            faults = FaultSettings(**{name: config.pop(key) for name, key in FAULT_KEYS.items() if key in config})
            return cls(**config, faults=faults)
        except (KeyError, TypeError, ValueError, MaumauError) as exc:  # a stored config is input too: never a traceback
            raise ResultsCorrupt(f"the stored tournament config cannot be read ({type(exc).__name__}: {exc})") from None


def plan(
    ruleset_name: str, bots: list[str], deals: int = 10, table_size: int | None = None, seed: int = 1,
    overrides: dict | None = None, *, logs: bool = True, until_confident: bool = False, max_deals: int | None = None,
    faults: FaultSettings | None = None,
) -> Settings:
    """Validated settings of a tournament from the user's names and numbers."""
    reg = registry()
    overrides = dict(overrides or {})
    faults = faults if faults is not None else FaultSettings()
    ruleset = reg.load_ruleset(ruleset_name, overrides)
    BotMaker(reg, faults.isolate, faults.bot_memory).check(bots)  # registered names, or `exec:` programs that run
    if len(bots) < 2:
        raise InvalidSetting(f"a tournament needs at least 2 entrants, got {len(bots)}; add one ({{0}})", "bots")
    low, high = ruleset.players.min, ruleset.players.max
    k = table_size if table_size is not None else min(len(bots), DEFAULT_TABLE, high)
    if not low <= k <= high:
        raise InvalidSetting(f"{{0}} {k} is outside the player range {low}-{high} of ruleset {ruleset.name!r}; "
                             "choose a size in it", "table_size")
    if k > len(bots):
        raise InvalidSetting(f"{{0}} {k} needs at least {k} entrants, got {len(bots)}; add some ({{1}}) or lower it",
                             "table_size", "bots")
    if deals < 1:
        raise InvalidSetting(f"{{0}} must be at least 1, got {deals}", "deals")
    if until_confident:
        max_deals = max_deals if max_deals is not None else max(deals, 1000)
        if max_deals < deals:
            raise InvalidSetting(f"{{0}} {max_deals} is below {{1}} {deals}; raise it", "max_deals", "deals")
    else:
        max_deals = None
    return Settings(
        ruleset_name=ruleset_name, ruleset=ruleset.to_data(), overrides=overrides, bots=tuple(bots),
        entrants=labels(bots), table_size=k, deals=deals, seed=seed, logs=logs, until_confident=until_confident,
        max_deals=max_deals, faults=faults,
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
