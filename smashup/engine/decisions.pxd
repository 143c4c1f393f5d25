# Cython's declarations for decisions.py, read only by the compiled build (native.py); Python
# ignores this file. Its functions take the game typed as a GameState (state.pxd), set by
# `@cython.locals` on each: its fields are read as C fields.
from smashup.engine.state cimport GameState
from smashup.engine.core cimport Option
from smashup.engine.registry cimport _Declares
