# Cython's declarations for verbs_choose.py, read only by the compiled build (native.py); Python
# ignores this file. Its functions take the ability's Ctx typed as a _Ctx (context.pxd), by
# `@cython.locals`.
from smashup.engine.context cimport _Ctx
