# The line encoder's loops in C: its helpers as C functions on typed lists and dicts (runner/logs/lines.py).
cimport cython

cdef dict _strings
cdef dict _keys
cdef dict _later_keys
cdef dict _ints
cdef list _rules
cdef object _NOTHING

cdef str _string(str text)
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
@cython.locals(parts=list, start=Py_ssize_t)
cpdef str encode(object events, object fallback)
