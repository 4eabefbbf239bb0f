"""An analysis for people (terminal tables via tabulate) and machines (JSON: every figure and interval; CSV)."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import asdict

from tabulate import tabulate

from runner.errors import MaumauError

from .figures import ENDINGS, Cell
from .runs import Analysis
from .text import change, number, quantile_change, shown

FORMATS = ("table", "json", "csv", "html")


def render(analysis: Analysis, fmt: str) -> str:
    if fmt == "table":
        return table(analysis)
    if fmt == "json":
        return json.dumps(data(analysis), indent=1)
    if fmt == "csv":
        return csv_text(analysis)
    if fmt == "html":
        from .html import page  # matplotlib, an extra, is imported only for the HTML report

        return page(analysis)
    raise MaumauError(f"unknown --format {fmt!r}; use one of {', '.join(FORMATS)}")


def table(analysis: Analysis) -> str:
    parts = ["\n".join(analysis.sentences)]
    for players in sorted({cell.players for cell in analysis.cells}):
        cells = [cell for cell in analysis.cells if cell.players == players]
        compared = {(c.other, c.name): c for c in analysis.compared if c.players == players}
        headers = ["figure"]
        for i, cell in enumerate(cells):
            headers.append(f"{cell.label}\n{cell.matches} matches, {cell.rounds} rounds")
            if i:
                headers.append(f"vs {cells[0].label}")
        rows = []
        for figure in cells[0].figures:
            if figure.group == ENDINGS and not any(quiet_zero(cell, figure.name) is False for cell in cells):
                continue  # an ending no cell ever saw
            row = [figure.name]
            for i, cell in enumerate(cells):
                try:
                    estimate = cell.figure(figure.name).estimate
                    row.append(shown(estimate.value, estimate.low, estimate.high))
                except KeyError:
                    row.append("")
                if i:
                    c = compared.get((cell.label, figure.name))
                    row.append(change(c) if c is not None else "")
            rows.append(row)
        parts.append(f"== {players} players: value [95% interval]; vs: the change, paired on the same deals; "
                     f"* the interval excludes 0")
        parts.append(tabulate(rows, headers=headers, disable_numparse=True))
        spread = []
        for f in cells[0].figures:
            if f.quantiles is None:
                continue
            for i, label in enumerate(QUANTILES):
                row = [f"{f.name} {label}", quantile(cells[0], f.name, i)]
                for cell in cells[1:]:
                    row += [quantile(cell, f.name, i), quantile_change(compared.get((cell.label, f.name)), i)]
                spread.append(row)
        if spread:
            parts.append("Quantiles per round (per match for rounds) [95% interval, deals resampled]; vs: the "
                         "difference, the same deals resampled for both where the deck is the same")
            headers = ["figure", cells[0].label, *(h for c in cells[1:] for h in (c.label, f"vs {cells[0].label}"))]
            parts.append(tabulate(spread, headers=headers, disable_numparse=True))
        for cell in cells:
            parts.append(cell_detail(cell))
    return "\n\n".join(part for part in parts if part)


QUANTILES = ("10%", "50%", "90%")


def quantile(cell: Cell, name: str, i: int) -> str:
    """A cell's `i`-th quantile of figure `name` with its interval, or '' if it has none."""
    try:
        figure = cell.figure(name)
    except KeyError:
        return ""
    if figure.quantiles is None:
        return ""
    spans = figure.quantile_intervals
    return shown(figure.quantiles[i], *spans[i]) if spans else number(figure.quantiles[i])


def quiet_zero(cell: Cell, name: str) -> bool | None:
    """Whether the cell's figure is 0 throughout (None: the cell has no such figure)."""
    try:
        return cell.figure(name).estimate.value == 0
    except KeyError:
        return None


