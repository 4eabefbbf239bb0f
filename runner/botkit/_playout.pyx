# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The playout kernel: a round of the classic rules played to its end in C, with cards as small ints.

The compiled twin of runner/botkit/simulate.py's playout loop (and of the two policies that declare
a twin, `quick_policy` and bots/hard.py's `heuristic_policy`), built by setup.py where a C compiler
is at hand. It covers the rules of the engine's fast path (runner/game/tables.py: a Game that
is not `general`) with plain scoring; everything else is played by the Python loop, which is
the reference: for the same Round and generator, a playout here leaves the same points, winner,
turns and generator state as `playout` there (tests/test_playout_kernel.py).

The generator is CPython's `random.Random` replicated (MT19937; `random()`, `getrandbits`,
`shuffle` through `_randbelow`, and seeding from an int): the kernel works on the generator's
own state, read in place where the object's layout checks out against `getstate()` at import,
else copied in with `getstate()` and back with `setstate()`.
"""

import random

from libc.math cimport exp, sqrt
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

# ---------------------------------------------------------------------------------------------- limits

cdef enum:
    MAX_KINDS = 64     # distinct cards of a deck (bit sets are 64-bit words)
    MAX_SEATS = 12
    MAX_CARDS = 128    # cards of a deck, copies included: a hand, the stock or the pile holds at most this many
    MAX_LEGAL = 4 * MAX_KINDS + 2
    MT_N = 624
    MT_M = 397

# Phases and action kinds.
cdef enum:
    P_PLAY, P_DRAWN, P_NAME_SUIT, P_CHALLENGING, P_OVER
cdef enum:
    A_PLAY, A_DRAW, A_PASS, A_NAME_SUIT, A_CHALLENGE

PHASES = {PLAY: P_PLAY, DRAWN: P_DRAWN, NAME_SUIT: P_NAME_SUIT, CHALLENGING: P_CHALLENGING, OVER: P_OVER}
ANNOUNCE = {None: 0, "mau": 1, "maumau": 2}
POLICIES = ("quick", "heuristic", "random")  # the policies with a twin here (and "seats": one of them a seat)

# ---------------------------------------------------------------------------------------------- the generator


cdef struct MT:
    int index
    uint32_t state[MT_N]


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


cdef struct Rules:
    int kinds
    int rank[MAX_KINDS]
    int suit[MAX_KINDS]
    int points[MAX_KINDS]
    int draw[MAX_KINDS]
    int chain_limit[MAX_KINDS]   # -1: none
    int skip[MAX_KINDS]
    int others_draw[MAX_KINDS]
    uint64_t wild, wild_on_wild, stack, reverse, again, skip_others, action
    bint stuck_only, play_drawn, challenge, last_card_draws, reshuffle
    int mau_penalty, maumau_penalty   # -1: not required
    int due[2]                         # the announcement due with a play leaving 0 or 1 cards (0: none)
    long turn_limit


cdef inline bint has(uint64_t cards, int card) noexcept nogil:
    return (cards >> card) & 1


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


def covers(game) -> bool:
    """Whether the kernel plays `game`'s rules: the fast path's, plain scoring, at most 64 distinct cards."""
    return (not game.general and game.plain_scoring and len(game.deck_cards) <= MAX_KINDS
            and all(card.suit in SUITS for card in game.deck_cards))


_tables = {}  # id(game) -> (game, its Table or None): the game kept, so that its id stays its own


def table_of(game):
    """The kernel's Table of `game` (built once), or None where the kernel does not cover its rules."""
    found = _tables.get(id(game))
    if found is None or found[0] is not game:
        found = _tables[id(game)] = (game, Table(game) if covers(game) else None)
    return found[1]


# ---------------------------------------------------------------------------------------------- the state


cdef struct State:
    int n_seats
    unsigned char hands[MAX_SEATS][MAX_CARDS]
    int sizes[MAX_SEATS]
    unsigned char stock[MAX_CARDS]      # top card last
    int stock_size
    unsigned char discard[MAX_CARDS]    # top card last
    int discard_size
    int suit, current, phase, pending, chain, direction, again, drawn, missed, idle, winner
    long turns
    int after_naming       # phase name_suit: the seat that plays once the suit is named
    int step[2][MAX_SEATS] # the next seat in play after each seat: [0] clockwise (direction 1), [1] the other way
    int playing            # seats in play (a turn of each without a card played or drawn blocks the round)
    int active[MAX_SEATS]  # the seats dealt in, in seat order
    int n_active
    bint scored[MAX_SEATS] # dealt in and not forfeited: its hand counts at the end


