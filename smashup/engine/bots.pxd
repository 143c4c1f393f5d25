# Cython's declarations for bots.py, read only by the compiled build (native.py); Python ignores
# this file. The random bot reads the open question typed (core.pxd's Decision): its counts and
# its pick by index are C reads and calls; a keyed stream's bits (rng.pxd's _Bits) are drawn
# by C calls.
from smashup.engine.core cimport Decision
from smashup.engine.rng cimport _Bits
