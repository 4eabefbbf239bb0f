"""What defines a tournament: its settings, validated from the user's names and numbers, stored with its results."""

from __future__ import annotations

import random
from dataclasses import dataclass, field, fields, replace
from pathlib import Path

from runner.errors import InvalidSetting, MaumauError
from runner.logs import codec
from runner.seats.botmaker import BotMaker
from runner.seats.faults import FaultSettings
from runner.words import counted, plural

from .deals import MAX_FILE_BYTES, check_deck, read_deals
from .integrity import ResultsCorrupt, sha256
from .tables import (
    SEATINGS,
    Table,
    all_tables,
    extended_tables,
    gauntlet_tables,
    matches_in,
    sampled_tables,
    seatings_per_deal,
)

DEFAULT_TABLE = 4
LATER = ("tables", "gauntlet", "sampled", "seatings", "deals_file", "deals_sha256", "sprt")  # see Settings.config
DEFAULT_DEALS = 10


# The fault settings are stored flat, under these keys, as before they were one value: an older
# results directory still resumes.
FAULT_KEYS = {"policy": "on_fault", "move_time": "move_time", "time_bank": "time_bank", "isolate": "isolate",
              "bot_memory": "bot_memory", "wall_time": "wall_time", "sandbox": "sandbox"}


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
    tables: tuple[Table, ...] | None = None  # the tables that meet, in order; None: every k-subset of the entrants
    gauntlet: str | None = None  # the entrant at every table (--gauntlet)
    sampled: int | None = None  # --tables N: the tables are a balanced sample of N
    seatings: str = "rotations"  # each deal under every rotation of the table, or every seating order
    deals_file: str | None = None  # the deal file played (deal i at every table), as given; a copy is kept
    deals_sha256: str | None = None
    sprt: dict | None = None  # an A/B test (runner.tournament.abtest): its hypotheses; every table plays the same deals

    def table_list(self) -> list[Table]:
        """The tables, in schedule order (a table's index is its number in the match ids)."""
        return list(self.tables) if self.tables is not None else all_tables(len(self.entrants), self.table_size)

    @property
    def seatings_per_deal(self) -> int:
        return seatings_per_deal(self.table_size, self.seatings)

    def match_count(self, deals: int | None = None) -> int:
        """The matches of the first `deals` deals (default: --deals)."""
        return matches_in(self.config(), self.deals if deals is None else deals)

    def summary(self) -> str:
        """One line: the ruleset, the entrants, the tables and the deals."""
        k = self.table_size
        deals = f"{self.deals}" + (f" to {self.max_deals} (until confident)" if self.until_confident else "")
        which = (f" with {self.gauntlet}" if self.gauntlet else "") + (" (sampled)" if self.sampled else "")
        orders = "rotation" if self.seatings == "rotations" else "seating order"
        if self.sprt:
            h = self.sprt
            return (f"{self.ruleset_name}: {self.entrants[0]} (NEW) against {self.entrants[1]} (BASE), tables of {k}, "
                    f"H0 {h['elo0']:g} Elo, H1 {h['elo1']:g} Elo, alpha {h['alpha']:g}, beta {h['beta']:g}, "
                    f"at most {counted(self.deals, 'deal')} × "
                    f"{counted(len(self.table_list()) * self.seatings_per_deal, 'match')}")
        return (f"{self.ruleset_name}: {len(self.entrants)} entrants, tables of {k}, "
                f"{counted(len(self.table_list()), 'table')}{which} × {deals} {plural(self.deals, 'deal')} × "
                f"{counted(self.seatings_per_deal, orders)} = {counted(self.match_count(), 'match')}")

    def config(self) -> dict:
        """The settings as JSON data, the fault settings among the others.

        The settings added after the first results were stored are left out while they hold their
        defaults, so a tournament that uses none of them has the config it always had (and resumes).
        """
        config = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "faults"}
        config.update({key: getattr(self.faults, name) for name, key in FAULT_KEYS.items()})
        for f in fields(self):
            if f.name in LATER and config[f.name] == f.default:
                del config[f.name]
        if not config["sandbox"]:
            del config["sandbox"]  # stored only when on: a directory from before --sandbox still resumes
        return config

    @classmethod
    def from_config(cls, config: dict) -> "Settings":
        try:
            config = dict(config, bots=tuple(config["bots"]), entrants=tuple(config["entrants"]))
            if config.get("tables") is not None:
                config["tables"] = tuple(tuple(table) for table in config["tables"])
            faults = FaultSettings(**{name: config.pop(key) for name, key in FAULT_KEYS.items() if key in config})
            return cls(**config, faults=faults)
        except (KeyError, TypeError, ValueError, MaumauError) as exc:  # a stored config is input too: never a traceback
            raise ResultsCorrupt(f"the stored tournament config cannot be read ({type(exc).__name__}: {exc})") from None


