# Cython's declarations for reactions.py, read only by the compiled build (native.py); Python
# ignores this file. Its functions take the game typed as a GameState (state.pxd): those below
# are C functions (the others are typed by `@cython.locals`).
from smashup.engine.protections cimport ability_active, base_active, cancelled_cards
from smashup.engine.core cimport Event, MinionState
from smashup.engine.registry cimport Trigger, _Declares
from smashup.engine.state cimport BaseSlot, GameState

cpdef _reactions_to(GameState game, event)
cpdef _index_triggers(GameState game)
cpdef reaction_ctx(GameState game, cid, trig, event)
cpdef _batch_work(GameState game, batch)
cpdef _top_level_reactions(GameState game)
cpdef _still_reacts(GameState game, cid, trig, event)
