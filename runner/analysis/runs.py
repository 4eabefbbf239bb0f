"""Playing an analysis through the tournament machinery: one results directory per cell, figures from the workers.

An analysis is a set of cells, each a ruleset (a sweep value: its overrides) at one table size, each
played as a tournament of equal bots (the line-up) over the same seed, so that cells with the same
deck play the same deals. Every work unit carries `measure` (runner/analysis/metrics.py): the
worker counts the match from its in-memory events and sends the counts back with its outcome;
`FigureStore` keeps them in a table of their own beside the tournament's rows (`figures`),
written before the match's rows, so that a stored match always has its counts and `--resume`
plays only what is missing. `DIR/analysis.json` lists the cells.
"""

from __future__ import annotations

import json
import re
import shlex
import sqlite3
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Callable, Iterable, Iterator, Mapping

from runner.errors import InvalidSetting, MaumauError
from runner.game.ruleset import Multiple
from runner.plugins import registry
from runner.plugins.manager import BUILTIN_PLUGINS
from runner.rules import parse_override, ruleset_of
from runner.seats.faults import FaultSettings
from runner.tournament.backends import make_backend
from runner.tournament.driver import Pending
from runner.tournament.progress import Progress
from runner.tournament.schedule import Slot
from runner.tournament.settings import Settings, plan
from runner.tournament.store import ANALYSIS, DB_NAME, FIGURES_SCHEMA, Store
from runner.tournament.work import MatchOutcome, WorkUnit

from .figures import SEEING, SKILL, Cell, Compared, compare, sentences, skill_terms, summarise
from .metrics import MISTAKES, measure, rule_keys
from .seeing import check_bot, seating

SPEC_NAME = "analysis.json"
DEFAULT_BOTS = ("medium",)
DEFAULT_SKILL = (("medium", "random"),)  # the stronger bot, among weaker ones: the order index of the first
DEFAULT_DEALS = 200
DEFAULT_MAX_DEALS = 3200
DEFAULT_TABLE = 4


@dataclass(frozen=True)
class Variant:
    """A ruleset with overrides, as one column of the analysis."""

    label: str
    ruleset: str
    overrides: dict


@dataclass(frozen=True)
class AnalysisPlan:
    """What to play: the variants, the table sizes, the bots in the seats, the deals and the seed."""

    variants: tuple[Variant, ...]
    players: tuple[int, ...]
    bots: tuple[str, ...] = DEFAULT_BOTS
    deals: int = DEFAULT_DEALS
    seed: int = 1
    logs: bool = False
    faults: FaultSettings = field(default_factory=FaultSettings)
    skill: tuple[tuple[str, str], ...] = DEFAULT_SKILL
    until: float | None = None  # the relative width of every cell's decisions-per-round interval to reach
    max_deals: int = DEFAULT_MAX_DEALS  # with `until`: the most deals per cell
    hidden_info: str | None = None  # `hard` (with options): the same search seeing every hand, among ones that do not

    @property
    def scheduled_deals(self) -> int:
        """The deals each cell's tournament is set up with: the most that may be played."""
        return max(self.max_deals, self.deals) if self.until is not None else self.deals

    def cells(self) -> Iterator[tuple[Variant, int]]:
        for players in self.players:
            for variant in self.variants:
                yield variant, players


@dataclass(frozen=True)
class Analysis:
    """The figures of every cell, each cell against the first at its table size, and the sentences that lead."""

    cells: tuple[Cell, ...]
    compared: tuple[Compared, ...]
    sentences: tuple[str, ...]
    directory: str


def parse_players(text: str | None) -> tuple[int, ...] | None:
    """`--players 4` or a range `2-6`."""
    if text is None:
        return None
    match = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+)\s*)?", text)
    if not match:
        raise InvalidSetting(f"{{0}} {text!r}: expected a number of players (4) or a range (2-6)", "players")
    low = int(match.group(1))
    high = int(match.group(2)) if match.group(2) else low
    if low < 2 or high < low:
        raise InvalidSetting(f"{{0}} {text!r}: a table has at least 2 players, and a range goes up (2-6)", "players")
    return tuple(range(low, high + 1))


