# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""A match's random generators in C, state for state CPython's: `seeded(text)`, `seeded_by_sha256(text)`,
`seeded_together(texts, texts_by_sha256)` and `shuffle(rng, cards)`.

`seeded(text)` is the generator `random.Random(text)` makes, for less. A match makes five
generators from strings (the deal's and each bot's, runner/table/match.py); `seeded_by_sha256(text)`
is `seeded` of the text's SHA-256 in hex (a bot's, derived one-way from the match seed), in one call;
`seeded_together` makes a match's generators side by side, each one's seeding a chain of dependent
steps that the others' fill the waits of.
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
    LANES = 8  # generators seeded side by side at most (maumau_init_lanes)
    DIGEST = 64  # bytes of the SHA-512 that Random.seed appends to a text's


cdef extern from *:
    """
    /* init_by_array's loops, unrolled: a fifth fewer instructions per generator (a match seeds five) */
    #pragma GCC optimize("unroll-loops")

    /* CPython's random.Random object (Modules/_randommodule.c): the head, then the index, then the state. */
    typedef struct { PyObject_HEAD int index; uint32_t state[624]; } maumau_seeded_random;

    /* The items of a list, swapped in place (no reference changes hands). */
    static PyObject** maumau_list_items(PyObject* list) { return ((PyListObject*)list)->ob_item; }

    /* init_by_array (below) of several generators at once, in lanes, each lane's steps interleaved with the
       others': a seeding is one chain of about 1,250 steps, each waiting on the multiply of the step before, so one
       generator keeps the processor waiting, and the chains of a match's five (the deal's and each seat's) run side
       by side in about the time of two. `states`: each lane's state, written in place. `keyed`: each lane's term
       of each step of the first loop, keyed[g][t] = key[j] + j with the key's index j running round it as in
       init_by_array, which needs every key at most 624 words long (then the state's index i runs the same in
       every lane). `first`: the state init_genrand(19650218) leaves, where every lane starts. */
    #define MAUMAU_LANES(G)                                                                                    \
    static void maumau_lanes_##G(uint32_t *const *states, const uint32_t *const *keyed, const uint32_t *first) { \
        uint32_t *s[G], p[G];                                                                                  \
        const uint32_t *k[G];                                                                                  \
        int g, i, t;                                                                                           \
        for (g = 0; g < G; g++) {                                                                              \
            s[g] = states[g], k[g] = keyed[g], p[g] = first[0];                                                \
            memcpy(s[g], first, 624 * sizeof(uint32_t));                                                       \
        }                                                                                                      \
        i = 1;                                                                                                 \
        for (t = 0; t < 624; t++) {                                                                            \
            for (g = 0; g < G; g++)                                                                            \
                s[g][i] = p[g] = (s[g][i] ^ ((p[g] ^ (p[g] >> 30)) * 1664525U)) + k[g][t];                     \
            if (++i >= 624) { for (g = 0; g < G; g++) s[g][0] = p[g]; i = 1; }                                \
        }                                                                                                      \
        for (t = 0; t < 623; t++) {                                                                            \
            for (g = 0; g < G; g++)                                                                            \
                s[g][i] = p[g] = (s[g][i] ^ ((p[g] ^ (p[g] >> 30)) * 1566083941U)) - (uint32_t)i;              \
            if (++i >= 624) { for (g = 0; g < G; g++) s[g][0] = p[g]; i = 1; }                                \
        }                                                                                                      \
        for (g = 0; g < G; g++) s[g][0] = 0x80000000U;                                                         \
    }
    MAUMAU_LANES(1) MAUMAU_LANES(2) MAUMAU_LANES(3) MAUMAU_LANES(4)
    MAUMAU_LANES(5) MAUMAU_LANES(6) MAUMAU_LANES(7) MAUMAU_LANES(8)

    /* The lanes' seeding (1 to 8 lanes), each width with its loops unrolled over a constant count of lanes. */
    static void maumau_init_lanes(int lanes, uint32_t *const *states, const uint32_t *const *keyed,
                                  const uint32_t *first) {
        switch (lanes) {
            case 1: maumau_lanes_1(states, keyed, first); break;
            case 2: maumau_lanes_2(states, keyed, first); break;
            case 3: maumau_lanes_3(states, keyed, first); break;
            case 4: maumau_lanes_4(states, keyed, first); break;
            case 5: maumau_lanes_5(states, keyed, first); break;
            case 6: maumau_lanes_6(states, keyed, first); break;
            case 7: maumau_lanes_7(states, keyed, first); break;
            default: maumau_lanes_8(states, keyed, first); break;
        }
    }

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
    void maumau_init_lanes(int lanes, uint32_t** states, const uint32_t** keyed, const uint32_t* first) noexcept nogil
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
    cdef const unsigned char* four
    while end >= 4:  # whole words, read as one (the compiler's byte swap), not byte by byte
        four = data + end - 4
        key[w] = (<uint32_t>four[0] << 24) | (<uint32_t>four[1] << 16) | (<uint32_t>four[2] << 8) | four[3]
        w += 1
        end -= 4
    if end > 0:  # the most significant word, of the first 1 to 3 bytes
        word = 0
        for begin in range(end):
            word = (word << 8) | data[begin]
        key[w] = word
        w += 1
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


def seeded_together(list texts, list texts_by_sha256):
    """`[seeded(t) for t in texts] + [seeded_by_sha256(t) for t in texts_by_sha256]`, the same generators, seeded
    side by side (maumau_init_lanes): a match's deal and seats, in about half the time of one after the other."""
    cdef list encodeds = [text.encode() for text in texts]
    encodeds += [hash_for_seed(text.encode()).hexdigest().encode() for text in texts_by_sha256]
    cdef list made = [None] * len(encodeds)
    cdef list lane_of = []  # the index in `encodeds` of each lane's text, a group of LANES at a time
    cdef Py_ssize_t index
    for index in range(len(encodeds)):
        if key_words(PyBytes_GET_SIZE(<bytes>encodeds[index]) + DIGEST) > KEY_ON_STACK:
            made[index] = seeded_from(encodeds[index])  # a key too long for the lanes' buffer: on its own
            continue
        lane_of.append(index)
        if len(lane_of) == LANES:
            _seed_lanes(encodeds, lane_of, made)
            lane_of = []
    if lane_of:
        _seed_lanes(encodeds, lane_of, made)
    return made


