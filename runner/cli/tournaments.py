"""The commands that play many matches into a results directory: `tournament` (new, resumed or extended) and `deals`."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from runner.errors import MaumauError
from runner.seats.bot_output import bots_print_to_stderr
from runner.words import counted

from . import output
from .options import (
    FormatOpt,
    IsolateOpt,
    MemoryOpt,
    MoveTimeOpt,
    OnFaultOpt,
    SandboxOpt,
    SeedOpt,
    SetOpt,
    TimeBankOpt,
    WallTimeOpt,
    fault_settings,
    option_names,
    overrides_of,
    seed_or_random,
)
from .standings import render_standings

# The options `tournament` and `sprt` share.
OptionalRulesetOpt = Annotated[
    Optional[str], typer.Option("-r", "--ruleset", help="Ruleset name (see `maumau rulesets`) or YAML file.")
]
WorkersOpt = Annotated[Optional[int], typer.Option("--workers", help="Worker processes (default: one per core).")]
BackendOpt = Annotated[str, typer.Option(
    "--backend", help="processes, serial, or dask (a Dask cluster; see docs/cluster.md).")]
SchedulerOpt = Annotated[
    Optional[str],
    typer.Option(
        "--scheduler",
        help="Dask scheduler address, e.g. tcp://host:8786 (default with --backend dask: a local cluster).",
    ),
]
OutOpt = Annotated[
    Optional[Path], typer.Option("--out", help="Results directory (default: results/RULESET-DATE-TIME).")
]
LogsOpt = Annotated[bool, typer.Option("--logs/--no-logs", help="Store every match's game log.")]
SeatingsOpt = Annotated[
    str, typer.Option("--seatings", help="rotations (k per deal) or permutations (all k! seating orders per deal).")
]

# The options that define a tournament: `--resume DIR` and `--extend DIR` take them from the stored config.
SETTING_OPTIONS = (
    "table_size",
    "deals",
    "seed",
    "set_",
    "logs",
    "on_fault",
    "move_time",
    "time_bank",
    "isolate",
    "sandbox",
    "bot_memory",
    "until_confident",
    "max_deals",
    "gauntlet",
    "tables",
    "seatings",
    "deals_file",
)


def tournament_cmd(
    ctx: typer.Context,
    directory: Annotated[
        Optional[Path],
        typer.Argument(
            help="With --resume: the results directory to continue, with its stored settings.", show_default=False
        ),
    ] = None,
    ruleset: OptionalRulesetOpt = None,
    bots: Annotated[
        Optional[list[str]],
        typer.Option(
            "-b",
            "--bot",
            help="An entrant (repeat; a bot entered twice gets #1, #2); with --extend, an entrant to add.",
        ),
    ] = None,
    table_size: Annotated[
        Optional[int], typer.Option("--table-size", help="Seats per table (default: entrants, at most 4).")
    ] = None,
    deals: Annotated[
        Optional[int],
        typer.Option(
            "--deals",
            help="Deals per table, each played under every seat rotation (default 10, or every deal of --deals-file).",
        ),
    ] = None,
    workers: WorkersOpt = None,
    backend: BackendOpt = "processes",
    scheduler: SchedulerOpt = None,
    out: OutOpt = None,
    resume: Annotated[
        bool,
        typer.Option(
            "--resume",
            help="Continue an interrupted tournament: `--resume DIR` alone with its stored settings, "
            "or the whole command plus --resume --out DIR.",
        ),
    ] = False,
    extend: Annotated[
        Optional[Path],
        typer.Option("--extend", help="Add the -b entrants to the tournament in DIR: only their tables are played."),
    ] = None,
    logs: LogsOpt = True,
    seed: SeedOpt = None,
    set_: SetOpt = None,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="No progress (bar or lines), notes or standings reports.")
    ] = False,
    report_every: Annotated[
        Optional[int], typer.Option("--report-every", help="Print the standings so far (on stderr) every N matches.")
    ] = None,
    fmt: FormatOpt = "table",
    on_fault: OnFaultOpt = "forfeit",
    move_time: MoveTimeOpt = 1.0,
    wall_time: WallTimeOpt = None,
    time_bank: TimeBankOpt = 0.0,
    isolate: IsolateOpt = False,
    sandbox: SandboxOpt = False,
    bot_memory: MemoryOpt = "1G",
    until_confident: Annotated[
        bool, typer.Option("--until-confident", help="Double the deals until the ranking is separated at 95%.")
    ] = False,
    max_deals: Annotated[
        Optional[int], typer.Option("--max-deals", help="Cap on deals with --until-confident (default 1000).")
    ] = None,
    gauntlet: Annotated[
        Optional[str],
        typer.Option(
            "--gauntlet",
            help="Only the tables with this entrant (a label or a bot entered once); "
            "its results against each opponent.",
        ),
    ] = None,
    tables: Annotated[
        Optional[int],
        typer.Option(
            "--tables",
            help="Play N tables, sampled (from --seed) so that every pair of entrants meets about equally often.",
        ),
    ] = None,
    seatings: SeatingsOpt = "rotations",
    deals_file: Annotated[
        Optional[Path],
        typer.Option("--deals-file", help="Play the deals of this file (see `maumau deals`): deal i at every table."),
    ] = None,
) -> None:
    """Round-robin tournament: every table of entrants plays duplicate deals; standings at the end."""
    from runner.tournament.driver import add_deals, conduct, stored_config
    from runner.tournament.driver import extend as extend_tournament
    from runner.tournament.settings import plan, stored_settings

    output.render_rows([], fmt)  # refuse a bad --format before playing
    with option_names():
        if directory is not None and not resume:
            raise MaumauError(
                f"{directory}: a results directory is given as an argument only with --resume "
                "(`maumau tournament --resume DIR`); a new tournament takes --out DIR"
            )
        if directory is not None and out is not None and directory != out:
            raise MaumauError(f"--resume {directory} and --out {out} name two directories; give one")
        out = directory if directory is not None else out
        notes: tuple[str, ...] = ()  # a random seed's
        if extend is not None:
            refuse_settings(ctx, "--extend DIR", ruleset, resume=False)
            settings = extend_tournament(extend, bots or [])
            out, resume = extend, True
        elif resume and ruleset is None and not bots:
            if out is None:
                raise MaumauError("--resume needs the results directory: `maumau tournament --resume DIR`")
            # --deals may add deals to it (as --extend adds entrants); any other setting is refused
            refuse_settings(ctx, "--resume DIR", ruleset, resume=True,
                            options=tuple(name for name in SETTING_OPTIONS if name != "deals"))
            settings = add_deals(out, deals) if deals is not None else stored_settings(stored_config(out))
        else:
            if ruleset is None or not bots:
                raise MaumauError(
                    "a tournament needs -r RULESET and its entrants (-b BOT, at least two); "
                    "`--resume DIR` continues a stored one"
                )
            faults = fault_settings(on_fault, move_time, time_bank, isolate, bot_memory, wall_time, sandbox)
            seed, notes = run_seed(seed, resume, out, "tournament")
            settings = plan(
                ruleset,
                bots,
                deals,
                table_size,
                seed,
                overrides_of(set_),
                logs=logs,
                until_confident=until_confident,
                max_deals=max_deals,
                faults=faults,
                gauntlet=gauntlet,
                tables=tables,
                seatings=seatings,
                deals_file=deals_file,
            )
        with bots_print_to_stderr():  # what an in-process bot prints is never part of the standings
            standings, _ = conduct(
                settings,
                out,
                resume,
                backend,
                workers,
                quiet,
                scheduler,
                report_every=report_every,
                report=report_standings,
                notes=notes,
            )
    typer.echo(render_standings(standings, fmt))


def run_seed(seed: int | None, resume: bool, out: Path | None, what: str) -> tuple[int, tuple[str, ...]]:
    """`--seed`; else, resuming, the stored run's own seed; else a random one, and the note that says it."""
    from runner.tournament.driver import stored_seed

    if seed is None and resume and out is not None:
        seed = stored_seed(out)
    return seed_or_random(seed, what)


