# Cython's declarations for powers.py, read only by the compiled build (native.py); Python ignores
# this file. Its functions take the game typed as a GameState (state.pxd): the reads below are C
# functions the other rule modules cimport and call directly (`_count_base` too, but `power` and
# `total_power` call it through the game, where a test may count its calls).
from smashup.engine.core cimport MinionState
from smashup.engine.protections cimport ability_active, affects, base_active, cancelled_cards, card_ctx
from smashup.engine.registry cimport BaseDef, _Declares
from smashup.engine.state cimport BaseSlot, GameState

cpdef power(GameState game, cid)
cpdef _count_base(GameState game, slot)
cpdef _count_minions(GameState game, slot)
cpdef _count_power(GameState game, cid)
cpdef _count_one(GameState game, cid)
cpdef _working_modifiers(GameState game)
cpdef _modifiers_now(GameState game)
cpdef _lasting_bonuses(GameState game)
cpdef power_now(GameState game, cid)
cpdef _fresh_power(GameState game, cid)
cpdef total_power(GameState game, slot)
cpdef breakpoint(GameState game, slot)
cpdef starting_breakpoint(GameState game, slot)