cdef void _seed_lanes(list encodeds, list lane_of, list made) except *:
    """Seed, side by side, the generators of the texts `encodeds[i]` for i in `lane_of` (at most LANES, each key at
    most KEY_ON_STACK words) into `made[i]`."""
    cdef int lanes = len(lane_of), g
    cdef uint32_t key[KEY_ON_STACK]
    cdef uint32_t keyed[LANES][N]
    cdef uint32_t* states[LANES]
    cdef const uint32_t* keyed_of[LANES]
    cdef Py_ssize_t length, j, filled
    for g in range(lanes):
        encoded = <bytes>encodeds[lane_of[g]]
        data = encoded + hash_of(encoded).digest()
        length = words_of(<const unsigned char*>PyBytes_AS_STRING(data), PyBytes_GET_SIZE(data), key)
        for j in range(length):  # the first round of the key, then copies of it, doubling, to the N steps
            keyed[g][j] = key[j] + <uint32_t>j
        filled = length
        while filled < N:
            j = min(filled, N - filled)
            memcpy(&keyed[g][filled], &keyed[g][0], j * sizeof(uint32_t))
            filled += j
        rng = unseeded()
        made[lane_of[g]] = rng
        states[g] = (<maumau_seeded_random*><PyObject*>rng).state
        keyed_of[g] = keyed[g]
    maumau_init_lanes(lanes, states, keyed_of, first_stage)


cdef object seeded_from(bytes encoded):
    """`seeded` of the text whose UTF-8 is `encoded`."""
    cdef bytes data = encoded + hash_of(encoded).digest()
    cdef Py_ssize_t size = PyBytes_GET_SIZE(data)
    cdef uint32_t stack_key[KEY_ON_STACK]
    cdef uint32_t* key = stack_key
    cdef Py_ssize_t length
    if key_words(size) > KEY_ON_STACK:
        key = <uint32_t*>PyMem_Malloc(key_words(size) * sizeof(uint32_t))
        if key == NULL:
            raise MemoryError()
    rng = unseeded()
    length = words_of(<const unsigned char*>PyBytes_AS_STRING(data), size, key)
    init_by_array((<maumau_seeded_random*><PyObject*>rng).state, key, length)
    if key != stack_key:
        PyMem_Free(key)
    return rng


cdef object unseeded():
    """A new random.Random as seeding leaves it but for its state, which the caller writes: its index at the end
    (the first draw twists the state) and no Gaussian kept, as Random.seed leaves it."""
    rng = maumau_new_object(Random, ())
    (<maumau_seeded_random*><PyObject*>rng).index = N
    rng.gauss_next = None
    return rng


cdef inline Py_ssize_t key_words(Py_ssize_t size) noexcept:
    """The 32-bit words of the key of `size` bytes (words_of), at most."""
    return (size + 3) // 4


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
    texts = ["maumau", "", "\x00\x00seed", "7:deal", "x" * 700, "y" * 190, "z" * 200]
    for count in (1, 5, 8, 9, 17):  # lanes of every width, more than one group, keys too long for the lanes
        firsts, seconds = (texts * 3)[:count], (texts * 3)[1:count + 1]
        together = seeded_together(firsts, seconds)
        expected_all = [random.Random(t) for t in firsts]
        expected_all += [random.Random(hashlib.sha256(t.encode()).hexdigest()) for t in seconds]
        if [g.getstate() for g in together] != [g.getstate() for g in expected_all]:
            return False
        if [g.random() for g in together] != [g.random() for g in expected_all]:
            return False
    return True


init_first_stage()
if not _agrees():
    raise ImportError("runner.game._generator: random.Random's layout is not the one expected; random.Random is used")