def parse_sweep(text: str) -> tuple[str, list]:
    """`KEY=V1,V2,...` as the key and its values, each read as a `--set` value is."""
    key, sep, values = text.partition("=")
    parts = [part.strip() for part in values.split(",")]
    if not sep or not key.strip() or not all(parts):
        raise InvalidSetting(f"{{0}} {text!r}: expected KEY=V1,V2,..., e.g. powers.7.draw=1,2,3", "sweep")
    return key.strip(), [parse_override(f"{key.strip()}={part}")[1] for part in parts]


def label_of(ruleset: str) -> str:
    """A ruleset's column label: its name, or a file's stem."""
    return Path(ruleset).stem if ruleset.endswith((".yaml", ".yml")) else ruleset


def parse_skill(texts: list[str] | None) -> tuple[tuple[str, str], ...]:
    """`--skill STRONG/WEAK` (repeatable; `none`: no skill tournaments)."""
    if texts is None:
        return DEFAULT_SKILL
    pairs = []
    for text in texts:
        if text.strip() == "none":
            continue
        strong, sep, weak = text.partition("/")
        if not sep or not strong.strip() or not weak.strip():
            raise InvalidSetting(f"{{0}} {text!r}: expected STRONG/WEAK, e.g. medium/random or hard/medium", "skill")
        if strong.strip() == weak.strip():
            raise InvalidSetting(f"{{0}} {text!r}: the order index compares two different bots, e.g. medium/random",
                                 "skill")
        pairs.append((strong.strip(), weak.strip()))
    return tuple(pairs)


def ablation(key: str) -> dict:
    """The overrides that take the rule `key` (metrics.rule_keys) away."""
    if key.startswith("powers."):
        return {key: None}  # removes the power
    return {"multiple": {"multiple": Multiple().model_dump(mode="json")}, "jump_in": {"jump_in": "none"},
            "announcements": {"announcements.mau.required": False, "announcements.maumau.required": False},
            "announcements.false_penalty": {"announcements.mau.false_penalty": 0,
                                            "announcements.maumau.false_penalty": 0},
            "announcements.enforcement": {"announcements.enforcement": "referee"},
            "drawing.until_playable": {"drawing.until_playable": False, "drawing.max": None},
            "round.hand_limit": {"round.hand_limit": None}}[key]


