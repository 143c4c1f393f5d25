# Cython's declarations for scoring.py, read only by the compiled build (native.py); Python
# ignores this file. Its functions take the game typed as a GameState (state.pxd), by
# `@cython.locals`; `ready_bases`, asked after every turn, is a C function.
from smashup.engine.powers cimport breakpoint, total_power
from smashup.engine.powers cimport power as power_of
from smashup.engine.protections cimport ability_active, base_active, card_ctx
from smashup.engine.reactions cimport _reactions_to
from smashup.engine.registry cimport CardDef
from smashup.engine.state cimport GameState

cpdef ready_bases(GameState game)
cpdef _breakpoint_lasting(GameState game)
