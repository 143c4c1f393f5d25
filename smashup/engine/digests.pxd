# Cython's declarations for digests.py, read only by the compiled build (native.py); Python
# ignores this file. Its functions take the game typed as a GameState (state.pxd), by
# `@cython.locals`.
from smashup.engine.state cimport GameState
