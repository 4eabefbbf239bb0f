# Prefix as a C type for the compiled accelerator (runner/accel.py): the View's shared history and discard pile
# (runner/game/prefix.py), made by the engine with a C call (`shared`).
cimport cython

cdef class Prefix:
    cdef readonly list _items
    cdef readonly Py_ssize_t _length

@cython.locals(prefix=Prefix)
cpdef Prefix shared(list items, Py_ssize_t length)
