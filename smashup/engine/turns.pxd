# Cython's declarations for turns.py, read only by the compiled build (native.py); Python ignores
# this file. Its functions take the game typed as a GameState (state.pxd), by `@cython.locals`;
# the main decision's options (listed about 186 times a game) are C functions.
from smashup.engine.core cimport Option
from smashup.engine.options cimport _mark_alike, _mark_alike_in_hand, alike_key, describe_minion
from smashup.engine.playing cimport talents_usable
from smashup.engine.plays cimport RowLater
from smashup.engine.protections cimport base_active
from smashup.engine.reactions cimport _index_triggers, _reactions_to, _top_level_reactions
from smashup.engine.specials cimport _window_possible
from smashup.engine.state cimport GameState, PlayerState

cpdef main_options(GameState game, seat, finder=*)
cpdef _talent_options(GameState game, seat)

# The main decision's options, counted and picked by index (asked about 186 times a game): an
# extension type, its fields C fields. They must be exactly its __slots__ (test_native checks).
cdef class _MainOptions:
    cdef public GameState game
    cdef public object seat, finder, _plays, _talents, _count, _picked