def refuse_settings(
    ctx: typer.Context, how: str, ruleset: str | None, resume: bool, options: tuple[str, ...] = SETTING_OPTIONS
) -> None:
    """`--resume DIR` and `--extend DIR` take the stored settings: an option that would change them is refused."""
    # Typer's click may be vendored: the source is compared by name
    given = [name for name in options if getattr(ctx.get_parameter_source(name), "name", "") == "COMMANDLINE"]
    if ruleset is not None:
        given.insert(0, "ruleset")
    if given:
        option = next(p.opts[0] for p in ctx.command.params if p.name == given[0])
        fix = (
            "give the whole command (-r and -b too) with --resume --out DIR to check it against them"
            if resume
            else "start a new tournament to change them"
        )
        raise MaumauError(f"{how} plays the stored settings, which {option} would change; {fix}")


def report_standings(standings, done: int, total: int) -> None:
    """--report-every: the standings so far, as a table on stderr (stdout keeps the final ones, in --format)."""
    print(
        f"standings after {done} of {total} matches:\n{render_standings(standings, 'table')}\n",
        file=sys.stderr,
        flush=True,
    )


def deals_cmd(
    directory: Annotated[Path, typer.Argument(help="A tournament's results directory.")],
    out: Annotated[Path, typer.Option("--out", help="The deal file to write (JSON lines; gzip if .gz).")],
) -> None:
    """Write a tournament's deals (every hand, the upcards and the stock of every round) to a deal file."""
    from runner.tournament.export import export_deals

    count = export_deals(directory, out)
    typer.echo(f"wrote {counted(count, 'deal')} to {out}; play them with --deals-file {out}")


