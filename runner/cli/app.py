"""maumau: run Mau Mau bots under YAML rulesets. Commands parse, call one function, print."""

from __future__ import annotations

import json
import signal
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from runner import accel
from runner.errors import MaumauError, interrupt_reported, note_user_interrupt, raised_by_user
from runner.game import events as ev
from runner.logs import codec
from runner.plugins import registry
from runner.rules import schema_text
from runner.seats.bot_output import bots_print_to_stderr, exit_now, leftover_threads
from runner.words import counted

from . import analyze, narrate, output, tournaments
from .options import (
    FormatOpt,
    IsolateOpt,
    MemoryOpt,
    MoveTimeOpt,
    OnFaultOpt,
    RulesetOpt,
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
            # every match ends: the bound is the ruleset's own (match.max_rounds), so say it
            typer.echo(f"ok: {file} ({ruleset.name}; a match ends after at most {ruleset.match.max_rounds} rounds)")
            for note in notes:
                typer.echo(f"note: {note}")
        except MaumauError as exc:
            failed += 1
            for line in exc.lines():  # every problem of the file, not only the first
                typer.echo(f"Error: {line}", err=True)
    if failed:
        raise typer.Exit(1)


@rulesets_app.command("fuzz")
def rulesets_fuzz(
    count: Annotated[int, typer.Option("--count", help="How many ruleset files to draw.")] = 100,
    seed: Annotated[int, typer.Option("--seed", help="The seed of the files drawn.")] = 1,
    matches: Annotated[int, typer.Option("--matches", help="Matches played of each file.")] = 3,
    out: Annotated[Path, typer.Option("--out", help="Folder the failing files are kept in.")] = Path("fuzz-failures"),
    engine: Annotated[str, typer.Option(
        "--engine", help="here (this process's engine), pure, or both (their logs compared).")] = "both",
) -> None:
    """Random ruleset files over every key of the schema: each checked, played and its logs verified."""
    from runner.botkit.fuzz import fuzz

    if count < 1 or matches < 1:
        raise MaumauError(f"--count and --matches must be at least 1, got {count} and {matches}")
    if engine not in ("here", "pure", "both"):
        raise MaumauError(f"--engine {engine!r}: expected here, pure or both")
    report = fuzz(count, seed, out, matches=matches, engine=engine)
    typer.echo(f"{report.files} files, {report.refused} refused by rulesets check, {report.matches} matches played "
               f"and verified, {counted(len(report.failures), 'failure')}")
    for failure in report.failures:
        typer.echo(f"failed: {failure.file}: {failure.what}\n  {failure.command}")
    if report.failures:
        raise typer.Exit(1)


@rulesets_app.command("schema")
def rulesets_schema() -> None:
    """The JSON Schema of ruleset files, for editors."""
    typer.echo(schema_text(), nl=False)


@app.command("play")
def play_cmd(
    ruleset: RulesetOpt,
    bots: Annotated[list[str], typer.Option("-b", "--bot", help="A bot per seat, in seat order (repeat).")],
    seed: SeedOpt = None,
    set_: SetOpt = None,
    log: Annotated[Optional[Path], typer.Option("--log", help="Write the game log (JSON lines; gzip if .gz).")] = None,
    join: Annotated[
        Optional[list[str]], typer.Option("--join", help="ROUND:BOT joins before that round (table changes).")
    ] = None,
    leave: Annotated[Optional[list[str]], typer.Option("--leave", help="ROUND:SEAT leaves before that round.")] = None,
    fmt: FormatOpt = "table",
    on_fault: OnFaultOpt = "forfeit",
    move_time: MoveTimeOpt = 1.0,
    wall_time: WallTimeOpt = None,
    time_bank: TimeBankOpt = 0.0,
    isolate: IsolateOpt = False,
    sandbox: SandboxOpt = False,
    bot_memory: MemoryOpt = "1G",
    human: Annotated[
        bool, typer.Option("--human", help="Take a seat yourself (seat 0; the bots fill the others); no move time.")
    ] = False,
    human_seat: Annotated[
        Optional[int], typer.Option("--human-seat", help="Your seat with --human (implies --human).")
    ] = None,
    quiet: Annotated[bool, typer.Option(
        "--quiet", "-q", help="Only the final totals: no narration, no notes (a random seed's).")] = False,
) -> None:
    """One match, narrated round by round, then the final totals. A bot is a registered name or `exec:PROGRAM ARGS`."""
    from runner.seats.human import HumanQuit
    from runner.table.play import play_match

    if human and human_seat is None:
        human_seat = 0
    faults = fault_settings(on_fault, move_time, time_bank, isolate, bot_memory, wall_time, sandbox)
    seed, notes = seed_or_random(seed, "match")
    try:
        with bots_print_to_stderr() as own:
            result, events = play_match(ruleset, bots, seed, overrides_of(set_), joins=join or [], leaves=leave or [],
                                        with_log=log is not None, faults=faults, human_seat=human_seat,
                                        human_io=(None, own), on_start=lambda: say(() if quiet else notes))
    except HumanQuit as exc:
        if exc.input_ended:
            raise MaumauError(f"{exc}; give a move number on each turn (q quits)") from None
        typer.echo(f"{exc}; no result.")
        return
    if log is not None:
        codec.write_log(log, events)
    if fmt == "table" and not quiet:
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
    if fmt == "table":
        typer.echo(note, err=True)
    typer.echo(render_standings(standings, fmt))


app.command("sprt")(tournaments.sprt_cmd)
app.command("deals")(tournaments.deals_cmd)
app.command("analyze")(analyze.analyze_cmd)


@app.command("replay")
def replay_cmd(
    source: Annotated[Path, typer.Argument(
        help="A tournament's results directory, or a game log file (maumau play --log).")],
    match: Annotated[Optional[str], typer.Option(
        "--match", help="Match id in the directory, e.g. t0-d3-r1 (see `maumau matches`).")] = None,
    step: Annotated[bool, typer.Option("--step", help="Wait for Enter after each round.")] = False,
) -> None:
    """One match, event by event: a stored tournament match, or the log of `maumau play --log FILE`."""
    from runner.logs.narration import PowerWords, event_line
    from runner.tournament.replay import events_of, events_of_file

    if source.is_dir():
        if match is None:
            raise MaumauError(f"{source} is a tournament: give --match ID (`maumau matches {source}` lists them)")
        events, players, replayed = events_of(source, match)
        if replayed:
            typer.echo(f"(no stored log for {match}: re-played from its seed)", err=True)
    else:
        if match is not None:
            raise MaumauError(f"--match picks a match of a results directory; {source} is one match's log file")
        events, players = events_of_file(source)
    powers = PowerWords()
    for event in events:
        if event["type"] == ev.JOIN:
            players = players + [event["player"]]
        typer.echo(event_line(event, players, powers))
        if step and event["type"] == ev.ROUND_END:
            typer.prompt("", default="", show_default=False, prompt_suffix="")
    if source.is_dir():
        from runner.tournament.replay import play_command

        typer.echo(f"play this match again: {play_command(source, match)}", err=True)  # a note: stdout is the match


@app.command("matches")
def matches_cmd(
    directory: Annotated[Path, typer.Argument(help="A tournament's results directory.")],
    bot: Annotated[Optional[str], typer.Option(
        "--bot", help="Only the matches of this entrant (or every entrant of this bot).")] = None,
    lost: Annotated[bool, typer.Option(
        "--lost", help="With --bot: only the matches it lost (did not share first place).")] = False,
    faults: Annotated[bool, typer.Option(
        "--faults", help="Only the matches with faults (with --bot: its own).")] = False,
    fmt: FormatOpt = "table",
) -> None:
    """A stored tournament's matches in schedule order, with the ids `maumau replay DIR --match ID` takes."""
    from runner.tournament.listing import list_matches

    output.render_rows([], fmt)  # refuse a bad --format before reading
    with option_names():
        lines = list_matches(directory, bot, lost, faults)
    rows = [{"match": line.match, "players": list(line.players), "winners": list(line.winners), "rounds": line.rounds,
             "faults": list(line.faults)} for line in lines]
    if fmt != "json":  # lists as words in a table or CSV cell
        rows = [{key: " ".join(value) if isinstance(value, list) else value for key, value in row.items()}
                for row in rows]
    output.emit(rows, fmt)
    if fmt == "table" and rows:
        typer.echo(f"{counted(len(rows), 'match')}; replay one with: maumau replay {directory} --match ID", err=True)


@app.command("serve")
def serve_cmd(
    port: Annotated[int, typer.Option("--port", help="The port to listen on.")] = 8000,
    host: Annotated[str, typer.Option("--host", help="The address to listen on; 127.0.0.1: this machine only.")] = (
        "127.0.0.1"),
    results: Annotated[Optional[Path], typer.Option(
        "--results", help="A tournament's results directory, or the folder of them, to watch.")] = None,
) -> None:
    """The game in a browser: play against the bots, watch tournaments, replay matches (needs the web extra)."""
    from runner.web import require

    require()
    from runner.web.server import serve

    serve(host, port, results, on_ready=typer.echo)


@app.command("report")
def report_cmd(
    directory: Annotated[Path, typer.Argument(help="A tournament's results directory (finished or still running).")],
    out: Annotated[Path, typer.Option("--out", help="The folder to write the site into (made if missing).")],
) -> None:
    """A tournament as a static site: standings, crosstable, charts, every match's replay, the ruleset in words."""
    from runner.web.site import write_site

    written = write_site(directory, out)
    state = "finished" if written["finished"] else f"{written['matches']} of {written['planned']} matches so far"
    typer.echo(f"wrote {out / 'index.html'}: {counted(written['matches'], 'match')} with replays ({state})")


@app.command("verify")
def verify_cmd(log: Annotated[Path, typer.Argument(help="A game log (JSON lines, plain or gzip).")]) -> None:
    """Check a game log against the rules without the engine: deal, every card moved, every play, totals."""
    from runner.logs.verify import verify_file

    summary = verify_file(log)
    typer.echo(f"ok: {counted(summary.events, 'event')}, {counted(summary.rounds, 'round')}")


@app.command("check-bot")
def check_bot_cmd(
    bot: Annotated[str, typer.Argument(help="A registered bot name or 'exec:PROGRAM [ARGS]'.")],
    matches: Annotated[int, typer.Option("--matches", help="Matches per ruleset checked.")] = 2,
    move_time: MoveTimeOpt = 1.0,
    wall_time: WallTimeOpt = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the matches checked.")] = 1,
    isolate: Annotated[
        bool, typer.Option("--isolate/--in-process", help="Run a Python bot in its own process.")
    ] = True,
    sandbox: SandboxOpt = False,
    bot_memory: MemoryOpt = "1G",
    log: Annotated[Optional[Path], typer.Option(
        "--log", help="Where to write the first failing match's log (default: a new temporary folder).")] = None,
) -> None:
    """Play a bot through every phase of the rules; report each protocol or rules violation (exit 1 if any)."""
    from runner.botkit.checkbot import check_bot, report_lines, write_failing_log

    if matches < 1:
        raise MaumauError(f"--matches must be at least 1, got {matches}")
    faults = fault_settings("autoplay", move_time, 0.0, isolate, bot_memory, wall_time, sandbox)
    with bots_print_to_stderr():
        report = check_bot(bot, faults, matches=matches, seed=seed)
    for line in report_lines(report):
        typer.echo(line)
    written = write_failing_log(report, log)
    if written is not None:
        typer.echo(f"  the first failing match, {report.failing[0]}, step by step: maumau replay {written}")
    if not report.passed:
        raise typer.Exit(1)


def say(notes: tuple[str, ...]) -> None:
    """Notes for the user, on stderr (a random seed's)."""
    for note in notes:
        typer.echo(note, err=True)


def script() -> None:
    """The console script: `main`, then an exit that no thread a bot left running (not a daemon) holds up."""
    try:
        main()
    except SystemExit as exc:
        if leftover_threads():
            exit_now(exc.code)
        raise
    if leftover_threads():
        exit_now(0)


def main() -> None:
    """The command line in this process: domain and usage errors become one `Error: ...` line, no traceback."""
    previous = signal.signal(signal.SIGINT, _on_ctrl_c)
    try:
        _run()
    finally:
        signal.signal(signal.SIGINT, previous)


def _on_ctrl_c(signum, frame) -> None:
    """The user's Ctrl-C: marked as theirs, so that a KeyboardInterrupt a bot raises is not taken for it."""
    note_user_interrupt()
    raise KeyboardInterrupt


def _run() -> None:
    try:
        code = app(standalone_mode=False)  # not standalone, typer returns typer.Exit's code (and 130 for Ctrl-C)
    except MaumauError as exc:
        for line in exc.lines():
            typer.echo(f"Error: {line}", err=True)
        sys.exit(1)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except (typer.Abort, KeyboardInterrupt) as exc:
        _interrupted(exc)
    except SystemExit as exc:  # no command of ours exits from inside: code it ran did, or click met a closed pipe
        if _stdout_closed():  # `maumau info | head -1`: the reader left, nothing to report
            sys.exit(1)
        typer.echo(f"Error: the run was ended by code that called sys.exit({exc.code!r:.40}) (a bot or a plugin); "
                   "no results", err=True)
        sys.exit(1)
    except Exception as exc:
        # Typer's own click (vendored or not) is not importable by name everywhere: match by class name.
        kind = type(exc).__name__
        if kind == "Exit":
            sys.exit(getattr(exc, "exit_code", 0))
        if kind == "Abort":
            _interrupted(exc)
        if not hasattr(exc, "format_message"):  # not a usage error: a bug, keep its traceback
            raise
        if type(exc).__name__ == "NoArgsIsHelpError":
            typer.echo(exc.format_message())
            sys.exit(0)
        typer.echo(f"Error: {exc.format_message()}", err=True)
        sys.exit(getattr(exc, "exit_code", 2) or 2)
    if code == 130 and not interrupt_reported():
        typer.echo("Error: interrupted", err=True)
    if isinstance(code, int) and code:
        sys.exit(code)


def _stdout_closed() -> bool:
    """Whether click met a closed pipe on stdout: it then wraps the streams to mute their flush, and exits 1."""
    return type(sys.stdout).__name__.endswith("PacifyFlushWrapper")


def _interrupted(exc: BaseException) -> None:
    """Exit after an interruption: the user's Ctrl-C (130), or a KeyboardInterrupt bot or plugin code raised (1)."""
    cause = exc if isinstance(exc, KeyboardInterrupt) else exc.__cause__ or exc.__context__  # click wraps it in Abort
    if cause is None or raised_by_user(cause):
        if not interrupt_reported():  # a tournament's says how to resume: that is the message
            typer.echo("Error: interrupted", err=True)
        sys.exit(130)
    typer.echo("Error: code the run called (a bot or a plugin) raised KeyboardInterrupt; no results", err=True)
    sys.exit(1)


if __name__ == "__main__":
    main()
