"""`maumau check-bot`: play a bot through every phase of the rules and report each violation it commits.

A compliance test for bot writers: matches against `random` bots under rulesets that between
them reach every phase (a turned-up Jack, a drawn card, draw penalties, challenges, reversals,
play-again cards; and the house rules' plays of several cards, rank wishes, skips to answer,
swaps, gives and jump-ins: runner/botkit/every-phase.yaml), with the `autoplay` policy so that one
fault does not hide the next. It counts the decisions of each phase the bot was asked and
names the phase of each fault. It also replays a match in a fresh process to check that the bot
is reproducible from its seed.
"""

from __future__ import annotations

import importlib.util
import tempfile
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path

from runner.game import events as ev
from runner.seats.botmaker import BotMaker
from runner.seats.external import RemoteBot
from runner.seats.faults import FaultSettings
from runner.seats.protocol import NotAnAction
from runner.table.match import Match
from runner.table.referee import Referee
from runner.words import counted

from .illegal import Why, why_illegal

# The house rules of every new kind of decision (several cards, rank wishes, skips to answer, swaps, gives,
# shows, hands passed, jump-ins), and Makao's (playing on for places, waits that add up, a rank wish that
# follows suit).
EVERY_PHASE = str(Path(__file__).with_name("every-phase.yaml"))
# the gallery ships in the built-in rulesets' package (maumau.rulesets: rulesets/ of the repository); found, not
# imported (a layer above this one)
_RULESETS = importlib.util.find_spec("maumau.rulesets")
MAKAO = str(Path(_RULESETS.submodule_search_locations[0]) / "gallery" / "makao.yaml")  # type: ignore[union-attr]
CHECK_RULESETS = ("standard", "standard-challenge", "strafpunten", "elimination", EVERY_PHASE, MAKAO)


@dataclass
class Violation:
    match: str
    round: int
    kind: str  # a fault kind, or "reproducibility"
    detail: str
    traceback: str = ""  # of an exception: where in the bot's code
    phase: str | None = None  # the phase the bot was asked in (None: not a decision's fault)
    why: Why | None = None  # of an illegal action: why it was not legal, and what was


@dataclass(kw_only=True)
class CheckReport:
    """What `check-bot` found: the handshake, the play, every violation."""

    player: str
    hello: dict | None = None
    matches: int = 0
    decisions: int = 0
    seconds: float = 0.0
    slowest: float = 0.0
    penalties: int = 0  # missed announcements: a penalty, not a fault
    phases: Counter = field(default_factory=Counter)  # decisions asked of the bot, by phase
    violations: list[Violation] = field(default_factory=list)
    failing: tuple[str, list[dict]] | None = None  # the first match with a violation: its id and game log

    @property
    def passed(self) -> bool:
        return not self.violations


def check_bot(player: str, faults: FaultSettings | None = None, *, matches: int = 2, seed: int = 1,
              rulesets=CHECK_RULESETS) -> CheckReport:
    """Play `matches` matches per ruleset with `player` against random bots; collect its violations.

    `faults` gives the move time and memory cap, and `isolate` runs `player` (never its random
    opponents) in a process of its own, `sandbox` every bot in a sandbox; the policy is always
    `autoplay`, so one fault does not hide the next. The default: 1 s per decision, isolated.
    """
    faults = faults if faults is not None else FaultSettings(move_time=1.0, isolate=True)
    faults = replace(faults, policy="autoplay")
    report = CheckReport(player=player)
    isolate = frozenset([player]) if faults.isolate else False  # the random opponents stay in-process
    memory, sandbox = faults.bot_memory, faults.sandbox
    reg = BotMaker(None, isolate, sandbox=sandbox).reg  # isolated: the bot's plugin is not imported here
    with BotMaker(reg, isolate, memory, sandbox) as make_bot:
        make_bot.check([player])
        sample: tuple | None = None
        for name in rulesets:
            ruleset = reg.load_ruleset(name)
            size = min(ruleset.playable_sizes(), key=lambda size: abs(size - 3))  # 3, or the nearest it plays
            for index in range(matches):
                seat = index % size
                players = ["random"] * size
                players[seat] = player
                match_seed = f"{seed}:{ruleset.name}:{index}"
                match_id = f"{ruleset.name}-{index}"
                log, found = _play(make_bot, report, ruleset, players, seat, match_seed, match_id, faults)
                if not any(f.seat == seat for f, _, _ in found):
                    sample = (ruleset, players, seat, match_seed, match_id, log)
                elif report.failing is None:
                    report.failing = (match_id, log)
                report.matches += 1
                report.violations += [Violation(match_id, f.round, f.kind, f.detail, f.traceback, phase, why)
                                      for f, phase, why in found if f.seat == seat]
                report.penalties += sum(1 for e in log if e["type"] == ev.DRAW and e["seat"] == seat
                                        and e["reason"] == ev.PENALTY)
    if sample is not None:  # the last clean match, replayed by a fresh process: kept state or hash order shows
        ruleset, players, seat, match_seed, match_id, log = sample
        with BotMaker(reg, isolate, memory, sandbox) as make_bot:
            again, found = _play(make_bot, None, ruleset, players, seat, match_seed, match_id, faults)
        if again != log and not any(f.seat == seat for f, _, _ in found):
            report.violations.append(Violation(
                match_id, 0, "reproducibility",
                "the same seed gave a different match: draw all randomness from the seed (self.rng, or "
                "match_start's seed), keep no state from one match to the next, and do not rely on set order",
            ))
    return report