def plan(
    ruleset_name: str, bots: list[str], deals: int | None = DEFAULT_DEALS, table_size: int | None = None, seed: int = 1,
    overrides: dict | None = None, *, logs: bool = True, until_confident: bool = False, max_deals: int | None = None,
    faults: FaultSettings | None = None, gauntlet: str | None = None, tables: int | None = None,
    seatings: str = "rotations", deals_file: str | Path | None = None,
) -> Settings:
    """Validated settings of a tournament from the user's names and numbers."""
    overrides = dict(overrides or {})
    faults = faults if faults is not None else FaultSettings()
    # its registry: no plugin code here under --isolate
    maker = BotMaker(None, faults.isolate, faults.bot_memory, faults.sandbox)
    ruleset = maker.reg.load_ruleset(ruleset_name, overrides)
    # registered bots with options they take (written canonically), or `exec:` programs that run
    bots = maker.canonical(bots)
    if len(bots) < 2:
        raise InvalidSetting(f"a tournament needs at least 2 entrants, got {len(bots)}; add one ({{0}})", "bots")
    low, high = ruleset.players.min, ruleset.players.max
    k = table_size if table_size is not None else min(len(bots), DEFAULT_TABLE, high)
    if not low <= k <= high:
        raise InvalidSetting(f"{{0}} {k} is outside the player range {low}-{high} of ruleset {ruleset.name!r}; "
                             "choose a size in it", "table_size")
    refusal = ruleset.table_refusal(k)
    if refusal:
        raise InvalidSetting(f"{{0}} {k}: {refusal}", "table_size")
    if k > len(bots):
        raise InvalidSetting(f"{{0}} {k} needs at least {k} entrants, got {len(bots)}; add some ({{1}}) or lower it",
                             "table_size", "bots")
    book_digest = None
    if deals_file is not None:
        deals, book_digest = check_deals_file(
            Path(deals_file), ruleset, k, deals, max_deals if until_confident else None
        )
    deals = DEFAULT_DEALS if deals is None else deals
    if deals < 1:
        raise InvalidSetting(f"{{0}} must be at least 1, got {deals}", "deals")
    if until_confident:
        max_deals = max_deals if max_deals is not None else max(deals, 1000)
        if max_deals < deals:
            raise InvalidSetting(f"{{0}} {max_deals} is below {{1}} {deals}; raise it", "max_deals", "deals")
    else:
        max_deals = None
    if seatings not in SEATINGS:
        raise InvalidSetting(f"unknown {{0}} {seatings!r}; use one of {', '.join(SEATINGS)}", "seatings")
    entrants = labels(bots)
    focus = entrant_index(entrants, bots, gauntlet) if gauntlet is not None else None
    chosen = choose_tables(len(bots), k, seed, focus, tables)
    return Settings(
        ruleset_name=ruleset_name, ruleset=ruleset.to_data(), overrides=overrides, bots=tuple(bots),
        entrants=entrants, table_size=k, deals=deals, seed=seed, logs=logs, until_confident=until_confident,
        max_deals=max_deals, faults=faults, tables=chosen, gauntlet=entrants[focus] if focus is not None else None,
        sampled=tables, seatings=seatings, deals_file=str(deals_file) if deals_file is not None else None,
        deals_sha256=book_digest,
    )


def check_deals_file(path: Path, ruleset, k: int, deals: int | None, max_deals: int | None) -> tuple[int, str]:
    """The deals to play from a deal file (default: all of them) and the file's digest; refuses another deck."""
    _, book = read_deals(path)
    check_deck(str(path), book, ruleset, k)
    for count, setting in ((deals, "deals"), (max_deals, "max_deals")):
        if count is not None and count > len(book):
            raise InvalidSetting(f"{{0}} {count} is more than the {len(book)} deals of {path}; lower it", setting)
    return (deals if deals is not None else len(book)), sha256(codec.read_file(path, MAX_FILE_BYTES))


