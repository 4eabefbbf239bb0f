"""One match from names: resolve the ruleset and the bots in the registry, then play it."""

from __future__ import annotations

from dataclasses import replace
from typing import Callable

from runner.errors import MaumauError
from runner.plugins import registry
from runner.seats.botmaker import BotMaker
from runner.seats.faults import FaultSettings
from runner.seats.human import HumanSeat

from .match import Match, MatchResult, TableChange
from .referee import Referee


def make_bot_factory(reg=None):
    """A `make_bot(player, seat, rng)` that builds registered bots by name."""
    reg = reg or registry()
    made: dict[str, tuple[type, dict]] = {}  # each player's class and options: parsed once, not once a match

    def make_bot(player: str, seat: int, rng):
        known = made.get(player)
        if known is None:
            spec = reg.spec(player)
            known = made[player] = (reg.bot(spec.name).cls, spec.kwargs)
        cls, options = known
        return cls(rng=rng, **options) if options else cls(rng=rng)  # an empty ** costs a dict a bot

    return make_bot


def parse_changes(joins: list[str], leaves: list[str]) -> list[TableChange]:
    changes = []
    for text, kind in [(join, "join") for join in joins] + [(leave, "leave") for leave in leaves]:
        round_text, sep, who = text.partition(":")
        if not sep or not round_text.isdigit() or int(round_text) < 2 or not who:
            raise MaumauError(f"--{kind} {text!r}: expected ROUND:{'BOT' if kind == 'join' else 'SEAT'} with ROUND ≥ 2")
        if kind == "join":
            changes.append(TableChange(int(round_text), "join", player=who))
        elif who.isdigit():
            changes.append(TableChange(int(round_text), "leave", seat=int(who)))
        else:
            raise MaumauError(f"--leave {text!r}: SEAT must be a seat number")
    return changes


def check_table(ruleset, players: list[str], changes: list[TableChange]) -> None:
    """Refuse a table the ruleset does not allow, with the allowed range."""
    if not ruleset.players.min <= len(players) <= ruleset.players.max:
        raise MaumauError(
            f"ruleset {ruleset.name!r} allows {ruleset.players.min}-{ruleset.players.max} players, got {len(players)}"
        )
    refusal = ruleset.table_refusal(len(players))
    if refusal:
        raise MaumauError(f"ruleset {ruleset.name!r}: {refusal}")
    if changes and not ruleset.match.table_changes:
        raise MaumauError(f"ruleset {ruleset.name!r} does not allow players to join or leave (match.table_changes)")
    for number in sorted({change.before_round for change in changes}):
        # the players at the table from round `number` on: a seat left makes room for one who joins
        joined = sum(1 for c in changes if c.kind == "join" and c.before_round <= number)
        left = {c.seat for c in changes if c.kind == "leave" and c.before_round <= number}
        seated = len(players) + joined - len(left)
        if seated > ruleset.players.max:
            raise MaumauError(f"joins would seat {seated} players from round {number}, more than {ruleset.players.max}")
        refusal = ruleset.table_refusal(seated) if seated >= ruleset.players.min else None
        if refusal:
            raise MaumauError(f"the table changes seat {seated} players from round {number}: {refusal}")
    for change in changes:
        if change.kind != "leave":
            continue
        # a player who joins takes the next seat number, from the round they join
        seats = len(players) + sum(1 for c in changes if c.kind == "join" and c.before_round <= change.before_round)
        if change.seat >= seats:
            raise MaumauError(f"--leave {change.before_round}:{change.seat}: the table has no seat {change.seat} "
                              f"before round {change.before_round} (seats 0-{seats - 1}); give the seat of a player")


def play_match(ruleset_name: str, players: list[str], seed: int, overrides: dict, *, joins=(), leaves=(),
               with_log: bool = False, faults: FaultSettings | None = None, human_seat: int | None = None,
               human_io: tuple = (None, None),
               on_start: Callable[[], None] | None = None) -> tuple[MatchResult, list[dict]]:
    """Play one match between registered bots (or `exec:` commands); return its result and (if asked) its log.

    `on_start` is called once the ruleset, the table and the bots are checked, before the first deal. With
    `human_seat`, the person at the terminal (`human_io`: input and output streams, default
    stdin and stdout) takes that seat and the bots fill the others in order; there is no move time.
    """
    faults = faults if faults is not None else FaultSettings()
    reg = BotMaker(None, faults.isolate, sandbox=faults.sandbox).reg  # no plugin code in this process under --isolate
    ruleset = reg.load_ruleset(ruleset_name, overrides)
    bots = list(players)
    if human_seat is not None:
        if not 0 <= human_seat <= len(players):
            raise MaumauError(f"--human-seat {human_seat}: expected a seat from 0 to {len(players)} (the bots fill the "
                              "others)")
        players = players[:human_seat] + [HumanSeat.name] + players[human_seat:]
        faults = replace(faults, move_time=None, wall_time=0)  # a person takes the time they need
    changes = parse_changes(list(joins), list(leaves))
    check_table(ruleset, players, changes)
    referee = Referee(faults, seed=seed)
    log: list[dict] | None = [] if with_log else None
    with BotMaker(reg, faults.isolate, faults.bot_memory, faults.sandbox) as maker:
        maker.check(bots + [j.partition(":")[2] for j in joins])
        make_bot = maker
        if human_seat is not None:
            human = HumanSeat(names=players, input=human_io[0], output=human_io[1], seat=human_seat)
            log = human.feed()  # the person follows the match from its log, as it is written

            def make_bot(player: str, seat: int, rng):
                return human if seat == human_seat else maker(player, seat, rng)
        match = Match(ruleset, players, seed, make_bot, match_id=f"play-{seed}", referee=referee, log=log,
                      overrides=overrides, changes=changes, ruleset_name=ruleset_name)
        if on_start is not None:
            on_start()
        result = match.run()
        maker.end_match(result)
    return result, log if with_log and log is not None else []
