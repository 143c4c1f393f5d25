# Cython's declarations for plays.py, read only by the compiled build (native.py); Python ignores
# this file. PlayFinder compiled is an extension type whose attributes are C fields, read without a
# dictionary lookup in its hot methods (plays, match). They must be exactly its __slots__
# (tests/engine/test_native.py checks): an attribute missing here would be refused when compiled.
# Its game is a GameState (state.pxd): the game's fields are read and its cpdef methods called
# directly.
from smashup.engine.core cimport Grant, Option, Play
from smashup.engine.options cimport _play_option, _play_row
from smashup.engine.protections cimport ability_active, base_active
from smashup.engine.registry cimport _Declares
from smashup.engine.restrictions cimport may_restrict
from smashup.engine.state cimport BaseSlot, GameState, PlayerState

cdef class PlayFinder:
    cdef public GameState game
    cdef public object seat, kinds, cards, explicit, sources, spent, used_turn, unused
    cdef public object zone_free, cacheable, by_card, outright, hand_outright, grant_kinds
    cdef public object discard_too, _known, by_base, _matched
    # Asked for every card or play a question looks at: C calls.
    # A grant and a play typed: their fields read as C fields (about 27,000 reads in 10 games).
    cpdef fits(self, Grant grant, Play play, own=*)
    cpdef _preference(self, Grant grant, Play play)
    cpdef match(self, play)
    cpdef granted(self, play)
    cpdef _could(self, cid, kind, zone)
    # What allows plays, read by each finder made (one a main decision): C calls.
    cpdef _used_turn_keys(self)
    cpdef _turn_grants(self)
    cpdef _sources(self)

# A main decision's row of Options not made yet (`PlayFinder.plays(rows_later=True)`).
cdef class RowLater:
    cdef public object cid, kind, key, count, sig
    # The main decision's count and pick call them with the RowLater typed: C calls.
    cpdef row(self, game, seat)
    cpdef option(self, game, seat, index)

cpdef RowLater _row_later(cid, kind, key, count, sig)

# The game's questions about plays (methods of Game), C functions the other modules cimport.
cpdef legal_plays(GameState game, seat, grants=*, cards=*, kinds=*, onto=*)
cpdef use_grant(GameState game, play)
cpdef minion_targets_for_play(GameState game, seat, cid)
cpdef discard_offers(GameState game)
cpdef discard_offerers(GameState game, seat)