def cell_detail(cell: Cell) -> str:
    """A cell's rules, its seat test and the matches that hit a bound."""
    lines = [f"-- {cell.label}, {cell.players} players: what each rule does"]
    rows = [[rule.key, shown(rule.fires_per_round.value, rule.fires_per_round.low, rule.fires_per_round.high),
             rule.fires, number(rule.mean_size), rule.size_label,
             "NEVER FIRED" if rule.never_fired else "not exercised by these bots" if rule.not_exercised else ""]
            for rule in cell.rules]
    lines.append(tabulate(rows, headers=["rule", "fires per round", "fires", "mean size", "size counts", ""],
                          disable_numparse=True) if rows else "(no rule of this ruleset shows in its log)")
    test = cell.seat_test
    lines.append(f"No seat advantage (round wins by position from the leading seat): chi-square {test.statistic:.2f}, "
                 f"{test.degrees} degrees of freedom, p = {test.p_value:.3f}"
                 + (": the seats differ" if test.advantage else ""))
    if cell.stalls:
        lines.append(f"Matches that stalled or hit a bound ({len(cell.stalls)}):")
        lines.extend(f"  {stall.match_id} (seed {stall.seed}, {stall.why}): {stall.command}" for stall in cell.stalls)
    return "\n".join(lines)


def data(analysis: Analysis) -> dict:
    """Every figure with its interval, every rule, test, stall and comparison, as JSON data."""
    cells = []
    for cell in analysis.cells:
        entry = asdict(cell)
        entry.pop("terms")
        entry.pop("spreads")  # every round's values: the quantiles stand for them
        entry.pop("by_deal")
        cells.append(entry)
    return {"directory": analysis.directory, "sentences": list(analysis.sentences), "cells": cells,
            "compared": [asdict(c) for c in analysis.compared]}


def rows(analysis: Analysis) -> list[dict]:
    """One flat row per cell and figure, with its change against the first cell at its table size."""
    compared = {(c.players, c.other, c.name): c for c in analysis.compared}
    result = []
    for cell in analysis.cells:
        for figure in cell.figures:
            e, q = figure.estimate, figure.quantiles or (None, None, None)
            spans = figure.quantile_intervals or ((None, None),) * 3
            c = compared.get((cell.players, cell.label, figure.name))
            d = c.difference if c is not None else None
            moved = (c.quantile_differences if c is not None else None) or ((None, None, None),) * 3
            result.append({
                "cell": cell.label, "players": cell.players, "group": figure.group, "figure": figure.name,
                "value": e.value, "low": e.low, "high": e.high, "matches": e.matches,
                "q10": q[0], "q10_low": spans[0][0], "q10_high": spans[0][1],
                "q50": q[1], "q50_low": spans[1][0], "q50_high": spans[1][1],
                "q90": q[2], "q90_low": spans[2][0], "q90_high": spans[2][1],
                "base": c.base if c is not None else "", "difference": d.value if d else None,
                "difference_low": d.low if d else None, "difference_high": d.high if d else None,
                "relative": d.relative if d else None, "relative_low": d.relative_low if d else None,
                "relative_high": d.relative_high if d else None, "paired": d.paired if d else None,
                "excludes_0": d.significant if d else None,
                **{f"{q}_difference{end}": moved[i][k] for i, q in enumerate(("q10", "q50", "q90"))
                   for k, end in enumerate(("", "_low", "_high"))},
            })
        for rule in cell.rules:
            result.append({"cell": cell.label, "players": cell.players, "group": "rule never fired",
                           "figure": rule.key, "value": 1.0 if rule.never_fired else 0.0})
            result.append({"cell": cell.label, "players": cell.players, "group": "rule not exercised by these bots",
                           "figure": rule.key, "value": 1.0 if rule.not_exercised else 0.0})
    return result


def csv_text(analysis: Analysis) -> str:
    table_rows = rows(analysis)
    buffer = io.StringIO()
    fields = list(table_rows[0]) if table_rows else []
    writer = csv.DictWriter(buffer, fieldnames=fields, lineterminator="\n", restval="")
    writer.writeheader()
    writer.writerows(table_rows)
    return buffer.getvalue().rstrip("\n")
