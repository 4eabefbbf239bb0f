# Types for C of the referee's decision loop (runner/table/referee.py): the round is the engine's compiled class, so
# that a decision's view, legal actions and transition are C calls (runner.accel.LINKED: compiled with the engine only).
cimport cython

from runner.game.engine cimport Round


@cython.locals(decisions=Py_ssize_t, index=int, given_up=set, plain=bint, over=object)
cpdef tuple _play(referee, Round rnd, list seats, list players, bint untimed)
cpdef _ask(referee, Round rnd, seat, player)
@cython.locals(index=int, started=double, elapsed=double, stats=list)
cpdef _timed(referee, Round rnd, seat, player)
@cython.locals(legal=tuple)
cdef _answered(referee, Round rnd, player, answer)
