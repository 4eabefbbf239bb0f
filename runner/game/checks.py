"""The Ruleset's cross-key checks (each failure an Inconsistent naming the key and the fix) and its notes.

`check` also compiles what the engine looks up per card: the power of every card for each table
size, resolved once by the most specific key (runner/game/selectors.py).
"""

from __future__ import annotations

from math import comb
from typing import Any, Iterator, Mapping

from . import selectors
from .cards import EVERY_CARD, JOKER, JOKER_COLOURS, RANKS, SUITS, Card
from .powers import Inconsistent, Power

# The Ruleset of runner/game/ruleset.py, which imports this module (so it cannot be imported here).
Ruleset = Any

PRECEDENCE = "a single-card key wins over a key naming several cards, which wins over a rank"


def check(rules: Ruleset) -> None:
    """Raise Inconsistent at the first contradiction between keys."""
    players = rules.players
    if players.min > players.max:
        raise Inconsistent("players.min", f"{players.min} is above players.max ({players.max})",
                           "make players.min at most players.max")
    _check_selectors(rules)
    compile_powers(rules)  # two keys naming a card equally specifically are refused here
    _check_points(rules)
    for size in rules.table_sizes():
        needed = size * rules.hand_size_for(size) + 1
        have = rules.deck.size_for(size)
        if have < needed:
            key = "hand_size" if size not in rules.hand_size_by_players else f"hand_size_by_players.{size}"
            raise Inconsistent(
                key, f"{size} players × {rules.hand_size_for(size)} cards + 1 upcard need {needed} cards, "
                f"the deck has {have}", "lower hand_size or players.max, or add deck copies"
            )
    _check_hand_limit(rules)
    _check_match(rules)
    _check_scoring(rules)
    _check_power_sets(rules)


def _check_hand_limit(rules: Ruleset) -> None:
    """A hand limit below the deal at every table size: the ruleset can never play. Below it at some sizes only,
    those tables are refused when a match asks for one (`hand_limit_refusal`, naming the size asked for) and
    `notes` names them."""
    limit = rules.round.hand_limit
    over = _sizes_over_hand_limit(rules)
    if not over or len(over) < len(rules.table_sizes()):
        return
    hands = sorted({rules.hand_size_for(size) for size in over})
    dealt = f"{hands[0]} cards are" if len(hands) == 1 else f"{hands[0]} to {hands[-1]} cards are"
    raise Inconsistent("round.hand_limit", f"{dealt} dealt to each player at every table size ({sizes_text(over)}), "
                       f"more than hand_limit ({limit}): every round would end at once",
                       f"make hand_limit at least {hands[-1]}")


def _sizes_over_hand_limit(rules: Ruleset) -> list[int]:
    limit = rules.round.hand_limit
    if limit is None:
        return []
    return [size for size in rules.table_sizes() if rules.hand_size_for(size) > limit]


def hand_limit_refusal(rules: Ruleset, players: int) -> str | None:
    """Why a table of `players` cannot play under round.hand_limit (every round would end at once), or None."""
    limit = rules.round.hand_limit
    if limit is None or rules.hand_size_for(players) <= limit:
        return None
    hand = rules.hand_size_for(players)
    return (f"at {players} players {hand} cards are dealt to each, more than round.hand_limit ({limit}): every round "
            f"would end at once; make hand_limit at least {hand}, or play at {_sizes_within_limit(rules)}")


def _sizes_within_limit(rules: Ruleset) -> str:
    over = _sizes_over_hand_limit(rules)
    return sizes_text([size for size in rules.table_sizes() if size not in over])


def check_compiled(rules: Ruleset) -> None:
    """The checks that need the compiled powers (`rules.powers_for`)."""
    for prefix, powers in _power_maps(rules):
        for key, power in powers.items():
            if not (power.wild and power.wish == "rank"):
                continue
            for size in rules.table_sizes():
                if not rules.wish_ranks_for(power, size):
                    raise Inconsistent(f"{prefix}.{key}.wish_ranks", f"at {size} players every rank of the deck has "
                                       "a power, so a rank wish (by default of a rank without one) has nothing to name",
                                       "list the ranks it may name in wish_ranks")


def _deck_ranks(rules: Ruleset) -> tuple[tuple[str, ...], int]:
    """The ranks any table size's deck has (in rank order), and the most jokers any has."""
    sizes = rules.table_sizes()
    ranks = {rank for size in sizes for rank in rules.deck.ranks_for(size)}
    return tuple(rank for rank in RANKS if rank in ranks), max(rules.deck.jokers_for(size) for size in sizes)


