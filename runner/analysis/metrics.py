"""What one match shows of its ruleset, counted from its game log's events: lengths, endings, seats, drama, rules.

`count_match` reads event dicts (a stored log, a hand-built one) and returns plain data (JSON), which the
analysis stores per match and sums up (runner/analysis/figures.py). `measure` is what a worker runs after a
match (WorkUnit.measure, runner/tournament/work.py): the figures come from the engine's records in memory,
never from a stored log. Both count through MatchCounter.count.

Seats are counted from the seat that leads: a round's position 0 is its `first` seat, position 1
the next in its direction of play; a match's positions are those of its first round. Drama uses
public information only: totals between rounds, and hand sizes within a round.
"""

from __future__ import annotations

from itertools import chain
from typing import Iterable

from runner.game import events as ev
from runner.game import selectors
from runner.game.events import GameLog, made
from runner.game.powers import Power
from runner.game.ruleset import Multiple, Ruleset
from runner.rules import ruleset_of

# How a round ended (the engine's Outcome.reason, runner/game/round_state.py), told from its events.
WENT_OUT, BLOCKED, TURN_LIMIT, HAND_LIMIT, FORFEITED = "went_out", "blocked", "turn_limit", "hand_limit", "forfeited"
ROUND_ENDS = (WENT_OUT, BLOCKED, TURN_LIMIT, HAND_LIMIT, FORFEITED)
MAX_ROUNDS = "max_rounds"  # a match the format did not end: match.max_rounds did
# endings where the game stalled (nobody could play or draw) or a guard ended it: such a match is listed for replay
STALLS = (BLOCKED, TURN_LIMIT)

# The draws that are a seat's own decision (the engine counts them as turns); the rest come with another's action.
DECIDED_DRAWS = frozenset((ev.STUCK, ev.CHOICE, ev.SEVEN, ev.ACE, ev.AGAIN))
DECISIONS = frozenset((ev.PLAY, ev.PASS, ev.NAME_SUIT, ev.CHALLENGE))
# The events MatchCounter.count counts in its loop, as dicts and as the engine's records (by their builders).
COUNTED = frozenset((ev.PLAY, ev.DRAW, ev.PASS, ev.NAME_SUIT, ev.SKIP, ev.CHALLENGE))
RECORDS = {ev.play: ev.PLAY, ev.play_more: ev.PLAY, ev.draw: ev.DRAW, ev.pass_: ev.PASS, ev.name_suit: ev.NAME_SUIT,
           ev.skip: ev.SKIP, ev.challenge: ev.CHALLENGE}
# The rules a draw for these reasons shows firing, with the cards drawn as the size.
DRAW_RULES = {ev.PENALTY: "announcements", ev.FALSE_CALL: "announcements.false_penalty",
              ev.STUCK: "drawing.until_playable"}
# Where a higher total leads (the others: fewest points leads).
HIGH_LEADS = frozenset(("target",))


def measure(unit, ruleset: Ruleset, result, log: GameLog) -> dict:
    """WorkUnit.measure: the match's figures from its in-memory log (the engine's records, MatchCounter.count)."""
    records = log.records
    if not records:
        raise ValueError("an empty game log")
    start = made(records[0])
    counter = MatchCounter(ruleset, len(start["players"]), start["players"])
    counter.count(records)
    figures = counter.figures()
    if unit.seating is not None:  # which seat was which entrant: the seeing bot is told from the others by it
        figures["entrants"] = list(unit.entrants)
    return figures


def powers_at(ruleset: Ruleset, players: int | None) -> dict[str, Power]:
    """The powers by selector at a table of `players`: powers_by_players for exactly that size changes them per key
    (as Ruleset.powers_for resolves them); a key set to nothing there is taken away."""
    changes = ruleset.powers_by_players.get(players, {}) if players is not None else {}
    return {key: power for key, power in {**ruleset.powers, **changes}.items() if power is not None}


