"""Bots that crash, hang, lie and cheat, or take their time, for the fault, isolation and time tests (a plugin module).

Each plays exactly like the `random` bot (same draws from `self.rng`) until it misbehaves, so
a match's log is the random bot's log up to the fault.
"""

import gc
import os
import sys
import time

import runner
from runner.game.cards import Card

FAULT_AT = 3  # the decision (counted per bot over its match, from 1) at which a bot misbehaves


class Honest(runner.Bot):
    """The random bot's play; subclasses replace `misbehave`."""

    name = "t-honest"

    def __init__(self, rng=None, **options):
        super().__init__(rng, **options)
        self.decisions = 0

    def act(self, view):
        self.decisions += 1
        if self.decisions == FAULT_AT:
            return self.misbehave(view)
        return self.random(view)

    def random(self, view):
        legal = view.legal
        return legal[int(self.rng.random() * len(legal))]

    def misbehave(self, view):
        return self.random(view)


class Crasher(Honest):
    name = "t-crash"

    def misbehave(self, view):
        raise ZeroDivisionError("on purpose")


class Exiter(Honest):
    name = "t-exit"

    def misbehave(self, view):
        sys.exit(3)


class HardExiter(Honest):
    """Ends its own process: in-process that would end the runner, so only used isolated."""

    name = "t-hard-exit"

    def misbehave(self, view):
        os._exit(3)


class Sleeper(Honest):
    name = "t-sleep"

    def misbehave(self, view):
        time.sleep(3600)
        return self.random(view)


class Dawdler(Honest):
    """Overruns the tests' move time of 0.3 s of CPU time once, by a little: a time bank covers it."""

    name = "t-dawdle"

    def misbehave(self, view):
        started = time.thread_time()
        while time.thread_time() - started < 0.45:  # CPU time: a busy machine takes longer, never more of it
            pass
        return self.random(view)


class Spinner(Honest):
    """Hangs in a Python loop and swallows the first interruptions."""

    name = "t-spin"

    def misbehave(self, view):
        for _ in range(3):
            try:
                while True:
                    pass
            except BaseException:
                continue
        while True:
            pass


class Garbage(Honest):
    name = "t-garbage"

    def misbehave(self, view):
        return "play the ace, please"


class Illegal(Honest):
    """Plays a card it does not hold."""

    name = "t-illegal"

    def misbehave(self, view):
        missing = next(card for card in (Card(r, s) for s in "CDHS" for r in runner.RANKS) if card not in view.hand)
        return runner.Play(missing)


class Sloppy(Honest):
    """Plays the first card of its hand whenever it may play, legal or not (the engine's `legal` unread)."""

    name = "t-sloppy"

    def act(self, view):
        if view.phase == "play" and view.hand and not any(a == runner.Play(view.hand[0]) for a in view.legal):
            return runner.Play(view.hand[0])
        return self.random(view)


class Impostor(Honest):
    """Returns a look-alike of a legal action: right fields, wrong class."""

    name = "t-impostor"

    def misbehave(self, view):
        class FakeDraw:
            def __eq__(self, other):
                return True

            def __hash__(self):
                return hash(runner.Draw())

        return FakeDraw()


class Mutator(Honest):
    """Tries to change what it was shown; every attempt fails or touches only its copy."""

    name = "t-mutate"

    def act(self, view):
        for attempt in (lambda: view.hand.append(view.top), lambda: setattr(view, "hand", ()),
                        lambda: view.history.clear()):
            try:
                attempt()
            except (AttributeError, TypeError):
                pass
        view._replace(hand=())  # a new tuple; the view itself stays as it was
        return super().act(view)


class Hog(Honest):
    name = "t-hog"

    def misbehave(self, view):
        self.ballast = bytearray(4 << 30)
        return self.random(view)


