# The line encoder's loops in C: its helpers as C functions on typed lists and dicts (runner/logs/lines.py).
cimport cython

cdef dict _strings
cdef dict _keys
cdef dict _later_keys
cdef dict _later_strings
cdef dict _lines
cdef dict _record_lines
cdef Py_ssize_t _LINE_LENGTH
cdef Py_ssize_t _HASH_MASK
cdef dict _ints
cdef list _rules
cdef object _NOTHING

cdef str _string(str text)
cdef str _later_string(str text)
cdef str _key(str key, dict memo, str before)
@cython.locals(encoded=object)
cdef _value(object value, list parts)
cdef str _float(object number)
@cython.locals(first=bint)
cdef _array(object items, list parts)
@cython.locals(first=bint)
cdef _object(dict mapping, list parts, object shared)
@cython.locals(encoded=list)
cdef _event(dict event, list parts)
@cython.locals(mixed=Py_ssize_t, kind=object)
cdef Py_ssize_t _flat_hash(dict event)
@cython.locals(items=list)
cdef tuple _items(dict event)
@cython.locals(at=Py_ssize_t, index=Py_ssize_t, kept=object)
cdef bint _same(dict event, tuple items)
@cython.locals(start=Py_ssize_t)
cdef _fresh(dict event, list parts, object fallback)
@cython.locals(mixed=Py_ssize_t, entry=tuple, start=Py_ssize_t, line=str)
cdef _entry(object event, list parts, object fallback)
cdef tuple _record_key(tuple record)
@cython.locals(key=tuple, line=object, start=Py_ssize_t)
cdef _record(tuple record, list parts, object fallback)
@cython.locals(parts=list)
cpdef str encode(object events, object fallback)