def make_plan(rulesets: list[str], players: str | None = None, sets: Mapping | None = None,
              sweep: str | None = None, bots: list[str] | None = None, deals: int = DEFAULT_DEALS, seed: int = 1,
              logs: bool = False, faults: FaultSettings | None = None, *, skill: list[str] | None = None,
              ablate: bool = False, until: float | None = None, max_deals: int = DEFAULT_MAX_DEALS,
              hidden_info: str | None = None) -> AnalysisPlan:
    """A checked plan: every ruleset (and sweep value) loads, and every table size is in every ruleset's range."""
    if not rulesets:
        raise InvalidSetting("{0} needs at least one ruleset", "rulesets")
    if deals < 1:
        raise InvalidSetting(f"{{0}} must be at least 1, got {deals}", "deals")
    if until is not None and not 0 < until < 2:
        raise InvalidSetting(f"{{0}} {until}: a relative width between 0 and 2, e.g. 0.05 for intervals 5% wide",
                             "until")
    if until is not None and max_deals < deals:
        raise InvalidSetting(f"{{0}} {max_deals} is below {{1}} {deals}; raise it", "max_deals", "deals")
    sets = dict(sets or {})
    variants = []
    if ablate and (sweep is not None or len(rulesets) != 1):
        raise InvalidSetting("{0} takes each rule away from one ruleset; give one ruleset and no --sweep", "ablate")
    if ablate:
        name = rulesets[0]
        variants.append(Variant(label_of(name), name, sets))
        for key in rule_keys(registry().load_ruleset(name, sets)):
            variants.append(Variant(f"without {key}", name, {**sets, **ablation(key)}))
    elif sweep is not None:
        if len(rulesets) != 1:
            raise InvalidSetting("{0} varies one key of one ruleset; give one ruleset", "sweep")
        key, values = parse_sweep(sweep)
        for raw, value in zip(sweep.partition("=")[2].split(","), values):
            variants.append(Variant(f"{key}={raw.strip()}", rulesets[0], {**sets, key: value}))
    else:
        labels: dict[str, int] = {}
        for name in rulesets:
            label = label_of(name)
            labels[label] = labels.get(label, 0) + 1
            variants.append(Variant(label if labels[label] == 1 else f"{label}#{labels[label]}", name, sets))
    reg = registry()
    ranges, loaded = [], []
    for variant in variants:
        ruleset = reg.load_ruleset(variant.ruleset, variant.overrides)  # a mistyped key or value: its error
        ranges.append((variant.label, ruleset.players.min, ruleset.players.max))
        loaded.append((variant.label, ruleset))
    low, high = max(r[1] for r in ranges), min(r[2] for r in ranges)
    if low > high:
        shown = ", ".join(f"{label} {a}-{b}" for label, a, b in ranges)
        raise InvalidSetting(f"the rulesets' player ranges do not meet ({shown}); compare rulesets that share a "
                             "table size", "rulesets")
    sizes = parse_players(players)
    if sizes is None:
        sizes = (DEFAULT_TABLE if low <= DEFAULT_TABLE <= high else low,)
    for k in sizes:
        for label, a, b in ranges:
            if not a <= k <= b:
                raise InvalidSetting(f"{{0}} {k} is outside the player range {a}-{b} of {label}; choose sizes in "
                                     f"{low}-{high}", "players")
    for k in sizes:
        for label, ruleset in loaded:
            refusal = ruleset.table_refusal(k)
            if refusal:
                raise InvalidSetting(f"{{0}} {k}, {label}: {refusal}", "players")
    return AnalysisPlan(tuple(variants), sizes, tuple(bots or DEFAULT_BOTS), deals, seed, logs,
                        faults or FaultSettings(), parse_skill(skill), until, max_deals,
                        None if hidden_info is None else check_bot(hidden_info))


def cell_directory(out: Path, variant: Variant, players: int) -> Path:
    slug = re.sub(r"[^A-Za-z0-9_.=-]+", "_", variant.label).strip("_") or "ruleset"
    return out / f"{slug}-p{players}"


def cell_settings(analysis: AnalysisPlan, variant: Variant, players: int,
                  lineup: tuple[str, ...] | None = None) -> Settings:
    """The tournament of one cell: the line-up repeated to fill the table, equal bots at every seat by default."""
    lineup = lineup or analysis.bots
    bots = [lineup[i % len(lineup)] for i in range(max(players, len(lineup)))]
    return plan(variant.ruleset, bots, analysis.scheduled_deals, players, analysis.seed, variant.overrides,
                logs=analysis.logs, faults=analysis.faults)


def skill_lineup(strong: str, weak: str, players: int) -> tuple[str, ...]:
    return (strong, *[weak] * (players - 1))


def hidden_directory(cell: Path) -> Path:
    return cell.with_name(f"{cell.name}-hidden-info")


def hidden_name(bot: str) -> str:
    return f"order index of {bot} {SEEING} among {bot}"


def skill_directory(cell: Path, strong: str, weak: str) -> Path:
    slug = re.sub(r"[^A-Za-z0-9_.=-]+", "_", f"{strong}-among-{weak}")
    return cell.with_name(f"{cell.name}-skill-{slug}")


