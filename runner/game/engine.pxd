# Round as a compiled class on the typed state of runner/game/state.pxd; the fast path's steps as C calls.
cimport cython

from runner.game.compiled cimport Game as CompiledGame  # as: the module keeps its Python name Game
from runner.game.general cimport General
from runner.game.state cimport _slot

cdef Py_ssize_t PLAY_CARD, PLAY_SUIT, PLAY_ANNOUNCE, CARD_SUIT, CARD_ORDINAL, CARD_TEXT
cdef object PLAY_RECORD, DRAW_RECORD, NAME_SUIT_RECORD, CHALLENGE_RECORD, PASS_RECORD, SKIP_RECORD
cdef str NAME_SUIT_EVENT, CHALLENGE_EVENT, PASS_EVENT

cdef inline object _field(obj, Py_ssize_t offset)
cdef Py_ssize_t _ordinal(card) except -1
cdef list _texts(cards)


@cython.locals(i=Py_ssize_t, j=Py_ssize_t, n=Py_ssize_t, k=int)
cpdef shuffle(rng, list cards)


cdef class Round(General):
    @cython.locals(hand=list, left=int, actions=list, rules=CompiledGame, table=tuple, found=tuple, drawn=object)
    cpdef tuple _compute_legal(self)
    @cython.locals(rules=CompiledGame, players=int, cards=list, upcards=list, order=list, size=int, k=int,
                   lead=int)
    cpdef _deal(self, ruleset, int n_seats, int dealer, list active, direction, deck, int number, totals,
                rounds_won, log, bint deciding)
    cpdef tuple legal(self)
    cpdef view(self, seat=*, move_time=*, time_bank=*)
    cpdef list in_play(self)
    cpdef list _clockwise_from(self, int seat)
    cpdef int _lead_seat(self) except? -1
    cpdef list _others(self, int seat)
    @cython.locals(seat=int, phase=str, got=int, rules=CompiledGame)
    cpdef apply(self, action)
    cpdef bint playable(self, card)
    cpdef announcement_due(self, int cards_left)
    cpdef tuple _playable_now(self)
    @cython.locals(playable=tuple)
    cpdef bint _can_play(self, int seat)
    cpdef int _penalty_for(self, int seat)
    @cython.locals(hand=list, rules=CompiledGame, left=int, missed=bint, at=Py_ssize_t)
    cpdef _play(self, int seat, action)
    @cython.locals(rules=CompiledGame, nxt=int)
    cpdef _powers(self, int seat, card)
    cpdef int _step(self, int seat) except? -1
    cpdef _end_turn(self, int seat, int gained)
    cpdef _next_turn(self, int seat, int nxt)
    @cython.locals(stock=list, hand=list, taken=list, total=int)
    cpdef int _draw(self, int seat, int count, str reason) except? -1
    cpdef _record_draw(self, int seat, list cards, str reason)
    cpdef _finish(self, winner, str reason)
