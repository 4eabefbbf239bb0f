# The rule tables as C struct members for the accelerator (runner/accel.py), so that the
# engine's look-ups (runner/game/engine.py, house_rules.py) reach each table without an attribute search.

cimport cython

cdef dict SUIT_PLACE, DUE_PLACE  # typed: their look-ups are dict calls, not a search for the method `get`
cdef Py_ssize_t PLACES


cdef class Game:
    cdef public object ruleset, players
    cdef public tuple deck_cards
    cdef public dict power, draw, chain_limit, skip, others_draw, points
    cdef public frozenset stack, reverse, wild, wild_on_wild, again, skip_others, action
    cdef public bint stuck_only, play_drawn, challenge, last_card_draws
    cdef public object mau_penalty, maumau_penalty
    cdef public int turn_limit, initial_direction, first_player
    cdef public bint upcard_to_dealer, flip_while_action
    cdef public tuple due_after
    cdef public dict tables_by_top, _decks, _hand_sizes
    cdef public object _last_top, _last_suit, _last_due  # plays_on's memo of its last answer
    cdef public tuple _last_table
    cdef public bint general, plain_scoring
    # the general path's tables
    cdef public dict suit_of, wish, wish_ranks, wish_binds, self_draw, next_rank, swap_hands, give, take
    cdef public frozenset free, wild_follows_suit, wild_last_resort, pass_hands, show_next, keeps_turn
    cdef public frozenset target_previous, stack_match, suit_with, out_forbidden, last_only
    cdef public dict stack_with, cancels, returns, skip_stack, skip_with, false_penalty
    cdef public bint answers_penalty, power_each, multiple, going_out_rules, false_calls, upcard_acts
    cdef public object same_rank, runs, run_min, chain, chain_max, out_only, out_follow_suit, drawn_card
    cdef public object until_playable, draw_max, reshuffle, play_on, hand_limit, jump_in, dealer_names_suit

    cpdef bint playable(self, card, top, suit)
    @cython.locals(at=Py_ssize_t, due_at=Py_ssize_t, tables=list, found=tuple)
    cpdef tuple plays_on(self, due, top, suit)
    cpdef tuple deck_for(self, int players)
    cpdef int hand_size_for(self, int players)
