# The typed layout of a Round's state for the compiled accelerator (runner/accel.py): every name of
# RoundState.__slots__ in runner/game/round_state.py, as a C struct member; the ints and flags as C values.
cimport cython

from runner.game.tables cimport Game
from runner.game.snapshot cimport shared

cdef extern from "structmember.h":  # T_OBJECT_EX, the member type of a __slots__ field
    pass

cdef extern from *:
    """
    /* tuple.__new__(cls, fields) for a tuple subclass (a NamedTuple: View, Event), as tuple's own constructor makes
       it (a new instance, the fields copied into it), called through its type slot: without the look-up of
       `tuple.__new__` and the checks of its wrapper, which a subclass of tuple passes. */
    static PyObject *maumau_tuple_new(PyObject *cls, PyObject *fields) {
        PyObject *args = PyTuple_Pack(1, fields), *made;
        newfunc make = (newfunc)PyType_GetSlot(&PyTuple_Type, Py_tp_new);
        if (args == NULL)
            return NULL;
        made = make((PyTypeObject *)cls, args, NULL);
        Py_DECREF(args);
        return made;
    }

    /* The offset of a __slots__ field in its class's instances, from the field's member descriptor (-1 and a
       TypeError for anything else): what maumau_slot reads. */
    static CYTHON_UNUSED Py_ssize_t maumau_slot_offset(PyObject *descr) {
        if (Py_TYPE(descr) != &PyMemberDescr_Type || ((PyMemberDescrObject *)descr)->d_member->type != T_OBJECT_EX) {
            PyErr_SetString(PyExc_TypeError, "not the member descriptor of a __slots__ field");
            return -1;
        }
        return ((PyMemberDescrObject *)descr)->d_member->offset;
    }

    /* The value of the __slots__ field at `offset` (maumau_slot_offset) of `obj`, an instance of the field's class
       (the caller checks its type): read as a struct member is, without the look-up of the attribute by name. */
    static CYTHON_INLINE PyObject *maumau_slot(PyObject *obj, Py_ssize_t offset) {
        PyObject *value = *(PyObject **)((char *)obj + offset);
        if (value == NULL) {
            PyErr_SetString(PyExc_AttributeError, "a __slots__ field is not set");
            return NULL;
        }
        Py_INCREF(value);
        return value;
    }
    """
    object _tuple_new "maumau_tuple_new"(object cls, tuple fields)
    Py_ssize_t _slot_offset "maumau_slot_offset"(object descr) except -1
    object _slot "maumau_slot"(object obj, Py_ssize_t offset)

cdef bint COMPILED

cpdef view_of(seat, hand, top, suit, phase, pending, direction, hand_sizes, stock_size, discard, totals, rounds_won,
              round, active, ruleset, history, legal, again=*, chain=*, missed=*, turns=*, idle=*, out=*, wish=*,
              wish_left=*, pending_skip=*, free=*, next_rank=*, waits=*, shown=*, out_order=*, pending_card=*,
              pending_from=*, skip_card=*, deferred=*, resume=*, move_time=*, time_bank=*)
cdef _instance(cls, tuple fields)


cdef class RoundState:
    cdef public Game rules
    cdef public object rng
    cdef public int n_seats
    cdef public list active, hands, stock, discard
    cdef public object suit
    cdef public int current
    cdef public object phase  # a Phase (runner/game/phases.py): a str subclass, which a `str` field refuses
    cdef public int pending, chain, direction
    cdef public bint again
    cdef public object drawn, missed
    cdef public int idle, turns
    cdef public object winner
    cdef public int dealer, number
    cdef public object totals, rounds_won
    cdef public list history
    cdef public object log, _legal, out, _after, _seated
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
    @cython.locals(rules=Game, hands=list, discard=list, events=list)
    cdef _view(self, int seat, tuple legal, move_time, time_bank)
    cdef _seen(self, list items)
    @cython.locals(seated=tuple)
    cdef tuple _active_seen(self)
