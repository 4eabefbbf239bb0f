# The general path's methods as part of the compiled Round (runner/game/state.pxd holds the fields).
from runner.game.state cimport RoundState


cdef class General(RoundState):
    pass