class FigureStore(Store):
    """A tournament's store that also keeps each match's counts (the `figures` table), committed with its rows."""

    def add(self, outcomes: list[MatchOutcome], slots: Mapping[str, Slot]) -> None:
        """The counts, then the tournament's rows: Store.add's transaction commits both, or neither."""
        try:
            self.db.executemany("INSERT OR REPLACE INTO figures VALUES (?, ?)",
                                [(o.match_id, json.dumps(o.figures, separators=(",", ":"))) for o in outcomes])
        except sqlite3.Error as exc:
            self.db.rollback()
            raise MaumauError(f"cannot store results in {self.directory / DB_NAME}: {exc}; free some space (or fix "
                              f"the directory), then continue with the same command plus --resume") from None
        super().add(outcomes, slots)

    @classmethod
    def create(cls, directory: Path, config: dict) -> "FigureStore":
        """A new cell, marked as one (the meta row ANALYSIS, empty until the cell is complete)."""
        store = super().create(directory, config)
        with store.writing():
            store.db.execute(FIGURES_SCHEMA)  # once here, not at each batch stored (add) nor each reading (figures)
        store.mark_analysed("")
        return store

    @classmethod
    def resume(cls, directory: Path, config: dict) -> "FigureStore":
        """A cell stored before, given its table if it has none (a store whose first batch an earlier version, which
        made the table with its first batch, never stored)."""
        store = super().resume(directory, config)
        if not store.has_figures():
            with store.writing():
                store.db.execute(FIGURES_SCHEMA)
        return store

    def has_figures(self) -> bool:
        return self.db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'figures'").fetchone() \
            is not None

    def mark_analysed(self, deals: str) -> None:
        """The cell is complete through `deals` deals ('': not complete). It is never marked finished: the
        tournament's check of a finished schedule counts every rotation, which a cell of equal bots leaves out
        (Measured); `maumau standings` reads this row instead (runner/tournament/driver.py stored_standings)."""
        with self.writing():
            self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (ANALYSIS, deals))
            self.seal()

    def figures(self) -> Iterator[tuple[str, int, dict]]:
        """Each stored match's id, seed and counts, in schedule order (none in a store that has no table of them)."""
        if not self.has_figures():
            return
        query = """SELECT m.id, m.seed, f.data FROM matches m JOIN figures f ON f.match_id = m.id
                   ORDER BY m.deal, m.tbl, m.rotation"""
        for match_id, seed, data in self.db.execute(query):
            yield match_id, seed, json.loads(data)


class Measured(Pending):
    """The pending matches of a cell, each unit carrying the worker-side measure.

    With the same bot in every seat, a deal's rotations are the same match over again (the bots' generators are
    seeded by match seed and seat): only its first rotation is played.
    """

    def __init__(self, settings: Settings, store: Store, deals: range, log_dir: str | None = None,
                 seating: Callable | None = None):
        """`seating`: WorkUnit.seating for every unit; then every rotation is played (one seat differs)."""
        super().__init__(settings, store, deals, log_dir)
        self.seating = seating
        self.once = len(set(settings.bots)) == 1 and seating is None
        if self.once:
            self.size = len(settings.table_list()) * len(deals) - self.stored

    def __iter__(self) -> Iterator[WorkUnit]:
        for unit in super().__iter__():
            if self.once and unit.place is not None and unit.place[2] > 0:
                del self.slots[unit.match_id]
                continue
            yield unit._replace(measure=measure, seating=self.seating)


