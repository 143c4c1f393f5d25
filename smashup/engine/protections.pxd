# Cython's declarations for protections.py, read only by the compiled build (native.py); Python
# ignores this file. Its functions take the game typed as a GameState (state.pxd): the hot reads
# below are C functions the other rule modules cimport and call directly; the others are typed
# by `@cython.locals`.
from smashup.engine.registry cimport CardDef, Protection, _Declares
from smashup.engine.state cimport BaseSlot
from smashup.engine.state cimport GameState

cpdef base_active(GameState game, slot)
cpdef ability_active(GameState game, cid, fresh=*)
cpdef cancelled_cards(GameState game)
cpdef _cancelled_now(GameState game)
cpdef card_ctx(GameState game, cid, seat=*)
cpdef affects(GameState game, source, source_player, target, kind=*)
cpdef _working_protections(GameState game)
