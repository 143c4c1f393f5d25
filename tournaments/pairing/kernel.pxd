# Cython's declarations for kernel.py, read only by the compiled build (smashup/engine/native.py);
# Python ignores this file. The arrays are read as typed memoryviews (int64 counts and indices,
# float64 costs, near as bytes) and every loop variable is a C integer or double, so a tabu step
# of a small event is plain machine loops.
cimport cython
from libc.stdint cimport int64_t

cdef double EPS

@cython.locals(n=Py_ssize_t, checked=bint, width=Py_ssize_t, p=Py_ssize_t, g=Py_ssize_t,
               value=double, count=Py_ssize_t, i=Py_ssize_t, f=int64_t, leave=double[::1],
               limit=double, evaluations=Py_ssize_t, found=bint, chosen_delta=double,
               lowest=double, chosen_x=Py_ssize_t, chosen_y=Py_ssize_t, ties=Py_ssize_t,
               x=Py_ssize_t, gx=Py_ssize_t, x_tabu=bint, s=Py_ssize_t, y=Py_ssize_t,
               gy=Py_ssize_t, into_x=double, into_y=double, delta=double)
cpdef tuple best_small_move(list trouble, const int64_t[:] where, const int64_t[:] order,
                            const int64_t[:] slot_group, const unsigned char[:, :] near,
                            const int64_t[:, :] metg, const double[:, :] side,
                            const double[:, :] met_cost, const int64_t[:, :] held,
                            const int64_t[:, :] factions, int64_t copies, double repeat,
                            double clash, const int64_t[:] tabu_until, int64_t step,
                            double current, double best, object rng)

@cython.locals(count=Py_ssize_t, i=Py_ssize_t, j=Py_ssize_t, f=int64_t, at=int64_t)
cdef inline Py_ssize_t _clashes_in(const int64_t[:, :] held, const int64_t[:, :] factions,
                            Py_ssize_t width, int64_t copies, Py_ssize_t g, Py_ssize_t into,
                            Py_ssize_t out) noexcept

cdef class Pricer:
    cdef const int64_t[:] where
    cdef const int64_t[:] seat
    cdef const int64_t[:, :] rows
    cdef int64_t[:, :] metg
    cdef bint dense
    cdef const int64_t[:, :] met
    cdef const int64_t[:] pair_keys
    cdef const int64_t[:] pair_times
    cdef list repeats
    cdef list clash_counts
    cdef list costs
    cdef const unsigned char[:] is_bye
    cdef bint checked
    cdef const int64_t[:, :] held
    cdef const int64_t[:, :] factions
    cdef Py_ssize_t width
    cdef int64_t copies
    cdef const double[:] points
    cdef const double[:] first_pen
    cdef const double[:] short_pen
    cdef Py_ssize_t n
    cdef Py_ssize_t seats
    cdef Py_ssize_t table_size
    cdef double repeat
    cdef double spread
    cdef double clash
    cdef object bye_cost

    @cython.locals(key=int64_t, lo=Py_ssize_t)
    cpdef int64_t met_times(self, Py_ssize_t x, Py_ssize_t y)

    cdef Py_ssize_t _first_pair(self, Py_ssize_t x)

    @cython.locals(lo=Py_ssize_t, hi=Py_ssize_t, mid=Py_ssize_t)
    cdef Py_ssize_t _lower_bound(self, int64_t key)

    @cython.locals(gx=Py_ssize_t, gy=Py_ssize_t)
    cpdef move_meetings(self, Py_ssize_t x, Py_ssize_t y)

    @cython.locals(start=int64_t, i=Py_ssize_t, key=int64_t, times=int64_t)
    cdef void _shift(self, Py_ssize_t mover, Py_ssize_t into, Py_ssize_t out)

    @cython.locals(total=int64_t, i=Py_ssize_t, p=Py_ssize_t)
    cpdef int64_t group_repeats(self, Py_ssize_t g)

    @cython.locals(n=Py_ssize_t, g=Py_ssize_t, at=Py_ssize_t, count=int64_t, total=double,
                   lowest=double, seated=Py_ssize_t, i=Py_ssize_t, j=Py_ssize_t, p=Py_ssize_t,
                   q=Py_ssize_t, d=double, cost=double, unfair=double, clashes=int64_t, f=int64_t,
                   gone=int64_t)
    cdef double _table_cost(self, Py_ssize_t out, Py_ssize_t into, int64_t both)

    cpdef double delta(self, Py_ssize_t x, Py_ssize_t y)

    @cython.locals(gx=Py_ssize_t, gy=Py_ssize_t, cost_a=double, cost_b=double, held_x=double,
                   held_y=double)
    cdef double _delta(self, Py_ssize_t x, Py_ssize_t y, int64_t both) except? -1.0

    @cython.locals(k=Py_ssize_t)
    cpdef pair_deltas(self, const int64_t[:] xs, const int64_t[:] ys, double[:] out)

    @cython.locals(n=Py_ssize_t, count=Py_ssize_t, chosen=Py_ssize_t, chosen_delta=double,
                   g=Py_ssize_t, i=Py_ssize_t, y=Py_ssize_t, value=double, first=Py_ssize_t,
                   last=Py_ssize_t, k=Py_ssize_t, both=int64_t)
    cpdef tuple best_swap(self, Py_ssize_t x, object groups)
