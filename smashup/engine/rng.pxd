# Cython's declarations for rng.py, read only by the compiled build (native.py); Python ignores
# this file. _Bits compiled is an extension type whose word and bit counts are C integers: a
# draw of a few bits (every shuffle, sample and bot pick) is a few machine operations. Its fields
# must be exactly its __slots__ (tests/engine/test_native.py checks).
ctypedef unsigned long long u64

cdef class _Bits:
    cdef public object prf, counter
    cdef public u64 word
    cdef public int word_bits
    cdef public list words
    cpdef _next_word(self)
    cpdef u64 take(self, int k) except? 0xFFFFFFFFFFFFFFFF
    cpdef long long below(self, long long n) except? -1
