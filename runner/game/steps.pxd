# The steps both paths of a round take (runner/game/steps.py) as C calls, on the typed state of
# runner/game/round_state.pxd.
cimport cython

from runner.game.round_state cimport RoundState

cdef object DRAW_RECORD, NAME_SUIT_RECORD, CHALLENGE_RECORD, PASS_RECORD, SKIP_RECORD
cdef str NAME_SUIT_EVENT, CHALLENGE_EVENT, PASS_EVENT


@cython.locals(i=Py_ssize_t, j=Py_ssize_t, n=Py_ssize_t, k=int)
cpdef shuffle(rng, list cards)


cdef class Steps(RoundState):
    cpdef list in_play(self)
    cpdef list _clockwise_from(self, int seat)
    cpdef int _lead_seat(self) except? -1
    cpdef list _others(self, int seat)
    cpdef int _penalty_for(self, int seat)
    cpdef int _step(self, int seat) except? -1
    @cython.locals(stock=list, hand=list, taken=list, total=int)
    cpdef int _draw(self, int seat, int count, str reason) except? -1
    cpdef _record_draw(self, int seat, list cards, str reason)
    cpdef _finish(self, winner, reason)