# Rules that fire only on a seat's mistake: a missed announcement (its penalty, and the challenge that catches it) or
# a false one. The built-in bots make none: they choose among View.legal, whose plays carry the announcement due
# (runner/game/engine.py `legal`), so with them these rules are not exercised rather than idle.
MISTAKES = frozenset(("announcements", "announcements.false_penalty", "announcements.enforcement"))


def rule_keys(ruleset: Ruleset, players: int | None = None) -> dict[str, str]:
    """Each rule of `ruleset` whose firing its log shows at a table of `players`, by the key that sets it (a power
    by its selector under `powers.`), with what its size counts."""
    keys: dict[str, str] = {}
    for selector, power in powers_at(ruleset, players).items():
        if power.is_action:
            keys[f"powers.{selector}"] = size_label(power)
    if ruleset.multiple != Multiple():
        keys["multiple"] = "cards per play"
    if ruleset.jump_in != "none":
        keys["jump_in"] = ""
    notes = ruleset.announcements
    if notes.mau.required or notes.maumau.required:
        keys["announcements"] = "penalty cards"
    if notes.mau.false_penalty or notes.maumau.false_penalty:
        keys["announcements.false_penalty"] = "penalty cards"
    if notes.enforcement == "challenge":
        keys["announcements.enforcement"] = ""
    if ruleset.drawing.until_playable:
        keys["drawing.until_playable"] = "cards per draw"
    if ruleset.round.hand_limit is not None:
        keys["round.hand_limit"] = ""
    return keys


def rule_tables(ruleset: Ruleset, players: int) -> tuple[dict[str, str], dict[str, str], dict[str, str]]:
    """The rule keys (rule_keys), the key of each card's power by the card's text, and those of the draw powers."""
    keys = rule_keys(ruleset, players)
    powers = powers_at(ruleset, players)
    chosen = selectors.resolve(powers)
    power_key = {card.text: f"powers.{key}" for card, key in chosen.items() if f"powers.{key}" in keys}
    draw_power = {text: key for text, key in power_key.items() if powers[key[7:]].draw}
    return keys, power_key, draw_power


def size_label(power: Power) -> str:
    """What the sizes of a power's firings count."""
    if power.draw:
        return "penalty cards taken"
    if power.others_draw:
        return "cards the others drew"
    if power.skip:
        return "seats skipped"
    if power.self_draw:
        return "cards drawn"
    return ""


def count_match(events: Iterable[dict], ruleset: Ruleset | None = None) -> dict:
    """The figures of one match from its events (the ruleset: from match_start's rules, unless given)."""
    events = iter(events)
    start = next(events, None)
    if start is None:
        raise ValueError("an empty game log")
    if ruleset is None:
        ruleset = ruleset_of(start["rules"], "the match's rules")
    counter = MatchCounter(ruleset, len(start["players"]), start["players"])
    counter.count(chain((start,), events))
    return counter.figures()


class RoundCount:
    """What is counted of the round being read."""

    __slots__ = ("deciding", "first", "direction", "hands", "active", "fewest", "low", "widest", "decisions", "turns",
                 "drawn", "reshuffles", "forfeit", "fewest_changes", "actor", "context", "penalty_from", "everyone")

    def __init__(self, deciding: bool, first: int, direction: int, hands: list[int], active: list[bool]):
        self.deciding, self.first, self.direction = deciding, first, direction
        self.hands, self.active, self.widest = hands, active, max(hands)
        self.fewest: int | None = None  # the seat that last held the fewest cards alone
        self.low = 0  # the fewest cards a seat in the round holds
        self.everyone = all(active)  # every seat dealt into the round (none out by elimination or play_on)
        self.decisions = self.turns = self.drawn = self.reshuffles = self.fewest_changes = 0
        self.forfeit = False
        self.actor: int | None = None
        self.context: str | None = None  # the rule key of the last card played, which skips and draws belong to
        self.penalty_from: str | None = None  # the draw power whose penalty is pending


