# Round as a compiled class on the typed state of runner/game/round_state.pxd; the fast path's steps as C calls.
cimport cython

from runner.game.tables cimport Game as Tables  # as: the module keeps its Python name Game
from runner.game.house_rules cimport General
from runner.game.round_state cimport _slot

cdef Py_ssize_t PLAY_CARD, PLAY_SUIT, PLAY_ANNOUNCE, CARD_SUIT, CARD_ORDINAL, CARD_TEXT
cdef object PLAY_RECORD

cdef inline object _field(obj, Py_ssize_t offset)
cdef Py_ssize_t _ordinal(card) except -1
cdef list _texts(cards)


cdef class Round(General):
    @cython.locals(hand=list, left=int, actions=list, rules=Tables, table=tuple, found=tuple, drawn=object)
    cpdef tuple _compute_legal(self)
    @cython.locals(rules=Tables, players=int, cards=list, upcards=list, order=list, size=int, k=int,
                   lead=int)
    cpdef _deal(self, ruleset, int n_seats, int dealer, list active, direction, deck, int number, totals,
                rounds_won, log, bint deciding)
    cpdef tuple legal(self)
    cpdef view(self, seat=*, move_time=*, time_bank=*)
    @cython.locals(seat=int, phase=object, got=int, rules=Tables)
    cpdef apply(self, action)
    cpdef bint playable(self, card)
    cpdef announcement_due(self, int cards_left)
    cpdef tuple _playable_now(self)
    @cython.locals(playable=tuple)
    cpdef bint _can_play(self, int seat)
    @cython.locals(hand=list, rules=Tables, left=int, missed=bint, at=Py_ssize_t)
    cpdef _play(self, int seat, action)
    @cython.locals(rules=Tables, nxt=int)
    cpdef _powers(self, int seat, card)
    cpdef _end_turn(self, int seat, int gained)
    cpdef _next_turn(self, int seat, int nxt)