cdef struct Act:
    int kind, card, suit, announce


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


cdef int quick(State* s, Rules* r, MT* mt, Act* legal, int n) noexcept nogil:
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


cdef struct Weights:
    int code[MAX_SEATS]  # each seat's policy: its index in POLICIES
    int close
    double keep_wild, shed_close, shed_calm, spread, follow


cdef int heuristic(State* s, Rules* r, Weights* w, Act* legal, int n) noexcept nogil:
    """bots/hard.py's heuristic_policy on the classic rules: pass a 7 on, play a drawn card, keep a Jack back,
    shed points when an opponent is close to going out, keep the hand's suits spread."""
    cdef int counts[4]
    cdef int named_with[MAX_KINDS]
    cdef int i, j, seat = s.current, card, held, suits = 0, best, named, other
    cdef unsigned char* hand = s.hands[seat]
    cdef double weight, kept_back, score, best_score
    cdef bint close = False, plain = False
    if n == 1:
        return 0
    if s.phase == P_NAME_SUIT:
        return most_held_suit(r, hand, s.sizes[seat], -1)
    if s.phase == P_CHALLENGING:
        return 0
    counts[0] = counts[1] = counts[2] = counts[3] = 0
    for i in range(s.sizes[seat]):
        counts[r.suit[hand[i]]] += 1
    if s.phase == P_DRAWN or s.pending or s.sizes[seat] == 1:  # a single kind of play, if any: take it
        if legal[0].kind != A_PLAY or not has(r.wild, legal[0].card):
            return 0
        counts[r.suit[legal[0].card]] -= 1
        named = 0
        for j in range(1, 4):
            if counts[j] > counts[named]:
                named = j
        for i in range(n):
            if legal[i].kind == A_PLAY and legal[i].suit == named:
                return i
        return 0
    for i in range(s.n_active):
        other = s.active[i]
        if other != seat and s.sizes[other] <= w.close:
            close = True
    weight = w.shed_close if close else w.shed_calm
    for i in range(n):
        if legal[i].kind == A_PLAY and not has(r.wild, legal[i].card):
            plain = True
    kept_back = w.keep_wild if plain else 0.0
    for j in range(4):
        suits += counts[j] > 0
    for j in range(r.kinds):
        named_with[j] = -1
    best, best_score = n - 1, -1.0 / 0.0
    for i in range(n):
        if legal[i].kind != A_PLAY:
            continue
        card = legal[i].card
        held = counts[r.suit[card]]
        if has(r.wild, card):
            if named_with[card] < 0:
                counts[r.suit[card]] -= 1
                named = 0
                for j in range(1, 4):
                    if counts[j] > counts[named]:
                        named = j
                named_with[card] = named
                counts[r.suit[card]] += 1
            if legal[i].suit != named_with[card]:
                continue
            score = -kept_back
        else:
            score = 0.0
        # Shed points; keep many suits in hand and some of the suit left on the pile (the same sum, in order).
        score = score + ((weight * r.points[card] + w.spread * (suits - (held == 1))) + w.follow * (held - 1))
        if score > best_score:
            best, best_score = i, score
    return best


cdef int choose(State* s, Rules* r, MT* mt, Weights* w, Act* legal, int n) noexcept nogil:
    """The seat to play's policy (`w.code`): quick, heuristic, or uniform over the legal actions (simulate.py's
    random_policy)."""
    cdef int code = w.code[s.current]
    if code == 0:
        return quick(s, r, mt, legal, n)
    if code == 1:
        return heuristic(s, r, w, legal, n)
    return <int>(random_float(mt) * n)


cdef void play_out(State* s, Rules* r, MT* mt, Weights* w) noexcept nogil:
    """simulate.playout: each seat's policy (`w.code`) to the end of the round."""
    cdef Act legal[MAX_LEGAL]
    cdef int n
    while s.phase != P_OVER:
        n = legal_actions(s, r, legal)
        apply(s, r, mt, &legal[choose(s, r, mt, w, legal, n)])


cdef list trace(State* s, Rules* r, MT* mt, Weights* w, Table table):
    """play_out, returning each action taken, as the engine's actions (for tests: the kernel's path, move by move)."""
    cdef Act legal[MAX_LEGAL]
    cdef int n, i
    cdef Act* a
    taken = []
    while s.phase != P_OVER:
        n = legal_actions(s, r, legal)
        a = &legal[choose(s, r, mt, w, legal, n)]
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