class Cheater(Honest):
    """Finds the engine's Round through frames or gc and rigs its own hand to one winning card.

    Out of reach (isolated) it plays exactly like `random`.
    """

    name = "t-cheat"
    rigged = 0
    scanned_round = None
    found_round = None

    def act(self, view):
        rnd = self.find_round(view)
        plays = [a for a in view.legal if isinstance(a, runner.Play)]
        if rnd is not None and plays:
            Cheater.rigged += 1
            choice = plays[0]
            rnd.hands[view.seat][:] = [choice.card]
            return runner.Play(choice.card, choice.suit, "maumau")
        return self.random(view)

    def find_round(self, view):
        frame = sys._getframe(1)
        while frame is not None:
            for value in frame.f_locals.values():
                if is_the_round(value, view):
                    return value
            frame = frame.f_back
        # The compiled referee (runner/accel.py) leaves no Python frame to read: then the heap, once a round
        # (enough to show that isolation leaves nothing to find), keeping the Round it finds for the round.
        if self.scanned_round == view.round:
            found = self.found_round
            return found if is_the_round(found, view) else None
        self.scanned_round, self.found_round = view.round, None
        for obj in gc.get_objects():
            if is_the_round(obj, view):
                self.found_round = obj
                return obj
        return None


def is_the_round(obj, view):
    """Whether `obj` is the Round that `view` was made from, not another Round still on the heap.

    The match's previous round, or a Round left from an earlier test, can have the same seat to act; which of
    them `gc.get_objects` lists first varies, so the cheat rigged the wrong one now and then (CI saw it lose).
    Its hand and discard pile tell the live one apart.
    """
    return (type(obj).__name__ == "Round" and getattr(obj, "current", None) == view.seat
            and list(obj.hands[view.seat]) == list(view.hand) and len(obj.discard) == len(view.discard)
            and obj.discard[-1] == view.top)


class BrokenConstructor(Honest):
    name = "t-unbuildable"

    def __init__(self, rng=None, **options):
        raise RuntimeError("cannot start")


class ExitingConstructor(Honest):
    """Ends the process from its constructor, as a bot that calls sys.exit() when it cannot start."""

    name = "t-exit-init"

    def __init__(self, rng=None, **options):
        raise SystemExit(3)


class Interrupter(Honest):
    """Raises KeyboardInterrupt itself: its own failure, not the user's Ctrl-C."""

    name = "t-interrupt"

    def misbehave(self, view):
        raise KeyboardInterrupt
class Napper(Honest):
    """Sleeps 0.4 s once: over a small move time in wall clock, not in CPU time."""

    name = "t-nap"

    def misbehave(self, view):
        time.sleep(0.4)
        return self.random(view)


class Worker(Honest):
    """Plays like random after BUSY_SECONDS of CPU time at every decision: a bot with a fixed amount of work."""

    name = "t-busy"
    BUSY_SECONDS = 0.005

    def act(self, view):
        started = time.thread_time()
        while time.thread_time() - started < self.BUSY_SECONDS:
            pass
        return self.random(view)


BOTS = (
    Honest,
    ExitingConstructor,
    Interrupter,
    Crasher,
    Exiter,
    HardExiter,
    Sleeper,
    Dawdler,
    Spinner,
    Garbage,
    Illegal,
    Impostor,
    Mutator,
    Hog,
    Cheater,
    BrokenConstructor,
    Napper,
    Worker,
    Sloppy,
)


@runner.hookimpl
def register_bots(register):
    for cls in BOTS:
        register(cls)


_registry = None


def registry():
    """The built-in registry plus these bots (built once per test session)."""
    global _registry
    if _registry is None:
        import sys as _sys

        from runner.plugins import Registry, make_manager

        manager = make_manager()
        manager.register(_sys.modules[__name__], name="misbehaving_bots")
        _registry = Registry(manager)
    return _registry


def install(monkeypatch) -> None:
    """Make these bots the process's registered bots, in-process and for an isolated run (forked workers inherit it).

    They are a plugin registered by the tests, not an entry point, so an isolated run's registry
    (built from discovery processes) would not find them: it is replaced by this one too.
    """
    from runner import plugins

    monkeypatch.setattr(plugins, "_registry", registry())
    monkeypatch.setattr(plugins, "_contained", {False: registry(), True: registry()})
