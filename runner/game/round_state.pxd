# The typed layout of a Round's state for the compiled accelerator (runner/accel.py): every name of
# RoundState.__slots__ in runner/game/round_state.py, as a C struct member; the ints and flags as C values.
cimport cython

from runner.game.tables cimport Game
from runner.game.snapshot cimport shared

cdef extern from "structmember.h":  # T_OBJECT_EX, the member type of a __slots__ field
    pass

cdef extern from *:
    """
    /* A new instance of `cls`, a tuple subclass (a NamedTuple: View, Event), with room for n items, all NULL: the
       type's alloc slot (PyType_GenericAlloc), as tuple's own constructor allocates an instance of a subclass
       (tuple_subtype_new in CPython's Objects/tupleobject.c), without the tuple of arguments a call of the constructor
       takes. The callers set every item with PyTuple_SET_ITEM (public API for filling a new tuple) before the object
       is seen by anything. It comes back tracked by the GC: nothing between the allocation and the last item set
       allocates or runs Python code, so no collection can run while it is half filled (and one would be safe: tuple's
       traverse visits its items with Py_VISIT, which skips NULL). */
    static CYTHON_INLINE PyObject *maumau_alloc(PyObject *cls, Py_ssize_t n) {
        allocfunc alloc = (allocfunc)PyType_GetSlot((PyTypeObject *)cls, Py_tp_alloc);
        return alloc((PyTypeObject *)cls, n);
    }

    /* tuple.__new__(cls, fields): the instance of `cls` holding the items of `fields` (maumau_alloc). */
    static CYTHON_UNUSED PyObject *maumau_tuple_new(PyObject *cls, PyObject *fields) {
        Py_ssize_t n = PyTuple_GET_SIZE(fields), i;
        PyObject *made = maumau_alloc(cls, n), *item;
        if (made == NULL)
            return NULL;
        for (i = 0; i < n; i++) {
            item = PyTuple_GET_ITEM(fields, i);
            Py_INCREF(item);
            PyTuple_SET_ITEM(made, i, item);
        }
        return made;
    }

    /* The View (`cls`) of its 38 fields in order, filled from the arguments (maumau_alloc): no tuple of them made and
       freed per View. A View with another number of fields does not compile against it (`view_of`). */
    static CYTHON_UNUSED PyObject *maumau_view_new(PyObject *cls,
        PyObject *f0, PyObject *f1, PyObject *f2, PyObject *f3, PyObject *f4, PyObject *f5, PyObject *f6,
        PyObject *f7, PyObject *f8, PyObject *f9, PyObject *f10, PyObject *f11, PyObject *f12, PyObject *f13,
        PyObject *f14, PyObject *f15, PyObject *f16, PyObject *f17, PyObject *f18, PyObject *f19, PyObject *f20,
        PyObject *f21, PyObject *f22, PyObject *f23, PyObject *f24, PyObject *f25, PyObject *f26, PyObject *f27,
        PyObject *f28, PyObject *f29, PyObject *f30, PyObject *f31, PyObject *f32, PyObject *f33, PyObject *f34,
        PyObject *f35, PyObject *f36, PyObject *f37) {
        PyObject *fields[38] = {
            f0, f1, f2, f3, f4, f5, f6, f7, f8, f9,
            f10, f11, f12, f13, f14, f15, f16, f17, f18, f19,
            f20, f21, f22, f23, f24, f25, f26, f27, f28, f29,
            f30, f31, f32, f33, f34, f35, f36, f37};
        PyObject *made = maumau_alloc(cls, 38);
        Py_ssize_t i;
        if (made == NULL)
            return NULL;
        for (i = 0; i < 38; i++) {
            Py_INCREF(fields[i]);
            PyTuple_SET_ITEM(made, i, fields[i]);
        }
        return made;
    }

    /* tuple([len(hand) for hand in hands]) (`_sizes`): the tuple filled directly, without the list a comprehension
       builds, grows and frees. A hand is a list; anything else is measured by len(). */
    static CYTHON_UNUSED PyObject *maumau_sizes(PyObject *hands) {
        Py_ssize_t n = PyList_GET_SIZE(hands), i, length;
        PyObject *sizes = PyTuple_New(n), *hand, *size;
        if (sizes == NULL)
            return NULL;
        for (i = 0; i < n; i++) {
            hand = PyList_GET_ITEM(hands, i);
            length = PyList_CheckExact(hand) ? PyList_GET_SIZE(hand) : PyObject_Length(hand);
            size = length < 0 ? NULL : PyLong_FromSsize_t(length);
            if (size == NULL) {
                Py_DECREF(sizes);
                return NULL;
            }
            PyTuple_SET_ITEM(sizes, i, size);
        }
        return sizes;
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
    tuple _sizes_of "maumau_sizes"(list hands)
    object _view_new "maumau_view_new"(object cls,
        object, object, object, object, object, object, object, object, object, object,
        object, object, object, object, object, object, object, object, object, object,
        object, object, object, object, object, object, object, object, object, object,
        object, object, object, object, object, object, object, object)
    Py_ssize_t _slot_offset "maumau_slot_offset"(object descr) except -1
    object _slot "maumau_slot"(object obj, Py_ssize_t offset)

cdef bint COMPILED

cpdef view_of(seat, hand, top, suit, phase, pending, direction, hand_sizes, stock_size, discard, totals, rounds_won,
              round, active, ruleset, history, legal, again=*, chain=*, missed=*, turns=*, idle=*, out=*, wish=*,
              wish_left=*, pending_skip=*, free=*, next_rank=*, waits=*, shown=*, out_order=*, pending_card=*,
              pending_from=*, skip_card=*, deferred=*, resume=*, move_time=*, time_bank=*)
cdef _instance(cls, tuple fields)
cdef tuple _sizes(list hands)


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
