# Cython's declarations for views.py, read only by the compiled build (native.py); Python ignores
# this file. Its functions take the game typed as a GameState (state.pxd), by `@cython.locals`.
from smashup.engine.powers cimport breakpoint, total_power
from smashup.engine.powers cimport power as power_of
from smashup.engine.protections cimport ability_active, base_active
from smashup.engine.state cimport GameState