def entrant_index(entrants: tuple[str, ...], bots: list[str], name: str) -> int:
    """The entrant `name` stands for: its label, or a bot entered once."""
    if name in entrants:
        return entrants.index(name)
    if bots.count(name) == 1:
        return bots.index(name)
    raise InvalidSetting(f"{{0}} {name!r} is not one of the entrants ({', '.join(entrants)}); name one of them",
                         "gauntlet")


def choose_tables(n: int, k: int, seed: int, focus: int | None, count: int | None) -> tuple[Table, ...] | None:
    """The tables that meet: every k-subset (None), those with `focus`, or a balanced sample of `count`."""
    if count is not None:
        if count < 1:
            raise InvalidSetting(f"{{0}} must be at least 1, got {count}", "tables")
        if focus is not None and k == 1:
            raise InvalidSetting("{0} needs tables of at least 2", "gauntlet")
        return tuple(sampled_tables(n, k, count, random.Random(f"maumau:{seed}:tables"), focus))
    if focus is not None:
        return tuple(gauntlet_tables(n, k, focus))
    return None


def labels(bots: list[str]) -> tuple[str, ...]:
    """Entrant labels: the bot name, numbered (`random#1`, `random#2`) when a bot is entered twice."""
    seen: dict[str, int] = {}
    total = {bot: bots.count(bot) for bot in bots}
    result = []
    for bot in bots:
        seen[bot] = seen.get(bot, 0) + 1
        result.append(f"{bot}#{seen[bot]}" if total[bot] > 1 else bot)
    return tuple(result)


def stored_settings(config: dict) -> Settings:
    """The settings of a stored tournament, checked as a new one's are: its bots are still there to play."""
    settings = Settings.from_config(config)
    BotMaker(None, settings.faults.isolate, settings.faults.bot_memory, settings.faults.sandbox).check(settings.bots)
    return settings


def extended(settings: Settings, bots: list[str]) -> Settings:
    """`settings` with the entrants `bots` added: every table with one of them (and the gauntlet's entrant) is added."""
    if not bots:
        raise InvalidSetting("{0} needs the entrants to add: -b BOT", "extend")
    for refused, why in ((settings.until_confident, "plays until confident"), (settings.sampled, "samples its tables"),
                         (settings.sprt, "is an A/B test")):
        if refused:
            raise InvalidSetting(f"{{0}}: the tournament {why}, so which tables a new entrant meets is not defined; "
                                 "start a new one", "extend")
    bots = BotMaker(None, settings.faults.isolate, settings.faults.bot_memory, settings.faults.sandbox).canonical(bots)
    n_old, n = len(settings.bots), len(settings.bots) + len(bots)
    entrants = settings.entrants + added_labels(settings.bots, settings.entrants, bots)
    focus = settings.entrants.index(settings.gauntlet) if settings.gauntlet else None
    tables = extended_tables(settings.table_list(), n_old, n, settings.table_size, focus)
    return replace(settings, bots=settings.bots + tuple(bots), entrants=entrants, tables=tuple(tables))


def with_deals(settings: Settings, deals: int) -> Settings:
    """`settings` with `deals` deals per table, at least as many as it has: a deal's seed depends on its number
    only (runner/tournament/schedule.py), so the deals stored stay the first ones of the longer tournament."""
    for refused, why in ((settings.until_confident, "doubles its deals itself (--max-deals caps it)"),
                         (settings.deals_file, "plays the deals of its file"), (settings.sprt, "is an A/B test")):
        if refused:
            raise InvalidSetting(f"{{0}} {deals}: the tournament {why}; start a new one for more deals", "deals")
    if deals < settings.deals:
        raise InvalidSetting(f"{{0}} {deals}: the tournament has {settings.deals} deals; with --resume, --deals adds "
                             "deals, it cannot take any away", "deals")
    return replace(settings, deals=deals)


def added_labels(bots: tuple[str, ...], entrants: tuple[str, ...], new: list[str]) -> tuple[str, ...]:
    """Labels for the entrants `new` that leave the stored ones as they are: `random#2` beside a stored `random`."""
    taken, result = set(entrants), []
    for bot in new:
        if bot not in bots and bot not in taken and new.count(bot) == 1:
            label = bot
        else:
            number = 1
            while f"{bot}#{number}" in taken or (number == 1 and bot in taken):
                number += 1
            label = f"{bot}#{number}"
        taken.add(label)
        result.append(label)
    return tuple(result)