cdef list points(State* s, Rules* r):
    """Round.points under plain scoring: a seat's cards' points, 0 for the winner and seats not scored."""
    cdef int seat, i, total
    result = [0] * s.n_seats
    for seat in range(s.n_seats):
        if s.scored[seat] and seat != s.winner:
            total = 0
            for i in range(s.sizes[seat]):
                total += r.points[s.hands[seat][i]]
            result[seat] = total
    return result


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


cdef int load_policy(policy, Weights* w) except -1:
    """The twin of a playout policy: its `kernel` attribute, ("quick",), ("heuristic", weights), ("random",), or
    ("seats", (twin, ...)): a twin per seat (simulate.SeatPolicies; the heuristic ones with the same weights)."""
    twins = _seat_twins(getattr(policy, "kernel", None))
    if twins is None:
        raise ValueError(f"{policy!r} has no twin in the playout kernel")
    cdef int seat
    for seat in range(MAX_SEATS):
        twin = twins[seat % len(twins)]
        w.code[seat] = POLICIES.index(twin[0])
        if twin[0] == "heuristic":
            w.close, w.keep_wild, w.shed_close, w.shed_calm, w.spread, w.follow = twin[1]
    return 0


def _seat_twins(twin):
    """The twins a seat plays by, from a policy's `kernel` attribute (one for all, or one per seat); None if the
    kernel plays none of them."""
    if twin is None:
        return None
    twins = tuple(twin[1]) if twin[0] == "seats" else (twin,)
    if not twins or len(twins) > MAX_SEATS or any(t is None or t[0] not in POLICIES for t in twins):
        return None
    if len({tuple(t[1]) for t in twins if t[0] == "heuristic"}) > 1:
        return None  # one set of weights
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
    cdef Weights w
    load_policy(policy, &w)
    load_round(&s, table, rnd)
    cdef Generator gen = Generator(rng)
    taken = trace(&s, &table.rules, gen.mt, &w, table)
    gen.release()
    return taken


def has_value_twin(value) -> bool:
    """Whether `value` declares a twin the kernel computes (its `kernel` attribute)."""
    twin = getattr(value, "kernel", None)
    return twin is not None and twin[0] == "place" and twin[1][0] in PLACE_FORMATS


def rollout(rnd, rng, policy, first=None):
    """A copy of `rnd` played to the end (after `first`, if given) with `policy`'s twin at every seat, `rng` driving
    its choices and reshuffles: (points, winner, turns); `rnd` is left as it is, `rng` moved on as the Python playout
    moves it. `rnd`'s rules must be covered (`table_of(rnd.rules)`), `rng` a random.Random."""
    cdef Table table = table_of(rnd.rules)
    if table is None:
        raise ValueError("the playout kernel does not cover these rules")
    cdef State s
    cdef Weights w
    cdef Act a
    load_policy(policy, &w)
    load_round(&s, table, rnd)
    if first is not None:
        load_action(&a, table, first)
    cdef Generator gen = Generator(rng)
    if first is not None:
        apply(&s, &table.rules, gen.mt, &a)
    play_out(&s, &table.rules, gen.mt, &w)
    gen.release()
    return points(&s, &table.rules), (None if s.winner < 0 else s.winner), s.turns


# ---------------------------------------------------------------------------------------------- valuing an ending

PLACE_FORMATS = ("single", "limit", "elimination")  # the match formats the `place` value twin covers


cdef struct Place:
    int format        # the index in PLACE_FORMATS
    int seat
    int n_active
    int active[MAX_SEATS]
    long totals[MAX_SEATS]
    long limit
    double round_points, round_spread, logistic


cdef inline double compare(long theirs, long mine) noexcept nogil:
    return 1.0 if mine < theirs else (0.0 if mine > theirs else 0.5)


