# Cython's declarations for registry.py, read only by the compiled build (native.py); Python
# ignores this file. Trigger and Protection compiled are extension types: the rules read them for
# every event emitted (`_reactions_to`) and every power modifier and target (`affects`), as C
# fields where typed. Their fields must be exactly their __slots__ (tests/engine/test_native.py
# checks).
cdef class Trigger:
    cdef public object event, applies, run, optional_label, leaves_play, index

cdef class Protection:
    cdef public object kind, covers, from_, only, local
