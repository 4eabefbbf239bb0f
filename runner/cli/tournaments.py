"""The commands that play many matches into a results directory: `tournament` (new, resumed or extended) and `deals`."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from runner.errors import MaumauError

from . import output
from .options import (FormatOpt, IsolateOpt, MemoryOpt, MoveTimeOpt, OnFaultOpt, SeedOpt, SetOpt, TimeBankOpt,
                      fault_settings, option_names, overrides_of)
from .standings import render_standings

# The options that define a tournament: `--resume DIR` and `--extend DIR` take them from the stored config.
SETTING_OPTIONS = ("table_size", "deals", "seed", "set_", "logs", "on_fault", "move_time", "time_bank", "isolate",
                   "bot_memory", "until_confident", "max_deals", "gauntlet", "tables", "seatings", "deals_file")


def tournament_cmd(
    ctx: typer.Context,
    directory: Annotated[Optional[Path], typer.Argument(help="With --resume: the results directory to continue, with its stored settings.", show_default=False)] = None,
    ruleset: Annotated[Optional[str], typer.Option("-r", "--ruleset", help="Ruleset name (see `maumau rulesets`) or YAML file.")] = None,
    bots: Annotated[Optional[list[str]], typer.Option("-b", "--bot", help="An entrant (repeat; a bot entered twice gets #1, #2); with --extend, an entrant to add.")] = None,
    table_size: Annotated[Optional[int], typer.Option("--table-size", help="Seats per table (default: entrants, at most 4).")] = None,
    deals: Annotated[Optional[int], typer.Option("--deals", help="Deals per table, each played under every seat rotation (default 10, or every deal of --deals-file).")] = None,
    workers: Annotated[Optional[int], typer.Option("--workers", help="Worker processes (default: one per core).")] = None,
    backend: Annotated[str, typer.Option("--backend", help="processes, serial, or dask (a Dask cluster; see README).")] = "processes",
    scheduler: Annotated[Optional[str], typer.Option("--scheduler", help="Dask scheduler address, e.g. tcp://host:8786 (default with --backend dask: a local cluster).")] = None,
    out: Annotated[Optional[Path], typer.Option("--out", help="Results directory (default: results/RULESET-DATE-TIME).")] = None,
    resume: Annotated[bool, typer.Option("--resume", help="Continue an interrupted tournament: `--resume DIR` alone with its stored settings, or the whole command plus --resume --out DIR.")] = False,
    extend: Annotated[Optional[Path], typer.Option("--extend", help="Add the -b entrants to the tournament in DIR: only their tables are played.")] = None,
    logs: Annotated[bool, typer.Option("--logs/--no-logs", help="Store every match's game log.")] = True,
    seed: SeedOpt = 1,
    set_: SetOpt = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress (bar or lines), notes or standings reports.")] = False,
    report_every: Annotated[Optional[int], typer.Option("--report-every", help="Print the standings so far (on stderr) every N matches.")] = None,
    fmt: FormatOpt = "table",
    on_fault: OnFaultOpt = "forfeit",
    move_time: MoveTimeOpt = 1.0,
    time_bank: TimeBankOpt = 0.0,
    isolate: IsolateOpt = False,
    bot_memory: MemoryOpt = "1G",
    until_confident: Annotated[bool, typer.Option("--until-confident", help="Double the deals until the ranking is separated at 95%.")] = False,
    max_deals: Annotated[Optional[int], typer.Option("--max-deals", help="Cap on deals with --until-confident (default 1000).")] = None,
    gauntlet: Annotated[Optional[str], typer.Option("--gauntlet", help="Only the tables with this entrant (a label or a bot entered once); its results against each opponent.")] = None,
    tables: Annotated[Optional[int], typer.Option("--tables", help="Play N tables, sampled (from --seed) so that every pair of entrants meets about equally often.")] = None,
    seatings: Annotated[str, typer.Option("--seatings", help="rotations (k per deal) or permutations (all k! seating orders per deal).")] = "rotations",
    deals_file: Annotated[Optional[Path], typer.Option("--deals-file", help="Play the deals of this file (see `maumau deals`): deal i at every table.")] = None,
) -> None:
    """Round-robin tournament: every table of entrants plays duplicate deals; standings at the end."""
    from runner.tournament.driver import conduct, extend as extend_tournament, stored_config
    from runner.tournament.settings import plan, stored_settings

    output.render_rows([], fmt)  # refuse a bad --format before playing
    with option_names():
        if directory is not None and not resume:
            raise MaumauError(f"{directory}: a results directory is given as an argument only with --resume "
                              "(`maumau tournament --resume DIR`); a new tournament takes --out DIR")
        if directory is not None and out is not None and directory != out:
            raise MaumauError(f"--resume {directory} and --out {out} name two directories; give one")
        out = directory if directory is not None else out
        if extend is not None:
            refuse_settings(ctx, "--extend DIR", ruleset, resume=False)
            settings = extend_tournament(extend, bots or [])
            out, resume = extend, True
        elif resume and ruleset is None and not bots:
            if out is None:
                raise MaumauError("--resume needs the results directory: `maumau tournament --resume DIR`")
            refuse_settings(ctx, "--resume DIR", ruleset, resume=True)
            settings = stored_settings(stored_config(out))
        else:
            if ruleset is None or not bots:
                raise MaumauError("a tournament needs -r RULESET and its entrants (-b BOT, at least two); "
                                  "`--resume DIR` continues a stored one")
            faults = fault_settings(on_fault, move_time, time_bank, isolate, bot_memory)
            settings = plan(ruleset, bots, deals, table_size, seed, overrides_of(set_), logs=logs,
                            until_confident=until_confident, max_deals=max_deals, faults=faults, gauntlet=gauntlet,
                            tables=tables, seatings=seatings, deals_file=deals_file)
        standings, _ = conduct(settings, out, resume, backend, workers, quiet, scheduler, report_every=report_every,
                               report=report_standings)
    typer.echo(render_standings(standings, fmt))


def refuse_settings(ctx: typer.Context, how: str, ruleset: str | None, resume: bool) -> None:
    """`--resume DIR` and `--extend DIR` take the stored settings: an option that would change them is refused."""
    # Typer's click may be vendored: the source is compared by name
    given = [name for name in SETTING_OPTIONS if getattr(ctx.get_parameter_source(name), "name", "") == "COMMANDLINE"]
    if ruleset is not None:
        given.insert(0, "ruleset")
    if given:
        option = next(p.opts[0] for p in ctx.command.params if p.name == given[0])
        fix = ("give the whole command (-r and -b too) with --resume --out DIR to check it against them" if resume
               else "start a new tournament to change them")
        raise MaumauError(f"{how} plays the stored settings, which {option} would change; {fix}")


def report_standings(standings, done: int, total: int) -> None:
    """--report-every: the standings so far, as a table on stderr (stdout keeps the final ones, in --format)."""
    print(f"standings after {done} of {total} matches:\n{render_standings(standings, 'table')}\n", file=sys.stderr,
          flush=True)


def deals_cmd(
    directory: Annotated[Path, typer.Argument(help="A tournament's results directory.")],
    out: Annotated[Path, typer.Option("--out", help="The deal file to write (JSON lines; gzip if .gz).")],
) -> None:
    """Write a tournament's deals (every hand, the upcards and the stock of every round) to a deal file."""
    from runner.tournament.export import export_deals

    count = export_deals(directory, out)
    typer.echo(f"wrote {count} deals to {out}; play them with --deals-file {out}")
