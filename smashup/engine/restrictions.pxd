# Cython's declarations for restrictions.py, read only by the compiled build (native.py); Python
# ignores this file. C functions the other modules cimport (plays, specials).
from smashup.engine.protections cimport ability_active, card_ctx
from smashup.engine.state cimport GameState

cpdef may_restrict(GameState game)
cpdef forbids(GameState game, play)
cpdef play_forbidden(GameState game, seat, cid, uid=*, kind=*)
