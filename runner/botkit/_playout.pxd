# The playout kernel's C interface (runner/botkit/_playout.pyx): the round's state and rules as C structs, and the
# slots a bot fills with its own C code (cimported by bots/_hard.pyx): a playout policy (`Policy`) and a value of an
# ending (`Value`). A module that cimports these is compiled against this layout: it checks `layout()` at import.

from libc.stdint cimport uint32_t, uint64_t

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


cdef struct MT:
    int index
    uint32_t state[MT_N]


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
    # scoring (the ruleset's `scoring` keys): what a hand left scores, by count (0: points, 1: cards, 2: flat)
    int count, minimum, round_to
    bint multiplies, highest_only, blocked_difference, winner_collects, any_alone, any_winner_score
    int multiplier[MAX_KINDS]        # the winner's last card multiplies the hands' scores (scoring.multiplier)
    int alone[MAX_KINDS]             # a hand of this card alone scores this (scoring.alone; -1: as count says)
    int winner_score[MAX_KINDS]      # the winner going out on this card scores this (scoring.winner_scores)
    bint has_winner_score[MAX_KINDS]


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


cdef inline bint has(uint64_t cards, int card) noexcept nogil:
    return (cards >> card) & 1


# A policy's choice: the index of one of the `n` legal actions (`legal`, in the engine's order) for the seat to play
# (`s.current`); `data` is the policy's own (Policy.data), `mt` the playout's generator.
ctypedef int (*Choose)(void* data, State* s, Rules* r, MT* mt, Act* legal, int n) noexcept nogil
# What a finished round (`s.phase == P_OVER`) is worth to the searching bot; `data` is the value's own (Value.data).
ctypedef double (*Worth)(void* data, State* s, Rules* r) noexcept nogil


cdef class Policy:
    """A playout policy in C: a subclass sets `choose` (and `data`, which it keeps alive) in its __cinit__."""
    cdef Choose choose
    cdef void* data


cdef class Value:
    """A value of an ending in C: a subclass sets `worth` (and `data`, which it keeps alive) in its __cinit__."""
    cdef Worth worth
    cdef void* data


cdef double random_float(MT* mt) noexcept nogil
cdef int most_held_suit(Rules* r, unsigned char* cards, int count, int without) noexcept nogil
cdef void round_points(State* s, Rules* r, long* points) noexcept nogil
