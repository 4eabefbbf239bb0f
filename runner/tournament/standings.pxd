# The standings' running sums as C types for the compiled accelerator (runner/accel.py): each stored seat of a
# tournament is fed to them at its end, while no worker plays (runner/tournament/standings.py).
cimport cython

cdef class Clustered:
    cdef public Py_ssize_t n, size, blocks, largest
    cdef public double total, p, sum, squares
    cdef public object block
    cpdef void add(self, object block, double value)
    # the square as Python squares a float (libm's pow), never as C's x * x, which the compiler makes of pow(x, 2.0):
    # the two differ in the last bit for about one value in a thousand
    @cython.locals(deviation=object)
    cdef void _close_block(self)

cdef class Totals:
    cdef public Py_ssize_t n, wins, draws, losses, points, rounds, rounds_won, faults, places
    cdef public object score  # an integer 0 until a match is added, as the Standing shows it
    cdef public double ahead
    cpdef void add(self, object seat, double ahead)
