# Prefix as a C type for the compiled accelerator (runner/accel.py): the View's shared history and discard pile
# (runner/game/snapshot.py), made by the engine with a C call (`shared`).
cimport cython

@cython.freelist(16)  # a View makes two and frees them with it: reused, not allocated anew (a round's Views)
cdef class Prefix:
    cdef readonly list _items
    cdef readonly Py_ssize_t _length

@cython.locals(prefix=Prefix)
cpdef Prefix shared(list items, Py_ssize_t length)
