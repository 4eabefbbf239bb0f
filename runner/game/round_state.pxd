# The typed layout of a Round's state for the compiled accelerator (runner/accel.py): every name of
# RoundState.__slots__ in runner/game/round_state.py, as a C struct member; the ints and flags as C values.
cimport cython

from runner.game.tables cimport Game
from runner.game.snapshot cimport Prefix, shared

cdef extern from "structmember.h":  # T_OBJECT_EX, the member type of a __slots__ field
    pass

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

    /* The size of one hand of the round's (a list; any sized object, for a Python subclass's hands). */
    static CYTHON_INLINE Py_ssize_t maumau_hand_size(PyObject *hand) {
        return PyList_CheckExact(hand) ? PyList_GET_SIZE(hand) : PyObject_Size(hand);
    }

    /* tuple(len(hand) for hand in hands), `hands` a list (of lists): a View's hand_sizes, without a list between. */
    static PyObject *maumau_sizes(PyObject *hands) {
        Py_ssize_t n, i;
        PyObject *sizes;
        if (!PyList_Check(hands)) {
            PyErr_SetString(PyExc_TypeError, "the round's hands are not a list");
            return NULL;
        }
        n = PyList_GET_SIZE(hands);
        sizes = PyTuple_New(n);
        if (sizes == NULL)
            return NULL;
        for (i = 0; i < n; i++) {
            Py_ssize_t size = maumau_hand_size(PyList_GET_ITEM(hands, i));
            PyObject *item = size < 0 ? NULL : PyLong_FromSsize_t(size);
            if (item == NULL) {
                Py_DECREF(sizes);
                return NULL;
            }
            PyTuple_SET_ITEM(sizes, i, item);
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

    /* Whether `obj` is held by one reference alone, its caller's: a View (or a part of one) that nobody else holds
       may be refilled in place for the next decision, and nobody can tell (runner/game/engine.py `view`). Never
       under free threading, where another thread may be taking a reference as this one reads the count. */
    static CYTHON_INLINE int maumau_sole(PyObject *obj) {
    #ifndef Py_GIL_DISABLED
        return Py_REFCNT(obj) == 1;
    #else
        return 0;
    #endif
    }

    /* maumau_sole of item `at` of a tuple, read without a reference of its own (which would make it two). */
    static CYTHON_INLINE int maumau_sole_at(PyObject *tuple, Py_ssize_t at) {
        return maumau_sole(PyTuple_GET_ITEM(tuple, at));
    }

    /* Item `at` of a tuple (a View), read as an exact tuple's is: a tuple subclass's item by index is otherwise
       looked up as its method __getitem__ (a heap type's sq_item slot calls it by name). */
    static CYTHON_INLINE PyObject *maumau_item(PyObject *tuple, Py_ssize_t at) {
        PyObject *item = PyTuple_GET_ITEM(tuple, at);
        Py_INCREF(item);
        return item;
    }

    /* Item `at` of a tuple held by its caller alone (maumau_sole) set to `value`, the old item let go. A tuple the
       collector stopped tracking (all its items were plain values) is tracked again if `value` may hold others. */
    static CYTHON_INLINE int maumau_put(PyObject *tuple, Py_ssize_t at, PyObject *value) {
        PyObject *old = PyTuple_GET_ITEM(tuple, at);
        if (old != value) {
            Py_INCREF(value);
            PyTuple_SET_ITEM(tuple, at, value);
            if (PyObject_IS_GC(value) && !PyObject_GC_IsTracked(tuple))
                PyObject_GC_Track(tuple);
            Py_DECREF(old);
        }
        return 0;
    }

    /* Item `at` of a View held by its caller alone made the sizes of `hands` (maumau_sizes): the tuple there
       refilled where nobody else holds it and it has one size per hand, else a new one. */
    static CYTHON_UNUSED int maumau_sizes_at(PyObject *view, Py_ssize_t at, PyObject *hands) {
        PyObject *sizes = PyTuple_GET_ITEM(view, at), *fresh;
        Py_ssize_t n, i;
        if (!PyList_Check(hands)) {
            PyErr_SetString(PyExc_TypeError, "the round's hands are not a list");
            return -1;
        }
        n = PyList_GET_SIZE(hands);
        if (maumau_sole(sizes) && PyTuple_CheckExact(sizes) && PyTuple_GET_SIZE(sizes) == n) {
            for (i = 0; i < n; i++) {
                PyObject *item;
                Py_ssize_t size = maumau_hand_size(PyList_GET_ITEM(hands, i));
                if (size < 0)
                    return -1;
                item = PyTuple_GET_ITEM(sizes, i);
                if (PyLong_CheckExact(item) && PyLong_AsSsize_t(item) == size)
                    continue;
                item = PyLong_FromSsize_t(size);
                if (item == NULL)
                    return -1;
                Py_SETREF(((PyTupleObject *)sizes)->ob_item[i], item);
            }
            return 0;
        }
        fresh = maumau_sizes(hands);
        if (fresh == NULL)
            return -1;
        PyTuple_SET_ITEM(view, at, fresh);
        Py_DECREF(sizes);
        return 0;
    }
    """
    object _tuple_as "maumau_tuple_as"(object cls, object fields)
    Py_ssize_t _slot_offset "maumau_slot_offset"(object descr) except -1
    object _slot "maumau_slot"(object obj, Py_ssize_t offset)
    object _sizes_of "maumau_sizes"(list hands)
    bint _sole "maumau_sole"(object obj)
    bint _sole_at "maumau_sole_at"(object tuple, Py_ssize_t at)
    object _item "maumau_item"(object tuple, Py_ssize_t at)
    int _put "maumau_put"(object tuple, Py_ssize_t at, object value) except -1
    int _sizes_at "maumau_sizes_at"(object view, Py_ssize_t at, list hands) except -1

cdef bint COMPILED


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
    cdef public object _spare

    cdef _made(self, cls, tuple fields)
    cdef _seen(self, list items)
    @cython.locals(prefix=Prefix)
    cdef _reseen(self, view, Py_ssize_t at, list items)
    cdef _sizes(self)
    @cython.locals(seated=tuple)
    cdef tuple _active_seen(self)
