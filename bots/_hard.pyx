# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The `hard` bot's strategy in C, for the framework's playout kernel (runner/botkit/_playout.pyx, whose slots
_playout.pxd declares): the twin of hard.py's `heuristic_policy` (`Heuristic`, a kernel Policy) and of its
`match_value` for the classic match formats (`Place`, a kernel Value).

Built by setup.py beside the kernel (`runner.accel.KERNELS`); hard.py imports it where it is built
and current, and otherwise plays its Python policy and value alone (the kernel then plays them in
Python, too). Each twin makes the same choices and the same floats as its Python original, so
that `hard` decides the same with or without it (tests/test_playout_kernel.py).
"""

from libc.math cimport exp, sqrt

from runner.botkit._playout cimport (
    A_PLAY,
    MAX_CARDS,
    MAX_KINDS,
    MAX_SEATS,
    MT,
    P_CHALLENGING,
    P_DRAWN,
    P_NAME_SUIT,
    Act,
    Policy,
    Rules,
    State,
    Value,
    has,
    most_held_suit,
    round_points,
)
from runner.botkit._playout import layout

# Compiled against the kernel's structs as _playout.pxd declared them then: a kernel built from another version
# would read them differently, so this module is not used with it (hard.py then plays in Python).
if layout() != (sizeof(MT), sizeof(Rules), sizeof(State), sizeof(Act), MAX_SEATS, MAX_KINDS, MAX_CARDS):
    raise ImportError("maumau.bots._hard was built against another playout kernel (pip install -e . rebuilds it)")

PLACE_FORMATS = ("single", "limit", "elimination")  # the match formats `Place` covers


cdef struct Weights:
    int close
    double keep_wild, shed_close, shed_calm, spread, follow


cdef int heuristic(void* data, State* s, Rules* r, MT* mt, Act* legal, int n) noexcept nogil:
    """hard.py's heuristic_policy on the classic rules: pass a 7 on, play a drawn card, keep a Jack back,
    shed points when an opponent is close to going out, keep the hand's suits spread."""
    cdef int counts[4]
    cdef int named_with[MAX_KINDS]
    cdef int i, j, seat = s.current, card, held, suits = 0, best, named, other
    cdef unsigned char* hand = s.hands[seat]
    cdef double weight, kept_back, score, best_score
    cdef bint close = False, plain = False
    cdef Weights* w = <Weights*>data
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



cdef class Heuristic(Policy):
    """heuristic_policy's twin with these weights (hard.py passes medium's)."""

    cdef Weights weights

    def __cinit__(self, int close, double keep_wild, double shed_close, double shed_calm, double spread,
                  double follow):
        self.weights = Weights(close, keep_wild, shed_close, shed_calm, spread, follow)
        self.choose, self.data = heuristic, &self.weights

    def __reduce__(self):  # a policy per seat (simulate.SeatPolicies) goes to other processes with its twins
        w = self.weights
        return Heuristic, (w.close, w.keep_wild, w.shed_close, w.shed_calm, w.spread, w.follow)


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


cdef double place_value(void* data, State* s, Rules* r) noexcept nogil:
    """hard.py's match_value for the formats of PLACE_FORMATS: the expected share of opponents finished ahead of
    (the same operations in the same order, so the same float)."""
    cdef long points[MAX_SEATS]
    cdef long totals[MAX_SEATS]
    cdef int seat, i, o, others = 0
    cdef long top
    cdef double total = 0.0, rounds_left, scale
    cdef Place* p = <Place*>data
    round_points(s, r, points)
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



cdef class Placed(Value):
    """match_value's twin for one view (see `place`)."""

    cdef Place place
    cdef tuple made  # the arguments it was made with

    def __cinit__(self, str fmt, int seat, active, totals, limit, double round_points, double round_spread,
                  double logistic):
        self.made = (fmt, seat, tuple(active), tuple(totals), limit, round_points, round_spread, logistic)
        cdef Place* p = &self.place
        p.format, p.seat, p.limit = PLACE_FORMATS.index(fmt), seat, limit or 0
        p.round_points, p.round_spread, p.logistic = round_points, round_spread, logistic
        p.n_active = len(active)
        for i, other in enumerate(active):
            p.active[i] = other
        for i, held in enumerate(totals):
            p.totals[i] = held
        self.worth, self.data = place_value, p

    def __reduce__(self):
        return Placed, self.made


def place(fmt, seat, active, totals, limit, round_points, round_spread, logistic):
    """match_value's twin for the view of `seat`: a Value of the kernel, or None where the format is not one of
    PLACE_FORMATS or the table is larger than the kernel's."""
    if fmt not in PLACE_FORMATS or len(totals) > MAX_SEATS or len(active) > MAX_SEATS:
        return None
    return Placed(fmt, seat, active, totals, limit, round_points, round_spread, logistic)
