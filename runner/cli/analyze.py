"""`maumau analyze`: what rulesets do (length, endings, seats, drama, each rule), compared on the same deals."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated, Optional

import typer

from runner.errors import MaumauError

from .options import SeedOpt, SetOpt, option_names, overrides_of
from .tournaments import BackendOpt, OutOpt, SchedulerOpt, WorkersOpt


def analyze_cmd(
    rulesets: Annotated[list[str], typer.Argument(
        help="Rulesets (names or YAML files) to measure; the first is the one the others are compared with.",
        show_default=False)],
    players: Annotated[Optional[str], typer.Option(
        "--players", help="Table size, or a range such as 2-6 (default: 4 if every ruleset allows it).")] = None,
    deals: Annotated[int, typer.Option(
        "--deals", help="Deals per cell (with --until: to start with; default 200).")] = 200,
    until: Annotated[Optional[float], typer.Option(
        "--until", help="Double the deals until every cell's decisions per round has a 95% interval at most this "
                        "share of its value wide, e.g. 0.05 (up to --max-deals).")] = None,
    max_deals: Annotated[int, typer.Option("--max-deals", help="The most deals per cell with --until.")] = 3200,
    bots: Annotated[Optional[list[str]], typer.Option(
        "-b", "--bot", help="The bots in the seats, repeated round the table (default: medium at every seat).")] = None,
    skill: Annotated[Optional[list[str]], typer.Option(
        "--skill", help="STRONG/WEAK: the order index of STRONG in one seat among WEAK bots (repeatable; default "
                        "medium/random; e.g. 'hard:rollouts=100/medium'; none: no skill tournaments).")] = None,
    hidden_info: Annotated[Optional[str], typer.Option(
        "--hidden-info", help="The value of hidden information: BOT (hard, with options, e.g. hard:rollouts=100) "
                              "seeing every hand, in one seat among the same BOT not seeing them; its order index.")
    ] = None,
    ablate: Annotated[bool, typer.Option(
        "--ablate", help="Also play the ruleset with each of its rules taken away, each against the whole.")] = False,
    set_: SetOpt = None,
    sweep: Annotated[Optional[str], typer.Option(
        "--sweep", help="One key of one ruleset at several values, e.g. powers.7.draw=1,2,3.")] = None,
    out: OutOpt = None,
    resume: Annotated[bool, typer.Option(
        "--resume", help="Continue an interrupted analysis: the same command plus --resume --out DIR.")] = False,
    workers: WorkersOpt = None,
    backend: BackendOpt = "processes",
    scheduler: SchedulerOpt = None,
    logs: Annotated[bool, typer.Option("--logs/--no-logs", help="Also store every match's game log.")] = False,
    seed: SeedOpt = None,
    fmt: Annotated[str, typer.Option(
        "--format", help="Output: table, json, csv or html (one offline page).")] = "table",
    report: Annotated[Optional[Path], typer.Option(
        "--report", help="Also write the HTML report (one file, opens offline) to FILE.")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress or notes.")] = False,
) -> None:
    """What rulesets do, measured on equal bots: length, endings and stalls, seat advantage, drama, each rule's
    firing; with several rulesets or a sweep, each against the first on the same deals, with 95% intervals."""
    from runner.analysis.report import FORMATS, render
    from runner.analysis.runs import make_plan, run_analysis
    from runner.tournament.progress import progress_for

    if fmt not in FORMATS:
        raise MaumauError(f"unknown --format {fmt!r}; use one of {', '.join(FORMATS)}")
    if resume and out is None:
        raise MaumauError("--resume needs --out DIR: the directory of the analysis to continue")
    with option_names():
        plan = make_plan(rulesets, players, overrides_of(set_), sweep, bots, deals, 1 if seed is None else seed,
                         logs, skill=skill, ablate=ablate, until=until, max_deals=max_deals,
                         hidden_info=hidden_info)
        if workers is not None and workers < 1:
            raise MaumauError(f"--workers must be at least 1, got {workers}")
        if out is None:
            stamp = time.strftime("%Y%m%d-%H%M%S")
            out = Path("results") / f"analysis-{plan.variants[0].label}-{stamp}"
        progress = progress_for(quiet)
        if not quiet:
            progress.note(f"analysis of {', '.join(v.label for v in plan.variants)} at "
                          f"{', '.join(map(str, plan.players))} players, {plan.deals} deals each; results in {out}")
        analysis = run_analysis(plan, out, resume, backend, workers, progress, scheduler)  # Ctrl-C: says how to resume
    if report is not None:
        try:
            report.write_text(render(analysis, "html"))
        except OSError as exc:
            raise MaumauError(f"cannot write the report {report}: {exc.strerror}") from None
        if not quiet:
            progress.note(f"report: {report}")
    typer.echo(render(analysis, fmt))
