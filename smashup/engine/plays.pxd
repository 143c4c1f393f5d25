# Cython's declarations for plays.py, read only by the compiled build (native.py); Python ignores
# this file. PlayFinder compiled is an extension type whose attributes are C fields, read without a
# dictionary lookup in its hot methods (plays, match). They must be exactly its __slots__
# (tests/engine/test_native.py checks): an attribute missing here would be refused when compiled.
# Its game is a Game (game.pxd): the game's fields are read and its cpdef methods called directly,
# which is why game.py imports this module only once Game exists.
from smashup.engine.game cimport Game

cdef class PlayFinder:
    cdef public Game game
    cdef public object seat, kinds, cards, explicit, sources, spent, used_turn, unused
    cdef public object zone_free, cacheable, by_card, outright, hand_outright, grant_kinds
    cdef public object discard_too, _known, by_base, _matched