def sprt_cmd(
    ctx: typer.Context,
    names: Annotated[
        Optional[list[str]],
        typer.Argument(
            help="NEW BASE: the bot on trial and the one it must beat (with --resume alone: DIR).", show_default=False
        ),
    ] = None,
    ruleset: OptionalRulesetOpt = None,
    opponents: Annotated[
        Optional[list[str]],
        typer.Option(
            "-b",
            "--bot",
            help="An opponent at the table of NEW and of BASE (repeat); none: NEW meets BASE at two seats.",
        ),
    ] = None,
    elo0: Annotated[
        float, typer.Option("--elo0", help="H0: NEW is stronger than BASE by this logistic Elo (of the paired score).")
    ] = 0.0,
    elo1: Annotated[float, typer.Option("--elo1", help="H1: NEW is stronger than BASE by this logistic Elo.")] = 10.0,
    alpha: Annotated[float, typer.Option("--alpha", help="The rate of accepting H1 when H0 holds.")] = 0.05,
    beta: Annotated[float, typer.Option("--beta", help="The rate of accepting H0 when H1 holds.")] = 0.05,
    max_deals: Annotated[
        Optional[int],
        typer.Option(
            "--max-deals", help="Stop undecided after this many deals (default 20000, or every deal of --deals-file)."
        ),
    ] = None,
    workers: WorkersOpt = None,
    backend: BackendOpt = "processes",
    scheduler: SchedulerOpt = None,
    out: OutOpt = None,
    resume: Annotated[
        bool,
        typer.Option(
            "--resume",
            help="Continue an interrupted test: `--resume DIR` alone, or the whole command plus --resume --out DIR.",
        ),
    ] = False,
    logs: LogsOpt = True,
    seed: SeedOpt = None,
    set_: SetOpt = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress (bar or lines) or notes.")] = False,
    fmt: Annotated[str, typer.Option("--format", help="Output: table or json.")] = "table",
    on_fault: OnFaultOpt = "forfeit",
    move_time: MoveTimeOpt = 1.0,
    wall_time: WallTimeOpt = None,
    time_bank: TimeBankOpt = 0.0,
    isolate: IsolateOpt = False,
    sandbox: SandboxOpt = False,
    bot_memory: MemoryOpt = "1G",
    seatings: SeatingsOpt = "rotations",
    deals_file: Annotated[
        Optional[Path],
        typer.Option("--deals-file", help="Play the deals of this file (see `maumau deals`), in its order."),
    ] = None,
) -> None:
    """A/B test: NEW and BASE in the same seat on the same deals until a sequential probability ratio test decides."""
    from runner.tournament.abtest import DEFAULT_MAX_DEALS, plan_test
    from runner.tournament.driver import conduct_test, stored_config
    from runner.tournament.settings import stored_settings
    from runner.tournament.sprt import Hypotheses

    if fmt not in ("table", "json"):
        raise MaumauError(f"unknown --format {fmt!r}; use table or json")
    names = names or []
    notes: tuple[str, ...] = ()  # a random seed's
    with option_names():
        if resume and ruleset is None and len(names) == 1 and out is None:
            refuse_settings(ctx, "--resume DIR", None, resume=True, options=SPRT_SETTING_OPTIONS)
            out = Path(names[0])
            settings = stored_settings(stored_config(out))
        else:
            if ruleset is None or len(names) != 2:
                raise MaumauError(
                    "sprt needs -r RULESET and two bots, NEW and BASE (`maumau sprt -r standard-single "
                    "NEW BASE [-b OPPONENT ...]`); `--resume DIR` continues a stored test"
                )
            faults = fault_settings(on_fault, move_time, time_bank, isolate, bot_memory, wall_time, sandbox)
            seed, notes = run_seed(seed, resume, out, "test")
            cap = max_deals if max_deals is not None or deals_file is not None else DEFAULT_MAX_DEALS
            settings = plan_test(
                ruleset,
                names[0],
                names[1],
                opponents or [],
                Hypotheses(elo0=elo0, elo1=elo1, alpha=alpha, beta=beta),
                max_deals=cap,
                seed=seed,
                overrides=overrides_of(set_),
                logs=logs,
                faults=faults,
                seatings=seatings,
                deals_file=deals_file,
            )
        with bots_print_to_stderr():  # what an in-process bot prints is never part of the verdict
            verdict, out = conduct_test(settings, out, resume, backend, workers, quiet, scheduler, notes)
    typer.echo(render_verdict(settings, verdict, out, fmt))