def _play(make_bot: BotMaker, report: CheckReport | None, ruleset, players, seat, match_seed, match_id,
          faults: FaultSettings):
    log: list[dict] = []
    referee = PhaseReferee(faults, seed=match_seed)
    match = Match(ruleset, players, match_seed, make_bot, match_id=match_id, referee=referee, log=log)
    bot = match.bots[seat]
    try:
        result = match.run()
    except BaseException:
        make_bot.end_match()
        raise
    make_bot.end_match(result)
    if report is not None:
        if isinstance(bot, RemoteBot) and bot.process.hello is not None:
            report.hello = bot.process.hello
        if isinstance(bot, RemoteBot) and bot.out_of_step is not None:  # e.g. a line sent after its last answer
            report.violations.append(Violation(match_id, 0, "between matches", bot.out_of_step))
        decisions, seconds, slowest = referee.thinking.get(seat, (0, 0.0, 0.0))
        report.decisions += decisions
        report.seconds += seconds
        report.slowest = max(report.slowest, slowest)
        report.phases.update(referee.asked.get(seat, {}))
    return log, [(fault, referee.phase_of.get(id(fault)), referee.why.get(id(fault))) for fault in result.faults]


class PhaseReferee(Referee):
    """The referee, counting the decisions each seat is asked by phase and noting the phase of each fault."""

    times_decisions = True  # the report gives each seat's mean and slowest decision

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.asked: dict[int, Counter] = {}
        self.phase_of: dict[int, str] = {}  # id(fault): the phase it was committed in
        self.why: dict[int, Why] = {}  # id(fault) of an illegal action: why it was not legal

    def decide(self, rnd, seat, player):
        phase = "pending skip" if rnd.phase == "play" and rnd.skip_pending else rnd.phase
        if rnd.current not in self.given_up:
            self.asked.setdefault(rnd.current, Counter())[phase] += 1
        before = len(self.faults)
        try:
            return super().decide(rnd, seat, player)
        finally:
            for fault in self.faults[before:]:
                self.phase_of[id(fault)] = phase


    def _checked(self, rnd, player, answer):
        before = len(self.faults)
        action = super()._checked(rnd, player, answer)
        if len(self.faults) > before and type(answer) is not NotAnAction:
            self.why[id(self.faults[-1])] = why_illegal(rnd.view(), answer)
        return action


def report_lines(report: CheckReport) -> list[str]:
    """The report as lines of text: handshake, play, violations grouped by what went wrong."""
    lines = [f"check-bot {report.player}"]
    if report.hello is not None:
        lines.append(f"  handshake: name {report.hello.get('name')!r}, protocol {report.hello.get('protocol')}")
        if report.hello.get("protocol") == 1:
            lines.append("  note: protocol 1 still plays, checked as before; protocol 2 (ids, `ready`) is current: "
                         "docs/protocol.md says how to move")
    mean = report.seconds / report.decisions if report.decisions else 0.0
    lines.append(f"  played {counted(report.matches, 'match')}, {counted(report.decisions, 'decision')} answered; "
                 f"mean {mean * 1000:.2f} ms, slowest {report.slowest * 1000:.1f} ms per decision")
    if report.phases:
        lines.append("  decisions by phase: " + ", ".join(f"{phase} {count}" for phase, count in sorted(
            report.phases.items(), key=lambda item: (-item[1], item[0]))))
    if report.penalties:
        missed = counted(report.penalties, "missed announcement")
        lines.append(f"  note: {missed} (drawn as penalties; allowed, but costly)")
    if report.passed:
        lines.append("  no violations")
        return lines
    groups: dict[tuple, list[Violation]] = {}
    for v in report.violations:  # the same mistake with many cards is one finding
        groups.setdefault((v.kind, v.phase, v.why.kind if v.why else v.detail), []).append(v)
    lines.append(f"  {counted(len(report.violations), 'violation')}"
                 + (f" of {counted(len(groups), 'kind')}" if len(groups) < len(report.violations) else "") + ":")
    for found in sorted(groups.values(), key=len, reverse=True):
        where = found[0]
        times = f" ({len(found)} times)" if len(found) > 1 else ""
        asked = f" (phase {where.phase})" if where.phase else ""
        lines.append(f"  - {where.kind}{asked}: {where.detail} [first in {where.match}, round {where.round}]{times}")
        if where.why is not None:
            lines.append(f"      why: {where.why.text}")
            lines.append(f"      legal then: {where.why.legal}")
        lines += [f"      {line}" for line in where.traceback.splitlines()]  # where in the bot's code, the first time
    return lines


def write_failing_log(report: CheckReport, path: Path | None = None) -> Path | None:
    """Write the first failing match's game log (to `path`, or a new temporary directory); None if none failed."""
    from runner.logs import codec

    if report.failing is None:
        return None
    match_id, log = report.failing
    if path is None:
        path = Path(tempfile.mkdtemp(prefix="maumau-check-bot-")) / f"{match_id}.jsonl.gz"
    codec.write_log(path, log)
    return path
