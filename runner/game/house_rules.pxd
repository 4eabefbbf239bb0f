# The general path's methods as part of the compiled Round (runner/game/round_state.pxd holds the fields).
from runner.game.round_state cimport RoundState


cdef class General(RoundState):
    pass
