# Cython's declarations for playing.py, read only by the compiled build (native.py); Python
# ignores this file. Its functions take the game typed as a GameState (state.pxd): those below,
# asked for every main decision, are C functions (the others are typed by `@cython.locals`).
from smashup.engine.options cimport _mark_alike
from smashup.engine.powers cimport power as power_of
from smashup.engine.protections cimport ability_active, affects, base_active, card_ctx
from smashup.engine.registry cimport CardDef
from smashup.engine.state cimport GameState

cpdef attach_hosts(GameState game, seat, cid)
cpdef has_attach_host(GameState game, seat, cid)
cpdef talents_usable(GameState game, seat)
