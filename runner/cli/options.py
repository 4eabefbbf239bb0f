"""The options several commands share, the fault settings built from them, and settings named by their options."""

from __future__ import annotations

import secrets
from contextlib import contextmanager
from typing import Annotated, Iterator, Optional

import typer

from runner.errors import InvalidSetting, MaumauError
from runner.rules import parse_override
from runner.seats.faults import FaultSettings

SeedOpt = Annotated[Optional[int], typer.Option(
    "--seed", help="Seed: the same seed gives the same match (default: a random one, printed and stored).")]
SetOpt = Annotated[Optional[list[str]], typer.Option("--set", help="Ruleset override KEY=VALUE (dotted keys), "
                                                                   "repeatable.")]
FormatOpt = Annotated[str, typer.Option("--format", help="Output: table, json or csv.")]
RulesetOpt = Annotated[str, typer.Option("-r", "--ruleset", help="Ruleset name (see `maumau rulesets`) or YAML file.")]
OnFaultOpt = Annotated[str, typer.Option(
    "--on-fault", help="A faulting bot: forfeit (ranked last), autoplay (random moves for it) or abort.")]
MoveTimeOpt = Annotated[float, typer.Option(
    "--move-time", help="Seconds of its CPU time a bot may use per decision (0: no limit).")]
WallTimeOpt = Annotated[Optional[float], typer.Option(
    "--wall-time",
    help="Wall-clock cap of a decision, for a bot that sleeps or waits (default: 10 x the CPU budget; 0: none).")]
TimeBankOpt = Annotated[float, typer.Option(
    "--time-bank", help="Extra CPU seconds per bot per match that cover overruns of --move-time.")]
IsolateOpt = Annotated[bool, typer.Option(
    "--isolate", help="Run every bot in a process of its own (see docs/how-to/faults-and-isolation.md).")]
SandboxOpt = Annotated[bool, typer.Option(
    "--sandbox", help="Run every bot in a sandbox: no network, no files but its own, limits (implies --isolate).")]
MemoryOpt = Annotated[str, typer.Option("--bot-memory", help=(
    "Memory cap of each bot, all its processes together (each process where no memory cgroup can be made), e.g. 512M "
    "or 2G."))]

# The option that sets each setting the layers below name in their errors (InvalidSetting).
OPTIONS = {"policy": "--on-fault", "bots": "-b BOT", "out": "--out DIR"}


def option_name(setting: str) -> str:
    """The option that sets `setting`: `--table-size` for `table_size`."""
    return OPTIONS.get(setting, "--" + setting.replace("_", "-"))


@contextmanager
def option_names() -> Iterator[None]:
    """Errors about a setting name the option that sets it, as the person typed it."""
    try:
        yield
    except InvalidSetting as exc:
        raise MaumauError(exc.named([option_name(setting) for setting in exc.settings])) from None


def fault_settings(on_fault: str, move_time: float, time_bank: float, isolate: bool, bot_memory: str,
                   wall_time: float | None = None, sandbox: bool = False) -> FaultSettings:
    """The fault settings of the options of `play`, `tournament` and `check-bot`."""
    with option_names():
        return FaultSettings(policy=on_fault, move_time=move_time, time_bank=time_bank, isolate=isolate,
                             wall_time=wall_time, bot_memory=parse_memory(bot_memory), sandbox=sandbox)


def parse_memory(text: str) -> int | None:
    """`--bot-memory` as bytes: 1G, 512M, 65536K or plain bytes; 0 means no cap."""
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    clean = text.strip().upper().removesuffix("B").removesuffix("I")
    scale = units.get(clean[-1:], 1)
    number = clean[:-1] if clean[-1:] in units else clean
    try:
        size = int(float(number) * scale)
    except ValueError:
        size = -1
    if size < 0 or (0 < size < 32 << 20):
        raise MaumauError(f"--bot-memory {text!r}: expected a size of at least 32M, e.g. 512M or 2G (0: no cap)")
    return size or None


def overrides_of(pairs: list[str] | None) -> dict:
    """The `--set KEY=VALUE` options as a mapping of dotted keys to values."""
    return dict(parse_override(pair) for pair in pairs or [])


def seed_or_random(seed: int | None, what: str) -> tuple[int, tuple[str, ...]]:
    """`--seed`, or a random one (a bot must not know the deal from a seed everyone uses) and the note that says it."""
    if seed is not None:
        return seed, ()
    seed = secrets.randbits(63)
    return seed, (f"seed: {seed} (chosen at random; --seed {seed} plays the same {what} again)",)
