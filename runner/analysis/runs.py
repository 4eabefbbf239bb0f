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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator, Mapping

from runner.errors import InvalidSetting, MaumauError
from runner.plugins import registry
from runner.rules import parse_override, ruleset_of
from runner.seats.faults import FaultSettings
from runner.tournament.backends import make_backend
from runner.tournament.driver import Pending
from runner.tournament.progress import Progress
from runner.tournament.schedule import Slot
from runner.tournament.settings import Settings, plan
from runner.tournament.store import Store
from runner.tournament.work import MatchOutcome, WorkUnit

from .figures import Cell, Compared, compare, sentences, summarise
from .metrics import measure, rule_keys

SPEC_NAME = "analysis.json"
DEFAULT_BOTS = ("medium",)
DEFAULT_DEALS = 100
DEFAULT_TABLE = 4
FIGURES_TABLE = """CREATE TABLE IF NOT EXISTS figures (match_id TEXT PRIMARY KEY, data TEXT NOT NULL)"""


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


def make_plan(rulesets: list[str], players: str | None = None, sets: Mapping | None = None,
              sweep: str | None = None, bots: list[str] | None = None, deals: int = DEFAULT_DEALS, seed: int = 1,
              logs: bool = False, faults: FaultSettings | None = None) -> AnalysisPlan:
    """A checked plan: every ruleset (and sweep value) loads, and every table size is in every ruleset's range."""
    if not rulesets:
        raise InvalidSetting("{0} needs at least one ruleset", "rulesets")
    if deals < 1:
        raise InvalidSetting(f"{{0}} must be at least 1, got {deals}", "deals")
    sets = dict(sets or {})
    variants = []
    if sweep is not None:
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
    ranges = []
    for variant in variants:
        ruleset = reg.load_ruleset(variant.ruleset, variant.overrides)  # a mistyped key or value: its error
        ranges.append((variant.label, ruleset.players.min, ruleset.players.max))
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
    return AnalysisPlan(tuple(variants), sizes, tuple(bots or DEFAULT_BOTS), deals, seed, logs,
                        faults or FaultSettings())


def cell_directory(out: Path, variant: Variant, players: int) -> Path:
    slug = re.sub(r"[^A-Za-z0-9_.=-]+", "_", variant.label).strip("_") or "ruleset"
    return out / f"{slug}-p{players}"


def cell_settings(analysis: AnalysisPlan, variant: Variant, players: int) -> Settings:
    """The tournament of one cell: the line-up repeated to fill the table, equal bots at every seat by default."""
    bots = [analysis.bots[i % len(analysis.bots)] for i in range(max(players, len(analysis.bots)))]
    return plan(variant.ruleset, bots, analysis.deals, players, analysis.seed, variant.overrides, logs=analysis.logs,
                faults=analysis.faults)


class FigureStore(Store):
    """A tournament's store that also keeps each match's counts (the `figures` table), written before its rows."""

    def add(self, outcomes: list[MatchOutcome], slots: Mapping[str, Slot]) -> None:
        with self.writing():
            self.db.execute(FIGURES_TABLE)
            self.db.executemany("INSERT OR REPLACE INTO figures VALUES (?, ?)",
                                [(o.match_id, json.dumps(o.figures, separators=(",", ":"))) for o in outcomes])
        super().add(outcomes, slots)

    def figures(self) -> Iterator[tuple[str, int, dict]]:
        """Each stored match's id, seed and counts, in schedule order."""
        self.db.execute(FIGURES_TABLE)
        query = """SELECT m.id, m.seed, f.data FROM matches m JOIN figures f ON f.match_id = m.id
                   ORDER BY m.deal, m.tbl, m.rotation"""
        for match_id, seed, data in self.db.execute(query):
            yield match_id, seed, json.loads(data)


class Measured(Pending):
    """The pending matches of a cell, each unit carrying the worker-side measure.

    With the same bot in every seat, a deal's rotations are the same match over again (the bots' generators are
    seeded by match seed and seat): only its first rotation is played.
    """

    def __init__(self, settings: Settings, store: Store, deals: range, log_dir: str | None = None):
        super().__init__(settings, store, deals, log_dir)
        self.once = len(set(settings.bots)) == 1
        if self.once:
            self.size = len(settings.table_list()) * len(deals) - self.stored

    def __iter__(self) -> Iterator[WorkUnit]:
        for unit in super().__iter__():
            if self.once and unit.place is not None and unit.place[2] > 0:
                del self.slots[unit.match_id]
                continue
            yield unit._replace(measure=measure)


