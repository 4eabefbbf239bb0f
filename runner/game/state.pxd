# The typed layout of a Round's state for the compiled accelerator (runner/accel.py): every name of
# RoundState.__slots__ in runner/game/state.py, as a C struct member; the ints and flags as C values.
from runner.game.compiled cimport Game


cdef class RoundState:
    cdef public Game rules
    cdef public object rng
    cdef public int n_seats
    cdef public list active, hands, stock, discard
    cdef public object suit
    cdef public int current
    cdef public str phase
    cdef public int pending, chain, direction
    cdef public bint again
    cdef public object drawn, missed
    cdef public int idle, turns
    cdef public object winner
    cdef public int dealer, number
    cdef public object totals, rounds_won
    cdef public list history
    cdef public object log, _legal, out, _after
    cdef public bint single_deck
    cdef public object outcome
    cdef public bint general
    cdef public object pending_card
    cdef public int pending_from, skip_pending
    cdef public object skip_card, waits
    cdef public int deferred
    cdef public object wish
    cdef public int wish_left
    cdef public object next_rank, shown, finished, resume, again_card, out_card
