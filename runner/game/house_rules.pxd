# The general path's methods as part of the compiled Round, on the steps both paths take (runner/game/steps.pxd).
from runner.game.steps cimport Steps


cdef class General(Steps):
    pass