class MatchCounter:
    """Counts a match's events one at a time; `figures()` gives the plain data."""

    def __init__(self, ruleset: Ruleset, players: int, bots: list[str] | None = None):
        self.ruleset, self.n = ruleset, players
        self.bots = list(bots) if bots is not None else [""] * players
        # made once per ruleset and table size (Ruleset.derived), not per match
        self.keys, self.power_key, self.draw_power = ruleset.derived(
            f"analysis.rules.{players}", lambda rules: rule_tables(rules, players))
        self.fires = {key: 0 for key in self.keys}
        self.sizes = {key: 0 for key in self.keys}
        self.sized = {key: 0 for key in self.keys}
        self.rounds: list[dict] = []
        self.totals_after: list[list[int]] = []  # after each scoring round
        self.match_first, self.match_direction = 0, 1
        self.end: dict | None = None
        self.forfeits = 0
        self.current: RoundCount | None = None  # the round being counted

    # ------------------------------------------------------------ events
    def count(self, entries: Iterable) -> None:
        """Count a match's entries in order: event dicts (a stored log, a hand-built one), or a worker's in-memory
        GameLog's, whose records of the commonest events (runner/game/events.py: a builder and its arguments) are
        read from their arguments, without the dict a reader of the log would make of them.

        One loop with its state in locals, the commonest events read into the same few names from a dict or a
        record alike and counted by the same lines: a worker counts some 200 entries after every match, which
        bench/analyze_cost.py weighs against playing it."""
        fires, sizes, sized = self.fires, self.sizes, self.sized
        power_key, draw_power = self.power_key, self.draw_power
        multiple, jump_ins, challenges = "multiple" in fires, "jump_in" in fires, "announcements.enforcement" in fires
        r = self.current
        card, more, jump_in, got, reason = "", (), False, 0, ""
        for entry in entries:
            if type(entry) is dict:
                kind = entry["type"]
                if r is None or kind not in COUNTED:
                    self._other(kind, entry)
                    r = self.current
                    continue
                seat = entry["seat"]
                if kind == ev.PLAY:
                    card, more, jump_in = entry["card"], entry.get("more", ()), entry.get("jump_in", False)
                elif kind == ev.DRAW:
                    got, reason = len(entry["cards"]), entry["reason"]
            else:
                builder = entry[0]
                kind = RECORDS.get(builder)
                if r is None or kind is None:
                    entry = made(entry)
                    self._other(entry["type"], entry)
                    r = self.current
                    continue
                seat = entry[1]
                if builder is ev.play:
                    card, more, jump_in = entry[2].text, (), False
                elif builder is ev.draw:
                    got, reason = len(entry[2]), entry[3]
                elif builder is ev.play_more:
                    more = [card.text for card in entry[5]] if len(entry) > 5 else ()
                    card, jump_in = entry[2].text, len(entry) > 7 and bool(entry[7])
            if kind == ev.SKIP:  # a skip passed on: a size of the power played last
                key = r.context
                if key is not None:
                    sizes[key] += 1
                    sized[key] += 1
                continue
            if kind != ev.DRAW or reason in DECIDED_DRAWS:  # a decision; a turn where another seat decides
                r.decisions += 1
                if seat != r.actor:
                    r.turns += 1
                    r.actor = seat
            hands = r.hands
            if kind == ev.PLAY:
                hands[seat] -= 1 + len(more)
                if more:
                    card = more[-1]  # multiple.power last: the last card's power applies
                    if multiple:
                        self._fire("multiple", 1 + len(more))
                key = power_key.get(card)
                r.context = key
                if key is not None:
                    fires[key] += 1
                    if card in draw_power:
                        r.penalty_from = key
                if jump_in and jump_ins:
                    self._fire("jump_in")
            elif kind == ev.DRAW:
                hands[seat] += got
                r.drawn += got
                if reason == ev.SEVEN and r.penalty_from is not None:
                    sizes[r.penalty_from] += got
                    sized[r.penalty_from] += 1
                    r.penalty_from = None
                elif (reason == ev.OTHERS or reason == ev.SELF) and r.context is not None:
                    sizes[r.context] += got
                    sized[r.context] += 1
                elif reason in DRAW_RULES and DRAW_RULES[reason] in fires:
                    self._fire(DRAW_RULES[reason], got)
                if not got:
                    continue
                if hands[seat] > r.widest:
                    r.widest = hands[seat]
            else:  # a pass, a suit named, a challenge: no card moves
                if kind == ev.CHALLENGE and challenges:
                    self._fire("announcements.enforcement")
                continue
            # whether another seat now alone holds the fewest cards; in the common case (every seat in the round)
            # without reading every hand: only a hand below the fewest, or the fewest grown, changes who holds them
            if not r.everyone:
                self._hands_changed()
            elif kind == ev.PLAY:
                if hands[seat] < r.low:  # alone below the others (at the fewest: a tie, which changes nothing)
                    r.low = hands[seat]
                    if r.fewest is not None and seat != r.fewest:
                        r.fewest_changes += 1
                    r.fewest = seat
            elif hands[seat] - got == r.low:  # one of those with the fewest drew
                self._hands_changed()

    def _other(self, kind: str, event: dict) -> None:
        """An event `count` does not count itself."""
        if kind == ev.ROUND_START:
            self._start(event)
        elif kind == ev.ROUND_END:
            self._end(event)
        elif kind == ev.MATCH_END:
            self.end = event
        elif kind == ev.FORFEIT:
            self.forfeits += 1
            if self.current is not None:
                self.current.forfeit = True
        elif self.current is not None:
            if kind == ev.RESHUFFLE:
                self.current.reshuffles += 1
            elif kind in (ev.GIVE, ev.SWAP, ev.PASS_HANDS, ev.OUT):
                self._moved(kind, event)

    def _start(self, event: dict) -> None:
        hands = [len(hand) for hand in event["hands"]]
        if "taken" in event:
            hands[event["dealer"]] += len(event["taken"])
        if not self.rounds and self.current is None:
            self.match_first, self.match_direction = event["first"], event["direction"]
        active = [bool(hand) for hand in event["hands"]]
        self.current = RoundCount(event["deciding"], event["first"], event["direction"], hands, active)
        self._hands_changed()  # the seat dealt the fewest cards, no change counted (none held them before)

    def _fire(self, key: str, size: int | None = None) -> None:
        self.fires[key] += 1
        if size is not None:
            self.sizes[key] += size
            self.sized[key] += 1

    def _moved(self, kind: str, event: dict) -> None:
        """Cards changing hands without a play or a draw: a give, a swap, hands passed on, a seat out (play_on)."""
        r = self.current
        hands = r.hands
        if kind == ev.GIVE:
            hands[event["seat"]] -= 1
            hands[event["to"]] += 1
        elif kind == ev.SWAP:
            a, b = event["seat"], event["with"]
            hands[a], hands[b] = hands[b], hands[a]
        elif kind == ev.PASS_HANDS:
            n, step = self.n, event["direction"]
            moved = [0] * n
            for seat in range(n):
                if r.active[seat]:
                    moved[(seat + step) % n] = hands[seat]
            hands[:] = moved
        else:
            r.active[event["seat"]] = False
            r.everyone = False
        self._hands_changed()

    def _hands_changed(self) -> None:
        """The widest hand so far, and whether another seat now alone holds the fewest cards."""
        r = self.current
        hands = r.hands
        widest = max(hands)
        if widest > r.widest:
            r.widest = widest
        low, holder = 1 << 30, None
        for seat, size in enumerate(hands):
            if r.active[seat]:
                if size < low:
                    low, holder = size, seat
                elif size == low:
                    holder = None
        r.low = low
        if holder is not None:
            if r.fewest is not None and holder != r.fewest:
                r.fewest_changes += 1
            r.fewest = holder

    def _end(self, event: dict) -> None:
        r = self.current
        winner = event["winner"]
        limit = self.ruleset.round.hand_limit
        if winner is not None:
            reason = WENT_OUT
        elif r.forfeit:
            reason = FORFEITED
        elif limit is not None and r.widest > limit:
            reason = HAND_LIMIT
        elif r.decisions >= self.ruleset.turn_limit:
            reason = TURN_LIMIT
        else:
            reason = BLOCKED
        if reason == HAND_LIMIT and "round.hand_limit" in self.fires:
            self._fire("round.hand_limit")
        n = self.n
        position = None if winner is None else ((winner - r.first) * r.direction) % n
        self.rounds.append({"deciding": r.deciding, "end": reason, "winner_position": position,
                            "decisions": r.decisions, "turns": r.turns, "drawn": r.drawn,
                            "reshuffles": r.reshuffles, "fewest_changes": r.fewest_changes})
        if not r.deciding:
            self.totals_after.append(list(event["totals"]))
        self.current = None

    # ------------------------------------------------------------ the figures
    def position(self, seat: int) -> int:
        """A seat's position counted from the seat that led the match's first round."""
        return ((seat - self.match_first) * self.match_direction) % self.n

    def figures(self) -> dict:
        n, fmt = self.n, self.ruleset.match
        scoring = [r for r in self.rounds if not r["deciding"]]
        ends = {reason: 0 for reason in ROUND_ENDS}
        round_wins = [0] * n
        for r in self.rounds:
            ends[r["end"]] += 1
            if r["winner_position"] is not None and not r["deciding"]:
                round_wins[r["winner_position"]] += 1
        end = self.end or {"winners": [], "totals": [0] * n, "ranking": []}
        match_wins, points = [0.0] * n, [0] * n
        for seat in end["winners"]:
            match_wins[self.position(seat)] += 1 / len(end["winners"])
        for seat, total in enumerate(end["totals"][:n]):
            points[self.position(seat)] = total
        played = len(scoring)
        ending = self._match_ending(played)
        figures = {
            "players": n, "bots": self.bots, "winners": list(end["winners"]),
            "rounds": played, "deciding": len(self.rounds) - played,
            "decisions": [r["decisions"] for r in scoring], "turns": [r["turns"] for r in scoring],
            "drawn": [r["drawn"] for r in scoring], "reshuffles": [r["reshuffles"] for r in scoring],
            "fewest_changes": [r["fewest_changes"] for r in scoring],
            "round_ends": ends, "match_end": ending,
            "bound": ending == MAX_ROUNDS or any(ends[reason] for reason in STALLS),
            "round_wins": round_wins, "match_wins": match_wins, "points": points,
            "rules": {key: [self.fires[key], self.sizes[key], self.sized[key]] for key in self.keys},
        }
        figures.update(self._drama(end["winners"], fmt.format))
        return figures

    def _match_ending(self, played: int) -> str:
        fmt = self.ruleset.match
        if fmt.format == "single" or played < fmt.max_rounds:
            return fmt.format
        last = self.totals_after[-1] if self.totals_after else [0] * self.n
        met = {"limit": fmt.limit is not None and max(last) >= fmt.limit,
               "target": fmt.limit is not None and max(last) >= fmt.limit,
               "rounds": fmt.rounds is not None and played >= fmt.rounds,
               "elimination": False, "wins": False}.get(fmt.format, False)
        return fmt.format if met else MAX_ROUNDS

    def _drama(self, winners: list[int], fmt: str) -> dict:
        """Lead changes between rounds (by totals), a comeback, and the round from which the winner led for good."""
        high = fmt in HIGH_LEADS
        leaders = []
        for totals in self.totals_after:
            best = max(totals) if high else min(totals)
            at = [seat for seat, total in enumerate(totals) if total == best]
            leaders.append(at[0] if len(at) == 1 else None)
        changes, held = 0, None
        for leader in leaders:
            if leader is not None:
                if held is not None and leader != held:
                    changes += 1
                held = leader
        winner = winners[0] if len(winners) == 1 else None
        comeback = decided = None
        if winner is not None and leaders:
            half = leaders[(len(leaders) - 1) // 2]
            comeback = half != winner
            decided = len(leaders)
            while decided > 0 and leaders[decided - 1] == winner:
                decided -= 1
            decided += 1  # the round (1-based) from which the winner led alone to the end
            if decided > len(leaders):
                decided = None  # it never led alone (a shared last place? a deciding round)
        return {"lead_changes": changes, "comeback": comeback, "decided_round": decided}
