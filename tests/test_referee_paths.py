"""The referee's fast in-process path keeps its guarantees: faults without a move time, lazy autoplay seeding, logs."""

import gzip
import json
import random

from runner.logs.codec import compress
from runner.seats.botmaker import BotMaker
from runner.seats.deadline import DecisionTimeout
from runner.seats.faults import FaultSettings
from runner.seats.seat import LocalSeat
from runner.table.match import Match
from runner.table.play import make_bot_factory
from runner.table.referee import Referee
from support import misbehaving_bots

AUTOPLAY = FaultSettings(policy="autoplay")


class RaisesTimeout(misbehaving_bots.Honest):
    """Raises the deadline's own exception with no deadline running: an exception, not a timeout."""

    name = "t-raises-timeout"

    def misbehave(self, view):
        raise DecisionTimeout()


def play(players, referee, seed=7):
    reg = misbehaving_bots.registry()
    bots = {"t-raises-timeout": RaisesTimeout, "t-crash": misbehaving_bots.Crasher}

    def make_bot(player, seat, rng):
        return bots[player](rng=rng) if player in bots else reg.bot(player).cls(rng=rng)

    log = []
    result = Match(reg.load_ruleset("strafpunten"), players, seed, make_bot, referee=referee, log=log).run()
    return result, log


def test_a_bot_raising_decision_timeout_without_a_move_time_is_an_exception_fault():
    result, log = play(["random", "t-raises-timeout", "random"], Referee())
    assert [(f.seat, f.kind) for f in result.faults] == [(1, "exception")]
    assert result.forfeited == (1,) and log[-1]["type"] == "match_end"


def test_autoplay_seeded_lazily_from_the_match_seed_plays_as_an_explicit_generator():
    lazy_result, lazy_log = play(["random", "t-crash", "random"], Referee(AUTOPLAY, seed=7))
    explicit = Referee(AUTOPLAY, rng=random.Random("7:autoplay"))
    explicit_result, explicit_log = play(["random", "t-crash", "random"], explicit)
    assert lazy_result.faults and lazy_log == explicit_log
    assert lazy_result.ranking == explicit_result.ranking


def test_an_honest_match_never_seeds_the_autoplay_generator():
    referee = Referee(AUTOPLAY, seed=7)
    play(["random", "random", "random"], referee)
    assert referee._rng is None


def test_compressed_log_lines_are_json_dumps_lines():
    _, log = play(["random", "t-crash", "random"], Referee(AUTOPLAY, seed=3), seed=3)
    log.append({"type": "fault", "seat": 0, "kind": "exception", "detail": 'ünïcode "quoted"\n},{'})
    lines = gzip.decompress(compress(log)).decode("utf-8").split("\n")
    assert lines[-1] == "" and lines[:-1] == [json.dumps(event, separators=(",", ":")) for event in log]


def faults_of(result):
    return [(f.seat, f.kind, f.detail, f.traceback) for f in result.faults]


def test_an_untimed_decision_calls_the_bot_itself_and_judges_it_as_its_seat_does(monkeypatch):
    """Without a move time or a wall cap the referee calls an in-process bot directly: the same faults, the same log."""
    players = ["random", "t-crash", "random", "random"]
    timed_result, timed_log = play(players, Referee(FaultSettings(policy="autoplay", move_time=600), seed=7))

    def not_asked(*args):
        raise AssertionError("an untimed in-process decision goes through no seat method")

    monkeypatch.setattr(LocalSeat, "prepare", not_asked)
    monkeypatch.setattr(LocalSeat, "act_within", not_asked)
    result, log = play(players, Referee(AUTOPLAY, seed=7))
    assert faults_of(result) == faults_of(timed_result) and [f[1] for f in faults_of(result)] == ["exception"]
    assert "misbehaving_bots.py" in result.faults[0].traceback
    assert result.ranking == timed_result.ranking and result.decisions == timed_result.decisions
    assert log == timed_log


class Counting:
    """A registry that counts the look-ups of bots and specs made through it."""

    def __init__(self, reg):
        self.reg, self.read = reg, []

    def __getattr__(self, name):
        return getattr(self.reg, name)

    def spec(self, player):
        self.read.append(player)
        return self.reg.spec(player)

    def bot(self, name):
        self.read.append(name)
        return self.reg.bot(name)


def test_a_bot_factory_reads_each_players_spec_once_for_all_its_matches():
    reg = misbehaving_bots.registry()
    counting = Counting(reg)
    make_bot = make_bot_factory(counting)
    ruleset = reg.load_ruleset("standard-single")
    results = [Match(ruleset, ["random", "t-honest", "random"], seed, make_bot).run() for seed in range(3)]
    assert sorted(set(counting.read)) == ["random", "t-honest"] and len(counting.read) == 4  # a spec and a class each
    again = make_bot_factory(reg)
    assert [Match(ruleset, ["random", "t-honest", "random"], seed, again).run() for seed in range(3)] == results


def test_a_bot_maker_looks_each_in_process_player_up_once_for_all_its_matches():
    counting = Counting(misbehaving_bots.registry())
    ruleset = counting.load_ruleset("standard-single")
    with BotMaker(counting) as maker:
        first = Match(ruleset, ["random", "t-honest", "random"], 0, maker).run()
        looked_up = len(counting.read)
        results = [Match(ruleset, ["random", "t-honest", "random"], seed, maker).run() for seed in range(1, 4)]
        assert len(counting.read) == looked_up and looked_up > 0
    again = make_bot_factory(counting.reg)
    players = ["random", "t-honest", "random"]
    assert [Match(ruleset, players, seed, again).run() for seed in range(4)] == [first, *results]


def test_a_referee_subclass_is_asked_to_decide_every_decision_of_the_loop():
    """Referee.play makes an untimed in-process decision in its loop; a subclass's own `decide` still sees each one."""

    class Counting(Referee):
        asked = 0

        def decide(self, rnd, seat, player):
            self.asked += 1
            return super().decide(rnd, seat, player)

    referee = Counting(seed=7)
    result, _ = play(["random", "random", "random"], referee)
    assert referee.asked == result.decisions > 0
    plain_result, _ = play(["random", "random", "random"], Referee(seed=7))
    assert plain_result == result  # the same match either way
