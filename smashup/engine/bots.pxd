# Cython's declarations for bots.py, read only by the compiled build (native.py); Python ignores
# this file. The random bot reads the open question typed (core.pxd's Decision): its counts and
# its pick by index are C reads and calls.
from smashup.engine.core cimport Decision
