# The budgets of a decision as a C struct, written each timed decision (runner/seats/deadline.py).

cdef class _State:
    cdef public bint armed
    cdef public double wall_at, cpu_at
    cdef public object main, clock, watchdog

cdef _State _state
cdef double _INFINITY
cdef object _get_ident, _getsignal, _SIGALRM

cdef object _over(double cpu_now)
