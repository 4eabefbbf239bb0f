# The typed layout of a Round's state for the compiled accelerator (runner/accel.py): every name of
# RoundState.__slots__ in runner/game/state.py, as a C struct member; the ints and flags as C values.
from runner.game.compiled cimport Game
from runner.game.prefix cimport shared

cdef extern from *:
    """
    /* tuple.__new__(cls, fields) for a tuple subclass that adds no storage of its own (a NamedTuple: View,
       Event): a tuple of fields just built, held by nobody but its maker, becomes the instance itself, its
       type changed (what tuple.__new__ would make of it, without the copy); any other tuple is copied by
       tuple.__new__. */
    static CYTHON_INLINE PyObject *maumau_tuple_as(PyObject *cls, PyObject *fields) {
    #ifndef Py_GIL_DISABLED
        PyTypeObject *type = (PyTypeObject *)cls;
        if (Py_REFCNT(fields) == 1 && PyTuple_CheckExact(fields) && Py_SIZE(fields) > 0 && PyType_Check(cls)
                && PyType_HasFeature(type, Py_TPFLAGS_HEAPTYPE) && type->tp_base == &PyTuple_Type
                && type->tp_basicsize == PyTuple_Type.tp_basicsize
                && type->tp_itemsize == PyTuple_Type.tp_itemsize
                && type->tp_dictoffset == 0 && type->tp_weaklistoffset == 0) {
            Py_INCREF(cls);  /* an instance of a heap type holds its type: subtype_dealloc lets it go */
            Py_SET_TYPE(fields, type);
            Py_INCREF(fields);
            return fields;
        }
    #endif
        return PyObject_CallMethod((PyObject *)&PyTuple_Type, "__new__", "OO", cls, fields);
    }
    """
    object _tuple_as "maumau_tuple_as"(object cls, object fields)

cdef bint COMPILED


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

    cdef _made(self, cls, tuple fields)
    cdef _seen(self, list items)