def _selector_uses(rules: Ruleset) -> Iterator[tuple[str, str]]:
    """(key path, selector) for every selector the ruleset writes."""
    for prefix, powers in _power_maps(rules):
        for key, power in powers.items():
            yield f"{prefix}.{key}", key
            for field in ("stack_with", "skip_with", "cancels", "returns"):
                value = getattr(power, field)
                if value is not True:
                    for item in value:
                        yield f"{prefix}.{key}.{field}", item
    for item in rules.multiple.suit_with:
        yield "multiple.suit_with", item
    for prefix, going in _going_out_rules(rules):
        for field in ("forbidden", "only", "last_only"):
            for item in getattr(going, field):
                yield f"{prefix}.{field}", item
    for field in ("multiplier", "alone", "winner_scores"):
        for key in getattr(rules.scoring, field):
            yield f"scoring.{field}.{key}", key


def _going_out_rules(rules: Ruleset) -> Iterator[tuple[str, Any]]:
    yield "going_out", rules.going_out
    for size, going in rules.going_out_by_players.items():
        yield f"going_out_by_players.{size}", going


def _power_maps(rules: Ruleset) -> Iterator[tuple[str, Mapping[str, Power]]]:
    yield "powers", rules.powers
    for size, powers in rules.powers_by_players.items():
        yield f"powers_by_players.{size}", powers


def deck_text(ranks: tuple[str, ...], jokers: int) -> str:
    """What a deck has, as an error names it: `its ranks: 9 10 J Q K A; jokers XR XB`."""
    return f"its ranks: {' '.join(ranks)}" + (
        f"; jokers {' '.join(JOKER + colour for colour in JOKER_COLOURS[:jokers])}" if jokers else ""
    )


def _check_selectors(rules: Ruleset) -> None:
    ranks, jokers = _deck_ranks(rules)
    have = deck_text(ranks, jokers)
    for key, selector in _selector_uses(rules):
        missing = selectors.missing_from(selector, ranks, jokers)
        if missing is not None:
            joker = selectors.rank_of(missing) == JOKER
            hint = (
                "add jokers with deck.jokers (2: XR and XB)"
                if joker
                else "name a rank or card of the deck, or change deck.ranks"
            )
            raise Inconsistent(key, f"the deck has no {missing} ({have})", hint)
    for prefix, powers in _power_maps(rules):
        for key, power in powers.items():
            for rank in power.wish_ranks or ():
                if rank not in ranks:
                    raise Inconsistent(f"{prefix}.{key}.wish_ranks", f"the deck has no {rank} ({have})",
                                       "wish only ranks of the deck")


def _resolved(powers: Mapping[str, Power], where: Mapping[str, str]) -> dict[Card, Power]:
    """Each card's power by the most specific key; `where` gives each key's path for the error."""
    try:
        chosen = selectors.resolve(powers)
    except selectors.Conflict as exc:
        raise Inconsistent(where[exc.second], f"names {exc.card} as {where[exc.first]} does, equally specifically",
                           f"name {exc.card} in one of them only ({PRECEDENCE})") from None
    return {card: powers[key] for card, key in chosen.items()}


def compile_powers(rules: Ruleset) -> dict[int | None, dict[Card, Power]]:
    """The power of every card named by a key, for each table size of powers_by_players (None: the others)."""
    base_where = {key: f"powers.{key}" for key in rules.powers}
    tables: dict[int | None, dict[Card, Power]] = {None: _resolved(rules.powers, base_where)}
    for size, changes in rules.powers_by_players.items():
        where = {**base_where, **{key: f"powers_by_players.{size}.{key}" for key in changes}}
        tables[size] = _resolved({**rules.powers, **changes}, where)
    return tables


def _check_points(rules: Ruleset) -> None:
    ranks, jokers = _deck_ranks(rules)
    counted = rules.scoring.count == "points"
    if counted and rules.match.format != "single" and not rules.scoring.minimum and not any(
            rules.points.get(rank, 0) > 0 for rank in (*ranks, *([JOKER] if jokers else []))):
        raise Inconsistent("points", f"every card is worth 0, so a {rules.match.format} match could never end",
                           "give some rank points")
    missing = [rank for rank in ranks if rank not in rules.points]
    if missing:
        raise Inconsistent("points", "no value for rank(s) "
                                     f"{', '.join(missing)}", "give every rank of the deck a value")
    if jokers and JOKER not in rules.points:  # counted or not: a hand's card points decide highest_only and blocked
        raise Inconsistent("points.X", "the deck has jokers and no points for them", "add e.g. `X: 50` under points")


def _check_match(rules: Ruleset) -> None:
    match, scoring = rules.match, rules.scoring
    if match.format == "target" and not scoring.winner_collects:
        raise Inconsistent("match.format", "format 'target' (the first total to reach the limit wins) needs the "
                           "winner to collect the points", "add `winner_collects: true` under scoring")
    if scoring.winner_collects and match.format not in ("single", "target"):
        raise Inconsistent("scoring.winner_collects", f"the winner collects points, and format {match.format!r} counts "
                           "points against their holder", "use `format: target` under match (the highest total wins)")