def run_analysis(analysis: AnalysisPlan, out: Path, resume: bool = False, backend: str = "processes",
                 workers: int | None = None, progress: Progress | None = None,
                 scheduler: str | None = None) -> Analysis:
    """Play every cell not yet stored into `out` (one results directory per cell) and return the figures."""
    progress = progress or Progress()
    spec = out / SPEC_NAME
    if spec.exists() and not resume:
        raise MaumauError(f"{out} already holds an analysis; add --resume to continue it, or choose another --out")
    if resume and not spec.exists():
        raise MaumauError(f"nothing to resume in {out} (no {SPEC_NAME}); leave out --resume to start it")
    cells = [(variant, players, cell_settings(analysis, variant, players)) for variant, players in analysis.cells()]
    document = {"plan": {"rulesets": [v.ruleset for v in analysis.variants], "labels": [v.label for v in
                                                                                    analysis.variants],
                         "overrides": [v.overrides for v in analysis.variants], "players": list(analysis.players),
                         "bots": list(analysis.bots), "deals": analysis.deals, "seed": analysis.seed},
                "cells": [{"label": v.label, "ruleset": v.ruleset, "players": k,
                           "directory": cell_directory(out, v, k).name} for v, k, _ in cells]}
    if resume:
        stored = json.loads(spec.read_text())
        if stored.get("plan") != json.loads(json.dumps(document["plan"])):
            raise MaumauError(f"{out} holds another analysis; resume with the options it was started with, or "
                              "choose another --out")
    else:
        out.mkdir(parents=True, exist_ok=True)
        spec.write_text(json.dumps(document, indent=1))
    with make_backend(backend, workers, scheduler) as executor:
        executor.prepare(analysis.bots, analysis.faults.isolate, analysis.faults.sandbox)
        for variant, players, settings in cells:
            directory = cell_directory(out, variant, players)
            play_cell(settings, directory, executor, progress, f"{variant.label}, {players} players")
    return read_analysis(out)


def play_cell(settings: Settings, directory: Path, executor, progress: Progress, what: str) -> None:
    """Play the cell's matches not yet stored in `directory`."""
    exists = (directory / "tournament.sqlite").exists()
    store = FigureStore.resume(directory, settings.config()) if exists else FigureStore.create(directory,
                                                                                               settings.config())
    try:
        log_dir = str(directory.resolve()) if settings.logs and executor.shares_files else None
        pending = Measured(settings, store, range(0, settings.deals), log_dir)
        total = store.count() + len(pending)
        if len(pending):
            progress.note(f"{what}: {len(pending)} of {total} matches to play")
        progress.start(total, total - len(pending))
        try:
            def on_results(outcomes: list[MatchOutcome]) -> None:
                pending.store_results(outcomes)
                progress.advance(len(outcomes))

            executor.run(pending, on_results)
        except KeyboardInterrupt:
            progress.stop()
            progress.warn(f"interrupted: {store.count()} of {total} matches of {what} stored; continue with the same "
                          "command plus --resume")
            raise
        progress.stop()
        # not marked finished: the tournament's check of a finished schedule counts every rotation, which a cell of
        # equal bots leaves out (Measured); the cell is complete when nothing is pending
    finally:
        store.close()


def read_analysis(out: Path) -> Analysis:
    """The figures of the analysis stored in `out` (finished or not: what is stored)."""
    spec = out / SPEC_NAME
    if not spec.is_file():
        raise MaumauError(f"{out} holds no analysis (no {SPEC_NAME}); run `maumau analyze ... --out {out}` first")
    document = json.loads(spec.read_text())
    cells = []
    for entry in document["cells"]:
        directory = out / entry["directory"]
        if not (directory / "tournament.sqlite").exists():
            continue
        store = FigureStore.open(directory)
        try:
            settings = Settings.from_config(store.config())
            rows = list(store.figures())
        finally:
            store.close()
        if not rows:
            continue
        ruleset = ruleset_of(settings.ruleset, f"the ruleset stored in {directory}")
        cells.append(summarise(entry["label"], entry["ruleset"], settings.overrides, entry["players"],
                               str(directory), rows, f"maumau replay {shlex.quote(str(directory))}",
                               rule_keys(ruleset), repr(tuple(ruleset.deck_for(entry["players"])))))
    compared = compare(cells)
    return Analysis(tuple(cells), tuple(compared), tuple(sentences(cells, compared)), str(out))
