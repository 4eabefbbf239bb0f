# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""A match's random generators in C, state for state CPython's: `seeded(text)`, `seeded_by_sha256(text)` and
`shuffle(rng, cards)`.

`seeded(text)` is the generator `random.Random(text)` makes, for less. A match makes five
generators from strings (the deal's and each bot's, runner/table/match.py); `seeded_by_sha256(text)`
is `seeded` of the text's SHA-256 in hex (a bot's, derived one-way from the match seed), in one call.
`random.Random(text)` runs `Random.seed` in Python (the text and its SHA-512 as one big int),
then CPython's init_by_array (Modules/_randommodule.c) on that int's 32-bit words. Here the words
are read from the bytes themselves, init_by_array starts from its fixed first stage
(init_genrand(19650218), the same for every seed: computed once) and writes the state into a
new, unseeded `random.Random` in place. The object's layout is checked at import against
`random.Random` itself: where a seeded generator's state differs, or a shuffle's, importing this
module fails and its importers use `random.Random` (runner/table/match.py, runner/game/engine.py).

`shuffle(rng, cards)` is `rng.shuffle(cards)` (random.shuffle's Fisher-Yates, `_randbelow` by
`getrandbits`) on the generator's state in place: the same permutation and the same state after,
without a Python call per card (the engine's deal and reshuffles).
"""

import hashlib
import random

from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_GET_SIZE
from cpython.mem cimport PyMem_Free, PyMem_Malloc
from cpython.list cimport PyList_GET_SIZE
from cpython.object cimport PyObject
from libc.stdint cimport uint32_t
from libc.string cimport memcpy

try:  # the SHA-512 that Random.seed uses (Lib/random.py), and CPython's own SHA-256 (a third cheaper than OpenSSL's)
    from _sha2 import sha256, sha512  # Python 3.12 and later
except ImportError:
    try:
        from _sha256 import sha256
        from _sha512 import sha512
    except ImportError:
        from hashlib import sha256, sha512

cdef enum:
    N = 624
    M = 397
    KEY_ON_STACK = 64  # words: a text of up to 192 bytes; a longer one takes its key from the heap


cdef extern from *:
    """
    /* init_by_array's loops, unrolled: a fifth fewer instructions per generator (a match seeds five) */
    #pragma GCC optimize("unroll-loops")

    /* CPython's random.Random object (Modules/_randommodule.c): the head, then the index, then the state. */
    typedef struct { PyObject_HEAD int index; uint32_t state[624]; } maumau_seeded_random;

    /* The items of a list, swapped in place (no reference changes hands). */
    static PyObject** maumau_list_items(PyObject* list) { return ((PyListObject*)list)->ob_item; }

    /* An object of `type` from its tp_new with no arguments: for random.Random, unseeded (CPython seeds in
       Random.__init__), without the call through the __new__ attribute. */
    static PyObject* maumau_new_object(PyObject* type, PyObject* no_arguments) {
        return ((PyTypeObject*)type)->tp_new((PyTypeObject*)type, no_arguments, NULL);
    }
    """
    ctypedef struct maumau_seeded_random:
        int index
        uint32_t state[624]
    object maumau_new_object(object type, object no_arguments)
    PyObject** maumau_list_items(object list)


cdef uint32_t first_stage[N]  # init_genrand(19650218): where init_by_array starts, whatever the key


cdef void init_first_stage() noexcept:
    cdef int i
    first_stage[0] = 19650218U
    for i in range(1, N):
        first_stage[i] = 1812433253U * (first_stage[i - 1] ^ (first_stage[i - 1] >> 30)) + <uint32_t>i


cdef void init_by_array(uint32_t* s, const uint32_t* key, Py_ssize_t length) noexcept nogil:
    """init_by_array of Modules/_randommodule.c, from the first stage computed once: the same steps, in runs
    where neither the state's nor the key's index wraps, each step's input kept from the step before."""
    cdef Py_ssize_t i = 1, j = 0, k, run, end
    cdef uint32_t previous
    memcpy(s, first_stage, sizeof(first_stage))
    previous = s[0]
    k = N if N > length else length
    while k:
        run = min(k, N - i, length - j)
        end = i + run
        while i < end:
            previous = (s[i] ^ ((previous ^ (previous >> 30)) * 1664525U)) + key[j] + <uint32_t>j
            s[i] = previous
            i += 1
            j += 1
        k -= run
        if i >= N:
            s[0] = previous
            i = 1
        if j >= length:
            j = 0
    k = N - 1
    while k:
        run = min(k, N - i)
        end = i + run
        while i < end:
            previous = (s[i] ^ ((previous ^ (previous >> 30)) * 1566083941U)) - <uint32_t>i
            s[i] = previous
            i += 1
        k -= run
        if i >= N:
            s[0] = previous
            i = 1
    s[0] = 0x80000000U


cdef uint32_t genrand(maumau_seeded_random* mt) noexcept nogil:
    """genrand_uint32 of Modules/_randommodule.c: the next 32 bits, the state twisted every N."""
    cdef uint32_t y
    cdef int kk
    cdef uint32_t* s = mt.state
    if mt.index >= N:
        for kk in range(N - M):
            y = (s[kk] & 0x80000000U) | (s[kk + 1] & 0x7fffffffU)
            s[kk] = s[kk + M] ^ (y >> 1) ^ (0x9908b0dfU if y & 1U else 0U)
        for kk in range(N - M, N - 1):
            y = (s[kk] & 0x80000000U) | (s[kk + 1] & 0x7fffffffU)
            s[kk] = s[kk + (M - N)] ^ (y >> 1) ^ (0x9908b0dfU if y & 1U else 0U)
        y = (s[N - 1] & 0x80000000U) | (s[0] & 0x7fffffffU)
        s[N - 1] = s[M - 1] ^ (y >> 1) ^ (0x9908b0dfU if y & 1U else 0U)
        mt.index = 0
    y = s[mt.index]
    mt.index += 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9d2c5680U
    y ^= (y << 15) & 0xefc60000U
    y ^= y >> 18
    return y


def shuffle(rng, list cards):
    """`rng.shuffle(cards)` for a random.Random `rng` (a subclass may draw otherwise: the caller checks the type)."""
    cdef Py_ssize_t count = PyList_GET_SIZE(cards)
    if count > 0xffffffff:
        rng.shuffle(cards)  # _randbelow past 32 bits: not replicated here
        return
    cdef maumau_seeded_random* mt = <maumau_seeded_random*><PyObject*>rng
    cdef PyObject** items = maumau_list_items(cards)
    cdef PyObject* item
    cdef Py_ssize_t i
    cdef uint32_t n, j
    cdef int k = 32
    while count > 1 and not (<uint32_t>count >> (k - 1)):
        k -= 1  # the bit length of the first n, `count`
    for i in range(count - 1, 0, -1):
        n = <uint32_t>(i + 1)
        if not (n >> (k - 1)):
            k -= 1  # k stays n's bit length: n falls by one a step
        j = genrand(mt) >> (32 - k)
        while j >= n:
            j = genrand(mt) >> (32 - k)
        item = items[i]
        items[i] = items[j]
        items[j] = item


cdef Py_ssize_t words_of(const unsigned char* data, Py_ssize_t size, uint32_t* key) noexcept nogil:
    """The 32-bit words of the big-endian number `data`, least significant first, as many as its bits need
    (at least one): the key `Random.seed` gives init_by_array (the int of `int.from_bytes(data)`)."""
    cdef Py_ssize_t w = 0, end = size, begin
    cdef uint32_t word
    while end > 0:
        begin = end - 4 if end >= 4 else 0
        word = 0
        while begin < end:
            word = (word << 8) | data[begin]
            begin += 1
        key[w] = word
        w += 1
        end -= 4
    while w > 1 and key[w - 1] == 0:  # leading zero bytes do not count
        w -= 1
    if w == 0:
        key[0] = 0
        w = 1
    return w


cdef object Random = random.Random
cdef object hash_of = sha512
cdef object hash_for_seed = sha256


def seeded(str text):
    """The generator `random.Random(text)` makes: the same state, for less."""
    return seeded_from(text.encode())


def seeded_by_sha256(str text):
    """The generator `random.Random(hashlib.sha256(text.encode()).hexdigest())` makes, in one call: the same state."""
    return seeded_from(hash_for_seed(text.encode()).hexdigest().encode())


cdef object seeded_from(bytes encoded):
    """`seeded` of the text whose UTF-8 is `encoded`."""
    cdef bytes data = encoded + hash_of(encoded).digest()
    cdef Py_ssize_t size = PyBytes_GET_SIZE(data)
    cdef uint32_t stack_key[KEY_ON_STACK]
    cdef uint32_t* key = stack_key
    cdef Py_ssize_t length
    if (size + 3) // 4 > KEY_ON_STACK:
        key = <uint32_t*>PyMem_Malloc(((size + 3) // 4) * sizeof(uint32_t))
        if key == NULL:
            raise MemoryError()
    rng = maumau_new_object(Random, ())
    cdef maumau_seeded_random* raw = <maumau_seeded_random*><PyObject*>rng
    length = words_of(<const unsigned char*>PyBytes_AS_STRING(data), size, key)
    init_by_array(raw.state, key, length)
    raw.index = N
    if key != stack_key:
        PyMem_Free(key)
    rng.gauss_next = None  # as Random.seed leaves it
    return rng


cdef bint _agrees():
    """Whether generators made here are random.Random's, state and draws, and shuffles its shuffles (the object's
    layout checks out)."""
    for text in ("maumau", "", "\x00\x00seed", "7:deal", "x" * 700):
        made, expected = seeded(text), random.Random(text)
        if made.getstate() != expected.getstate() or made.random() != expected.random():
            return False
        by_sha256 = seeded_by_sha256(text)
        if by_sha256.getstate() != random.Random(hashlib.sha256(text.encode()).hexdigest()).getstate():
            return False
        for size in (0, 1, 2, 3, 52, 700):  # 700: past a twist of the state
            cards, expected_cards = list(range(size)), list(range(size))
            shuffle(made, cards)
            expected.shuffle(expected_cards)
            if cards != expected_cards or made.getstate() != expected.getstate():
                return False
    return True


init_first_stage()
if not _agrees():
    raise ImportError("runner.game._generator: random.Random's layout is not the one expected; random.Random is used")