def run_analysis(analysis: AnalysisPlan, out: Path, resume: bool = False, backend: str = "processes",
                 workers: int | None = None, progress: Progress | None = None,
                 scheduler: str | None = None) -> Analysis:
    """Play every cell not yet stored into `out` (one results directory per cell, and one per skill line-up) and
    return the figures; with `until`, the deals double until every cell's interval is narrow enough."""
    progress = progress or Progress()
    spec = out / SPEC_NAME
    if spec.exists() and not resume:
        raise MaumauError(f"{out} already holds an analysis; add --resume to continue it, or choose another --out")
    if resume and not spec.exists():
        raise MaumauError(f"nothing to resume in {out} (no {SPEC_NAME}); leave out --resume to start it")
    if not resume and out.is_dir() and any(out.iterdir()):
        raise MaumauError(f"{out} holds other files and no analysis; choose a new or empty directory for --out")
    tournaments = []  # (what, settings, directory, seating)
    entries = []
    for variant, players in analysis.cells():
        directory = cell_directory(out, variant, players)
        tournaments.append((f"{variant.label}, {players} players", cell_settings(analysis, variant, players),
                            directory, None))
        skills = []
        for strong, weak in analysis.skill:
            settings = cell_settings(analysis, variant, players, skill_lineup(strong, weak, players))
            where = skill_directory(directory, strong, weak)
            tournaments.append((f"{variant.label}, {players} players, {strong} among {weak}", settings, where, None))
            skills.append({"strong": settings.bots[0], "weak": weak, "directory": where.name})
        entry = {"label": variant.label, "ruleset": variant.ruleset, "players": players,
                 "directory": directory.name, "skill": skills}
        if analysis.hidden_info is not None:
            settings = cell_settings(analysis, variant, players, (analysis.hidden_info,) * players)
            where = hidden_directory(directory)
            tournaments.append((f"{variant.label}, {players} players, {analysis.hidden_info} seeing every hand",
                                settings, where, partial(seating, settings.entrants[0])))
            entry["hidden_info"] = {"bot": settings.bots[0], "entrant": settings.entrants[0],
                                    "directory": where.name}
        entries.append(entry)
    document = {"plan": {"rulesets": [v.ruleset for v in analysis.variants],
                         "labels": [v.label for v in analysis.variants],
                         "overrides": [v.overrides for v in analysis.variants], "players": list(analysis.players),
                         "bots": list(analysis.bots), "deals": analysis.deals, "seed": analysis.seed,
                         "skill": [list(pair) for pair in analysis.skill], "until": analysis.until,
                         "max_deals": analysis.scheduled_deals,
                         **({"hidden_info": analysis.hidden_info} if analysis.hidden_info is not None else {})},
                "cells": entries}
    if resume:
        stored = json.loads(spec.read_text())
        if stored.get("plan") != json.loads(json.dumps(document["plan"])):
            raise MaumauError(f"{out} holds another analysis; resume with the options it was started with, or "
                              "choose another --out")
    else:
        out.mkdir(parents=True, exist_ok=True)
        spec.write_text(json.dumps(document, indent=1))
    deals = analysis.deals
    stores: list[FigureStore] = []
    # each store is opened once, before the pool forks its workers: a worker holds a copy of the directory's lock
    # (an flock) while it lives, so a store closed and opened again in this run would find its directory in use
    try:
        for _, settings, directory, _ in tournaments:
            exists = (directory / DB_NAME).exists()
            stores.append(FigureStore.resume(directory, settings.config()) if exists
                          else FigureStore.create(directory, settings.config()))
        with make_backend(backend, workers, scheduler) as executor:
            executor.prepare(sorted({bot for _, settings, _, _ in tournaments for bot in settings.bots}),
                             analysis.faults.isolate, analysis.faults.sandbox)
            while True:
                for (what, settings, directory, seats), store in zip(tournaments, stores):
                    play_cell(settings, store, executor, progress, what, range(deals), seats)
                result = read_analysis(out)
                if analysis.until is None or deals >= analysis.scheduled_deals or narrow(result, analysis.until):
                    return result
                deals = min(analysis.scheduled_deals, deals * 2)
                progress.note(f"an interval is wider than {analysis.until:g} of its value: {deals} deals")
    finally:
        for store in stores:
            store.close()


def narrow(analysis: Analysis, width: float) -> bool:
    """Whether every cell's decisions per round has a 95% interval at most `width` of its value wide."""
    for cell in analysis.cells:
        estimate = cell.figure("decisions per round").estimate
        if estimate.value <= 0 or (estimate.high - estimate.low) / estimate.value > width:
            return False
    return True