def _check_scoring(rules: Ruleset) -> None:
    scoring = rules.scoring
    if scoring.highest_only and scoring.blocked == "difference":
        raise Inconsistent("scoring.blocked", "a blocked round scores the differences to the lowest hand, and "
                           "highest_only scores the highest hand alone", "choose one of the two")


def _check_power_sets(rules: Ruleset) -> None:
    """Lists of cards that must not overlap: a card that cancels and returns a penalty, or bars and allows going out."""
    for prefix, powers in _power_maps(rules):
        for key, power in powers.items():
            if power.cancels and power.returns:
                both = _named(power.cancels) & _named(power.returns)
                if both:
                    raise Inconsistent(f"{prefix}.{key}.returns", f"{min(both)} is in both cancels and returns",
                                       "a penalty is either cancelled or returned: name each card in one list")
    for prefix, going in _going_out_rules(rules):
        both = _named(going.only) & _named(going.forbidden)
        if going.only and both:
            raise Inconsistent(f"{prefix}.only", f"{min(both)} is also in {prefix}.forbidden",
                               "name it in one list only")
        both = _named(going.last_only) & _named(going.forbidden)
        if both:
            raise Inconsistent(f"{prefix}.last_only", f"{min(both)} may be played only as the last card, and "
                               f"{prefix}.forbidden bars it there: it could never be played",
                               "name it in one list only")


def _named(items) -> frozenset[Card]:
    if items is True:
        return frozenset(EVERY_CARD)
    return frozenset().union(*(selectors.cards(item) for item in items))


# ---------------------------------------------------------------------- notes


def notes(rules: Ruleset) -> list[tuple[str, str]]:
    """(key, text) of what `rulesets check` points out without failing."""
    found = []
    for key, other, cards in selectors.shadowed(rules.powers):
        found.append((f"powers.{key}", f"replaces the powers of {other} for {_cards_text(cards)} ({PRECEDENCE}; "
                      "the chosen power applies whole)"))
    for size, changes in rules.powers_by_players.items():
        if size not in rules.table_sizes():
            found.append((f"powers_by_players.{size}", f"never used: the ruleset allows "
                          f"{rules.players.min}-{rules.players.max} players"))
            continue
        for key, other, cards in selectors.shadowed({**rules.powers, **changes}):
            if key in changes:
                found.append((f"powers_by_players.{size}.{key}", f"replaces the powers of {other} for "
                              f"{_cards_text(cards)} at {size} players ({PRECEDENCE})"))
    for size in rules.going_out_by_players:
        if size not in rules.table_sizes():
            found.append((f"going_out_by_players.{size}", f"never used: the ruleset allows "
                          f"{rules.players.min}-{rules.players.max} players"))
    tables = [("powers", rules.powers)] + [(f"powers_by_players.{size}", changes)
                                           for size, changes in rules.powers_by_players.items()]
    for prefix, table in tables:
        for key, power in table.items():
            if power.wild and power.free and power.wish != "none":
                found.append((f"{prefix}.{key}", f"wild and free together: any card may follow it, so the "
                              f"{power.wish} it names binds nothing (give wish: none for a card that names nothing)"))
    chains = _chain_note(rules)
    if chains:
        found.append(("multiple.chain", chains))
    bound = _bound_note(rules)
    if bound:
        found.append(("match.max_rounds", bound))
    jump_in = _jump_in_note(rules)
    if jump_in:
        found.append(("jump_in", jump_in))
    over = _sizes_over_hand_limit(rules)
    if over:
        found.append(("round.hand_limit", f"below the cards dealt at {sizes_text(over)}: a match there is refused "
                      f"(it plays at {_sizes_within_limit(rules)}; make hand_limit at least "
                      f"{max(rules.hand_size_for(size) for size in over)} to play at every size)"))
    return found


def _jump_in_note(rules: Ruleset) -> str | None:
    """`jump_in: identical` at table sizes whose deck has no two identical cards (one pack, at most two jokers)."""
    if rules.jump_in != "identical":
        return None
    never = [size for size in rules.table_sizes()
             if rules.deck.copies_for(size) == 1 and rules.deck.jokers_for(size) <= len(JOKER_COLOURS)]
    if not never:
        return None
    return (f"identical: at {sizes_text(never)} the deck holds one of each card, so no card is identical to "
            "another and nobody can jump in; write jump_in: same_rank, or deal two packs (deck.copies: 2)")


