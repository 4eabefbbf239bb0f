# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The playout kernel: a round of the classic rules played to its end in C, with cards as small ints.

The compiled twin of runner/botkit/simulate.py's playout loop, built by setup.py where a C compiler
is at hand. It holds no strategy of a bot: a playout policy is a slot (`Policy`, declared in
_playout.pxd: a C function choosing one of the legal actions), filled by the framework's own
`quick_policy` and `random_policy` (their twins here) or by a bot's, compiled with the bot
(bots/_hard.pyx, the twin of bots/hard.py's `heuristic_policy`); so is the value of an ending
a search compares (`Value`). It covers the rules of the engine's fast path (runner/game/tables.py: a Game that
is not `general`) with every key of `scoring`; everything else is played by the Python loop, which is
the reference: for the same Round and generator, a playout here leaves the same points, winner,
turns and generator state as `playout` there (tests/test_playout_kernel.py).

The generator is CPython's `random.Random` replicated (MT19937; `random()`, `getrandbits`,
`shuffle` through `_randbelow`, and seeding from an int): the kernel works on the generator's
own state, read in place where the object's layout checks out against `getstate()` at import,
else copied in with `getstate()` and back with `setstate()`.
"""

import random

from libc.stdint cimport uint32_t, uint64_t
from libc.string cimport memcpy, memmove, memset
from cpython.object cimport PyObject

from runner.game.cards import SUITS
from runner.game.engine import CHALLENGING, DRAWN, NAME_SUIT, OVER, PLAY
from runner.game.actions import (
    ANNOUNCEMENTS,
    CHALLENGE,
    DRAW,
    PASS,
    Challenge,
    Draw,
    NameSuit,
    Pass,
    Play,
    name_suit,
    play,
)

PHASES = {PLAY: P_PLAY, DRAWN: P_DRAWN, NAME_SUIT: P_NAME_SUIT, CHALLENGING: P_CHALLENGING, OVER: P_OVER}
ANNOUNCE = {None: 0, "mau": 1, "maumau": 2}

# ---------------------------------------------------------------------------------------------- the generator


cdef extern from *:
    """
    /* CPython's random.Random object (Modules/_randommodule.c): the head, then the index, then the state. */
    typedef struct { PyObject_HEAD int index; uint32_t state[624]; } maumau_random_object;
    """
    ctypedef struct maumau_random_object:
        int index
        uint32_t state[624]


cdef uint32_t genrand(MT* mt) noexcept nogil:
    """genrand_uint32 of Modules/_randommodule.c."""
    cdef uint32_t y
    cdef int kk
    cdef uint32_t* s = mt.state
    if mt.index >= MT_N:
        for kk in range(MT_N - MT_M):
            y = (s[kk] & 0x80000000U) | (s[kk + 1] & 0x7fffffffU)
            s[kk] = s[kk + MT_M] ^ (y >> 1) ^ (0x9908b0dfU if y & 1U else 0U)
        for kk in range(MT_N - MT_M, MT_N - 1):
            y = (s[kk] & 0x80000000U) | (s[kk + 1] & 0x7fffffffU)
            s[kk] = s[kk + (MT_M - MT_N)] ^ (y >> 1) ^ (0x9908b0dfU if y & 1U else 0U)
        y = (s[MT_N - 1] & 0x80000000U) | (s[0] & 0x7fffffffU)
        s[MT_N - 1] = s[MT_M - 1] ^ (y >> 1) ^ (0x9908b0dfU if y & 1U else 0U)
        mt.index = 0
    y = s[mt.index]
    mt.index += 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9d2c5680U
    y ^= (y << 15) & 0xefc60000U
    y ^= y >> 18
    return y


cdef double random_float(MT* mt) noexcept nogil:
    """random.random(): 53 bits from two words."""
    cdef uint32_t a = genrand(mt) >> 5
    cdef uint32_t b = genrand(mt) >> 6
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)


cdef inline int bit_length(uint32_t n) noexcept nogil:
    cdef int k = 0
    while n:
        k += 1
        n >>= 1
    return k


cdef uint32_t below(MT* mt, uint32_t n) noexcept nogil:
    """random._randbelow_with_getrandbits(n) for 0 < n < 2**32: getrandbits(k) until below n."""
    cdef int k = bit_length(n)
    cdef uint32_t r = genrand(mt) >> (32 - k) if k else 0
    while r >= n:
        r = genrand(mt) >> (32 - k)
    return r


cdef void shuffle(MT* mt, unsigned char* cards, int count) noexcept nogil:
    """random.shuffle (and runner/game/engine.py's shuffle): Fisher-Yates from the end."""
    cdef int i, j
    cdef unsigned char t
    for i in range(count - 1, 0, -1):
        j = below(mt, i + 1)
        t = cards[i]
        cards[i] = cards[j]
        cards[j] = t


cdef void init_genrand(MT* mt, uint32_t s) noexcept nogil:
    cdef int i
    mt.state[0] = s
    for i in range(1, MT_N):
        mt.state[i] = 1812433253U * (mt.state[i - 1] ^ (mt.state[i - 1] >> 30)) + <uint32_t>i
    mt.index = MT_N


cdef void seed_words(MT* mt, uint32_t* key, int length) noexcept nogil:
    """init_by_array: what random.Random(n) does with the 32-bit words of n, least significant first."""
    cdef int i = 1, j = 0, k
    cdef uint32_t* s = mt.state
    init_genrand(mt, 19650218U)
    k = MT_N if MT_N > length else length
    while k:
        s[i] = (s[i] ^ ((s[i - 1] ^ (s[i - 1] >> 30)) * 1664525U)) + key[j] + <uint32_t>j
        i += 1
        j += 1
        if i >= MT_N:
            s[0] = s[MT_N - 1]
            i = 1
        if j >= length:
            j = 0
        k -= 1
    k = MT_N - 1
    while k:
        s[i] = (s[i] ^ ((s[i - 1] ^ (s[i - 1] >> 30)) * 1566083941U)) - <uint32_t>i
        i += 1
        if i >= MT_N:
            s[0] = s[MT_N - 1]
            i = 1
        k -= 1
    s[0] = 0x80000000U


cdef void seed_u64(MT* mt, uint64_t n) noexcept nogil:
    """random.Random(n) for 0 <= n < 2**64."""
    cdef uint32_t key[2]
    key[0] = <uint32_t>(n & 0xffffffffU)
    key[1] = <uint32_t>(n >> 32)
    seed_words(mt, key, 2 if key[1] else 1)


cdef uint64_t bits64(MT* mt) noexcept nogil:
    """random.getrandbits(64): the first word is the low one."""
    cdef uint64_t low = genrand(mt)
    cdef uint64_t high = genrand(mt)
    return low | (high << 32)


cdef bint in_place = False  # set at import: the generator's state is read and written in place


cdef bint _layout_checks():
    """Whether a random.Random object holds its state where maumau_random_object says (checked on a live one)."""
    probe = random.Random(20261201)
    probe.random()
    version, internal, gauss = probe.getstate()
    cdef maumau_random_object* raw = <maumau_random_object*><PyObject*>probe
    if raw.index != internal[MT_N]:
        return False
    cdef int i
    for i in range(MT_N):
        if raw.state[i] != internal[i]:
            return False
    expected = probe.random()
    cdef MT copy
    load_state(&copy, internal)
    return random_float(&copy) == expected


cdef void load_state(MT* mt, internal):
    cdef int i
    for i in range(MT_N):
        mt.state[i] = internal[i]
    mt.index = internal[MT_N]


cdef class Generator:
    """A random.Random's state as the kernel works on it: in place, or a copy put back by `release`."""

    cdef MT own
    cdef MT* mt
    cdef object rng
    cdef bint copied

    def __cinit__(self, rng):
        self.rng = rng
        if in_place:
            self.mt = <MT*>&(<maumau_random_object*><PyObject*>rng).index
            self.copied = False
        else:
            version, internal, self_gauss = rng.getstate()
            load_state(&self.own, internal)
            self.mt = &self.own
            self.copied = True

    def release(self):
        """Write the state back into the generator (nothing to do when it was worked on in place)."""
        if self.copied:
            version, internal, gauss = self.rng.getstate()
            state = [self.own.state[i] for i in range(MT_N)]
            state.append(self.own.index)
            self.rng.setstate((version, tuple(state), gauss))


# ---------------------------------------------------------------------------------------------- the rules


cdef class Table:
    """A Game's rules as C tables, and its cards' numbers (the index in `game.deck_cards`)."""

    cdef Rules rules
    cdef readonly object game
    cdef readonly dict number   # Card -> its number
    cdef readonly tuple cards   # number -> Card

    def __init__(self, game):
        cdef Rules* r = &self.rules
        memset(r, 0, sizeof(Rules))
        self.game = game
        self.cards = tuple(game.deck_cards)
        self.number = {card: i for i, card in enumerate(self.cards)}
        ranks = {rank: i for i, rank in enumerate(sorted({card.rank for card in self.cards}))}
        r.kinds = len(self.cards)
        cdef int i
        for i, card in enumerate(self.cards):
            bit = (<uint64_t>1) << i
            r.rank[i] = ranks[card.rank]
            r.suit[i] = SUITS.index(card.suit)
            r.points[i] = game.points[card.rank]
            r.draw[i] = game.draw.get(card, 0)
            limit = game.chain_limit.get(card)
            r.chain_limit[i] = -1 if limit is None else limit
            r.skip[i] = game.skip.get(card, 0)
            r.others_draw[i] = game.others_draw.get(card, 0)
            r.wild |= bit if card in game.wild else 0
            r.wild_on_wild |= bit if card in game.wild_on_wild else 0
            r.stack |= bit if card in game.stack else 0
            r.reverse |= bit if card in game.reverse else 0
            r.again |= bit if card in game.again else 0
            r.skip_others |= bit if card in game.skip_others else 0
            r.action |= bit if card in game.action else 0
        r.stuck_only, r.play_drawn, r.challenge = game.stuck_only, game.play_drawn, game.challenge
        r.last_card_draws, r.reshuffle = game.last_card_draws, game.reshuffle
        r.mau_penalty = -1 if game.mau_penalty is None else game.mau_penalty
        r.maumau_penalty = -1 if game.maumau_penalty is None else game.maumau_penalty
        r.due[0], r.due[1] = ANNOUNCE[game.due_after[0]], ANNOUNCE[game.due_after[1]]
        r.turn_limit = game.turn_limit
        ruleset = game.ruleset
        scoring = ruleset.scoring
        r.count = ("points", "cards", "flat").index(scoring.count)
        r.minimum, r.round_to = scoring.minimum, scoring.round_to
        r.multiplies, r.highest_only = bool(scoring.multiplier), scoring.highest_only
        r.blocked_difference, r.winner_collects = scoring.blocked == "difference", scoring.winner_collects
        r.any_alone, r.any_winner_score = bool(scoring.alone), bool(scoring.winner_scores)
        for i, card in enumerate(self.cards):
            r.multiplier[i] = ruleset.multiplier_of(card)
            alone = ruleset.alone_of(card) if scoring.alone else None
            r.alone[i] = -1 if alone is None else alone
            bonus = ruleset.winner_score_of(card) if scoring.winner_scores else None
            r.has_winner_score[i], r.winner_score[i] = bonus is not None, bonus or 0


def covers(game) -> bool:
    """Whether the kernel plays `game`'s rules: the fast path's (every key of `scoring` too), at most 64 distinct
    cards."""
    scoring = game.ruleset.scoring
    return (not game.general and scoring.count in ("points", "cards", "flat")
            and scoring.blocked in ("hands", "difference") and len(game.deck_cards) <= MAX_KINDS
            and all(card.suit in SUITS for card in game.deck_cards))


_tables = {}  # id(game) -> (game, its Table or None): the game kept, so that its id stays its own


def table_of(game):
    """The kernel's Table of `game` (built once), or None where the kernel does not cover its rules."""
    found = _tables.get(id(game))
    if found is None or found[0] is not game:
        found = _tables[id(game)] = (game, Table(game) if covers(game) else None)
    return found[1]


# ---------------------------------------------------------------------------------------------- the state


cdef inline int step(State* s, int seat) noexcept nogil:
    return s.step[0 if s.direction == 1 else 1][seat]


cdef int draw(State* s, Rules* r, MT* mt, int seat, int count) noexcept nogil:
    """Round._draw: up to `count` cards from the stock's top, the pile reshuffled into the stock when it runs out."""
    cdef int total = 0, k
    cdef unsigned char* hand = s.hands[seat]
    while total < count:
        if s.stock_size == 0:
            if s.discard_size < 2 or not r.reshuffle:
                break
            # The pile but its top card becomes the stock (in pile order), shuffled.
            memcpy(s.stock, s.discard, s.discard_size - 1)
            s.stock_size = s.discard_size - 1
            s.discard[0] = s.discard[s.discard_size - 1]
            s.discard_size = 1
            shuffle(mt, s.stock, s.stock_size)
        s.stock_size -= 1
        hand[s.sizes[seat]] = s.stock[s.stock_size]
        s.sizes[seat] += 1
        total += 1
    return total


cdef bint playable(State* s, Rules* r, int card) noexcept nogil:
    """Game.playable: may `card` go on the pile's top with the suit to follow (ignoring a pending draw)?"""
    cdef int top = s.discard[s.discard_size - 1]
    if has(r.wild, card):
        return not has(r.wild, top) or has(r.wild_on_wild, card)
    return r.rank[card] == r.rank[top] or r.suit[card] == s.suit


cdef inline int due_after(Rules* r, int left) noexcept nogil:
    return r.due[left] if 0 <= left < 2 else 0


cdef inline int add_plays(Rules* r, Act* legal, int n, int card, int due) noexcept nogil:
    """The plays of `card`: one per suit named for a wild card, else one."""
    cdef int named
    if has(r.wild, card):
        for named in range(4):
            legal[n].kind, legal[n].card, legal[n].suit, legal[n].announce = A_PLAY, card, named, due
            n += 1
    else:
        legal[n].kind, legal[n].card, legal[n].suit, legal[n].announce = A_PLAY, card, -1, due
        n += 1
    return n


cdef int legal_actions(State* s, Rules* r, Act* legal) noexcept nogil:
    """Round._compute_legal, in its order: plays in hand order (each card once), then draw or pass."""
    cdef int n = 0, i, card, due, top, named
    cdef uint64_t seen = 0
    cdef int seat = s.current
    cdef unsigned char* hand = s.hands[seat]
    cdef int size = s.sizes[seat]
    if s.phase == P_PLAY:
        due = due_after(r, size - 1)
        top = s.discard[s.discard_size - 1]
        if s.pending:
            if (r.chain_limit[top] < 0 or s.chain < r.chain_limit[top]) and has(r.stack, top):
                for i in range(size):
                    card = hand[i]
                    if has(seen, card):
                        continue
                    seen |= (<uint64_t>1) << card
                    if r.rank[card] == r.rank[top]:  # only the same rank passes a penalty on
                        n = add_plays(r, legal, n, card, due)
        else:
            for i in range(size):
                card = hand[i]
                if has(seen, card):
                    continue
                seen |= (<uint64_t>1) << card
                if playable(s, r, card):
                    n = add_plays(r, legal, n, card, due)
            if n and r.stuck_only:
                return n
        legal[n].kind = A_DRAW
        return n + 1
    if s.phase == P_DRAWN:
        if playable(s, r, s.drawn):
            n = add_plays(r, legal, n, s.drawn, due_after(r, size - 1))
        legal[n].kind = A_PASS
        return n + 1
    if s.phase == P_NAME_SUIT:
        for named in range(4):
            legal[named].kind, legal[named].suit = A_NAME_SUIT, named
        return 4
    if s.phase == P_CHALLENGING:
        legal[0].kind, legal[1].kind = A_CHALLENGE, A_PASS
        return 2
    return 0


cdef inline void next_turn(State* s, int seat, int nxt) noexcept nogil:
    s.current, s.phase = nxt, P_PLAY
    if s.missed >= 0 and s.missed != nxt:
        s.phase = P_CHALLENGING
    if nxt != seat:
        s.again = 0


cdef inline void finish(State* s, int winner) noexcept nogil:
    s.winner, s.phase = winner, P_OVER


cdef void end_turn(State* s, Rules* r, int seat, int gained) noexcept nogil:
    """Round._end_turn: a turn without a play counts toward a blocked round, then the turn passes on."""
    s.idle = 0 if gained else s.idle + 1
    if s.idle >= s.playing or s.turns >= r.turn_limit:
        finish(s, -1)
        return
    next_turn(s, seat, step(s, seat))


cdef inline int penalty_for(State* s, Rules* r, int seat) noexcept nogil:
    cdef int penalty = r.maumau_penalty if s.sizes[seat] == 0 else r.mau_penalty
    return penalty if penalty > 0 else 0


cdef void others_draw(State* s, Rules* r, MT* mt, int seat, int count) noexcept nogil:
    """Every other seat in play draws `count`, in turn order from `seat` (Round._others)."""
    cdef int first = step(s, seat), nxt = first
    while True:
        if nxt != seat:
            draw(s, r, mt, nxt, count)
        nxt = step(s, nxt)
        if nxt == first:
            return


cdef void powers(State* s, Rules* r, MT* mt, int seat, int card) noexcept nogil:
    """Round._powers: the power of `card`, just played by `seat`, then the turn passes on."""
    cdef int nxt, k
    if r.draw[card]:
        s.chain = s.chain + 1 if s.pending else 0
        s.pending += r.draw[card]
    if has(r.reverse, card):
        s.direction = -s.direction
    if r.others_draw[card]:
        others_draw(s, r, mt, seat, r.others_draw[card])
    if has(r.again, card) and s.sizes[seat]:
        next_turn(s, seat, seat)
        s.again = 1
        return
    nxt = step(s, seat)
    for k in range(r.skip[card]):
        nxt = step(s, nxt)
    next_turn(s, seat, nxt)


cdef void play_card(State* s, Rules* r, MT* mt, int seat, Act* action) noexcept nogil:
    """Round._play: the card leaves the hand for the pile; announcements, going out, powers."""
    cdef int card = action.card, i, left, due
    cdef unsigned char* hand = s.hands[seat]
    cdef bint missed
    for i in range(s.sizes[seat]):  # list.remove: the first copy
        if hand[i] == card:
            memmove(&hand[i], &hand[i + 1], s.sizes[seat] - i - 1)
            break
    s.sizes[seat] -= 1
    s.discard[s.discard_size] = card
    s.discard_size += 1
    s.suit = action.suit if has(r.wild, card) else r.suit[card]
    s.again = 0
    s.idle = 0
    left = s.sizes[seat]
    due = due_after(r, left)
    missed = due != 0 and action.announce != due
    if missed:
        if r.challenge:
            s.missed = seat
        else:
            draw(s, r, mt, seat, penalty_for(s, r, seat))
    if s.sizes[seat] == 0 and not (missed and r.challenge):
        if r.last_card_draws:
            if r.draw[card]:
                draw(s, r, mt, step(s, seat), s.pending + r.draw[card])
                s.pending = 0
            if r.others_draw[card]:
                others_draw(s, r, mt, seat, r.others_draw[card])
        finish(s, seat)
    elif has(r.action, card):
        powers(s, r, mt, seat, card)
    else:
        next_turn(s, seat, step(s, seat))


cdef void apply(State* s, Rules* r, MT* mt, Act* action) noexcept nogil:
    """Round.apply on the fast path."""
    cdef int seat = s.current, got, offender
    s.turns += 1
    if s.phase == P_PLAY:
        if action.kind == A_DRAW:
            if s.pending:
                got = draw(s, r, mt, seat, s.pending)
                s.pending = s.chain = 0
                end_turn(s, r, seat, got)
                return
            got = draw(s, r, mt, seat, 1)
            if got and r.play_drawn and playable(s, r, s.hands[seat][s.sizes[seat] - 1]):
                s.drawn, s.phase = s.hands[seat][s.sizes[seat] - 1], P_DRAWN
                return
            end_turn(s, r, seat, got)
            return
        play_card(s, r, mt, seat, action)
    elif s.phase == P_DRAWN:
        s.drawn = -1
        if action.kind == A_PASS:
            end_turn(s, r, seat, 1)
            return
        play_card(s, r, mt, seat, action)
    elif s.phase == P_NAME_SUIT:
        s.suit = action.suit
        s.phase, s.current = P_PLAY, s.after_naming
    elif s.phase == P_CHALLENGING:
        offender = s.missed
        s.missed = -1
        if action.kind == A_CHALLENGE:
            draw(s, r, mt, offender, penalty_for(s, r, offender))
        elif s.sizes[offender] == 0:
            if s.pending and r.last_card_draws:  # the final 7 still counts
                draw(s, r, mt, seat, s.pending)
            finish(s, offender)
            return
        s.phase = P_PLAY
    if s.turns >= r.turn_limit and s.phase != P_OVER:
        finish(s, -1)


# ---------------------------------------------------------------------------------------------- the policies


cdef int most_held_suit(Rules* r, unsigned char* cards, int count, int without) noexcept nogil:
    """simulate.most_held_suit: the suit with the most cards (the first in SUITS order on a tie); `without`: a card
    left out, every copy of it (-1: none)."""
    cdef int counts[4]
    cdef int i, best = 0
    counts[0] = counts[1] = counts[2] = counts[3] = 0
    for i in range(count):
        if cards[i] != without:
            counts[r.suit[cards[i]]] += 1
    for i in range(1, 4):
        if counts[i] > counts[best]:
            best = i
    return best


cdef int quick(void* data, State* s, Rules* r, MT* mt, Act* legal, int n) noexcept nogil:
    """simulate.quick_policy: play rather than draw, keep wild cards back, name the suit held most."""
    cdef int plays[MAX_LEGAL]
    cdef int count = 0, i, first_wild = -1, named
    if n == 1:
        return 0
    if s.phase == P_NAME_SUIT:
        return most_held_suit(r, s.hands[s.current], s.sizes[s.current], -1)
    if s.phase == P_CHALLENGING:
        return 0
    for i in range(n):
        if legal[i].kind == A_PLAY:
            if has(r.wild, legal[i].card):
                if first_wild < 0:
                    first_wild = i
            else:
                plays[count] = i
                count += 1
    if count:
        return plays[<int>(random_float(mt) * count)]
    if first_wild >= 0 and s.phase != P_DRAWN:  # a drawn wild card is kept for later
        named = most_held_suit(r, s.hands[s.current], s.sizes[s.current], legal[first_wild].card)
        for i in range(n):
            if legal[i].kind == A_PLAY and legal[i].suit == named:
                return i
        return first_wild
    for i in range(n):
        if legal[i].kind == A_PASS:
            return i
    return <int>(random_float(mt) * n)


cdef int uniform(void* data, State* s, Rules* r, MT* mt, Act* legal, int n) noexcept nogil:
    """simulate.random_policy: uniform over the legal actions."""
    return <int>(random_float(mt) * n)


cdef class Policy:
    """A playout policy the kernel plays: its C function `choose` (the slot a bot's own policy fills, as
    bots/_hard.pyx's does: a subclass sets `choose` and `data` in its __cinit__). A Python playout policy declares
    its twin here as its `kernel` attribute (runner/botkit/simulate.py's `quick_policy`)."""

    def __reduce__(self):  # a subclass that holds C data says how it is made again
        raise TypeError(f"{type(self).__name__} cannot be pickled")


cdef class Quick(Policy):
    """simulate.quick_policy's twin."""

    def __cinit__(self):
        self.choose = quick

    def __reduce__(self):
        return "QUICK"  # pickled as the module's one


cdef class Uniform(Policy):
    """simulate.random_policy's twin."""

    def __cinit__(self):
        self.choose = uniform

    def __reduce__(self):
        return "UNIFORM"


QUICK, UNIFORM = Quick(), Uniform()


cdef class Value:
    """A value of an ending the kernel computes: its C function `worth` of a finished round (the slot a bot's own value
    fills, as bots/_hard.pyx's place value does: a subclass sets `worth` and `data` in its __cinit__)."""

    def __reduce__(self):
        raise TypeError(f"{type(self).__name__} cannot be pickled")


# The policy of each seat, as its C function and data (the Policy objects are kept alive by the caller).
cdef struct Seats:
    Choose choose[MAX_SEATS]
    void* data[MAX_SEATS]


cdef inline int choose(State* s, Rules* r, MT* mt, Seats* p, Act* legal, int n) noexcept nogil:
    """The seat to play's policy."""
    return p.choose[s.current](p.data[s.current], s, r, mt, legal, n)


cdef void play_out(State* s, Rules* r, MT* mt, Seats* p) noexcept nogil:
    """simulate.playout: each seat's policy to the end of the round."""
    cdef Act legal[MAX_LEGAL]
    cdef int n
    while s.phase != P_OVER:
        n = legal_actions(s, r, legal)
        apply(s, r, mt, &legal[choose(s, r, mt, p, legal, n)])


cdef list trace(State* s, Rules* r, MT* mt, Seats* p, Table table):
    """play_out, returning each action taken, as the engine's actions (for tests: the kernel's path, move by move)."""
    cdef Act legal[MAX_LEGAL]
    cdef int n, i
    cdef Act* a
    taken = []
    while s.phase != P_OVER:
        n = legal_actions(s, r, legal)
        a = &legal[choose(s, r, mt, p, legal, n)]
        taken.append(python_action(a, table))
        apply(s, r, mt, a)
    return taken


cdef object python_action(Act* a, Table table):
    if a.kind == A_PLAY:
        return play(table.cards[a.card], None if a.suit < 0 else SUITS[a.suit], ANNOUNCEMENTS[a.announce])
    if a.kind == A_DRAW:
        return DRAW
    if a.kind == A_PASS:
        return PASS
    if a.kind == A_NAME_SUIT:
        return name_suit(SUITS[a.suit])
    return CHALLENGE


cdef inline long floor_div(long a, long b) noexcept nogil:
    """Python's a // b (b > 0): rounded down, negative numbers too."""
    cdef long q = a / b
    return q - 1 if (a % b != 0 and a < 0) else q


cdef void round_points(State* s, Rules* r, long* points) noexcept nogil:
    """Round.points of a finished round, each seat's (runner/game/house_rules.py's scores and _gpoints under every key of
    `scoring`; the plain hands' points where none is set): 0 for the winner and the seats not scored."""
    cdef long held[MAX_SEATS]
    cdef bint holds[MAX_SEATS]
    cdef bint collects[MAX_SEATS]
    cdef int seat, i, size, out_card = -1, factor = 1
    cdef bint any_held = False, found
    cdef long value, most = 0, lowest = 0, total = 0
    if s.winner >= 0:
        out_card = s.discard[s.discard_size - 1]  # the winner's last card
        if r.multiplies:
            factor = r.multiplier[out_card]
    for seat in range(s.n_seats):
        points[seat], holds[seat] = 0, False
        size = s.sizes[seat]
        if not s.scored[seat] or seat == s.winner or size == 0:
            continue
        value = 0
        for i in range(size):
            value += r.points[s.hands[seat][i]]
        held[seat], holds[seat], any_held = value, True, True
        if r.any_alone and size == 1 and r.alone[s.hands[seat][0]] >= 0:
            value = r.alone[s.hands[seat][0]]
        elif r.count == 1:
            value = size
        elif r.count == 2:
            value = 1
        if value < r.minimum:
            value = r.minimum
        if r.round_to > 1:
            value = floor_div(2 * value + r.round_to, 2 * r.round_to) * r.round_to  # the nearest multiple, halves up
        points[seat] = value * factor
    if r.highest_only and any_held:  # only the highest hands score
        found = False
        for seat in range(s.n_seats):
            if holds[seat] and (not found or held[seat] > most):
                most, found = held[seat], True
        for seat in range(s.n_seats):
            if holds[seat] and held[seat] < most:
                points[seat] = 0
    if r.blocked_difference and s.winner < 0 and any_held:  # a round nobody won: the differences to the lowest hand
        found = False
        for seat in range(s.n_seats):
            if holds[seat] and (not found or points[seat] < lowest):
                lowest, found = points[seat], True
        for seat in range(s.n_seats):
            if holds[seat]:
                points[seat] -= lowest
    if r.winner_collects:
        # the winner collects every hand's score; in a round nobody won the lowest hands (blocked difference) do,
        # else nobody
        for seat in range(s.n_seats):
            total += points[seat]
            collects[seat] = seat == s.winner or (s.winner < 0 and r.blocked_difference and s.scored[seat]
                                                  and s.sizes[seat] > 0 and points[seat] == 0)
        for seat in range(s.n_seats):
            points[seat] = total if collects[seat] else 0
    if s.winner >= 0 and r.any_winner_score and r.has_winner_score[out_card]:
        points[s.winner] += r.winner_score[out_card]


cdef list points(State* s, Rules* r):
    """Round.points of a finished round."""
    cdef long found[MAX_SEATS]
    round_points(s, r, found)
    return [found[seat] for seat in range(s.n_seats)]


# ---------------------------------------------------------------------------------------------- from Python


cdef int _cards_into(dict number, cards, unsigned char* into) except -1:
    cdef int count = 0
    for card in cards:
        if count >= MAX_CARDS:
            raise ValueError("more cards than the playout kernel holds")
        into[count] = number[card]
        count += 1
    return count


cdef int load_round(State* s, Table table, rnd) except -1:
    """The kernel's state of a Round of the fast path (its rules' Table: `table`)."""
    cdef dict number = table.number
    cdef int seat, i
    hands = rnd.hands
    s.n_seats = len(hands)
    if s.n_seats > MAX_SEATS:
        raise ValueError("more seats than the playout kernel holds")
    for seat in range(s.n_seats):
        s.sizes[seat] = _cards_into(number, hands[seat], s.hands[seat])
    s.stock_size = _cards_into(number, rnd.stock, s.stock)
    s.discard_size = _cards_into(number, rnd.discard, s.discard)
    s.suit = SUITS.index(rnd.suit)
    s.current = rnd.current
    s.phase = PHASES[rnd.phase]
    s.pending, s.chain, s.direction, s.again = rnd.pending, rnd.chain, rnd.direction, rnd.again
    drawn = rnd.drawn
    s.drawn = -1 if drawn is None else number[drawn]
    missed = rnd.missed
    s.missed = -1 if missed is None else missed[0]
    s.idle, s.turns = rnd.idle, rnd.turns
    winner = rnd.winner
    s.winner = -1 if winner is None else winner
    s.after_naming = -1
    if s.phase == P_NAME_SUIT:  # Round._after_naming: where the upcard's effects sent the turn, else the lead
        resume = rnd.resume
        s.after_naming = resume.nxt if resume is not None and resume.nxt >= 0 else rnd._lead_seat()
    after = rnd._after
    if after is None:
        rnd._step(rnd.current)  # builds the round's table of the next seat
        after = rnd._after
    clockwise, counter = after[1], after.get(-1)
    for seat in range(s.n_seats):
        s.step[0][seat], s.step[1][seat] = clockwise[seat], counter[seat]
    out = rnd.out
    s.playing = len(rnd.in_play()) if out else len(rnd.active)
    s.n_active = 0
    for seat in range(s.n_seats):
        s.scored[seat] = False
    for seat in rnd.active:
        s.active[s.n_active] = seat
        s.n_active += 1
        s.scored[seat] = seat not in out
    return 0


cdef int load_action(Act* a, Table table, action) except -1:
    """One action of the Round's `legal()` (or like one) as the kernel's."""
    kind = type(action)
    a.card, a.suit, a.announce = -1, -1, 0
    if kind is Play:
        if action.more or action.rank is not None:
            raise ValueError(f"{action}: plays of several cards and wishes are beyond the playout kernel")
        a.kind, a.card = A_PLAY, table.number[action.card]
        a.suit = -1 if action.suit is None else SUITS.index(action.suit)
        a.announce = ANNOUNCE.get(action.announce, 0)
    elif kind is Draw:
        a.kind = A_DRAW
    elif kind is Pass:
        a.kind = A_PASS
    elif kind is NameSuit:
        a.kind, a.suit = A_NAME_SUIT, SUITS.index(action.suit)
    elif kind is Challenge:
        a.kind = A_CHALLENGE
    else:
        raise ValueError(f"{action}: an action beyond the playout kernel")
    return 0


cdef tuple load_policy(policy, Seats* p):
    """The twin of a playout policy, its `kernel` attribute (a Policy, or ("seats", (Policy, ...)): one per seat,
    simulate.SeatPolicies), into `p`: returns the Policy objects, which the caller keeps while `p` is used."""
    twins = _seat_twins(getattr(policy, "kernel", None))
    if twins is None:
        raise ValueError(f"{policy!r} has no twin in the playout kernel")
    cdef int seat
    cdef Policy twin
    for seat in range(MAX_SEATS):
        twin = twins[seat % len(twins)]
        p.choose[seat], p.data[seat] = twin.choose, twin.data
    return twins


def _seat_twins(twin):
    """The twins a seat plays by, from a policy's `kernel` attribute (one for all, or one per seat); None if the
    kernel plays none of them."""
    if isinstance(twin, Policy):
        twins = (twin,)
    elif type(twin) is tuple and len(twin) == 2 and twin[0] == "seats":
        twins = tuple(twin[1])
    else:
        return None
    # a Policy whose subclass set no C function is no twin (the kernel would call nothing)
    if not twins or len(twins) > MAX_SEATS or not all(isinstance(t, Policy) and (<Policy>t).choose != NULL
                                                     for t in twins):
        return None
    return twins


def has_twin(policy) -> bool:
    """Whether `policy` declares a twin the kernel plays (its `kernel` attribute)."""
    return _seat_twins(getattr(policy, "kernel", None)) is not None


def legal(rnd):
    """The kernel's legal actions in `rnd`, as the engine's actions (for tests: they equal `rnd.legal()`)."""
    cdef Table table = table_of(rnd.rules)
    cdef State s
    cdef Act found[MAX_LEGAL]
    load_round(&s, table, rnd)
    cdef int n = legal_actions(&s, &table.rules, found), i
    return tuple(python_action(&found[i], table) for i in range(n))


def actions(rnd, rng, policy):
    """The actions a playout of a copy of `rnd` takes, in order (as `rollout`, for tests)."""
    cdef Table table = table_of(rnd.rules)
    cdef State s
    cdef Seats p
    kept = load_policy(policy, &p)
    load_round(&s, table, rnd)
    cdef Generator gen = Generator(rng)
    taken = trace(&s, &table.rules, gen.mt, &p, table)
    gen.release()
    return taken


def has_value_twin(value) -> bool:
    """Whether `value` declares a twin the kernel computes (its `kernel` attribute: a Value)."""
    twin = getattr(value, "kernel", None)
    return isinstance(twin, Value) and (<Value>twin).worth != NULL


def rollout(rnd, rng, policy, first=None):
    """A copy of `rnd` played to the end (after `first`, if given) with `policy`'s twin at every seat, `rng` driving
    its choices and reshuffles: (points, winner, turns); `rnd` is left as it is, `rng` moved on as the Python playout
    moves it. `rnd`'s rules must be covered (`table_of(rnd.rules)`), `rng` a random.Random."""
    cdef Table table = table_of(rnd.rules)
    if table is None:
        raise ValueError("the playout kernel does not cover these rules")
    cdef State s
    cdef Seats p
    cdef Act a
    kept = load_policy(policy, &p)
    load_round(&s, table, rnd)
    if first is not None:
        load_action(&a, table, first)
    cdef Generator gen = Generator(rng)
    if first is not None:
        apply(&s, &table.rules, gen.mt, &a)
    play_out(&s, &table.rules, gen.mt, &p)
    gen.release()
    return points(&s, &table.rules), (None if s.winner < 0 else s.winner), s.turns


# ---------------------------------------------------------------------------------------------- search


cdef class Search:
    """Sampler.sample and a playout of each option, for one decision: the deal of the hidden cards and the playouts
    in C (runner/botkit/simulate.py's Sampler and rollout are the reference).

    `world` is a Round of the view with the hidden cards placed anyhow (its other hands and stock are dealt
    anew per sample); `hidden` the cards dealt, in the Sampler's order; `voids` the Sampler's layers;
    `named` its named suits; `options` the actions searched, each played out in every sample; `value`
    None, or a value of an ending with a twin here (its `kernel` attribute, a Value): then each ending is that
    value.
    """

    cdef Table table
    cdef State world
    cdef Seats seats
    cdef tuple policies
    cdef unsigned char hidden[MAX_CARDS]
    cdef int n_hidden
    cdef int seat
    cdef int void_seat[4 * MAX_SEATS]
    cdef int void_count[4 * MAX_SEATS]
    cdef uint64_t void_cards[4 * MAX_SEATS]
    cdef int n_voids
    cdef int named_suit[MAX_SEATS]     # -1: none
    cdef bint any_named
    cdef int tries
    cdef Act options[MAX_LEGAL]
    cdef int n_options
    cdef Generator generator
    cdef Value value

    def __init__(self, world, hidden, voids, named, options, policy, tries, value=None):
        cdef Table table = table_of(world.rules)
        if table is None:
            raise ValueError("the playout kernel does not cover these rules")
        self.table = table
        load_round(&self.world, table, world)
        self.policies = load_policy(policy, &self.seats)
        self.seat = world.current
        self.n_hidden = _cards_into(table.number, hidden, self.hidden)
        self.n_voids = 0
        cdef int seat
        for seat, layers in voids.items():
            for count, excluded in layers:
                if self.n_voids >= 4 * MAX_SEATS:
                    raise ValueError("more known voids than the playout kernel holds")
                self.void_seat[self.n_voids], self.void_count[self.n_voids] = seat, count
                self.void_cards[self.n_voids] = 0
                for card in excluded:
                    if card in table.number:
                        self.void_cards[self.n_voids] |= (<uint64_t>1) << <int>table.number[card]
                self.n_voids += 1
        for seat in range(MAX_SEATS):
            self.named_suit[seat] = -1
        self.any_named = bool(named)
        for seat, suit in named.items():
            self.named_suit[seat] = SUITS.index(suit)
        self.n_options = len(options)
        if self.n_options > MAX_LEGAL:
            raise ValueError("more options than the playout kernel holds")
        for i, action in enumerate(options):
            load_action(&self.options[i], table, action)
        self.tries = tries
        self.generator = None
        twin = getattr(value, "kernel", None) if value is not None else None
        if value is not None and not has_value_twin(value):
            raise ValueError(f"{value!r}: a value the playout kernel has no twin of")
        self.value = twin

    def bind(self, rng):
        """Work on `rng` (the bot's generator) until `release`."""
        self.generator = Generator(rng)

    def release(self):
        """Put the generator's state back (where it was copied) and let go of it."""
        self.generator.release()
        self.generator = None

    cdef bint most_held(self, State* s, int seat, int suit):
        """simulate._most_held: no suit is held more often than `suit` in the seat's hand."""
        cdef int counts[4]
        cdef int i, best = 0
        counts[0] = counts[1] = counts[2] = counts[3] = 0
        for i in range(s.sizes[seat]):
            counts[self.table.rules.suit[s.hands[seat][i]]] += 1
        if s.sizes[seat] == 0:
            return True
        for i in range(4):
            if counts[i] > best:
                best = counts[i]
        return counts[suit] >= best

    cdef int deal(self, State* s, MT* mt) except -1:
        """Sampler._deal into `s` (a copy of the world): the hidden cards shuffled, the voids kept, the rest in turn."""
        cdef unsigned char pool[MAX_CARDS]
        cdef unsigned char rest[MAX_CARDS]
        cdef int size = self.n_hidden, v, i, seat, taken, kept, at, missing, count
        memcpy(pool, self.hidden, size)
        shuffle(mt, pool, size)
        for seat in range(s.n_seats):
            if seat != self.seat:
                s.sizes[seat] = 0
        for v in range(self.n_voids):
            seat, taken, kept = self.void_seat[v], 0, 0
            # The pool is shuffled, so its first eligible cards are a uniform draw of them.
            for i in range(size):
                if taken < self.void_count[v] and not has(self.void_cards[v], pool[i]):
                    s.hands[seat][s.sizes[seat]] = pool[i]
                    s.sizes[seat] += 1
                    taken += 1
                else:
                    rest[kept] = pool[i]
                    kept += 1
            memcpy(pool, rest, kept)
            size = kept
        at = 0
        for seat in range(s.n_seats):
            if seat == self.seat:
                continue
            missing = self.world.sizes[seat] - s.sizes[seat]
            if missing < 0 or at + missing > size:
                raise ValueError("the known voids do not fit the hands")
            memcpy(&s.hands[seat][s.sizes[seat]], &pool[at], missing)
            s.sizes[seat] += missing
            at += missing
        count = size - at
        if count != self.world.stock_size:
            raise ValueError("the hidden cards do not fit the stock")
        for i in range(count):  # the rest of the pool is the stock, top card first: kept top card last
            s.stock[i] = pool[size - 1 - i]
        s.stock_size = count
        return 0

    def sample(self):
        """One sampled deal, and each option played out in it from the same seed: [(points, winner, turns), ...],
        or with a value [(value, turns), ...]."""
        cdef State dealt, s
        cdef MT seeded, mt
        cdef MT* bot = self.generator.mt
        cdef int attempt, seat, i
        cdef bint fits
        memcpy(&dealt, &self.world, sizeof(State))
        for attempt in range(self.tries):
            memcpy(&dealt, &self.world, sizeof(State))
            self.deal(&dealt, bot)
            if not self.any_named:
                break
            fits = True
            for seat in range(dealt.n_seats):
                if self.named_suit[seat] >= 0 and not self.most_held(&dealt, seat, self.named_suit[seat]):
                    fits = False
            if fits:
                break
        seed_u64(&seeded, bits64(bot))  # one seed for every option: their playouts differ only by the option
        results = []
        for i in range(self.n_options):
            memcpy(&s, &dealt, sizeof(State))
            memcpy(&mt, &seeded, sizeof(MT))
            apply(&s, &self.table.rules, &mt, &self.options[i])
            play_out(&s, &self.table.rules, &mt, &self.seats)
            if self.value is not None:
                results.append((self.value.worth(self.value.data, &s, &self.table.rules), s.turns))
            else:
                results.append((points(&s, &self.table.rules), None if s.winner < 0 else s.winner, s.turns))
        return results


in_place = _layout_checks()


def layout():
    """The sizes of the structs of _playout.pxd in this build: a module compiled against them (bots/_hard.pyx)
    refuses to load when its own differ (it was built against another version of the kernel)."""
    return (sizeof(MT), sizeof(Rules), sizeof(State), sizeof(Act), MAX_SEATS, MAX_KINDS, MAX_CARDS)


def in_place_generator(use=None) -> bool:
    """Whether the kernel works on a random.Random's state in place (its layout checked at import); `use=False`
    makes it copy the state in and out instead (as where the layout does not check out), `use=True` goes back to
    working in place where the layout allows."""
    global in_place
    if use is not None:
        in_place = bool(use) and _layout_checks()
    return in_place