def play_cell(settings: Settings, store: Store, executor, progress: Progress, what: str, deals: range,
              seats: Callable | None = None) -> None:
    """Play the cell's matches of `deals` not yet in `store` (`seats`: WorkUnit.seating, Measured)."""
    directory = store.directory
    log_dir = str(directory.resolve()) if settings.logs and executor.shares_files else None
    pending = Measured(settings, store, deals, log_dir, seats)
    total = store.count(deals) + len(pending)
    if len(pending):
        store.mark_analysed("")  # more deals (--until, --resume): not complete until they are stored
        progress.note(f"{what}: {len(pending)} of {total} matches to play")
    progress.start(total, total - len(pending))
    try:
        def on_results(outcomes: list[MatchOutcome]) -> None:
            pending.store_results(outcomes)
            progress.advance(len(outcomes))

        executor.run(pending, on_results)
    except KeyboardInterrupt:
        progress.stop()
        progress.warn(f"interrupted: {store.count()} matches of {what} stored; continue with the same command plus "
                      f"--resume --out {directory.parent}")
        raise
    progress.stop()
    store.mark_analysed(str(deals.stop))  # nothing is pending: complete (FigureStore.mark_analysed)


def read_analysis(out: Path) -> Analysis:
    """The figures of the analysis stored in `out` (finished or not: what is stored)."""
    spec = out / SPEC_NAME
    if not spec.is_file():
        raise MaumauError(f"{out} holds no analysis (no {SPEC_NAME}); run `maumau analyze ... --out {out}` first")
    document = json.loads(spec.read_text())
    cells = []
    for entry in document["cells"]:
        directory = out / entry["directory"]
        stored = stored_figures(directory)
        if stored is None:
            continue
        settings, rows = stored
        extra = []
        for skill in entry.get("skill", ()):
            measured = stored_figures(out / skill["directory"])
            if measured is not None:
                extra.append((SKILL, f"order index of {skill['strong']} among {skill['weak']}",
                              skill_terms(measured[1], skill["strong"], entry["players"])))
        hidden = entry.get("hidden_info")
        measured = stored_figures(out / hidden["directory"]) if hidden else None
        if measured is not None:
            extra.append((SKILL, hidden_name(hidden["bot"]),
                          skill_terms(measured[1], hidden["entrant"], entry["players"], "entrants")))
        ruleset, players = ruleset_of(settings.ruleset, f"the ruleset stored in {directory}"), entry["players"]
        cells.append(summarise(entry["label"], entry["ruleset"], settings.overrides, players, str(directory), rows,
                               f"maumau replay {shlex.quote(str(directory))}", rule_keys(ruleset, players),
                               repr(tuple(ruleset.deck_for(players))), extra,
                               MISTAKES if careful(settings.bots) else ()))
    compared = compare(cells)
    return Analysis(tuple(cells), tuple(compared), tuple(sentences(cells, compared)), str(out))


def careful(bots: Iterable[str]) -> bool:
    """Whether every bot is a built-in one, which never misses an announcement nor calls one falsely (metrics.MISTAKES);
    a plugin's bot may (or is no longer installed: it may have)."""
    reg = registry()
    try:
        return all(reg.bot(reg.spec(bot).name).plugin in BUILTIN_PLUGINS for bot in bots)
    except MaumauError:
        return False


def stored_figures(directory: Path) -> tuple[Settings, list[tuple[str, int, dict]]] | None:
    """The settings and the stored matches' counts of one tournament of the analysis (None: nothing stored yet)."""
    if not (directory / DB_NAME).exists():
        return None
    store = FigureStore.open(directory)
    try:
        settings = Settings.from_config(store.config())
        rows = list(store.figures())
    finally:
        store.close()
    return (settings, rows) if rows else None
