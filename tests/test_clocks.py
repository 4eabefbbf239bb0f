"""Clocks a bot can see: the View and the exec: protocol carry the move time and the seat's time bank left."""

import json
import random
import sys

import pytest

import runner
from runner.game.engine import Round
from runner.plugins import registry
from runner.seats.botmaker import BotMaker
from runner.seats.faults import FaultSettings
from runner.seats.protocol import parse_view, view_data
from runner.seats.seat import LocalSeat
from runner.table import referee as referee_module
from runner.table.match import Match
from runner.table.referee import Referee


class Watcher(runner.Bot):
    """Plays the first legal action and keeps the clock of every view it is shown."""

    name = "watcher"
    seen: list = []

    def act(self, view):
        Watcher.seen.append((view.seat, view.move_time, view.time_bank))
        return view.legal[0]


def play(faults, players=("watcher", "watcher")):
    Watcher.seen = []
    reg = registry()

    def make_bot(player, seat, rng):
        return Watcher(rng=rng) if player == "watcher" else BotMaker(reg)(player, seat, rng)

    ruleset = reg.load_ruleset("standard-single")
    Match(ruleset, list(players), 4, make_bot, referee=Referee(faults, seed=4)).run()
    return Watcher.seen


def test_a_view_has_no_clock_unless_the_referee_gives_one():
    view = Round.deal(registry().load_ruleset("standard"), random.Random(1), 3).view()
    assert (view.move_time, view.time_bank) == (None, None)
    assert view._fields[-2:] == ("move_time", "time_bank")  # added at the end: views built by position still work


def test_each_decision_sees_the_move_time_and_the_bank_left():
    seen = play(FaultSettings(move_time=5.0, time_bank=2.5))
    assert seen and all(clock == 5.0 and bank == 2.5 for _, clock, bank in seen)  # nothing overran: the bank is whole
    assert {(None, None)} == {(clock, bank) for _, clock, bank in play(FaultSettings(move_time=None))}


def test_the_bank_a_bot_sees_shrinks_by_each_overrun(monkeypatch):
    # each decision takes 0.3 s by this clock: 0.2 s over a move time of 0.1, taken from a bank of 1 s
    ticks = iter(range(10**6))
    monkeypatch.setattr(referee_module, "perf_counter", lambda: next(ticks) * 0.3)  # read at the start and the end
    monkeypatch.setattr(LocalSeat, "cpu_used", lambda self, elapsed: elapsed)  # the CPU time: this clock's too
    seen = play(FaultSettings(move_time=0.1, time_bank=1.0, policy="autoplay"))
    banks = {}
    for seat, clock, bank in seen:
        banks.setdefault(seat, []).append(bank)
        assert clock == 0.1
    for seat, left in banks.items():
        # started, measured and overran by 0.2 each time: 1.0, 0.8, 0.6, ... until the bank runs out (a timeout)
        assert left[:4] == pytest.approx([1.0, 0.8, 0.6, 0.4])
        assert all(b >= 0 for b in left) and len(left) <= 6


def test_the_protocol_sends_the_clock_and_the_worker_rebuilds_it():
    rnd = Round.deal(registry().load_ruleset("standard"), random.Random(1), 3)
    view = rnd.view(None, 0.75, 3.5)
    data = view_data(view)
    assert (data["move_time"], data["time_bank"]) == (0.75, 3.5)
    again = parse_view(json.loads(json.dumps(data)), view.ruleset, [])
    assert (again.move_time, again.time_bank) == (0.75, 3.5) and again == view


CLOCK_BOT = '''
import json, sys
def send(message):
    sys.stdout.write(json.dumps(message) + "\\n"); sys.stdout.flush()
send({"type": "hello", "name": "clock", "protocol": 2})
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "act":
        view = message["view"]
        with open(sys.argv[1], "a") as out:
            out.write(json.dumps([view["move_time"], view["time_bank"]]) + "\\n")
        send({"type": "action", "id": message["id"], "action": view["legal"][0]})
    elif message["type"] in ("match_start", "match_end"):
        send({"type": "ready", "id": message["id"]})
    elif message["type"] == "bye":
        break
'''


def test_an_exec_bot_reads_its_clock_in_every_view(tmp_path):
    script, record = tmp_path / "clock_bot.py", tmp_path / "clocks.jsonl"
    script.write_text(CLOCK_BOT)
    from runner.table.play import play_match

    play_match("standard-single", [f"exec:{sys.executable} {script} {record}", "random"], 3, {},
               faults=FaultSettings(move_time=4.0, time_bank=1.5))
    clocks = [json.loads(line) for line in record.read_text().splitlines()]
    assert clocks and all(clock == 4.0 and 0 <= bank <= 1.5 for clock, bank in clocks)
    assert clocks[0] == [4.0, 1.5]
