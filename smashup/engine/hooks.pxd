# Cython's declarations for hooks.py, read only by the compiled build (native.py); Python ignores
# this file. `indexes_wanted` reads a card's or a base's declared fields typed (registry.pxd): C
# reads, asked of every definition of every new game.
from smashup.engine.registry cimport BaseDef, CardDef, _Declares
