# Cython's declarations for effects.py, read only by the compiled build (native.py); Python ignores
# this file. _Ctx compiled is an extension type: every ability's verbs and questions read its
# fields (the game, the card, its player) as C fields, and its game is a Game (game.pxd), whose
# fields they read and whose cpdef methods they call directly (so game.py imports this module only
# once Game exists). The fields must be exactly its __slots__ (tests/engine/test_native.py
# checks). Ctx, its Python subclass, holds the verb wrappers.
from smashup.engine.game cimport Game

cdef class _Ctx:
    cdef public Game game
    cdef public object card, me, _base, applied, actor
