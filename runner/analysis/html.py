"""An analysis as one HTML file that opens offline: the sentences, the figures table, and charts as inline SVG.

The charts are drawn with matplotlib (the `report` extra), to SVG text put into the page: no script,
no file beside it, nothing fetched. The charts: length distributions, seat advantage with error
bars, rule firing rates with error bars, and for a sweep (or any three cells or more) a line with its
band per figure.
"""

from __future__ import annotations

import html
import io

from runner.errors import MaumauError

from .figures import LENGTH, SKILL, Cell
from .runs import Analysis
from .text import change, quantile_change, shown

INSTALL_HINT = "pip install 'maumau[report]'"
SWEPT = ("decisions per round", "rounds per match", "cards drawn per round", "seat 0 round wins",
         "lead changes per match")

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 72em; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 2em; }
table { border-collapse: collapse; font-size: 0.85em; }
td, th { padding: 0.2em 0.6em; border-bottom: 1px solid #ddd; text-align: left; vertical-align: top; }
td.significant { font-weight: bold; color: #8a1c00; }
.lead p { margin: 0.3em 0; } .chart { margin: 1em 0; } .never { color: #8a1c00; font-weight: bold; }
code { background: #f4f4f4; padding: 0 0.2em; }
"""


def pyplot():
    """matplotlib's pyplot on the file backend, or a one-line error saying how to install it."""
    try:
        import matplotlib
    except ImportError:
        raise MaumauError(f"the HTML report draws its charts with matplotlib, which is not installed; install it "
                          f"with: {INSTALL_HINT}") from None
    matplotlib.use("Agg")  # no display: drawn to text
    import matplotlib.pyplot as plt

    plt.rcParams["svg.hashsalt"] = "maumau"  # the same analysis gives the same page
    return plt


def svg(figure) -> str:
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg", bbox_inches="tight", metadata={"Date": None})
    figure.clf()
    text = buffer.getvalue()
    return text[text.index("<svg"):]


def page(analysis: Analysis) -> str:
    """The whole report as one HTML document."""
    plt = pyplot()
    parts = [f"<h1>maumau analyze: {html.escape(', '.join(dict.fromkeys(c.label for c in analysis.cells)))}</h1>",
             '<div class="lead">' + "".join(f"<p>{html.escape(line)}</p>" for line in analysis.sentences) + "</div>"]
    for players in sorted({cell.players for cell in analysis.cells}):
        cells = [cell for cell in analysis.cells if cell.players == players]
        parts.append(f"<h2>{players} players</h2>")
        if len(cells) >= 3 or all("=" in cell.label for cell in cells[1:]) and len(cells) > 1:  # a sweep
            parts.append(chart(plt, sweep_lines, cells))
        parts.append(chart(plt, lengths, cells))
        parts.append(chart(plt, seats, cells))
        parts.append(chart(plt, firing, cells))
        parts.append(figure_table(analysis, cells))
        for cell in cells:
            parts.append(detail(cell))
    body = "\n".join(parts)
    return (f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>maumau analyze</title>"
            f"<style>{STYLE}</style></head><body>\n{body}\n<p><small>Stored in <code>{html.escape(analysis.directory)}"
            "</code>.</small></p></body></html>\n")


def chart(plt, draw, cells: list[Cell]) -> str:
    figure = plt.figure(figsize=(9, 3.2))
    draw(figure, cells)
    figure.tight_layout()
    text = svg(figure)
    plt.close(figure)
    return f'<div class="chart">{text}</div>'


def lengths(figure, cells: list[Cell]) -> None:
    """Distributions of decisions per round and rounds per match, one histogram per cell."""
    for i, name in enumerate(("decisions per round", "rounds per match")):
        axes = figure.add_subplot(1, 2, i + 1)
        for cell in cells:
            values = cell.spreads.get(name, [])
            if values:
                low, high = min(values), max(values)
                # counts: one bin per value where they are few, so that no bin is empty between two that are not
                bins = [b - 0.5 for b in range(int(low), int(high) + 2)] if high - low <= 40 else 30
                axes.hist(values, bins=bins, histtype="step", linewidth=1.5, label=cell.label)
        axes.set_title(name)
        axes.set_ylabel("rounds" if "round" in name.split()[-1] else "matches")
        if i == 0:
            axes.legend(fontsize="small")


def seats(figure, cells: list[Cell]) -> None:
    """Each position's share of round wins with its interval, against equal shares."""
    axes = figure.add_subplot(1, 1, 1)
    n = cells[0].players
    width = 0.8 / len(cells)
    for j, cell in enumerate(cells):
        xs, ys, errors = [], [], [[], []]
        for p in range(n):
            e = cell.figure(f"seat {p} round wins").estimate
            xs.append(p + (j - (len(cells) - 1) / 2) * width)
            ys.append(e.value)
            errors[0].append(e.value - e.low)
            errors[1].append(e.high - e.value)
        axes.bar(xs, ys, width=width, yerr=errors, capsize=3, label=cell.label)
    axes.axhline(1 / n, color="black", linestyle="--", linewidth=1, label="equal shares")
    axes.set_xticks(range(n), ["leading seat" if p == 0 else f"+{p}" for p in range(n)])
    axes.set_ylabel("share of round wins")
    axes.set_title("seat advantage (95% intervals)")
    axes.legend(fontsize="small")


def firing(figure, cells: list[Cell]) -> None:
    """Each rule's firings per round with its interval."""
    axes = figure.add_subplot(1, 1, 1)
    keys = list(dict.fromkeys(rule.key for cell in cells for rule in cell.rules))
    height = 0.8 / len(cells)
    for j, cell in enumerate(cells):
        by_key = {rule.key: rule for rule in cell.rules}
        ys, xs, errors = [], [], [[], []]
        for i, key in enumerate(keys):
            rule = by_key.get(key)
            if rule is None:
                continue
            e = rule.fires_per_round
            ys.append(i + (j - (len(cells) - 1) / 2) * height)
            xs.append(e.value)
            errors[0].append(e.value - e.low)
            errors[1].append(e.high - e.value)
        axes.barh(ys, xs, height=height, xerr=errors, capsize=3, label=cell.label)
    axes.set_yticks(range(len(keys)), keys)
    axes.set_xlabel("fires per round")
    axes.set_title("what each rule does (95% intervals)")
    axes.legend(fontsize="small")


def sweep_lines(figure, cells: list[Cell]) -> None:
    """A line with its 95% band per figure across the cells (a sweep's values, in order)."""
    names = [name for name in SWEPT if all(has(cell, name) for cell in cells)]
    names += [f.name for f in cells[0].figures if f.group == SKILL and all(has(c, f.name) for c in cells)]
    xs = range(len(cells))
    for i, name in enumerate(names[:6]):
        axes = figure.add_subplot(1, min(len(names), 6), i + 1)
        estimates = [cell.figure(name).estimate for cell in cells]
        axes.plot(xs, [e.value for e in estimates], marker="o")
        axes.fill_between(xs, [e.low for e in estimates], [e.high for e in estimates], alpha=0.25)
        axes.set_xticks(list(xs), [cell.label.rpartition("=")[2] or cell.label for cell in cells], fontsize="small")
        axes.set_title(name, fontsize="small")
    figure.set_size_inches(max(9, 2.4 * min(len(names), 6)), 2.8)


def has(cell: Cell, name: str) -> bool:
    try:
        cell.figure(name)
    except KeyError:
        return False
    return True


def figure_table(analysis: Analysis, cells: list[Cell]) -> str:
    compared = {(c.other, c.name): c for c in analysis.compared if c.players == cells[0].players}
    head = "<tr><th>figure</th>" + "".join(
        f"<th>{html.escape(c.label)}<br><small>{c.matches} matches, {c.rounds} rounds</small></th>"
        + (f"<th>vs {html.escape(cells[0].label)}</th>" if i else "") for i, c in enumerate(cells)) + "</tr>"
    rows = []
    for figure in cells[0].figures:
        cols = [f"<td>{html.escape(figure.name)}</td>"]
        for i, cell in enumerate(cells):
            if has(cell, figure.name):
                e = cell.figure(figure.name).estimate
                q = cell.figure(figure.name).quantiles if figure.group == LENGTH else None
                spans = cell.figure(figure.name).quantile_intervals
                median = f" [{spans[1][0]:.3g}, {spans[1][1]:.3g}]" if spans else ""
                extra = (f"<br><small>10/50/90%: {q[0]:.3g} / {q[1]:.3g}{median} / {q[2]:.3g}</small>" if q
                         else "")
                cols.append(f"<td>{shown(e.value, e.low, e.high)}{extra}</td>")
            else:
                cols.append("<td></td>")
            if i:
                c = compared.get((cell.label, figure.name))
                significant = c is not None and c.difference.significant
                moved = quantile_change(c, 1) if figure.group == LENGTH else ""
                moved = f"<br><small>median {moved}</small>" if moved else ""
                cols.append(f'<td class="{"significant" if significant else ""}">{change(c) if c else ""}{moved}</td>')
        rows.append("<tr>" + "".join(cols) + "</tr>")
    return ("<p>Each figure: value [95% interval, deals clustered]; vs: the change against the first column, paired "
            "on the same deals where the deck is the same; <b>*</b> the interval excludes 0.</p>"
            f"<table>{head}{''.join(rows)}</table>")


def rate(estimate) -> tuple[float, float, float]:
    return estimate.value, estimate.low, estimate.high


def detail(cell: Cell) -> str:
    rules = "".join(
        f"<tr><td>{html.escape(r.key)}</td><td>{shown(*rate(r.fires_per_round))}</td><td>{r.fires}</td>"
        f"<td>{'' if r.mean_size is None else f'{r.mean_size:.2f}'}</td>"
        f"<td>{html.escape(r.size_label)}</td><td class=\"never\">{'never fired' if r.never_fired else ''}"
        f"{'not exercised by these bots' if r.not_exercised else ''}</td></tr>"
        for r in cell.rules)
    test = cell.seat_test
    stalls = "".join(f"<li><code>{html.escape(s.command)}</code> (seed {s.seed}: {html.escape(s.why)})</li>"
                     for s in cell.stalls)
    return (f"<h3>{html.escape(cell.label)}: rules, seats, stalls</h3>"
            "<table><tr><th>rule</th><th>fires per round</th><th>fires</th><th>mean size</th><th>size counts</th>"
            f"<th></th></tr>{rules}</table>"
            f"<p>No seat advantage: chi-square {test.statistic:.2f}, {test.degrees} degrees of freedom, "
            f"p = {test.p_value:.3f}.</p>"
            + (f"<p>Matches that stalled or hit a bound:</p><ul>{stalls}</ul>" if stalls else ""))