cdef double place_value(Place* p, State* s, Rules* r) noexcept nogil:
    """bots/hard.py's match_value for the formats of PLACE_FORMATS: the expected share of opponents finished ahead of
    (the same operations in the same order, so the same float)."""
    cdef long points[MAX_SEATS]
    cdef long totals[MAX_SEATS]
    cdef int seat, i, o, others = 0
    cdef long top
    cdef double total = 0.0, rounds_left, scale
    for seat in range(s.n_seats):
        points[seat] = 0
        if s.scored[seat] and seat != s.winner:
            for i in range(s.sizes[seat]):
                points[seat] += r.points[s.hands[seat][i]]
    if p.format == 0:
        for i in range(p.n_active):
            o = p.active[i]
            if o == p.seat:
                continue
            others += 1
            if s.winner >= 0:
                total += 1.0 if s.winner == p.seat else (0.0 if s.winner == o else compare(points[o], points[p.seat]))
            else:
                total += compare(points[o], points[p.seat])
        return total / others
    for seat in range(s.n_seats):
        totals[seat] = p.totals[seat] + points[seat]
    top = totals[p.active[0]]
    for i in range(p.n_active):
        if totals[p.active[i]] > top:
            top = totals[p.active[i]]
    if p.format == 1 and top >= p.limit:
        for i in range(p.n_active):
            o = p.active[i]
            if o != p.seat:
                others += 1
                total += compare(totals[o], totals[p.seat])
        return total / others
    if p.format == 2:
        if totals[p.seat] > p.limit:
            for i in range(p.n_active):
                o = p.active[i]
                if o != p.seat:
                    others += 1
                    total += compare(totals[o], totals[p.seat]) if totals[o] > p.limit else 0.0
            return total / others
        top = totals[p.seat]
        for i in range(p.n_active):
            if top < totals[p.active[i]] <= p.limit:
                top = totals[p.active[i]]
    rounds_left = (p.limit - top) / p.round_points
    if not rounds_left > 1.0:
        rounds_left = 1.0
    scale = p.round_spread * sqrt(rounds_left)
    for i in range(p.n_active):
        o = p.active[i]
        if o == p.seat:
            continue
        others += 1
        if p.format == 2 and totals[o] > p.limit:
            total += 1.0
        else:
            total += 1.0 / (1.0 + exp(-p.logistic * (totals[o] - totals[p.seat]) / scale))
    return total / others


cdef int load_value(value, Place* p) except -1:
    """The twin of a value of an ending: its `kernel` attribute, ("place", (format, seat, active, totals, limit,
    round_points, round_spread, logistic)); 0 without one (the ending is returned instead)."""
    twin = getattr(value, "kernel", None)
    if twin is None:
        return 0
    kind, (fmt, seat, active, totals, limit, p.round_points, p.round_spread, p.logistic) = twin
    if kind != "place" or fmt not in PLACE_FORMATS or len(totals) > MAX_SEATS:
        raise ValueError(f"{value!r}: a value the playout kernel has no twin of")
    p.format, p.seat, p.limit = PLACE_FORMATS.index(fmt), seat, limit or 0
    p.n_active = len(active)
    for i, other in enumerate(active):
        p.active[i] = other
    for i, held in enumerate(totals):
        p.totals[i] = held
    return 1


# ---------------------------------------------------------------------------------------------- search


cdef class Search:
    """Sampler.sample and a playout of each option, for one decision: the deal of the hidden cards and the playouts
    in C (runner/botkit/simulate.py's Sampler and bots/hard.py's play_out are the reference).

    `world` is a Round of the view with the hidden cards placed anyhow (its other hands and stock are dealt
    anew per sample); `hidden` the cards dealt, in the Sampler's order; `voids` the Sampler's layers;
    `named` its named suits; `options` the actions searched, each played out in every sample; `value`
    None, or a value of an ending with a twin here (`load_value`): then each ending is that value.
    """

    cdef Table table
    cdef State world
    cdef Weights weights
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
    cdef Place place
    cdef bint valued

    def __init__(self, world, hidden, voids, named, options, policy, tries, value=None):
        cdef Table table = table_of(world.rules)
        if table is None:
            raise ValueError("the playout kernel does not cover these rules")
        self.table = table
        load_round(&self.world, table, world)
        load_policy(policy, &self.weights)
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
        self.valued = load_value(value, &self.place)

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
            play_out(&s, &self.table.rules, &mt, &self.weights)
            if self.valued:
                results.append((place_value(&self.place, &s, &self.table.rules), s.turns))
            else:
                results.append((points(&s, &self.table.rules), None if s.winner < 0 else s.winner, s.turns))
        return results


in_place = _layout_checks()


def in_place_generator(use=None) -> bool:
    """Whether the kernel works on a random.Random's state in place (its layout checked at import); `use=False`
    makes it copy the state in and out instead (as where the layout does not check out), `use=True` goes back to
    working in place where the layout allows."""
    global in_place
    if use is not None:
        in_place = bool(use) and _layout_checks()
    return in_place
