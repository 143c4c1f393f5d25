# Cython's declarations for effects.py, read only by the compiled build (native.py); Python ignores
# this file. _Ctx compiled is an extension type: every ability's verbs and questions read its
# fields (the game, the card, its player) as C fields. They must be exactly its __slots__
# (tests/engine/test_native.py checks). Ctx, its Python subclass, holds the verb wrappers.
cdef class _Ctx:
    cdef public object game, card, me, _base, applied, actor
