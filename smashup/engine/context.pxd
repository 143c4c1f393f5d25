# Cython's declarations for context.py, read only by the compiled build (native.py); Python ignores
# this file. _Ctx compiled is an extension type: every ability's verbs and questions read its
# fields (the game, the card, its player) as C fields, and its game is a GameState (state.pxd),
# whose fields they read and whose cpdef methods they call directly. The fields must be exactly
# its __slots__ (tests/engine/test_native.py checks). Ctx, its Python subclass, holds the verb
# wrappers.
from smashup.engine.core cimport MinionState
from smashup.engine.registry cimport _Declares
from smashup.engine.state cimport BaseSlot, GameState

cdef class _Ctx:
    cdef public GameState game
    cdef public object card, me, _base, applied, actor

# What a generator verb returns (about three hundred a game): an extension type, made and
# finalized (its __del__, the dropped-verb guardrail) without Python-level calls.
cdef class Effect:
    cdef public object gen, ctx, verb, started