def sizes_text(sizes: list[int]) -> str:
    """Table sizes in words, runs joined: [2, 3, 4, 6] is '2 to 4 and 6 players'."""
    runs: list[list[int]] = []
    for size in sorted(sizes):
        if runs and size == runs[-1][-1] + 1:
            runs[-1].append(size)
        else:
            runs.append([size])
    parts = [str(run[0]) if len(run) == 1 else f"{run[0]} to {run[-1]}" for run in runs]
    return (", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else parts[0]) + " players"


MAX_PLAYS = 25_000  # plays of several cards a turn lists at most (runner/game/multiple.py; each about 0.3 KiB)
CHAIN_NOTE = 20_000  # plays of one turn beyond which rulesets check points out multiple.chain's growth


def chain_plays(hand: int, most: int | None) -> int:
    """The plays a hand of `hand` cards of one suit can list under multiple.chain (at most `most` cards a play):
    each card first, then any set of the others, each of them last. No hand of `hand` cards lists more: in one suit
    every card matches every other, and a hand of several suits (or with copies of a card) has fewer orders."""
    longest = hand if most is None else min(most, hand)
    return hand * (1 + sum(comb(hand - 1, more) * more for more in range(1, longest)))


def largest_hand(rules: Ruleset) -> int:
    """The most cards a hand can hold when its player is to play: hands grow by drawing (penalties, a stuck
    player) until the others hold a card each and the pile its top, unless round.hand_limit ends the round first."""
    most = max(rules.deck_for(size).size - size for size in rules.table_sizes())
    limit = rules.round.hand_limit
    return max(1, most if limit is None else min(most, limit))


def _chain_note(rules: Ruleset) -> str | None:

    multiple = rules.multiple
    if not multiple.chain:
        return None
    hand = largest_hand(rules)
    plays = chain_plays(hand, multiple.chain_max)
    if plays <= CHAIN_NOTE:
        return None
    capped = (f"; a turn lists only the first {MAX_PLAYS:,} plays of several cards it finds (runner/game/multiple.py)"
              if plays > MAX_PLAYS else "")
    fixes = []
    longest = max((most for most in range(2, hand) if chain_plays(hand, most) <= CHAIN_NOTE), default=None)
    if longest is not None:
        fixes.append(f"a chain with multiple.chain_max ({longest}: at most {chain_plays(hand, longest):,})")
    limit = max(size for size in range(1, hand) if size == 1 or chain_plays(size, multiple.chain_max) <= CHAIN_NOTE)
    fixes.append(f"hands with round.hand_limit ({limit}: at most {chain_plays(limit, multiple.chain_max):,})")
    return (f"a hand can grow to {hand} cards, which can list at most {plays:,} chains in one turn (as many as if "
            f"every card matched every other), each a legal move: bots think longer and matches slow down{capped}; "
            f"cap {' or '.join(fixes)}")


def _cards_text(cards: list[Card]) -> str:
    if len(cards) > 2 and len({card.rank for card in cards}) == 1 and len(cards) == len(SUITS):
        return f"every {cards[0].rank}"
    return ", ".join(card.text for card in cards)


def hand_points_estimate(rules: Ruleset, size: int) -> float:
    """About what a loser's hand scores in a round at `size` players: the deal's hand size at the deck's average."""
    scoring = rules.scoring
    if scoring.count == "flat":
        return 1.0
    hand = rules.hand_size_for(size)
    if scoring.count == "cards":
        per_card = 1.0
    else:
        deck = rules.deck_for(size).cards()
        per_card = sum(rules.points_of(card) for card in deck) / len(deck)
    return max(hand * per_card, float(scoring.minimum))


def rounds_estimate(rules: Ruleset) -> tuple[float, int] | None:
    """(about how many rounds a match lasts, at which table size) for the longest table size; None if it is fixed."""
    match = rules.match
    worst: tuple[float, int] | None = None
    for size in rules.table_sizes():
        if match.format in ("limit", "elimination", "target"):
            per_round = hand_points_estimate(rules, size)
            if match.format == "target":
                per_round *= (size - 1) / size  # the winner collects from all, but wins one round in `size`
            estimate = (match.limit or 0) / per_round if per_round else float("inf")
            if match.format == "elimination":
                estimate *= size - 1  # players are out one at a time, each reaching the limit
        elif match.format == "wins":
            estimate = float((match.wins or 1) * size)
        else:
            return None
        if worst is None or estimate > worst[0]:
            worst = (estimate, size)
    return worst


def _bound_note(rules: Ruleset) -> str | None:
    found = rounds_estimate(rules)
    if found is None or found[0] <= rules.match.max_rounds:
        return None
    estimate, size = found
    match = rules.match
    if match.format == "wins":
        why = f"{match.wins} round wins each take about {size} rounds at {size} players"
    else:
        per_round = hand_points_estimate(rules, size)
        why = (f"a losing hand scores about {per_round:.2g} points a round at {size} players, and the limit is "
               f"{match.limit}")
    return (f"{why}, so a match takes about {estimate:,.0f} rounds: it will likely end at max_rounds "
            f"({match.max_rounds}), the standing totals deciding")
