# Cython's declarations for game.py, read only by the compiled build (native.py); Python ignores
# this file. Game compiled is an extension type: GameState's fields (state.pxd), none of its own,
# so that its own methods (the public contract) read them as C fields. Its other methods are the
# rule modules' functions, which type their `game` as a GameState.
from smashup.engine.core cimport Decision
from smashup.engine.state cimport GameState


cdef class Game(GameState):
    pass
