# Cython's declarations for specials.py, read only by the compiled build (native.py); Python
# ignores this file. Its functions take the game typed as a GameState (state.pxd): those below,
# asked at every window and batch, are C functions (the others are typed by `@cython.locals`).
from smashup.engine.options cimport _alike_key, alike_key
from smashup.engine.restrictions cimport forbids, may_restrict
from smashup.engine.protections cimport ability_active
from smashup.engine.registry cimport _Declares
from smashup.engine.state cimport GameState

cpdef _window_possible(GameState game, window)
cpdef _index_specials(GameState game)
cpdef _special_play_forbidden(GameState game, seat, cid, wctx)
cpdef _usable_specials(GameState game, seat, window, wctx, zone=*)
