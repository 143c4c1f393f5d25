# Cython's declarations for core.py, read only by the compiled build (native.py); Python ignores
# this file. Option compiled is an extension type: a game makes tens of thousands (every play,
# target and answer offered), and its fields are C fields, set and read without a type lookup.
# They must be exactly its __slots__ (tests/engine/test_native.py checks).
cdef class Option:
    cdef public object id, _label, card, base, value, alike, play
