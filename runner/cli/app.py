"""maumau: run Mau Mau bots under YAML rulesets. Commands parse, call one function, print."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from runner import accel
from runner.errors import MaumauError
from runner.game import events as ev
from runner.logs import codec
from runner.plugins import registry
from runner.rules import schema_text

from . import narrate, output, tournaments
from .options import (
    FormatOpt,
    IsolateOpt,
    MemoryOpt,
    MoveTimeOpt,
    OnFaultOpt,
    RulesetOpt,
    SeedOpt,
    SetOpt,
    TimeBankOpt,
    fault_settings,
    overrides_of,
)

app = typer.Typer(
    help=__doc__.split(":")[0] + ": a tournament runner for Mau Mau bots under YAML rulesets.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)
rulesets_app = typer.Typer(help="Registered rulesets; `show`, `check` and `schema` below.", rich_markup_mode=None)
app.add_typer(rulesets_app, name="rulesets")


def _version_line() -> str:
    import runner

    return f"maumau {runner.__version__}, engine: {accel.summary()}"


def _print_version(value: bool) -> None:
    if value:
        typer.echo(_version_line())
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[bool, typer.Option("--version", is_eager=True, callback=_print_version,
                                          help="The version, and whether the compiled engine is in use.")] = False,
) -> None:
    pass


@app.command("info")
def info_cmd(fmt: FormatOpt = "table") -> None:
    """The version, the Python, and which engine modules run compiled (the accelerator) or as pure Python."""
    if fmt == "table":  # json and csv: the rows alone
        typer.echo(_version_line() + f"; Python {sys.version.split()[0]}")
    output.emit([{"module": name, "runs": state} for name, state in accel.status().items()], fmt)


@app.command("bots")
def bots_cmd(fmt: FormatOpt = "table") -> None:
    """Registered bots: name, plugin, description, and the options each takes (-b 'NAME:KEY=VALUE,...')."""
    from runner.plugins.botspec import usage

    entries = sorted(registry().bots.values(), key=lambda e: e.name)
    if fmt == "json":
        typer.echo(json.dumps([
            {"name": e.name, "plugin": e.plugin, "description": e.description, "options": [
                {"name": key, "type": o.type.__name__, "default": o.default, "help": o.help, "none": o.none or
                 o.default is None, "low": o.low} for key, o in e.parameters.items()]}
            for e in entries], indent=2))
        return
    rows = [{"name": e.name, "plugin": e.plugin, "description": e.description} for e in entries]
    if fmt == "csv":
        for row, e in zip(rows, entries):
            row["options"] = " ".join(f"{key}={usage(o)}" for key, o in e.parameters.items())
    output.emit(rows, fmt)
    options = [{"bot": e.name if i == 0 else "", "option": f"{key}={usage(o)}", "what": o.help}
               for e in entries for i, (key, o) in enumerate(e.parameters.items())]
    if fmt == "table" and options:
        typer.echo("\nOptions, given as -b 'NAME:KEY=VALUE,...' (defaults in brackets):\n"
                   + output.render_rows(options, "table"))


@rulesets_app.callback(invoke_without_command=True)
def rulesets_cmd(ctx: typer.Context, fmt: FormatOpt = "table") -> None:
    """Registered rulesets: name, players, format."""
    if ctx.invoked_subcommand is not None:
        return
    reg = registry()
    rows = []
    for name in sorted(reg.rulesets):
        ruleset = reg.load_ruleset(name)
        match = ruleset.match
        count = {"rounds": match.rounds, "wins": match.wins, "single": None}.get(match.format, match.limit)
        limit = f" {count}" if count else ""
        rows.append({
            "name": name, "players": f"{ruleset.players.min}-{ruleset.players.max}",
            "format": ruleset.match.format + limit, "plugin": reg.rulesets[name].plugin,
            "description": ruleset.description,
        })
    output.emit(rows, fmt)


@rulesets_app.command("show")
def rulesets_show(name: Annotated[str, typer.Argument(help="Ruleset name or YAML file.")], set_: SetOpt = None) -> None:
    """The resolved ruleset (extends merged, overrides applied) as YAML."""
    typer.echo(registry().load_ruleset(name, overrides_of(set_)).to_yaml(), nl=False)


@rulesets_app.command("check")
def rulesets_check(files: Annotated[list[str], typer.Argument(help="Ruleset YAML files.")]) -> None:
    """Validate ruleset files; each error names the file, the key and the fix; notes point out what may surprise."""
    reg = registry()
    failed = 0
    for file in files:
        try:
            ruleset, notes = reg.check_ruleset(file)
            typer.echo(f"ok: {file} ({ruleset.name})")
            for note in notes:
                typer.echo(f"note: {note}")
        except MaumauError as exc:
            failed += 1
            typer.echo(f"Error: {exc}", err=True)
    if failed:
        raise typer.Exit(1)


@rulesets_app.command("schema")
def rulesets_schema() -> None:
    """The JSON Schema of ruleset files, for editors."""
    typer.echo(schema_text(), nl=False)


@app.command("play")
def play_cmd(
    ruleset: RulesetOpt,
    bots: Annotated[list[str], typer.Option("-b", "--bot", help="A bot per seat, in seat order (repeat).")],
    seed: SeedOpt = 1,
    set_: SetOpt = None,
    log: Annotated[Optional[Path], typer.Option("--log", help="Write the game log (JSON lines; gzip if .gz).")] = None,
    join: Annotated[
        Optional[list[str]], typer.Option("--join", help="ROUND:BOT joins before that round (table changes).")
    ] = None,
    leave: Annotated[Optional[list[str]], typer.Option("--leave", help="ROUND:SEAT leaves before that round.")] = None,
    fmt: FormatOpt = "table",
    on_fault: OnFaultOpt = "forfeit",
    move_time: MoveTimeOpt = 1.0,
    time_bank: TimeBankOpt = 0.0,
    isolate: IsolateOpt = False,
    bot_memory: MemoryOpt = "1G",
    human: Annotated[
        bool, typer.Option("--human", help="Take a seat yourself (seat 0; the bots fill the others); no move time.")
    ] = False,
    human_seat: Annotated[
        Optional[int], typer.Option("--human-seat", help="Your seat with --human (implies --human).")
    ] = None,
) -> None:
    """One match, narrated round by round, then the final totals. A bot is a registered name or `exec:PROGRAM ARGS`."""
    from runner.seats.human import HumanQuit
    from runner.table.play import play_match

    if human and human_seat is None:
        human_seat = 0
    faults = fault_settings(on_fault, move_time, time_bank, isolate, bot_memory)
    try:
        result, events = play_match(ruleset, bots, seed, overrides_of(set_), joins=join or [], leaves=leave or [],
                                    with_log=log is not None, faults=faults, human_seat=human_seat)
    except HumanQuit as exc:
        if exc.input_ended:
            raise MaumauError(f"{exc}; give a move number on each turn (q quits)") from None
        typer.echo(f"{exc}; no result.")
        return
    if log is not None:
        codec.write_log(log, events)
    if fmt == "table":
        for line in narrate.narrate(result):
            typer.echo(line)
    output.emit(narrate.final_rows(result), fmt)


@app.command("new-bot")
def new_bot_cmd(
    name: Annotated[str, typer.Argument(help="The bot's registry name, e.g. cautious.")],
    directory: Annotated[
        Optional[Path], typer.Option("--dir", help="Where to write the package (default: maumau-NAME).")
    ] = None,
) -> None:
    """Write a bot package (entry point, bot class, tests, README), ready to `pip install -e`."""
    from runner.botkit.newbot import new_bot

    target = new_bot(name, directory)
    typer.echo(f"wrote {target}/: pyproject.toml, {name} bot module, tests/, README.md. Next:")
    for step in (f"pip install -e {target}", "maumau bots", f"maumau play -r standard -b {name} -b medium",
                 f"python -m pytest {target}/tests"):
        typer.echo(f"  {step}")


app.command("tournament")(tournaments.tournament_cmd)


@app.command("standings")
def standings_cmd(
    directory: Annotated[Path, typer.Argument(help="A tournament's results directory.")], fmt: FormatOpt = "table"
) -> None:
    """Standings of a stored tournament (complete or interrupted)."""
    from runner.tournament.driver import stored_standings

    from .standings import render_standings

    standings, note = stored_standings(directory)
    if note and fmt == "table":
        typer.echo(note, err=True)
    typer.echo(render_standings(standings, fmt))


app.command("sprt")(tournaments.sprt_cmd)
app.command("deals")(tournaments.deals_cmd)


@app.command("replay")
def replay_cmd(
    directory: Annotated[Path, typer.Argument(help="A tournament's results directory.")],
    match: Annotated[str, typer.Option("--match", help="Match id, e.g. t0-d3-r1.")],
    step: Annotated[bool, typer.Option("--step", help="Wait for Enter after each round.")] = False,
) -> None:
    """One stored match, event by event."""
    from runner.logs.narration import event_line
    from runner.tournament.replay import events_of

    events, players, replayed = events_of(directory, match)
    if replayed:
        typer.echo(f"(no stored log for {match}: re-played from its seed)", err=True)
    for event in events:
        if event["type"] == ev.JOIN:
            players = players + [event["player"]]
        typer.echo(event_line(event, players))
        if step and event["type"] == ev.ROUND_END:
            typer.prompt("", default="", show_default=False, prompt_suffix="")


@app.command("serve")
def serve_cmd(
    port: Annotated[int, typer.Option("--port", help="The port to listen on.")] = 8000,
    host: Annotated[str, typer.Option("--host", help="The address to listen on; 127.0.0.1: this machine only.")] = (
        "127.0.0.1"),
    results: Annotated[Optional[Path], typer.Option(
        "--results", help="A tournament's results directory, or the folder of them, to watch.")] = None,
) -> None:
    """The game in a browser: play against the bots, watch tournaments, replay matches (pip install 'maumau[web]')."""
    from runner.web import require

    require()
    from runner.web.server import serve

    serve(host, port, results, on_ready=typer.echo)


@app.command("verify")
def verify_cmd(log: Annotated[Path, typer.Argument(help="A game log (JSON lines, plain or gzip).")]) -> None:
    """Check a game log against the rules without the engine: deal, every card moved, every play, totals."""
    from runner.logs.verify import verify_file

    summary = verify_file(log)
    typer.echo(f"ok: {summary.events} events, {summary.rounds} rounds")


@app.command("check-bot")
def check_bot_cmd(
    bot: Annotated[str, typer.Argument(help="A registered bot name or 'exec:PROGRAM [ARGS]'.")],
    matches: Annotated[int, typer.Option("--matches", help="Matches per ruleset checked.")] = 2,
    move_time: MoveTimeOpt = 1.0,
    seed: SeedOpt = 1,
    isolate: Annotated[
        bool, typer.Option("--isolate/--in-process", help="Run a Python bot in its own process.")
    ] = True,
    bot_memory: MemoryOpt = "1G",
) -> None:
    """Play a bot through every phase of the rules; report each protocol or rules violation (exit 1 if any)."""
    from runner.botkit.checkbot import check_bot, report_lines

    if matches < 1:
        raise MaumauError(f"--matches must be at least 1, got {matches}")
    faults = fault_settings("autoplay", move_time, 0.0, isolate, bot_memory)
    report = check_bot(bot, faults, matches=matches, seed=seed)
    for line in report_lines(report):
        typer.echo(line)
    if not report.passed:
        raise typer.Exit(1)


def main() -> None:
    """The console script: domain and usage errors become one `Error: ...` line, no traceback."""
    try:
        code = app(standalone_mode=False)  # not standalone, typer returns typer.Exit's code (and 130 for Ctrl-C)
    except MaumauError as exc:
        typer.echo(f"Error: {exc}", err=True)
        sys.exit(1)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except (typer.Abort, KeyboardInterrupt):
        typer.echo("Error: interrupted", err=True)
        sys.exit(130)
    except Exception as exc:
        # Typer's own click (vendored or not) is not importable by name everywhere: match by class name.
        kind = type(exc).__name__
        if kind == "Exit":
            sys.exit(getattr(exc, "exit_code", 0))
        if kind == "Abort":
            typer.echo("Error: interrupted", err=True)
            sys.exit(130)
        if not hasattr(exc, "format_message"):  # not a usage error: a bug, keep its traceback
            raise
        if type(exc).__name__ == "NoArgsIsHelpError":
            typer.echo(exc.format_message())
            sys.exit(0)
        typer.echo(f"Error: {exc.format_message()}", err=True)
        sys.exit(getattr(exc, "exit_code", 2) or 2)
    if code == 130:
        typer.echo("Error: interrupted", err=True)
    if isinstance(code, int) and code:
        sys.exit(code)


if __name__ == "__main__":
    main()
