# Cython's declarations for options.py, read only by the compiled build (native.py); Python
# ignores this file. Its functions take the game typed as a GameState (state.pxd): C functions,
# asked for every question (the main decision's plays, alike copies), that the other rule
# modules cimport.
from smashup.engine.core cimport MinionState, Option, Play
from smashup.engine.powers cimport power as power_of
from smashup.engine.protections cimport ability_active, cancelled_cards
from smashup.engine.registry cimport _Declares
from smashup.engine.state cimport GameState

cpdef alike_key(GameState game, cid)
cpdef describe_minion(GameState game, m, besides=*)
cpdef describe_action(GameState game, a)
cpdef _alike_key(GameState game, cid)
cpdef _mark_alike(GameState game, options)
cpdef _mark_alike_in_hand(GameState game, options, seat)
cpdef _play_row(GameState game, seat, cid, kind, sig, onto=*)
cpdef _play_option(GameState game, play, base_card, way=*)