SPRT_SETTING_OPTIONS = (
    "opponents",
    "elo0",
    "elo1",
    "alpha",
    "beta",
    "max_deals",
    "seed",
    "set_",
    "logs",
    "on_fault",
    "move_time",
    "time_bank",
    "isolate",
    "sandbox",
    "bot_memory",
    "seatings",
    "deals_file",
)


def render_verdict(settings, verdict, out: Path, fmt: str) -> str:
    """The test's decision, LLR, matches and score difference: a few lines, or JSON."""
    import json

    new, base = settings.entrants[0], settings.entrants[1]
    opponents = list(settings.entrants[2:])
    elo, elo_low, elo_high = verdict.elo
    h = settings.sprt
    if fmt == "json":
        return json.dumps(
            {
                "decision": verdict.decision or "none",
                "new": new,
                "base": base,
                "opponents": opponents,
                "llr": round(verdict.llr, 4),
                "bounds": [round(b, 4) for b in verdict.bounds],
                "deals": verdict.deals,
                "matches": verdict.matches,
                "score": round(verdict.score, 4),
                "score_low": round(verdict.score_low, 4),
                "score_high": round(verdict.score_high, 4),
                "elo": _finite(elo),
                "elo_low": _finite(elo_low),
                "elo_high": _finite(elo_high),
                "hypotheses": {key: h[key] for key in ("elo0", "elo1", "alpha", "beta")},  # stored: sorted
                "stored_deals": verdict.stored_deals,
                "played": verdict.played,
                "results": str(out),
            },
            indent=2,
        )
    against = f"with {', '.join(opponents)} at the table" if opponents else "at two seats"
    e0, e1 = f"{h['elo0']:g} Elo", f"{h['elo1']:g} Elo"
    outcome = {
        "H1": f"{new} is stronger than {base}: the evidence favours a gain of {e1} over one of {e0} (H1 accepted)",
        "H0": f"no evidence that {new} is {e1} stronger than {base}; at most {e0} (H0 accepted)",
        None: f"no decision within the cap of {settings.deals} deals",
    }[verdict.decision]
    after = "decided after" if verdict.decision else "after"
    extra = verdict.played - verdict.matches
    return "\n".join(
        [
            f"{new} (NEW) against {base} (BASE) {against}, {settings.ruleset_name}: {outcome}",
            f"{after} {verdict.deals} deals, {verdict.matches} matches; {verdict.line()}"
            + (
                f"; {verdict.played} matches played in all: the {extra} in flight at the decision were finished and "
                "stored, not tested"
                if verdict.decision and extra > 0
                else ""
            ),
            f"paired score {verdict.score:.3f} (95% {verdict.score_low:.3f}–{verdict.score_high:.3f}), "
            f"Elo {_signed(elo)} ({_signed(elo_low)} to {_signed(elo_high)})",
        ]
    )


def _finite(x: float) -> float | None:
    return round(x, 2) if abs(x) != float("inf") else None


def _signed(x: float) -> str:
    return f"{x:+.1f}" if abs(x) != float("inf") else ("+inf" if x > 0 else "-inf")
